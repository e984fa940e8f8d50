/* A capture's summary printed with what a symbolizer finds of each
 * binary: the summary's printer is the core's and cannot call the
 * symbolizer, so it asks through a callback this file answers. */
#include "hwtrace/pd_summary.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

static int dso_info(void *sym, const char *path, struct hwt_sym_dso_info *info)
{
	return hwt_symbolizer_dso_info(sym, path, info);
}

int hwt_pd_summary_print_symbols(FILE *out, const struct hwt_pd_reader *r,
				 const struct hwt_pd_summary *s,
				 const char *symfs,
				 void (*warn)(void *arg, const char *message),
				 void *warn_arg)
{
	struct hwt_symbolizer *sym = NULL;
	struct hwt_sym_opts so = {.size = sizeof(so), .symfs = symfs,
				  .warn = warn, .warn_arg = warn_arg};
	struct hwt_pd_summary_print_opts po = {.size = sizeof(po),
					       .symfs = symfs};

	if (hwt_symbolizer_new(&so, &sym) == 0) {
		po.dso_info = dso_info;
		po.dso_arg = sym;
	}
	int err = hwt_pd_summary_print(out, r, s, &po);
	hwt_symbolizer_free(sym);
	return err;
}
