// increment.cu -- a kernel behind a C interface.
#include "kernels.h"
#include <cuda_runtime.h>

#define STR2(...) #__VA_ARGS__
#define STR(...) STR2(__VA_ARGS__)

__global__ void increment(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] += 1;
}

extern "C" const char *demo_archs(void)
{
	return STR(__CUDA_ARCH_LIST__);
}

extern "C" int demo_increment(int *values, int n)
{
	int devices = 0;
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
		return 77;
	int *d = nullptr;
	if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
		return 1;
	cudaMemcpy(d, values, n * sizeof(int), cudaMemcpyHostToDevice);
	increment<<<(n + 255) / 256, 256>>>(d, n);
	cudaError_t e = cudaMemcpy(values, d, n * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return e == cudaSuccess ? 0 : 1;
}
