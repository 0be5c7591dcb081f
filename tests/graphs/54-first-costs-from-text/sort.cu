// two CUB algorithms for five types: the scan must see 10 instantiations
// through the X-list in a header, and weigh the sort three times the sum
#include <t/types.h>
namespace t {
template <typename T> int keys(const T *in, T *out, int n)
{
	size_t bytes = 0;
	return cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n);
}
template <typename T> int sum(const T *in, T *out, int n)
{
	size_t bytes = 0;
	return cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
}
#define INSTANTIATE(T) \
	template int keys<T>(const T *, T *, int); \
	template int sum<T>(const T *, T *, int);
T_TYPES(INSTANTIATE)
}
