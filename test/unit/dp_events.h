/* test/unit/dp_events.h — a word through the datapath as coproc/timing.c passes it, for the tests
 * that drive the datapath directly: its instruction record (coproc/insn.h) and its events
 * (dispatch; for an unpacker instruction the retire straight after, as from an idle unpacker).
 * Include after cmocka.h. */
#ifndef TTEMU_TEST_DP_EVENTS_H
#define TTEMU_TEST_DP_EVENTS_H

#include <stdint.h>
#include <string.h>

#include "coproc/datapath.h"
#include "coproc/tt_fields.h"

/* Thread t's word as the timing model hands it over at `cycle`, pushed by no core. */
static inline cp_insn_t dpt_insn(cp_state_t *st, const cp_env_t *env, cp_error_t *err, unsigned t, uint32_t word,
                                 uint64_t cycle) {
    cp_insn_t in = {.st = st,
                    .env = env,
                    .op = tt_op((uint8_t)TT_OPCODE(word)),
                    .word = word,
                    .thread = t,
                    .origin = {.core = -1},
                    .err = err,
                    .cycle = cycle};
    assert_non_null(in.op);
    return in;
}

/* Thread t's word at its datapath events, err cleared first; its error category (CP_ERR_NONE:
 * none). */
static inline cp_err_cat_t dpt_events(dp_t *dp, cp_state_t *st, const cp_env_t *env, cp_error_t *err, unsigned t,
                                      uint32_t word) {
    memset(err, 0, sizeof *err);
    cp_insn_t in = dpt_insn(st, env, err, t, word, 0);
    dp_exec(dp, &in);
    if (err->cat == CP_ERR_NONE && in.op->unit == TT_UNIT_UNPACK) dp_unpack_data(dp, &in);
    return err->cat;
}

#endif
