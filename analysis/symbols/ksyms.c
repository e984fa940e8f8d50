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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static const char *skip_space(const char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/* The next word after spaces at @p, at most @cap - 1 bytes of it into
 * @out (a longer word's rest is the next word, as sscanf's %Ns reads
 * it); where the word stopped, or NULL when there is none. */
static const char *word(const char *p, char *out, size_t cap)
{
	p = skip_space(p);
	size_t n = 0;
	while (*p && !is_space(*p) && n + 1 < cap)
		out[n++] = *p++;
	out[n] = '\0';
	return n ? p : NULL;
}

/* One kallsyms line's fields after its address, as sscanf(" %c %511s
 * %255s") read them before (a hand parser: the kernel's table has some
 * 200,000 lines, and sscanf was most of its reading): 1 for a code
 * symbol (text, global or local, or weak), its type, name and module (if
 * any) read; 0 for a symbol of another type (its name not copied); -1
 * for a line without a type and a name. */
static int kallsyms_fields(const char *p, char *type, char *name,
			   char *module)
{
	p = skip_space(p);
	if (!*p)
		return -1;
	*type = *p++;
	bool code = *type == 't' || *type == 'T' || *type == 'w' ||
		    *type == 'W';
	if (!code)
		return *skip_space(p) ? 0 : -1;
	p = word(p, name, 512);
	if (!p)
		return -1;
	word(p, module, 256);
	return 1;
}

/* The hex number at the start of @line (after spaces, with an optional
 * 0x, as strtoull reads kallsyms' addresses); *@end is where it
 * stopped, @line when there was none. */
static uint64_t hex_at(const char *line, const char **end)
{
	const char *p = skip_space(line), *digits = p;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		digits = p + 2;
	uint64_t v = 0;
	const char *q = digits;
	for (;; q++) {
		unsigned d;
		if (*q >= '0' && *q <= '9')
			d = (unsigned)(*q - '0');
		else if ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'f')
			d = (unsigned)((*q | 0x20) - 'a' + 10);
		else
			break;
		v = v << 4 | d;
	}
	if (q == digits) /* "0x" and no digit: the 0, as strtoull reads it */
		q = digits != p ? p + 1 : line;
	*end = q;
	return v;
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
		const char *end;
		char type, name[512], module[256] = "";
		uint64_t addr = hex_at(line, &end);
		int got = end == line ? -1
				      : kallsyms_fields(end, &type, name, module);
		if (got < 0) {
			(*bad)++;
			continue;
		}
		if (!got)
			continue; /* not code */
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
