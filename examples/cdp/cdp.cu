/*
 * cdp.cu -- CUDA dynamic parallelism: kernels that launch kernels (into
 * the implicit stream, the fire-and-forget stream, a stream created on
 * the device, the tail-launch stream), a recursive launch of bounded
 * depth, and a launch the device runtime must refuse. Needs -rdc=true, a
 * device link with libcudadevrt, and -lcudadevrt in the host link.
 *
 * CUDA 12 and later have no cudaDeviceSynchronize in device code: results
 * are read on the host after the parent grid, which completes only when
 * all its children have, or by a tail-launched grid.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "cdp.h"

namespace {

char failure_text[256];

const char *failure(const char *step, cudaError_t err)
{
	std::snprintf(failure_text, sizeof failure_text, "%s: %s", step,
		      cudaGetErrorString(err));
	return failure_text;
}

/* After a host <<<>>> launch: a missing image shows up in
 * cudaGetLastError, a fault in cudaDeviceSynchronize. */
const char *launched(const char *kernel)
{
	cudaError_t err = cudaGetLastError();
	if (err == cudaSuccess)
		err = cudaDeviceSynchronize();
	return err == cudaSuccess ? nullptr : failure(kernel, err);
}

/* Frees what it holds at the end of the scope. */
template <class T> struct device_array {
	T *p = nullptr;
	std::size_t n = 0;
	device_array() = default;
	device_array(const device_array &) = delete;
	device_array &operator=(const device_array &) = delete;
	~device_array() { cudaFree(p); }
	cudaError_t alloc(std::size_t count)
	{
		n = count ? count : 1;
		cudaError_t err = cudaMalloc(reinterpret_cast<void **>(&p),
					     n * sizeof(T));
		return err == cudaSuccess ? cudaMemset(p, 0, n * sizeof(T))
					  : err;
	}
	cudaError_t download(T *dst, std::size_t count) const
	{
		return cudaMemcpy(dst, p, count * sizeof(T),
				  cudaMemcpyDeviceToHost);
	}
};

} // namespace

/* Device errors: the first one, and how many. (Not in the anonymous
 * namespace: the kernels below take it as a parameter.) */
struct error_log {
	int first;
	unsigned count;
};

static __device__ void note(error_log *log, cudaError_t err)
{
	if (err == cudaSuccess)
		return;
	atomicCAS(&log->first, 0, (int)err);
	atomicAdd(&log->count, 1u);
}

#define CDP_TRY(step, call)                                                   \
	do {                                                                  \
		cudaError_t cdp_err_ = (call);                                \
		if (cdp_err_ != cudaSuccess)                                  \
			return failure((step), cdp_err_);                     \
	} while (0)

/* ---- fan-out: each parent thread launches one child grid ---- */

__global__ void fill_child(long long *slice, unsigned p, unsigned len,
			   long long salt)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < len)
		slice[i] = cdp::child_value(p, i, salt);
}

__global__ void fan_out_parent(int how, long long *out, unsigned len,
			       long long salt, error_log *log)
{
	unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned threads = 128, blocks = (len + threads - 1) / threads;
	long long *slice = out + (std::size_t)p * len;

	if (how == cdp::stream_fire_and_forget) {
		fill_child<<<blocks, threads, 0, cudaStreamFireAndForget>>>(
			slice, p, len, salt);
		note(log, cudaGetLastError());
	} else if (how == cdp::stream_device_created) {
		cudaStream_t s;
		cudaError_t err =
			cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		note(log, err);
		if (err != cudaSuccess)
			return;
		fill_child<<<blocks, threads, 0, s>>>(slice, p, len, salt);
		note(log, cudaGetLastError());
		note(log, cudaStreamDestroy(s));
	} else {
		fill_child<<<blocks, threads>>>(slice, p, len, salt);
		note(log, cudaGetLastError());
	}
}

/* ---- tail launch: runs after the parent grid and all its children ---- */

__global__ void check_tail(const long long *out, unsigned parents,
			   unsigned len, long long salt,
			   unsigned long long *right, long long *sum,
			   int *ran)
{
	std::size_t total = (std::size_t)parents * len;
	std::size_t stride = (std::size_t)gridDim.x * blockDim.x;
	for (std::size_t k = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     k < total; k += stride) {
		unsigned p = (unsigned)(k / len), i = (unsigned)(k % len);
		if (out[k] == cdp::child_value(p, i, salt))
			atomicAdd(right, 1ull);
		atomicAdd((unsigned long long *)sum,
			  (unsigned long long)out[k]);
	}
	if (blockIdx.x == 0 && threadIdx.x == 0)
		*ran = 1;
}

__global__ void tail_parent(long long *out, unsigned len, long long salt,
			    unsigned long long *right, long long *sum,
			    int *ran, error_log *log)
{
	unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned threads = 128, blocks = (len + threads - 1) / threads;

	fill_child<<<blocks, threads, 0, cudaStreamFireAndForget>>>(
		out + (std::size_t)p * len, p, len, salt);
	note(log, cudaGetLastError());
	if (p == 0) {
		unsigned parents = gridDim.x * blockDim.x;
		check_tail<<<4, 256, 0, cudaStreamTailLaunch>>>(
			out, parents, len, salt, right, sum, ran);
		note(log, cudaGetLastError());
	}
}

/* ---- a recursive launch of bounded depth ---- */

__global__ void tree_node(int depth, int max_depth, unsigned node,
			  unsigned *visits, unsigned *levels, error_log *log)
{
	atomicAdd(&visits[node], 1u);
	atomicAdd(&levels[depth], 1u);
	if (depth >= max_depth)
		return;
	for (unsigned c = 0; c < 2; c++) {
		tree_node<<<1, 1>>>(depth + 1, max_depth, 2 * node + c, visits,
				    levels, log);
		note(log, cudaGetLastError());
	}
}

/* ---- a launch the device runtime must refuse ---- */

__global__ void set_one(int *flag)
{
	*flag = 1;
}

__global__ void bad_launch_parent(int *out)
{
	set_one<<<1, 2048>>>(out + 1); /* > 1024 threads per block */
	out[0] = (int)cudaGetLastError();
	set_one<<<1, 1>>>(out + 1);
	out[2] = (int)cudaGetLastError();
}

/* ---- which image ran ---- */

__global__ void arch_child(int *out)
{
#ifdef __CUDA_ARCH__
	out[1] = __CUDA_ARCH__;
#endif
}

__global__ void arch_parent(int *out)
{
#ifdef __CUDA_ARCH__
	out[0] = __CUDA_ARCH__;
#endif
	arch_child<<<1, 1>>>(out);
}

namespace cdp {

bool query_device(device_info *dev, const char **why)
{
	int count = 0;
	cudaError_t err = cudaGetDeviceCount(&count);
	if (err != cudaSuccess) {
		*why = cudaGetErrorString(err);
		return false;
	}
	if (count == 0) {
		*why = "cudaGetDeviceCount returned 0";
		return false;
	}
	cudaDeviceProp prop;
	err = cudaGetDeviceProperties(&prop, 0);
	if (err != cudaSuccess) {
		*why = cudaGetErrorString(err);
		return false;
	}
	std::snprintf(dev->name, sizeof dev->name, "%s", prop.name);
	dev->major = prop.major;
	dev->minor = prop.minor;
	return true;
}

const char *fan_out(launch_stream how, unsigned blocks, unsigned threads,
		    unsigned len, long long salt, long long *out,
		    int *first_error, unsigned *nerrors)
{
	const std::size_t n = (std::size_t)blocks * threads * len;
	device_array<long long> d;
	device_array<error_log> log;
	CDP_TRY("cudaMalloc", d.alloc(n));
	CDP_TRY("cudaMalloc", log.alloc(1));
	fan_out_parent<<<blocks, threads>>>((int)how, d.p, len, salt, log.p);
	if (const char *err = launched("fan_out_parent"))
		return err;
	error_log h;
	CDP_TRY("cudaMemcpy to host", d.download(out, n));
	CDP_TRY("cudaMemcpy to host", log.download(&h, 1));
	*first_error = h.first;
	*nerrors = h.count;
	return nullptr;
}

const char *tail_launch(unsigned blocks, unsigned threads, unsigned len,
			long long salt, unsigned long long *right,
			long long *sum, int *tail_ran, int *first_error,
			unsigned *nerrors)
{
	const std::size_t n = (std::size_t)blocks * threads * len;
	device_array<long long> d, dsum;
	device_array<unsigned long long> dright;
	device_array<int> dran;
	device_array<error_log> log;
	CDP_TRY("cudaMalloc", d.alloc(n));
	CDP_TRY("cudaMalloc", dsum.alloc(1));
	CDP_TRY("cudaMalloc", dright.alloc(1));
	CDP_TRY("cudaMalloc", dran.alloc(1));
	CDP_TRY("cudaMalloc", log.alloc(1));
	tail_parent<<<blocks, threads>>>(d.p, len, salt, dright.p, dsum.p,
					 dran.p, log.p);
	if (const char *err = launched("tail_parent"))
		return err;
	error_log h;
	CDP_TRY("cudaMemcpy to host", dright.download(right, 1));
	CDP_TRY("cudaMemcpy to host", dsum.download(sum, 1));
	CDP_TRY("cudaMemcpy to host", dran.download(tail_ran, 1));
	CDP_TRY("cudaMemcpy to host", log.download(&h, 1));
	*first_error = h.first;
	*nerrors = h.count;
	return nullptr;
}

const char *tree(int depth, unsigned *visits, unsigned *levels,
		 int *first_error, unsigned *nerrors)
{
	if (depth < 0 || depth > tree_max_depth)
		return "tree: depth out of range";
	const std::size_t nodes = (std::size_t)2 << depth;
	device_array<unsigned> dvisits, dlevels;
	device_array<error_log> log;
	CDP_TRY("cudaMalloc", dvisits.alloc(nodes));
	CDP_TRY("cudaMalloc", dlevels.alloc(depth + 1));
	CDP_TRY("cudaMalloc", log.alloc(1));
	tree_node<<<1, 1>>>(0, depth, 1, dvisits.p, dlevels.p, log.p);
	if (const char *err = launched("tree_node"))
		return err;
	error_log h;
	CDP_TRY("cudaMemcpy to host", dvisits.download(visits, nodes));
	CDP_TRY("cudaMemcpy to host", dlevels.download(levels, depth + 1));
	CDP_TRY("cudaMemcpy to host", log.download(&h, 1));
	*first_error = h.first;
	*nerrors = h.count;
	return nullptr;
}

const char *bad_launch(int *bad_error, const char **bad_name,
		       int *valid_ran, int *after)
{
	device_array<int> d;
	CDP_TRY("cudaMalloc", d.alloc(3));
	bad_launch_parent<<<1, 1>>>(d.p);
	if (const char *err = launched("bad_launch_parent"))
		return err;
	int h[3];
	CDP_TRY("cudaMemcpy to host", d.download(h, 3));
	*bad_error = h[0];
	*bad_name = cudaGetErrorName((cudaError_t)h[0]);
	*valid_ran = h[1];
	*after = h[2];
	return nullptr;
}

int invalid_configuration()
{
	return (int)cudaErrorInvalidConfiguration;
}

const char *arch_probe(int *parent_arch, int *child_arch)
{
	device_array<int> d;
	CDP_TRY("cudaMalloc", d.alloc(2));
	arch_parent<<<1, 1>>>(d.p);
	if (const char *err = launched("arch_parent"))
		return err;
	int h[2];
	CDP_TRY("cudaMemcpy to host", d.download(h, 2));
	*parent_arch = h[0];
	*child_arch = h[1];
	return nullptr;
}

int arch_list(int *archs, int max)
{
#ifdef __CUDA_ARCH_LIST__
	const int list[] = {__CUDA_ARCH_LIST__};
	int count = (int)(sizeof list / sizeof list[0]);
	for (int i = 0; i < count && i < max; i++)
		archs[i] = list[i];
	return count;
#else
	(void)archs;
	(void)max;
	return 0;
#endif
}

const char *error_name(int code)
{
	return cudaGetErrorName((cudaError_t)code);
}

} // namespace cdp
