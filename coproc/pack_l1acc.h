/* coproc/pack_l1acc.h — the packer's L1 accumulation (THCON_SEC0_REG1_Pack_L1_Acc: "L1 += Datum
 * rather than L1 = Datum", Packers/README.md, which says no more). The arithmetic is ttsim's
 * (v1.10.0 src/tensix.cpp, pack_l1_acc_fp32 / _bf16 / _fp16), the documented behaviour where the
 * pages are silent; ttsim models it for FP32, BF16 and FP16 outputs only, and so does ttemu.
 * Each takes the datum already in L1 and the packer's new datum, both in the output format, and
 * returns what is written. Used by coproc/pack.c. */
#ifndef TTEMU_COPROC_PACK_L1ACC_H
#define TTEMU_COPROC_PACK_L1ACC_H

#include <stdbool.h>
#include <stdint.h>

/* Whether an output format accumulates (FP32, FP16, BF16). */
bool pack_l1acc_supported(unsigned out_fmt);
/* FP32: denormals of either operand read as signed zero, one IEEE addition rounded to nearest
 * even, any NaN result the canonical 0x7FC00000, a denormal result a signed zero. */
uint32_t pack_l1acc_fp32(uint32_t l1, uint32_t v);
/* BF16: +Inf + -Inf is the NaN 0x7FC0; denormals read as signed zero; a NaN in L1 reads as the
 * largest finite double of its sign, a NaN datum as the number of exponent 255 with its mantissa;
 * the sum (in double precision) is rounded to nearest even into BF16, exponents <= 0 giving a
 * signed zero and >= 255 a signed infinity. */
uint16_t pack_l1acc_bf16(uint16_t l1, uint16_t v);
/* FP16 (no Inf or NaN: exponent 31 is a number): each operand as the FP32 number it is (an
 * exponent field of 0 as a signed zero), their FP32 sum; an exact cancellation gives a signed
 * zero, or 0x7FFF with its sign when L1's exponent field is 30 or 31; a sum below the FP16
 * normals 0x7FFF with its sign (exponent < 0) or a signed zero (exponent 0); else rounded to
 * nearest even, saturating at 0x7FFF. */
uint16_t pack_l1acc_fp16(uint16_t l1, uint16_t v);

#endif
