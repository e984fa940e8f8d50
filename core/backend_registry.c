/* The table of backends: the compiled-in ones, then registered ones. The
 * core knows the compiled-in backends only by these symbols, never by their
 * headers. */
#include <string.h>

#include "hwtrace/backend.h"
#include "core/decode/decode_isolate.h"
#include "hwtrace/error.h"

extern const struct hwt_backend hwt_backend_intel_pt;
extern const struct hwt_backend hwt_backend_intel_bts;
extern const struct hwt_backend hwt_backend_cs_etm;
extern const struct hwt_backend hwt_backend_sw_branch;
extern const struct hwt_backend hwt_backend_riscv_ntrace;

#define MAX_BACKENDS 32

static const struct hwt_backend *table[MAX_BACKENDS] = {
	&hwt_backend_intel_pt,
	&hwt_backend_intel_bts,
	&hwt_backend_cs_etm,
	&hwt_backend_sw_branch,
	&hwt_backend_riscv_ntrace,
};
static size_t table_count = 5;

int hwt_backend_register(const struct hwt_backend *backend)
{
	if (!backend || !backend->name)
		return hwt_error(HWT_ERR_INVAL, "a backend needs a name");
	if (hwt_backend_find(backend->name))
		return hwt_error(HWT_ERR_BUSY, "a backend named %s is already registered",
				 backend->name);
	if (table_count == MAX_BACKENDS)
		return hwt_error(HWT_ERR_NOMEM, "too many backends (at most %d)",
				 MAX_BACKENDS);
	table[table_count++] = backend;
	return 0;
}

const struct hwt_backend *hwt_backend_find(const char *name)
{
	for (size_t i = 0; i < table_count; i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	for (size_t i = 0; i < table_count; i++)
		if (table[i]->pmu_name && !strcmp(table[i]->pmu_name, name))
			return table[i];
	return NULL;
}

const struct hwt_backend *hwt_backend_for_auxtrace(enum hwt_auxtrace_type type)
{
	for (size_t i = 0; i < table_count; i++)
		if (table[i]->auxtrace_type == type)
			return table[i];
	return NULL;
}

const struct hwt_backend *hwt_backend_at(size_t index)
{
	return index < table_count ? table[index] : NULL;
}

/* OpenCSD 1.3.3 reads wild memory on some crafted ETMv4/ETE streams
 * (docs/coresight.md, "Untrusted trace"): its decoder runs isolated
 * unless the caller says otherwise. */
bool hwt_backend_isolated_by_default(const struct hwt_backend *b)
{
	return b->decoder && b->decoder == hwt_backend_cs_etm.decoder;
}
