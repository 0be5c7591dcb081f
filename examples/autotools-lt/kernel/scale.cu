// scale.cu -- the kernel and its C entry points; comp_op is in ops.cu.
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "kernels.h"
#include "ops.cuh"
#include <cuda_runtime.h>

#ifndef COMP_BLOCK
#error "configure's config.h did not reach the kernels"
#endif

__global__ void apply(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] = comp_op(v[i]);
}

extern "C" int kernels_block(void)
{
	return COMP_BLOCK;
}

extern "C" int kernels_apply(int *v, int n)
{
	int devices = 0;
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
		return 77;
	int *d = nullptr;
	if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
		return 1;
	cudaMemcpy(d, v, n * sizeof(int), cudaMemcpyHostToDevice);
	apply<<<(n + COMP_BLOCK - 1) / COMP_BLOCK, COMP_BLOCK>>>(d, n);
	cudaError_t e = cudaMemcpy(v, d, n * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return e == cudaSuccess ? 0 : 1;
}
