/* The part of ntrace_flow built without the C extension: 32-bit
 * instructions only (a loop, a call, returns through ra). */
__attribute__((noinline)) static int nc_sq(int x) { return x * x; }

int nc_sum(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += (v[i] & 1) ? nc_sq(v[i]) : v[i];
	return s;
}

int nc_pick(int k)
{
	return k > 2 ? nc_sq(k) : k;
}
