/*
 * util.cuh -- private host helpers of the library's CUDA TUs: the error
 * text of the rdc.h convention, a device buffer that frees itself, and
 * the check after a launch.
 */
#ifndef RDC_LIB_UTIL_CUH
#define RDC_LIB_UTIL_CUH

#include <cstddef>
#include <cstdio>

#include <cuda_runtime.h>

namespace rdc {
namespace detail {

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

/* After a <<<>>> launch: a missing image (or an unresolved device link)
 * shows up in cudaGetLastError, a fault in cudaDeviceSynchronize. */
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

inline unsigned blocks_for(std::size_t n, unsigned threads)
{
	std::size_t b = (n + threads - 1) / threads;
	return b ? (unsigned)b : 1u;
}

} // namespace detail
} // namespace rdc

/* Returns the failure text from the enclosing function if CALL fails. */
#define RDC_TRY(step, call)                                                   \
	do {                                                                  \
		cudaError_t rdc_err_ = (call);                                \
		if (rdc_err_ != cudaSuccess)                                  \
			return ::rdc::detail::failure((step), rdc_err_);      \
	} while (0)

#endif
