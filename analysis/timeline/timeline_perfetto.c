/* Perfetto's protobuf trace: a Trace message written as a stream of its
 * repeated `packet` field (field 1, length-delimited), one TracePacket at
 * a time, so nothing is held back. All packets are on one sequence; the
 * first clears its incremental state, the track events need it. */
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline/perfetto_trace.pb-c.h"
#include "analysis/timeline/timeline_internal.h"
#include "hwtrace/error.h"

#define SEQUENCE_ID 1
#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQ_NEEDS_INCREMENTAL_STATE 2

/* Track uuids: processes and threads in separate ranges. */
static uint64_t process_uuid(int32_t pid)
{
	return 0x100000000ull + (uint32_t)pid;
}

static uint64_t thread_uuid(int32_t tid)
{
	return 0x200000000ull + (uint32_t)tid;
}

static int write_packet(struct hwt_timeline *tl, Perfetto__Protos__TracePacket *p)
{
	p->has_trusted_packet_sequence_id = true;
	p->trusted_packet_sequence_id = SEQUENCE_ID;
	p->has_sequence_flags = true;
	p->sequence_flags = tl->first_event ? SEQ_INCREMENTAL_STATE_CLEARED
					    : SEQ_NEEDS_INCREMENTAL_STATE;
	tl->first_event = false;
	size_t len = perfetto__protos__trace_packet__get_packed_size(p);
	if (len + 16 > tl->pack_cap) {
		uint8_t *b = realloc(tl->pack, len + 16);
		if (!b)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		tl->pack = b;
		tl->pack_cap = len + 16;
	}
	/* Trace.packet: tag (1 << 3 | length-delimited), varint length. */
	size_t n = 0;
	tl->pack[n++] = 0x0a;
	for (size_t v = len; ; v >>= 7) {
		tl->pack[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		if (v <= 0x7f)
			break;
	}
	perfetto__protos__trace_packet__pack(p, tl->pack + n);
	fwrite(tl->pack, 1, n + len, tl->out);
	return tl_check_io(tl);
}

int tl_perfetto_thread(struct hwt_timeline *tl, const struct tl_thread *t,
		       bool new_process)
{
	int err = 0;
	if (new_process && t->pid >= 0) {
		Perfetto__Protos__ProcessDescriptor pd =
			PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
		pd.has_pid = true;
		pd.pid = t->pid;
		pd.process_name = (char *)tl_process_name(tl, t->pid);
		Perfetto__Protos__TrackDescriptor td =
			PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		td.has_uuid = true;
		td.uuid = process_uuid(t->pid);
		td.process = &pd;
		Perfetto__Protos__TracePacket p =
			PERFETTO__PROTOS__TRACE_PACKET__INIT;
		p.track_descriptor = &td;
		err = write_packet(tl, &p);
	}
	if (err)
		return err;
	Perfetto__Protos__ThreadDescriptor thd =
		PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	thd.has_pid = true;
	thd.pid = t->pid;
	thd.has_tid = true;
	thd.tid = t->tid;
	thd.thread_name = t->name;
	Perfetto__Protos__TrackDescriptor td =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	td.has_uuid = true;
	td.uuid = thread_uuid(t->tid);
	if (t->pid >= 0) {
		td.has_parent_uuid = true;
		td.parent_uuid = process_uuid(t->pid);
	}
	td.thread = &thd;
	Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	p.track_descriptor = &td;
	return write_packet(tl, &p);
}

static int write_event(struct hwt_timeline *tl, const struct tl_thread *t,
		       uint64_t ts, Perfetto__Protos__TrackEvent *ev)
{
	ev->has_track_uuid = true;
	ev->track_uuid = thread_uuid(t->tid);
	Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	p.has_timestamp = true;
	p.timestamp = ts;
	p.track_event = ev;
	return write_packet(tl, &p);
}

int tl_perfetto_slice(struct hwt_timeline *tl, const struct tl_thread *t,
		      bool begin, uint64_t ts, const char *name,
		      const struct hwt_frame *f)
{
	Perfetto__Protos__TrackEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	ev.has_type = true;
	if (begin) {
		ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
		ev.name = (char *)name;
		return write_event(tl, t, ts, &ev);
	}
	/* The end carries what the frame did: its arguments in the UI. */
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	Perfetto__Protos__DebugAnnotation insns =
		PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	insns.name = "insns";
	insns.has_uint_value = true;
	insns.uint_value = f->insns_total;
	Perfetto__Protos__DebugAnnotation end =
		PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	end.name = "end";
	end.string_value = (char *)hwt_frame_end_name(f->end);
	Perfetto__Protos__DebugAnnotation *args[] = {&insns, &end};
	ev.n_debug_annotations = 2;
	ev.debug_annotations = args;
	return write_event(tl, t, ts, &ev);
}

int tl_perfetto_instant(struct hwt_timeline *tl, const struct tl_thread *t,
			uint64_t ts, const char *name)
{
	Perfetto__Protos__TrackEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	ev.has_type = true;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	ev.name = (char *)name;
	return write_event(tl, t, ts, &ev);
}
