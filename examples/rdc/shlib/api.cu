/*
 * api.cu -- the shared library's exported host functions (rdc/shared.h)
 * and their kernels, which call weights.cu's __device__ functions. Each
 * host function does all its own CUDA work (allocation, copies, launch),
 * so the .so can carry its own copy of the CUDA runtime.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "rdc/shared.h"

#include "shlib.cuh"

namespace {

const char *failure(const char *step, cudaError_t err)
{
	static thread_local char text[256];
	std::snprintf(text, sizeof text, "%s: %s", step,
		      cudaGetErrorString(err));
	return text;
}

const char *launched(const char *kernel)
{
	cudaError_t err = cudaGetLastError();
	if (err == cudaSuccess)
		err = cudaDeviceSynchronize();
	return err == cudaSuccess ? nullptr : failure(kernel, err);
}

/* Frees what it holds at the end of the scope. */
struct device_bytes {
	void *p = nullptr;
	device_bytes() = default;
	device_bytes(const device_bytes &) = delete;
	device_bytes &operator=(const device_bytes &) = delete;
	~device_bytes() { cudaFree(p); }
};

/* Same name and signature as the static library's two identify(). */
__global__ void identify(int *id)
{
	*id = rdcshared::shared_tu_id;
}

} // namespace

#define SH_TRY(step, call)                                                    \
	do {                                                                  \
		cudaError_t sh_err_ = (call);                                 \
		if (sh_err_ != cudaSuccess)                                   \
			return failure((step), sh_err_);                      \
	} while (0)

__global__ void weigh_kernel(const int *__restrict__ in,
			     long long *__restrict__ out, std::size_t n)
{
	std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = rdcshared::weight(in[i], i);
}

__global__ void shared_arch_kernel(int *out)
{
#ifdef __CUDA_ARCH__
	out[0] = __CUDA_ARCH__;
#endif
	out[1] = rdcshared::device_arch();
}

__global__ void shared_origin_kernel(unsigned *out)
{
	*out = rdc_origin();
}

namespace rdcshared {

const char *weigh(const int *in, long long *out, std::size_t n,
		  unsigned long long *calls)
{
	const unsigned long long zero = 0;
	SH_TRY("cudaMemcpyToSymbol rdcsh_calls",
	       cudaMemcpyToSymbol(rdcsh_calls, &zero, sizeof zero));
	device_bytes din, dout;
	SH_TRY("cudaMalloc", cudaMalloc(&din.p, (n ? n : 1) * sizeof(int)));
	SH_TRY("cudaMalloc",
	       cudaMalloc(&dout.p, (n ? n : 1) * sizeof(long long)));
	SH_TRY("cudaMemcpy to device",
	       cudaMemcpy(din.p, in, n * sizeof(int), cudaMemcpyHostToDevice));
	std::size_t blocks = (n + 127) / 128;
	weigh_kernel<<<blocks ? (unsigned)blocks : 1u, 128>>>(
		(const int *)din.p, (long long *)dout.p, n);
	if (const char *err = launched("weigh_kernel (rdcshared)"))
		return err;
	SH_TRY("cudaMemcpy to host", cudaMemcpy(out, dout.p,
						n * sizeof(long long),
						cudaMemcpyDeviceToHost));
	SH_TRY("cudaMemcpyFromSymbol rdcsh_calls",
	       cudaMemcpyFromSymbol(calls, rdcsh_calls, sizeof *calls));
	return nullptr;
}

/* Runs a kernel that writes COUNT values of type T to *out. */
template <class T, class K>
static const char *probe(K kernel, const char *name, T *out, int count)
{
	device_bytes d;
	SH_TRY("cudaMalloc", cudaMalloc(&d.p, count * sizeof(T)));
	SH_TRY("cudaMemset", cudaMemset(d.p, 0, count * sizeof(T)));
	kernel<<<1, 1>>>((T *)d.p);
	if (const char *err = launched(name))
		return err;
	SH_TRY("cudaMemcpy to host", cudaMemcpy(out, d.p, count * sizeof(T),
						cudaMemcpyDeviceToHost));
	return nullptr;
}

const char *origin(unsigned *value)
{
	return probe(shared_origin_kernel, "shared_origin_kernel", value, 1);
}

const char *identify(int *id)
{
	return probe(::identify, "identify (rdcshared)", id, 1);
}

const char *arch_probe(int *kernel_arch, int *function_arch)
{
	int h[2] = {0, 0};
	if (const char *err =
		    probe(shared_arch_kernel, "shared_arch_kernel", h, 2))
		return err;
	*kernel_arch = h[0];
	*function_arch = h[1];
	return nullptr;
}

} // namespace rdcshared
