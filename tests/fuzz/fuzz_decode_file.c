/* libFuzzer target for the perf.data decode pipeline with the Intel PT
 * decoder (files whose AUXTRACE_INFO names intel_pt; the CoreSight one
 * is fuzz_cs_decode_file, BTS records fuzz_bts_decode). */
#define FUZZ_AUXTRACE_TYPE 1 /* PERF_AUXTRACE_INTEL_PT */
#include "fuzz_decode_file_body.h"
