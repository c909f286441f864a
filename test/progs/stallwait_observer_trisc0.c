/* The observer of stallwait_observer.h on TRISC0 (linked at 0x30000). */
#include "stallwait_observer.h"

int main(void) { return observer_main(); }
