/* app/report.h — the JSON report (docs/report-format.md) and the one-screen summary of a run. */
#ifndef TTEMU_APP_REPORT_H
#define TTEMU_APP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "run/run.h"

/* The JSON report to path; false with a message on stderr on failure. */
bool report_write(const run_t *r, const char *path);
/* The one-screen human summary. */
void report_summary(const run_t *r, FILE *f);

#endif
