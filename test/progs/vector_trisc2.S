/* A vector instruction: Blackhole has (part of) V on TRISC2 only. On TRISC2 ttemu's gap (exit 6,
 * `unimplemented`); on any other core an illegal instruction (exit 3). At the label "vector".
 * test/sh/t_unimplemented.sh runs it both ways. */
    .text
    .globl main, vector
main:
    .option push
    .option arch, +v
vector:
    vadd.vv v1, v2, v3
    .option pop
    ret
