// common.cuh -- what the seed's TUs share: CUB's two-phase call (ask the
// temporary storage, allocate it, run) as one helper.
#pragma once
#include <cuda_runtime.h>
#include "seed.h"

namespace seed {
// f(temp, bytes) twice: first to size the temporary storage, then to run.
template <typename F> int two_phase(F f)
{
	size_t bytes = 0;
	cudaError_t e = f(nullptr, bytes);
	if (e != cudaSuccess)
		return e;
	void *temp = nullptr;
	if ((e = cudaMalloc(&temp, bytes ? bytes : 1)) != cudaSuccess)
		return e;
	e = f(temp, bytes);
	cudaError_t s = cudaDeviceSynchronize();
	cudaFree(temp);
	return e != cudaSuccess ? e : s;
}

struct MaxOp {
	template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

struct Positive {
	template <typename T> __host__ __device__ bool operator()(const T &a) const { return a > T(0); }
};
}
