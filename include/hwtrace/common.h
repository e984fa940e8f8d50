/* Shared definitions of the public hwtrace API: export macro and version. */
#ifndef HWTRACE_COMMON_H
#define HWTRACE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(HWT_BUILDING_LIBRARY)
#define HWT_API __attribute__((visibility("default")))
#else
#define HWT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as "MAJOR.MINOR.PATCH"; never NULL. */
HWT_API const char *hwt_version(void);

#ifdef __cplusplus
}
#endif

#endif
