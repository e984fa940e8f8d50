/* A recording's closing lines (hwtrace record prints them), per CPU or
 * thread: bytes captured, losses and why, wakeups, and on the kernel
 * emulator what its trace units produced and dropped and their address
 * filters. One printer, so that every recording says it the same way. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/emulator.h"
#include "hwtrace/session.h"

void hwt_record_print_capture_stats(FILE *out, const char *prefix,
				    const struct hwt_capture_stats *rings, size_t n,
				    const struct hwt_emu_stats *const *trace,
				    const char *const *filters)
{
	fprintf(out, "%s: per %s:\n", prefix,
		n && rings[0].cpu < 0 ? "thread" : "CPU");
	for (size_t i = 0; i < n; i++) {
		const struct hwt_capture_stats *st = &rings[i];
		if (st->cpu >= 0)
			fprintf(out, "  cpu %d:", st->cpu);
		else
			fprintf(out, "  thread:");
		fprintf(out, " %" PRIu64 " bytes captured in %" PRIu64
			" chunks, %" PRIu64 " wakeups", st->aux_bytes, st->aux_chunks,
			st->wakeups);
		if (st->snapshots)
			fprintf(out, ", %" PRIu64 " snapshots (%" PRIu64 " wrapped)",
				st->snapshots, st->snapshot_wraps);
		fprintf(out, "\n    lost: %" PRIu64 " truncated (buffer full, "
			"%" PRIu64 " re-enabled), %" PRIu64 " collisions, %" PRIu64
			" partial, %" PRIu64 " records in %" PRIu64 " LOST events",
			st->truncated, st->reenables, st->collision, st->partial,
			st->lost_records, st->lost_events);
		if (trace && trace[i] && st->snapshots) {
			/* Snapshot mode overwrites by design: what the
			 * snapshots kept is the result, the rest was
			 * overwritten in the buffer, not lost. */
			uint64_t written = trace[i]->written;
			uint64_t kept = st->aux_bytes < written ? st->aux_bytes
								  : written;
			fprintf(out, "; of %" PRIu64 " trace bytes produced, %"
				PRIu64 " kept by the snapshots, %" PRIu64
				" overwritten before one, %" PRIu64 " dropped",
				trace[i]->produced, kept, written - kept,
				trace[i]->dropped);
		} else if (trace && trace[i]) {
			fprintf(out, ", %" PRIu64 " trace bytes dropped (of %" PRIu64
				" produced)", trace[i]->dropped, trace[i]->produced);
		}
		if (st->unmatched)
			fprintf(out, ", %" PRIu64 " AUX records unmatched",
				st->unmatched);
		fprintf(out, "\n");
		if (trace && trace[i] && trace[i]->capture_writes)
			/* The truncated count above holds both: the losses
			 * the capture replays and those of the replay. */
			fprintf(out, "    replay of %" PRIu64 " AUX records: the "
				"capture's losses %" PRIu64 " truncated, %" PRIu64
				" collisions, %" PRIu64 " partial; the replay's %"
				PRIu64 " truncated, %" PRIu64 " disabled with no "
				"room, %" PRIu64 " barrier packets inserted\n",
				trace[i]->capture_writes,
				trace[i]->capture_truncated,
				trace[i]->capture_collision,
				trace[i]->capture_partial, trace[i]->truncations,
				trace[i]->full_disables, trace[i]->barriers);
		if (filters && filters[i] && filters[i][0])
			fprintf(out, "    emulated kernel's address filters: %s\n",
				filters[i]);
	}
}

int hwt_record_print_session_stats(FILE *out, const char *prefix,
				   struct hwt_session *s, struct hwt_emu *emu)
{
	int ret = 0;
	size_t n = hwt_session_nr_rings(s), got = 0;
	struct hwt_capture_stats *rings = calloc(n ? n : 1, sizeof(*rings));
	struct hwt_emu_stats *trace = calloc(n ? n : 1, sizeof(*trace));
	char (*filter)[4096] = calloc(n ? n : 1, sizeof(*filter));
	const char **filters = calloc(n ? n : 1, sizeof(*filters));
	const struct hwt_emu_stats **traced = calloc(n ? n : 1, sizeof(*traced));

	if (!rings || !trace || !filter || !filters || !traced) {
		ret = hwt_error(HWT_ERR_NOMEM, "the rings' statistics");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (hwt_session_stats(s, i, &rings[got]) < 0)
			continue;
		if (emu && hwt_emu_stream_stats(emu, rings[got].cpu,
						&trace[got]) == 0)
			traced[got] = &trace[got];
		if (emu && hwt_emu_event_filter(emu, rings[got].cpu, filter[got],
						sizeof(filter[got])) == 0)
			filters[got] = filter[got];
		got++;
	}
	hwt_record_print_capture_stats(out, prefix, rings, got, traced, filters);
out:
	free(traced);
	free(rings);
	free(trace);
	free(filter);
	free(filters);
	return ret;
}

void hwt_record_print_trigger_stats(FILE *out, const char *prefix,
				    const char *trigger,
				    const struct hwt_recorder_trigger_stats *ts)
{
	fprintf(out, "%s: trigger %s: %" PRIu64 " entries, %" PRIu64 " calls "
		"returned, %" PRIu64 " fired, in %" PRIu64 " windows\n", prefix,
		trigger, ts->entries, ts->calls, ts->fired, ts->windows);
}

void hwt_record_print_compression(FILE *out, const char *prefix, bool aux,
				  uint64_t in, uint64_t compressed)
{
	/* No output at all (nothing written) is a ratio of 0, not a
	 * division by zero. */
	fprintf(out, "%s: compressed %" PRIu64 " bytes of %s to %" PRIu64
		" (ratio %.3f)\n", prefix, in, aux ? "records and trace" : "records",
		compressed, compressed ? (double)in / (double)compressed : 0.0);
}
