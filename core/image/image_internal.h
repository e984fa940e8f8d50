/* The memory image's internals shared with the decode pipeline: a view
 * per decoding thread, and the check of the files found for a capture's
 * mappings against the build ids it names. */
#ifndef HWT_CORE_IMAGE_INTERNAL_H
#define HWT_CORE_IMAGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/image.h"

/* A view of @image for one decoding thread: the same sections, time
 * spans included (strings and code shared, read-only), with missing_reported
 * marks of its own, starting at zero. Lookups of a built image are safe on
 * any thread already; the view exists for the marks, so that a parallel
 * decode sees which units would name a missing file and the stream names
 * it where one thread would (decode_parallel.c). Its untimed reads count
 * as @image's. Holds a reference to @image; freed with hwt_image_free.
 * Sections added to @image afterwards are not seen. NULL when out of
 * memory or @image is NULL. */
struct hwt_image *hwt_image_view_new(struct hwt_image *image);

/* The files found for a capture's mappings, checked against it. */

/* The build id a capture gives for the file behind a section. */
struct hwt_image_expect {
	size_t section;
	uint8_t size;
	uint8_t id[20];
};

struct hwt_image_check {
	struct hwt_image_expect *v;
	size_t n, cap;
};

/* Notes that section @section (a file found for a mapping) must have build
 * id @id; a NULL @id or size 0 is a no-op. */
int hwt_image_check_expect(struct hwt_image_check *c, size_t section,
			   const uint8_t *id, size_t size);
void hwt_image_check_free(struct hwt_image_check *c);

/* Checks every file the image read against the build ids noted in @c and
 * the ELF machines of trace type @type: a file that is not the traced one
 * is refused (its sections become missing, naming why) and reported once
 * through opts->warn; with opts->ignore_build_ids it is reported and kept.
 * Errors: HWT_ERR_NOMEM. */
int hwt_image_check_run(const struct hwt_image_check *c,
			struct hwt_image *image, enum hwt_auxtrace_type type,
			const struct hwt_decode_opts *opts);

#endif
