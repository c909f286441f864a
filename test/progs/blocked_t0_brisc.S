/* blocked_brisc.S pushing into thread 0 (INSTRN_BUF) rather than thread 1 (t_fastpath.sh). */
#define BLOCKED_T0
#include "blocked_brisc.S"
