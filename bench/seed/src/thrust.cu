// thrust.cu -- Thrust's sort by key and transform-reduce.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include "common.cuh"

namespace seed {
struct Square {
	template <typename T> __host__ __device__ double operator()(const T &a) const { return double(a) * double(a); }
};

template <typename T> int thrust_sort_by_key(T *keys, int *vals, int n)
{
	thrust::sort_by_key(thrust::device, keys, keys + n, vals);
	return cudaDeviceSynchronize();
}
template <typename T> double thrust_sum_of_squares(const T *in, int n)
{
	return thrust::transform_reduce(thrust::device, in, in + n, Square(), 0.0, thrust::plus<double>());
}
#define INSTANTIATE(T) \
	template int thrust_sort_by_key<T>(T *, int *, int); \
	template double thrust_sum_of_squares<T>(const T *, int);
SEED_TYPES(INSTANTIATE)
}
