/* `--disasm`: ranges split into instructions with their text. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/insn.h"
#include "hwtrace/error.h"

#define NR_ISAS (HWT_ISA_RV64 + 1)

struct hwt_disasm {
	struct hwt_image *image;
	struct hwt_elem_sink inner;
	struct hwt_insn_decoder *dec[NR_ISAS];
	bool unavailable[NR_ISAS];
};

int hwt_disasm_new(struct hwt_image *image, const struct hwt_elem_sink *inner,
		   struct hwt_disasm **out)
{
	struct hwt_disasm *dis = calloc(1, sizeof(*dis));
	if (!dis)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for --disasm");
	dis->image = image;
	dis->inner = *inner;
	*out = dis;
	return 0;
}

void hwt_disasm_free(struct hwt_disasm *dis)
{
	if (!dis)
		return;
	for (int i = 0; i < NR_ISAS; i++)
		hwt_insn_decoder_free(dis->dec[i]);
	free(dis);
}

static struct hwt_insn_decoder *decoder_for(struct hwt_disasm *dis,
					    enum hwt_isa isa)
{
	if (isa == HWT_ISA_UNKNOWN)
		isa = HWT_ISA_X86_64;
	if ((int)isa >= NR_ISAS || dis->unavailable[isa])
		return NULL;
	if (!dis->dec[isa] && hwt_insn_decoder_new(isa, &dis->dec[isa])) {
		dis->unavailable[isa] = true;
		hwt_error_clear();
		return NULL;
	}
	return dis->dec[isa];
}

static int read_code(struct hwt_disasm *dis, const struct hwt_elem *e,
		     uint64_t addr, uint8_t *buf)
{
	int32_t pid = e->fields & HWT_FIELD_PID ? e->pid :
		      e->fields & HWT_FIELD_TID ? e->tid : HWT_PID_ANY;
	/* The code of the element's time (another may sit there later). */
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	int n = hwt_image_read_at(dis->image, pid, addr, time, buf,
				  HWT_INSN_MAX_SIZE);
	if (n <= 0 && pid != HWT_PID_ANY)
		n = hwt_image_read_at(dis->image, HWT_PID_ANY, addr, time, buf,
				      HWT_INSN_MAX_SIZE);
	return n;
}

static int split(void *arg, const struct hwt_elem *e)
{
	struct hwt_disasm *dis = arg;
	struct hwt_insn_decoder *dec;
	uint8_t code[HWT_INSN_MAX_SIZE];
	char text[160];
	struct hwt_insn insn;

	if (e->type != HWT_ELEM_RANGE || (e->u.range.insns == 1 && e->u.range.text) ||
	    !dis->image || !(dec = decoder_for(dis, e->u.range.isa)))
		return dis->inner.emit(dis->inner.arg, e);

	struct hwt_elem one = *e;
	uint64_t pc = e->u.range.start, left = e->u.range.insns;
	while (left && pc < e->u.range.end) {
		int n = read_code(dis, e, pc, code);
		if (n <= 0 || hwt_insn_format(dec, code, (size_t)n, pc, &insn,
					      text, sizeof(text))) {
			hwt_error_clear();
			break;
		}
		one.u.range.start = pc;
		one.u.range.end = pc + insn.size;
		one.u.range.insns = 1;
		one.u.range.text = text;
		int err = dis->inner.emit(dis->inner.arg, &one);
		if (err)
			return err;
		pc += insn.size;
		left--;
	}
	if (!left)
		return 0;
	/* The rest could not be read: pass it on as a range. */
	one = *e;
	one.u.range.start = pc;
	one.u.range.insns = left;
	one.u.range.text = NULL;
	return dis->inner.emit(dis->inner.arg, &one);
}

struct hwt_elem_sink hwt_disasm_sink(struct hwt_disasm *dis)
{
	struct hwt_elem_sink s = {split, dis};
	return s;
}
