/* coproc/per_thread.h — for the coprocessor's own files (coproc/timing.h and coproc/cp_internal.h
 * include it): a function of one thread stamped in one copy per thread. Not in coproc/cp.h, the
 * tile's API, and not in cp_internal.h alone: timing.h, which cp_internal.h includes, declares
 * tm_issue so too. */
#ifndef TTEMU_COPROC_PER_THREAD_H
#define TTEMU_COPROC_PER_THREAD_H

#include "coproc/cp_views.h" /* CP_THREADS */

/* A function of one thread in one copy per thread, so that the thread's state sits at offsets
 * known when compiled (no multiply by t). Its body is written once, as an always_inline
 * `name##_as(args..., t)` (or a macro of that form); the copies name##0 to name##2 call it with a
 * constant t, and the dispatcher `name(args..., t)` picks thread t's (a constant too where it is
 * inlined, so no test is left). `params` is the parameter list in parentheses, `args` the same
 * names in parentheses, `head` the copies' return type with their storage and attributes.
 * CP_PER_THREAD_STATIC stamps a file's own copies and dispatcher; a function another file calls
 * is declared in a header with CP_PER_THREAD_DECLARE (copies and dispatcher) and stamped with
 * CP_PER_THREAD_DEFINE next to its body. */
_Static_assert(CP_THREADS == 3, "CP_PER_THREAD stamps three copies");
#define CP_UNPAREN(...) __VA_ARGS__
#define CP_CALL(f, ...) f(__VA_ARGS__) /* (the arguments counted once unparenthesised: a body may be a macro) */
#define CP_PER_THREAD_DEFINE(head, name, params, args)                                                                 \
    head name##0 params { return CP_CALL(name##_as, CP_UNPAREN args, 0); }                                             \
    head name##1 params { return CP_CALL(name##_as, CP_UNPAREN args, 1); }                                             \
    head name##2 params { return CP_CALL(name##_as, CP_UNPAREN args, 2); }
#define CP_PER_THREAD_DISPATCH(ret, name, params, args)                                                                \
    static inline ret name(CP_UNPAREN params, unsigned t) {                                                            \
        return t == 0 ? name##0 args : t == 1 ? name##1 args : name##2 args;                                           \
    }
#define CP_PER_THREAD_DECLARE(ret, name, params, args)                                                                 \
    ret name##0 params;                                                                                                \
    ret name##1 params;                                                                                                \
    ret name##2 params;                                                                                                \
    CP_PER_THREAD_DISPATCH(ret, name, params, args)
#define CP_PER_THREAD_STATIC(attrs, ret, name, params, args)                                                           \
    CP_PER_THREAD_DEFINE(static attrs ret, name, params, args)                                                         \
    CP_PER_THREAD_DISPATCH(ret, name, params, args)

#endif
