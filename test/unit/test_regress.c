/* test/unit/test_regress.c — `ttemu regress`'s golden subset and key-by-key comparison, and its
 * partition of the cases into shards (app/regress.c, docs/regression.md). */
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

/* FNV-1a (32 bits): the published test vectors (Fowler, Noll, Vo; draft-eastlake-fnv, section 6). */
static void test_name_hash_is_fnv1a(void **state) {
    (void)state;
    assert_int_equal(regress_name_hash(""), 0x811c9dc5u);
    assert_int_equal(regress_name_hash("a"), 0xe40c292cu);
    assert_int_equal(regress_name_hash("foobar"), 0xbf9cf968u);
}

/* Case names like a growing suite's: "regress/case_000" ... */
#define NCASES 200
static char g_names[NCASES + 1][32];
static const char *g_ptrs[NCASES + 1];
static void make_names(void) {
    for (int i = 0; i <= NCASES; i++) {
        snprintf(g_names[i], sizeof g_names[i], "regress/case_%03d", i);
        g_ptrs[i] = g_names[i];
    }
}

/* For N = 1..5, with and without recorded times: every case is in exactly one shard, in range —
 * so the shards are disjoint and their union is the suite; and no shard is left empty by either
 * scheme for 200 cases. */
static void test_partition_covers_once(void **state) {
    (void)state;
    make_names();
    double secs[NCASES];
    for (int i = 0; i < NCASES; i++)
        secs[i] = i % 7 == 0 ? -1 : (double)((i * 37) % 11) / 10.0; /* some not recorded */
    for (int timed = 0; timed < 2; timed++)
        for (unsigned n = 1; n <= 5; n++) {
            unsigned of[NCASES], count[5] = {0};
            regress_partition(g_ptrs, timed ? secs : NULL, NCASES, n, of);
            for (int i = 0; i < NCASES; i++) {
                assert_true(of[i] < n);
                count[of[i]]++;
            }
            unsigned sum = 0;
            for (unsigned k = 0; k < n; k++) {
                assert_true(count[k] > 0);
                sum += count[k];
            }
            assert_int_equal(sum, NCASES);
        }
}

/* Without times, a case's shard depends on its name alone: adding a case (the 201st) moves no
 * other case, and the shard is the hash mod N. */
static void test_partition_stable_by_name(void **state) {
    (void)state;
    make_names();
    for (unsigned n = 1; n <= 5; n++) {
        unsigned before[NCASES], after[NCASES + 1];
        regress_partition(g_ptrs, NULL, NCASES, n, before);
        regress_partition(g_ptrs, NULL, NCASES + 1, n, after);
        for (int i = 0; i < NCASES; i++) {
            assert_int_equal(before[i], after[i]);
            assert_int_equal(before[i], regress_name_hash(g_names[i]) % n);
        }
    }
}

/* With times, longest first onto the least-loaded shard (by hand): 5 a, 4 b, 3 c, 3 d, 2 e, 2 f,
 * 1 g over two shards: a→0 (5), b→1 (4), c→1 (7), d→0 (8), e→1 (9), f→0 (10), g→1 (10). Ties of
 * time go by name (c before d), ties of load to the lower shard. A case without a time counts as
 * the mean: x (unknown, mean 20/7 < 3) sorts after d, before e. */
static void test_partition_balanced(void **state) {
    (void)state;
    const char *names[] = {"g", "f", "e", "d", "c", "b", "a"};
    double secs[] = {1, 2, 2, 3, 3, 4, 5};
    unsigned of[8];
    regress_partition(names, secs, 7, 2, of);
    unsigned want[] = {1, 0, 1, 0, 1, 1, 0}; /* g f e d c b a */
    for (int i = 0; i < 7; i++)
        assert_int_equal(of[i], want[i]);
    /* the same with x added, time unknown: a→0 5, b→1 4, c→1 7, d→0 8, x→1 (7+20/7≈9.86),
     * e→0 10, f→1 11.86, g→0 11 */
    const char *names2[] = {"g", "f", "e", "d", "c", "b", "a", "x"};
    double secs2[] = {1, 2, 2, 3, 3, 4, 5, -1};
    regress_partition(names2, secs2, 8, 2, of);
    unsigned want2[] = {0, 1, 0, 0, 1, 1, 0, 1};
    for (int i = 0; i < 8; i++)
        assert_int_equal(of[i], want2[i]);
    /* one shard: everything in it */
    regress_partition(names, secs, 7, 1, of);
    for (int i = 0; i < 7; i++)
        assert_int_equal(of[i], 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_and_subset),         cmocka_unit_test(test_paths_and_values),
        cmocka_unit_test(test_lengths_absent_types),     cmocka_unit_test(test_golden_subset),
        cmocka_unit_test(test_name_hash_is_fnv1a),       cmocka_unit_test(test_partition_covers_once),
        cmocka_unit_test(test_partition_stable_by_name), cmocka_unit_test(test_partition_balanced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
