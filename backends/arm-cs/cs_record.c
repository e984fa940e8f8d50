#include "hwtrace/backend.h"
const struct hwt_record_ops hwt_cs_record_ops = {0};
