// seed.h -- the seed benchmark's library: device-wide sort, scan, reduce,
// histogram, select and a few Thrust algorithms over ten element types,
// each a function that runs on device memory and returns 0 on success
// (a cudaError_t otherwise). Shaped like the CUB/Thrust-heavy kernels of
// the libraries cugen's users build: one large TU per algorithm family.
#pragma once
#include <cstddef>

// The element types every family is instantiated for.
#define SEED_TYPES(X) \
	X(signed char) X(unsigned char) X(short) X(unsigned short) X(int) \
	X(unsigned int) X(long long) X(unsigned long long) X(float) X(double)

namespace seed {
template <typename T> int sort_keys(const T *in, T *out, int n);
template <typename T> int sort_pairs(const T *keys_in, T *keys_out, const int *vals_in, int *vals_out, int n);
template <typename T> int sort_pairs_descending(const T *keys_in, T *keys_out, const int *vals_in, int *vals_out, int n);
template <typename T> int inclusive_sum(const T *in, T *out, int n);
template <typename T> int exclusive_sum(const T *in, T *out, int n);
template <typename T> int inclusive_max(const T *in, T *out, int n);
template <typename T> int sum(const T *in, T *out, int n);
template <typename T> int min(const T *in, T *out, int n);
template <typename T> int max(const T *in, T *out, int n);
template <typename T> int histogram_even(const T *samples, int *bins, int nbins, T lower, T upper, int n);
template <typename T> int select_positive(const T *in, T *out, int *count, int n);
template <typename T> int select_flagged(const T *in, const char *flags, T *out, int *count, int n);
template <typename T> int unique(const T *in, T *out, int *count, int n);
template <typename T> int partition_positive(const T *in, T *out, int *count, int n);
template <typename T> int thrust_sort_by_key(T *keys, int *vals, int n);
template <typename T> double thrust_sum_of_squares(const T *in, int n);
}
