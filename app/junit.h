/* app/junit.h — JUnit XML for `ttemu regress --junit`, `--merge-junit` and `--shard-timing`
 * (docs/regression.md, docs/ci.md). Written through libxml2's xmlTextWriter and read with its
 * parser by app/junit.c, which is built as the plugin $(BUILD)/ttemu-junit.so and loaded only by
 * those options, so `ttemu run` never loads libxml2 and its ICU libraries (app/plugin.h). */
#ifndef TTEMU_APP_JUNIT_H
#define TTEMU_APP_JUNIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name, *classname, *file;
    double seconds;
    /* A failing case: failure_message (its <failure message>), failure_type, failure_text (the
     * element's text: the diff) and system_err (the run's output, or NULL). NULL when it passed. */
    const char *failure_message, *failure_type, *failure_text, *system_err;
    /* A case that was not run: why (its <skipped message>); NULL when it ran. */
    const char *skipped_message;
} junit_case_t;

typedef struct {
    const char *name;
    double seconds;
    int ncases;
    const junit_case_t *cases;
} junit_suite_t;

/* The plugin's one entry point: write the suite to path; false on any error. */
typedef bool (*junit_write_fn)(const junit_suite_t *s, const char *path);
#define JUNIT_WRITE_SYMBOL "junit_write"

/* A JUnit file already read into memory (path names it in messages). */
typedef struct {
    const char *path;
    const char *data;
    size_t len;
} junit_input_t;

/* What a merged file holds: testcases, and of them those with <failure>, <error>, <skipped>. */
typedef struct {
    int tests, failures, errors, skipped;
} junit_totals_t;

/* Merge: every <testcase> of every input (a <testsuites> of <testsuite>s, or one <testsuite>),
 * copied whole and sorted by name, into one <testsuites> holding one <testsuite> named name with
 * the totals (time: the inputs' suite times summed). A case named twice (same classname and name)
 * is an error, as is a file that is not JUnit. False with err naming the file. */
typedef bool (*junit_merge_fn)(const junit_input_t *in, int n, const char *name, const char *out,
                               junit_totals_t *totals, char *err, size_t errlen);
#define JUNIT_MERGE_SYMBOL "junit_merge"

/* A case's recorded wall time, for balancing shards (name: the testcase's name; malloc'd). */
typedef struct {
    char *name;
    double seconds;
} junit_time_t;

/* Every <testcase>'s name and time of one file into *out (malloc'd, as each name: the caller
 * frees them); returns how many, or -1 with err. */
typedef int (*junit_times_fn)(const junit_input_t *in, junit_time_t **out, char *err, size_t errlen);
#define JUNIT_TIMES_SYMBOL "junit_times"

#endif
