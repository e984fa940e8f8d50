/* A freestanding riscv64 program whose flow has every kind of transfer
 * an N-Trace encoder reports or infers: conditional branches taken and
 * not, direct calls, a recursion deeper than an 8-entry return stack,
 * calls through function pointers, a switch through a jump table, and
 * code with and without the C extension (ntrace_flow_nc.c is built
 * without it). No C library: _start calls main, then exits by ecall,
 * so the whole run is this file's code (tests/tools/ntrace_encode.py
 * turns qemu-riscv64's list of its PCs into N-Trace). */
int nc_sum(const int *v, int n);
int nc_pick(int k);

static volatile int sink;

__attribute__((noinline)) static int depth(int n)
{
	if (n == 0)
		return 1;
	int r = depth(n - 1);
	sink = r; /* work after the call: no tail recursion */
	return r + (n & 1);
}

__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) static int plus3(int x) { return x + 3; }

__attribute__((noinline)) static int classify(int k)
{
	switch (k) {
	case 0: return 11;
	case 1: return twice(k);
	case 2: return 23;
	case 3: return plus3(k);
	case 4: return 47;
	case 5: return 5 * k;
	case 6: return 61;
	default: return -1;
	}
}

int main(void)
{
	int (*const ops[2])(int) = {twice, plus3};
	int v[16], acc = 0;

	for (int i = 0; i < 16; i++)
		v[i] = (i * 7) & 15;
	for (int round = 0; round < 6; round++) {
		acc += depth(10 + round);
		for (int i = 0; i < 16; i++)
			if (v[i] > 8)
				acc += ops[(i + round) & 1](v[i]);
		acc += classify(round + (acc & 1));
		acc += nc_sum(v, 16) + nc_pick(round);
	}
	sink = acc;
	return acc & 0x7f;
}

void _start(void) __attribute__((noreturn, naked, section(".text.start")));
void _start(void)
{
	__asm__ volatile(".option push\n.option norelax\n"
			 "la gp, __global_pointer$\n.option pop\n"
			 "call main\n"
			 "li a7, 93\n"
			 "ecall\n");
}
