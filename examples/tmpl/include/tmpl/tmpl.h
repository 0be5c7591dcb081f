/*
 * tmpl.h -- the tmpl example's interface: function templates whose only
 * definitions are explicit instantiations in the library's TUs (for int,
 * float and double where listed). Each returns the first CUDA error.
 */
#ifndef TMPL_H
#define TMPL_H

#include <cuda_runtime.h>

/* d[i] *= s for i < n (lib/scale.cu: int, float) */
template <typename T> cudaError_t tmpl_scale(T *d, T s, int n);

/* *out = the sum of in[0..n) with CUB's device reduction (lib/sum.cu:
 * int, float); in and out are device pointers */
template <typename T> cudaError_t tmpl_sum(const T *in, T *out, int n);

/* y[i] = a * x[i] + y[i] through device code of another TU (rdc/axpy.cu
 * and rdc/ops.cu: float, double); also counts the elements on the device */
template <typename T> cudaError_t tmpl_axpy(T a, const T *x, T *y, int n, unsigned *count);

#endif
