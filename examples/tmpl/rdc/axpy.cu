/*
 * axpy.cu -- a kernel template calling ops.cu's tmpl_fma across TUs, and
 * a file-static device counter (in rdc its name holds the module id),
 * and a device assert (its message names this file).
 */
#include <cassert>

#include "tmpl/tmpl.h"

template <typename T> __device__ T tmpl_fma(T a, T x, T y);
extern template __device__ float tmpl_fma<float>(float, float, float);
extern template __device__ double tmpl_fma<double>(double, double, double);

static __device__ unsigned elements;

namespace {
template <typename T> __global__ void axpy_kernel(T a, const T *x, T *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	assert(n >= 0); /* device code naming this file too (__FILE__) */
	if (i < n) {
		y[i] = tmpl_fma(a, x[i], y[i]);
		atomicAdd(&elements, 1u);
	}
}
} // namespace

template <typename T> cudaError_t tmpl_axpy(T a, const T *x, T *y, int n, unsigned *count)
{
	unsigned zero = 0;
	cudaError_t e = cudaMemcpyToSymbol(elements, &zero, sizeof zero);
	if (e != cudaSuccess)
		return e;
	axpy_kernel<T><<<(n + 255) / 256, 256>>>(a, x, y, n);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return e;
	return cudaMemcpyFromSymbol(count, elements, sizeof *count);
}

template cudaError_t tmpl_axpy<float>(float, const float *, float *, int, unsigned *);
template cudaError_t tmpl_axpy<double>(double, const double *, double *, int, unsigned *);
