/* What the writer records about the machine when the caller does not say:
 * the values perf itself would put in the feature sections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/perfdata/perfdata_format.h"
#include "hwtrace/os.h"
#include "hwtrace/version.h"

void pd_buf_put(struct pd_buf *b, const void *data, size_t len)
{
	if (b->oom || len == 0)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		uint8_t *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (data)
		memcpy(b->p + b->len, data, len);
	else
		memset(b->p + b->len, 0, len);
	b->len += len;
}

void pd_buf_put_u32(struct pd_buf *b, uint32_t v)
{
	pd_buf_put(b, &v, sizeof(v));
}

void pd_buf_put_u64(struct pd_buf *b, uint64_t v)
{
	pd_buf_put(b, &v, sizeof(v));
}

void pd_buf_put_string(struct pd_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	pd_buf_put_u32(b, (uint32_t)padded);
	pd_buf_put(b, s, n);
	pd_buf_put(b, NULL, padded - n);
}

void pd_buf_pad8(struct pd_buf *b)
{
	pd_buf_put(b, NULL, (size_t)(pd_align8(b->len) - b->len));
}

void pd_buf_free(struct pd_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Reads through the OS seam without recording an error message: a
 * missing file only means a feature goes without its value. */
static int host_read(bool procfs, const char *path, char *buf, size_t size)
{
	const struct hwt_os *os = hwt_os_linux();

	return procfs ? os->ops->procfs_read(os->ctx, path, buf, size)
		      : os->ops->sysfs_read(os->ctx, path, buf, size);
}

/* The value of "key : value" in /proc/cpuinfo's first processor. */
static char *cpuinfo_field(const char *key)
{
	char *buf = malloc(16384), *line, *res = NULL;
	size_t klen = strlen(key);

	if (!buf || host_read(true, "cpuinfo", buf, 16384) <= 0) {
		free(buf);
		return NULL;
	}
	for (line = buf; line && *line; line = strchr(line, '\n') ?
					     strchr(line, '\n') + 1 : NULL) {
		char *colon, *v, *eol = strchr(line, '\n');

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		colon = strchr(line, ':');
		if (!colon || (eol && colon > eol))
			continue;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		res = strndup(v, eol ? (size_t)(eol - v) : strlen(v));
		break;
	}
	free(buf);
	return res;
}

static char *x86_cpuid(void)
{
	char *vendor = cpuinfo_field("vendor_id");
	char *family = cpuinfo_field("cpu family");
	char *model = cpuinfo_field("model");
	char *stepping = cpuinfo_field("stepping");
	char *res = NULL;

	if (vendor && family && model && stepping) {
		size_t n = strlen(vendor) + strlen(family) + strlen(model) +
			   strlen(stepping) + 4;
		res = malloc(n);
		if (res)
			snprintf(res, n, "%s,%s,%s,%s", vendor, family, model,
				 stepping);
	}
	free(vendor);
	free(family);
	free(model);
	free(stepping);
	return res;
}

/* arm64 perf writes MIDR_EL1 as a 0x-prefixed 16-digit hex number. */
static char *arm64_cpuid(void)
{
	char buf[64], *res;
	unsigned long long midr;

	if (host_read(false, "devices/system/cpu/cpu0/regs/identification/"
		      "midr_el1", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llx", &midr) != 1)
		return NULL;
	res = malloc(24);
	if (res)
		snprintf(res, 24, "0x%016llx", midr);
	return res;
}

char *pd_host_feature(enum hwt_pd_feature feature)
{
	struct utsname u;
	char *s;

	if (uname(&u))
		return NULL;
	switch (feature) {
	case HWT_PD_FEAT_HOSTNAME:
		return strdup(u.nodename);
	case HWT_PD_FEAT_OSRELEASE:
		return strdup(u.release);
	case HWT_PD_FEAT_ARCH:
		return strdup(u.machine);
	case HWT_PD_FEAT_VERSION:
		return strdup(HWT_VERSION_STRING);
	case HWT_PD_FEAT_CPUDESC:
		s = cpuinfo_field("model name");
		return s ? s : strdup(u.machine);
	case HWT_PD_FEAT_CPUID:
		return strcmp(u.machine, "aarch64") ? x86_cpuid() : arm64_cpuid();
	default:
		return NULL;
	}
}

char *pd_host_cmdline(size_t *size)
{
	char *buf = malloc(8192);
	int n;

	*size = 0;
	if (!buf)
		return NULL;
	n = host_read(true, "self/cmdline", buf, 8192);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	/* The read NUL-terminated it; keep a final NUL either way. */
	*size = (size_t)n + (buf[n - 1] != '\0');
	return buf;
}
