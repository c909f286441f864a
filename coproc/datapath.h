/* coproc/datapath.h — the Tensix datapath: the values the units compute (register files, formats,
 * unpackers, Matrix Unit, Vector Unit, packers). It has no clock and never stalls: the timing
 * model (coproc/backend.c) calls dp_exec at exactly one event per datapath instruction — an
 * unpacker instruction when it retires from its unpacker, every other one when it is dispatched —
 * after it has decided the instruction may go, and before it hands a Src bank over.
 * docs/datapath.md describes what is modelled and how exactly. */
#ifndef TTEMU_COPROC_DATAPATH_H
#define TTEMU_COPROC_DATAPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/cp.h"
#include "coproc/dp_regs.h"

typedef struct dp dp_t;

/* Why an instruction could not be carried out (the categories of docs/cli.md). */
typedef enum {
    DP_OK = 0,
    DP_UNDEFINED,     /* the ISA says the behaviour is undefined: the program's fault */
    DP_UNIMPLEMENTED, /* ttemu does not model this instruction or mode (yet) */
    DP_UNSUPPORTED,   /* the ISA calls this configuration unsupported */
} dp_err_kind_t;

typedef struct {
    dp_err_kind_t kind;
    char msg[200];
} dp_error_t;

/* The architectural state the datapath reads (Config, ThreadConfig) and the Src hand-over state
 * it reads to find the banks (SrcASrcB.md: Unpackers[u].SrcBank, MatrixUnit.SrcABank/SrcBBank).
 * The timing model owns the hand-over itself. */
typedef struct {
    const uint32_t (*cfg)[CP_CFG_WORDS];
    const uint16_t (*thdcfg)[CP_THDCFG_WORDS];
    const uint8_t *unp_bank; /* [2]: unpacker 0 (SrcA), unpacker 1 (SrcB) */
    const uint8_t *fpu_bank; /* [2]: the Matrix Unit's SrcA and SrcB bank */
} dp_arch_t;

/* L1 as the unpackers and packers see it; l1_written is told of every byte range a packer wrote
 * (the tile drops decoded code and the idle fast-forward's proof). */
typedef struct {
    uint8_t *l1;
    uint32_t l1_size;
    void (*l1_written)(void *ctx, uint32_t addr, uint32_t len);
    void *ctx;
} dp_mem_t;

dp_t *dp_create(void);
void dp_destroy(dp_t *dp);
/* Power-on state: registers zero, Dst rows valid (BH Dst.md), LaneConfig 0, lane flags off. */
void dp_reset(dp_t *dp);

/* Is opcode a datapath instruction (one dp_exec must see)? */
bool dp_is_datapath_op(uint8_t opcode);
/* Compute thread t's instruction word. err->kind stays DP_OK on success. */
void dp_exec(dp_t *dp, const dp_arch_t *arch, const dp_mem_t *mem, unsigned t, uint32_t word, dp_error_t *err);

/* Read-only views (tests, debugging). */
const src_regs_t *dp_srca(const dp_t *dp);
const src_regs_t *dp_srcb(const dp_t *dp);
const dst_regs_t *dp_dst(const dp_t *dp);
const lregs_t *dp_lregs(const dp_t *dp);
const rwc_t *dp_rwc(const dp_t *dp, unsigned t);
const adc_t *dp_adc(const dp_t *dp, unsigned t, unsigned unit);
/* Test access: write a Src or Dst cell directly (unit tests build their inputs with it). */
src_regs_t *dp_srca_mut(dp_t *dp);
src_regs_t *dp_srcb_mut(dp_t *dp);
dst_regs_t *dp_dst_mut(dp_t *dp);
lregs_t *dp_lregs_mut(dp_t *dp);

#endif
