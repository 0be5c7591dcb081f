/*
 * weights.cu -- the shared library's __device__ functions and its
 * __device__ call counter, used from the kernels in api.cu.
 */
#include "shlib.cuh"

__device__ unsigned long long rdcsh_calls;

namespace rdcshared {

__device__ long long weight(int x, unsigned long long i)
{
	atomicAdd(&rdcsh_calls, 1ull);
	return (long long)x * x * 7 - 3 * (long long)i + 11;
}

__device__ int device_arch()
{
#ifdef __CUDA_ARCH__
	return __CUDA_ARCH__;
#else
	return 0;
#endif
}

} // namespace rdcshared

__device__ unsigned rdc_origin()
{
	return 0x5ba7edu; /* rdcshared::shared_origin in rdc/shared.h */
}
