/* Reading an OpenCSD snapshot directory's INI files with iniparser. */
#ifdef HWT_HAVE_OPENCSD
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <iniparser.h>

#include "backends/arm-cs/cs_snapshot.h"
#include "hwtrace/error.h"

struct ss_device {
	char *file; /* as named in snapshot.ini */
	dictionary *ini;
	const char *name, *cls, *type;
};

struct ss_reader {
	const char *dir;
	struct ss_device *devs;
	size_t ndevs;
	dictionary *snap, *trace;
	const char *trace_file;
	struct hwt_cs_snapshot *ss;
	/* The first source that could not be configured, for the message
	 * when nothing at all can be decoded. */
	int skip_err;
	char skip_msg[512];
};

/* iniparser reports syntax errors through a global callback that prints by
 * default; the library never prints, and a broken file shows up as a
 * missing key with a message naming it. */
static int ini_quiet(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

static char *path_join(const char *dir, const char *file)
{
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, file);
	return p;
}

static dictionary *load_ini(const char *dir, const char *file, int *err)
{
	char *path = path_join(dir, file);
	if (!path) {
		*err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		return NULL;
	}
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = hwt_error(HWT_ERR_NOENT,
				 "%s: cannot read (%s): is %s an OpenCSD "
				 "snapshot directory?", path,
				 strerror(errno ? errno : EISDIR), dir);
		free(path);
		return NULL;
	}
	iniparser_set_error_callback(ini_quiet);
	dictionary *d = iniparser_load(path);
	if (!d)
		*err = hwt_error(HWT_ERR_FORMAT, "%s: not a readable INI file",
				 path);
	free(path);
	return d;
}

static const char *ini_get(dictionary *d, const char *sec, const char *key)
{
	char full[256];
	snprintf(full, sizeof(full), "%s:%s", sec, key);
	return iniparser_getstring(d, full, NULL);
}

/* Keys of @sec without the "sec:" prefix, lower-cased as iniparser keeps
 * them. Returns a malloc'ed array of borrowed strings, NULL when empty. */
static const char **sec_keys(dictionary *d, const char *sec, int *n)
{
	*n = iniparser_getsecnkeys(d, sec);
	if (*n <= 0)
		return NULL;
	const char **keys = calloc((size_t)*n, sizeof(*keys));
	if (!keys || !iniparser_getseckeys(d, sec, keys)) {
		free(keys);
		*n = 0;
		return NULL;
	}
	size_t skip = strlen(sec) + 1;
	for (int i = 0; i < *n; i++)
		if (strlen(keys[i]) >= skip)
			keys[i] += skip;
	return keys;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	while (*end && isspace((unsigned char)*end))
		end++;
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static struct ss_device *find_device(struct ss_reader *r, const char *name)
{
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].name && strcasecmp(r->devs[i].name, name) == 0)
			return &r->devs[i];
	return NULL;
}

static int load_devices(struct ss_reader *r)
{
	int n, err = 0;
	const char **keys = sec_keys(r->snap, "device_list", &n);
	if (!keys)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/snapshot.ini: [device_list] is missing or "
				 "empty", r->dir);
	r->devs = calloc((size_t)n, sizeof(*r->devs));
	if (!r->devs) {
		free(keys);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		const char *file = ini_get(r->snap, "device_list", keys[i]);
		struct ss_device *dev = &r->devs[r->ndevs];
		if (!file || !*file)
			continue;
		dev->file = strdup(file);
		if (!dev->file) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		r->ndevs++;
		dev->ini = load_ini(r->dir, file, &err);
		if (!dev->ini)
			break;
		dev->name = ini_get(dev->ini, "device", "name");
		dev->cls = ini_get(dev->ini, "device", "class");
		dev->type = ini_get(dev->ini, "device", "type");
		if (!dev->name || !dev->type) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [device] needs name= and type=",
					r->dir, file);
			break;
		}
	}
	free(keys);
	return err;
}

/* A register from a device's [regs]: keys look like "TRCIDR0(id:0x78)" or
 * "ETMCR(0x000)"; the name before the bracket counts. */
static int get_reg(struct ss_reader *r, struct ss_device *dev,
		   const char *name, bool required, uint32_t def,
		   uint32_t *val)
{
	int n;
	const char **keys = sec_keys(dev->ini, "regs", &n);
	size_t len = strlen(name);
	for (int i = 0; i < n; i++) {
		if (strncasecmp(keys[i], name, len) != 0 ||
		    (keys[i][len] != '\0' && keys[i][len] != '('))
			continue;
		const char *s = ini_get(dev->ini, "regs", keys[i]);
		uint64_t v;
		free(keys);
		if (!parse_u64(s, &v))
			return hwt_error(HWT_ERR_FORMAT,
					 "%s/%s: [regs] %s=%s is not a number",
					 r->dir, dev->file, name, s ? s : "");
		*val = (uint32_t)v;
		return 0;
	}
	free(keys);
	if (required)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s/%s: [regs] has no %s, which the %s "
				 "decoder needs", r->dir, dev->file, name,
				 dev->type);
	*val = def;
	return 0;
}

/* Architecture and profile of a core from its type name, as OpenCSD's
 * snapshot tools interpret them. */
static const struct {
	const char *name;
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof;
} core_names[] = {
	{"Cortex-A78", ARCH_V8, profile_CortexA},
	{"Cortex-A77", ARCH_V8r3, profile_CortexA},
	{"Cortex-A76", ARCH_V8r3, profile_CortexA},
	{"Cortex-A75", ARCH_V8r3, profile_CortexA},
	{"Cortex-A73", ARCH_V8, profile_CortexA},
	{"Cortex-A72", ARCH_V8, profile_CortexA},
	{"Cortex-A65", ARCH_V8r3, profile_CortexA},
	{"Cortex-A57", ARCH_V8, profile_CortexA},
	{"Cortex-A55", ARCH_V8r3, profile_CortexA},
	{"Cortex-A53", ARCH_V8, profile_CortexA},
	{"Cortex-A35", ARCH_V8, profile_CortexA},
	{"Cortex-A32", ARCH_V8, profile_CortexA},
	{"Cortex-A17", ARCH_V7, profile_CortexA},
	{"Cortex-A15", ARCH_V7, profile_CortexA},
	{"Cortex-A12", ARCH_V7, profile_CortexA},
	{"Cortex-A9", ARCH_V7, profile_CortexA},
	{"Cortex-A8", ARCH_V7, profile_CortexA},
	{"Cortex-A7", ARCH_V7, profile_CortexA},
	{"Cortex-A5", ARCH_V7, profile_CortexA},
	{"Cortex-R52", ARCH_V8, profile_CortexR},
	{"Cortex-R8", ARCH_V7, profile_CortexR},
	{"Cortex-R7", ARCH_V7, profile_CortexR},
	{"Cortex-R5", ARCH_V7, profile_CortexR},
	{"Cortex-R4", ARCH_V7, profile_CortexR},
	{"Cortex-M33", ARCH_V8, profile_CortexM},
	{"Cortex-M23", ARCH_V8, profile_CortexM},
	{"Cortex-M0", ARCH_V7, profile_CortexM},
	{"Cortex-M0+", ARCH_V7, profile_CortexM},
	{"Cortex-M3", ARCH_V7, profile_CortexM},
	{"Cortex-M4", ARCH_V7, profile_CortexM},
};

static ocsd_core_profile_t profile_letter(char c)
{
	switch (c) {
	case 'A':
		return profile_CortexA;
	case 'R':
		return profile_CortexR;
	case 'M':
		return profile_CortexM;
	default:
		return profile_Unknown;
	}
}

static bool core_arch(const char *type, ocsd_arch_version_t *arch,
		      ocsd_core_profile_t *prof)
{
	for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++) {
		if (strcmp(type, core_names[i].name) == 0) {
			*arch = core_names[i].arch;
			*prof = core_names[i].prof;
			return true;
		}
	}
	/* "ARMv<major>[.<minor>]-<profile>" */
	if (strncmp(type, "ARMv", 4) == 0 && isdigit((unsigned char)type[4])) {
		int major = type[4] - '0', minor = 0;
		const char *p = type + 5;
		if (*p == '.' && isdigit((unsigned char)p[1])) {
			minor = p[1] - '0';
			p += 2;
		}
		if (*p != '-' || (*prof = profile_letter(p[1])) == profile_Unknown)
			return false;
		if (major == 7)
			*arch = ARCH_V7;
		else if (major == 8 && minor < 3)
			*arch = ARCH_V8;
		else if (major == 8 && minor == 3)
			*arch = ARCH_V8r3;
		else if (major >= 8)
			*arch = ARCH_AA64;
		else
			return false;
		return true;
	}
	/* "ARM-AA64[-<profile>]" */
	if (strncmp(type, "ARM-", 4) == 0 &&
	    (strncmp(type + 4, "AA64", 4) == 0 ||
	     strncmp(type + 4, "aa64", 4) == 0)) {
		*arch = ARCH_AA64;
		*prof = profile_CortexA;
		if (type[8] == '-' && profile_letter(type[9]) != profile_Unknown)
			*prof = profile_letter(type[9]);
		return true;
	}
	return false;
}

static bool type_is(const char *type, const char *proto)
{
	size_t n = strlen(proto);
	return strncasecmp(type, proto, n) == 0 &&
	       (type[n] == '\0' || type[n] == '.');
}

/* Returns 1 when @src was filled, 0 when the source is not a core tracer
 * hwtrace decodes (STM, ...), or a negative error. */
static int make_source(struct ss_reader *r, struct ss_device *sdev,
		       struct ss_device *core, struct hwt_cs_source *src)
{
	ocsd_arch_version_t arch;
	ocsd_core_profile_t prof;
	int err = 0;

	memset(src, 0, sizeof(*src));
	/* Snapshots name no CPU numbers: cores count in device_list order. */
	src->cpu = 0;
	for (size_t i = 0; i < r->ndevs && &r->devs[i] != core; i++)
		if (r->devs[i].cls && strcasecmp(r->devs[i].cls, "core") == 0)
			src->cpu++;
	if (type_is(sdev->type, "ETM4"))
		src->proto = HWT_CS_PROTO_ETMV4;
	else if (type_is(sdev->type, "ETE"))
		src->proto = HWT_CS_PROTO_ETE;
	else if (type_is(sdev->type, "ETM3"))
		src->proto = HWT_CS_PROTO_ETMV3;
	else if (type_is(sdev->type, "PTM1") || type_is(sdev->type, "PFT1"))
		src->proto = HWT_CS_PROTO_PTM;
	else
		return 0;
	if (!core_arch(core->type, &arch, &prof))
		return hwt_error(HWT_ERR_CONFIG,
				 "%s/%s: [device] type=%s is not a core type "
				 "OpenCSD knows (Cortex-A57, ARMv8.2-A, "
				 "ARM-AA64, ...)", r->dir, core->file,
				 core->type);

	switch (src->proto) {
	case HWT_CS_PROTO_ETMV4: {
		ocsd_etmv4_cfg *c = &src->cfg.etmv4;
		if ((err = get_reg(r, sdev, "TRCCONFIGR", true, 0, &c->reg_configr)) ||
		    (err = get_reg(r, sdev, "TRCTRACEIDR", true, 0, &c->reg_traceidr)) ||
		    (err = get_reg(r, sdev, "TRCIDR0", true, 0, &c->reg_idr0)) ||
		    (err = get_reg(r, sdev, "TRCIDR1", false, 0x4100f403, &c->reg_idr1)) ||
		    (err = get_reg(r, sdev, "TRCIDR2", true, 0, &c->reg_idr2)) ||
		    (err = get_reg(r, sdev, "TRCIDR8", false, 0, &c->reg_idr8)) ||
		    (err = get_reg(r, sdev, "TRCIDR9", false, 0, &c->reg_idr9)) ||
		    (err = get_reg(r, sdev, "TRCIDR10", false, 0, &c->reg_idr10)) ||
		    (err = get_reg(r, sdev, "TRCIDR11", false, 0, &c->reg_idr11)) ||
		    (err = get_reg(r, sdev, "TRCIDR12", false, 0, &c->reg_idr12)) ||
		    (err = get_reg(r, sdev, "TRCIDR13", false, 0, &c->reg_idr13)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		src->trace_id = c->reg_traceidr & 0x7f;
		break;
	}
	case HWT_CS_PROTO_ETE: {
		ocsd_ete_cfg *c = &src->cfg.ete;
		if ((err = get_reg(r, sdev, "TRCCONFIGR", true, 0, &c->reg_configr)) ||
		    (err = get_reg(r, sdev, "TRCTRACEIDR", true, 0, &c->reg_traceidr)) ||
		    (err = get_reg(r, sdev, "TRCIDR0", true, 0, &c->reg_idr0)) ||
		    (err = get_reg(r, sdev, "TRCIDR1", false, 0x4100f403, &c->reg_idr1)) ||
		    (err = get_reg(r, sdev, "TRCIDR2", true, 0, &c->reg_idr2)) ||
		    (err = get_reg(r, sdev, "TRCIDR8", false, 0, &c->reg_idr8)) ||
		    (err = get_reg(r, sdev, "TRCDEVARCH", false, 0x47705a13, &c->reg_devarch)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		src->trace_id = c->reg_traceidr & 0x7f;
		break;
	}
	case HWT_CS_PROTO_ETMV3:
	case HWT_CS_PROTO_PTM: {
		/* The two configurations have the same layout. */
		ocsd_etmv3_cfg *c = &src->cfg.etmv3;
		if ((err = get_reg(r, sdev, "ETMIDR", true, 0, &c->reg_idr)) ||
		    (err = get_reg(r, sdev, "ETMCR", true, 0, &c->reg_ctrl)) ||
		    (err = get_reg(r, sdev, "ETMCCER", true, 0, &c->reg_ccer)) ||
		    (err = get_reg(r, sdev, "ETMTRACEIDR", true, 0, &c->reg_trc_id)))
			return err;
		c->arch_ver = arch;
		c->core_prof = prof;
		src->trace_id = c->reg_trc_id & 0x7f;
		break;
	}
	}
	return 1;
}

static int add_dumps(struct ss_reader *r, struct ss_device *core)
{
	struct hwt_cs_snapshot *ss = r->ss;
	int nsec = iniparser_getnsec(core->ini);
	for (int i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(core->ini, i);
		if (!sec || strncasecmp(sec, "dump", 4) != 0)
			continue;
		const char *file = ini_get(core->ini, sec, "file");
		const char *addr = ini_get(core->ini, sec, "address");
		const char *len = ini_get(core->ini, sec, "length");
		const char *off = ini_get(core->ini, sec, "offset");
		struct hwt_cs_ss_dump d = {0};
		if (!file || !parse_u64(addr, &d.address) ||
		    (len && !parse_u64(len, &d.length)) ||
		    (off && !parse_u64(off, &d.offset)))
			return hwt_error(HWT_ERR_FORMAT,
					 "%s/%s: [%s] needs file= and a numeric "
					 "address= (length= and offset= are "
					 "optional numbers)", r->dir,
					 core->file, sec);
		void *p = realloc(ss->dumps, (ss->ndumps + 1) * sizeof(d));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		ss->dumps = p;
		d.path = path_join(r->dir, file);
		if (!d.path)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		ss->dumps[ss->ndumps++] = d;
	}
	return 0;
}

static uint32_t buffer_format(const char *format)
{
	if (format && strcasecmp(format, "source_data") == 0)
		return 0;
	if (format && strcasecmp(format, "dstream_coresight") == 0)
		return OCSD_DFRMTR_HAS_FSYNCS;
	return OCSD_DFRMTR_FRAME_MEM_ALIGN;
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
	const char **sb = sec_keys(r->trace, "source_buffers", &nsb);
	const char **cs = sec_keys(r->trace, "core_trace_sources", &ncs);
	const char **names = calloc((size_t)(ncs ? ncs : 1), sizeof(*names));
	size_t nnames = 0;

	if (!names) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < ncs; i++) {
		const char *src = ini_get(r->trace, "core_trace_sources", cs[i]);
		if (!src)
			continue;
		for (int j = 0; j < nsb; j++) {
			const char *b = ini_get(r->trace, "source_buffers", sb[j]);
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
			const char *src = ini_get(r->trace,
						  "core_trace_sources", cs[j]);
			if (src && strcmp(src, names[i]) == 0)
				core_name = cs[j];
		}
		struct ss_device *sdev = find_device(r, names[i]);
		struct ss_device *core = core_name ? find_device(r, core_name)
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
		int ok = make_source(r, sdev, core, &buf->sources[buf->nsources]);
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
	const char *list = ini_get(r->trace, "trace_buffers", "buffers");
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
		const char *name = ini_get(r->trace, sec, "name");
		const char *file = ini_get(r->trace, sec, "file");
		const char *format = ini_get(r->trace, sec, "format");
		if (!name || !file) {
			err = hwt_error(HWT_ERR_FORMAT,
					"%s/%s: [%s] needs name= and file=",
					r->dir, r->trace_file, tok);
			break;
		}
		struct hwt_cs_ss_buffer buf = {0};
		buf.frame_flags = buffer_format(format);
		err = buffer_sources(r, name, &buf);
		if (!err && buf.nsources) {
			buf.name = strdup(name);
			buf.path = path_join(r->dir, file);
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
	r.snap = load_ini(dir, "snapshot.ini", &err);
	if (!r.snap)
		goto out;
	err = load_devices(&r);
	if (err)
		goto out;
	r.trace_file = ini_get(r.snap, "trace", "metadata");
	if (!r.trace_file) {
		err = hwt_error(HWT_ERR_FORMAT,
				"%s/snapshot.ini: [trace] has no metadata= key "
				"naming the trace description (trace.ini)", dir);
		goto out;
	}
	r.trace = load_ini(dir, r.trace_file, &err);
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
