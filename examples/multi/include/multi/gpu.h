/*
 * multi/gpu.h -- the GPU entry points of the multi library, one group per
 * CUDA translation unit in lib/. Plain C++ (no CUDA types), so the checks
 * in lib/checks.cpp are compiled by the host C++ compiler alone.
 *
 * Every function takes and returns host arrays, and returns NULL on
 * success or "STEP: CUDA error text" (a thread-local buffer) on failure.
 */
#ifndef MULTI_GPU_H
#define MULTI_GPU_H

#include <cstddef>

namespace multi {
namespace gpu {

/* lib/transform.cu: y[i] = a * x[i] + y[i] with a templated kernel,
 * instantiated there for int, unsigned, float and double. */
template <class T> const char *axpy(T a, const T *x, T *y, std::size_t n);
extern template const char *axpy<int>(int, const int *, int *, std::size_t);
extern template const char *axpy<unsigned>(unsigned, const unsigned *,
					   unsigned *, std::size_t);
extern template const char *axpy<float>(float, const float *, float *,
					 std::size_t);
extern template const char *axpy<double>(double, const double *, double *,
					  std::size_t);

/* lib/transform.cu and lib/symbols.cu each define a kernel named
 * `identify` in an anonymous namespace; each writes its TU's id. */
const int transform_tu_id = 0x7a;
const int symbols_tu_id = 0x5b;
const char *identify_transform(int *id);
const char *identify_symbols(int *id);

/* lib/symbols.cu: an anonymous-namespace __device__ int set with
 * cudaMemcpyToSymbol, read and changed (x * 2 + 1) by a kernel, read back
 * with cudaMemcpyFromSymbol. */
const char *anon_variable(int in, int *out);

/* lib/symbols.cu: y[i] = sum_k coeffs[k] * x[i]^k, coefficients in
 * __constant__ memory (cudaMemcpyToSymbol); ncoeffs <= poly_max. */
const int poly_max = 8;
const char *poly_eval(const int *coeffs, int ncoeffs, const int *x,
		      long long *y, std::size_t n);

/* lib/symbols.cu: every thread of blocks x threads adds 1 to a __device__
 * counter and its global index to a __device__ sum (atomics). */
const char *count_threads(unsigned blocks, unsigned threads,
			  unsigned long long *hits,
			  unsigned long long *index_sum);

/* lib/arch.cu: one warp per 32 inputs sums them; on __CUDA_ARCH__ >= 800
 * with __reduce_add_sync (include/multi/sm80_only.cuh, path 0x800),
 * below with shuffles (path 0x300). *ran_arch is the __CUDA_ARCH__ of
 * the image that ran, read from a __device__ variable. */
const unsigned path_sm80_redux = 0x800;
const unsigned path_shuffle = 0x300;
const char *warp_sums(const unsigned *in, unsigned *sums, std::size_t warps,
		      int *ran_arch, unsigned *path);

/* lib/arch.cu: __CUDA_ARCH_LIST__ as the host side of arch.cu saw it.
 * Returns the count (at most max stored). */
int arch_list(int *archs, int max);

/* lib/arch.cu: out[i] = in[i] * 3 + MAGIC, where MAGIC and TAG come from
 * include/multi/device_only.cuh, which only the device passes include.
 * *magic and tag (NUL-terminated, truncated to taglen) return them. */
const char *device_only(const unsigned *in, unsigned *out, std::size_t n,
			unsigned *magic, char *tag, std::size_t taglen);

/* lib/scan.cu: CUB, two-phase temporary storage. */
const char *inclusive_scan(const int *in, int *out, int n);
const char *reduce_sum(const int *in, int n, int *sum);

} // namespace gpu
} // namespace multi

#endif
