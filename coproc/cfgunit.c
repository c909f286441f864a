/* coproc/cfgunit.c — the Configuration Unit semantics (ConfigurationUnit.md): WRCFG, RDCFG,
 * SETC16, RMWCIB0..3, CFGSHIFTMASK and STREAMWRCFG on Config / ThreadConfig (coproc/state.h).
 * Its pipeline and latencies are the timing model's (coproc/timing.c). */
#include "coproc/tt_fields.h"
#include "coproc/units.h"

/* NoC overlay streams, 0x1000 per stream (TENSIX.md §2.1). */
#define CFGU_OVERLAY_BASE 0xFFB40000u

/* CFGSHIFTMASK.md: the scratch operand, rotated and masked, combined with the old value. */
static uint32_t cfgshiftmask(const cp_insn_t *in, unsigned bank, uint32_t old) {
    uint32_t word = in->word;
    unsigned sel = TT_CFGSHIFTMASK_SCRATCH_SEL(word), rot = TT_CFGSHIFTMASK_RIGHT_CSHIFT_AMT(word);
    unsigned width = TT_CFGSHIFTMASK_MASK_WIDTH(word), alu = TT_CFGSHIFTMASK_OPERATION(word);
    /* ScratchSel 3 means this thread's own scratch register. */
    uint32_t scratch = cfg_get(in->st, bank, CFG_SCRATCH_SEC0_val + (sel < 3 ? sel : in->thread));
    uint32_t mask = width == 31 ? 0xFFFFFFFFu : (2u << width) - 1u;
    uint32_t rmask = rot ? (mask >> rot) | (mask << (32 - rot)) : mask;
    uint32_t sv = scratch & mask;
    sv = rot ? (sv >> rot) | (sv << (32 - rot)) : sv;
    uint32_t v = old;
    if (!TT_CFGSHIFTMASK_DISABLE_MASK_ON_OLD_VAL(word)) v &= ~rmask;
    switch (alu) {
    case 0: return v | sv;
    case 1: return v & sv;
    case 2: return v ^ sv;
    case 3: return v + sv;
    case 4: return v | ~sv;
    case 5: return v & ~sv;
    case 6: return v ^ ~sv;
    default: return v - sv;
    }
}

void cfgu_exec(const cp_insn_t *in) {
    cp_state_t *st = in->st;
    unsigned t = in->thread, bank = st_state_id(st, t);
    uint32_t word = in->word, *g = st->gpr[t];
    const char *mn = in->op->mnemonic;

    switch (in->op->opcode) {
    case TT_OPC_WRCFG: { /* WRCFG.md: GPR(s) -> Config[StateID][CfgIndex], 32 or 128 bits */
        unsigned idx = TT_WRCFG_CFGREG(word), gi = TT_WRCFG_GPRADDRESS(word);
        if (idx >= CP_CFG_WORDS) {
            cp_fail(in, CP_ERR_UNDEFINED, "WRCFG CfgIndex %u out of range", idx);
        } else if (TT_WRCFG_WR128B(word)) {
            for (unsigned k = 0; k < 4; k++)
                st_cfg_store(st, bank, (idx & ~3u) + k, g[(gi & ~3u) + k]);
        } else {
            st_cfg_store(st, bank, idx, g[gi]);
        }
        break;
    }
    case TT_OPC_RDCFG: { /* RDCFG.md: Config[StateID][CfgIndex] -> GPR */
        unsigned idx = TT_RDCFG_CFGREG(word), gi = TT_RDCFG_GPRADDRESS(word);
        if (idx >= CP_CFG_WORDS)
            cp_fail(in, CP_ERR_UNDEFINED, "RDCFG CfgIndex %u out of range", idx);
        else
            g[gi] = st->cfg[bank][idx];
        break;
    }
    case TT_OPC_SETC16: { /* SETC16.md: ThreadConfig[t][CfgIndex] = NewValue */
        unsigned idx = TT_SETC16_SETC16_REG(word);
        if (idx >= CP_THDCFG_WORDS)
            cp_fail(in, CP_ERR_UNDEFINED, "SETC16 CfgIndex %u out of range", idx);
        else
            st_thdcfg_w(st, t, idx, (uint16_t)TT_SETC16_SETC16_VALUE(word));
        break;
    }
    case TT_OPC_RMWCIB0:
    case TT_OPC_RMWCIB1:
    case TT_OPC_RMWCIB2:
    case TT_OPC_RMWCIB3: { /* RMWCIB.md */
        /* Index1 is the digit in the name: RMWCIB0 modifies byte 0. The four share one layout. */
        unsigned byte = in->op->opcode - TT_OPC_RMWCIB0, idx = TT_RMWCIB0_CFGREGADDR(word);
        uint32_t data = TT_RMWCIB0_DATA(word), mask = TT_RMWCIB0_MASK(word), sh = 8 * byte;
        if (idx >= CP_CFG_WORDS) {
            cp_fail(in, CP_ERR_UNDEFINED, "RMWCIB CfgIndex %u out of range", idx);
            break;
        }
        uint32_t old = st->cfg[bank][idx];
        st_cfg_store(st, bank, idx, (old & ~(mask << sh)) | ((data & mask) << sh));
        break;
    }
    case TT_OPC_CFGSHIFTMASK: { /* CFGSHIFTMASK.md */
        unsigned idx = TT_CFGSHIFTMASK_CFGREG(word);
        if (idx >= CP_CFG_WORDS)
            cp_fail(in, CP_ERR_UNDEFINED, "CFGSHIFTMASK CfgIndex %u out of range", idx);
        else
            st_cfg_store(st, bank, idx, cfgshiftmask(in, bank, st->cfg[bank][idx]));
        break;
    }
    case TT_OPC_STREAMWRCFG: { /* STREAMWRCFG.md: Config[StateID][CfgIndex] = an overlay stream
                                * register: stream = ThreadConfig STREAM_ID_SYNC_SEC[StreamSelect]
                                * .BankSel, address = 0xFFB40000 + 0x1000 * stream + 4 * RegIndex. */
        unsigned idx = TT_STREAMWRCFG_CFGREG(word), reg = TT_STREAMWRCFG_STREAMREGADDR(word);
        unsigned sel = TT_STREAMWRCFG_STREAM_ID_SEL(word);
        unsigned stream = thcfg_get(st, t, THCFG_STREAM_ID_SYNC_SEC0_BankSel + sel);
        uint32_t addr = CFGU_OVERLAY_BASE + 0x1000u * stream + 4u * reg, v = 0;
        const cp_env_t *env = in->env;
        if (idx >= CP_CFG_WORDS)
            cp_fail(in, CP_ERR_UNDEFINED, "STREAMWRCFG CfgIndex %u out of range", idx);
        else if (!env->mmio_load || !env->mmio_load(env->ctx, addr, &v))
            cp_fail(in, CP_ERR_UNMAPPED, "STREAMWRCFG from unmapped 0x%08x", addr);
        else
            st_cfg_store(st, bank, idx, v);
        break;
    }
    default: cp_fail(in, CP_ERR_UNIMPLEMENTED, "ttemu does not model %s", mn); break;
    }
}
