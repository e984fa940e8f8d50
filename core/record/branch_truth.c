/* hwt_record_branch_truth: a sw_branch capture as the ground truth of
 * branch-record sampling on the kernel emulator (hwtrace record -b
 * --emulate-branches): its branches and sideband into the emulator, its
 * sideband events and machine description into the new file. */
#include <stdbool.h>
#include <string.h>

#include "core/record/recorder_internal.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "hwtrace/insn.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/recorder.h"

/* The decode of the capture, as it gives the ground truth its branches. */
struct truth {
	struct hwt_emu *emu;
	struct hwt_image *image;       /* the capture's, while it decodes */
	struct hwt_insn_decoder *insn; /* NULL without Capstone */
};

static void on_image(void *arg, struct hwt_image *image)
{
	((struct truth *)arg)->image = image;
}

/* Whether call @b is direct or indirect, from its instruction (the
 * decode's kind says "call" for both); nothing when it cannot be read. */
static uint8_t call_flags(const struct truth *t, const struct hwt_emu_branch *b,
			  uint64_t time)
{
	uint8_t code[16];
	struct hwt_insn insn;
	int n = t->image && t->insn ? hwt_image_read_at(t->image, b->pid, b->from,
						       time, code, sizeof(code))
				    : 0;
	if (n <= 0 || hwt_insn_decode(t->insn, code, (size_t)n, b->from, &insn))
		return 0;
	if (insn.iclass == HWT_INSN_CALL_IND)
		return HWT_EMU_BRANCH_CALL_KNOWN | HWT_EMU_BRANCH_IND_CALL;
	return insn.iclass == HWT_INSN_CALL ? HWT_EMU_BRANCH_CALL_KNOWN : 0;
}

static int on_branch(void *arg, const struct hwt_elem *e)
{
	struct truth *t = arg;
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	struct hwt_emu_branch b = {
		.from = e->u.branch.from,
		.to = e->u.branch.to,
		.time = e->fields & HWT_FIELD_TIME ? e->time : 0,
		.pid = e->pid,
		.tid = e->tid,
		.kind = (uint8_t)e->u.branch.kind,
		.flags = 0,
	};
	if (b.kind == HWT_BRANCH_CALL)
		b.flags = call_flags(t, &b, e->fields & HWT_FIELD_TIME
						  ? e->time : HWT_TIME_UNKNOWN);
	return hwt_emu_branch_source(t->emu, &b, 1);
}

/* A sideband record of the capture that goes into the new file: the
 * kernel's records (its losses too) but its trace (AUX, ITRACE_START)
 * and samples; none of perf's own (AUXTRACE, rounds, ...). */
static bool sideband(uint32_t type)
{
	return type < 64 && type != PERF_RECORD_SAMPLE &&
	       type != PERF_RECORD_AUX && type != PERF_RECORD_ITRACE_START;
}

/* The sideband events (software: the dummy event's mmap and comm
 * records) into the file; HWT_ERR_FORMAT when the capture has none. */
static int copy_sideband_attrs(const struct hwt_pd_reader *r, const char *path,
			       struct hwt_pd_writer *w)
{
	size_t nside = 0;
	int err = 0;
	for (size_t i = 0; !err && i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);
		if (a->attr.type != PERF_TYPE_SOFTWARE)
			continue;
		err = hwt_pd_writer_add_attr(w, &a->attr, a->ids, a->nids, a->name);
		nside++;
	}
	if (!err && !nside)
		err = hwt_error(HWT_ERR_FORMAT, "%s: no sideband event (a dummy "
				"event's mmap and comm records): record it with "
				"hwtrace record -e sw_branch", path);
	return err;
}

int hwt_record_branch_truth(const char *path, struct hwt_emu *emu,
			    struct hwt_pd_writer *w)
{
	/* The features that say what ran where: the binaries' build ids,
	 * the machine's description. */
	static const unsigned int feats[] = {
		HWT_PD_FEAT_BUILD_ID, HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE,
		HWT_PD_FEAT_VERSION, HWT_PD_FEAT_ARCH, HWT_PD_FEAT_NRCPUS,
		HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID,
	};
	struct hwt_decode_opts d;
	memset(&d, 0, sizeof(d));
	d.size = sizeof(d);
	/* sw_branch steps x86-64 programs only. */
	struct truth t = {emu, NULL, NULL};
	if (hwt_insn_decoder_new(HWT_ISA_X86_64, &t.insn) < 0)
		t.insn = NULL;
	hwt_error_clear();
	d.on_image = on_image;
	d.on_image_arg = &t;
	struct hwt_elem_sink sink = {on_branch, &t};
	int err = hwt_decode_file(path, &d, &sink);
	hwt_insn_decoder_free(t.insn);
	if (err < 0)
		return err;
	struct hwt_pd_reader *r;
	if ((err = hwt_pd_reader_open(path, &r)) < 0)
		return err;
	err = copy_sideband_attrs(r, path, w);
	if (!err)
		err = hwt_pd_writer_copy_features(w, r, feats,
						  sizeof(feats) / sizeof(*feats));
	/* The emulated machine's PMU caps: its LBR depth and counters. */
	if (!err)
		err = hwt_record_branch_caps(hwt_emu_os(emu), w);
	struct hwt_pd_record rec;
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1)
		err = sideband(rec.type) ? hwt_emu_branch_record(emu, rec.data) : 0;
	hwt_pd_reader_free(r);
	return err < 0 ? err : 0;
}
