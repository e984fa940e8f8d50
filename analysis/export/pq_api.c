/* Loading libpq on first use (pq_api.h). */
#ifdef HWT_HAVE_LIBPQ
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/export/pq_api.h"
#include "hwtrace/error.h"

/* The soname Debian's libpq5 installs, which libpq-dev builds against. */
#define PQ_SONAME "libpq.so.5"

static struct pq_api api;
static const char *failure; /* what went wrong, when loading failed */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *lib = dlopen(PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		failure = dlerror();
		return;
	}
	/* Each function by its own name, into the field of that name. */
#define LOAD(f) (*(void **)&api.f = dlsym(lib, #f)) != NULL
	bool ok = LOAD(PQconnectdb) && LOAD(PQstatus) && LOAD(PQerrorMessage) &&
		  LOAD(PQdb) && LOAD(PQfinish) && LOAD(PQsetNoticeProcessor) &&
		  LOAD(PQexec) && LOAD(PQresultStatus) && LOAD(PQntuples) &&
		  LOAD(PQgetvalue) && LOAD(PQclear) && LOAD(PQputCopyData) &&
		  LOAD(PQputCopyEnd) && LOAD(PQgetResult);
#undef LOAD
	if (!ok)
		failure = "a function is missing from it";
}

int hwt_pq_api(const struct pq_api **out)
{
	pthread_once(&once, load);
	*out = failure ? NULL : &api;
	return failure ? hwt_error(HWT_ERR_NOSUP, "postgresql export: cannot "
				   "load %s (%s): install it (Debian: libpq5)",
				   PQ_SONAME, failure)
		       : 0;
}
#endif
