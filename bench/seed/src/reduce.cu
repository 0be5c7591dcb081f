// reduce.cu -- device-wide reductions: sum, minimum, maximum.
#include <cub/device/device_reduce.cuh>
#include "common.cuh"

namespace seed {
template <typename T> int sum(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, in, out, n); });
}
template <typename T> int min(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceReduce::Min(t, b, in, out, n); });
}
template <typename T> int max(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, in, out, n); });
}
#define INSTANTIATE(T) \
	template int sum<T>(const T *, T *, int); \
	template int min<T>(const T *, T *, int); \
	template int max<T>(const T *, T *, int);
SEED_TYPES(INSTANTIATE)
}
