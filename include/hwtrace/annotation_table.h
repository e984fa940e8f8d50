/* Annotations of a cursor's records, interned: each distinct annotation
 * (an annotator's text for a record, e.g. the symbols' `,"sym":...`
 * members) is kept once in a table and named by a small id, so that a
 * binding reading records in bulk (python/hwtrace) turns each distinct
 * text into its own objects once, not once per element. */
#ifndef HWTRACE_ANNOTATION_TABLE_H
#define HWTRACE_ANNOTATION_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/capture.h"
#include "hwtrace/export.h"
#include "hwtrace/output.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_annot_table;

/* A table annotating in @format (HWT_OUTPUT_JSONL or HWT_OUTPUT_TEXT)
 * with @annotator (copied; its arg must outlive the table). Returns 0,
 * HWT_ERR_INVAL, HWT_ERR_NOMEM. */
HWT_API int hwt_annot_table_new(const struct hwt_output_annotator *annotator,
				enum hwt_output_format format,
				struct hwt_annot_table **out);

/* Frees the table; NULL is a no-op. */
HWT_API void hwt_annot_table_free(struct hwt_annot_table *table);

/* The annotation ids of the @n records @recs into @ids: for a range
 * without instruction text, a branch, a trace_on and a trace_off, the
 * id of its annotation (from 1; an id is given to records of one type
 * only, so an empty text has an id per type and key too); for every
 * other record HWT_ANNOT_NONE (not annotated here: its own line says
 * all, e.g. hwt_elem_records_jsonl). Ranges and branches equal in what
 * hwt_output_annotator says an annotation depends on (and in its
 * cache_tag) share an id without a second call of the annotator; each
 * trace_on and trace_off is annotated (no cache_tag promise covers
 * them) and gets the id of an equal text given before to one of its
 * type, or a new one. Returns
 * @n, or a negative error: the annotator's, HWT_ERR_NOMEM,
 * HWT_ERR_INVAL. */
HWT_API int64_t hwt_annot_records(struct hwt_annot_table *table,
				  const struct hwt_elem_record *recs,
				  size_t n, uint32_t *ids);

#define HWT_ANNOT_NONE UINT32_MAX

/* The text of annotation @id (NUL-terminated, valid while the table is)
 * and its length in *@len (may be NULL); NULL for an id the table has
 * not given. Id 0 is an empty text no record gets. */
HWT_API const char *hwt_annot_text(const struct hwt_annot_table *table,
				   uint32_t id, size_t *len);

/* How many distinct annotations the table holds (id 0 included) and how
 * many times it called the annotator. */
HWT_API void hwt_annot_table_stats(const struct hwt_annot_table *table,
				   size_t *texts, uint64_t *calls);

#ifdef __cplusplus
}
#endif

#endif
