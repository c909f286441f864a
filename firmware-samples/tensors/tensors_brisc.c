/* Tensors in and out (docs/tensors.md): the host writes two tensors and their element counts, this
 * program transforms them, the host reads the results back and compares them with NumPy's
 * (firmware-samples/regress/tensors.json; scripts/make_sample_data.py makes the data):
 *   a (int32, tiles) at 0x20000 -> a + 1 at 0x30000 (wrapping), count at 0x1F000;
 *   b (bfloat16, rows) at 0x28000 -> -b at 0x38000 (the sign bit flipped), count at 0x1F004.
 * Element-wise, so neither result depends on the layout: the host's tilize/untilize is what the
 * round trip checks. */
#include "ttemu_fw.h"

#define A_COUNT       0x1F000u
#define B_COUNT       0x1F004u
#define A_IN          0x20000u
#define A_OUT         0x30000u
#define B_IN          0x28000u
#define B_OUT         0x38000u
#define L1_HALF(addr) (*(volatile uint16_t *)(uintptr_t)(addr))

int main(void) {
    uint32_t n = L1_WORD(A_COUNT), m = L1_WORD(B_COUNT);
    for (uint32_t i = 0; i < n; i++)
        L1_WORD(A_OUT + 4 * i) = L1_WORD(A_IN + 4 * i) + 1;
    for (uint32_t i = 0; i < m; i++)
        L1_HALF(B_OUT + 2 * i) = (uint16_t)(L1_HALF(B_IN + 2 * i) ^ 0x8000u);
    return 0;
}
