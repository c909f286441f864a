/* sfpu_tanh, math (TRISC1): each tile copied into Dst, then tanh by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_TANH_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_TANH_INIT(), SFPU_TANH_ITER()); }
