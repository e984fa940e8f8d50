/* pt_calls_capture BINARY OUT: writes OUT, an Intel PT capture (CPU 0's
 * trace of one thread, TSC on, no return compression) of one run of BINARY, the
 * tests/programs/pt_calls program: main calls work() N times (N read
 * from main's first instruction, `mov $N, %ecx`), with the packets a
 * trace unit writes for that code: TIP.PGE into main, a TIP for each
 * return of work, a TNT bit for each jnz, and before each call a PSB+
 * whose TSC is the call's time. Call K (from 1) takes 20 us, or 3 ms
 * when K is a multiple of 9; the next call starts 5 us after a return.
 * Prints "call K ENTRY RETURN" for each call, its times in ns (perf
 * time: the capture's TSC runs at 1 GHz from 0). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "programs/elf_syms.h"
#include "unit/pt_enc_psb.h"
#include "unit/test_pt_capture.h"

#define BASE 0x555555554000ull /* where the run mapped BINARY */
#define TSC_BIT 0x400u         /* pt_capture_info_comm's tsc bit */
#define NORETCOMP_BIT 0x800u   /* and its noretcomp bit */
#define FAST_NS 20000u
#define SLOW_NS 3000000u
#define GAP_NS 5000u
#define START_NS 1000000000ull

struct code {
	uint64_t main, back, work; /* run-time addresses */
	uint32_t calls;
	uint64_t map_size;
};

static int read_code(const char *bin, struct code *c)
{
	uint64_t vaddr, offset, size;
	uint8_t mov[5];

	if (test_elf_text(bin, &vaddr, &offset, &size))
		return -1;
	uint64_t main_at = test_elf_sym(bin, "main");
	uint64_t back = test_elf_sym(bin, "pt_calls_back");
	uint64_t work = test_elf_sym(bin, "work");
	if (!main_at || !back || !work || main_at < vaddr)
		return -1;
	FILE *f = fopen(bin, "rb");
	if (!f)
		return -1;
	int ok = !fseek(f, (long)(main_at - vaddr + offset), SEEK_SET) &&
		 fread(mov, 1, sizeof(mov), f) == sizeof(mov);
	fclose(f);
	if (!ok || mov[0] != 0xb9)
		return -1;
	c->calls = (uint32_t)mov[1] | (uint32_t)mov[2] << 8 |
		   (uint32_t)mov[3] << 16 | (uint32_t)mov[4] << 24;
	/* The mapping starts at file offset 0: run-time = BASE + offset. */
	c->main = BASE + main_at - vaddr + offset;
	c->back = BASE + back - vaddr + offset;
	c->work = BASE + work - vaddr + offset;
	c->map_size = offset + size;
	return c->calls ? 0 : -1;
}

static int put_tsc(struct pt_encoder *e, uint64_t tsc)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc;
	return pt_enc_put(e, &p);
}

static int put_tnt(struct pt_encoder *e, bool taken)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = 1;
	p.payload.tnt.payload = taken;
	return pt_enc_put(e, &p);
}

/* The run's packets into @buf; returns the bytes, 0 on failure. */
static size_t encode(const struct code *c, uint8_t *buf, size_t size)
{
	struct pt_config cfg;
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + size;
	struct pt_encoder *e = pt_alloc_encoder(&cfg);
	if (!e)
		return 0;
	uint64_t t = START_NS, off = 0;
	int err = pt_enc_psb_plus(e, t, 0) | pt_enc_ip(e, ppt_tip_pge, c->main);
	for (uint32_t k = 1; k <= c->calls && !err; k++) {
		uint64_t entry = t;
		t += k % 9 ? FAST_NS : SLOW_NS;
		printf("call %u %" PRIu64 " %" PRIu64 "\n", k, entry, t);
		err |= put_tsc(e, t) | pt_enc_ip(e, ppt_tip, c->back);
		if (k < c->calls) {
			t += GAP_NS;
			err |= pt_enc_psb_plus(e, t, c->back) | put_tnt(e, true);
		} else {
			err |= put_tnt(e, false) | pt_enc_ip(e, ppt_tip_pgd, 0);
		}
	}
	pt_enc_get_offset(e, &off);
	pt_free_encoder(e);
	return err ? 0 : (size_t)off;
}

int main(int argc, char **argv)
{
	struct code c;

	if (argc != 3) {
		fprintf(stderr, "usage: pt_calls_capture BINARY OUT\n");
		return 2;
	}
	if (read_code(argv[1], &c)) {
		fprintf(stderr, "pt_calls_capture: %s is not the pt_calls program "
			"(main, pt_calls_back, work and main's mov $N, %%ecx)\n",
			argv[1]);
		return 1;
	}
	size_t size = 64 + (size_t)c.calls * 64;
	uint8_t *trace = malloc(size);
	size_t n = trace ? encode(&c, trace, size) : 0;
	if (!n) {
		fprintf(stderr, "pt_calls_capture: encoding failed\n");
		free(trace);
		return 1;
	}
	/* CPU 0's trace, which the thread starts as perf records it: an
	 * ITRACE_START of the PT event (id 1) names the thread. */
	uint8_t start[8 + 8 + 32];
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	memcpy(start + 8, pidtid, 8);
	pt_capture_sample_id(start + 16, START_NS - 1, 1);
	pt_capture_header(start, PERF_RECORD_ITRACE_START, 0, sizeof(start));
	const void *extra[] = {start};
	struct pt_capture_buffer buf = {0, 0, trace, n};
	struct pt_capture cap = {.code_path = argv[1], .code_addr = BASE,
				 .code_size = c.map_size, .buffers = &buf,
				 .nbuffers = 1, .extra = extra, .nextra = 1,
				 .aux_config = TSC_BIT | NORETCOMP_BIT};
	int err = pt_capture_write(argv[2], &cap);
	free(trace);
	if (err < 0) {
		fprintf(stderr, "pt_calls_capture: %s: %s\n", argv[2], hwt_errmsg());
		return 1;
	}
	return 0;
}
