/* decode --format jsonl for the listings the library writes as text
 * lines (--packets, --branch-profile): a stream that turns each line into
 * one JSON object of the schema in docs/jsonl.md as it is written, so a
 * large listing is never held in memory. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_jsonl.h"
#include "hwtrace/text.h"

struct lines {
	FILE *out;
	enum cli_jsonl_listing kind;
	char *line;
	size_t len, cap;
	int err;
};

static void put_string(FILE *out, const char *key, const char *s, size_t n)
{
	fprintf(out, ",\"%s\":", key);
	hwt_json_fwrite(out, s, n);
}

void cli_jsonl_header(FILE *out, const char *listing, const char *version)
{
	fprintf(out, "{\"type\":\"header\",\"version\":%d,\"listing\":\"%s\","
		"\"producer\":\"hwtrace %s\"}\n", CLI_JSONL_VERSION, listing,
		version);
}

/* "# AUXTRACE idx 0 cpu 0 tid 3174 offset 0x0 size 0x2fd0" */
static bool aux_buffer(FILE *out, const char *l)
{
	unsigned idx;
	int cpu, tid;
	unsigned long long off, size;

	if (sscanf(l, "# AUXTRACE idx %u cpu %d tid %d offset %llx size %llx",
		   &idx, &cpu, &tid, &off, &size) != 5)
		return false;
	fprintf(out, "{\"type\":\"aux_buffer\",\"idx\":%u", idx);
	if (cpu >= 0)
		fprintf(out, ",\"cpu\":%d", cpu);
	if (tid >= 0)
		fprintf(out, ",\"tid\":%d", tid);
	fprintf(out, ",\"offset\":%llu,\"size\":%llu}\n", off, size);
	return true;
}

/* Where each backend's listing puts the packet's byte offset: Intel PT
 * "%016x  packet", Intel BTS "  %08x: record", CoreSight "%u\tID:..". */
static bool packet_offset(const char *l, uint64_t *off)
{
	char *end;

	if (strlen(l) > 18 && !strncmp(l + 16, "  ", 2)) {
		*off = strtoull(l, &end, 16);
		return end == l + 16;
	}
	if (!strncmp(l, "  ", 2) && l[2] != ' ') {
		*off = strtoull(l + 2, &end, 16);
		return end > l + 2 && *end == ':';
	}
	if (l[0] >= '0' && l[0] <= '9') {
		*off = strtoull(l, &end, 10);
		return *end == '\t';
	}
	return false;
}

static void packet(FILE *out, const char *l)
{
	uint64_t off;

	if (aux_buffer(out, l))
		return;
	fputs("{\"type\":\"packet\"", out);
	if (packet_offset(l, &off))
		fprintf(out, ",\"offset\":%" PRIu64, off);
	put_string(out, "text", l, strlen(l));
	fputs("}\n", out);
}

/* Unknown names are left out, as everywhere in jsonl. */
static bool known_name(const char *s, size_t len)
{
	return !(len == 1 && *s == '?') &&
	       !(len == 9 && !strncmp(s, "[unknown]", 9));
}

/* "FROM->TO COUNT [FROM_NAME TO_NAME]": FROM and TO are 0xADDR or
 * FILE+0xOFFSET; the names ("sym+0xoff", "?" when unknown) are there when
 * symbols are on. */
static void branch_count(FILE *out, const char *l)
{
	const char *arrow = strstr(l, "->"), *sp = strchr(l, ' ');
	char *end;
	unsigned long long n;

	if (!arrow || !sp || sp < arrow) {
		fputs("{\"type\":\"note\"", out);
		put_string(out, "text", l, strlen(l));
		fputs("}\n", out);
		return;
	}
	n = strtoull(sp + 1, &end, 10);
	fputs("{\"type\":\"branch_count\"", out);
	put_string(out, "from", l, (size_t)(arrow - l));
	put_string(out, "to", arrow + 2, (size_t)(sp - arrow - 2));
	fprintf(out, ",\"count\":%llu", n);
	const char *names = *end == ' ' ? end + 1 : NULL;
	const char *last = names ? strrchr(names, ' ') : NULL;
	if (last) {
		if (known_name(names, (size_t)(last - names)))
			put_string(out, "from_sym", names, (size_t)(last - names));
		if (known_name(last + 1, strlen(last + 1)))
			put_string(out, "to_sym", last + 1, strlen(last + 1));
	}
	fputs("}\n", out);
}

static void line_out(struct lines *s)
{
	s->line[s->len] = 0;
	if (s->kind == CLI_JSONL_PACKETS)
		packet(s->out, s->line);
	else
		branch_count(s->out, s->line);
	s->len = 0;
}

static ssize_t lines_write(void *cookie, const char *buf, size_t size)
{
	struct lines *s = cookie;

	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n') {
			line_out(s);
			continue;
		}
		if (s->len + 1 >= s->cap) {
			size_t ncap = s->cap ? s->cap * 2 : 256;
			char *n = realloc(s->line, ncap);
			if (!n)
				return -1;
			s->line = n;
			s->cap = ncap;
		}
		s->line[s->len++] = buf[i];
	}
	return ferror(s->out) ? -1 : (ssize_t)size;
}

static int lines_close(void *cookie)
{
	struct lines *s = cookie;
	int err;

	if (s->len)
		line_out(s);
	err = ferror(s->out) ? -1 : 0;
	free(s->line);
	free(s);
	return err;
}

FILE *cli_jsonl_listing(FILE *out, enum cli_jsonl_listing kind)
{
	cookie_io_functions_t io = {.write = lines_write, .close = lines_close};
	struct lines *s = calloc(1, sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->out = out;
	s->kind = kind;
	f = fopencookie(s, "w", io);
	if (!f)
		free(s);
	return f;
}
