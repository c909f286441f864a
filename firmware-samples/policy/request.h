/* request.h — what the two threads of the request/ready handshake agree on (docs/gate-policies.md). */
#ifndef POLICY_REQUEST_H
#define POLICY_REQUEST_H

#include "ttemu_fw.h"

#define NUM_TILES 8
/* Semaphores 6 and 7 (tt-llk's UNPACK_MATH_DONE and MATH_DONE, unused here). Both start at 0. */
#define SEM_TILE_REQUEST 6u /* consumer -> producer: send me a tile */
#define SEM_TILE_READY   7u /* producer -> consumer: a tile is ready */

/* Results in L1: the tiles each side handled, written once its thread drained. */
#define RESULT(i) L1_WORD(0x9000u + 4u * (i))
enum { R_CONSUMED, R_PRODUCED };

#endif
