/* libFuzzer target for the perf.data decode pipeline with the CoreSight
 * decoder (OpenCSD): files whose AUXTRACE_INFO names cs_etm, as Linux
 * perf and simpleperf write them, with their per-CPU ETM metadata. */
#define FUZZ_AUXTRACE_TYPE 3 /* PERF_AUXTRACE_CS_ETM */
#include "fuzz_decode_file_body.h"
