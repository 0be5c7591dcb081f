/* fill.cu -- kernels that are templates only, as CuPy's CUB and Thrust
 * TUs are (plain nvcc gives such a TU random module ids; cugen a fixed
 * one) */
#include <cuda_runtime.h>
#include "pyext.h"

template <class T> __global__ void fill_kernel(T *p, int n, T v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v;
}

template <class T> static int fill(T *host, int n, T v)
{
	T *d = nullptr;
	if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess)
		return -1;
	fill_kernel<T><<<(n + 255) / 256, 256>>>(d, n, v);
	cudaError_t e = cudaMemcpy(host, d, n * sizeof(T), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return e == cudaSuccess ? 0 : -1;
}

CYTHON_EXTERN_C int pyext_fill_int(int *host, int n, int v)
{
	return fill<int>(host, n, v);
}
