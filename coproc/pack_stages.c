/* coproc/pack_stages.c — ReLU and exponent thresholding in the packer (coproc/pack_stages.h).
 *
 * ReLU.md: ZERO_RELU maps x <= 0 to 0; MIN_THRESHOLD_RELU x <= T to 0; MAX_THRESHOLD_RELU x <= 0
 * to 0 and x > T to T. T is STACC_RELU_ReluThreshold read as FP16 for the FP16, FP8 and BFPxa
 * intermediates, as BF16 otherwise (FP32 takes it as its top 16 bits); a T with its sign bit set
 * is undefined. The page works on floats "losslessly converted up": comparisons here are on the
 * values (NaN compares false, so it passes; 5-bit-exponent patterns have no Inf or NaN and
 * exponent 31 is a number, FloatBitPatterns.md "FP16"). Integer intermediates take only ZERO_RELU
 * (negative integers to 0; the others are undefined on the page). A datum mapped to 0 is +0.
 * ExponentThresholding.md: with Exp_threshold_en, a datum whose exponent field is below
 * Exp_threshold becomes 0 — the 8-bit field for FP32/TF32/BF16/BFP8/BFP4, the 5-bit one for
 * FP16/FP8/BFP8a/BFP4a as In_data_format names them, undefined for BFP2a; integers pass. The
 * exponent read is the intermediate's: an In_data_format of the other exponent width than the
 * intermediate is refused (no page says which field would be compared). */
#include "coproc/pack_stages.h"

#include <math.h>
#include <string.h>

static unsigned class_of(unsigned fmt) {
    switch (fmt) {
    case FMT_FP32:
    case FMT_TF32: return PST_F32;
    case FMT_BF16:
    case FMT_BFP8:
    case FMT_BFP4:
    case FMT_BFP2: return PST_B16;
    case FMT_INT32: return PST_I32;
    case FMT_INT16: return PST_I16;
    default: return PST_H16; /* FP16, FP8, BFP8a/4a/2a */
    }
}

/* The value of a pattern of class cls (integers: their sign only matters, through sign_of). */
static double value_of(unsigned cls, uint32_t v) {
    if (cls == PST_F32 || cls == PST_B16) {
        uint32_t f = cls == PST_B16 ? v << 16 : v;
        float r;
        memcpy(&r, &f, 4);
        return r;
    }
    unsigned e = (v >> 10) & 31, m = v & 0x3FF;
    double mag = e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
    return (v & 0x8000) ? -mag : mag;
}

static unsigned exponent_of(unsigned cls, uint32_t v) {
    return cls == PST_F32 ? (v >> 23) & 0xFF : cls == PST_B16 ? (v >> 7) & 0xFF : (v >> 10) & 31;
}

bool pack_stages_init(dp_ctx_t *x, unsigned intermediate, pack_stages_t *s) {
    *s = (pack_stages_t){.cls = (uint8_t)class_of(intermediate),
                         .relu = (uint8_t)(CFG(x, STACC_RELU_ApplyRelu) & 3),
                         .exp_thr = CFG(x, THCON_SEC0_REG1_Exp_threshold_en),
                         .exp_min = (uint8_t)CFG(x, THCON_SEC0_REG1_Exp_threshold)};
    s->active = s->relu || s->exp_thr;
    bool integer = s->cls == PST_I32 || s->cls == PST_I16;
    if (s->relu >= 2) {
        if (integer) {
            dp_fail(x, CP_ERR_UNDEFINED, "PACR: ReLU mode %u through the integer format %s (ReLU.md: 0 or 1 only)",
                    s->relu, fmt_name(intermediate));
            return false;
        }
        uint32_t t = CFG(x, STACC_RELU_ReluThreshold);
        if (t & 0x8000) {
            dp_fail(x, CP_ERR_UNDEFINED, "PACR: ReLU threshold 0x%04x has its sign bit set (ReLU.md: undefined)", t);
            return false;
        }
        s->thr_bits = s->cls == PST_F32 ? t << 16 : t;
        s->thr = value_of(s->cls == PST_H16 ? PST_H16 : PST_B16, t);
    }
    if (s->exp_thr) {
        unsigned in = CFG(x, THCON_SEC0_REG1_In_data_format);
        if (in == FMT_BFP2A) {
            dp_fail(x, CP_ERR_UNDEFINED, "PACR: exponent thresholding with In_data_format BFP2a (a hardware bug)");
            return false;
        }
        bool in8 = in == FMT_FP32 || in == FMT_TF32 || in == FMT_BF16 || in == FMT_BFP8 || in == FMT_BFP4;
        bool in5 = in == FMT_FP16 || in == FMT_FP8 || in == FMT_BFP8A || in == FMT_BFP4A;
        if (!in8 && !in5) {
            s->exp_thr = false; /* integer formats: no case on the page */
        } else if (integer || in8 != (s->cls != PST_H16)) {
            dp_fail(x, CP_ERR_UNSPECIFIED, "PACR: exponent thresholding with In_data_format %s through %s",
                    fmt_name(in), fmt_name(intermediate));
            return false;
        }
        s->active = s->relu || s->exp_thr;
    }
    return true;
}

uint32_t pack_stages_apply(const pack_stages_t *s, uint32_t v) {
    if (s->relu) {
        if (s->cls == PST_I32 || s->cls == PST_I16) {
            if (v >> (s->cls == PST_I32 ? 31 : 15)) v = 0;
        } else {
            double d = value_of(s->cls, v);
            switch (s->relu) {
            case 1:
                if (d <= 0) v = 0;
                break;
            case 2:
                if (d <= s->thr) v = 0;
                break;
            default:
                if (d <= 0)
                    v = 0;
                else if (d > s->thr)
                    v = s->thr_bits;
                break;
            }
        }
    }
    if (s->exp_thr && exponent_of(s->cls, v) < s->exp_min) v = 0;
    return v;
}
