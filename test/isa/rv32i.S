/* RV32I: every base instruction with its edge cases (x0 writes, load sign extension, shift
 * amounts, branch edges, PC-relative results recorded relative to their labels, fence.i on
 * self-modifying code). ebreak is the program's last instruction (isa_end), checked by the test
 * through the core's final state. See isa.h for the signature protocol. */
#include "isa.h"

    TEST_BEGIN

    /* ---- lui / auipc -------------------------------------------------------------------- */
    lui a0, 0x12345
    CHECK a0, 0x12345000
    lui a0, 0xFFFFF
    CHECK a0, 0xFFFFF000
    lui a0, 0x80000
    CHECK a0, 0x80000000
    lui a0, 0
    CHECK a0, 0
    lui x0, 0x12345
    CHECK x0, 0
.Lauipc0:
    auipc a0, 0                     /* a0 - label = 0 */
    LA_ABS a1, .Lauipc0
    sub a0, a0, a1
    CHECK a0, 0
.Lauipc1:
    auipc a0, 0x12345
    LA_ABS a1, .Lauipc1
    sub a0, a0, a1
    CHECK a0, 0x12345000
.Lauipc2:
    auipc a0, 0xFFFFF               /* negative offset: -0x1000 */
    LA_ABS a1, .Lauipc2
    sub a0, a0, a1
    CHECK a0, 0xFFFFF000

    /* ---- jal / jalr --------------------------------------------------------------------- */
    li a0, 0
    jal ra, sub_set5                /* forward call; sub_set5 returns with jalr x0, 0(ra) */
.Ljal_ret:
    CHECK a0, 5
    LA_ABS a1, .Ljal_ret
    sub a2, ra, a1
    CHECK a2, 0                     /* link = address of the next instruction */
    li a0, 0
    j .Ljal_fwd                     /* jal x0 */
    li a0, 99                       /* skipped */
.Ljal_back:
    li a0, 3
    jal x0, .Ljal_done
.Ljal_fwd:
    jal zero, .Ljal_back            /* backward jump */
    li a0, 98                       /* skipped */
.Ljal_done:
    CHECK a0, 3
    CHECK x0, 0
    li a0, 0
    LA_ABS a1, sub_set5
    jalr ra, 0(a1)
.Ljalr_ret:
    CHECK a0, 5
    LA_ABS a1, .Ljalr_ret
    sub a2, ra, a1
    CHECK a2, 0
    li a0, 0
    LA_ABS a1, sub_set5 - 7
    jalr ra, 8(a1)                  /* target sub_set5 + 1: bit 0 cleared */
.Ljalr_ret2:
    CHECK a0, 5
    LA_ABS a2, .Ljalr_ret2
    sub a2, ra, a2
    CHECK a2, 0
    li a0, 0
    LA_ABS a1, sub_set6_a1
    jalr a1, 0(a1)                  /* rd == rs1: target from the old value */
.Ljalr_ret3:
    CHECK a0, 6
    LA_ABS a2, .Ljalr_ret3
    sub a2, a1, a2                  /* sub_set6_a1 returned through a1 */
    CHECK a2, 0
    LA_ABS a1, sub_set5
    LA_ABS ra, .Ljalr_x0_ret
    li a0, 0
    jalr x0, 0(a1)                  /* no link: sub_set5 returns to the ra set here */
    li a0, 97                       /* skipped */
.Ljalr_x0_ret:
    CHECK a0, 5
    LA_ABS a2, .Ljalr_x0_ret
    sub a2, ra, a2                  /* ra unchanged by jalr x0 */
    CHECK a2, 0

    /* ---- branches (2 = taken, 1 = not taken) -------------------------------------------- */
    TEST_BR beq, 5, 5, 1
    TEST_BR beq, 5, 6, 0
    TEST_BR beq, 0x80000000, 0, 0
    TEST_BR bne, 5, 5, 0
    TEST_BR bne, 5, 6, 1
    TEST_BR bne, 0xFFFFFFFF, 0x7FFFFFFF, 1
    TEST_BR blt, 0xFFFFFFFF, 0, 1
    TEST_BR blt, 0, 0xFFFFFFFF, 0
    TEST_BR blt, 0x80000000, 0x7FFFFFFF, 1
    TEST_BR blt, 0x7FFFFFFF, 0x80000000, 0
    TEST_BR blt, 7, 7, 0
    TEST_BR bge, 7, 7, 1
    TEST_BR bge, 0xFFFFFFFF, 0, 0
    TEST_BR bge, 0x7FFFFFFF, 0x80000000, 1
    TEST_BR bge, 0x80000000, 0x80000000, 1
    TEST_BR bltu, 0, 0xFFFFFFFF, 1
    TEST_BR bltu, 0xFFFFFFFF, 0, 0
    TEST_BR bltu, 0x7FFFFFFF, 0x80000000, 1
    TEST_BR bltu, 9, 9, 0
    TEST_BR bgeu, 9, 9, 1
    TEST_BR bgeu, 0xFFFFFFFF, 0, 1
    TEST_BR bgeu, 0, 1, 0
    TEST_BR bgeu, 0x7FFFFFFF, 0x80000000, 0
    li a0, 0                        /* backward branch: a loop of 5 */
    li a1, 5
.Lloop:
    addi a0, a0, 3
    addi a1, a1, -1
    bnez a1, .Lloop
    CHECK a0, 15

    /* ---- loads (sign/zero extension, offsets) ------------------------------------------- */
    LA_ABS a1, ld_data
    lb a0, 0(a1)
    CHECK a0, 0x01
    lb a0, 1(a1)
    CHECK a0, 0x7F
    lb a0, 2(a1)
    CHECK a0, 0xFFFFFFFF
    lb a0, 3(a1)
    CHECK a0, 0xFFFFFF80
    lbu a0, 2(a1)
    CHECK a0, 0xFF
    lbu a0, 3(a1)
    CHECK a0, 0x80
    lh a0, 0(a1)
    CHECK a0, 0x7F01
    lh a0, 2(a1)
    CHECK a0, 0xFFFF80FF
    lhu a0, 2(a1)
    CHECK a0, 0x80FF
    lh a0, 4(a1)
    CHECK a0, 0xFFFF8001
    lhu a0, 4(a1)
    CHECK a0, 0x8001
    lh a0, 6(a1)
    CHECK a0, 0x7FFF
    lw a0, 0(a1)
    CHECK a0, 0x80FF7F01
    lw a0, 8(a1)
    CHECK a0, 0xDEADBEEF
    addi a1, a1, 8
    lw a0, -8(a1)                   /* negative offsets */
    CHECK a0, 0x80FF7F01
    lb a0, -1(a1)
    CHECK a0, 0x7F
    lbu a0, -5(a1)
    CHECK a0, 0x80
    lhu a0, -2(a1)
    CHECK a0, 0x7FFF
    lw x0, 0(a1)                    /* load to x0 is discarded */
    CHECK x0, 0
    lw a1, 0(a1)                    /* rd == rs1 */
    CHECK a1, 0xDEADBEEF

    /* ---- stores ------------------------------------------------------------------------- */
    LA_ABS a1, st_buf
    li a2, 0x11223344
    sw a2, 0(a1)
    sw zero, 4(a1)
    lw a0, 0(a1)
    CHECK a0, 0x11223344
    li a2, 0x123456AB
    sb a2, 1(a1)                    /* only the low byte */
    lw a0, 0(a1)
    CHECK a0, 0x1122AB44
    li a2, 0xCAFEBEEF
    sh a2, 2(a1)                    /* only the low half */
    lw a0, 0(a1)
    CHECK a0, 0xBEEFAB44
    li a2, 0xFFFFFF80
    sb a2, 3(a1)
    lw a0, 0(a1)
    CHECK a0, 0x80EFAB44
    li a2, 0x1234
    sh a2, 0(a1)
    lw a0, 0(a1)
    CHECK a0, 0x80EF1234
    lw a0, 4(a1)                    /* neighbour untouched */
    CHECK a0, 0
    addi a3, a1, 16
    li a2, 0x55667788
    sw a2, -12(a3)                  /* negative offset: st_buf + 4 */
    lw a0, 4(a1)
    CHECK a0, 0x55667788
    li a1, LOCAL_RAM + 0x100        /* the core's local data RAM */
    li a2, 0xCAFEF00D
    sw a2, 0(a1)
    sw zero, 4(a1)
    lw a0, 0(a1)
    CHECK a0, 0xCAFEF00D
    li a2, 0x80
    sb a2, 5(a1)
    lb a0, 5(a1)
    CHECK a0, 0xFFFFFF80
    lhu a0, 4(a1)
    CHECK a0, 0x8000
    li a2, 0xFFFF
    sh a2, 6(a1)
    lw a0, 4(a1)
    CHECK a0, 0xFFFF8000

    /* ---- register-immediate ALU --------------------------------------------------------- */
    TEST_RI addi, 0, 0, 0
    TEST_RI addi, 1, 2047, 0x800
    TEST_RI addi, 0, -2048, 0xFFFFF800
    TEST_RI addi, 0x7FFFFFFF, 1, 0x80000000
    TEST_RI addi, 0x80000000, -1, 0x7FFFFFFF
    TEST_RI addi, 0xFFFFFFFF, 1, 0
    addi x0, x0, 5
    CHECK x0, 0
    TEST_RI slti, 0xFFFFFFFF, 0, 1
    TEST_RI slti, 0, -1, 0
    TEST_RI slti, 0x80000000, -2048, 1
    TEST_RI slti, 0x7FFFFFFF, 2047, 0
    TEST_RI slti, 5, 5, 0
    TEST_RI sltiu, 0xFFFFFFFE, -1, 1     /* imm sign-extends to 0xFFFFFFFF, compares unsigned */
    TEST_RI sltiu, 0xFFFFFFFF, -1, 0
    TEST_RI sltiu, 0, 1, 1
    TEST_RI sltiu, 5, 1, 0
    TEST_RI sltiu, 0x80000000, 2047, 0
    TEST_RI xori, 0x12345678, -1, 0xEDCBA987
    TEST_RI xori, 0x0F0F0F0F, 0x7FF, 0x0F0F08F0
    TEST_RI xori, 0xFFFFFFFF, -2048, 0x000007FF
    TEST_RI ori, 0x12340000, 0x5A5, 0x123405A5
    TEST_RI ori, 0, -2048, 0xFFFFF800
    TEST_RI andi, 0x12345678, -16, 0x12345670
    TEST_RI andi, 0xFFFFFFFF, 0x7FF, 0x7FF
    TEST_RI andi, 0x12345678, 0, 0
    TEST_RI slli, 0x80000001, 0, 0x80000001
    TEST_RI slli, 1, 31, 0x80000000
    TEST_RI slli, 0x12345678, 4, 0x23456780
    TEST_RI srli, 0x80000000, 31, 1
    TEST_RI srli, 0x80000000, 0, 0x80000000
    TEST_RI srli, 0xF0000000, 4, 0x0F000000
    TEST_RI srai, 0x80000000, 31, 0xFFFFFFFF
    TEST_RI srai, 0xF0000000, 4, 0xFF000000
    TEST_RI srai, 0x70000000, 4, 0x07000000
    TEST_RI srai, 0x80000000, 0, 0x80000000

    /* ---- register-register ALU ---------------------------------------------------------- */
    TEST_RR add, 0x7FFFFFFF, 1, 0x80000000
    TEST_RR add, 0xFFFFFFFF, 1, 0
    TEST_RR add, 0x12345678, 0x11111111, 0x23456789
    TEST_RR sub, 0, 1, 0xFFFFFFFF
    TEST_RR sub, 0x80000000, 1, 0x7FFFFFFF
    TEST_RR sub, 5, 5, 0
    TEST_RR sll, 1, 31, 0x80000000
    TEST_RR sll, 0x12345678, 32, 0x12345678     /* only rs2[4:0] counts */
    TEST_RR sll, 0x12345678, 33, 0x2468ACF0
    TEST_RR sll, 1, 0xFFFFFFFF, 0x80000000
    TEST_RR sll, 0xFFFFFFFF, 0xFFFFFFE0, 0xFFFFFFFF
    TEST_RR srl, 0x80000000, 31, 1
    TEST_RR srl, 0x80000000, 63, 1
    TEST_RR srl, 0x80000000, 32, 0x80000000
    TEST_RR srl, 0xFFFFFFFF, 0x24, 0x0FFFFFFF
    TEST_RR sra, 0x80000000, 31, 0xFFFFFFFF
    TEST_RR sra, 0x80000000, 32, 0x80000000
    TEST_RR sra, 0x80000000, 0x41, 0xC0000000
    TEST_RR sra, 0x7FFFFFFF, 0x3F, 0
    TEST_RR slt, 0xFFFFFFFF, 0, 1
    TEST_RR slt, 0, 0xFFFFFFFF, 0
    TEST_RR slt, 0x80000000, 0x7FFFFFFF, 1
    TEST_RR slt, 3, 3, 0
    TEST_RR sltu, 0, 0xFFFFFFFF, 1
    TEST_RR sltu, 0xFFFFFFFF, 0, 0
    TEST_RR sltu, 0x7FFFFFFF, 0x80000000, 1
    TEST_RR sltu, 3, 3, 0
    TEST_RR xor, 0xFF00FF00, 0x0FF00FF0, 0xF0F0F0F0
    TEST_RR xor, 0x12345678, 0x12345678, 0
    TEST_RR or, 0xFF00FF00, 0x0FF00FF0, 0xFFF0FFF0
    TEST_RR or, 0, 0, 0
    TEST_RR and, 0xFF00FF00, 0x0FF00FF0, 0x0F000F00
    TEST_RR and, 0xFFFFFFFF, 0x80000001, 0x80000001
    li a1, 0x11111111
    add a1, a1, a1                  /* rd == rs1 == rs2 */
    CHECK a1, 0x22222222
    li a1, 1
    li a2, 2
    add x0, a1, a2
    CHECK x0, 0
    sub x0, a1, a2
    CHECK x0, 0

    /* ---- fence / fence.i ---------------------------------------------------------------- */
    LA_ABS a1, st_buf
    li a2, 0x0BADF00D
    sw a2, 8(a1)
    fence
    lw a0, 8(a1)
    CHECK a0, 0x0BADF00D
    li a2, 0x600DF00D
    sw a2, 8(a1)
    fence rw, rw
    lw a0, 8(a1)
    CHECK a0, 0x600DF00D
    li a0, 0
    LA_ABS a1, smc_fn
    jalr ra, 0(a1)
    CHECK a0, 1                     /* smc_fn as assembled: addi a0, x0, 1 */
    li a2, 0x00200513               /* addi a0, x0, 2 */
    sw a2, 0(a1)
    .option push
    .option arch, +zifencei
    fence.i
    .option pop
    li a0, 0
    jalr ra, 0(a1)
    CHECK a0, 2                     /* the patched instruction ran */

    TEST_END

    .section .text.sub, "ax"
sub_set5:
    li a0, 5
    jalr x0, 0(ra)
sub_set6_a1:                        /* returns through a1 */
    li a0, 6
    jalr x0, 0(a1)

    .section .smc, "awx"
    .balign 4
smc_fn:
    addi a0, x0, 1
    jalr x0, 0(ra)

    .data
    .balign 4
ld_data:
    .byte 0x01, 0x7F, 0xFF, 0x80    /* word 0x80FF7F01 */
    .half 0x8001, 0x7FFF            /* word 0x7FFF8001 */
    .word 0xDEADBEEF
st_buf:
    .word 0, 0, 0, 0
