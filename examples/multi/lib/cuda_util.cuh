/*
 * cuda_util.cuh -- private helpers shared by the library's CUDA TUs:
 * error text for the gpu.h convention, a device buffer that frees itself,
 * and the launch check.
 */
#ifndef MULTI_CUDA_UTIL_CUH
#define MULTI_CUDA_UTIL_CUH

#include <cstddef>
#include <cstdio>

#include <cuda_runtime.h>

namespace multi {
namespace gpu {

/* "STEP: CUDA error text", in a thread-local buffer. */
inline const char *failure(const char *step, cudaError_t err)
{
	static thread_local char text[256];
	std::snprintf(text, sizeof text, "%s: %s", step,
		      cudaGetErrorString(err));
	return text;
}

template <class T> struct device_buffer {
	T *p = nullptr;
	device_buffer() = default;
	device_buffer(const device_buffer &) = delete;
	device_buffer &operator=(const device_buffer &) = delete;
	~device_buffer() { cudaFree(p); }
	cudaError_t alloc(std::size_t n)
	{
		return cudaMalloc(reinterpret_cast<void **>(&p),
				  (n ? n : 1) * sizeof(T));
	}
	cudaError_t upload(const T *src, std::size_t n)
	{
		return cudaMemcpy(p, src, n * sizeof(T),
				  cudaMemcpyHostToDevice);
	}
	cudaError_t download(T *dst, std::size_t n) const
	{
		return cudaMemcpy(dst, p, n * sizeof(T),
				  cudaMemcpyDeviceToHost);
	}
};

/* After a <<<>>> launch: a missing image or bad configuration shows up
 * in cudaGetLastError, a fault in cudaDeviceSynchronize. */
inline const char *launched(const char *kernel)
{
	cudaError_t err = cudaGetLastError();
	if (err != cudaSuccess)
		return failure(kernel, err);
	err = cudaDeviceSynchronize();
	if (err != cudaSuccess)
		return failure(kernel, err);
	return nullptr;
}

} // namespace gpu
} // namespace multi

/* Returns the failure text from the enclosing function if CALL fails. */
#define MULTI_TRY(step, call)                                                 \
	do {                                                                  \
		cudaError_t multi_err_ = (call);                              \
		if (multi_err_ != cudaSuccess)                                \
			return ::multi::gpu::failure((step), multi_err_);     \
	} while (0)

#endif
