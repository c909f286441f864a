/* bench/progs/compute.c — the compute-bound RV32IM workload of `make bench` (bench/run.sh).
 *
 * One core, no MMIO: integer arithmetic, multiply/divide, branches, and loads/stores to L1
 * (globals) and local data RAM (the stack), in roughly the mix compiled kernels show. ROUNDS sets
 * the length (about 200,000 instructions per round). The checksum goes to L1 0x8000 so a run can
 * be checked with --peek, and the reference and fast paths compared.
 */
#include "ttemu_fw.h"

#ifndef ROUNDS
#define ROUNDS 200
#endif

#define N 64
static uint32_t buf[1024];
static int32_t ma[N / 4][N / 4], mb[N / 4][N / 4], mc[N / 4][N / 4];
static uint8_t sieve[4096];

static uint32_t crc32(const uint32_t *p, unsigned n, uint32_t crc) {
    for (unsigned i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 32; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    return crc;
}

static uint32_t matmul(uint32_t seed) {
    const int n = N / 4;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            seed = seed * 1103515245u + 12345u;
            ma[i][j] = (int32_t)(seed >> 16) - 0x4000;
            mb[j][i] = (int32_t)(seed & 0xffff) - 0x8000;
        }
    uint32_t sum = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int32_t acc = 0;
            for (int k = 0; k < n; k++)
                acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
            sum += (uint32_t)acc;
        }
    return sum;
}

static uint32_t primes(unsigned limit) {
    for (unsigned i = 0; i < limit; i++)
        sieve[i] = 1;
    uint32_t count = 0;
    for (unsigned i = 2; i < limit; i++) {
        if (!sieve[i]) continue;
        count++;
        for (unsigned j = i * i; j < limit; j += i)
            sieve[j] = 0;
    }
    return count;
}

static uint32_t divs(uint32_t seed) {
    uint32_t acc = 0;
    for (uint32_t i = 1; i < 2000; i++) {
        seed = seed * 1664525u + 1013904223u;
        acc += seed / i + seed % (i + 7) + (uint32_t)((int32_t)seed / -(int32_t)i);
    }
    return acc;
}

static void insertion_sort(uint32_t *a, unsigned n) {
    for (unsigned i = 1; i < n; i++) {
        uint32_t v = a[i];
        unsigned j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

int main(void) {
    uint32_t local[128]; /* on the stack: local data RAM */
    uint32_t check = 0, seed = 1;
    for (int r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < 1024; i++) {
            seed = seed * 22695477u + 1u;
            buf[i] = seed;
        }
        check ^= crc32(buf, 256, check);
        check += matmul(seed);
        check += primes(4096);
        check ^= divs(seed + (uint32_t)r);
        for (unsigned i = 0; i < 128; i++)
            local[i] = buf[(i * 37u) & 1023u] ^ check;
        insertion_sort(local, 128);
        check += local[0] + local[127];
    }
    L1_WORD(0x8000) = check;
    return 0;
}
