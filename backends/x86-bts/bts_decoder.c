#include "hwtrace/backend.h"
const struct hwt_decoder_ops hwt_bts_decoder_ops = {0};
