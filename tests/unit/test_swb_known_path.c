/* sw_branch on a real program on this machine: known_path 5 traced from
 * kp_run to kp_done. The decoded branches must be the path the program
 * must take (from its symbol table and its assembly), and the instruction
 * count must equal a plain ptrace single-step count of the same range done
 * here. Expected addresses are the symbol values plus the load base the
 * capture's MMAP2 record of the program gives. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "../programs/known_path_expect.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/swbranch.h"

static const char *prog;
static char data_path[] = "/tmp/test_swb_known_path_XXXXXX";

static uint64_t peek_pc(pid_t pid)
{
	return (uint64_t)ptrace(PTRACE_PEEKUSER, pid,
				(void *)offsetof(struct user_regs_struct, rip), NULL);
}

/* The load base of @path in @pid: its mapping at file offset 0. */
static uint64_t map_base(pid_t pid, const char *path)
{
	char name[64], line[4352], real[4096];
	uint64_t base = 0;
	if (!realpath(path, real))
		return 0;
	snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(name, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char file[4096] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &s, &e, &off,
			   file) == 4 && off == 0 && !strcmp(file, real)) {
			base = s;
			break;
		}
	}
	if (f)
		fclose(f);
	return base;
}

/* Steps known_path @arg from kp_run to kp_done, counting steps. */
static uint64_t plain_step_count(const char *arg, uint64_t *base_out)
{
	pid_t pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execl(prog, prog, arg, (char *)NULL);
		_exit(127);
	}
	int status;
	uint64_t steps = 0;
	waitpid(pid, &status, 0);
	uint64_t base = map_base(pid, prog);
	*base_out = base;
	uint64_t run = base + test_elf_sym(prog, "kp_run");
	uint64_t done = base + test_elf_sym(prog, "kp_done");
	long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)run, NULL);
	ptrace(PTRACE_POKETEXT, pid, (void *)run, (void *)((word & ~0xffL) | 0xcc));
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &status, 0);
	if (!WIFSTOPPED(status) || peek_pc(pid) != run + 1)
		goto out;
	ptrace(PTRACE_POKETEXT, pid, (void *)run, (void *)word);
	ptrace(PTRACE_POKEUSER, pid, (void *)offsetof(struct user_regs_struct, rip),
	       (void *)run);
	while (peek_pc(pid) != done && steps < 100000) {
		ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL);
		waitpid(pid, &status, 0);
		if (!WIFSTOPPED(status))
			break;
		steps++;
	}
out:
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return steps;
}

/* The kernel's mapping of the program's code in the capture (its MMAP2
 * record, from /proc/PID/maps): where the program was loaded. */
struct prog_map {
	uint64_t addr, pgoff;
};
static struct prog_map prog_map;
static char prog_real[4096];
static const char *map_of = prog_real; /* whose mapping decode_capture keeps */

/* The load base of the last capture, from its MMAP2 record and the ELF
 * program headers. */
static uint64_t capture_base(void)
{
	uint64_t vaddr = 0, off = 0, size = 0;
	if (test_elf_text(prog, &vaddr, &off, &size) || !prog_map.addr)
		return 0;
	return prog_map.addr - prog_map.pgoff + off - vaddr;
}

static struct hwt_elem got[1 << 18];
static size_t ngot;

static int collect(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (ngot < sizeof(got) / sizeof(got[0]))
		got[ngot++] = *e;
	return 0;
}

/* Decodes the capture with the BTS decoder: image from its MMAP2 records,
 * decoder from its AUXTRACE_INFO, its AUXTRACE buffers in order. */
static int decode_capture(const char *path, uint32_t *auxtrace_type,
			  uint64_t *pmu_type)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_record rec;
	struct hwt_image *image = hwt_image_new();
	struct hwt_elem_sink sink = {collect, NULL};
	uint64_t info[16] = {0};
	size_t ninfo = 0;
	void *priv = NULL;
	/* The decoder a program reaches through the backend table. */
	const struct hwt_decoder_ops *bts = hwt_backend_find("intel_bts")->decoder;
	int err = hwt_pd_reader_open(path, &r), n;

	ngot = 0;
	while (!err && (n = hwt_pd_reader_next(r, &rec)) > 0) {
		const uint8_t *p = (const uint8_t *)rec.data + 8;
		if (rec.type == PERF_RECORD_MMAP2) {
			uint32_t pid;
			uint64_t geom[3];
			memcpy(&pid, p, 4);
			memcpy(geom, p + 8, 24);
			if (!strcmp((const char *)p + 64, map_of))
				prog_map = (struct prog_map){geom[0], geom[2]};
			hwt_image_add_mapping(image, NULL, (int32_t)pid, geom[0],
					      geom[1], geom[2], (const char *)p + 64,
					      NULL, 0);
		} else if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO) {
			memcpy(auxtrace_type, p, 4);
			ninfo = (rec.size - 16u) / 8;
			if (ninfo > 16)
				ninfo = 16;
			memcpy(info, p + 8, ninfo * 8);
			*pmu_type = info[0];
		} else if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			if (!priv) {
				struct hwt_decode_params dp = {
					.size = sizeof(dp), .info = info,
					.info_words = ninfo, .image = image,
					.sink = &sink,
				};
				if ((err = bts->create(&dp, &priv)))
					break;
			}
			struct hwt_aux_chunk c = {
				.data = rec.aux_data, .size = rec.aux.size,
				.offset = rec.aux.offset, .cpu = (int32_t)rec.aux.cpu,
				.tid = (int32_t)rec.aux.tid,
			};
			if ((err = bts->feed(priv, &c)))
				break;
		}
	}
	if (priv) {
		if (!err)
			err = bts->flush(priv);
		bts->destroy(priv);
	}
	hwt_pd_reader_free(r);
	hwt_image_free(image);
	return err;
}

/* Records with @o into @st; false, with a failed check and the reason on
 * stderr, when recording failed. */
static bool record_ok(const struct hwt_swb_opts *o, struct hwt_swb_stats *st)
{
	int err = hwt_swb_record(o, st);

	CHECK_INT(err, 0);
	if (err)
		fprintf(stderr, "%s\n", hwt_errmsg());
	return !err;
}

static void test_traced_path_is_the_known_path(void)
{
	uint64_t base = 0;
	uint64_t plain = plain_step_count("5", &base);
	CHECK(base != 0);
	CHECK_U64(plain, 41); /* the formula in known_path.c for n = 5 */

	char *argv[] = {(char *)prog, "5", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "kp_run",
		.stop = "kp_done", .output = data_path, .quiet_child = true,
		.chunk_size = 5 * 24, /* several AUXTRACE buffers */
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	CHECK_U64(st.insns, plain);
	CHECK_U64(st.branches, 18); /* 5 calls, 3 odd, 5 returns, 4 loops, done */
	CHECK(st.stopped);
	CHECK(!st.exited);
	CHECK(WIFEXITED(st.exit_status) && WEXITSTATUS(st.exit_status) == 0);

	uint32_t type = 0;
	uint64_t pmu = 0;
	prog_map.addr = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	CHECK_INT(type, HWT_AUXTRACE_INTEL_BTS);
	uint64_t cbase = capture_base();
	CHECK(cbase != 0);
	CHECK_INT(load_syms(prog, cbase), 0);
	CHECK_U64(st.start_addr, k.run);
	CHECK_U64(st.stop_addr, k.done);

	build_path(5);
	size_t pos = 0;
	uint64_t insns = 0;
	CHECK(ngot > 2);
	if (ngot <= 2)
		return;
	CHECK_INT(got[pos].type, HWT_ELEM_TRACE_ON);
	CHECK_U64(got[pos].u.trace.at, k.run);
	pos++;
	for (size_t i = 0; i < nexp && pos + 1 < ngot; i++) {
		const struct exp_rec *x = &exp_recs[i];
		CHECK_INT(got[pos].type, HWT_ELEM_RANGE);
		CHECK_U64(got[pos].u.range.start, x->rstart);
		CHECK_U64(got[pos].u.range.end, x->rend);
		CHECK_U64(got[pos].u.range.insns, x->rinsns);
		insns += got[pos].u.range.insns;
		pos++;
		CHECK_INT(got[pos].type, HWT_ELEM_BRANCH);
		CHECK_U64(got[pos].u.branch.from, x->from);
		CHECK_U64(got[pos].u.branch.to, x->to);
		CHECK_INT(got[pos].u.branch.kind, x->kind);
		CHECK_INT(got[pos].tid, st.pid);
		pos++;
	}
	CHECK(pos < ngot);
	if (pos < ngot) {
		CHECK_INT(got[pos].type, HWT_ELEM_TRACE_OFF);
		CHECK_U64(got[pos].u.trace.at, k.done);
		pos++;
	}
	CHECK_INT(ngot, pos);
	CHECK_U64(insns, plain);
}

/* main to exit through libc's printf: the decoder's instruction count
 * over the whole capture must equal the steps the tracer counted, with no
 * gap, and the stop symbol must be found in libc. */
static void test_main_to_exit_through_libc_decodes_without_gaps(void)
{
	char *argv[] = {(char *)prog, "3", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "main", .stop = "exit",
		.output = data_path, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	CHECK(st.stopped);
	CHECK(st.insns > 1000); /* printf's formatting alone is more */
	uint32_t type = 0;
	uint64_t pmu = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	uint64_t insns = 0, branches = 0, bad = 0;
	for (size_t i = 0; i < ngot; i++) {
		if (got[i].type == HWT_ELEM_RANGE)
			insns += got[i].u.range.insns;
		else if (got[i].type == HWT_ELEM_BRANCH)
			branches++;
		else if (got[i].type == HWT_ELEM_GAP || got[i].type == HWT_ELEM_ERROR)
			bad++;
	}
	CHECK(ngot < sizeof(got) / sizeof(got[0]));
	CHECK_U64(bad, 0);
	CHECK_U64(insns, st.insns);
	CHECK_U64(branches, st.branches);
	CHECK_INT(got[ngot - 1].type, HWT_ELEM_TRACE_OFF);
	CHECK_U64(got[ngot - 1].u.trace.at, st.stop_addr);
}

/* Code loaded with dlopen while the program was stepped is in the capture
 * too: libm's cos decodes without a gap. */
/* Whether this machine lets us open a dummy event on our child
 * (perf_event_paranoid <= 2). */
static bool kernel_sideband_allowed(void)
{
	int level = 3;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 3;
		fclose(f);
	}
	if (level > 2)
		fprintf(stderr, "perf_event_paranoid is %d: the sideband comes "
			"from /proc/PID/maps, the kernel's is not checked\n", level);
	return level <= 2;
}

static void mapped_while_traced(bool proc_sideband)
{
	char *argv[] = {(char *)test_program("dl_path"), NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "main", .stop = "exit",
		.output = data_path, .quiet_child = true,
		.proc_sideband = proc_sideband,
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	CHECK(st.stopped);
	if (proc_sideband)
		CHECK(!st.kernel_sideband);
	else if (kernel_sideband_allowed())
		CHECK(st.kernel_sideband); /* libm's MMAP2 came from the kernel */
	uint32_t type = 0;
	uint64_t pmu = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	uint64_t insns = 0, bad = 0;
	for (size_t i = 0; i < ngot; i++) {
		if (got[i].type == HWT_ELEM_RANGE)
			insns += got[i].u.range.insns;
		else if (got[i].type == HWT_ELEM_GAP || got[i].type == HWT_ELEM_ERROR)
			bad++;
	}
	CHECK(ngot < sizeof(got) / sizeof(got[0]));
	CHECK_U64(bad, 0);
	CHECK_U64(insns, st.insns);
}

static void test_code_mapped_while_traced_decodes(void)
{
	mapped_while_traced(false);
}

static void test_code_mapped_while_traced_decodes_proc_sideband(void)
{
	mapped_while_traced(true);
}

/* A start symbol in a library that is not mapped at exec (libc's printf)
 * is found once the loader has run; --max ends the trace after exactly
 * that many instructions. */
static void test_library_start_and_instruction_limit(void)
{
	char *argv[] = {(char *)prog, "2", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "printf",
		.max_insns = 500, .output = data_path, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	CHECK_U64(st.insns, 500);
	CHECK(!st.stopped && !st.exited);
	CHECK(WIFEXITED(st.exit_status) && WEXITSTATUS(st.exit_status) == 0);
	uint32_t type = 0;
	uint64_t pmu = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	uint64_t insns = 0, bad = 0;
	for (size_t i = 0; i < ngot; i++) {
		if (got[i].type == HWT_ELEM_RANGE)
			insns += got[i].u.range.insns;
		else if (got[i].type == HWT_ELEM_GAP || got[i].type == HWT_ELEM_ERROR)
			bad++;
	}
	CHECK_U64(insns, 500);
	CHECK_U64(bad, 0);
	CHECK(ngot > 0 && got[0].type == HWT_ELEM_TRACE_ON);
	CHECK(ngot > 0 && got[ngot - 1].type == HWT_ELEM_TRACE_OFF);
}

/* A signal handler entered while stepping: one `interrupt` branch into
 * sig_handler (its address from the symbol table), the interrupted
 * instruction not counted before it, and rt_sigreturn's `syscall` branch
 * back to exactly that instruction. Counts agree, no gap. */
static void test_signal_handler_is_an_interrupt(void)
{
	const char *sp = test_program("sig_path");
	char *argv[] = {(char *)sp, NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "main", .stop = "exit",
		.output = data_path, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	uint32_t type = 0;
	uint64_t pmu = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	uint64_t handler = test_elf_sym(sp, "sig_handler");
	uint64_t main_sym = test_elf_sym(sp, "main");
	CHECK(handler && main_sym);
	/* main's run-time address is where tracing started */
	uint64_t base = st.start_addr - main_sym;
	uint64_t insns = 0, bad = 0, interrupts = 0, back = 0, at = 0;
	for (size_t i = 0; i < ngot; i++) {
		const struct hwt_elem *e = &got[i];
		if (e->type == HWT_ELEM_RANGE)
			insns += e->u.range.insns;
		else if (e->type == HWT_ELEM_GAP || e->type == HWT_ELEM_ERROR)
			bad++;
		if (e->type != HWT_ELEM_BRANCH)
			continue;
		if (e->u.branch.kind == HWT_BRANCH_INTERRUPT) {
			interrupts++;
			at = e->u.branch.from;
			CHECK_U64(e->u.branch.to, base + handler);
			/* the range before it stops short of the interrupted
			 * instruction */
			CHECK(i > 0 && got[i - 1].type == HWT_ELEM_RANGE &&
			      got[i - 1].u.range.end == at);
		} else if (at && e->u.branch.kind == HWT_BRANCH_SYSCALL &&
			   e->u.branch.to == at) {
			back++;
		}
	}
	CHECK_U64(interrupts, 1);
	CHECK_U64(back, 1);
	CHECK_U64(bad, 0);
	CHECK_U64(insns, st.insns);
}

/* perf's address filter syntax: 'filter kp_leaf @ known_path' traces the
 * first call of kp_leaf until it returns: an odd call, so add, test, jnz
 * (taken) and ret, 4 instructions and 2 branches, ending at the return
 * address kp_after_call. And 'filter fib' through a recursion: fib(12)
 * calls itself 2 * fib(13) - 2 = 464 times, all inside the traced call. */
static void test_filter_traces_one_call(void)
{
	char *argv[] = {(char *)prog, "5", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .output = data_path,
		.filter = "filter kp_leaf @ known_path", .quiet_child = true,
	};
	struct hwt_swb_stats st;
	if (!record_ok(&o, &st))
		return;
	CHECK_U64(st.insns, 4);
	CHECK_U64(st.branches, 2);
	CHECK(st.stopped);
	uint32_t type = 0;
	uint64_t pmu = 0;
	prog_map.addr = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	CHECK_INT(load_syms(prog, capture_base()), 0);
	CHECK_INT(ngot, 6);
	if (ngot == 6) {
		CHECK_U64(got[0].u.trace.at, k.leaf);
		CHECK_U64(got[1].u.range.start, k.leaf);
		CHECK_U64(got[1].u.range.end, k.leaf_fall);
		CHECK_U64(got[1].u.range.insns, 3);
		CHECK_INT(got[2].u.branch.kind, HWT_BRANCH_COND);
		CHECK_U64(got[3].u.range.insns, 1);
		CHECK_INT(got[4].u.branch.kind, HWT_BRANCH_RETURN);
		CHECK_U64(got[4].u.branch.to, k.after_call);
		CHECK_INT(got[5].type, HWT_ELEM_TRACE_OFF);
		CHECK_U64(got[5].u.trace.at, k.after_call);
	}

	const char *demo = test_program("swb_demo");
	char *dargv[] = {(char *)demo, "10", NULL};
	o.argv = dargv;
	o.filter = "filter fib";
	if (!record_ok(&o, &st))
		return;
	CHECK(st.stopped);
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	uint64_t fib = 0, calls = 0;
	for (size_t i = 0; i < ngot; i++)
		if (got[i].type == HWT_ELEM_TRACE_ON)
			fib = got[i].u.trace.at;
	for (size_t i = 0; i < ngot; i++)
		if (got[i].type == HWT_ELEM_BRANCH &&
		    got[i].u.branch.kind == HWT_BRANCH_CALL &&
		    got[i].u.branch.to == fib)
			calls++;
	CHECK_U64(fib, st.start_addr);
	CHECK_U64(calls, 464);

	o.filter = "filter fib/16";
	CHECK_INT(hwt_swb_record(&o, NULL), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "not supported by sw_branch");
	o.filter = "filter fib";
	o.start = "main";
	CHECK_INT(hwt_swb_record(&o, NULL), HWT_ERR_CONFIG);
}

/* Threads the program starts while it is stepped are traced too, each in
 * a stream of its own: threads_path's two threads call work() once each,
 * main calls it never; every thread's instructions decode, no gap. */
static void test_threads_are_traced_in_streams_of_their_own(void)
{
	static char real[4096];
	const char *tp = test_program("threads_path");
	char *argv[] = {(char *)tp, NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "main", .stop = "exit",
		.output = data_path, .quiet_child = true,
	};
	struct hwt_swb_stats st;
	uint64_t vaddr = 0, off = 0, size = 0;
	int err = hwt_swb_record(&o, &st);
	CHECK_INT(err, 0);
	if (err) {
		fprintf(stderr, "%s\n", hwt_errmsg());
		return;
	}
	CHECK(st.stopped);
	CHECK(realpath(tp, real) != NULL);
	map_of = real;
	prog_map.addr = 0;
	uint32_t type = 0;
	uint64_t pmu = 0;
	CHECK_INT(decode_capture(data_path, &type, &pmu), 0);
	map_of = prog_real;
	CHECK_INT(test_elf_text(tp, &vaddr, &off, &size), 0);
	uint64_t work = prog_map.addr - prog_map.pgoff + off - vaddr +
			test_elf_sym(tp, "work");
	int32_t tids[8];
	uint64_t calls[8] = {0}, insns = 0, bad = 0;
	size_t ntids = 0;
	for (size_t i = 0; i < ngot; i++) {
		const struct hwt_elem *e = &got[i];
		size_t t;
		for (t = 0; t < ntids && tids[t] != e->tid; t++)
			;
		if (t == ntids && ntids < 8)
			tids[ntids++] = e->tid;
		if (e->type == HWT_ELEM_RANGE)
			insns += e->u.range.insns;
		else if (e->type == HWT_ELEM_GAP || e->type == HWT_ELEM_ERROR)
			bad++;
		else if (e->type == HWT_ELEM_BRANCH && e->u.branch.to == work &&
			 e->u.branch.kind == HWT_BRANCH_CALL && t < 8)
			calls[t]++;
	}
	CHECK_INT(ntids, 3);
	CHECK_INT(tids[0], st.pid);
	CHECK_U64(calls[0], 0);
	CHECK_U64(calls[1], 1);
	CHECK_U64(calls[2], 1);
	CHECK_U64(bad, 0);
	CHECK_U64(insns, st.insns);
}

static void test_unknown_symbol_is_named(void)
{
	char *argv[] = {(char *)prog, "1", NULL};
	struct hwt_swb_opts o = {
		.size = sizeof(o), .argv = argv, .start = "no_such_function",
		.output = data_path, .quiet_child = true,
	};
	/* What was at the output path (an earlier test's capture) stays. */
	struct stat before, after;
	CHECK_INT(stat(data_path, &before), 0);
	CHECK_INT(hwt_swb_record(&o, NULL), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "symbol 'no_such_function'");
	CHECK_INT(stat(data_path, &after), 0);
	CHECK(after.st_ino == before.st_ino && after.st_size == before.st_size &&
	      after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
	      after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);

	char *missing[] = {"/nonexistent/program", NULL};
	o.argv = missing;
	o.start = NULL;
	CHECK_INT(hwt_swb_record(&o, NULL), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "cannot run /nonexistent/program");
}

int main(void)
{
	prog = strdup(test_program("known_path")); /* its buffer is reused */
	if (!realpath(prog, prog_real))
		fprintf(stderr, "realpath %s: %s\n", prog, strerror(errno));
	int fd = mkstemp(data_path);
	if (fd >= 0)
		close(fd);
	RUN(test_traced_path_is_the_known_path);
	RUN(test_main_to_exit_through_libc_decodes_without_gaps);
	RUN(test_code_mapped_while_traced_decodes);
	RUN(test_code_mapped_while_traced_decodes_proc_sideband);
	RUN(test_library_start_and_instruction_limit);
	RUN(test_signal_handler_is_an_interrupt);
	RUN(test_filter_traces_one_call);
	RUN(test_threads_are_traced_in_streams_of_their_own);
	RUN(test_unknown_symbol_is_named);
	unlink(data_path);
	return hwt_test_summary();
}
