/* C++ names through libstdc++'s demangler, found at run time so that C
 * programs linking libhwtrace do not pull in the C++ runtime. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "hwtrace/symbols.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn find_demangler(void)
{
	static cxa_demangle_fn fn;
	static int looked;
	if (__atomic_load_n(&looked, __ATOMIC_ACQUIRE))
		return fn;
	void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!f) {
		void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (lib)
			f = dlsym(lib, "__cxa_demangle");
	}
	fn = (cxa_demangle_fn)f;
	__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	return fn;
}

char *hwt_sym_demangle(const char *name)
{
	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	cxa_demangle_fn fn = find_demangler();
	if (!fn)
		return NULL;
	int status = 0;
	char *out = fn(name, NULL, NULL, &status);
	if (status) {
		free(out);
		return NULL;
	}
	return out;
}

/* perf shows C++ functions without their parameter lists
 * ("ns::Box<int>::grow", not "ns::Box<int>::grow(int)"): cut at the
 * first '(' outside template arguments that is not "operator()". */
char *sym_demangle_short(const char *name)
{
	char *full = hwt_sym_demangle(name);
	if (!full)
		return NULL;
	int depth = 0;
	for (char *p = full; *p; p++) {
		if (!strncmp(p, "operator", 8)) {
			/* operator<, operator<<, operator(), operator->... */
			p += 8;
			if (!strncmp(p, "()", 2))
				p += 1;
			else
				while (*p && strchr("<>=!+-*/%&|^~[]", *p) && p[1] != '(')
					p++;
			continue;
		}
		if (*p == '<')
			depth++;
		else if (*p == '>' && depth)
			depth--;
		else if (*p == '(' && !depth && p != full) {
			if (!strncmp(p, "(anonymous namespace)", 21)) {
				p += 20;
				continue;
			}
			*p = 0;
			break;
		}
	}
	return full;
}

const char *sym_entry_name(struct hwt_sym_ctx *ctx, struct sym_entry *e)
{
	if (e->shown || ctx->opts->no_demangle || strncmp(e->name, "_Z", 2)) {
		e->shown = true;
		return e->name;
	}
	e->shown = true;
	size_t len = strlen(e->name);
	bool plt = len > 4 && !strcmp(e->name + len - 4, "@plt");
	char raw[1024];
	snprintf(raw, sizeof(raw), "%.*s", (int)(plt ? len - 4 : len), e->name);
	char *dm = sym_demangle_short(raw);
	if (!dm)
		return e->name;
	char shown[2048];
	snprintf(shown, sizeof(shown), "%s%s", dm, plt ? "@plt" : "");
	free(dm);
	const char *in = str_pool_intern(ctx->pool, shown);
	if (in)
		e->name = in;
	return e->name;
}
