/* app/report.h — the JSON report (docs/report-format.md) and the one-screen summary of a run. */
#ifndef TTEMU_APP_REPORT_H
#define TTEMU_APP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "loader/config.h"
#include "run/run.h"

/* The JSON report to path; false with a message on stderr on failure. */
bool report_write(const run_t *r, const char *path);
/* The one-screen human summary. */
void report_summary(const run_t *r, FILE *f);
/* The report's `tensors` object (docs/report-format.md) for the config's named tensors after the
 * run (loader/hostio.c has compared the expectations), or NULL when it declares none. */
struct cJSON *report_tensors(const cfg_t *c);
/* One line per expectation for the summary: "tensor out: 8192 elements match want.npy". */
void report_tensor_summary(const cfg_t *c, FILE *f);
/* The message of a failed expectation (exit 5): the first failing tensor, its first mismatch. */
void report_mismatch_message(const cfg_t *c, char *buf, size_t n);

#endif
