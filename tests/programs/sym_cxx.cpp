// C++ names for the symbol tests, compiled by the tests: a namespace, a
// class template instantiated twice, an overloaded function, and a
// shared library (argv[1]) loaded with dlopen whose function is called.
#include <dlfcn.h>
#include <cstdio>
#include <cstring>

namespace geo {
template <typename T> struct Box {
	T v;
	__attribute__((noinline)) T grow(T by) { v += by; return v; }
};

__attribute__((noinline)) int area(int w, int h) { return w * h; }
__attribute__((noinline)) double area(double r) { return 3.0 * r * r; }
} // namespace geo

extern "C" __attribute__((noinline)) void cxx_done(int v)
{
	__asm__ volatile("" : : "r"(v));
}

extern "C" __attribute__((noinline)) int cxx_run(const char *lib)
{
	geo::Box<int> bi{1};
	geo::Box<double> bd{1.0};
	int v = 0;
	for (int i = 0; i < 3; i++)
		v += bi.grow(i) + geo::area(i, 2);
	v += (int)bd.grow(0.5) + (int)geo::area(1.5) + (int)strlen(lib);
	void *h = dlopen(lib, RTLD_NOW);
	if (h) {
		int (*fn)(int) = (int (*)(int))dlsym(h, "dl_twice");
		if (fn)
			v += fn(v) + fn(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	int v = cxx_run(argc > 1 ? argv[1] : "");
	std::printf("%d\n", v);
	cxx_done(v);
	return 0;
}
