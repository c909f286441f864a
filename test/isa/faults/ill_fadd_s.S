/* F instruction fadd.s: illegal under ttemu's RV32IMA+Zicsr/Zba/Zbb/Zbkb-subset model.
 * (TENSIX.md 1.2 notes real Blackhole cores have a partial F; drop this test if ttemu adds F.)
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    .option push
    .option arch, +f
    fadd.s f0, f1, f2
    .option pop
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
