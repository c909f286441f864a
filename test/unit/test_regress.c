/* test/unit/test_regress.c — `ttemu regress`'s golden subset and key-by-key comparison
 * (app/regress.c, docs/regression.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "app/regress.h"

/* regress_diff on two JSON texts; the lines it prints go to *text (caller frees). */
static int diff_text(const char *golden, const char *got, char **text) {
    cJSON *g = cJSON_Parse(golden), *v = cJSON_Parse(got);
    assert_non_null(g);
    assert_non_null(v);
    size_t len = 0;
    FILE *out = open_memstream(text, &len);
    assert_non_null(out);
    int n = regress_diff(g, v, out);
    fclose(out);
    cJSON_Delete(g);
    cJSON_Delete(v);
    return n;
}

static void test_equal_and_subset(void **state) {
    (void)state;
    char *t;
    assert_int_equal(diff_text("{\"a\": 1, \"b\": [1, 2]}", "{\"b\": [1, 2], \"a\": 1}", &t), 0);
    assert_string_equal(t, "");
    free(t);
    /* Keys the golden lacks are not compared. */
    assert_int_equal(diff_text("{\"a\": 1}", "{\"a\": 1, \"cycles\": 99}", &t), 0);
    free(t);
}

static void test_paths_and_values(void **state) {
    (void)state;
    char *t;
    int n = diff_text("{\"semaphores\": [{\"value\": 0, \"max\": 2}, {\"value\": 1, \"max\": 1}],"
                      " \"exit\": {\"reason\": \"halted\"}, \"peek\": {\"0x00009000\": [4, 5]}}",
                      "{\"semaphores\": [{\"value\": 0, \"max\": 2}, {\"value\": 2, \"max\": 1}],"
                      " \"exit\": {\"reason\": \"deadlock\"}, \"peek\": {\"0x00009000\": [4, 6]}}",
                      &t);
    assert_int_equal(n, 3);
    assert_string_equal(t, "semaphores[1].value: golden 1, got 2\n"
                           "exit.reason: golden \"halted\", got \"deadlock\"\n"
                           "peek.0x00009000[1]: golden 5, got 6\n");
    free(t);
}

static void test_lengths_absent_types(void **state) {
    (void)state;
    char *t;
    int n = diff_text("{\"threads\": [1, 2, 3], \"diagnosis\": {\"kind\": \"deadlock\"}, \"m\": {\"0\": null}}",
                      "{\"threads\": [1, 2], \"m\": {\"0\": 1}}", &t);
    assert_int_equal(n, 3);
    assert_string_equal(t, "threads: golden 3 entries, got 2\n"
                           "diagnosis: golden {\"kind\":\"deadlock\"}, got (absent)\n"
                           "m.0: golden null, got 1\n");
    free(t);
}

static void test_golden_subset(void **state) {
    (void)state;
    cJSON *r = cJSON_Parse(
        "{\"version\": 1, \"exit\": {\"code\": 1, \"reason\": \"deadlock\", \"message\": \"at cycle 123\"},"
        " \"cycles\": 123,"
        " \"cores\": [{\"name\": \"BRISC\", \"state\": \"halted\", \"pc\": 65572, \"instret\": 9, \"image\": \"x\"}],"
        " \"threads\": [{\"thread\": 0, \"pushed\": 4, \"issued\": 3, \"consumed\": 0, \"stalls\": {\"total\": 7}}],"
        " \"semaphores\": [{\"value\": 1, \"max\": 2}], \"mutexes\": {\"0\": null},"
        " \"peek\": {\"0x00009000\": [7]},"
        " \"diagnosis\": {\"kind\": \"deadlock\", \"cycle\": 123, \"window\": 100000,"
        "   \"threads\": [{\"thread\": 2, \"cause\": \"semwait\", \"waited_cycles\": 50,"
        "                 \"held\": {\"mnemonic\": \"PACR\", \"word\": 1}}],"
        "   \"cores\": [{\"name\": \"TRISC2\", \"state\": \"tensix_sync\", \"pc\": 4}], \"cycle_nodes\": null}}");
    assert_non_null(r);
    cJSON *g = regress_golden_of(r);
    char *s = cJSON_PrintUnformatted(g);
    assert_string_equal(s, "{\"exit\":{\"code\":1,\"reason\":\"deadlock\"},"
                           "\"cores\":[{\"name\":\"BRISC\",\"state\":\"halted\"}],"
                           "\"threads\":[{\"thread\":0,\"pushed\":4,\"issued\":3,\"consumed\":0}],"
                           "\"semaphores\":[{\"value\":1,\"max\":2}],\"mutexes\":{\"0\":null},"
                           "\"peek\":{\"0x00009000\":[7]},"
                           "\"diagnosis\":{\"kind\":\"deadlock\","
                           "\"threads\":[{\"thread\":2,\"cause\":\"semwait\",\"held\":\"PACR\"}],"
                           "\"cores\":[{\"name\":\"TRISC2\",\"state\":\"tensix_sync\"}],\"cycle_nodes\":null}}");
    free(s);
    cJSON_Delete(g);
    cJSON_Delete(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_and_subset),
        cmocka_unit_test(test_paths_and_values),
        cmocka_unit_test(test_lengths_absent_types),
        cmocka_unit_test(test_golden_subset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
