/* coproc/state.c — the backend's architectural state (coproc/state.h): reset, the named
 * configuration fields of coproc/cfg_fields.def, the RISC-V view of the configuration space and
 * the SrcA/SrcB hand-overs. */
#include "coproc/state.h"

#include <string.h>

const cp_field_t cfg_fields[CFG_FIELD_COUNT] = {
#define CFG_FIELD(name, word, shift, width, stride) [CFG_##name] = {#name, word, shift, width, stride},
#define THCFG_FIELD(name, word, shift, width, stride)
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
};

const cp_field_t thcfg_fields[THCFG_FIELD_COUNT] = {
#define CFG_FIELD(name, word, shift, width, stride)
#define THCFG_FIELD(name, word, shift, width, stride) [THCFG_##name] = {#name, word, shift, width, stride},
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
};

/* Every field inside its space's words and bits. */
#define CFG_FIELD(name, word, shift, width, stride)                                                                    \
    _Static_assert((word) < CP_CFG_WORDS && (width) >= 1 && (shift) + (width) <= 32, #name " fits Config");
#define THCFG_FIELD(name, word, shift, width, stride)                                                                  \
    _Static_assert((word) < CP_THDCFG_WORDS && (width) >= 1 && (shift) + (width) <= 16, #name " fits ThreadConfig");
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD

/* Numbered sections are indexed as SEC0 + i. */
_Static_assert(CFG_SCRATCH_SEC2_val == CFG_SCRATCH_SEC0_val + 2, "SCRATCH_SEC0..2 in order");
_Static_assert(THCFG_STREAM_ID_SYNC_SEC3_BankSel == THCFG_STREAM_ID_SYNC_SEC0_BankSel + 3,
               "STREAM_ID_SYNC_SEC0..3 in order");

/* RISC-V view of the config space (BackendConfiguration.md, TENSIX.md §2.6). */
#define ST_CFG_BANK_BYTES (CP_CFG_WORDS * 4u)                            /* 0x380 */
#define ST_CFG_DUAL_OFF   (2u * ST_CFG_BANK_BYTES)                       /* 0x700 */
#define ST_THDCFG_OFF     (3u * ST_CFG_BANK_BYTES)                       /* 0xA80 */
#define ST_THDCFG_BYTES   (CP_THDCFG_WORDS * 4u)                         /* 0x110 */
#define ST_CFG_END        (ST_THDCFG_OFF + CP_THREADS * ST_THDCFG_BYTES) /* 0xDB0 */
_Static_assert(ST_CFG_DUAL_OFF == 0x700 && ST_THDCFG_OFF == 0xA80 && ST_CFG_END == 0xDB0,
               "BackendConfiguration.md layout");

/* st's generations, each bumped (st_reset, st_copy: the whole state new). */
typedef struct {
    uint64_t cfg, cfg_m, thd[CP_THREADS], thd_m[CP_THREADS];
} st_gens_t;
static st_gens_t gens_next(const cp_state_t *st) {
    st_gens_t g = {.cfg = st->cfg_gen + 1, .cfg_m = st->cfg_gen_m + 1};
    for (unsigned t = 0; t < CP_THREADS; t++)
        g.thd[t] = st->thdcfg_gen[t] + 1, g.thd_m[t] = st->thdcfg_gen_m[t] + 1;
    return g;
}
static void gens_put(cp_state_t *st, const st_gens_t *g) {
    st->cfg_gen = g->cfg;
    st->cfg_gen_m = g->cfg_m;
    memcpy(st->thdcfg_gen, g->thd, sizeof g->thd);
    memcpy(st->thdcfg_gen_m, g->thd_m, sizeof g->thd_m);
}

void st_reset(cp_state_t *st) {
    st_gens_t g = gens_next(st); /* a new generation: Config changed (to zeros) */
    memset(st, 0, sizeof *st);
    gens_put(st, &g);
    /* SrcASrcB.md: all banks owned by the Unpackers, all bank pointers 0 (the memset). */
    _Static_assert(CP_SRC_UNPACKERS == 0, "reset state is all-zero");
}

void st_copy(cp_state_t *dst, const cp_state_t *src) {
    st_gens_t g = gens_next(dst);
    memcpy(dst, src, sizeof *dst);
    gens_put(dst, &g);
}

void st_cfg_store(cp_state_t *st, unsigned bank, unsigned idx, uint32_t val) {
    if (idx == cfg_fields[CFG_PRNG_SEED_Seed_Val].word) st->prng_seed_writes++;
    if (idx >= CP_GLOBAL_CFG_BASE) {
        st_cfg_w(st, 0, idx, val);
        st_cfg_w(st, 1, idx, val);
    } else {
        st_cfg_w(st, bank, idx, val);
    }
}

void cfg_set(cp_state_t *st, unsigned bank, cfg_field_t f, uint32_t val) {
    const cp_field_t *d = &cfg_fields[f];
    uint32_t m = st_field_mask(d->width) << d->shift;
    st_cfg_store(st, bank, d->word, (st->cfg[bank & 1u][d->word] & ~m) | ((val << d->shift) & m));
}

void thcfg_set(cp_state_t *st, unsigned t, thcfg_field_t f, uint32_t val) {
    const cp_field_t *d = &thcfg_fields[f];
    uint32_t m = st_field_mask(d->width) << d->shift;
    st_thdcfg_w(st, t, d->word, (uint16_t)((st->thdcfg[t][d->word] & ~m) | ((val << d->shift) & m)));
}

bool st_cfg_is_thdcfg(uint32_t byte_off) { return byte_off >= ST_THDCFG_OFF && byte_off < ST_CFG_END; }

bool st_cfg_read(const cp_state_t *st, uint32_t byte_off, uint32_t *val) {
    if ((byte_off & 3u) || byte_off >= ST_CFG_END || !val) return false;
    if (byte_off >= ST_THDCFG_OFF) {
        uint32_t o = byte_off - ST_THDCFG_OFF;
        *val = st->thdcfg[o / ST_THDCFG_BYTES][(o % ST_THDCFG_BYTES) / 4];
        return true;
    }
    unsigned region = byte_off / ST_CFG_BANK_BYTES, idx = (byte_off % ST_CFG_BANK_BYTES) / 4;
    *val = st->cfg[region == 1 ? 1 : 0][idx];
    return true;
}

/* RISC-V may not write ThreadConfig (it must push SETC16): false. STATE_RESET_EN's side effect
 * (zeroing Config[i][0..179]) is not modelled. */
bool st_cfg_write(cp_state_t *st, uint32_t byte_off, uint32_t val) {
    if ((byte_off & 3u) || byte_off >= ST_THDCFG_OFF) return false;
    unsigned region = byte_off / ST_CFG_BANK_BYTES, idx = (byte_off % ST_CFG_BANK_BYTES) / 4;
    if (idx == cfg_fields[CFG_PRNG_SEED_Seed_Val].word) st->prng_seed_writes++;
    if (region == 2 || idx >= CP_GLOBAL_CFG_BASE) {
        st_cfg_w(st, 0, idx, val);
        st_cfg_w(st, 1, idx, val);
    } else {
        st_cfg_w(st, region, idx, val);
    }
    return true;
}

/* ---- SrcA/SrcB (SrcASrcB.md) ---------------------------------------------------------------- */

static uint8_t *unpacker_bank_owner(cp_state_t *st, unsigned u) {
    cp_src_t *s = &st->src;
    return u == 0 ? &s->srca[s->unp_bank[0]] : &s->srcb[s->unp_bank[1]];
}

/* SETDVALID.md: SrcX[Unpackers[u].SrcBank] = MatrixUnit; Unpackers[u].SrcBank ^= 1. */
void st_src_to_matrix(cp_state_t *st, unsigned u) {
    *unpacker_bank_owner(st, u) = CP_SRC_MATRIX;
    st->src.unp_bank[u & 1u] ^= 1;
}

/* ELWADD.md "Possibly flip source banks"; CLEARDVALID.md. */
void st_src_to_unpackers(cp_state_t *st, unsigned t, unsigned flips, bool honour_disable, bool keep_bank) {
    cp_src_t *s = &st->src;
    bool keep_a = honour_disable && thcfg_get(st, t, THCFG_CLR_DVALID_SrcA_Disable);
    bool keep_b = honour_disable && thcfg_get(st, t, THCFG_CLR_DVALID_SrcB_Disable);
    if (flips & 1u) {
        if (!keep_a) s->srca[s->fpu_bank_a] = CP_SRC_UNPACKERS;
        if (!keep_bank) s->fpu_bank_a ^= 1;
    }
    if (flips & 2u) {
        if (!keep_b) s->srcb[s->fpu_bank_b] = CP_SRC_UNPACKERS;
        if (!keep_bank) s->fpu_bank_b ^= 1;
    }
}

void st_src_reset(cp_state_t *st) { memset(&st->src, 0, sizeof st->src); }
