/* app/junit.c — the JUnit plugin (app/junit.h): one <testsuites> and one <testsuite> with
 * the counts (CI systems read one or the other), a <testcase> per case; a failing case carries a
 * <failure> whose text is the diff, and its output in <system-err>; a case not run, <skipped>.
 * Escaping and encoding are libxml2's business. */
#include <libxml/xmlwriter.h>
#include <stdio.h>

#include "app/junit.h"

bool junit_write(const junit_suite_t *s, const char *path);

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
