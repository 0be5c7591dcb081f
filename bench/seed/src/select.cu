// select.cu -- device-wide selection: by a predicate, by flags, the
// unique runs, and a partition by a predicate.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include "common.cuh"

namespace seed {
template <typename T> int select_positive(const T *in, T *out, int *count, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceSelect::If(t, b, in, out, count, n, Positive()); });
}
template <typename T> int select_flagged(const T *in, const char *flags, T *out, int *count, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceSelect::Flagged(t, b, in, flags, out, count, n); });
}
template <typename T> int unique(const T *in, T *out, int *count, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DeviceSelect::Unique(t, b, in, out, count, n); });
}
template <typename T> int partition_positive(const T *in, T *out, int *count, int n)
{
	return two_phase([&](void *t, size_t &b) { return cub::DevicePartition::If(t, b, in, out, count, n, Positive()); });
}
#define INSTANTIATE(T) \
	template int select_positive<T>(const T *, T *, int *, int); \
	template int select_flagged<T>(const T *, const char *, T *, int *, int); \
	template int unique<T>(const T *, T *, int *, int); \
	template int partition_positive<T>(const T *, T *, int *, int);
SEED_TYPES(INSTANTIATE)
}
