// Scaffolding: replaced by the real implementation.
#include "workload-catalog.h"
