/* The branch-count profile: counts per from->to, most taken first, with
 * addresses shown as offsets in the file the image maps there (the file's
 * offset, not the mapping's: vaddr - section start + file offset). */
#include <unistd.h>

#include "harness.h"
#include "hwtrace/sample.h"

static void profile_counts_and_file_offsets(void)
{
	char path[] = "/tmp/hwt-prof-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	static uint8_t code[0x3000];
	CHECK(write(fd, code, sizeof(code)) == (ssize_t)sizeof(code));
	close(fd);

	struct hwt_image *image = hwt_image_new();
	/* 0x2000 bytes of the file from offset 0x1000 at 0x400000. */
	CHECK_INT(hwt_image_add_file(image, HWT_PID_ANY, 0x400000, 0x2000, path,
				     0x1000), 0);
	struct hwt_branch_profile *p = hwt_branch_profile_new();
	CHECK(p != NULL);
	struct hwt_branch_entry stack[] = {
		{0x400010, 0x400020, HWT_BRANCH_JUMP},
		{0x400030, 0x7fff0000, HWT_BRANCH_CALL},
		{0x400010, 0x400020, HWT_BRANCH_JUMP},
	};
	struct hwt_elem e;
	memset(&e, 0, sizeof(e));
	e.type = HWT_ELEM_SAMPLE;
	e.u.sample.branches = stack;
	e.u.sample.nbranches = 3;
	CHECK_INT(hwt_branch_profile_add_elem(p, &e), 0);
	memset(&e, 0, sizeof(e));
	e.type = HWT_ELEM_BRANCH;
	e.u.branch.from = 0x400010;
	e.u.branch.to = 0x400020;
	CHECK_INT(hwt_branch_profile_add_elem(p, &e), 0);
	e.type = HWT_ELEM_RANGE; /* not a branch: not counted */
	CHECK_INT(hwt_branch_profile_add_elem(p, &e), 0);
	CHECK_INT(hwt_branch_profile_size(p), 2);
	CHECK_U64(hwt_branch_profile_count(p, 0x400010, 0x400020), 3);
	CHECK_U64(hwt_branch_profile_count(p, 0x400030, 0x7fff0000), 1);
	CHECK_U64(hwt_branch_profile_count(p, 0x400020, 0x400010), 0);

	/* Many distinct branches: the table grows and keeps every count. */
	for (uint64_t i = 0; i < 5000; i++)
		for (uint64_t k = 0; k <= i % 3; k++)
			CHECK_INT(hwt_branch_profile_add(p, HWT_PID_ANY, 0x900000 + i,
							 0x900000 + 2 * i), 0);
	CHECK_INT(hwt_branch_profile_size(p), 5002);
	CHECK_U64(hwt_branch_profile_count(p, 0x900000 + 4999, 0x900000 + 9998), 2);

	hwt_branch_profile_free(p);
	p = hwt_branch_profile_new();
	hwt_branch_profile_add(p, HWT_PID_ANY, 0x400030, 0x7fff0000);
	for (int i = 0; i < 3; i++)
		hwt_branch_profile_add(p, HWT_PID_ANY, 0x400010, 0x400020);
	char buf[1024] = "";
	FILE *out = fmemopen(buf, sizeof(buf), "w");
	CHECK_INT(hwt_branch_profile_write(p, image, out), 0);
	fclose(out);
	char want[1024];
	snprintf(want, sizeof(want), "%s+0x1010->%s+0x1020 3\n%s+0x1030->0x7fff0000 1\n",
		 path, path, path);
	CHECK_STR(buf, want);
	hwt_branch_profile_free(p);
	hwt_branch_profile_free(NULL);
	hwt_image_free(image);
	unlink(path);
}

int main(void)
{
	RUN(profile_counts_and_file_offsets);
	return hwt_test_summary();
}
