#include "hwtrace/backend.h"
const struct hwt_record_ops hwt_swb_record_ops = {0};
