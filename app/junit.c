/* app/junit.c — the JUnit plugin (app/junit.h): one <testsuites> and one <testsuite> with
 * the counts (CI systems read one or the other), a <testcase> per case; a failing case carries a
 * <failure> whose text is the diff, and its output in <system-err>; a case not run, <skipped>.
 * Escaping and encoding are libxml2's business. It also reads such files back: to merge the
 * shards of a regression into one (junit_merge) and for the cases' recorded times (junit_times). */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/junit.h"

bool junit_write(const junit_suite_t *s, const char *path);
bool junit_merge(const junit_input_t *in, int n, const char *name, const char *out, junit_totals_t *totals, char *err,
                 size_t errlen);
int junit_times(const junit_input_t *in, junit_time_t **out, char *err, size_t errlen);

bool junit_write(const junit_suite_t *s, const char *path) {
    xmlTextWriterPtr w = xmlNewTextWriterFilename(path, 0);
    if (!w) return false;
    int failed = 0, skipped = 0;
    for (int i = 0; i < s->ncases; i++) {
        failed += s->cases[i].failure_message != NULL;
        skipped += s->cases[i].skipped_message != NULL;
    }
    char num[32];
    bool ok = xmlTextWriterSetIndent(w, 1) >= 0 && xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) >= 0;
    static const char *const levels[] = {"testsuites", "testsuite"};
    for (int l = 0; l < 2; l++) {
        ok = ok && xmlTextWriterStartElement(w, BAD_CAST levels[l]) >= 0;
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST s->name) >= 0;
        snprintf(num, sizeof num, "%d", s->ncases);
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "tests", BAD_CAST num) >= 0;
        snprintf(num, sizeof num, "%d", failed);
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "failures", BAD_CAST num) >= 0;
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "errors", BAD_CAST "0") >= 0;
        snprintf(num, sizeof num, "%d", skipped);
        if (l == 1) ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "skipped", BAD_CAST num) >= 0;
        snprintf(num, sizeof num, "%.3f", s->seconds);
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "time", BAD_CAST num) >= 0;
    }
    for (int i = 0; ok && i < s->ncases; i++) {
        const junit_case_t *c = &s->cases[i];
        ok = xmlTextWriterStartElement(w, BAD_CAST "testcase") >= 0;
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST c->name) >= 0;
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "classname", BAD_CAST c->classname) >= 0;
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "file", BAD_CAST c->file) >= 0;
        snprintf(num, sizeof num, "%.3f", c->seconds);
        ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "time", BAD_CAST num) >= 0;
        if (ok && c->skipped_message) {
            ok = xmlTextWriterStartElement(w, BAD_CAST "skipped") >= 0;
            ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST c->skipped_message) >= 0;
            ok = ok && xmlTextWriterEndElement(w) >= 0;
        }
        if (ok && c->failure_message) {
            ok = xmlTextWriterStartElement(w, BAD_CAST "failure") >= 0;
            ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST c->failure_message) >= 0;
            ok = ok && xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST c->failure_type) >= 0;
            ok = ok && xmlTextWriterWriteString(w, BAD_CAST(c->failure_text ? c->failure_text : "")) >= 0;
            ok = ok && xmlTextWriterEndElement(w) >= 0;
            if (ok && c->system_err && *c->system_err)
                ok = xmlTextWriterWriteElement(w, BAD_CAST "system-err", BAD_CAST c->system_err) >= 0;
        }
        ok = ok && xmlTextWriterEndElement(w) >= 0;
    }
    ok = ok && xmlTextWriterEndDocument(w) >= 0; /* closes the open elements too */
    xmlFreeTextWriter(w);
    return ok;
}

/* ---- reading ------------------------------------------------------------------------------- */

static bool is_elem(const xmlNode *n, const char *name) {
    return n && n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

/* The file parsed (no network, no entity expansion; blank text between elements dropped), or NULL
 * with err. Its root must be <testsuites> or <testsuite>. */
static xmlDocPtr junit_parse(const junit_input_t *in, char *err, size_t errlen) {
    if (in->len > INT_MAX) {
        snprintf(err, errlen, "%s: too large for an XML file", in->path);
        return NULL;
    }
    xmlDocPtr doc = xmlReadMemory(in->data, (int)in->len, in->path, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        if (e && e->message)
            snprintf(err, errlen, "%s: line %d: not well-formed XML: %.*s", in->path, e->line,
                     (int)strcspn(e->message, "\n"), e->message);
        else
            snprintf(err, errlen, "%s: not well-formed XML", in->path);
        return NULL;
    }
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!is_elem(root, "testsuites") && !is_elem(root, "testsuite")) {
        snprintf(err, errlen, "%s: not JUnit XML (the root element is <%s>, not <testsuites> or <testsuite>)", in->path,
                 root ? (const char *)root->name : "nothing");
        xmlFreeDoc(doc);
        return NULL;
    }
    return doc;
}

/* Calls fn on each <testcase> of each <testsuite> of doc, in document order; stops at false. */
typedef bool (*case_fn)(xmlNode *tc, void *ctx);
static bool each_case(xmlDocPtr doc, case_fn fn, void *ctx, double *suite_seconds) {
    xmlNode *root = xmlDocGetRootElement(doc);
    for (xmlNode *su = is_elem(root, "testsuite") ? root : root->children; su; su = su == root ? NULL : su->next) {
        if (!is_elem(su, "testsuite")) continue;
        xmlChar *tm = xmlGetProp(su, BAD_CAST "time");
        if (tm && suite_seconds) *suite_seconds += strtod((const char *)tm, NULL);
        xmlFree(tm);
        for (xmlNode *tc = su->children; tc; tc = tc->next)
            if (is_elem(tc, "testcase") && !fn(tc, ctx)) return false;
    }
    return true;
}

static bool has_child(const xmlNode *n, const char *name) {
    for (const xmlNode *c = n->children; c; c = c->next)
        if (is_elem(c, name)) return true;
    return false;
}

/* ---- merging ------------------------------------------------------------------------------- */

typedef struct {
    xmlNode *node;
    char *name, *classname;
    int file; /* index of the input */
} mcase_t;

typedef struct {
    mcase_t *c;
    int n, cap, file;
    bool oom;
} mlist_t;

static bool collect(xmlNode *tc, void *ctx) {
    mlist_t *l = ctx;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        mcase_t *c = realloc(l->c, sizeof *c * (size_t)cap);
        if (!c) return !(l->oom = true);
        l->c = c;
        l->cap = cap;
    }
    xmlChar *nm = xmlGetProp(tc, BAD_CAST "name"), *cl = xmlGetProp(tc, BAD_CAST "classname");
    l->c[l->n++] = (mcase_t){tc, strdup(nm ? (const char *)nm : ""), strdup(cl ? (const char *)cl : ""), l->file};
    xmlFree(nm);
    xmlFree(cl);
    if (!l->c[l->n - 1].name || !l->c[l->n - 1].classname) return !(l->oom = true);
    return true;
}

static int cmp_case(const void *a, const void *b) {
    const mcase_t *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    if (!r) r = strcmp(x->classname, y->classname);
    return r ? r : x->file - y->file;
}

bool junit_merge(const junit_input_t *in, int n, const char *name, const char *out, junit_totals_t *totals, char *err,
                 size_t errlen) {
    xmlDocPtr *docs = calloc((size_t)n + 1, sizeof *docs);
    mlist_t l = {0};
    double seconds = 0;
    bool ok = docs != NULL;
    *totals = (junit_totals_t){0};
    for (int i = 0; ok && i < n; i++) {
        if (!(docs[i] = junit_parse(&in[i], err, errlen))) ok = false;
        l.file = i;
        if (ok && !each_case(docs[i], collect, &l, &seconds)) ok = false;
    }
    if (ok) qsort(l.c, (size_t)l.n, sizeof *l.c, cmp_case);
    for (int i = 1; ok && i < l.n; i++)
        if (!strcmp(l.c[i].name, l.c[i - 1].name) && !strcmp(l.c[i].classname, l.c[i - 1].classname)) {
            snprintf(err, errlen, "case '%s' is in both %s and %s (overlapping shards, or one file given twice?)",
                     l.c[i].name, in[l.c[i - 1].file].path, in[l.c[i].file].path);
            ok = false;
        }
    if (l.oom) snprintf(err, errlen, "out of memory");
    xmlDocPtr doc = ok ? xmlNewDoc(BAD_CAST "1.0") : NULL;
    if (ok && !doc) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    if (ok) {
        for (int i = 0; i < l.n; i++) {
            totals->tests++;
            totals->failures += has_child(l.c[i].node, "failure");
            totals->errors += has_child(l.c[i].node, "error");
            totals->skipped += has_child(l.c[i].node, "skipped");
        }
        char num[32];
        xmlNode *root = xmlNewDocNode(doc, NULL, BAD_CAST "testsuites", NULL), *suite = NULL;
        xmlDocSetRootElement(doc, root);
        for (int lv = 0; lv < 2; lv++) {
            xmlNode *e = lv ? (suite = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL)) : root;
            xmlNewProp(e, BAD_CAST "name", BAD_CAST name);
            snprintf(num, sizeof num, "%d", totals->tests);
            xmlNewProp(e, BAD_CAST "tests", BAD_CAST num);
            snprintf(num, sizeof num, "%d", totals->failures);
            xmlNewProp(e, BAD_CAST "failures", BAD_CAST num);
            snprintf(num, sizeof num, "%d", totals->errors);
            xmlNewProp(e, BAD_CAST "errors", BAD_CAST num);
            snprintf(num, sizeof num, "%d", totals->skipped);
            if (lv) xmlNewProp(e, BAD_CAST "skipped", BAD_CAST num);
            snprintf(num, sizeof num, "%.3f", seconds);
            xmlNewProp(e, BAD_CAST "time", BAD_CAST num);
        }
        for (int i = 0; ok && i < l.n; i++) {
            xmlNode *copy = xmlDocCopyNode(l.c[i].node, doc, 1);
            if (!copy || !xmlAddChild(suite, copy)) ok = false;
        }
        if (ok && xmlSaveFormatFileEnc(out, doc, "UTF-8", 1) < 0) {
            snprintf(err, errlen, "%s: cannot write it", out);
            ok = false;
        } else if (!ok) {
            snprintf(err, errlen, "out of memory");
        }
    }
    if (doc) xmlFreeDoc(doc);
    for (int i = 0; i < l.n; i++) {
        free(l.c[i].name);
        free(l.c[i].classname);
    }
    free(l.c);
    for (int i = 0; docs && i < n; i++)
        if (docs[i]) xmlFreeDoc(docs[i]);
    free(docs);
    return ok;
}

/* ---- recorded times ---------------------------------------------------------------------------- */

typedef struct {
    junit_time_t *t;
    int n, cap;
    bool oom;
} tlist_t;

static bool collect_time(xmlNode *tc, void *ctx) {
    tlist_t *l = ctx;
    xmlChar *nm = xmlGetProp(tc, BAD_CAST "name"), *tm = xmlGetProp(tc, BAD_CAST "time");
    if (nm && tm) {
        if (l->n == l->cap) {
            int cap = l->cap ? 2 * l->cap : 64;
            junit_time_t *t = realloc(l->t, sizeof *t * (size_t)cap);
            if (!t) l->oom = true;
            if (t) l->t = t, l->cap = cap;
        }
        if (!l->oom) {
            char *end = NULL;
            double s = strtod((const char *)tm, &end);
            if (end && end != (const char *)tm && s >= 0 && s < 1e9) {
                l->t[l->n].seconds = s;
                if (!(l->t[l->n].name = strdup((const char *)nm)))
                    l->oom = true;
                else
                    l->n++;
            }
        }
    }
    xmlFree(nm);
    xmlFree(tm);
    return !l->oom;
}

int junit_times(const junit_input_t *in, junit_time_t **out, char *err, size_t errlen) {
    xmlDocPtr doc = junit_parse(in, err, errlen);
    if (!doc) return -1;
    tlist_t l = {0};
    each_case(doc, collect_time, &l, NULL);
    xmlFreeDoc(doc);
    if (l.oom) {
        for (int i = 0; i < l.n; i++)
            free(l.t[i].name);
        free(l.t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *out = l.t;
    return l.n;
}
