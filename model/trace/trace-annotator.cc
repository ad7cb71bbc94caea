// Scaffolding: replaced by the real implementation.
#include "trace-annotator.h"
