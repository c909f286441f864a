/* debug/trace_vcd.c — the recording as a Value Change Dump (IEEE 1364 §18) for GTKWave: one
 * scope per core, per thread and for the Sync Unit, one variable per signal (debug/trace.h),
 * timescale 1 ns = one cycle. Encodings: core state as tr_core_state_t (docs/tracing.md),
 * thread hold as cp_hold_t, mutex owner 0..2 or 3 for free. */
#include <stdio.h>
#include <string.h>

#include "debug/trace.h"

/* Identifier code of signal s: printable ASCII from '!' (94 symbols), little-endian digits. */
static void vcd_id(unsigned s, char id[4]) {
    unsigned k = 0;
    do {
        id[k++] = (char)('!' + s % 94);
        s /= 94;
    } while (s && k < 3);
    id[k] = 0;
}

static void vcd_value(FILE *f, unsigned sig, uint32_t v) {
    const char *scope, *name;
    unsigned width;
    char id[4];
    trace_sig_info(sig, &scope, &name, &width);
    vcd_id(sig, id);
    if (width == 1) {
        fprintf(f, "%u%s\n", v & 1, id);
        return;
    }
    char bits[33];
    unsigned n = 0;
    for (int b = (int)width - 1; b >= 0; b--) {
        if (!n && b && !((v >> b) & 1)) continue; /* no leading zeros */
        bits[n++] = (char)('0' + ((v >> b) & 1));
    }
    bits[n] = 0;
    fprintf(f, "b%s %s\n", bits, id);
}

bool trace_write_vcd(const tr_rec_t *rec, FILE *f) {
    fprintf(f, "$comment ttemu event trace, cycles %llu to %llu%s $end\n", (unsigned long long)rec->lo,
            (unsigned long long)rec->hi, rec->truncated ? " (truncated: event limit reached)" : "");
    fprintf(f, "$version ttemu $end\n$timescale 1ns $end\n$scope module tile $end\n");
    const char *open_scope = NULL;
    for (unsigned s = 0; s < TRC_NSIGS; s++) {
        const char *scope, *name;
        unsigned width;
        char id[4];
        trace_sig_info(s, &scope, &name, &width);
        vcd_id(s, id);
        if (!open_scope || strcmp(open_scope, scope)) {
            if (open_scope) fprintf(f, "$upscope $end\n");
            fprintf(f, "$scope module %s $end\n", scope);
            open_scope = scope;
        }
        fprintf(f, "$var wire %u %s %s $end\n", width, id, name);
    }
    if (open_scope) fprintf(f, "$upscope $end\n");
    fprintf(f, "$upscope $end\n$enddefinitions $end\n#%llu\n$dumpvars\n", (unsigned long long)rec->lo);
    for (unsigned s = 0; s < TRC_NSIGS; s++)
        vcd_value(f, s, rec->base[s]);
    fprintf(f, "$end\n");
    uint64_t at = rec->lo;
    for (size_t i = 0; i < rec->nchg; i++) {
        const tr_change_t *c = &rec->chg[i];
        if (c->cycle >= rec->hi) break;
        if (c->cycle != at) {
            fprintf(f, "#%llu\n", (unsigned long long)c->cycle);
            at = c->cycle;
        }
        vcd_value(f, c->sig, c->val);
    }
    if (rec->hi > at) fprintf(f, "#%llu\n", (unsigned long long)rec->hi);
    return !ferror(f);
}
