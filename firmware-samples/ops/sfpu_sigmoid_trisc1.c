/* sfpu_sigmoid, math (TRISC1): each tile copied into Dst, then sigmoid 1 / (1 + e^-x) by the SFPU as tt-llk's
 * Blackhole function computes it (ttemu_sfpu.h SFPU_SIGMOID_*; docs/ops-sfpu.md). */
#include "sfpu_unary.h"

int main(void) { SFPU_UNARY_MATH(SFPU_SIGMOID_INIT(), SFPU_SIGMOID_ITER()); }
