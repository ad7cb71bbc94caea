// Scaffolding: replaced by the real implementation.
#include "trace-reader.h"
