/* perf.data reader: event names, from perf's event_desc feature or
 * simpleperf's meta info. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"

void pd_reader_name_attrs(struct hwt_pd_reader *r)
{
	const struct feature *f = &r->features[HWT_PD_FEAT_EVENT_DESC];
	const uint8_t *p, *end;
	uint32_t nr, asz;

	if (!f->data || f->size < 8)
		return;
	p = f->data;
	end = p + f->size;
	nr = pd_u32(p);
	asz = pd_u32(p + 4);
	p += 8;
	for (uint32_t i = 0; i < nr; i++) {
		const char *name;
		uint32_t nids;

		if ((uint64_t)(end - p) < (uint64_t)asz + 4)
			goto bad;
		p += asz;
		nids = pd_u32(p);
		p += 4;
		if (pd_get_string(&p, end, &name) ||
		    (uint64_t)(end - p) < (uint64_t)nids * 8)
			goto bad;
		p += (size_t)nids * 8;
		if (i < r->nattrs)
			r->attrs[i]->name = name;
	}
	return;
bad:
	pd_reader_warn(r, "the event_desc feature section is malformed; event names "
		       "are missing");
}

int hwt_pd_reader_meta_info(const struct hwt_pd_reader *r, size_t index,
			    const char **key, const char **value)
{
	const struct feature *f = &r->features[PD_SIMPLEPERF_FEAT_START + 1];
	if (!f->data)
		return 0;
	const char *p = (const char *)f->data, *end = p + f->size;
	for (size_t i = 0; p < end; i++) {
		const char *val = memchr(p, 0, (size_t)(end - p));
		if (!val || ++val >= end || !memchr(val, 0, (size_t)(end - val)))
			return 0;
		if (i == index) {
			*key = p;
			*value = val;
			return 1;
		}
		p = val + strlen(val) + 1;
	}
	return 0;
}

/* simpleperf names its events in the meta info feature: a key
 * "event_type_info" whose value has lines "name,type,config". */
void pd_reader_name_attrs_simpleperf(struct hwt_pd_reader *r)
{
	const char *key, *val, *v = NULL;
	for (size_t i = 0; !v && hwt_pd_reader_meta_info(r, i, &key, &val); i++)
		if (!strcmp(key, "event_type_info"))
			v = val;
	while (v && *v) {
		size_t len = strcspn(v, "\n");
		char line[256], *c1, *c2;

		snprintf(line, sizeof(line), "%.*s", (int)len, v);
		c1 = strchr(line, ',');
		c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		if (c2) {
			/* The config there is the one asked for, before the
			 * PMU driver's defaults: match on the type. */
			unsigned long long type = strtoull(c1 + 1, NULL, 0);

			*c1 = '\0';
			for (size_t i = 0; i < r->nattrs; i++) {
				struct hwt_pd_attr *a = r->attrs[i];

				if (a->name || a->attr.type != type ||
				    r->nowned == sizeof(r->owned) / sizeof(r->owned[0]))
					continue;
				r->owned[r->nowned] = strdup(line);
				a->name = r->owned[r->nowned];
				if (a->name)
					r->nowned++;
				break;
			}
		}
		v += len;
		if (*v == '\n')
			v++;
	}
}
