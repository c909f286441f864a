/* TEMPORARY: register-file layout conversions the datapath needs, until coproc/formats.c (being
 * written in parallel) lands; then these calls move to it and this file goes. */
#ifndef TTEMU_COPROC_DP_FMT_TMP_H
#define TTEMU_COPROC_DP_FMT_TMP_H
#include <stdint.h>

/* UNPACR_Regular.md WriteSrcTF32: Sign,Exp(8),Man(10) -> Sign,Man(10),Exp(8). */
static inline uint32_t tmp_src_from_tf32(uint32_t x19) {
    return (x19 & 0x40000u) | ((x19 & 0x3FFu) << 8) | ((x19 & 0x3FC00u) >> 10);
}
static inline uint32_t tmp_src_from_bf16(uint16_t x) { return tmp_src_from_tf32((uint32_t)x << 3); }
static inline uint32_t tmp_src_from_fp16(uint16_t x) {
    return tmp_src_from_tf32(((uint32_t)(x & 0x8000u) << 3) | (x & 0x7FFFu));
}
/* Dst.md DstEncodeBF16 / DstDecodeBF16, and the FP16 pair. */
static inline uint16_t tmp_dst_enc_bf16(uint16_t x) {
    return (uint16_t)((x & 0x8000u) | ((x & 0x7Fu) << 8) | ((x >> 7) & 0xFFu));
}
static inline uint16_t tmp_dst_dec_bf16(uint16_t x) {
    return (uint16_t)((x & 0x8000u) | ((x & 0xFFu) << 7) | ((x >> 8) & 0x7Fu));
}
static inline uint16_t tmp_dst_enc_fp16(uint16_t x) {
    return (uint16_t)((x & 0x8000u) | ((x & 0x3FFu) << 5) | ((x >> 10) & 0x1Fu));
}
static inline uint16_t tmp_dst_dec_fp16(uint16_t x) {
    return (uint16_t)((x & 0x8000u) | ((x & 0x1Fu) << 10) | ((x >> 5) & 0x3FFu));
}
/* Dst32b FP32: the BF16 arrangement of the high 16 bits (UNPACR_Regular.md WriteDstFP32). */
static inline uint32_t tmp_dst_enc_fp32(uint32_t x) {
    return (uint32_t)tmp_dst_enc_bf16((uint16_t)(x >> 16)) << 16 | (x & 0xFFFFu);
}
static inline uint32_t tmp_dst_dec_fp32(uint32_t x) {
    return (uint32_t)tmp_dst_dec_bf16((uint16_t)(x >> 16)) << 16 | (x & 0xFFFFu);
}
#endif
