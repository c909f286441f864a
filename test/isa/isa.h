/* test/isa/isa.h — macros for ttemu's self-checking RV32 ISA programs (test/isa/*.S).
 *
 * Signature protocol. Every program has a .signature section (fixed address SIG_BASE, set by
 * test/isa/isa.mk) laid out as
 *     word 0      status: 0x600D600D when every check passed, else 0xBAD00000 | index of the
 *                 first failing check (1-based); 0xFFFFFFFF until the program reaches TEST_END
 *     word 1      number of checks
 *     word 2+i    the value check i+1 computed (the raw result, so a differential run compares
 *                 actual values, not only pass/fail)
 * Expected values are constants written in the test sources (worked out by hand), so the tile
 * build under ttemu and the qemu build check against the same truth.
 *
 * Each CHECK also puts its address in the non-loaded section .isa_checks (one word per check),
 * so test/sh/t_isa.sh can name the source line of a failing check (addr2line).
 *
 * Registers owned by the macros: s10 (next signature slot), s11 (first failing index, 0 = none),
 * t6 (scratch for CHECK). Test code must not use them.
 *
 * Two builds of each source: the tile one (default) ends with `ebreak` at the global label
 * isa_end; the qemu one (-DQEMU, rebuilt at 0x80000000) prints the signature on the virt UART as
 * "SIG xxxxxxxx" lines and exits through the SiFive test device. Everything qemu-specific is in
 * the #ifdef QEMU blocks of this file.
 */
#ifndef TTEMU_ISA_H
#define TTEMU_ISA_H

#define SIGP s10
#define FAILIDX s11

#ifdef QEMU
/* Stand-in for the core's local data RAM (0xFFB00000 on the tile): plain virt RAM. */
#define LOCAL_RAM 0x80F00000
/* Stand-ins for Blackhole's scratch CSRs 0x7C1..0x7C6: qemu's full-width read/write CSRs. */
#define CSR_S1 mscratch
#define CSR_S2 sscratch
#define CSR_S3 mtval
#define CSR_S4 stval
#define CSR_S5 mepc
#define CSR_S6 sepc
#else
#define LOCAL_RAM 0xFFB00000
#define CSR_S1 0x7C1
#define CSR_S2 0x7C2
#define CSR_S3 0x7C3
#define CSR_S4 0x7C4
#define CSR_S5 0x7C5
#define CSR_S6 0x7C6
#endif

/* Loads the absolute address of SYM without auipc (auipc is itself under test). */
.macro LA_ABS rd, sym
    lui \rd, %hi(\sym)
    addi \rd, \rd, %lo(\sym)
.endm

.macro TEST_BEGIN
    .section .text.start, "ax"
    .globl _start
_start:
    LA_ABS SIGP, sig_words
    li FAILIDX, 0
    .set _nchk, 0
.endm

/* CHECK reg, expected: records reg in the next signature slot and compares it with the
 * constant; the first mismatch's index goes to FAILIDX. reg must not be t6. */
.macro CHECK r, exp
    .set _nchk, _nchk + 1
    .pushsection .isa_checks, "", @progbits   /* where check _nchk is, for the test's messages */
    .word .Lck_at\@
    .popsection
.Lck_at\@:
    sw \r, 0(SIGP)
    addi SIGP, SIGP, 4
    li t6, \exp
    beq \r, t6, .Lck_ok\@
    bnez FAILIDX, .Lck_ok\@
    li FAILIDX, _nchk
.Lck_ok\@:
.endm

/* rd = a OP b with registers; also an x-register op (OP rd, rs1, rs2). */
.macro TEST_RR op, a, b, exp
    li a1, \a
    li a2, \b
    \op a0, a1, a2
    CHECK a0, \exp
.endm

/* rd = OP a, imm */
.macro TEST_RI op, a, imm, exp
    li a1, \a
    \op a0, a1, \imm
    CHECK a0, \exp
.endm

/* rd = OP a (unary, e.g. clz) */
.macro TEST_R1 op, a, exp
    li a1, \a
    \op a0, a1
    CHECK a0, \exp
.endm

/* Branch OP a, b: records 2 if taken, 1 if not. */
.macro TEST_BR op, a, b, taken
    li a1, \a
    li a2, \b
    li a0, 0
    \op a1, a2, .Lbr_t\@
    li a0, 1
    j .Lbr_d\@
.Lbr_t\@:
    li a0, 2
.Lbr_d\@:
    CHECK a0, (1 + \taken)
.endm

.macro TEST_END
    li t0, 0x600D600D
    beqz FAILIDX, .Lend_st\@
    li t0, 0xBAD00000
    or t0, t0, FAILIDX
.Lend_st\@:
    LA_ABS t1, sig_base
    li t2, _nchk
    sw t2, 4(t1)
    sw t0, 0(t1)
#ifdef QEMU
    /* qemu glue: print status, count and every check word as "SIG xxxxxxxx\n" on the ns16550
     * at 0x10000000, then exit through the SiFive test device (0x5555 at 0x100000). */
    addi t2, t2, 2                  /* words to print */
    li t3, 0x10000000
.Lq_word\@:
    lw t4, 0(t1)
    li t5, 'S'
    sb t5, 0(t3)
    li t5, 'I'
    sb t5, 0(t3)
    li t5, 'G'
    sb t5, 0(t3)
    li t5, ' '
    sb t5, 0(t3)
    li a3, 8
.Lq_dig\@:
    srli t5, t4, 28
    slli t4, t4, 4
    addi t5, t5, '0'
    li a4, '9'
    ble t5, a4, .Lq_put\@
    addi t5, t5, 'a' - '0' - 10
.Lq_put\@:
    sb t5, 0(t3)
    addi a3, a3, -1
    bnez a3, .Lq_dig\@
    li t5, '\n'
    sb t5, 0(t3)
    addi t1, t1, 4
    addi t2, t2, -1
    bnez t2, .Lq_word\@
    li t3, 0x100000
    li t5, 0x5555
    sw t5, 0(t3)
.Lq_hang\@:
    j .Lq_hang\@
#else
    .globl isa_end
isa_end:
    ebreak
.Lend_hang\@:
    j .Lend_hang\@
#endif
    .section .signature, "aw"
    .globl sig_base
    .balign 4
sig_base:
    .word 0xFFFFFFFF, 0
sig_words:
    .fill _nchk, 4, 0xDEADBEEF
    .globl NCHECKS
    .set NCHECKS, _nchk
.endm

#endif
