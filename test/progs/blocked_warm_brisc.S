/* blocked_brisc.S with the code after the stalled push decoded beforehand (t_fastpath.sh). */
#define BLOCKED_WARM
#include "blocked_brisc.S"
