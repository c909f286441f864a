/* RISC-V <-> Tensix handshakes through the PCBuf semaphore window (TRISC0 / T0).
 *
 * The unpacker has UNPACK_CONTEXTS configuration contexts. tt-llk's unpack TRISC programs a
 * context from RISC-V and tells its thread with semaphore_post(UNPACK_SYNC); the thread waits
 * for that post before it unpacks, and when the unpack is done it gives the context back with
 * t6_semaphore_get<UNPACK>(UNPACK_SYNC). Before programming a context the TRISC polls
 * semaphore_read(UNPACK_SYNC) until one is free (wait_for_next_context). So in one loop:
 *   - the TRISC posts a semaphore its thread waits on (UNPACK_SYNC, RISC-V -> Tensix), and
 *   - the TRISC polls a semaphore its thread changes (UNPACK_SYNC going down; and TILE_READY,
 *     which the thread posts per tile and the TRISC takes with semaphore_get: Tensix -> RISC-V).
 * The thread's instructions for a tile (four faces) are pushed before the context is programmed,
 * so its SEMWAIT really waits for the RISC-V post; the unpack is slower than the RISC-V loop, so
 * both contexts fill up and the TRISC's poll really waits for the thread's SEMGET.
 *
 * Results (L1, --peek 0x9000:5): tiles issued, tiles seen done by RISC-V, the largest
 * UNPACK_SYNC value the TRISC read (never above UNPACK_CONTEXTS), the context words written
 * (sum of tile numbers + 1), done = 1. */
#include "ttemu_fw.h"

#define NUM_TILES        12
#define UNPACK_CONTEXTS  2 /* UNPACK_SYNC's Max */
#define SEM_TILE_READY   SEM_PACK_DONE
#define CONTEXT_CFG(ctx) CFG_WORD(120 + (ctx)) /* stands for an unpacker context's registers */

#define RESULT(i) L1_WORD(0x9000u + 4u * (i))
enum { R_ISSUED, R_DONE_SEEN, R_MAX_SYNC, R_CFG_SUM, R_DONE };

/* wait_for_next_context: poll until the thread has given a context back. Returns the largest
 * value read: UNPACK_CONTEXTS when both contexts were in use and the TRISC had to wait. */
static uint32_t wait_for_next_context(uint32_t max_seen) {
    uint32_t v;
    do {
        v = semaphore_read(SEM_UNPACK_SYNC);
        if (v > max_seen) max_seen = v;
    } while (v >= UNPACK_CONTEXTS);
    return max_seen;
}

/* Take every tile the thread has reported done (TILE_READY), one semaphore_get each. */
static uint32_t drain_ready(uint32_t seen) {
    while (semaphore_read(SEM_TILE_READY) > 0) {
        semaphore_get(SEM_TILE_READY);
        seen++;
    }
    return seen;
}

int main(void) {
    tt_dp_configure_bf16();
    TTI(TT_OP_SEMINIT(UNPACK_CONTEXTS, 0, T6_SEM(SEM_UNPACK_SYNC)));
    TTI(TT_OP_SEMINIT(15, 0, T6_SEM(SEM_TILE_READY)));
    tensix_sync(); /* the SEMINITs are done before RISC-V touches the semaphores */
    uint32_t seen = 0, max_sync = 0, cfg_sum = 0;
    for (uint32_t i = 0; i < NUM_TILES; i++) {
        uint32_t ctx = i % UNPACK_CONTEXTS;
        /* The thread's side of tile i: wait for the context, unpack, give it back, report. */
        TTI(TT_OP_SEMWAIT(STALL_UNPACK, T6_SEM(SEM_UNPACK_SYNC), STALL_ON_ZERO));
        for (int face = 0; face < 4; face++)
            TTI(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        T6_SEMAPHORE_GET(P_UNPACK0, SEM_UNPACK_SYNC);
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_TILE_READY)));
        /* The RISC-V side: a free context, program it, hand it over. */
        max_sync = wait_for_next_context(max_sync);
        CONTEXT_CFG(ctx) = i + 1;
        cfg_sum += CONTEXT_CFG(ctx);
        semaphore_post(SEM_UNPACK_SYNC);
        seen = drain_ready(seen);
    }
    while (seen < NUM_TILES)
        seen = drain_ready(seen);
    RESULT(R_ISSUED) = NUM_TILES;
    RESULT(R_DONE_SEEN) = seen;
    RESULT(R_MAX_SYNC) = max_sync;
    RESULT(R_CFG_SUM) = cfg_sum;
    RESULT(R_DONE) = 1;
    return 0;
}
