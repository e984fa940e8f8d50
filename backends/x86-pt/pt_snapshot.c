/* Where the newest intel_pt data starts in an overwrite-mode AUX buffer. */
#include "hwtrace/error.h"
#include "backends/x86-pt/pt_meta.h"

/* perf looks at the last 512 64-bit words. */
#define PT_WRAP_WINDOW 4096u

static bool tail_written(const uint8_t *aux, uint64_t size)
{
	uint64_t from = size > PT_WRAP_WINDOW ? size - PT_WRAP_WINDOW : 0;

	for (uint64_t i = from; i < size; i++)
		if (aux[i])
			return true;
	return false;
}

int hwt_pt_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped)
{
	uint64_t h, old;

	if (!aux || !aux_size || !start || !len || !wrapped)
		return hwt_error(HWT_ERR_INVAL,
				 "intel_pt snapshot: no buffer or output given");
	/* The driver reports an offset inside the buffer; a running count
	 * reduces to the same offset. */
	h = head % aux_size;
	*wrapped = tail_written(aux, aux_size);
	if (*wrapped) {
		*start = h;
		*len = aux_size;
		return 0;
	}
	old = prev_head % aux_size;
	*start = old;
	*len = old <= h ? h - old : aux_size - old + h;
	return 0;
}
