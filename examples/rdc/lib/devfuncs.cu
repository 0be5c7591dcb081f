/*
 * devfuncs.cu -- device code only: __device__ functions that kernels in
 * kernels.cu call. No kernel, no host function: nothing on the host side
 * refers to this TU, so the host linker pulls it out of the static
 * library only because the device link's registration code names it, and
 * nvlink pulls it only to resolve the calls from kernels.cu. Without -rdc
 * (or without a device link) those calls are unresolved.
 */
#include "device.cuh"

namespace rdc {

/* A multiplicative hash; app/main.cpp has the same formula on the host. */
__device__ unsigned mix(unsigned x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* Recursive on purpose: a call the compiler of kernels.cu cannot see into
 * (except with device link-time optimisation, which may inline it). */
__device__ unsigned gcd(unsigned a, unsigned b)
{
	return b ? gcd(b, a % b) : a;
}

__device__ int device_arch()
{
#ifdef __CUDA_ARCH__
	return __CUDA_ARCH__;
#else
	return 0;
#endif
}

} // namespace rdc

__device__ unsigned rdc_origin()
{
	return 0x57a71cu; /* rdc::static_origin in rdc/rdc.h */
}
