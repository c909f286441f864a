/* sfpu_gelu, math (TRISC1): each tile copied into Dst, then gelu (tt-metal's approximate form) by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_GELU_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_GELU_INIT(), SFPU_GELU_ITER()); }
