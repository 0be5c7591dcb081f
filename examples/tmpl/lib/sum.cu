/*
 * sum.cu -- CUB's device-wide reduction behind a function template,
 * instantiated for int and float: CUB's kernels are templates too.
 */
#include <cub/device/device_reduce.cuh>

#include "tmpl/tmpl.h"

template <typename T> cudaError_t tmpl_sum(const T *in, T *out, int n)
{
	size_t bytes = 0;
	cudaError_t e = cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
	if (e != cudaSuccess)
		return e;
	void *tmp = nullptr;
	if ((e = cudaMalloc(&tmp, bytes)) != cudaSuccess)
		return e;
	e = cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
	cudaError_t f = cudaFree(tmp);
	return e != cudaSuccess ? e : f;
}

template cudaError_t tmpl_sum<int>(const int *, int *, int);
template cudaError_t tmpl_sum<float>(const float *, float *, int);
