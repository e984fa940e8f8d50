/* Text symbol tables: the kernel's kallsyms ("ADDR TYPE NAME [MODULE]")
 * and perf's JIT maps, /tmp/perf-PID.map ("START SIZE NAME", hex). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

static int open_table(const char *path, FILE **f)
{
	return hwt_infile_fopen(path, NULL, 0, f);
}

int kallsyms_read(struct str_pool *pool, const char *path,
		  struct sym_table *out, size_t *bad, bool *hidden)
{
	FILE *f;
	int err = open_table(path, &f);
	if (err < 0)
		return err;
	char line[1024];
	size_t text = 0, zero = 0;
	*bad = 0;
	while (fgets(line, sizeof(line), f)) {
		char *end, type, name[512], module[256] = "";
		uint64_t addr = strtoull(line, &end, 16);
		if (end == line ||
		    sscanf(end, " %c %511s %255s", &type, name, module) < 2) {
			(*bad)++;
			continue;
		}
		/* Code only: text symbols, global or local, and weak ones. */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		text++;
		zero += addr == 0;
		struct sym_entry *e = sym_table_add(out, addr, 0,
						    str_pool_intern(pool, name));
		if (!e) {
			fclose(f);
			return hwt_error(HWT_ERR_NOMEM, "out of memory for %s", path);
		}
		e->module = module[0] == '[' ? str_pool_intern(pool, module) : NULL;
	}
	fclose(f);
	*hidden = text && zero == text;
	if (*hidden)
		out->n = 0;
	sym_table_finish(out);
	return 0;
}

int perf_map_read(struct str_pool *pool, const char *path,
		  struct sym_table *out, size_t *bad)
{
	FILE *f;
	int err = open_table(path, &f);
	if (err < 0)
		return err;
	char line[4096];
	*bad = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		uint64_t start = strtoull(p, &end, 16);
		if (end == p || (*end != ' ' && *end != '\t')) {
			(*bad)++;
			continue;
		}
		p = end;
		uint64_t size = strtoull(p, &end, 16);
		if (end == p || (*end != ' ' && *end != '\t') || !size ||
		    start + size < start) {
			(*bad)++;
			continue;
		}
		while (*end == ' ' || *end == '\t')
			end++;
		end[strcspn(end, "\r\n")] = 0;
		if (!*end) {
			(*bad)++;
			continue;
		}
		if (!sym_table_add(out, start, size, str_pool_intern(pool, end))) {
			fclose(f);
			return hwt_error(HWT_ERR_NOMEM, "out of memory for %s", path);
		}
	}
	fclose(f);
	sym_table_finish(out);
	return 0;
}
