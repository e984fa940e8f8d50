/* Where the newest CoreSight data starts in an overwrite-mode AUX buffer. */
#include "hwtrace/error.h"
#include "backends/arm-cs/cs_info.h"

/* perf looks at the last 512 bytes of the buffer. */
#define CS_WRAP_WINDOW 512u

int hwt_cs_find_snapshot(const uint8_t *aux, uint64_t aux_size, uint64_t head,
			 uint64_t prev_head, uint64_t *start, uint64_t *len,
			 bool *wrapped)
{
	uint64_t from;

	if (!aux || !aux_size || !start || !len || !wrapped)
		return hwt_error(HWT_ERR_INVAL,
				 "cs_etm snapshot: no buffer or output given");
	*wrapped = head >= aux_size;
	if (!*wrapped) {
		/* The head is still in its first lap, unless the count itself
		 * wrapped: then the sink has written past it before. Bytes
		 * before the head in the window were written in this lap. */
		from = aux_size > CS_WRAP_WINDOW ? aux_size - CS_WRAP_WINDOW : 0;
		if (head > from)
			from = head;
		for (uint64_t i = from; i < aux_size && !*wrapped; i++)
			*wrapped = aux[i] != 0;
	}
	if (*wrapped) {
		*start = head % aux_size;
		*len = aux_size;
		return 0;
	}
	if (prev_head > head)
		return hwt_error(HWT_ERR_INVAL,
				 "cs_etm snapshot: head 0x%llx is behind the previous "
				 "snapshot's 0x%llx, but CoreSight's head only grows",
				 (unsigned long long)head,
				 (unsigned long long)prev_head);
	*start = prev_head;
	*len = head - prev_head;
	return 0;
}
