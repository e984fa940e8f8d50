/* Memory ordering between hwtrace and the kernel (or the kernel emulator)
 * over the shared perf ring buffers. Every access to a head or a tail goes
 * through these helpers so each one names the other side it pairs with. */
#ifndef HWT_CORE_BARRIER_H
#define HWT_CORE_BARRIER_H

#include <linux/types.h>

/* Reader side of a head (data_head, aux_head). Pairs with the kernel's
 * smp_wmb() before it publishes the head in perf_output_put_handle() (data
 * ring) and perf_aux_output_end() (AUX ring): after this load, every record
 * or trace byte below the head is visible. */
static inline __u64 hwt_head_load(const __u64 *head)
{
	return __atomic_load_n(head, __ATOMIC_ACQUIRE);
}

/* Reader side of a tail (data_tail, aux_tail). Orders our reads of the
 * consumed bytes before the kernel may overwrite them. Pairs with the
 * smp_mb() after the kernel's READ_ONCE(tail) in perf_output_begin() and
 * perf_aux_output_begin(). */
static inline void hwt_tail_store(__u64 *tail, __u64 value)
{
	__atomic_store_n(tail, value, __ATOMIC_RELEASE);
}

/* Producer side, used by the kernel emulator where it plays the kernel. */

/* The kernel's READ_ONCE(tail) followed by smp_mb() in perf_output_begin()
 * and perf_aux_output_begin(): no byte is written before the tail that
 * allows it is seen. Pairs with hwt_tail_store. */
static inline __u64 hwt_tail_load(const __u64 *tail)
{
	return __atomic_load_n(tail, __ATOMIC_ACQUIRE);
}

/* The kernel's smp_wmb(); WRITE_ONCE(head) in perf_output_put_handle() and
 * perf_aux_output_end(): the bytes are visible before the head that covers
 * them. Pairs with hwt_head_load. */
static inline void hwt_head_store(__u64 *head, __u64 value)
{
	__atomic_store_n(head, value, __ATOMIC_RELEASE);
}

/* Plain shared counters (statistics, flags) read by another thread. */
static inline __u64 hwt_relaxed_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void hwt_relaxed_store(__u64 *p, __u64 value)
{
	__atomic_store_n(p, value, __ATOMIC_RELAXED);
}

#endif
