#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/version.h"

/* Large enough for a path, a key and a hint on how to fix it. */
static _Thread_local char last_message[2048];

const char *hwt_version(void)
{
	return HWT_VERSION_STRING;
}

const char *hwt_errstr(int err)
{
	switch (err) {
	case HWT_OK: return "success";
	case HWT_ERR_NOMEM: return "out of memory";
	case HWT_ERR_INVAL: return "invalid argument";
	case HWT_ERR_IO: return "input/output error";
	case HWT_ERR_NOENT: return "not found";
	case HWT_ERR_FORMAT: return "bad format";
	case HWT_ERR_NOSUP: return "not supported";
	case HWT_ERR_PERM: return "permission denied";
	case HWT_ERR_CONFIG: return "configuration error";
	case HWT_ERR_TRUNCATED: return "truncated input";
	case HWT_ERR_DECODE: return "decode error";
	case HWT_ERR_NOSPC: return "no space left";
	case HWT_ERR_EOF: return "end of input";
	case HWT_ERR_BUSY: return "busy";
	}
	return "unknown error";
}

const char *hwt_errmsg(void)
{
	return last_message;
}

int hwt_error(int err, const char *fmt, ...)
{
	char msg[sizeof(last_message)];
	va_list ap;

	/* Formatted aside first: callers wrap the previous message
	 * ("%s: %s", where, hwt_errmsg()), which must not be overwritten
	 * while it is read. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(last_message, msg, sizeof(msg));
	return err;
}

void hwt_error_clear(void)
{
	last_message[0] = '\0';
}
