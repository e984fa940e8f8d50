/* For tests of the decoders themselves (their cuts, their answers to
 * fuzzed bytes): the decode runs in this process, not in isolated
 * workers. What such a test checks is the decoder; the workers have
 * their own tests (test_cs_isolate_replay, test_cs_isolate_same_output),
 * a worker forked at another time than the test's settings would not
 * compare, and a worker's one notice of a refused sandbox (qemu-user)
 * would come in a test's first decode only. Put DECODE_IN_PROCESS in
 * the designated initializer of the struct hwt_decode_opts. */
#ifndef HWT_TESTS_DECODE_IN_PROCESS_H
#define HWT_TESTS_DECODE_IN_PROCESS_H

#include "hwtrace/decode.h"

#define DECODE_IN_PROCESS .isolate = HWT_ISOLATE_OFF

#endif
