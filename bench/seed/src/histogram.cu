// histogram.cu -- device-wide histograms with evenly spaced bins.
#include <cub/device/device_histogram.cuh>
#include "common.cuh"

namespace seed {
template <typename T> int histogram_even(const T *samples, int *bins, int nbins, T lower, T upper, int n)
{
	return two_phase([&](void *t, size_t &b) {
		return cub::DeviceHistogram::HistogramEven(t, b, samples, bins, nbins + 1, lower, upper, n);
	});
}
#define INSTANTIATE(T) template int histogram_even<T>(const T *, int *, int, T, T, int);
SEED_TYPES(INSTANTIATE)
}
