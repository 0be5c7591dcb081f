// scan.cu -- device-wide prefix scans: inclusive and exclusive sums, an
// inclusive running maximum.
#include <cub/device/device_scan.cuh>
#include "common.cuh"

namespace seed {
template <typename T> int inclusive_sum(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, in, out, n); });
}
template <typename T> int exclusive_sum(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, n); });
}
template <typename T> int inclusive_max(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveScan(t, b, in, out, MaxOp(), n); });
}
#define INSTANTIATE(T) \
	template int inclusive_sum<T>(const T *, T *, int); \
	template int exclusive_sum<T>(const T *, T *, int); \
	template int inclusive_max<T>(const T *, T *, int);
SEED_TYPES(INSTANTIATE)
}
