/* The observer of stallwait_observer.h on TRISC2 (linked at 0x50000). */
#include "stallwait_observer.h"

int main(void) { return observer_main(); }
