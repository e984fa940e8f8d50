#include "hwtrace/backend.h"
const struct hwt_record_ops hwt_bts_record_ops = {0};
