/* Straight-line walks over the memory image, with direct-mapped caches of
 * walks and of single instructions (every branch record's source is
 * decoded for its kind: with Capstone, that was a tenth of an export). */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-bts/bts_walk.h"
#include "hwtrace/error.h"

#define CACHE_SIZE 4096u
/* No function is this long without a taken branch: a longer walk means
 * the records do not belong to this code. */
#define MAX_WALK_BYTES (16u << 20)

struct cache_entry {
	uint64_t start, stop;
	int32_t pid;
	const struct hwt_image_section *section; /* where @start was read */
	bool inclusive, valid;
	struct hwt_bts_block blk;
};

#define INSN_CACHE_SIZE 4096u

/* An instruction decoded from a section's bytes, which do not change. */
struct insn_entry {
	uint64_t addr;
	const struct hwt_image_section *section; /* NULL: empty */
	struct hwt_insn insn;
};

struct hwt_bts_walk {
	struct hwt_image *image;
	struct hwt_insn_decoder *dec;
	struct cache_entry *cache;
	struct insn_entry *insns;
	uint64_t time;
};

int hwt_bts_walk_new(struct hwt_image *image, struct hwt_bts_walk **out)
{
	struct hwt_bts_walk *walk = calloc(1, sizeof(*walk));
	if (!walk)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the BTS decoder");
	walk->cache = calloc(CACHE_SIZE, sizeof(*walk->cache));
	walk->insns = calloc(INSN_CACHE_SIZE, sizeof(*walk->insns));
	if (!walk->cache || !walk->insns) {
		free(walk->cache);
		free(walk->insns);
		free(walk);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the BTS decoder");
	}
	walk->time = HWT_TIME_UNKNOWN;
	int err = hwt_insn_decoder_new(HWT_ISA_X86_64, &walk->dec);
	if (err) {
		free(walk->cache);
		free(walk->insns);
		free(walk);
		return err;
	}
	walk->image = image;
	*out = walk;
	return 0;
}

void hwt_bts_walk_free(struct hwt_bts_walk *walk)
{
	if (!walk)
		return;
	hwt_insn_decoder_free(walk->dec);
	free(walk->cache);
	free(walk->insns);
	free(walk);
}

struct hwt_insn_decoder *hwt_bts_walk_decoder(struct hwt_bts_walk *walk)
{
	return walk->dec;
}

void hwt_bts_walk_set_time(struct hwt_bts_walk *walk, uint64_t time)
{
	walk->time = time;
}

/* The section of @pid (or of every process) at @addr at the walk's time. */
static struct hwt_image_section *section_at(struct hwt_bts_walk *walk,
					    int32_t pid, uint64_t addr)
{
	struct hwt_image_section *s =
		hwt_image_find_at(walk->image, pid, addr, walk->time);
	if (!s && pid != HWT_PID_ANY)
		s = hwt_image_find_at(walk->image, HWT_PID_ANY, addr, walk->time);
	return s;
}

/* Points *code at the bytes at @addr (up to HWT_INSN_MAX_SIZE of them, in
 * @buf when they must be copied). Returns how many, 0 when unmapped, or
 * HWT_ERR_NOENT when the section's file is missing. */
static int code_at(struct hwt_bts_walk *walk, struct hwt_image_section *s,
		   uint64_t addr, uint8_t *buf, const uint8_t **code,
		   const char **detail)
{
	if (!s)
		return 0;
	if (!s->data) {
		/* The file was refused (wrong build id or ISA): say why. */
		*detail = s->missing_detail ? s->missing_detail : s->path;
		return HWT_ERR_NOENT;
	}
	uint64_t avail = s->vaddr + s->size - addr;
	if (avail >= HWT_INSN_MAX_SIZE) {
		*code = s->data + (addr - s->vaddr);
		return HWT_INSN_MAX_SIZE;
	}
	/* The instruction may continue in the next section. */
	int n = hwt_image_read_at(walk->image, s->pid, addr, walk->time, buf,
				  HWT_INSN_MAX_SIZE);
	if (n > 0 && (uint64_t)n < HWT_INSN_MAX_SIZE) {
		int m = hwt_image_read_at(walk->image, s->pid, addr + (uint64_t)n,
					  walk->time, buf + n,
					  HWT_INSN_MAX_SIZE - (size_t)n);
		if (m > 0)
			n += m;
	}
	*code = buf;
	return n;
}

int hwt_bts_walk_insn(struct hwt_bts_walk *walk, int32_t pid, uint64_t addr,
		      struct hwt_insn *insn, const char **detail)
{
	uint8_t buf[HWT_INSN_MAX_SIZE];
	const uint8_t *code = NULL;

	*detail = NULL;
	struct hwt_image_section *s = walk->image ? section_at(walk, pid, addr)
						  : NULL;
	struct insn_entry *c = &walk->insns[(addr ^ addr >> 12) &
					    (INSN_CACHE_SIZE - 1)];
	if (s && c->section == s && c->addr == addr) {
		*insn = c->insn;
		return 0;
	}
	int n = code_at(walk, s, addr, buf, &code, detail);
	if (n < 0)
		return n;
	if (n == 0)
		return HWT_ERR_NOENT;
	int err = hwt_insn_decode(walk->dec, code, (size_t)n, addr, insn);
	/* Only what one section's bytes alone gave. */
	if (!err && code != buf)
		*c = (struct insn_entry){addr, s, *insn};
	return err;
}

static void walk_uncached(struct hwt_bts_walk *walk, int32_t pid,
			  uint64_t start, uint64_t stop, bool inclusive,
			  struct hwt_bts_block *blk)
{
	uint64_t pc = start;
	struct hwt_insn insn;

	memset(blk, 0, sizeof(*blk));
	if (stop < start || stop - start > MAX_WALK_BYTES) {
		blk->status = HWT_BTS_WALK_BAD;
		blk->fail_at = start;
		blk->detail = "the next branch record is not ahead of the last "
			      "branch target";
		return;
	}
	for (;;) {
		if (!inclusive && pc == stop)
			break;
		const char *detail = NULL;
		int err = hwt_bts_walk_insn(walk, pid, pc, &insn, &detail);
		if (err == HWT_ERR_NOENT) {
			blk->status = HWT_BTS_WALK_NO_IMAGE;
			blk->fail_at = pc;
			blk->detail = detail;
			return;
		}
		if (err) {
			blk->status = HWT_BTS_WALK_BAD;
			blk->fail_at = pc;
			blk->detail = "no valid instruction on the way to the next "
				      "branch record";
			return;
		}
		blk->insns++;
		if (pc == stop) {
			pc += insn.size;
			break;
		}
		/* BTS records every taken branch, so code on the way must
		 * fall through. System calls return to the next instruction
		 * when the kernel is not traced. */
		if (hwt_insn_is_unconditional(insn.iclass) &&
		    insn.iclass != HWT_INSN_SYSCALL &&
		    insn.iclass != HWT_INSN_SYSRET) {
			blk->status = HWT_BTS_WALK_BAD;
			blk->fail_at = pc;
			blk->detail = "an unconditional branch on the way to the "
				      "next branch record (is a record missing?)";
			return;
		}
		pc += insn.size;
		if (pc > stop) {
			blk->status = HWT_BTS_WALK_BAD;
			blk->fail_at = pc;
			blk->detail = "instructions do not end at the next branch "
				      "record's source";
			return;
		}
	}
	blk->status = HWT_BTS_WALK_OK;
	blk->end = pc;
}

void hwt_bts_walk_range(struct hwt_bts_walk *walk, int32_t pid,
			uint64_t start, uint64_t stop, bool inclusive,
			struct hwt_bts_block *blk)
{
	uint64_t h = (start * 0x9e3779b97f4a7c15ull) ^ (stop * 0xc2b2ae3d27d4eb4full);
	struct cache_entry *e = &walk->cache[(h >> 40) & (CACHE_SIZE - 1)];
	/* Other code may sit at the same addresses at another time. */
	const struct hwt_image_section *section =
		walk->image ? section_at(walk, pid, start) : NULL;

	if (e->valid && e->start == start && e->stop == stop && e->pid == pid &&
	    e->inclusive == inclusive && e->section == section) {
		*blk = e->blk;
		return;
	}
	walk_uncached(walk, pid, start, stop, inclusive, blk);
	/* Missing-file results point into the image, which may change: keep
	 * only the outcomes that depend on code bytes alone. */
	if (blk->status == HWT_BTS_WALK_NO_IMAGE)
		return;
	e->valid = true;
	e->start = start;
	e->stop = stop;
	e->pid = pid;
	e->section = section;
	e->inclusive = inclusive;
	e->blk = *blk;
}
