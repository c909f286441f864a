/* app/regress.h — `ttemu regress`: run many run configs in parallel child processes, compare
 * each report with its golden, print a table, write JUnit XML (docs/regression.md). */
#ifndef TTEMU_APP_REGRESS_H
#define TTEMU_APP_REGRESS_H

#include <stdint.h>
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

/* Sharding (docs/regression.md, "Sharding"): the 32-bit FNV-1a hash of a case's name (its bytes,
 * offset basis 2166136261, prime 16777619). */
uint32_t regress_name_hash(const char *name);

/* The shard (0 .. shards-1) of each of n cases. Without recorded times (seconds NULL) a case's
 * shard is its name's hash mod shards, so adding or removing a case moves no other. With them
 * (seconds[i] < 0: not recorded, counted as the mean of the recorded ones, or 1 s when none is)
 * the cases are dealt longest first (ties: by name, byte order) to the shard with the least time so
 * far (ties: the lowest), which balances the shards but may move cases when the suite changes. */
void regress_partition(const char *const *names, const double *seconds, int n, unsigned shards, unsigned *out);

#endif
