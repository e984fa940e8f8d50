/* The check of what a decode request puts together
 * (hwtrace/decode_request.h). The first refusal wins, in the order the
 * command has always checked, so a command line with two mistakes is
 * told about the same one it was before. */
#include "hwtrace/decode_request.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"

/* -F and the filters work on the element stream of one decode: every
 * other listing replaces that stream (or, for jsonl, has every field). */
static int check_script_and_filters(const struct hwt_decode_request *r,
				    bool edges)
{
	if (r->script_fields &&
	    (r->packets || r->profile || r->calls || edges || r->disasm ||
	     r->jsonl))
		return hwt_error(HWT_ERR_CONFIG, "-F lists branches as perf "
				 "script does: it goes with none of --packets, "
				 "--branch-profile, --calls, --edges, --disasm "
				 "and --format jsonl (jsonl has every field)");
	bool filtered = r->comms || r->dsos || r->syms;
	/* Raw streams and snapshots have no threads nor binaries by name. */
	if (filtered && (r->packets || r->profile || r->calls || edges ||
			 r->input != HWT_CAPTURE_PERF_DATA))
		return hwt_error(HWT_ERR_CONFIG, "--comm, --dso and --sym filter "
				 "the elements of a perf.data capture: not with "
				 "--packets, --branch-profile, --calls or --edges");
	return hwt_filter_symbols_check(r->no_symbols, r->dsos, r->syms);
}

/* The listings other than elements, among themselves. */
static int check_listings(const struct hwt_decode_request *r, bool edges)
{
	if (r->calls && (r->packets || r->profile))
		return hwt_error(HWT_ERR_CONFIG, "--calls goes with neither "
				 "--packets nor --branch-profile");
	if (r->packets && r->disasm)
		return hwt_error(HWT_ERR_CONFIG, "--packets lists packets, "
				 "--disasm decoded instructions: give one of "
				 "them");
	if (edges && (r->packets || r->profile || r->calls || r->disasm))
		return hwt_error(HWT_ERR_CONFIG, "--edges goes with none of "
				 "--packets, --branch-profile, --calls and "
				 "--disasm");
	/* A partial is of the edges or of the branch profile, which
	 * --packets would replace. */
	if (r->partial && (!(edges || r->profile) || r->packets ||
			   r->edges_bitmap || r->jsonl))
		return hwt_error(HWT_ERR_CONFIG, "--partial goes with --edges or "
				 "--branch-profile, and with none of --packets, "
				 "--edges-bitmap and --format jsonl");
	if (r->unit && (!r->partial || r->input != HWT_CAPTURE_PERF_DATA))
		return hwt_error(HWT_ERR_CONFIG, "--unit goes with --edges "
				 "--partial or --branch-profile --partial on a "
				 "perf.data capture");
	return 0;
}

int hwt_decode_request_check(const struct hwt_decode_request *r)
{
	if (!r || r->size < sizeof(*r))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_request: NULL or "
				 "size not set");
	if (r->maps && r->input != HWT_CAPTURE_RAW)
		return hwt_error(HWT_ERR_CONFIG, "--map and --elf are for --raw "
				 "input");
	if (r->calls && r->input != HWT_CAPTURE_PERF_DATA)
		return hwt_error(HWT_ERR_CONFIG, "--calls is for perf.data "
				 "captures");
	/* An edge bitmap is a way of listing edges. */
	bool edges = r->edges || r->edges_bitmap;
	int err = check_script_and_filters(r, edges);
	return err ? err : check_listings(r, edges);
}

const char *hwt_decode_request_listing(const struct hwt_decode_request *r)
{
	if (!r)
		return "elements";
	/* In the order the command picks the run: --packets with
	 * --branch-profile (which the check lets through) lists packets. */
	if (r->edges || r->edges_bitmap)
		return "edges";
	if (r->packets)
		return "packets";
	if (r->profile)
		return "branch_profile";
	return r->calls ? "calls" : "elements";
}

bool hwt_decode_request_printer_alone(const struct hwt_decode_request *r)
{
	return r && !r->script_fields && !r->comms && !r->dsos && !r->syms;
}

bool hwt_decode_request_time_merged(const struct hwt_decode_request *r)
{
	return r && r->input == HWT_CAPTURE_PERF_DATA && !r->per_cpu &&
	       !r->packets && !r->profile && !r->calls && !r->edges &&
	       !r->edges_bitmap;
}
