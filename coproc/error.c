/* coproc/error.c — the coprocessor's errors (docs/coprocessor.md, "Errors"): one category each,
 * as ttsim stops on a categorised error, and the first one since reset kept with what the run
 * needs to name it: thread, unit, word and the core and pc that pushed it. */
#include <stdarg.h>
#include <stdio.h>

#include "coproc/insn.h"

const char *cp_err_cat_name(cp_err_cat_t c) {
    static const char *const names[CP_ERR_COUNT] = {
        [CP_ERR_NONE] = "none",
        [CP_ERR_UNDEFINED] = "undefined_behavior",
        [CP_ERR_UNMAPPED] = "unmapped",
        [CP_ERR_UNSUPPORTED] = "unsupported",
        [CP_ERR_UNIMPLEMENTED] = "unimplemented",
        [CP_ERR_UNSPECIFIED] = "missing_specification",
    };
    return (unsigned)c < CP_ERR_COUNT ? names[c] : "?";
}

bool cp_err_is_gap(cp_err_cat_t c) { return c == CP_ERR_UNIMPLEMENTED || c == CP_ERR_UNSPECIFIED; }

void cp_fail(const cp_insn_t *in, cp_err_cat_t cat, const char *fmt, ...) {
    cp_error_t *e = in->err;
    if (!e || e->cat != CP_ERR_NONE || cat == CP_ERR_NONE) return; /* keep the first */
    e->cat = cat;
    e->thread = (uint8_t)in->thread;
    e->unit = in->op ? (uint8_t)in->op->unit : 0;
    e->word = in->word;
    e->origin = in->origin;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
    if (in->failed) ++*in->failed;
}
