/* x86 instruction lengths, for output that shows every instruction as a
 * range of its own (--disasm): a block's ranges are split at each. (A
 * block's own end and cuts come from libipt: pt_block_shape.c.) Capstone
 * decodes the length; a direct-mapped cache keeps it for code met again. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"

#ifdef HWT_HAVE_CAPSTONE
#include <capstone/capstone.h>
#endif

#define LEN_CACHE_SIZE 8192u

struct len_entry {
	uint64_t ip;
	/* The first code bytes: other code at the same address misses. */
	uint64_t tag;
	uint8_t len;
	uint8_t mode;
};

struct pt_insn_len {
	struct len_entry cache[LEN_CACHE_SIZE];
#ifdef HWT_HAVE_CAPSTONE
	csh handle[3]; /* 64-, 32-, 16-bit; 0 until first use */
	cs_insn *insn[3];
#endif
};

struct pt_insn_len *pt_insn_len_new(void)
{
	return calloc(1, sizeof(struct pt_insn_len));
}

void pt_insn_len_free(struct pt_insn_len *il)
{
	if (!il)
		return;
#ifdef HWT_HAVE_CAPSTONE
	for (int i = 0; i < 3; i++) {
		if (il->insn[i])
			cs_free(il->insn[i], 1);
		if (il->handle[i])
			cs_close(&il->handle[i]);
	}
#endif
	free(il);
}

#ifdef HWT_HAVE_CAPSTONE
static unsigned int decode_len(struct pt_insn_len *il, int m, uint64_t ip,
			       const uint8_t *code, size_t size)
{
	static const cs_mode modes[3] = {CS_MODE_64, CS_MODE_32, CS_MODE_16};

	if (!il->handle[m]) {
		if (cs_open(CS_ARCH_X86, modes[m], &il->handle[m]) != CS_ERR_OK) {
			il->handle[m] = 0;
			return 0;
		}
		il->insn[m] = cs_malloc(il->handle[m]);
		if (!il->insn[m])
			return 0;
	}
	if (!il->insn[m])
		return 0;
	const uint8_t *p = code;
	size_t left = size;
	uint64_t addr = ip;
	if (!cs_disasm_iter(il->handle[m], &p, &left, &addr, il->insn[m]))
		return 0;
	return il->insn[m]->size;
}
#endif

static int mode_index(enum pt_exec_mode mode)
{
	return mode == ptem_32bit ? 1 : mode == ptem_16bit ? 2 : 0;
}

static struct len_entry *entry(struct pt_insn_len *il, uint64_t ip)
{
	return &il->cache[(ip ^ (ip >> 13)) % LEN_CACHE_SIZE];
}

unsigned int pt_insn_len_at(struct pt_insn_len *il, enum pt_exec_mode mode,
			    uint64_t ip, const uint8_t *code, size_t size)
{
	int m = mode_index(mode);
	struct len_entry *e = entry(il, ip);
	uint64_t head = 0;
	memcpy(&head, code, size < 7 ? size : 7);
	if (e->len && e->ip == ip && e->tag == head && e->mode == m)
		return e->len;
#ifdef HWT_HAVE_CAPSTONE
	unsigned int len = decode_len(il, m, ip, code, size);
#else
	unsigned int len = 0;
	(void)code;
	(void)size;
#endif
	if (len) {
		e->ip = ip;
		e->tag = head;
		e->len = (uint8_t)len;
		e->mode = (uint8_t)m;
	}
	return len;
}
