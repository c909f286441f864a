/* TEMPORARY until coproc/formats.c lands (then this file goes). */
#include "coproc/formats.h"
const char *fmt_name(unsigned code) {
    static const char *const n[16] = {"FP32",  "FP16",  "BFP8a", "BFP4a", "TF32", "BF16", "BFP8", "BFP4",
                                      "INT32", "INT16", "FP8",   "BFP2a", "?",    "?",    "INT8", "BFP2"};
    return code < 16 ? n[code] : "?";
}
