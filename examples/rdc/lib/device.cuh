/*
 * device.cuh -- what the library's CUDA TUs share on the device side:
 * the __device__ functions defined in devfuncs.cu and the __device__
 * variables defined in state.cu. Declarations only: with relocatable
 * device code each definition lives in one TU and nvlink resolves the
 * references from the others when the executable is device-linked.
 */
#ifndef RDC_LIB_DEVICE_CUH
#define RDC_LIB_DEVICE_CUH

/* devfuncs.cu */
namespace rdc {
__device__ unsigned mix(unsigned x);
__device__ unsigned gcd(unsigned a, unsigned b); /* recursive */
__device__ int device_arch(); /* __CUDA_ARCH__ of devfuncs.cu's code */
} // namespace rdc

/* Defined again, with another value, in the shared library's device code
 * (shlib/weights.cu): each device link must see only its own. */
__device__ unsigned rdc_origin();

/* state.cu */
extern __device__ int rdc_bias;
extern __device__ unsigned long long rdc_total;

#endif
