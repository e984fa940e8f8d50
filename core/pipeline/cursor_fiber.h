/* A coroutine for a cursor's decode at one job (cursor.c): the push-style
 * decode runs on a stack of its own, on the caller's thread, and hands
 * control back each time it has filled a batch of elements, so that
 * pulling an element costs a copy, not a hand-off between threads.
 *
 * Built on ucontext (makecontext/swapcontext). Where that is missing, and
 * under ThreadSanitizer (which does not follow swapcontext), the cursor
 * keeps its decode thread: CURSOR_FIBER is 0 there. Under AddressSanitizer
 * the switches are announced to it (__sanitizer_start_switch_fiber), so
 * that it knows which stack is in use. */
#ifndef HWT_CORE_PIPELINE_CURSOR_FIBER_H
#define HWT_CORE_PIPELINE_CURSOR_FIBER_H

#include <stdbool.h>

#if defined(__SANITIZE_THREAD__)
#define CURSOR_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CURSOR_FIBER_TSAN 1
#endif
#endif

#if defined(HWT_HAVE_UCONTEXT) && !defined(CURSOR_FIBER_TSAN)
#define CURSOR_FIBER 1
#else
#define CURSOR_FIBER 0
#endif

struct cursor_fiber;

/* A fiber that will run @fn(@arg) on its own stack from its first
 * cursor_fiber_resume. Errors: HWT_ERR_NOMEM (no memory or no mapping
 * for the stack), HWT_ERR_NOSUP (no ucontext in this build). */
int cursor_fiber_new(void (*fn)(void *arg), void *arg, struct cursor_fiber **out);
/* Runs the fiber until it yields or @fn returns; true once @fn has
 * returned (the fiber must not be resumed again). */
bool cursor_fiber_resume(struct cursor_fiber *f);
/* From inside @fn: back to the caller of cursor_fiber_resume, until the
 * next resume. */
void cursor_fiber_yield(struct cursor_fiber *f);
/* Frees the fiber and its stack: one never resumed, or one whose @fn has
 * returned (a fiber stopped in the middle holds whatever @fn holds). */
void cursor_fiber_free(struct cursor_fiber *f);

#endif
