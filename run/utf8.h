/* run/utf8.h — text as it leaves ttemu: valid UTF-8. Image paths, ELF symbol names and config
 * strings are copied from files as bytes, and a path named with bytes 0xFF 0xFE would make a
 * report undecodable (issue 20). Every writer of the report, the traces and the JUnit XML passes
 * its text through utf8_clean, which replaces each byte that does not begin a well-formed UTF-8
 * sequence (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF)
 * with U+FFFD REPLACEMENT CHARACTER (docs/report-format.md, "Text"). */
#ifndef TTEMU_RUN_UTF8_H
#define TTEMU_RUN_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at s (1..4), or 0 if s does not begin one. n is the
 * number of bytes available. */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* True when s (NUL-terminated) is well-formed UTF-8 (and, for xml, holds no character XML 1.0
 * forbids: C0 controls other than tab, line feed and carriage return). */
bool utf8_valid(const char *s, bool xml);
/* A new copy of s with every ill-formed byte (and, for xml, every forbidden control) replaced by
 * U+FFFD; NULL when out of memory. Valid text is copied unchanged. */
char *utf8_clean(const char *s, bool xml);

#endif
