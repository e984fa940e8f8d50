// element_counts: decodes a perf.data capture with libhwtrace and prints
// how many elements of each type it holds, one "TYPE COUNT" line each.
#include <cstdio>
#include <map>
#include <string>

#include <hwtrace/decode.h>
#include <hwtrace/element.h>
#include <hwtrace/error.h>
#include <hwtrace/version.h>

static_assert(HWT_VERSION_MAJOR == 0, "built for hwtrace 0.x");

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s FILE [SYMFS]\n", argv[0]);
		return 2;
	}
	std::map<std::string, unsigned long> counts;
	hwt_decode_opts opts = {};
	opts.size = sizeof(opts);
	opts.lookup.size = sizeof(opts.lookup);
	opts.lookup.symfs = argc > 2 ? argv[2] : nullptr;
	// Warnings about the input go to stderr, as hwtrace decode prints
	// them; without this callback they come as error elements.
	opts.warn = [](void *, const char *message) {
		std::fprintf(stderr, "warning: %s\n", message);
	};
	hwt_elem_sink sink = {};
	sink.arg = &counts;
	sink.emit = [](void *arg, const hwt_elem *e) -> int {
		auto *c = static_cast<std::map<std::string, unsigned long> *>(arg);
		(*c)[hwt_elem_type_name(e->type)]++;
		return 0;
	};
	if (hwt_decode_file(argv[1], &opts, &sink) < 0) {
		std::fprintf(stderr, "%s: %s\n", argv[0], hwt_errmsg());
		return 1;
	}
	std::printf("hwtrace %s (headers %s)\n", hwt_version(), HWT_VERSION_STRING);
	for (const auto &kv : counts)
		std::printf("%s %lu\n", kv.first.c_str(), kv.second);
	return 0;
}
