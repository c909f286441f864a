/* coproc/unpack_z.c — UNPACR of zero-compressed input (IsUncompressed = 0, or a context's
 * Disable_zero_compress_cntx clear): UNPACR_Regular.md's functional model on the layout of
 * Packers/Compression.md. The row start index array (16 bits an entry) gives the row's first
 * augmented datum; augmented datums come in groups of 32, each group's datums followed by 32
 * four-bit counts of the zeroes after each datum (16 bytes); every datum is followed by its count
 * of zeroes in the output. A whole row (ADC X from 0 to XDim - 1) stops at the next row start;
 * otherwise the first X output datums are dropped and Channel1.X + 1 - X written. Block floats
 * read an exponent per 16 augmented datums as uncompressed ones do. The address side (counters,
 * sections, the job) is coproc/unpack.c's; the row start index is read here, when the data moves. */
#include "coproc/unpack_internal.h"

#include "coproc/formats.h"

static uint32_t l1_u16(const cp_env_t *env, uint64_t a) { return env->l1[a] | (uint32_t)env->l1[a + 1] << 8; }

void unp_data_compressed(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank) {
    const cp_env_t *env = dp_env(x);
    uint64_t rs = (uint64_t)j->s.rs_addr + 2ull * j->rs_index;
    if (rs + 4 > env->l1_size)
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads row start indices at L1 0x%llx, beyond L1",
                       (unsigned long long)rs);
    uint32_t first = l1_u16(env, rs), count = UINT32_MAX, keep = UINT32_MAX, drop = 0;
    if (j->whole_row) {
        uint32_t next = l1_u16(env, rs + 2);
        if (next < first)
            return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR: row start index %u after %u (compressed input)", next, first);
        count = next - first;
    } else {
        drop = j->drop;
        keep = j->count;
    }
    /* Positions in bits: a group is 32 datums then 16 bytes of counts. */
    uint64_t bits = j->s.bits, group = 32 * bits + 128, limit = j->s.limit * 8, fifo = j->s.fifo * 8;
    uint64_t base = (uint64_t)j->s.in_addr * 8 + (first / 32) * group;
    uint64_t dat = base + (first % 32) * bits, del = base + 32 * bits + (first % 32) * 4;
    if (dat > limit) dat -= fifo;
    if (del > limit) del -= fifo;
    uint64_t exps = (uint64_t)j->s.exp_addr * 16 + first;
    if (exps > j->s.limit * 16) exps -= j->s.fifo * 16;
    if (j->s.transpose && dat % 128)
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR transpose from L1 0x%llx, not 16-byte aligned",
                       (unsigned long long)(dat / 8));
    bool out32 = fmt_unpack_writes_dst32(&j->s.conv);
    uint32_t out = j->out, mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    for (uint32_t i = 0; i < count && keep;) {
        if ((dat + bits + 7) / 8 > env->l1_size || del / 8 >= env->l1_size)
            return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads L1 0x%llx, beyond L1", (unsigned long long)(dat / 8));
        uint32_t datum = 0;
        for (unsigned b = 0; b < bits; b += 8) /* whole bytes, or the datum's bits of its byte */
            datum |= (uint32_t)env->l1[(dat + b) / 8] << b;
        datum = (datum >> (dat % 8)) & mask;
        dat += bits;
        /* every 16 datums the row stride (16 datums: tileize with compressed input is undefined,
         * refused at dispatch) and the FIFO wrap */
        if ((++i % 16) == 0 && dat > limit) dat -= fifo;
        uint8_t e = j->s.forced_exp;
        if (j->s.bfp && !j->s.force_exp) {
            if (exps / 16 >= env->l1_size)
                return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads exponents at L1 0x%llx, beyond L1",
                               (unsigned long long)(exps / 16));
            e = env->l1[exps / 16];
            if ((++exps % 256) == 0 && exps / 16 > j->s.limit) exps -= j->s.fifo * 16;
        }
        unsigned zeroes = (env->l1[del / 8] >> (del % 8)) & 15;
        del += 4;
        if (del % 128 == 0) { /* past 32 counts: the datums skip the counts, the counts the datums */
            dat += 128;
            del += 32 * bits;
            if (del > limit) del -= fifo;
        }
        if (j->s.bfp_a && !j->all_zero && !fmt_bfp_unpack_defined(j->s.conv.in_fmt, (uint8_t)datum, e))
            return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR of %s datum 0x%x with exponent %u: undefined",
                           fmt_name(j->s.conv.in_fmt), datum, e);
        uint32_t v = fmt_unpack(&j->s.conv, datum, e);
        if (j->all_zero) v = 0, zeroes = 0;
        for (unsigned z = 0; z <= zeroes; z++, v = 0) {
            if (drop) {
                drop--;
                continue;
            }
            uint32_t w = v;
            for (unsigned k = 0; k <= j->s.up_zeros; k++, w = 0, out++) {
                if (j->s.interleave && k) continue;
                if (!unp_put_datum(x, j, u, bank, out32, out, w)) return;
            }
            if (--keep == 0) break;
        }
    }
    if (j->flip) (u ? &x->dp->srcb : &x->dp->srca)->implied_fmt[bank] = j->s.conv.out_fmt;
}
