/* cuda_bf16.h: tilelab emulation mode: __nv_bfloat16 as lab 08 uses it. A value is its 16 bits (the
 * top half of an FP32 number); converting from float rounds to nearest, ties to even (as
 * __float2bfloat16 and __float2bfloat16_rn do on the GPU); NaN stays NaN. Arithmetic on BF16 values
 * goes through float, as the GPU's BF16 operators round each result. Not here (fails at build):
 * the __nv_bfloat162 pair type and the h* intrinsics. */
#ifndef TL_EMU_CUDA_BF16_H
#define TL_EMU_CUDA_BF16_H
#include <cstdint>
#include <cstring>

struct __nv_bfloat16 {
    unsigned short x;
    __nv_bfloat16() = default;
    static unsigned short round(float f) {
        uint32_t b;
        std::memcpy(&b, &f, sizeof b);
        if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu))
            return (unsigned short)((b >> 16) | 0x40u);
        b += 0x7FFFu + ((b >> 16) & 1u);
        return (unsigned short)(b >> 16);
    }
    __nv_bfloat16(float f) : x(round(f)) {}
    __nv_bfloat16(double f) : x(round((float)f)) {}
    __nv_bfloat16(int i) : x(round((float)i)) {}
    operator float() const {
        uint32_t b = (uint32_t)x << 16;
        float f;
        std::memcpy(&f, &b, sizeof f);
        return f;
    }
};
typedef __nv_bfloat16 nv_bfloat16;

static inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
static inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
#endif
