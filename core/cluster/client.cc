#include "core/cluster/client.h"
