/* cuda_fp16.h: tilelab emulation mode shim: not available under emulation. */
#error "not supported under emulation: cuda_fp16.h; check this file on a GPU, or leave it out of the lab"
