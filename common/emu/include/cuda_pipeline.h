/* cuda_pipeline.h: tilelab emulation mode shim: not available under emulation. */
#error "not supported under emulation: cuda_pipeline.h; check this file on a GPU, or leave it out of the lab"
