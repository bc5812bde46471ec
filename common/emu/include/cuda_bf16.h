/* cuda_bf16.h: tilelab emulation mode shim: not available under emulation. */
#error "not supported under emulation: cuda_bf16.h; check this file on a GPU, or leave it out of the lab"
