#include "hwtrace/backend.h"
#ifdef HWT_HAVE_OPENCSD
const struct hwt_decoder_ops hwt_cs_decoder_ops = {0};
#endif
