/* ttemu_sfpu.h — tt-llk's Blackhole SFPU functions (tenstorrent/tt-llk tt_llk_blackhole/common/inc/
 * sfpu/ckernel_sfpu_*.h, written with SFPI), restated as the Vector Unit instructions they compute
 * with: the same algorithm, constants, branches (lane predication) and rounding, instruction by
 * instruction in ttemu's own words. docs/ops-sfpu.md lists each function's source and tolerance.
 *
 * Everything here is a macro over SFPU_I(word), which pushes one Tensix instruction: TTI (a `.word`
 * in the RISC-V stream) in the firmware samples; the unit test test/unit/test_sfpu_kernels.c defines
 * it to feed the same words to the datapath. Words come from the generated encoders (TT_OP_*,
 * coproc/tt_fields.h), register operands by tt-llk's p_sfpu names.
 *
 * Conventions, as tt-llk's: Dst is read and written as SFPLOAD/SFPSTORE's default format (Mod0 0,
 * resolved by the SrcB format: BF16 for the bf16 samples), ADDR_MOD_7 has no increments, each
 * iteration covers 32 datums (4 rows, even or odd columns) and advances the Dst RWC by 2
 * (sfpi::dst_reg++), eight iterations a face, then the RWC moves to the next face (SETRWC +8, +8). */
#ifndef TTEMU_SFPU_H
#define TTEMU_SFPU_H

#ifndef SFPU_I
#include "ttemu_fw.h"
#define SFPU_I(w) TTI(w)
#endif

/* tt-llk p_sfpu: LReg[0..7], and the constant registers (LReg.md). SFPI's programmable constants
 * vConstFloatPrgm0..2 / vConstIntPrgm0..2 are LReg[12..14], written by SFPCONFIG. */
#define SFPU_L0            0
#define SFPU_L1            1
#define SFPU_L2            2
#define SFPU_L3            3
#define SFPU_L4            4
#define SFPU_L5            5
#define SFPU_L6            6
#define SFPU_L7            7
#define SFPU_LCONST_0P8373 8
#define SFPU_LCONST_0      9
#define SFPU_LCONST_1      10
#define SFPU_LCONST_NEG1   11
#define SFPU_PRGM0         12
#define SFPU_PRGM1         13
#define SFPU_PRGM2         14
#define SFPU_AM            7 /* ADDR_MOD_7: all increments 0 */

/* Mod1 / Mod0 values by their ISA page names. */
#define SFPU_LOADI_BF16   0
#define SFPU_LOADI_USHORT 2
#define SFPU_LOADI_UPPER  8
#define SFPU_LOADI_LOWER  10
#define SFPU_CC_LT0       0
#define SFPU_CC_NE0       2
#define SFPU_CC_GTE0      4
#define SFPU_MAD_NEG_A    1
#define SFPU_MAD_NEG_C    2
#define SFPU_IADD_IMM     1
#define SFPU_IADD_2SCOMP  2
#define SFPU_IADD_CC_NONE 4

/* ---- building blocks ---------------------------------------------------------------------------- */

/* _sfpu_load_imm32_: LReg[r] = v (low half, then high half). */
#define SFPU_LOAD_IMM32(r, v)                                                                                          \
    do {                                                                                                               \
        SFPU_I(TT_OP_SFPLOADI((r), SFPU_LOADI_LOWER, (uint32_t)(v)&0xFFFFu));                                          \
        SFPU_I(TT_OP_SFPLOADI((r), SFPU_LOADI_UPPER, (uint32_t)(v) >> 16));                                            \
    } while (0)
/* _sfpu_load_imm16_: LReg[r] = v zero-extended. */
#define SFPU_LOAD_IMM16(r, v) SFPU_I(TT_OP_SFPLOADI((r), SFPU_LOADI_USHORT, (v)))
/* sfpi::vConstFloatPrgm<i> = v (LReg[12 + i] from LReg[0] through SFPCONFIG; LReg[0] is clobbered). */
#define SFPU_SET_PRGM(i, v)                                                                                            \
    do {                                                                                                               \
        SFPU_LOAD_IMM32(SFPU_L0, (v));                                                                                 \
        SFPU_I(TT_OP_SFPCONFIG(0, SFPU_PRGM0 + (i), 0));                                                               \
    } while (0)
/* sfpi::vCCCtrl::enable_cc: conditional execution on, every lane's flag set (SFPENCC EI, RI). */
#define SFPU_ENABLE_CC() SFPU_I(TT_OP_SFPENCC(3, 0, 0, 10))
/* v_if(...) / v_endif: push the lane state, narrow it; pop it. */
#define SFPU_PUSHC()         SFPU_I(TT_OP_SFPPUSHC(0, 0, 0, 0))
#define SFPU_POPC()          SFPU_I(TT_OP_SFPPOPC(0, 0, 0, 0))
#define SFPU_SETCC(vc, mode) SFPU_I(TT_OP_SFPSETCC(0, (vc), 0, (mode)))
#define SFPU_LOAD(r)         SFPU_I(TT_OP_SFPLOAD((r), 0, SFPU_AM, 0))
#define SFPU_STORE(r)        SFPU_I(TT_OP_SFPSTORE((r), 0, SFPU_AM, 0))
/* float_to_fp16b(v, 0): SFPSTOCHRND to 7 mantissa bits, to nearest (ties away). */
#define SFPU_TO_BF16_RN(r) SFPU_I(TT_OP_SFP_STOCH_RND(0, 0, (r), (r), (r), 1))

/* The whole tile: four faces of eight iterations of BODY (sfpi::dst_reg++ after each: Dst RWC += 2;
 * after a face, Dst = Dst_Cr + 8 twice: the next face), then the Dst RWC back to 0. */
#define SFPU_TILE(BODY)                                                                                                \
    do {                                                                                                               \
        for (int sfpu_face_ = 0; sfpu_face_ < 4; sfpu_face_++) {                                                       \
            for (int sfpu_it_ = 0; sfpu_it_ < 8; sfpu_it_++) {                                                         \
                BODY;                                                                                                  \
                SFPU_I(TT_OP_INCRWC(0, 2, 0, 0));                                                                      \
            }                                                                                                          \
            SFPU_I(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));                                                                    \
            SFPU_I(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));                                                                    \
        }                                                                                                              \
        SFPU_I(TT_OP_SETRWC(0, 0, 0, 0, 0, 4));                                                                        \
    } while (0)

/* ---- relu (ckernel_sfpu_relu.h _relu_min_ with threshold 0: v_if (a < 0) a = 0) ---------------- */

#define SFPU_RELU_INIT() SFPU_ENABLE_CC()
#define SFPU_RELU_ITER()                                                                                               \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L0);                                                                                            \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L0, SFPU_CC_LT0);                                                                              \
        SFPU_I(TT_OP_SFPLOADI(SFPU_L0, SFPU_LOADI_BF16, 0));                                                           \
        SFPU_POPC();                                                                                                   \
        SFPU_STORE(SFPU_L0);                                                                                           \
    } while (0)

/* ---- reciprocal (ckernel_sfpu_recip.h _calculate_reciprocal_fast_8b_3c_, the instruction form
 * without SFPLOADMACRO): y = SFPARECIP(x) with bit 15 set (the BF16 interval's midpoint), t = x y - 1,
 * y += t's top 16 bits as an integer — which carries into y's last BF16 bit exactly when t < 0 — and
 * SFPSTORE's BF16 truncation keeps y rounded to nearest. ------------------------------------------ */

#define SFPU_RECIP_INIT() SFPU_I(TT_OP_SFPLOADI(SFPU_L2, SFPU_LOADI_USHORT, 0x8000))
#define SFPU_RECIP_ITER()                                                                                              \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L0);                                                                                            \
        SFPU_I(TT_OP_SFPMAD(SFPU_LCONST_0, SFPU_LCONST_0, SFPU_L0, SFPU_L1, 0));                                       \
        SFPU_I(TT_OP_SFPARECIP(0, SFPU_L0, SFPU_L0, 0));                                                               \
        SFPU_I(TT_OP_SFPOR(0, SFPU_L2, SFPU_L0, 0));                                                                   \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_L0, SFPU_LCONST_NEG1, SFPU_L1, 0));                                          \
        SFPU_I(TT_OP_SFPSHFT((uint32_t)(-16) & 0xFFFu, SFPU_L1, SFPU_L1, 5));                                          \
        SFPU_I(TT_OP_SFPIADD(0, SFPU_L1, SFPU_L0, SFPU_IADD_CC_NONE));                                                 \
        SFPU_STORE(SFPU_L0);                                                                                           \
    } while (0)

/* ---- sqrt (ckernel_sfpu_sqrt.h _calculate_sqrt_body_, not approximate, then float_to_fp16b):
 * y = 0x5f1110a0 - (x >> 1) as integers (an inverse square root seed), one polynomial refinement
 * y = y (2.2825186 + c (2.2533049 + c)) with c = -y (x y), then for x below +Inf (as integers)
 * sqrt = x y + (1 - x y y) (x y / 2), else y; x < 0 (-0 included: the test is on the sign) gives
 * NaN; the result rounded to BF16 (nearest, ties away; NaN becomes Inf there). ------------------ */

#define SFPU_SQRT_INIT()                                                                                               \
    do {                                                                                                               \
        SFPU_ENABLE_CC();                                                                                              \
        SFPU_SET_PRGM(0, 0x5F1110A0u);                                                                                 \
        SFPU_SET_PRGM(1, 0x401214C9u);         /* 2.2825186f */                                                        \
        SFPU_SET_PRGM(2, 0x40103626u);         /* 2.2533049f */                                                        \
        SFPU_LOAD_IMM32(SFPU_L7, 0x7F800000u); /* +Inf's bits */                                                       \
    } while (0)
#define SFPU_SQRT_ITER()                                                                                               \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L0);                                                                  /* x */                   \
        SFPU_I(TT_OP_SFPSHFT((uint32_t)(-1) & 0xFFFu, SFPU_L0, SFPU_L1, 5));                 /* i = x >> 1 */          \
        SFPU_I(TT_OP_SFPIADD(0, SFPU_PRGM0, SFPU_L1, SFPU_IADD_2SCOMP | SFPU_IADD_CC_NONE)); /* y = magic - i */       \
        SFPU_I(TT_OP_SFPMUL(SFPU_L0, SFPU_L1, SFPU_LCONST_0, SFPU_L2, 0));                   /* xy */                  \
        SFPU_I(TT_OP_SFPMUL(SFPU_L1, SFPU_L2, SFPU_LCONST_0, SFPU_L3, SFPU_MAD_NEG_A));      /* c = -y xy */           \
        SFPU_I(TT_OP_SFPADD(SFPU_LCONST_1, SFPU_PRGM2, SFPU_L3, SFPU_L4, 0));                /* prgm2 + c */           \
        SFPU_I(TT_OP_SFPMAD(SFPU_L3, SFPU_L4, SFPU_PRGM1, SFPU_L4, 0));                      /* prgm1 + c (..) */      \
        SFPU_I(TT_OP_SFPMUL(SFPU_L1, SFPU_L4, SFPU_LCONST_0, SFPU_L1, 0));                   /* y *= .. */             \
        SFPU_I(TT_OP_SFPMUL(SFPU_L0, SFPU_L1, SFPU_LCONST_0, SFPU_L2, 0));                   /* xy */                  \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_L2, SFPU_LCONST_1, SFPU_L3, SFPU_MAD_NEG_A));      /* 1 - y xy */            \
        SFPU_I(TT_OP_SFPMOV(0, SFPU_L2, SFPU_L6, 0));                                                                  \
        SFPU_I(TT_OP_SFPMULI(0x3F00, SFPU_L6, 0)); /* xy / 2 */                                                        \
        SFPU_I(TT_OP_SFPMOV(0, SFPU_L7, SFPU_L5, 0));                                                                  \
        SFPU_PUSHC();                                                                                                  \
        SFPU_I(TT_OP_SFPIADD(0, SFPU_L0, SFPU_L5, SFPU_IADD_2SCOMP)); /* flags: x - Inf < 0 */                         \
        SFPU_I(TT_OP_SFPMAD(SFPU_L3, SFPU_L6, SFPU_L2, SFPU_L1, 0));  /* y = (1 - xyy) xy/2 + xy */                    \
        SFPU_POPC();                                                                                                   \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L0, SFPU_CC_LT0);                                                                              \
        SFPU_I(TT_OP_SFPLOADI(SFPU_L1, SFPU_LOADI_BF16, 0x7FC0)); /* quiet_NaN */                                      \
        SFPU_POPC();                                                                                                   \
        SFPU_TO_BF16_RN(SFPU_L1);                                                                                      \
        SFPU_STORE(SFPU_L1);                                                                                           \
    } while (0)

/* ---- exp (ckernel_sfpu_exp.h _calculate_exponential_, not approximate: _sfpu_exp_ on |x| then, for
 * x < 0, _sfpu_reciprocal_<2>). _sfpu_exp_: for e = exponent(|x|) >= 0 scale |x| into [0.5, 1)
 * (exponent 126), evaluate v (v 0.8373 + 0.859375) + 1 (sFloat16b(0.863281f): SFPI truncates
 * literals to BF16), then square e + 1 times (at most 8). _sfpu_reciprocal_: y = SFPARECIP(x),
 * t = x y - 2, y1 = -y t, and where t < 0 one more step t = x y1 - 2, y = -y1 t. -------------- */

#define SFPU_EXP_INIT()                                                                                                \
    do {                                                                                                               \
        SFPU_ENABLE_CC();                                                                                              \
        SFPU_SET_PRGM(0,                                                                                               \
                      0x40000000u); /* _init_sfpu_reciprocal_: vConstFloatPrgm0 = 2.0 (check_fields: not a field) */   \
    } while (0)
#define SFPU_EXP_ITER()                                                                                                \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L0);                              /* in */                                                      \
        SFPU_I(TT_OP_SFPSETSGN(0, SFPU_L0, SFPU_L1, 1)); /* val = |in| */                                              \
        SFPU_I(TT_OP_SFPEXEXP(0, SFPU_L1, SFPU_L2, 0));  /* exp = exexp(val) */                                        \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L2, SFPU_CC_GTE0);                                                                             \
        SFPU_I(TT_OP_SFPSETEXP(126, SFPU_L1, SFPU_L1, 1)); /* val = setexp(val, 126) */                                \
        SFPU_POPC();                                                                                                   \
        SFPU_I(TT_OP_SFPLOADI(SFPU_L3, SFPU_LOADI_BF16, 0x3F5C));               /* sFloat16b(0.863281f) */             \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_LCONST_0P8373, SFPU_L3, SFPU_L3, 0)); /* tmp */                              \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_L3, SFPU_LCONST_1, SFPU_L1, 0));      /* val = val tmp + 1 */                \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L2, SFPU_CC_GTE0);                                                                             \
        SFPU_I(TT_OP_SFPMUL(SFPU_L1, SFPU_L1, SFPU_LCONST_0, SFPU_L1, 0));                                             \
        for (int sfpu_sq_ = 0; sfpu_sq_ < 7; sfpu_sq_++) {                                                             \
            SFPU_I(TT_OP_SFPIADD(0xFFF, SFPU_L2, SFPU_L2, SFPU_IADD_IMM | SFPU_IADD_CC_NONE)); /* exp -= 1 */          \
            SFPU_SETCC(SFPU_L2, SFPU_CC_GTE0);                                                 /* v_and(exp >= 0) */   \
            SFPU_I(TT_OP_SFPMUL(SFPU_L1, SFPU_L1, SFPU_LCONST_0, SFPU_L1, 0));                                         \
        }                                                                                                              \
        SFPU_POPC();                                                                                                   \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L0, SFPU_CC_LT0);                                            /* v_if (in < 0) */               \
        SFPU_I(TT_OP_SFPARECIP(0, SFPU_L1, SFPU_L4, 0));                             /* y */                           \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_L4, SFPU_PRGM0, SFPU_L5, SFPU_MAD_NEG_C)); /* t = x y - 2 */                 \
        SFPU_I(TT_OP_SFPMAD(SFPU_L4, SFPU_L5, SFPU_LCONST_0, SFPU_L6, SFPU_MAD_NEG_A | SFPU_MAD_NEG_C)); /* y1 */      \
        SFPU_PUSHC();                                                                                                  \
        SFPU_SETCC(SFPU_L5, SFPU_CC_LT0); /* v_if (t < 0) */                                                           \
        SFPU_I(TT_OP_SFPMAD(SFPU_L1, SFPU_L6, SFPU_PRGM0, SFPU_L5, SFPU_MAD_NEG_C));                                   \
        SFPU_I(TT_OP_SFPMAD(SFPU_L6, SFPU_L5, SFPU_LCONST_0, SFPU_L4, SFPU_MAD_NEG_A | SFPU_MAD_NEG_C));               \
        SFPU_POPC();                                                                                                   \
        SFPU_I(TT_OP_SFPMOV(0, SFPU_L4, SFPU_L1, 0)); /* out = y */                                                    \
        SFPU_POPC();                                                                                                   \
        SFPU_STORE(SFPU_L1);                                                                                           \
    } while (0)

/* ---- tanh (ckernel_sfpu_tanh.h _calculate_tanh_: SFPLUT with the sign kept; coefficients 0x1DFF,
 * 0x481A, 0xFF00: 0.90625 |x| below 1, 0.09375 |x| + 0.8125 below 2, then 1). ------------------- */

#define SFPU_TANH_INIT()                                                                                               \
    do {                                                                                                               \
        SFPU_LOAD_IMM16(SFPU_L0, 0x1DFF);                                                                              \
        SFPU_LOAD_IMM16(SFPU_L1, 0x481A);                                                                              \
        SFPU_LOAD_IMM16(SFPU_L2, 0xFF00);                                                                              \
    } while (0)
#define SFPU_TANH_ITER()                                                                                               \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L3);                                                                                            \
        SFPU_I(TT_OP_SFPLUT(SFPU_L3, 4, 0)); /* lut(): SFPLUT_MOD0_SGN_RETAIN */                                       \
        SFPU_STORE(SFPU_L3);                                                                                           \
    } while (0)

/* ---- sigmoid (ckernel_sfpu_sigmoid.h _calculate_sigmoid_: lut2(x, l0, l1, l2, l4, l5, l6, 0) + 0.5;
 * SFPI's lut2 takes mode 0 as SFPLUTFP32_MOD0_FP16_6ENTRY_TABLE2 with the sign kept: six FP16
 * line segments over |x| split at 0.5, 1, 1.5, 2, 4, odd in x). -------------------------------------- */

#define SFPU_SIGMOID_INIT()                                                                                            \
    do {                                                                                                               \
        SFPU_LOAD_IMM32(SFPU_L0, 0x32F433D9u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L4, 0x23C89018u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L1, 0x300A318Au);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L5, 0x30272BAAu);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L2, 0x7C002A35u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L6, 0x37FF34CCu);                                                                         \
    } while (0)
#define SFPU_SIGMOID_ITER()                                                                                            \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L3);                                                                                            \
        SFPU_I(TT_OP_SFPLUTFP32(SFPU_L7, 3 | 4));  /* FP16_6ENTRY_TABLE2 | SGN_RETAIN */                               \
        SFPU_I(TT_OP_SFPADDI(0x3F00, SFPU_L7, 0)); /* + 0.5 */                                                         \
        SFPU_STORE(SFPU_L7);                                                                                           \
    } while (0)

/* ---- gelu (ckernel_sfpu_gelu.h _calculate_gelu_appx_, tt-metal's default fast_and_approx: x / 2 +
 * lut2_sign(x, l0, l1, l2, l4, l5, l6): SFPLUTFP32 FP16_6ENTRY_TABLE1 on |x| without the sign, an
 * even function approximating x erf(x / sqrt 2) / 2). --------------------------------------------- */

#define SFPU_GELU_INIT()                                                                                               \
    do {                                                                                                               \
        SFPU_SET_PRGM(0, 0x3F000000u); /* vConstFloatPrgm0 = 0.5 (check_fields: not a field) */                        \
        SFPU_LOAD_IMM32(SFPU_L0, 0x37E7322Bu);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L4, 0xB12286D8u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L1, 0x38E138F3u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L5, 0xB437B479u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L2, 0x38003852u);                                                                         \
        SFPU_LOAD_IMM32(SFPU_L6, 0x7C00AFA4u);                                                                         \
    } while (0)
#define SFPU_GELU_ITER()                                                                                               \
    do {                                                                                                               \
        SFPU_LOAD(SFPU_L3);                                                                                            \
        SFPU_I(TT_OP_SFPMUL(SFPU_L3, SFPU_PRGM0, SFPU_LCONST_0, SFPU_L7, 0)); /* half_in */                            \
        SFPU_I(TT_OP_SFPLUTFP32(SFPU_L3, 2));                                 /* FP16_6ENTRY_TABLE1 */                 \
        SFPU_I(TT_OP_SFPADD(SFPU_LCONST_1, SFPU_L7, SFPU_L3, SFPU_L3, 0));    /* half_in + result */                   \
        SFPU_STORE(SFPU_L3);                                                                                           \
    } while (0)

#endif
