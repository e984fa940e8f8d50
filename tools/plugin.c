/* hwtrace --plugin FILE: loads an out-of-tree backend (a shared object
 * built against the installed headers) before the command runs. The
 * plugin's hwt_plugin_init() registers its backends with
 * hwt_backend_register; the library's API resolves against this program,
 * which exports it, so the plugin and the command share one backend table. */
#include <dlfcn.h>
#include <stdio.h>

#include "cli.h"
#include "hwtrace/error.h"

int cli_load_plugin(const char *path)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	int (*init)(void);
	int err;

	if (!handle) {
		fprintf(stderr, "hwtrace: --plugin %s: %s\n", path, dlerror());
		return EXIT_RUNTIME;
	}
	*(void **)&init = dlsym(handle, "hwt_plugin_init");
	if (!init) {
		fprintf(stderr, "hwtrace: --plugin %s: no hwt_plugin_init(): a "
			"plugin defines `int hwt_plugin_init(void)`, which calls "
			"hwt_backend_register (see docs/porting.md)\n", path);
		return EXIT_RUNTIME;
	}
	err = init();
	if (err < 0) {
		const char *msg = hwt_errmsg();

		fprintf(stderr, "hwtrace: --plugin %s: hwt_plugin_init failed: %s\n",
			path, msg[0] ? msg : hwt_errstr(err));
		return EXIT_RUNTIME;
	}
	/* The handle stays open: the backends it registered live in it. */
	return EXIT_OK;
}
