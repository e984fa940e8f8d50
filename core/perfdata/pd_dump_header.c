/* `hwtrace dump`, the parts of a perf.data file that are not records
 * (hwtrace/pd_dump.h): its header, each event attribute, the feature
 * sections, and the count of records by type. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/pd_dump.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/text.h"

/* A name from the capture, its control characters and ill-formed bytes
 * escaped for a terminal, in @buf. */
static const char *safe_text(const char *s, char *buf, size_t size)
{
	size_t n = s ? hwt_term_escape(buf, size - 1, s, strlen(s)) : 0;
	buf[n < size - 1 ? n : size - 1] = 0;
	return buf;
}

static int written(FILE *out)
{
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the dump failed");
	return 0;
}

static void print_attr(FILE *out, size_t i, const struct hwt_pd_attr *a)
{
	const struct perf_event_attr *e = &a->attr;

	fprintf(out, "# event %zu: %s\n", i, a->name ? a->name : "(no name)");
	fprintf(out, "#   type %u, size %u, config 0x%llx, config1 0x%llx, "
		"config2 0x%llx\n", e->type, e->size,
		(unsigned long long)e->config, (unsigned long long)e->config1,
		(unsigned long long)e->config2);
	fprintf(out, "#   sample_type 0x%llx, read_format 0x%llx, sample_period %llu"
		"%s\n", (unsigned long long)e->sample_type,
		(unsigned long long)e->read_format,
		(unsigned long long)e->sample_period, e->freq ? " (freq)" : "");
	fprintf(out, "#   flags:%s%s%s%s%s%s%s%s%s%s%s\n",
		e->disabled ? " disabled" : "", e->inherit ? " inherit" : "",
		e->exclude_kernel ? " exclude_kernel" : "",
		e->exclude_user ? " exclude_user" : "",
		e->exclude_hv ? " exclude_hv" : "", e->mmap ? " mmap" : "",
		e->comm ? " comm" : "", e->task ? " task" : "",
		e->sample_id_all ? " sample_id_all" : "",
		e->context_switch ? " context_switch" : "",
		e->enable_on_exec ? " enable_on_exec" : "");
	if (e->aux_watermark || e->aux_sample_size)
		fprintf(out, "#   aux_watermark %u, aux_sample_size %u\n",
			e->aux_watermark, e->aux_sample_size);
	fprintf(out, "#   ids (%zu):", a->nids);
	for (size_t j = 0; j < a->nids && j < 64; j++)
		fprintf(out, " %" PRIu64, a->ids[j]);
	fprintf(out, "%s\n", a->nids > 64 ? " ..." : "");
}

static void print_features(FILE *out, const struct hwt_pd_reader *r)
{
	for (unsigned int bit = 0; bit < 256; bit++) {
		const char *name = hwt_pd_feature_name(bit);
		const void *data;
		uint64_t size, offset;
		char buf[4096], safe[8192];

		if (!hwt_pd_reader_has_feature(r, bit))
			continue;
		if (hwt_pd_reader_feature_raw(r, bit, &offset, &data, &size)) {
			fprintf(out, "# feature %u (%s): missing from the file\n", bit,
				name ? name : "unknown");
			continue;
		}
		fprintf(out, "# feature %u (%s) at 0x%" PRIx64 ", %" PRIu64 " bytes",
			bit, name ? name : "unknown", offset, size);
		switch (bit) {
		case HWT_PD_FEAT_HOSTNAME:
		case HWT_PD_FEAT_OSRELEASE:
		case HWT_PD_FEAT_VERSION:
		case HWT_PD_FEAT_ARCH:
		case HWT_PD_FEAT_CPUDESC:
		case HWT_PD_FEAT_CPUID:
			if (!hwt_pd_reader_feature_string(r, bit, buf, sizeof(buf)))
				fprintf(out, ": %s", safe_text(buf, safe, sizeof(safe)));
			else
				fprintf(out, ": (malformed)");
			break;
		case HWT_PD_FEAT_NRCPUS: {
			uint32_t avail, online;

			if (!hwt_pd_reader_nr_cpus(r, &avail, &online))
				fprintf(out, ": %u available, %u online", avail, online);
			break;
		}
		case HWT_PD_FEAT_CMDLINE:
			if (!hwt_pd_reader_cmdline(r, buf, sizeof(buf)))
				fprintf(out, ": %s", safe_text(buf, safe, sizeof(safe)));
			else
				fprintf(out, ": (malformed)");
			break;
		case HWT_PD_FEAT_AUXTRACE: {
			uint64_t entries;
			if (!hwt_pd_reader_auxtrace_index_count(r, &entries))
				fprintf(out, ": %" PRIu64 " index entries", entries);
			else
				hwt_error_clear();
			break;
		}
		}
		fputc('\n', out);
		if (bit == 129) {
			/* simpleperf's meta info: its key, value pairs. */
			const char *key, *value;
			for (size_t i = 0; hwt_pd_reader_meta_info(r, i, &key, &value);
			     i++) {
				fprintf(out, "#   %s", safe_text(key, safe, sizeof(safe)));
				fprintf(out, " = %s\n", safe_text(value, safe, sizeof(safe)));
			}
		}
		if (bit == HWT_PD_FEAT_BUILD_ID) {
			struct hwt_pd_build_id b;
			int n;

			for (size_t i = 0; (n = hwt_pd_reader_build_id(r, i, &b)) > 0;
			     i++) {
				fprintf(out, "#   ");
				for (int k = 0; k < b.size; k++)
					fprintf(out, "%02x", b.id[k]);
				fprintf(out, " pid %d %s\n", b.pid,
					safe_text(b.filename, safe, sizeof(safe)));
			}
			if (n < 0)
				fprintf(out, "#   (%s)\n", hwt_errmsg());
		}
	}
}

int hwt_pd_dump_events(FILE *out, const struct hwt_pd_reader *r)
{
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++)
		print_attr(out, i, hwt_pd_reader_attr(r, i));
	print_features(out, r);
	return written(out);
}

int hwt_pd_dump_header(FILE *out, const struct hwt_pd_reader *r)
{
	const struct hwt_pd_file_header *h = hwt_pd_reader_header(r);
	const char *warning = hwt_pd_reader_warning(r);

	fprintf(out, "# file %s: perf.data, %s%s\n", hwt_pd_reader_path(r),
		hwt_pd_reader_is_pipe(r) ? "pipe mode" : "file mode",
		hwt_pd_reader_is_simpleperf(r) ? ", written by simpleperf" : "");
	if (!hwt_pd_reader_is_pipe(r)) {
		fprintf(out, "# header size %" PRIu64 ", attribute size %" PRIu64 "\n",
			h->size, h->attr_size);
		fprintf(out, "# attributes at 0x%" PRIx64 ", %" PRIu64 " bytes\n",
			h->attrs_offset, h->attrs_size);
		fprintf(out, "# data at 0x%" PRIx64 ", %" PRIu64 " bytes\n",
			h->data_offset, h->data_size);
		fprintf(out, "# feature bits %016" PRIx64 " %016" PRIx64 " %016" PRIx64
			" %016" PRIx64 "\n", h->features[0], h->features[1],
			h->features[2], h->features[3]);
	}
	if (warning)
		fprintf(out, "# warning: %s\n", warning);
	return hwt_pd_dump_events(out, r);
}

int hwt_pd_dump_counts(FILE *out, const struct hwt_pd_reader *r)
{
	const uint64_t *counts = hwt_pd_reader_counts(r);
	uint64_t total = 0;

	fprintf(out, "\n# records by type\n");
	for (uint32_t t = 0; t < HWT_PD_NR_COUNTED_TYPES; t++) {
		const char *name = hwt_pd_record_type_name(t);

		if (!counts[t])
			continue;
		total += counts[t];
		if (t == HWT_PD_NR_COUNTED_TYPES - 1)
			fprintf(out, "#   %-20s %10" PRIu64 "\n", "other", counts[t]);
		else if (name)
			fprintf(out, "#   %-20s %10" PRIu64 "\n", name, counts[t]);
		else
			fprintf(out, "#   type %-15u %10" PRIu64 "\n", t, counts[t]);
	}
	fprintf(out, "#   %-20s %10" PRIu64 "\n", "TOTAL", total);
	return written(out);
}
