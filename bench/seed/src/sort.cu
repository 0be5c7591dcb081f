// sort.cu -- device-wide radix sorts: keys, pairs and pairs descending.
#include <cub/device/device_radix_sort.cuh>
#include "common.cuh"

namespace seed {
template <typename T> int sort_keys(const T *in, T *out, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, in, out, n); });
}
template <typename T> int sort_pairs(const T *ki, T *ko, const int *vi, int *vo, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, ki, ko, vi, vo, n); });
}
template <typename T> int sort_pairs_descending(const T *ki, T *ko, const int *vi, int *vo, int n)
{
	return two_phase(
		[&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairsDescending(t, b, ki, ko, vi, vo, n); });
}
#define INSTANTIATE(T) \
	template int sort_keys<T>(const T *, T *, int); \
	template int sort_pairs<T>(const T *, T *, const int *, int *, int); \
	template int sort_pairs_descending<T>(const T *, T *, const int *, int *, int);
SEED_TYPES(INSTANTIATE)
}
