/* sfpu_gelu, unpack (TRISC0): out = gelu (tt-metal's approximate form) of in0, bf16 [64, 64] (sfpu_unary.h). */
#include "sfpu_unary.h"

int main(void) { return sfpu_unary_unpack(); }
