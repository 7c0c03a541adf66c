// Placeholder: filled in by issue 4.
#include "capi/cluster_handles.h"
