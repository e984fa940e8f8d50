/* Reading an OpenCSD snapshot directory: its trace buffers, the sources
 * each feeds, and the cores' memory dumps. */
#ifdef HWT_HAVE_OPENCSD
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <iniparser.h>

#include "backends/arm-cs/cs_snapshot_ini.h"
#include "hwtrace/error.h"

static int add_dumps(struct ss_reader *r, struct ss_device *core)
{
	struct hwt_cs_snapshot *ss = r->ss;
	int nsec = iniparser_getnsec(core->ini);
	for (int i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(core->ini, i);
		if (!sec || strncasecmp(sec, "dump", 4) != 0)
			continue;
		const char *file = hwt_cs_ss_ini_get(core->ini, sec, "file");
		const char *addr = hwt_cs_ss_ini_get(core->ini, sec, "address");
		const char *len = hwt_cs_ss_ini_get(core->ini, sec, "length");
		const char *off = hwt_cs_ss_ini_get(core->ini, sec, "offset");
		struct hwt_cs_ss_dump d = {0};
		if (!file || !hwt_cs_ss_parse_u64(addr, &d.address) ||
		    (len && !hwt_cs_ss_parse_u64(len, &d.length)) ||
		    (off && !hwt_cs_ss_parse_u64(off, &d.offset)))
			return hwt_error(HWT_ERR_FORMAT,
					 "%s/%s: [%s] needs file= and a numeric "
					 "address= (length= and offset= are "
					 "optional numbers)", r->dir,
					 core->file, sec);
		void *p = realloc(ss->dumps, (ss->ndumps + 1) * sizeof(d));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		ss->dumps = p;
		d.path = hwt_cs_ss_path_join(r->dir, file);
		if (!d.path)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		ss->dumps[ss->ndumps++] = d;
	}
	return 0;
}

/* The deformatter flags of a buffer's format= (OpenCSD's names; none
 * given: coresight), or -1 for a name OpenCSD does not know, which would
 * otherwise be decoded as coresight frames without a word. */
static int64_t buffer_format(const char *format)
{
	if (format && strcasecmp(format, "source_data") == 0)
		return 0;
	if (format && strcasecmp(format, "dstream_coresight") == 0)
		return OCSD_DFRMTR_HAS_FSYNCS;
	if (!format || strcasecmp(format, "coresight") == 0)
		return OCSD_DFRMTR_FRAME_MEM_ALIGN;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sources feeding @bufname that trace a core, ordered by name. */
static int buffer_sources(struct ss_reader *r, const char *bufname,
			  struct hwt_cs_ss_buffer *buf)
{
	int nsb, ncs, err = 0;
	const char **sb = hwt_cs_ss_sec_keys(r->trace, "source_buffers", &nsb);
	const char **cs = hwt_cs_ss_sec_keys(r->trace, "core_trace_sources", &ncs);
	const char **names = calloc((size_t)(ncs ? ncs : 1), sizeof(*names));
	size_t nnames = 0;

	if (!names) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < ncs; i++) {
		const char *src = hwt_cs_ss_ini_get(r->trace, "core_trace_sources", cs[i]);
		if (!src)
			continue;
		for (int j = 0; j < nsb; j++) {
			const char *b = hwt_cs_ss_ini_get(r->trace, "source_buffers", sb[j]);
			if (!b || strcasecmp(sb[j], src) != 0 ||
			    strcasecmp(b, bufname) != 0)
				continue;
			size_t k = 0;
			while (k < nnames && strcasecmp(names[k], src) != 0)
				k++;
			if (k == nnames)
				names[nnames++] = src;
		}
	}
	qsort(names, nnames, sizeof(*names), cmp_str);
	buf->sources = calloc(nnames ? nnames : 1, sizeof(*buf->sources));
	if (!buf->sources) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nnames; i++) {
		/* A raw (source_data) buffer holds one source's stream. */
		if (buf->frame_flags == 0 && buf->nsources == 1)
			break;
		const char *core_name = NULL;
		for (int j = 0; j < ncs; j++) {
			const char *src = hwt_cs_ss_ini_get(r->trace,
							    "core_trace_sources", cs[j]);
			if (src && strcmp(src, names[i]) == 0)
				core_name = cs[j];
		}
		struct ss_device *sdev = hwt_cs_ss_find_device(r, names[i]);
		struct ss_device *core = core_name ? hwt_cs_ss_find_device(r, core_name)
						   : NULL;
		if (!sdev || !core) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [core_trace_sources] names %s "
					"and %s, but snapshot.ini lists no "
					"device of that name", r->dir,
					r->trace_file,
					core_name ? core_name : "?", names[i]);
			goto out;
		}
		int ok = hwt_cs_ss_make_source(r, sdev, core, &buf->sources[buf->nsources]);
		if (ok < 0) {
			if (!r->skip_err) {
				r->skip_err = ok;
				snprintf(r->skip_msg, sizeof(r->skip_msg), "%s",
					 hwt_errmsg());
			}
			continue;
		}
		if (ok == 0)
			continue;
		buf->nsources++;
		err = add_dumps(r, core);
		if (err)
			goto out;
	}
out:
	free(sb);
	free(cs);
	free(names);
	return err;
}

static int load_buffers(struct ss_reader *r)
{
	const char *list = hwt_cs_ss_ini_get(r->trace, "trace_buffers", "buffers");
	if (!list)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/%s: [trace_buffers] has no buffers= key",
				 r->dir, r->trace_file);
	char *copy = strdup(list);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		char *end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*tok)
			continue;
		char sec[128];
		snprintf(sec, sizeof(sec), "%s", tok);
		for (char *p = sec; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		const char *name = hwt_cs_ss_ini_get(r->trace, sec, "name");
		const char *file = hwt_cs_ss_ini_get(r->trace, sec, "file");
		const char *format = hwt_cs_ss_ini_get(r->trace, sec, "format");
		if (!name || !file) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [%s] needs name= and file=",
					r->dir, r->trace_file, tok);
			break;
		}
		struct hwt_cs_ss_buffer buf = {0};
		int64_t flags = buffer_format(format);
		if (flags < 0) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [%s] format=%s is not a buffer "
					"format (valid: coresight, "
					"dstream_coresight, source_data)",
					r->dir, r->trace_file, tok, format);
			break;
		}
		buf.frame_flags = (uint32_t)flags;
		err = buffer_sources(r, name, &buf);
		if (!err && buf.nsources) {
			buf.name = strdup(name);
			buf.path = hwt_cs_ss_path_join(r->dir, file);
			struct hwt_cs_ss_buffer *p = realloc(
				r->ss->buffers,
				(r->ss->nbuffers + 1) * sizeof(*p));
			if (!buf.name || !buf.path || !p) {
				if (p)
					r->ss->buffers = p;
				free(buf.name);
				free(buf.path);
				free(buf.sources);
				err = hwt_error(HWT_ERR_NOMEM, "out of memory");
				break;
			}
			r->ss->buffers = p;
			p[r->ss->nbuffers++] = buf;
		} else {
			free(buf.sources);
		}
		if (err)
			break;
	}
	free(copy);
	return err;
}

int hwt_cs_snapshot_load(const char *dir, struct hwt_cs_snapshot **out)
{
	struct ss_reader r = {.dir = dir};
	int err = 0;

	*out = NULL;
	r.ss = calloc(1, sizeof(*r.ss));
	if (!r.ss || !(r.ss->dir = strdup(dir))) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	r.snap = hwt_cs_ss_load_ini(dir, "snapshot.ini", &err);
	if (!r.snap)
		goto out;
	err = hwt_cs_ss_load_devices(&r);
	if (err)
		goto out;
	r.trace_file = hwt_cs_ss_ini_get(r.snap, "trace", "metadata");
	if (!r.trace_file) {
		err = hwt_error(HWT_ERR_FORMAT,
				"%s/snapshot.ini: [trace] has no metadata= key "
				"naming the trace description (trace.ini)", dir);
		goto out;
	}
	r.trace = hwt_cs_ss_load_ini(dir, r.trace_file, &err);
	if (!r.trace)
		goto out;
	err = load_buffers(&r);
	if (err)
		goto out;
	if (r.ss->nbuffers == 0) {
		if (r.skip_err)
			err = hwt_error(r.skip_err, "%s", r.skip_msg);
		else
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: no trace buffer is fed by an "
					"ETM, PTM or ETE that traces a core "
					"([source_buffers], [core_trace_sources])",
					dir, r.trace_file);
	}
out:
	for (size_t i = 0; i < r.ndevs; i++) {
		if (r.devs[i].ini)
			iniparser_freedict(r.devs[i].ini);
		free(r.devs[i].file);
	}
	free(r.devs);
	if (r.snap)
		iniparser_freedict(r.snap);
	if (r.trace)
		iniparser_freedict(r.trace);
	if (err) {
		hwt_cs_snapshot_free(r.ss);
		return err;
	}
	*out = r.ss;
	return 0;
}

void hwt_cs_snapshot_free(struct hwt_cs_snapshot *ss)
{
	if (!ss)
		return;
	for (size_t i = 0; i < ss->nbuffers; i++) {
		free(ss->buffers[i].name);
		free(ss->buffers[i].path);
		free(ss->buffers[i].sources);
	}
	for (size_t i = 0; i < ss->ndumps; i++)
		free(ss->dumps[i].path);
	free(ss->buffers);
	free(ss->dumps);
	free(ss->dir);
	free(ss);
}

int hwt_cs_snapshot_add_dumps(const struct hwt_cs_snapshot *ss,
			      struct hwt_image *image)
{
	for (size_t i = 0; i < ss->ndumps; i++) {
		const struct hwt_cs_ss_dump *d = &ss->dumps[i];
		struct stat st;
		if (stat(d->path, &st) != 0)
			return hwt_error(HWT_ERR_NOENT,
					 "%s: memory dump named by the snapshot "
					 "cannot be read (%s)", d->path,
					 strerror(errno));
		if ((uint64_t)st.st_size <= d->offset)
			continue;
		/* A length past the end of the file means "to its end". */
		uint64_t len = (uint64_t)st.st_size - d->offset;
		if (d->length && d->length < len)
			len = d->length;
		int err = hwt_image_add_file(image, HWT_PID_ANY, d->address,
					     len, d->path, d->offset);
		if (err)
			return err;
	}
	return 0;
}
#endif
