#include "core/cluster/runtime.h"
