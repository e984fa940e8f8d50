/* hwt_decode_file finds the traced code the way perf does, from the
 * capture's MMAP2 records: under --symfs, in a --buildid-dir cache by the
 * build id in MMAP2 or in the header's build id feature; the kernel's from
 * a --kcore copy or a --vmlinux moved to where the kernel's mapping was. The decoded
 * instruction addresses then equal ptxed's expectation for the stream.
 * Code that cannot be found gives gaps, and only the first names the
 * missing file. */
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "test_pt_capture.h"

#define PTT HWT_TESTDATA "/ptt/expected"
#define ORG 0x100000 /* psb-tnt-psb.ptt: org 0x100000 */
#define MISSING "/no/such/dir/psb-tnt-psb"

static const uint8_t bid[20] = {0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67,
				0x89, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba,
				0xdc, 0xfe, 0x11, 0x22, 0x33, 0x44};

struct got {
	char addrs[2048];
	int gaps, named;
	char detail[256];
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	size_t len = strlen(g->addrs);
	if (e->type == HWT_ELEM_RANGE)
		snprintf(g->addrs + len, sizeof(g->addrs) - len, "%llx ",
			 (unsigned long long)e->u.range.start);
	if (e->type == HWT_ELEM_GAP && e->u.gap.reason == HWT_GAP_NO_IMAGE) {
		g->gaps++;
		if (e->u.gap.detail) {
			g->named++;
			snprintf(g->detail, sizeof(g->detail), "%s", e->u.gap.detail);
		}
	}
	return 0;
}

/* ptxed's addresses for psb-tnt-psb, as "100000 100003 " */
static void expected_addrs(char *buf, size_t size)
{
	FILE *f = fopen(PTT "/psb-tnt-psb-ptxed.exp", "r");
	char line[128];
	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (strspn(line, "0123456789abcdef") == 16) {
			size_t len = strlen(buf);
			snprintf(buf + len, size - len, "%llx ",
				 strtoull(line, NULL, 16));
		}
	}
	if (f)
		fclose(f);
}

static uint8_t trace[4096];
static size_t trace_size;
static char tmp[] = "/tmp/hwt-pt-lookup-XXXXXX";

static void load_trace(void)
{
	FILE *f = fopen(PTT "/psb-tnt-psb.pt", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	/* Two PSBs (psb-tnt-psb-ptdump.exp), so two chances to name a
	 * missing file. */
	trace_size = fread(trace, 1, sizeof(trace), f);
	fclose(f);
}

static int decode(const char *data, const struct hwt_image_lookup *lookup,
		  struct got *g)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .disasm = true};
	if (lookup)
		opts.lookup = *lookup;
	opts.lookup.size = sizeof(opts.lookup);
	struct hwt_elem_sink sink = {collect, g};
	memset(g, 0, sizeof(*g));
	return hwt_decode_file(data, &opts, &sink);
}

static void mkdirs(const char *path)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0700);
			*p = '/';
		}
	}
	mkdir(buf, 0700);
}

static void write_capture_named(const char *data, const char *name,
				bool mmap_bid, bool header_bid)
{
	struct stat st;
	CHECK_INT(stat(PTT "/psb-tnt-psb.bin", &st), 0);
	struct pt_capture c = {
		.code_path = name,
		.code_addr = ORG,
		.code_size = (uint64_t)st.st_size,
		.build_id = mmap_bid ? bid : NULL,
		.build_id_size = mmap_bid ? sizeof(bid) : 0,
		.header_build_id = header_bid ? bid : NULL,
		.trace = trace,
		.trace_size = trace_size,
	};
	CHECK_INT(pt_capture_write(data, &c), 0);
}

static void write_capture(const char *data, bool mmap_bid, bool header_bid)
{
	write_capture_named(data, MISSING, mmap_bid, header_bid);
}

/* An ELF file whose one executable PT_LOAD holds the stream's code at
 * @vaddr. */
static void write_elf(const char *path, uint64_t vaddr)
{
	uint8_t code[64];
	FILE *f = fopen(PTT "/psb-tnt-psb.bin", "rb");
	size_t n = f ? fread(code, 1, sizeof(code), f) : 0;
	if (f)
		fclose(f);
	Elf64_Ehdr eh = {
		.e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			    ELFDATA2LSB, EV_CURRENT},
		.e_type = ET_CORE,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD,
		.p_flags = PF_R | PF_X,
		.p_offset = 0x1000,
		.p_vaddr = vaddr,
		.p_filesz = n,
		.p_memsz = n,
	};
	static uint8_t file[0x1000 + 64];
	memset(file, 0, sizeof(file));
	memcpy(file, &eh, sizeof(eh));
	memcpy(file + sizeof(eh), &ph, sizeof(ph));
	memcpy(file + 0x1000, code, n);
	f = fopen(path, "wb");
	CHECK(f && fwrite(file, 1, 0x1000 + n, f) == 0x1000 + n);
	if (f)
		fclose(f);
}

static void kernel_code_from_kcore_and_vmlinux(void)
{
	char data[256], dir[256], path[300], want[2048];
	struct got g;
	expected_addrs(want, sizeof(want));
	snprintf(data, sizeof(data), "%s/kernel.data", tmp);
	write_capture_named(data, "[kernel.kallsyms]_text", false, false);

	/* No kernel image: a gap naming the kernel. */
	CHECK_INT(decode(data, NULL, &g), 0);
	CHECK_STR(g.addrs, "");
	CHECK_CONTAINS(g.detail, "[kernel.kallsyms]_text not found");

	/* kcore: its segments at their addresses. */
	snprintf(dir, sizeof(dir), "%s/kcore-dir", tmp);
	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/kcore", dir);
	write_elf(path, ORG);
	struct hwt_decode_opts opts = {.size = sizeof(opts), .disasm = true,
				       .kcore = dir};
	opts.lookup.size = sizeof(opts.lookup);
	struct hwt_elem_sink sink = {collect, &g};
	memset(&g, 0, sizeof(g));
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	CHECK_STR(g.addrs, want);
	CHECK_INT(g.gaps, 0);

	/* vmlinux linked at 0xffffffff81000000, run (KASLR) at ORG. */
	snprintf(path, sizeof(path), "%s/vmlinux", tmp);
	write_elf(path, 0xffffffff81000000ull);
	struct hwt_image_lookup lookup = {.vmlinux = path};
	CHECK_INT(decode(data, &lookup, &g), 0);
	CHECK_STR(g.addrs, want);
	CHECK_INT(g.gaps, 0);

	/* A kcore that is not ELF is an error naming it. */
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("not elf", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/kcore", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("not elf", f);
		fclose(f);
	}
	memset(&g, 0, sizeof(g));
	CHECK_INT(hwt_decode_file(data, &opts, &sink), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "--kcore");
	CHECK_CONTAINS(hwt_errmsg(), path);
}

static void code_found_under_symfs(void)
{
	char data[256], dir[256], link[512], want[2048];
	struct got g;
	snprintf(data, sizeof(data), "%s/symfs.data", tmp);
	write_capture(data, false, false);
	snprintf(dir, sizeof(dir), "%s/symfs/no/such/dir", tmp);
	mkdirs(dir);
	snprintf(link, sizeof(link), "%s/psb-tnt-psb", dir);
	CHECK_INT(symlink(PTT "/psb-tnt-psb.bin", link), 0);
	snprintf(dir, sizeof(dir), "%s/symfs", tmp);
	struct hwt_image_lookup lookup = {.symfs = dir};
	CHECK_INT(decode(data, &lookup, &g), 0);
	expected_addrs(want, sizeof(want));
	CHECK_STR(want, "100000 100003 ");
	CHECK_STR(g.addrs, want);
	CHECK_INT(g.gaps, 0);
}

static void code_found_by_build_id(void)
{
	char data[256], dir[512], link[600], want[2048];
	struct got g;
	/* perf's cache layout: DIR/.build-id/ab/cdef...44/elf */
	snprintf(dir, sizeof(dir),
		 "%s/cache/.build-id/ab/cdef01234567891032547698badcfe11223344",
		 tmp);
	mkdirs(dir);
	snprintf(link, sizeof(link), "%s/elf", dir);
	CHECK_INT(symlink(PTT "/psb-tnt-psb.bin", link), 0);
	snprintf(dir, sizeof(dir), "%s/cache", tmp);
	struct hwt_image_lookup lookup = {.buildid_dir = dir};
	expected_addrs(want, sizeof(want));

	snprintf(data, sizeof(data), "%s/mmap-bid.data", tmp);
	write_capture(data, true, false);
	CHECK_INT(decode(data, &lookup, &g), 0);
	CHECK_STR(g.addrs, want);
	CHECK_INT(g.gaps, 0);

	snprintf(data, sizeof(data), "%s/header-bid.data", tmp);
	write_capture(data, false, true);
	CHECK_INT(decode(data, &lookup, &g), 0);
	CHECK_STR(g.addrs, want);
	CHECK_INT(g.gaps, 0);
}

static void missing_code_named_once(void)
{
	char data[256];
	struct got g;
	snprintf(data, sizeof(data), "%s/missing.data", tmp);
	write_capture(data, false, false);
	CHECK_INT(decode(data, NULL, &g), 0);
	CHECK_STR(g.addrs, "");
	CHECK_INT(g.gaps, 2); /* one per PSB */
	CHECK_INT(g.named, 1);
	CHECK_CONTAINS(g.detail, MISSING " not found");
	CHECK_CONTAINS(g.detail, "0x100000");
}

int main(void)
{
	CHECK(mkdtemp(tmp) != NULL);
	load_trace();
	RUN(code_found_under_symfs);
	RUN(code_found_by_build_id);
	RUN(missing_code_named_once);
	RUN(kernel_code_from_kcore_and_vmlinux);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return hwt_test_summary();
}
