/*
 * arch.cu -- code that differs per GPU architecture: __CUDA_ARCH__ >= 800
 * takes the redux path of include/multi/sm80_only.cuh, older archs a
 * shuffle loop; a __device__ variable records which image ran. Also the
 * device-only header include/multi/device_only.cuh, which the host view
 * of this file never includes.
 */
#ifdef __CUDA_ARCH__
#include "multi/device_only.cuh"
#endif
#if __CUDA_ARCH__ >= 800
#include "multi/sm80_only.cuh"
#endif

#include <cstring>

#include "multi/gpu.h"
#include "multi/multi.h"

#include "cuda_util.cuh"

/* __CUDA_ARCH__ of the image that ran warp_sum_kernel. */
__device__ int ran_arch;

__global__ void warp_sum_kernel(const unsigned *__restrict__ in,
				unsigned *__restrict__ sums, std::size_t warps,
				unsigned *path)
{
	std::size_t warp = ((std::size_t)blockIdx.x * blockDim.x +
			    threadIdx.x) / 32;
	unsigned lane = threadIdx.x % 32;
	if (warp >= warps) /* whole warps only: blockDim.x % 32 == 0 */
		return;
	unsigned v = in[warp * 32 + lane];
#if __CUDA_ARCH__ >= 800
	unsigned s = multi_warp_sum(v);
	const unsigned my_path = MULTI_SM80_PATH;
#else
	unsigned s = v;
	for (int d = 16; d > 0; d /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, d);
	const unsigned my_path = multi::gpu::path_shuffle;
#endif
	if (lane == 0)
		sums[warp] = s;
	if (warp == 0 && lane == 0) {
		*path = my_path;
#ifdef __CUDA_ARCH__
		ran_arch = __CUDA_ARCH__;
#endif
	}
}

__global__ void device_only_kernel(const unsigned *__restrict__ in,
				   unsigned *__restrict__ out, std::size_t n,
				   unsigned *magic, char *tag,
				   std::size_t taglen)
{
#ifdef __CUDA_ARCH__
	const unsigned m = multi_device_only_magic();
	const char *t = multi_device_only_tag();
	std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * 3u + m;
	if (i == 0) {
		*magic = m;
		std::size_t k = 0;
		for (; k + 1 < taglen && t[k]; k++)
			tag[k] = t[k];
		tag[k] = '\0';
	}
#endif
}

namespace multi {

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

namespace gpu {

int arch_list(int *archs, int max)
{
#ifdef __CUDA_ARCH_LIST__
	static const int list[] = {__CUDA_ARCH_LIST__};
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

const char *warp_sums(const unsigned *in, unsigned *sums, std::size_t warps,
		      int *ran, unsigned *path)
{
	device_buffer<unsigned> din, dsums, dpath;
	MULTI_TRY("cudaMalloc", din.alloc(warps * 32));
	MULTI_TRY("cudaMalloc", dsums.alloc(warps));
	MULTI_TRY("cudaMalloc", dpath.alloc(1));
	MULTI_TRY("cudaMemcpy to device", din.upload(in, warps * 32));
	const int none = 0;
	MULTI_TRY("cudaMemcpyToSymbol ran_arch",
		  cudaMemcpyToSymbol(ran_arch, &none, sizeof none));
	MULTI_TRY("cudaMemset", cudaMemset(dpath.p, 0, sizeof(unsigned)));
	unsigned blocks = (unsigned)((warps * 32 + 127) / 128);
	warp_sum_kernel<<<blocks ? blocks : 1, 128>>>(din.p, dsums.p, warps,
						     dpath.p);
	if (const char *err = launched("warp_sum_kernel"))
		return err;
	MULTI_TRY("cudaMemcpy to host", dsums.download(sums, warps));
	MULTI_TRY("cudaMemcpy to host", dpath.download(path, 1));
	MULTI_TRY("cudaMemcpyFromSymbol ran_arch",
		  cudaMemcpyFromSymbol(ran, ran_arch, sizeof *ran));
	return nullptr;
}

const char *device_only(const unsigned *in, unsigned *out, std::size_t n,
			unsigned *magic, char *tag, std::size_t taglen)
{
	if (taglen == 0)
		return "device_only: empty tag buffer";
	device_buffer<unsigned> din, dout, dmagic;
	device_buffer<char> dtag;
	MULTI_TRY("cudaMalloc", din.alloc(n));
	MULTI_TRY("cudaMalloc", dout.alloc(n));
	MULTI_TRY("cudaMalloc", dmagic.alloc(1));
	MULTI_TRY("cudaMalloc", dtag.alloc(taglen));
	MULTI_TRY("cudaMemcpy to device", din.upload(in, n));
	MULTI_TRY("cudaMemset", cudaMemset(dmagic.p, 0, sizeof(unsigned)));
	MULTI_TRY("cudaMemset", cudaMemset(dtag.p, 0, taglen));
	unsigned blocks = (unsigned)((n + 255) / 256);
	device_only_kernel<<<blocks ? blocks : 1, 256>>>(
		din.p, dout.p, n, dmagic.p, dtag.p, taglen);
	if (const char *err = launched("device_only_kernel"))
		return err;
	MULTI_TRY("cudaMemcpy to host", dout.download(out, n));
	MULTI_TRY("cudaMemcpy to host", dmagic.download(magic, 1));
	MULTI_TRY("cudaMemcpy to host", dtag.download(tag, taglen));
	tag[taglen - 1] = '\0';
	return nullptr;
}

} // namespace gpu
} // namespace multi
