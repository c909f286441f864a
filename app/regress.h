/* app/regress.h — `ttemu regress`: run many run configs in parallel child processes, compare
 * each report with its golden, print a table, write JUnit XML (docs/regression.md). */
#ifndef TTEMU_APP_REGRESS_H
#define TTEMU_APP_REGRESS_H

#include <stdio.h>

struct cJSON;

/* The command: argv holds what follows "regress". Returns the process exit code: 0 every case
 * matched its golden, 1 any case differed or failed to run, 4 bad input. */
int regress_main(int argc, char **argv);

/* The golden subset of a run report (docs/regression.md): the keys that define correct
 * behaviour and do not depend on timing or on the cross compiler. A new object (cJSON_Delete). */
struct cJSON *regress_golden_of(const struct cJSON *report);

/* Compare got with golden: every key the golden holds must be in got with an equal value;
 * arrays must have the same length. One line per difference on out, as
 * `semaphores[1].value: golden 0, got 2`. Returns the number of differences. */
int regress_diff(const struct cJSON *golden, const struct cJSON *got, FILE *out);

#endif
