/* sfpu_relu, pack (TRISC2): each tile of the BF16 Dst to out, bf16 (sfpu_unary.h). */
#include "sfpu_unary.h"

int main(void) { return sfpu_unary_pack(); }
