#include "hwtrace/backend.h"
const struct hwt_record_ops hwt_pt_record_ops = {0};
