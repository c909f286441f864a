/* coproc/unpack_internal.h — what the unpacker's files share (coproc/unpack.c: UNPACR's address
 * side, the uncompressed data paths, UNPACR_NOP; coproc/unpack_z.c: compressed input). Nothing
 * else includes it. */
#ifndef TTEMU_COPROC_UNPACK_INTERNAL_H
#define TTEMU_COPROC_UNPACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/dp_internal.h"

/* Write one converted datum at output position `out` into SrcA, SrcB or Dst of `bank` as job j
 * says (UNPACR_Regular.md's main loop); false after a failure. */
bool unp_put_datum(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank, bool out32, uint32_t out,
                   uint32_t datum);
/* The data side of an UNPACR of compressed input. */
void unp_data_compressed(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank);

#endif
