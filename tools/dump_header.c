/* hwtrace dump, first part: the file header, each event attribute and the
 * feature sections. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dump_header.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

static void print_attr(size_t i, const struct hwt_pd_attr *a)
{
	const struct perf_event_attr *e = &a->attr;

	printf("# event %zu: %s\n", i, a->name ? a->name : "(no name)");
	printf("#   type %u, size %u, config 0x%llx, config1 0x%llx, "
	       "config2 0x%llx\n", e->type, e->size,
	       (unsigned long long)e->config, (unsigned long long)e->config1,
	       (unsigned long long)e->config2);
	printf("#   sample_type 0x%llx, read_format 0x%llx, sample_period %llu"
	       "%s\n", (unsigned long long)e->sample_type,
	       (unsigned long long)e->read_format,
	       (unsigned long long)e->sample_period, e->freq ? " (freq)" : "");
	printf("#   flags:%s%s%s%s%s%s%s%s%s%s%s\n",
	       e->disabled ? " disabled" : "", e->inherit ? " inherit" : "",
	       e->exclude_kernel ? " exclude_kernel" : "",
	       e->exclude_user ? " exclude_user" : "",
	       e->exclude_hv ? " exclude_hv" : "", e->mmap ? " mmap" : "",
	       e->comm ? " comm" : "", e->task ? " task" : "",
	       e->sample_id_all ? " sample_id_all" : "",
	       e->context_switch ? " context_switch" : "",
	       e->enable_on_exec ? " enable_on_exec" : "");
	if (e->aux_watermark || e->aux_sample_size)
		printf("#   aux_watermark %u, aux_sample_size %u\n",
		       e->aux_watermark, e->aux_sample_size);
	printf("#   ids (%zu):", a->nids);
	for (size_t j = 0; j < a->nids && j < 64; j++)
		printf(" %" PRIu64, a->ids[j]);
	printf("%s\n", a->nids > 64 ? " ..." : "");
}

static void print_features(const struct hwt_pd_reader *r)
{
	for (unsigned int bit = 0; bit < 256; bit++) {
		const char *name = hwt_pd_feature_name(bit);
		const void *data;
		uint64_t size, offset;
		char buf[4096], safe[8192];

		if (!hwt_pd_reader_has_feature(r, bit))
			continue;
		if (hwt_pd_reader_feature_raw(r, bit, &offset, &data, &size)) {
			printf("# feature %u (%s): missing from the file\n", bit,
			       name ? name : "unknown");
			continue;
		}
		printf("# feature %u (%s) at 0x%" PRIx64 ", %" PRIu64 " bytes",
		       bit, name ? name : "unknown", offset, size);
		switch (bit) {
		case HWT_PD_FEAT_HOSTNAME:
		case HWT_PD_FEAT_OSRELEASE:
		case HWT_PD_FEAT_VERSION:
		case HWT_PD_FEAT_ARCH:
		case HWT_PD_FEAT_CPUDESC:
		case HWT_PD_FEAT_CPUID:
			if (!hwt_pd_reader_feature_string(r, bit, buf, sizeof(buf)))
				printf(": %s", cli_safe(buf, safe, sizeof(safe)));
			else
				printf(": (malformed)");
			break;
		case HWT_PD_FEAT_NRCPUS: {
			uint32_t avail, online;

			if (!hwt_pd_reader_nr_cpus(r, &avail, &online))
				printf(": %u available, %u online", avail, online);
			break;
		}
		case HWT_PD_FEAT_CMDLINE:
			if (!hwt_pd_reader_cmdline(r, buf, sizeof(buf)))
				printf(": %s", cli_safe(buf, safe, sizeof(safe)));
			else
				printf(": (malformed)");
			break;
		case HWT_PD_FEAT_AUXTRACE: {
			uint64_t entries;
			if (!hwt_pd_reader_auxtrace_index_count(r, &entries))
				printf(": %" PRIu64 " index entries", entries);
			else
				hwt_error_clear();
			break;
		}
		}
		putchar('\n');
		if (bit == 129) {
			/* simpleperf's meta info: its key, value pairs. */
			const char *key, *value;
			for (size_t i = 0; hwt_pd_reader_meta_info(r, i, &key, &value);
			     i++) {
				printf("#   %s", cli_safe(key, safe, sizeof(safe)));
				printf(" = %s\n", cli_safe(value, safe, sizeof(safe)));
			}
		}
		if (bit == HWT_PD_FEAT_BUILD_ID) {
			struct hwt_pd_build_id b;
			int n;

			for (size_t i = 0; (n = hwt_pd_reader_build_id(r, i, &b)) > 0;
			     i++) {
				printf("#   ");
				for (int k = 0; k < b.size; k++)
					printf("%02x", b.id[k]);
				printf(" pid %d %s\n", b.pid,
				       cli_safe(b.filename, safe, sizeof(safe)));
			}
			if (n < 0)
				printf("#   (%s)\n", hwt_errmsg());
		}
	}
}

void dump_print_events(const struct hwt_pd_reader *r)
{
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++)
		print_attr(i, hwt_pd_reader_attr(r, i));
	print_features(r);
}

void dump_print_header(const struct hwt_pd_reader *r)
{
	const struct hwt_pd_file_header *h = hwt_pd_reader_header(r);
	const char *warning = hwt_pd_reader_warning(r);

	printf("# file %s: perf.data, %s%s\n", hwt_pd_reader_path(r),
	       hwt_pd_reader_is_pipe(r) ? "pipe mode" : "file mode",
	       hwt_pd_reader_is_simpleperf(r) ? ", written by simpleperf" : "");
	if (!hwt_pd_reader_is_pipe(r)) {
		printf("# header size %" PRIu64 ", attribute size %" PRIu64 "\n",
		       h->size, h->attr_size);
		printf("# attributes at 0x%" PRIx64 ", %" PRIu64 " bytes\n",
		       h->attrs_offset, h->attrs_size);
		printf("# data at 0x%" PRIx64 ", %" PRIu64 " bytes\n",
		       h->data_offset, h->data_size);
		printf("# feature bits %016" PRIx64 " %016" PRIx64 " %016" PRIx64
		       " %016" PRIx64 "\n", h->features[0], h->features[1],
		       h->features[2], h->features[3]);
	}
	if (warning)
		printf("# warning: %s\n", warning);
	dump_print_events(r);
}
