/*
 * transform.cu -- a templated kernel instantiated for several types, and
 * an anonymous-namespace kernel whose name (like the one in symbols.cu)
 * carries this TU's module id.
 */
#include "multi/gpu.h"

#include "cuda_util.cuh"

template <class T>
__global__ void axpy_kernel(T a, const T *__restrict__ x, T *__restrict__ y,
			    std::size_t n)
{
	std::size_t stride = (std::size_t)gridDim.x * blockDim.x;
	for (std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n; i += stride)
		y[i] = a * x[i] + y[i];
}

namespace {

/* Same name and signature as identify() in symbols.cu. */
__global__ void identify(int *id)
{
	*id = multi::gpu::transform_tu_id;
}

} // namespace

namespace multi {
namespace gpu {

template <class T> const char *axpy(T a, const T *x, T *y, std::size_t n)
{
	device_buffer<T> dx, dy;
	MULTI_TRY("cudaMalloc", dx.alloc(n));
	MULTI_TRY("cudaMalloc", dy.alloc(n));
	MULTI_TRY("cudaMemcpy to device", dx.upload(x, n));
	MULTI_TRY("cudaMemcpy to device", dy.upload(y, n));
	unsigned blocks = (unsigned)((n + 255) / 256);
	axpy_kernel<T><<<blocks ? blocks : 1, 256>>>(a, dx.p, dy.p, n);
	if (const char *err = launched("axpy_kernel"))
		return err;
	MULTI_TRY("cudaMemcpy to host", dy.download(y, n));
	return nullptr;
}

template const char *axpy<int>(int, const int *, int *, std::size_t);
template const char *axpy<unsigned>(unsigned, const unsigned *, unsigned *,
				    std::size_t);
template const char *axpy<float>(float, const float *, float *, std::size_t);
template const char *axpy<double>(double, const double *, double *,
				  std::size_t);

const char *identify_transform(int *id)
{
	device_buffer<int> d;
	MULTI_TRY("cudaMalloc", d.alloc(1));
	MULTI_TRY("cudaMemset", cudaMemset(d.p, 0, sizeof(int)));
	identify<<<1, 1>>>(d.p);
	if (const char *err = launched("identify (transform.cu)"))
		return err;
	MULTI_TRY("cudaMemcpy to host", d.download(id, 1));
	return nullptr;
}

} // namespace gpu
} // namespace multi
