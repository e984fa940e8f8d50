#include "hwtrace/backend.h"
#ifdef HWT_HAVE_LIBIPT
const struct hwt_decoder_ops hwt_pt_decoder_ops = {0};
#endif
