/*
 * reference.cpp -- host reference implementations the self-checks compare
 * GPU results with. Plain C++, compiled by the host C++ compiler.
 */
#include "multi/reference.h"

namespace multi {
namespace ref {

template <class T> void axpy(T a, const T *x, T *y, std::size_t n)
{
	for (std::size_t i = 0; i < n; i++)
		y[i] = a * x[i] + y[i];
}

template void axpy<int>(int, const int *, int *, std::size_t);
template void axpy<unsigned>(unsigned, const unsigned *, unsigned *,
			     std::size_t);
template void axpy<float>(float, const float *, float *, std::size_t);
template void axpy<double>(double, const double *, double *, std::size_t);

long long poly_eval(const int *coeffs, int ncoeffs, int x)
{
	long long acc = 0;
	for (int k = ncoeffs - 1; k >= 0; k--)
		acc = acc * x + coeffs[k];
	return acc;
}

void inclusive_scan(const int *in, int *out, std::size_t n)
{
	int acc = 0;
	for (std::size_t i = 0; i < n; i++)
		out[i] = acc += in[i];
}

long long sum(const int *in, std::size_t n)
{
	long long acc = 0;
	for (std::size_t i = 0; i < n; i++)
		acc += in[i];
	return acc;
}

void warp_sums(const unsigned *in, unsigned *sums, std::size_t warps)
{
	for (std::size_t w = 0; w < warps; w++) {
		unsigned s = 0;
		for (std::size_t l = 0; l < 32; l++)
			s += in[w * 32 + l];
		sums[w] = s;
	}
}

int best_arch(const int *archs, int count, int major, int minor)
{
	int device = major * 100 + minor * 10, best = 0;
	for (int i = 0; i < count; i++)
		if (archs[i] <= device && archs[i] > best)
			best = archs[i];
	return best;
}

} // namespace ref
} // namespace multi
