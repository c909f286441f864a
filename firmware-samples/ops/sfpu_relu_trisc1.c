/* sfpu_relu, math (TRISC1): each tile copied into Dst, then relu (max(x, 0)) by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_RELU_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_RELU_INIT(), SFPU_RELU_ITER()); }
