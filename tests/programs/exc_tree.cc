// A C++ exception thrown through four frames (f1 -> f2 -> f3 -> f4, which
// throws) and caught in main: the call-stack tests check that the four
// frames end without returning. Built by the test with g++.
#include <cstdio>
#include <stdexcept>

static volatile int depth_reached;

extern "C" void __attribute__((noinline)) exc_done() { asm volatile(""); }

void __attribute__((noinline)) f4(int x)
{
	depth_reached = 4;
	if (x > 0)
		throw std::runtime_error("deep");
}

void __attribute__((noinline)) f3(int x) { f4(x); depth_reached += 0; }
void __attribute__((noinline)) f2(int x) { f3(x); depth_reached += 0; }
void __attribute__((noinline)) f1(int x) { f2(x); depth_reached += 0; }

int main()
{
	int caught = 0;
	try {
		f1(1);
	} catch (const std::runtime_error &) {
		caught = 1;
	}
	exc_done();
	std::printf("caught %d depth %d\n", caught, depth_reached);
	return 0;
}
