/* pipeline.h — what the three threads of the unpack -> math -> pack sample agree on. */
#ifndef PIPELINE_H
#define PIPELINE_H

#include "ttemu_fw.h"

#define NUM_TILES 8
/* SyncHalf: Dst has two halves, so math may run one tile ahead of pack (MATH_PACK Max 2). */
#define MATH_PACK_MAX 2
/* One tile at a time goes from the unpacker straight into Dst (UNPACK_TO_DEST Max 1). */
#define UNPACK_TO_DEST_MAX 1

/* Results in L1: each TRISC's tile count, read back from the Sync Unit after its thread drained. */
#define RESULT(i) L1_WORD(0x9000u + 4u * (i))
enum { R_UNPACKED, R_MATH_TILES, R_PACKED, R_DONE_T0, R_DONE_T1, R_DONE_T2 };

#endif
