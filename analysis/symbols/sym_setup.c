/* A command's symbol options made into a symbolizer hooked into a decode
 * (hwtrace/sym_setup.h). */
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/sym_setup.h"

static void setup_warn(const struct hwt_sym_opts *o, const char *message)
{
	if (o->warn)
		o->warn(o->warn_arg, message);
}

/* The kernel symbol file named, when it cannot be read: said once at the
 * start, even when no kernel address comes (a snapshot, a user-only
 * trace), and the decode goes on without kernel names rather than take
 * this machine's instead. */
static void check_kallsyms(struct hwt_sym_opts *o, const char *what)
{
	if (!o->kallsyms || hwt_infile_check(o->kallsyms, what, 0) >= 0)
		return;
	char msg[1200];
	snprintf(msg, sizeof(msg), "warning: %s: kernel addresses get no names",
		 hwt_errmsg());
	setup_warn(o, msg);
	o->kallsyms = NULL;
	o->no_host_kallsyms = true;
}

/* This machine's /proc/kallsyms, when nothing else names the kernel:
 * not for a capture of another machine or kernel. */
static void check_host_kernel(struct hwt_sym_opts *o, const char *capture)
{
	char where[600];
	if (o->kallsyms || o->vmlinux || o->no_host_kallsyms ||
	    hwt_capture_host_kernel(capture, where, sizeof(where)))
		return;
	o->no_host_kallsyms = true;
	char msg[900];
	snprintf(msg, sizeof(msg), "the capture was recorded on %s: this "
		 "machine's /proc/kallsyms does not name its kernel addresses; "
		 "pass --kallsyms FILE saved there, or --vmlinux", where);
	setup_warn(o, msg);
}

int hwt_symbolizer_setup(const struct hwt_sym_setup *setup,
			 struct hwt_symbolizer **out)
{
	*out = NULL;
	if (!setup || setup->size < sizeof(*setup))
		return hwt_error(HWT_ERR_INVAL, "struct hwt_sym_setup: size %zu "
				 "is too small", setup ? setup->size : 0);
	struct hwt_sym_opts o = setup->sym;
	o.size = sizeof(o);
	if (setup->lookup) {
		o.symfs = setup->lookup->symfs;
		o.buildid_dir = setup->lookup->buildid_dir;
		o.vmlinux = setup->lookup->vmlinux;
	}
	/* hwt_symbolizer_new copies kallsyms, so the path built here need
	 * not outlive the call. */
	char kcore_kallsyms[4096];
	const char *what = "--kallsyms";
	if (setup->kcore && !o.kallsyms) {
		snprintf(kcore_kallsyms, sizeof(kcore_kallsyms), "%s/kallsyms",
			 setup->kcore);
		o.kallsyms = kcore_kallsyms;
		what = "--kcore's";
	}
	check_kallsyms(&o, what);
	check_host_kernel(&o, setup->capture);
	return hwt_symbolizer_new(&o, out);
}

void hwt_symbolizer_hook(struct hwt_symbolizer *sym,
			 struct hwt_decode_opts *opts, struct hwt_output *output)
{
	opts->on_image = hwt_symbolizer_on_image;
	opts->on_image_arg = sym;
	opts->name_addr = hwt_symbolizer_name;
	opts->name_addr_arg = sym;
	if (output) {
		struct hwt_output_annotator a = hwt_symbolizer_annotator(sym);
		hwt_output_set_annotator(output, &a);
	}
}

int hwt_symbolizer_start(const struct hwt_sym_setup *setup,
			 struct hwt_decode_opts *opts, struct hwt_output *output,
			 struct hwt_symbolizer **out)
{
	int err = hwt_symbolizer_setup(setup, out);
	if (!err)
		hwt_symbolizer_hook(*out, opts, output);
	return err;
}
