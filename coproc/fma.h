/* coproc/fma.h — the Vector Unit's fused multiply-add, bit for bit as Blackhole computes it. */
#ifndef TTEMU_COPROC_FMA_H
#define TTEMU_COPROC_FMA_H

#include <stdbool.h>
#include <stdint.h>

/* a * b + c on FP32 bit patterns, as Blackhole's SFPMAD family (and the Baby RISC-V fma.s)
 * compute it: denormal inputs read as zero; one rounding, to nearest even; denormal results
 * flushed to signed zero; any NaN produced is 0x7FC00000; a product that on its own overflows is
 * infinite and one that on its own underflows is zero; the product keeps 3 guard bits beyond
 * FP32 and is not rounded before the add (SFPMAD.md "IEEE754 conformance", and the bit-exact
 * model it links, tt-isa-documentation Miscellaneous/FMA). */
uint32_t fma_bh(uint32_t a, uint32_t b, uint32_t c);
/* fma_bh on 32 lanes at once: d[l] = fma_bh(a[l], b[l], c[l]) (the same rules, four lanes at a
 * time: in floats where every b is 1.0, as for SFPADD and SFPADDI; else, on an SSE2 host, in
 * doubles where a and b are normal and c normal or of exponent 0). d may not overlap the inputs. */
#define FMA_LANES 32
void fma_bh_lanes(const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c,
                  uint32_t *restrict d);
/* fma_bh_lanes's rule for b = 1.0 with one a for every lane and c's signs flipped by c_sign
 * (SFPADDI: VD = Imm16 * 1.0 + ±VD): d[l] = fma_bh(a, 1.0, c[l] ^ c_sign). c and d may not
 * overlap. */
void fma_bh_lanes_add_k(uint32_t a, const uint32_t *restrict c, uint32_t c_sign, uint32_t *restrict d);
/* The same in place (SFPADDI with every lane enabled): v[l] = fma_bh(a, 1.0, v[l] ^ c_sign). */
void fma_bh_lanes_add_k_in(uint32_t a, uint32_t *v, uint32_t c_sign);
/* Its constant's part, made once for a kept word (SFPADDI's Imm16): *fa, what the lanes add (a
 * read as a float, zero where a is denormal); false where a is Inf or NaN (then only
 * fma_bh_lanes_add_k_in, which goes to the model). */
bool fma_add_k_of(uint32_t a, float *fa);
/* fma_bh_lanes_add_k_in for a finite a, given fma_add_k_of's fa. */
void fma_bh_lanes_add_fk_in(uint32_t a, float fa, uint32_t *v, uint32_t c_sign);
/* The same, always through the bit-level model (fma_bh takes shortcuts where the result is exact,
 * for b = 1.0 where it is the IEEE sum, and for an inexact product with a normal addend where it
 * is the IEEE fused multiply-add (coproc/fma.c inexact_ok); the tests compare the two). */
uint32_t fma_bh_model(uint32_t a, uint32_t b, uint32_t c);
/* Whether fma_bh's shortcuts give its result without the model (for the tests: that the
 * shortcuts are taken on what they are for). */
bool fma_bh_known(uint32_t a, uint32_t b, uint32_t c);
/* How many of 32 lanes fma_bh_lanes's general rule (the one for a b other than 1.0: exact4 four
 * lanes at a time on an SSE2 host, else fma_exact lane by lane) gives without the model, whatever
 * the b's (for the tests, as fma_bh_known: that exact4 accepts what it is for). */
unsigned fma_bh_lanes_known(const uint32_t *a, const uint32_t *b, const uint32_t *c);
/* Which form fma_bh_lanes's general rule has in this build: "sse2" (four lanes at a time in the
 * host's vector lanes) or "plain" (-DTTEMU_NO_SIMD or no SSE2: lane by lane). */
const char *fma_lanes_form(void);

#endif
