/*
 * multi/reference.h -- host reference implementations the self-checks
 * compare the GPU results with (lib/reference.cpp, plain C++).
 */
#ifndef MULTI_REFERENCE_H
#define MULTI_REFERENCE_H

#include <cstddef>

namespace multi {
namespace ref {

/* Instantiated in lib/reference.cpp for int, unsigned, float, double. */
template <class T> void axpy(T a, const T *x, T *y, std::size_t n);

long long poly_eval(const int *coeffs, int ncoeffs, int x);
void inclusive_scan(const int *in, int *out, std::size_t n);
long long sum(const int *in, std::size_t n);
/* sums[w] = in[32w] + ... + in[32w+31] (mod 2^32) */
void warp_sums(const unsigned *in, unsigned *sums, std::size_t warps);

/* The __CUDA_ARCH__ value the CUDA runtime should pick on a device of
 * compute capability major.minor among the archs: the highest not above
 * it (SASS of an older minor, or PTX JIT). 0 if none qualifies. */
int best_arch(const int *archs, int count, int major, int minor);

} // namespace ref
} // namespace multi

#endif
