/* run/utf8.c — well-formed UTF-8 out (run/utf8.h). */
#include <stdlib.h>
#include <string.h>

#include "run/utf8.h"

size_t utf8_seq_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    /* Table 3-7 (Unicode 15, section 3.9): the lead byte fixes the length and the range of the
     * second byte; later bytes are 0x80..0xBF. */
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c == 0xE0)
        len = 3, lo = 0xA0; /* no overlong three-byte forms */
    else if (c == 0xED)
        len = 3, hi = 0x9F; /* no surrogates D800..DFFF */
    else if (c >= 0xE1 && c <= 0xEF)
        len = 3;
    else if (c == 0xF0)
        len = 4, lo = 0x90; /* no overlong four-byte forms */
    else if (c == 0xF4)
        len = 4, hi = 0x8F; /* nothing above U+10FFFF */
    else if (c >= 0xF1 && c <= 0xF3)
        len = 4;
    else
        return 0; /* 0x80..0xC1 (continuation or overlong lead), 0xF5..0xFF */
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

static bool xml_forbidden(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

bool utf8_valid(const char *s, bool xml) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        if (!k || (xml && xml_forbidden(p[i]))) return false;
        i += k;
    }
    return true;
}

char *utf8_clean(const char *s, bool xml) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1); /* each byte becomes at most the 3 bytes of U+FFFD */
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        if (!k || (xml && xml_forbidden(p[i]))) {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
            continue;
        }
        memcpy(out + o, p + i, k);
        o += k;
        i += k;
    }
    out[o] = 0;
    return out;
}
