/* hwt_stack_decode's --comm, --dso and --sym lists, on a generated
 * two-thread sw_branch capture (bts_capture.h) whose code file is mapped
 * at BTS_ORG: the unfiltered decode of the same capture is the oracle.
 * --dso of the code file keeps exactly the branches from inside it (the
 * kernel's and the unmapped code's go), a binary the capture lacks keeps
 * nothing (every frame goes to dropped), --comm keeps no frame of the
 * capture's unnamed threads, and kept plus dropped frames are always the
 * unfiltered ones: the stacks see every element. A caller's shorter
 * struct (built before the lists) is decoded unfiltered. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bts_capture.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/stack.h"

static char tmp[] = "/tmp/hwt-stack-filters-XXXXXX";

struct counts {
	uint64_t elems, branches, code_branches; /* code: from BTS_ORG's page */
	uint64_t kept, dropped;                  /* frames entered */
};

static int count_elem(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
	c->elems++;
	if (e->type == HWT_ELEM_BRANCH) {
		c->branches++;
		c->code_branches += e->u.branch.from >= BTS_ORG &&
				    e->u.branch.from < BTS_ORG + BTS_CODE_SIZE;
	}
	return 0;
}

static int count_kept(void *arg, const struct hwt_frame *f)
{
	(void)f;
	((struct counts *)arg)->kept++;
	return 0;
}

static int count_dropped(void *arg, const struct hwt_frame *f)
{
	(void)f;
	((struct counts *)arg)->dropped++;
	return 0;
}

static int no_exit(void *arg, const struct hwt_frame *f)
{
	(void)arg;
	(void)f;
	return 0;
}

/* @old_size: the struct as a caller built before the lists came sees
 * it (the lists past its size are not read). */
static int run(const char *data, const char *comms, const char *dsos,
	       const char *syms, bool with_sym, bool old_size,
	       struct counts *c)
{
	memset(c, 0, sizeof(*c));
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = 1};
	struct hwt_symbolizer *sym = NULL;
	struct hwt_sym_setup setup = {.size = sizeof(setup)};
	if (with_sym) {
		CHECK_INT(hwt_symbolizer_setup(&setup, &sym), 0);
		hwt_symbolizer_hook(sym, &opts, NULL);
	}
	struct hwt_elem_sink after = {count_elem, c};
	struct hwt_stack_decode sd = {
		.size = sizeof(sd),
		.file = data,
		.opts = &opts,
		.ops = {.on_enter = count_kept, .on_exit = no_exit, .arg = c},
		.after = &after,
		.comms = comms,
		.dsos = dsos,
		.syms = syms,
		.sym = sym,
		.dropped = {.on_enter = count_dropped, .on_exit = no_exit,
			    .arg = c},
	};
	if (old_size)
		sd.size = offsetof(struct hwt_stack_decode, comms);
	struct hwt_stack_decode_result res;
	int err = hwt_stack_decode(&sd, &res);
	hwt_symbolizer_free(sym);
	return err;
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	char code[300], data[300];
	snprintf(code, sizeof(code), "%s/code.bin", tmp);
	snprintf(data, sizeof(data), "%s/swb.data", tmp);
	CHECK_INT(bts_capture_write_code(code), 0);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture cap = {.code_path = code, .swb = true, .seed = 4,
				  .npieces = 3, .records = 100};
	CHECK_INT(bts_capture_write(data, &cap, w), 0);

	struct counts all, dso, none, comm;
	CHECK_INT(run(data, NULL, NULL, NULL, true, false, &all), 0);
	/* Positive control: frames and branches both inside and outside
	 * the code file, so that the filters have something to tell. */
	CHECK(all.kept > 0);
	CHECK_U64(all.dropped, 0);
	CHECK(all.code_branches > 0);
	CHECK(all.code_branches < all.branches);

	CHECK_INT(run(data, NULL, "code.bin", NULL, true, false, &dso), 0);
	CHECK_U64(dso.branches, all.code_branches);
	CHECK_U64(dso.code_branches, all.code_branches);
	CHECK(dso.kept > 0);
	CHECK_U64(dso.kept + dso.dropped, all.kept);

	CHECK_INT(run(data, NULL, "nosuch.so", NULL, true, false, &none), 0);
	CHECK_U64(none.branches, 0);
	CHECK_U64(none.kept, 0);
	CHECK_U64(none.dropped, all.kept);

	/* The generated capture names no thread (no COMM): no frame of it
	 * is of the thread asked for. */
	CHECK_INT(run(data, "loop", NULL, NULL, false, false, &comm), 0);
	CHECK_U64(comm.kept, 0);
	CHECK_U64(comm.dropped, all.kept);
	CHECK_U64(comm.branches, 0);

	/* A shorter struct of an older caller: its lists unread. */
	struct counts old;
	CHECK_INT(run(data, "loop", "nosuch.so", NULL, true, true, &old), 0);
	CHECK_U64(old.kept, all.kept);
	CHECK_U64(old.dropped, 0);
	CHECK_U64(old.branches, all.branches);

	/* --sym without the symbolizer that names the code. */
	struct counts bad;
	CHECK_INT(run(data, NULL, NULL, "main", false, false, &bad), HWT_ERR_INVAL);
	unlink(data);
	unlink(code);
	rmdir(tmp);
	return hwt_test_summary();
}
