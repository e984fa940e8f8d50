/* A name from a capture, made safe to print on a terminal (its control
 * characters and ill-formed bytes escaped). Apart from tools/main.c so
 * that the CLI fuzz targets, which cannot take main.c, use this one too. */
#include <string.h>

#include "cli.h"
#include "hwtrace/text.h"

const char *cli_safe(const char *s, char *buf, size_t size)
{
	size_t n = s ? hwt_term_escape(buf, size - 1, s, strlen(s)) : 0;
	buf[n < size - 1 ? n : size - 1] = 0;
	return buf;
}
