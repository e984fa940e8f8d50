/* The kernel emulator's shared state: events, their mappings, the source
 * streams and the producer threads. One lock guards it all; the producer
 * holds it while it writes one burst. */
#ifndef HWT_CORE_EMU_INTERNAL_H
#define HWT_CORE_EMU_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/emulator.h"

enum emu_item_kind { EMU_ITEM_AUX, EMU_ITEM_RECORD };

struct emu_item {
	enum emu_item_kind kind;
	const uint8_t *data;   /* AUX: borrowed; RECORD: owned copy */
	uint64_t len;          /* AUX: bytes per repeat; RECORD: record size */
	uint64_t repeat;
	bool owned;            /* AUX bytes copied by a live push */
	/* AUX: one PERF_RECORD_AUX of a loaded capture, replayed as one
	 * write of @len bytes carrying its @flags (TRUNCATED, PARTIAL,
	 * COLLISION, the PMU's format bits). */
	bool write;
	uint64_t flags;
	uint64_t time;         /* its sample time; 0: none (now) */
};

struct emu_event;

struct emu_stream {
	int cpu;
	/* -1: the stream of @cpu; else (cpu -1) the stream of the
	 * per-thread event opened for this task. */
	int key_tid;
	struct emu_item *items;
	size_t nitems, cap;
	uint64_t id;
	int pid, tid;
	bool id_set, task_set, has_itrace_start;
	/* A live source: more may be pushed while it produces; it ends when
	 * closed (and drained). */
	bool live, closed;
	/* Producer progress. */
	size_t item;
	uint64_t item_off;
	uint64_t src_pos;
	uint64_t src_total;
	struct hwt_emu_stats st;
	struct hwt_emu_segment *segs;
	size_t nsegs, segcap;
	struct emu_event *ev;
};

/* An emulated probe's firing: when the AUX source reaches @pos, @probe's
 * sample (at @ip) is written and its aux_action applied (emu_probe.c). */
struct emu_probe_hit {
	uint64_t pos;
	struct emu_event *probe;
	uint64_t ip;
	uint64_t flags;   /* the BTS flags of the record it follows */
	uint64_t time;    /* when it ran (that record's clock, else its
			     write's); 0: unknown (now) */
	/* A CoreSight pause or resume (emu_cs_cut.c): the formatted
	 * index of the atom packet of its branch, and the atom in it. */
	bool cs_cut;
	uint32_t cs_pkt, cs_atom;
};

struct hwt_emu_cs_cut;

/* The most fields of a branch counter word the emulator fills. */
#define HWT_EMU_BRANCH_MAX_FIELDS 8

struct emu_event {
	int fd;
	struct perf_event_attr attr;
	int cpu, pid;
	bool aux_pmu;
	uint64_t id;
	bool enabled, kernel_disabled, closed;
	/* A CoreSight sink's driver: after a loss its next write starts
	 * with a barrier packet (see emu_producer.c). */
	bool cs_sink;
	bool lost_since_write;
	/* The sample time of the record being written; 0: now. */
	uint64_t record_time;
	struct emu_event *output;
	uint8_t *map;
	size_t map_len;
	struct perf_event_mmap_page *up;
	uint8_t *data;
	uint64_t data_size;
	uint8_t *aux;
	size_t aux_len;
	bool overwrite;
	uint64_t aux_pos;       /* free-running AUX write position */
	uint64_t wakeup_mark;   /* aux_pos at the last wakeup */
	uint64_t watermark;
	uint64_t data_wakeup_mark; /* data_head at the last data-ring wakeup */
	uint64_t lost_pending;
	bool itrace_started;
	/* Rate keeping: bytes produced since rate_t0 (ns). */
	uint64_t rate_t0, rate_base;
	struct emu_stream *stream;
	pthread_t thread;
	bool thread_running, stop;
	struct hwt_emu *emu;
	struct emu_event *next;
	/* AUX sampling: the AUX event's sampling event (in its group), and
	 * the sampling event's leader and next sample position. */
	struct emu_event *sampler;
	struct emu_event *leader;
	uint64_t next_sample;
	/* Branch-stack sampling (emu_branch.c): the ground truth it
	 * samples (NULL: none, it writes nothing), the records a sample
	 * holds at most and the kind of hardware; done once all is written. */
	struct emu_branch_src *br_src;
	unsigned br_depth;
	int br_kind;
	bool br_arch_lbr; /* Intel Arch LBR: no TOS, types always saved */
	/* -j counter: the bits of the event's count in each record's
	 * PERF_SAMPLE_BRANCH_COUNTERS word (caps/branch_counter_width). */
	unsigned br_cntr_width;
	/* The counter word's fields, in group order (emu_branch_group.c):
	 * what each counts of the ground truth's branches, enum
	 * emu_br_count. The leader's own first when it asks for counters. */
	uint8_t br_fields[HWT_EMU_BRANCH_MAX_FIELDS];
	unsigned br_nfields;
	bool br_done;
	/* PERF_EVENT_IOC_SET_FILTER's last string ("" when none). */
	char filter[4096];
	/* AUX pause/resume (emu_probe.c). An AUX event: whether its trace
	 * is BTS records (probes can find calls in it) or Intel PT packets
	 * (its decoder finds them: emu_decoded_calls.c), whether it is
	 * paused, and its probes' hits in source order. A probe event:
	 * @leader is its AUX event; @fired counts its samples. */
	bool bts_format, pt_format, paused;
	/* A cs_etm event with pause/resume probes: its stream ready to
	 * cut, and the bytes of the sink's frames a resume replaced that
	 * the producer is still to skip. */
	struct hwt_emu_cs_cut *cs_cut;
	uint64_t cs_skip;
	/* Such an event's open enable window: the AUX bytes written since
	 * the trace unit last started (a resume, or a write of the capture),
	 * reported as one PERF_RECORD_AUX when it stops (the pause, the end
	 * of that write), as a sink reports it. perf decodes each AUX record
	 * of an ETM capture alone, from its own sync: a window cut in two
	 * records loses its second part there. */
	bool cs_window;
	uint64_t cs_window_off, cs_window_len, cs_window_flags, cs_window_time;
	struct emu_probe_hit *hits;
	size_t nhits, hitcap, next_hit;
	bool probe;
	uint64_t fired;
};

struct emu_pmu {
	char name[64];
	uint32_t type;
	int nr_addr_filters; /* the fixture's; -1: no limit known */
};

struct emu_replay_data;
struct emu_branch_src;

struct hwt_emu {
	struct hwt_os os;
	struct hwt_emu_opts opts;
	struct hwt_os *sysfs;  /* fixture reads; NULL when none */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct emu_event *events;
	struct emu_stream **streams;
	size_t nstreams, streams_cap;
	struct emu_pmu *pmus;
	size_t npmus;
	uint64_t next_id;
	struct emu_replay_data *replay;
	unsigned int aux_alignment; /* hwt_emu_set_aux_alignment */
	bool no_time_conv;          /* hwt_emu_set_time_conv(false) */
	struct emu_branch_src *branch_src; /* hwt_emu_branch_source */
	/* Why the last perf_event_open was refused, when more can be said
	 * than its errno (hwt_emu_refuse); "" when nothing. Under @lock. */
	char refusal[320];
};

/* emu_producer.c */
void *hwt_emu_producer_main(void *arg);
uint64_t hwt_emu_now_ns(void);
/* Writes @len bytes that the trace unit makes itself (not source bytes:
 * a trace-on/off packet) at the AUX head, with their PERF_RECORD_AUX;
 * in full-trace mode nothing when they do not fit. Not counted in the
 * stream's stats. Called with the lock held. */
void hwt_emu_aux_insert(struct emu_event *ev, const void *data, uint64_t len,
			uint64_t time);
/* Reports the open CoreSight enable window of @ev, if any, as its
 * PERF_RECORD_AUX (the trace unit stopped: a pause, a disable). */
void hwt_emu_aux_window_end(struct emu_event *ev);
/* Writes one record into @ev's data ring (LOST first when records were
 * lost before); false when it did not fit (then it is counted lost).
 * Called with the lock held. */
bool hwt_emu_ring_write(struct emu_event *ev, const void *rec, size_t len);
/* Appends the sample_id fields of @ev's attribute to @buf; returns their
 * size. */
size_t hwt_emu_sample_id(const struct emu_event *ev, uint8_t *buf);
void hwt_emu_wake(struct emu_event *ev);

/* emu_kernel.c */
/* Keeps @why (printf-style) as the reason of the perf_event_open being
 * refused, for the session's message (hwt_os_ops.open_refusal), and
 * returns -EOPNOTSUPP. Called with the lock held. */
int hwt_emu_refuse(struct hwt_emu *emu, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for a caller without the lock: takes it to keep @why. */
int hwt_emu_refuse_unlocked(struct hwt_emu *emu, const char *why);
struct emu_stream *hwt_emu_stream_get(struct hwt_emu *emu, int cpu,
				      bool create);
struct emu_stream *hwt_emu_stream_at(struct hwt_emu *emu, int cpu, int tid,
				     bool create);
/* Appends one replayed PERF_RECORD_AUX to the stream of @cpu: @len bytes
 * (borrowed; may be 0) written at once, reported with @flags and, when
 * not 0, the sample @time of the original record. */
int hwt_emu_stream_write(struct hwt_emu *emu, int cpu, const void *data,
			 uint64_t len, uint64_t flags, uint64_t time);

/* emu_sample.c: a sampling event in an AUX event's group whose samples
 * carry the last aux_sample_size bytes the producer wrote. Opens it
 * (returns its fd or -errno); takes the lock itself. */
int hwt_emu_open_sampler(struct hwt_emu *emu, const struct perf_event_attr *attr,
			 int pid, int cpu, int group_fd);
/* How many of @n bytes the producer may write before the next sample
 * is due (at least 1). Called with the lock held. */
uint64_t hwt_emu_sample_clamp(const struct emu_event *ev, uint64_t n);
/* Writes the samples that fell due with @ev's last write. Lock held. */
void hwt_emu_sample_fire(struct emu_event *ev);

/* Writes a PERF_RECORD_SAMPLE of event @s (a sampler or a probe in the
 * group of AUX event @ev) with @period, @ip and @time (0: now): its SET_OUTPUT target's
 * ring, its own, else @ev's. PERF_SAMPLE_AUX carries @ev's newest bytes.
 * Lock held. */
void hwt_emu_write_sample(struct emu_event *ev, struct emu_event *s,
			  uint64_t period, uint64_t ip, uint64_t time);

/* A new event of @attr (copied) for @pid/@cpu with its eventfd, not
 * yet in the list: NULL with *@err -ENOMEM or the eventfd's -errno. */
struct emu_event *hwt_emu_event_new(struct hwt_emu *emu,
				     const struct perf_event_attr *attr,
				     int pid, int cpu, int *err);

/* emu_probe.c: uprobe events in an AUX event's group whose aux_action
 * pauses or resumes it. */
bool hwt_emu_is_probe_type(uint32_t type);
/* Opens one (returns its fd or -errno); takes the lock itself. */
int hwt_emu_open_probe(struct hwt_emu *emu, const struct perf_event_attr *attr,
		       int pid, int cpu, int group_fd);
/* A PERF_RECORD_MMAP/MMAP2 of a stream's sideband: where it maps
 * which file. */
struct emu_mapping {
	uint64_t start, len, pgoff;
	const char *name;
};
/* Whether @it is such a record (filling @m, name borrowed from it). */
bool hwt_emu_item_mapping(const struct emu_item *it, struct emu_mapping *m);
/* Follows calls of FUNC (at @addr) through a stream's taken branches,
 * one at a time: EMU_CALL_ENTRY for a call of it, EMU_CALL_RETURN for
 * the return of the innermost open one (back to just after its call
 * site), else 0. */
#define EMU_CALL_MAX_DEPTH 256u
enum { EMU_CALL_ENTRY = 1, EMU_CALL_RETURN = 2 };
struct emu_call_match {
	uint64_t sites[EMU_CALL_MAX_DEPTH];
	unsigned depth;
};
int hwt_emu_call_match(struct emu_call_match *m, uint64_t addr,
		       uint64_t from, uint64_t to);
/* Adds a hit of @probe at source position @pos to AUX event @leader
 * (0 or -ENOMEM); the caller sorts the hits. */
int hwt_emu_add_hit(struct emu_event *leader, uint64_t pos,
		    struct emu_event *probe, uint64_t ip, uint64_t flags,
		    uint64_t time);
/* emu_decoded_calls.c: the hits of @probe in @leader's stream when its
 * trace is not BTS records: found by the trace's decoder (0, -ENOMEM,
 * -EOPNOTSUPP when there is no decoder or it failed). @capture_name, when
 * not NULL, is the name the capture's mappings give the probe's binary,
 * whose code the decoder then reads from the probe's file. */
int hwt_emu_decoded_hits(struct hwt_emu *emu, struct emu_event *leader,
			 struct emu_event *probe, uint64_t addr, bool at_return,
			 const char *capture_name);
/* emu_packet_list.c: a stream's packets as @ops' packets op lists them
 * (*@out malloc'd; HWT_ERR_NOSUP without the op), and the packet holding
 * byte @at (the last of the @n starting at or before it). */
struct emu_packet {
	uint64_t start;
	bool timing; /* carries only time (TSC, MTC, CYC, ...) */
};
struct hwt_decoder_ops;
struct hwt_decode_params;
int hwt_emu_packet_list(const struct hwt_decoder_ops *ops,
			const struct hwt_decode_params *params,
			const uint8_t *bytes, uint64_t len, int cpu,
			struct emu_packet **out, size_t *n);
size_t hwt_emu_packet_at(const struct emu_packet *p, size_t n, uint64_t at);
/* emu_pt_packets.c: what an Intel PT trace unit writes when aux_pause
 * clears its TraceEn after the trace reached @ip (FUP, TIP.PGD), and
 * when aux_resume sets it again before the thread goes on at @ip (PSB+
 * with the TSC of perf time @time, when known, then TIP.PGE). @info is
 * the capture's AUXTRACE_INFO record (its TSC conversion). Return the
 * bytes written to @buf (at most EMU_PT_MARK_MAX). */
#define EMU_PT_MARK_MAX 64u
size_t hwt_emu_pt_trace_off(uint8_t *buf, uint64_t ip);
size_t hwt_emu_pt_trace_on(uint8_t *buf, uint64_t ip, uint64_t time,
			   const void *info);
/* How many of @n source bytes the producer may take before the next
 * probe hit. Lock held. */
uint64_t hwt_emu_probe_clamp(const struct emu_event *ev, uint64_t n);
/* Fires the hits the source has reached. Lock held. */
void hwt_emu_probe_fire(struct emu_event *ev);

/* emu_branch.c: a sampling event with PERF_SAMPLE_BRANCH_STACK. Opens
 * it (its fd or -errno; takes the lock itself); starts its writer once
 * its data ring is mapped (lock held); frees the source. A member of
 * a group (@group_fd not -1) is hwt_emu_open_brmember's. */
int hwt_emu_open_brsampler(struct hwt_emu *emu,
			   const struct perf_event_attr *attr, int pid, int cpu,
			   int group_fd);
int hwt_emu_brsampler_start(struct emu_event *ev);

/* emu_branch_group.c: what a field of the counter word counts. */
enum emu_br_count {
	EMU_BR_COUNT_TAKEN,      /* every taken branch (branches) */
	EMU_BR_COUNT_COND_TAKEN, /* taken conditional branches */
};

/* A member of a branch sampler's group (@group_fd its leader): its fd or
 * -errno; the lock not held. */
int hwt_emu_open_brmember(struct hwt_emu *emu,
			  const struct perf_event_attr *attr, int pid, int cpu,
			  int group_fd);

/* Whether branch @b counts as @what. */
bool hwt_emu_br_counts(enum emu_br_count what, const struct hwt_emu_branch *b);
void hwt_emu_branch_free(struct emu_branch_src *s);

/* emu_replay.c */
void hwt_emu_replay_free(struct emu_replay_data *replay);

#endif
