/* app/policy.h — `ttemu compare-policies`: a run config under each gate policy, compared
 * (docs/gate-policies.md). */
#ifndef TTEMU_APP_POLICY_H
#define TTEMU_APP_POLICY_H

/* The command: argv holds what follows "compare-policies". Returns the process exit code: 0 both
 * runs ended the same way, 1 they did not (a deadlock only one policy produces), 4 bad input. */
int policy_main(int argc, char **argv);

#endif
