/* cublas_api.h: tilelab emulation mode shim (see cublas_v2.h). */
#include "cublas_v2.h"
