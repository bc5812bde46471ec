/* curand_kernel.h: tilelab emulation mode shim: not available under emulation. */
#error "not supported under emulation: curand_kernel.h; check this file on a GPU, or leave it out of the lab"
