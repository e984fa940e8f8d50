// A C++ program that knows its own call tree, for the call-stack corpus
// (tests/integration/test_stacks_match_program.sh builds it with g++ and
// clang++ at several optimisation levels). Exceptions thrown through
// three frames and caught in main, twice (with gcc's hot/cold splitting
// the catch runs in main.cold, and the second throw comes from main's hot
// part again), and one thrown through a frame whose cleanup is cold code.
// After tree_done() (where tracing stops) it prints "CALLER CALLEE COUNT"
// for each edge and "unwound F N" for the frames exceptions left.
#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))

static unsigned level1_calls, level2_calls, level3_calls, cold_frame_calls,
	thrower_calls, guards_run, caught;
static volatile int sink;

void NOINLINE level3(int x)
{
	level3_calls++;
	if (x >= 0)
		throw std::runtime_error("level3");
	sink++;
}

void NOINLINE level2(int x)
{
	level2_calls++;
	level3(x);
	sink++;
}

void NOINLINE level1(int x)
{
	level1_calls++;
	level2(x);
	sink++;
}

void NOINLINE thrower(int x)
{
	thrower_calls++;
	if (x >= 0)
		throw std::runtime_error("thrower");
}

// A destructor to run while the exception passes: the cleanup.
struct guard {
	~guard() { guards_run++; }
};

void NOINLINE cold_frame(int x)
{
	cold_frame_calls++;
	if (__builtin_expect(x > 0, 0)) {
		guard g;
		thrower(x);
		sink++;
	}
	sink++;
}

extern "C" void NOINLINE tree_done() { asm volatile("" ::: "memory"); }

int main()
{
	for (int i = 0; i < 2; i++) {
		try {
			level1(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
	}
	try {
		cold_frame(1);
	} catch (const std::runtime_error &) {
		caught++;
	}
	tree_done();
	std::printf("main level1 %u\nlevel1 level2 %u\nlevel2 level3 %u\n"
		    "main cold_frame %u\ncold_frame thrower %u\n"
		    "unwound level1 %u\nunwound level2 %u\nunwound level3 %u\n"
		    "unwound cold_frame %u\nunwound thrower %u\n"
		    "caught %u\n",
		    level1_calls, level2_calls, level3_calls, cold_frame_calls,
		    thrower_calls, level1_calls, level2_calls, level3_calls,
		    guards_run, thrower_calls, caught);
	return 0;
}
