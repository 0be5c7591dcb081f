/*
 * scan.cu -- CUB device-wide algorithms with the usual two-phase
 * temporary storage. CUB puts __CUDA_ARCH_LIST__ into its kernels' names
 * and host dispatch, so every pass of this TU must see the same list.
 * The heaviest TU of the library: keep it to these two calls.
 */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "multi/gpu.h"

#include "cuda_util.cuh"

namespace multi {
namespace gpu {

const char *inclusive_scan(const int *in, int *out, int n)
{
	device_buffer<int> din, dout;
	device_buffer<unsigned char> temp;
	std::size_t bytes = 0;
	MULTI_TRY("cudaMalloc", din.alloc(n));
	MULTI_TRY("cudaMalloc", dout.alloc(n));
	MULTI_TRY("cudaMemcpy to device", din.upload(in, n));
	MULTI_TRY("cub::DeviceScan::InclusiveSum (size)",
		  cub::DeviceScan::InclusiveSum(nullptr, bytes, din.p, dout.p,
						n));
	MULTI_TRY("cudaMalloc temp storage", temp.alloc(bytes));
	MULTI_TRY("cub::DeviceScan::InclusiveSum",
		  cub::DeviceScan::InclusiveSum(temp.p, bytes, din.p, dout.p,
						n));
	MULTI_TRY("cub::DeviceScan::InclusiveSum (sync)",
		  cudaDeviceSynchronize());
	MULTI_TRY("cudaMemcpy to host", dout.download(out, n));
	return nullptr;
}

const char *reduce_sum(const int *in, int n, int *sum)
{
	device_buffer<int> din, dsum;
	device_buffer<unsigned char> temp;
	std::size_t bytes = 0;
	MULTI_TRY("cudaMalloc", din.alloc(n));
	MULTI_TRY("cudaMalloc", dsum.alloc(1));
	MULTI_TRY("cudaMemcpy to device", din.upload(in, n));
	MULTI_TRY("cub::DeviceReduce::Sum (size)",
		  cub::DeviceReduce::Sum(nullptr, bytes, din.p, dsum.p, n));
	MULTI_TRY("cudaMalloc temp storage", temp.alloc(bytes));
	MULTI_TRY("cub::DeviceReduce::Sum",
		  cub::DeviceReduce::Sum(temp.p, bytes, din.p, dsum.p, n));
	MULTI_TRY("cub::DeviceReduce::Sum (sync)", cudaDeviceSynchronize());
	MULTI_TRY("cudaMemcpy to host", dsum.download(sum, 1));
	return nullptr;
}

} // namespace gpu
} // namespace multi
