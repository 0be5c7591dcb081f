/* scale.cu -- a plain kernel and its launcher, extern "C" through the
 * define the build passes, as Cython-generated CUDA code gets it */
#include <cuda_runtime.h>
#include "pyext.h"

__global__ void scale_kernel(float *p, int n, float by)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= by;
}

CYTHON_EXTERN_C int pyext_scale(float *host, int n, float by)
{
	float *d = nullptr;
	if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
		return -1;
	cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
	scale_kernel<<<(n + 255) / 256, 256>>>(d, n, by);
	cudaError_t e = cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return e == cudaSuccess ? 0 : -1;
}
