/*
 * shlib.cuh -- what the shared library's two CUDA TUs share on the device
 * side: weights.cu defines, api.cu calls and uses. The .so's own device
 * link (inside the .so) resolves these; the executable never sees them.
 */
#ifndef RDC_SHLIB_CUH
#define RDC_SHLIB_CUH

/* weights.cu */
namespace rdcshared {
/* (long long)x * x * 7 - 3 * i + 11; counts its calls in rdcsh_calls. */
__device__ long long weight(int x, unsigned long long i);
__device__ int device_arch(); /* __CUDA_ARCH__ of weights.cu's code */
} // namespace rdcshared

/* Same name as the static library's (lib/devfuncs.cu), another value. */
__device__ unsigned rdc_origin();

extern __device__ unsigned long long rdcsh_calls;

#endif
