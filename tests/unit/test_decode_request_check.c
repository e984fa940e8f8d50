/* hwt_decode_request_check (hwtrace/decode_request.h): which listings,
 * -F fields and filters one decode request puts together. The positive
 * controls: every listing a perf.data capture takes on its own, -F with
 * the filters, --edges --partial --unit, --raw with --map. Each refusal is
 * HWT_ERR_CONFIG with the usage error `hwtrace decode` prints (the
 * options as docs/cli.md names them); when two mistakes meet, the first
 * of the command's order is named. */
#include "harness.h"
#include "hwtrace/decode_request.h"
#include "hwtrace/error.h"
#include "hwtrace/script.h"

static const char *msg_maps = "--map and --elf are for --raw input";
static const char *msg_calls_input = "--calls is for perf.data captures";
static const char *msg_script = "-F lists branches as perf script does: it "
	"goes with none of --packets, --branch-profile, --calls, --edges, "
	"--disasm and --format jsonl (jsonl has every field)";
static const char *msg_filters = "--comm, --dso and --sym filter the "
	"elements of a perf.data capture: not with --packets, "
	"--branch-profile, --calls or --edges";
static const char *msg_no_symbols = "--dso and --sym need symbols: not with "
	"--no-symbols";
static const char *msg_calls = "--calls goes with neither --packets nor "
	"--branch-profile";
static const char *msg_packets = "--packets lists packets, --disasm decoded "
	"instructions: give one of them";
static const char *msg_edges = "--edges goes with none of --packets, "
	"--branch-profile, --calls and --disasm";
static const char *msg_partial = "--partial goes with --edges or "
	"--branch-profile, and with none of --packets, --edges-bitmap and "
	"--format jsonl";
static const char *msg_unit = "--unit goes with --edges --partial or "
	"--branch-profile --partial on a perf.data capture";

static struct hwt_decode_request on_file(void)
{
	return (struct hwt_decode_request){
		.size = sizeof(struct hwt_decode_request),
		.input = HWT_CAPTURE_PERF_DATA, .maps = false, .packets = false,
		.profile = false, .calls = false, .edges = false,
		.edges_bitmap = 0, .partial = false, .unit = 0, .disasm = false,
		.jsonl = false, .no_symbols = false, .script_fields = 0,
		.comms = NULL, .dsos = NULL, .syms = NULL, .per_cpu = false,
	};
}

static void refused(const struct hwt_decode_request *rq, const char *msg)
{
	CHECK_INT(hwt_decode_request_check(rq), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), msg);
}

static void passes(const struct hwt_decode_request *rq)
{
	CHECK_INT(hwt_decode_request_check(rq), 0);
}

static void whole_requests_pass(void)
{
	struct hwt_decode_request rq = on_file();
	passes(&rq);
	rq.packets = true;
	passes(&rq);
	rq = on_file();
	rq.profile = true;
	passes(&rq);
	rq = on_file();
	rq.calls = true;
	rq.jsonl = true;
	passes(&rq);
	rq = on_file();
	rq.disasm = true;
	rq.no_symbols = true;
	passes(&rq);

	uint32_t fields = 0;
	CHECK_INT(hwt_script_fields_parse("comm,tid,ip,sym", &fields), 0);
	CHECK(fields != 0);
	rq = on_file();
	rq.script_fields = fields;
	rq.comms = "ls";
	rq.dsos = "libc.so.6";
	rq.syms = "main";
	passes(&rq);
	/* --comm needs no symbols: only --dso and --sym do. */
	rq.dsos = rq.syms = NULL;
	rq.no_symbols = true;
	passes(&rq);

	rq = on_file();
	rq.edges = true;
	rq.partial = true;
	rq.unit = 3;
	passes(&rq);
	rq = on_file();
	rq.edges_bitmap = 65536;
	rq.jsonl = true;
	passes(&rq);

	rq = on_file();
	rq.input = HWT_CAPTURE_RAW;
	rq.maps = true;
	rq.disasm = true;
	passes(&rq);
	rq.input = HWT_CAPTURE_SNAPSHOT_DIR;
	rq.maps = false;
	rq.packets = true;
	rq.disasm = false;
	passes(&rq);
}

static void incomplete_requests_refused(void)
{
	const char *msg = "hwt_decode_request: NULL or size not set";
	CHECK_INT(hwt_decode_request_check(NULL), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
	struct hwt_decode_request rq = on_file();
	rq.size = sizeof(rq) - 1;
	CHECK_INT(hwt_decode_request_check(&rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
}

static void inputs_refused(void)
{
	struct hwt_decode_request rq = on_file();
	rq.maps = true;
	refused(&rq, msg_maps);
	rq.input = HWT_CAPTURE_SNAPSHOT_DIR;
	refused(&rq, msg_maps);

	rq = on_file();
	rq.input = HWT_CAPTURE_RAW;
	rq.calls = true;
	refused(&rq, msg_calls_input);
	rq.input = HWT_CAPTURE_SNAPSHOT_DIR;
	refused(&rq, msg_calls_input);

	/* A filter of names on a stream without threads nor binaries. */
	rq = on_file();
	rq.input = HWT_CAPTURE_RAW;
	rq.comms = "";
	refused(&rq, msg_filters);

	rq = on_file();
	rq.input = HWT_CAPTURE_RAW;
	rq.edges = true;
	rq.partial = true;
	rq.unit = 1;
	refused(&rq, msg_unit);
}

static void script_and_filters_refused(void)
{
	struct hwt_decode_request rq = on_file();
	rq.script_fields = HWT_SCRIPT_IP;
	rq.jsonl = true;
	refused(&rq, msg_script);
	rq.jsonl = false;
	rq.edges_bitmap = 4096;
	refused(&rq, msg_script);
	rq.edges_bitmap = 0;
	rq.disasm = true;
	refused(&rq, msg_script);

	rq = on_file();
	rq.syms = "main";
	rq.profile = true;
	refused(&rq, msg_filters);
	rq.profile = false;
	rq.edges = true;
	refused(&rq, msg_filters);
	rq.edges = false;
	rq.no_symbols = true;
	refused(&rq, msg_no_symbols);
	rq.syms = NULL;
	rq.dsos = "ld.so";
	refused(&rq, msg_no_symbols);
}

static void listings_refused(void)
{
	struct hwt_decode_request rq = on_file();
	rq.calls = true;
	rq.profile = true;
	refused(&rq, msg_calls);
	rq = on_file();
	rq.packets = true;
	rq.disasm = true;
	refused(&rq, msg_packets);
	rq = on_file();
	rq.edges_bitmap = 1024;
	rq.profile = true;
	refused(&rq, msg_edges);
	rq = on_file();
	rq.partial = true;
	refused(&rq, msg_partial);
	rq.edges = true;
	rq.jsonl = true;
	refused(&rq, msg_partial);
	rq.jsonl = false;
	rq.edges_bitmap = 1024;
	refused(&rq, msg_partial);
	rq = on_file();
	rq.unit = 2;
	refused(&rq, msg_unit);
	/* The branch profile's partial, of a unit too; not as jsonl, nor
	 * with --packets, which replaces the profile. */
	rq = on_file();
	rq.profile = rq.partial = true;
	passes(&rq);
	rq.unit = 3;
	passes(&rq);
	rq.jsonl = true;
	refused(&rq, msg_partial);
	rq.jsonl = false;
	rq.packets = true;
	refused(&rq, msg_partial);
	rq = on_file();
	rq.profile = true;
	rq.unit = 1;
	refused(&rq, msg_unit);
}

/* Every mistake at once: each one taken away in turn shows the next in
 * the command's order. */
static void first_mistake_named(void)
{
	struct hwt_decode_request rq = on_file();
	rq.input = HWT_CAPTURE_SNAPSHOT_DIR;
	rq.maps = true;
	rq.calls = true;
	rq.packets = true;
	rq.profile = true;
	rq.disasm = true;
	rq.script_fields = HWT_SCRIPT_IP;
	rq.syms = "main";
	rq.no_symbols = true;
	rq.partial = true;
	rq.unit = 1;
	refused(&rq, msg_maps);
	rq.maps = false;
	refused(&rq, msg_calls_input);
	rq.input = HWT_CAPTURE_PERF_DATA;
	refused(&rq, msg_script);
	rq.script_fields = 0;
	refused(&rq, msg_filters);
	rq.packets = rq.profile = rq.calls = false;
	refused(&rq, msg_no_symbols);
	rq.syms = NULL;
	rq.calls = rq.profile = true;
	refused(&rq, msg_calls);
	rq.calls = rq.profile = false;
	rq.packets = true;
	refused(&rq, msg_packets);
	rq.packets = false;
	rq.edges = true;
	refused(&rq, msg_edges);
	rq.disasm = false;
	rq.jsonl = true;
	refused(&rq, msg_partial);
	rq.jsonl = false;
	passes(&rq);
	rq.input = HWT_CAPTURE_RAW;
	refused(&rq, msg_unit);
}

/* The jsonl header's listing name, in the order the command picks its
 * run; the control is a request of elements. */
static void listing_named(void)
{
	struct hwt_decode_request rq = on_file();
	CHECK_STR(hwt_decode_request_listing(&rq), "elements");
	CHECK_STR(hwt_decode_request_listing(NULL), "elements");
	rq.calls = true;
	CHECK_STR(hwt_decode_request_listing(&rq), "calls");
	rq.profile = true;
	CHECK_STR(hwt_decode_request_listing(&rq), "branch_profile");
	rq.packets = true;
	CHECK_STR(hwt_decode_request_listing(&rq), "packets");
	rq.edges = true;
	CHECK_STR(hwt_decode_request_listing(&rq), "edges");
	/* --edges-bitmap alone lists edges too. */
	rq = on_file();
	rq.edges_bitmap = 65536;
	CHECK_STR(hwt_decode_request_listing(&rq), "edges");
	/* --packets --branch-profile passes the check and lists packets. */
	rq = on_file();
	rq.packets = rq.profile = true;
	passes(&rq);
	CHECK_STR(hwt_decode_request_listing(&rq), "packets");
	/* -F, the filters and --disasm change no listing. */
	rq = on_file();
	rq.script_fields = HWT_SCRIPT_IP;
	rq.comms = "a";
	rq.disasm = true;
	CHECK_STR(hwt_decode_request_listing(&rq), "elements");
}

/* The printer alone: none of -F, --comm, --dso, --sym; an empty filter
 * list is a filter given. */
static void printer_alone_without_script_or_filters(void)
{
	struct hwt_decode_request rq = on_file();
	CHECK(hwt_decode_request_printer_alone(&rq));
	rq.packets = rq.disasm = rq.jsonl = true;
	CHECK(hwt_decode_request_printer_alone(&rq));
	CHECK(!hwt_decode_request_printer_alone(NULL));
	rq = on_file();
	rq.script_fields = HWT_SCRIPT_IP;
	CHECK(!hwt_decode_request_printer_alone(&rq));
	rq = on_file();
	rq.comms = "";
	CHECK(!hwt_decode_request_printer_alone(&rq));
	rq = on_file();
	rq.dsos = "libc.so.6";
	CHECK(!hwt_decode_request_printer_alone(&rq));
	rq = on_file();
	rq.syms = "main";
	CHECK(!hwt_decode_request_printer_alone(&rq));
}

/* The time-ordered merge: a perf.data capture's elements, -F lines and
 * filtered elements (and --disasm, jsonl); not raw streams, snapshots,
 * --per-cpu, nor the listings made per stream. */
static void time_merged_for_elements_of_a_file(void)
{
	struct hwt_decode_request rq = on_file();
	CHECK(hwt_decode_request_time_merged(&rq));
	rq.script_fields = HWT_SCRIPT_IP;
	rq.syms = "main";
	CHECK(hwt_decode_request_time_merged(&rq));
	rq = on_file();
	rq.disasm = rq.jsonl = true;
	CHECK(hwt_decode_request_time_merged(&rq));
	CHECK(!hwt_decode_request_time_merged(NULL));
	const struct { bool *field; } off[] = {
		{&rq.per_cpu}, {&rq.packets}, {&rq.profile}, {&rq.calls},
		{&rq.edges},
	};
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		rq = on_file();
		*off[i].field = true;
		CHECK(!hwt_decode_request_time_merged(&rq));
	}
	rq = on_file();
	rq.edges_bitmap = 4096;
	CHECK(!hwt_decode_request_time_merged(&rq));
	rq = on_file();
	rq.input = HWT_CAPTURE_RAW;
	CHECK(!hwt_decode_request_time_merged(&rq));
	rq.input = HWT_CAPTURE_SNAPSHOT_DIR;
	CHECK(!hwt_decode_request_time_merged(&rq));
}

int main(void)
{
	RUN(whole_requests_pass);
	RUN(incomplete_requests_refused);
	RUN(inputs_refused);
	RUN(script_and_filters_refused);
	RUN(listings_refused);
	RUN(first_mistake_named);
	RUN(listing_named);
	RUN(printer_alone_without_script_or_filters);
	RUN(time_merged_for_elements_of_a_file);
	return hwt_test_summary();
}
