/* decode --format jsonl: the header line and the JSON form of the text
 * listings (tools/decode_jsonl.c). The schema is docs/jsonl.md. */
#ifndef HWT_TOOLS_DECODE_JSONL_H
#define HWT_TOOLS_DECODE_JSONL_H

#include <stdio.h>

/* The schema version the first line of every jsonl output names. */
#define CLI_JSONL_VERSION 3

enum cli_jsonl_listing {
	CLI_JSONL_PACKETS,        /* --packets */
	CLI_JSONL_BRANCH_PROFILE, /* --branch-profile */
};

/* {"type":"header","version":3,"listing":LISTING,"producer":"hwtrace V"}
 * where LISTING is "elements", "packets" or "branch_profile". */
void cli_jsonl_header(FILE *out, const char *listing, const char *version);

/* A stream whose text lines reach @out as JSON objects; fclose it to
 * flush the last line (0, or EOF when writing @out failed). NULL when out
 * of memory. */
FILE *cli_jsonl_listing(FILE *out, enum cli_jsonl_listing kind);

#endif
