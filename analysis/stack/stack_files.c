/* Several captures decoded one after the other into the same stacks
 * (hwt_stack_decode_files, hwtrace/stack.h): what `report FILE...` and
 * `export FILE...` run, each capture with its own symbols, all of one
 * clock when they go into one table. */
#include <stddef.h>

#include "hwtrace/error.h"
#include "hwtrace/report_request.h"
#include "hwtrace/stack.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

/* Capture @file's symbols in the place of the last capture's. */
static int restart_symbols(const struct hwt_stack_decode_files *run,
			   const char *file)
{
	struct hwt_sym_setup setup = *run->symbols;
	setup.capture = file;
	hwt_symbolizer_free(*run->sym);
	*run->sym = NULL;
	return hwt_symbolizer_start(&setup, run->sym_opts, NULL, run->sym);
}

/* Capture @i: its clock and symbols when it is not the first, the
 * begin hook, the decode. */
static int decode_one(const struct hwt_stack_decode_files *run, size_t i)
{
	const char *file = run->files[i];
	int err = 0;
	if (i && run->same_clock)
		err = hwt_report_clock_check(run->files[0], file);
	if (!err && i && run->sym)
		err = restart_symbols(run, file);
	if (!err && run->begin)
		err = run->begin(run->arg, i, file);
	if (err)
		return err;
	struct hwt_stack_decode sd = run->each;
	sd.file = file;
	if (run->sym)
		sd.sym = *run->sym;
	return hwt_stack_decode(&sd, &run->results[i]);
}

int hwt_stack_decode_files(const struct hwt_stack_decode_files *run)
{
	if (!run || run->size < sizeof(*run) || !run->files || !run->nfiles ||
	    !run->results || (run->sym && (!run->symbols || !run->sym_opts)))
		return hwt_error(HWT_ERR_INVAL, "hwt_stack_decode_files: a NULL "
				 "or short run, no files or results, or a "
				 "symbolizer without its setup");
	int err = 0;
	for (size_t i = 0; i < run->nfiles && !err; i++) {
		run->results[i] = (struct hwt_stack_decode_result){.merged = false};
		err = decode_one(run, i);
		int end = run->end ? run->end(run->arg, i, err) : 0;
		if (!err)
			err = end;
	}
	return err;
}
