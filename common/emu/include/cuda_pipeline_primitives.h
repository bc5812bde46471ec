/* cuda_pipeline_primitives.h: tilelab emulation mode shim: the same primitives as cuda_pipeline.h. */
#include "cuda_pipeline.h"
