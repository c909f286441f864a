/* sfpu_exp, unpack (TRISC0): out = e^x of in0, bf16 [64, 64] (sfpu_unary.h). */
#include "sfpu_unary.h"

int main(void) { return sfpu_unary_unpack(); }
