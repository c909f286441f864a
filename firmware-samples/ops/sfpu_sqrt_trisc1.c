/* sfpu_sqrt, math (TRISC1): each tile copied into Dst, then the square root by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_SQRT_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_SQRT_INIT(), SFPU_SQRT_ITER()); }
