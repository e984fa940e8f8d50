/* A cursor's decode coroutine (cursor_fiber.h).
 *
 * The stack's size: the decode ran until now on a thread made with the
 * default attributes, so the decoders (libipt, OpenCSD's C++ decoders and
 * capstone below them, the merge by time above) are known to fit in a
 * default thread stack; the fiber gets the same size, as
 * pthread_attr_getstacksize reports it for a default thread (glibc: the
 * stack rlimit, usually 8 MiB), and no less than STACK_MIN. It is mapped
 * with MAP_NORESERVE, so only the pages the decode touches take memory,
 * and the page below it is PROT_NONE: an overflow faults there instead of
 * writing over the heap. Measured (mincore on the stack after the decode,
 * resident pages being those ever touched): the testdata and generated
 * captures (Intel PT by time over 4 CPUs, sw_branch, perf ETM, an ETE
 * snapshot; from Python with symbols and disasm on) touch 12 to 20 KiB,
 * 28 KiB under ASan: the default size leaves a wide margin for deeper
 * code paths (libdw's, OpenCSD's) at no cost but address space. */
#include "core/pipeline/cursor_fiber.h"

#include <stdint.h>
#include <stdlib.h>

#include "hwtrace/error.h"

#if CURSOR_FIBER

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif
#ifdef FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* A floor for a build whose default thread stack is small (musl's
 * 128 KiB would not hold libipt's and capstone's frames under ASan). */
#define STACK_MIN ((size_t)2 << 20)

struct cursor_fiber {
	ucontext_t ctx, caller;
	void (*fn)(void *arg);
	void *arg;
	bool done;
	char *map;             /* the guard page, then the stack */
	size_t map_size, stack_size;
#ifdef FIBER_ASAN
	/* The caller's stack, for the switch back; the fiber's fake stack
	 * (ASan's frames of use-after-return detection) while it is away. */
	const void *caller_bottom;
	size_t caller_size;
	void *fake;
#endif
};

static size_t stack_size(void)
{
	size_t size = 0;
	pthread_attr_t a;
	if (!pthread_attr_init(&a)) {
		if (pthread_attr_getstacksize(&a, &size))
			size = 0;
		pthread_attr_destroy(&a);
	}
	return size < STACK_MIN ? STACK_MIN : size;
}

/* From the caller's side into the fiber, or the fiber's back out. */
static void switch_to(struct cursor_fiber *f, bool in)
{
#ifdef FIBER_ASAN
	if (in) {
		void *fake = NULL;
		__sanitizer_start_switch_fiber(&fake, f->map + (f->map_size - f->stack_size),
					       f->stack_size);
		swapcontext(&f->caller, &f->ctx);
		__sanitizer_finish_switch_fiber(fake, NULL, NULL);
	} else {
		/* A fiber that has ended leaves no fake stack to come back to. */
		__sanitizer_start_switch_fiber(f->done ? NULL : &f->fake,
					       f->caller_bottom, f->caller_size);
		swapcontext(&f->ctx, &f->caller);
		__sanitizer_finish_switch_fiber(f->fake, &f->caller_bottom,
						&f->caller_size);
	}
#else
	if (in)
		swapcontext(&f->caller, &f->ctx);
	else
		swapcontext(&f->ctx, &f->caller);
#endif
}

/* makecontext passes ints: the fiber's address in two halves. */
static void entry(unsigned hi, unsigned lo)
{
	struct cursor_fiber *f =
		(struct cursor_fiber *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);
#ifdef FIBER_ASAN
	__sanitizer_finish_switch_fiber(NULL, &f->caller_bottom, &f->caller_size);
#endif
	f->fn(f->arg);
	f->done = true;
	switch_to(f, false);
	/* Never resumed once done (cursor_fiber_resume says so). */
	abort();
}

int cursor_fiber_new(void (*fn)(void *arg), void *arg, struct cursor_fiber **out)
{
	*out = NULL;
	struct cursor_fiber *f = calloc(1, sizeof(*f));
	if (!f)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a cursor");
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;
	f->stack_size = (stack_size() + pg - 1) / pg * pg;
	f->map_size = f->stack_size + pg;
	f->map = mmap(NULL, f->map_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (f->map == MAP_FAILED) {
		int e = errno;
		size_t kib = f->stack_size >> 10;
		free(f);
		return hwt_error(HWT_ERR_NOMEM, "no memory for a cursor's decode "
				 "stack of %zu KiB: %s", kib, strerror(e));
	}
	/* Stacks grow down on every target of the library: the guard page
	 * is the lowest. */
	if (mprotect(f->map, pg, PROT_NONE)) {
		int e = errno;
		munmap(f->map, f->map_size);
		free(f);
		return hwt_error(HWT_ERR_NOMEM, "no guard page for a cursor's "
				 "decode stack: %s", strerror(e));
	}
	if (getcontext(&f->ctx)) {
		munmap(f->map, f->map_size);
		free(f);
		return hwt_error(HWT_ERR_NOSUP, "getcontext failed for a cursor");
	}
	f->ctx.uc_stack.ss_sp = f->map + pg;
	f->ctx.uc_stack.ss_size = f->stack_size;
	f->ctx.uc_link = NULL;
	f->fn = fn;
	f->arg = arg;
	uintptr_t p = (uintptr_t)f;
	makecontext(&f->ctx, (void (*)(void))entry, 2, (unsigned)(p >> 16 >> 16),
		    (unsigned)(p & 0xffffffffu));
	*out = f;
	return 0;
}

bool cursor_fiber_resume(struct cursor_fiber *f)
{
	if (!f->done)
		switch_to(f, true);
	return f->done;
}

void cursor_fiber_yield(struct cursor_fiber *f)
{
	switch_to(f, false);
}

void cursor_fiber_free(struct cursor_fiber *f)
{
	if (!f)
		return;
#ifdef FIBER_ASAN
	/* The frames the fiber left when it switched away for the last
	 * time are still poisoned: a later mapping at these addresses must
	 * not inherit them. */
	ASAN_UNPOISON_MEMORY_REGION(f->map + (f->map_size - f->stack_size),
				    f->stack_size);
#endif
	munmap(f->map, f->map_size);
	free(f);
}

#else /* !CURSOR_FIBER */

int cursor_fiber_new(void (*fn)(void *arg), void *arg, struct cursor_fiber **out)
{
	(void)fn;
	(void)arg;
	*out = NULL;
	return hwt_error(HWT_ERR_NOSUP, "no coroutines in this build");
}

bool cursor_fiber_resume(struct cursor_fiber *f)
{
	(void)f;
	return true;
}

void cursor_fiber_yield(struct cursor_fiber *f)
{
	(void)f;
}

void cursor_fiber_free(struct cursor_fiber *f)
{
	(void)f;
}

#endif
