/* app/junit.h — JUnit XML for `ttemu regress --junit` (docs/regression.md). Written through
 * libxml2's xmlTextWriter by app/junit.c, which is built as the plugin $(BUILD)/ttemu-junit.so
 * and loaded only by `ttemu regress --junit`, so `ttemu run` never loads libxml2 and its ICU
 * libraries (app/plugin.h). */
#ifndef TTEMU_APP_JUNIT_H
#define TTEMU_APP_JUNIT_H

#include <stdbool.h>

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

#endif
