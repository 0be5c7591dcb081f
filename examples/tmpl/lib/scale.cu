/*
 * scale.cu -- a kernel template in an anonymous namespace (registered
 * under a name that holds the TU's module id) and its launcher, defined
 * only through explicit instantiations.
 */
#include <cassert>

#include "tmpl/tmpl.h"

namespace {
template <typename T> __global__ void scale_kernel(T *d, T s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		d[i] *= s;
}
} // namespace

template <typename T> cudaError_t tmpl_scale(T *d, T s, int n)
{
	assert(n >= 0); /* (its message names this file: __FILE__) */
	scale_kernel<T><<<(n + 255) / 256, 256>>>(d, s, n);
	return cudaGetLastError();
}

template cudaError_t tmpl_scale<int>(int *, int, int);
template cudaError_t tmpl_scale<float>(float *, float, int);
