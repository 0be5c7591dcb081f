/*
 * symbols.cu -- device symbols the host reaches by name: __constant__
 * memory, __device__ globals, and an anonymous-namespace kernel and
 * variable (whose registered names carry this TU's module id, so host
 * and device passes must agree on it).
 */
#include "multi/gpu.h"

#include "cuda_util.cuh"

/* Written with cudaMemcpyToSymbol, read by poly_kernel. */
__constant__ int poly_coeffs[multi::gpu::poly_max];
__constant__ int poly_ncoeffs;

/* Zeroed and read back by the host through the symbol API. */
__device__ unsigned long long thread_hits;
__device__ unsigned long long thread_index_sum;

namespace {

__device__ int anon_value;

/* Same name and signature as identify() in transform.cu. */
__global__ void identify(int *id)
{
	*id = multi::gpu::symbols_tu_id;
}

__global__ void anon_kernel()
{
	anon_value = anon_value * 2 + 1;
}

} // namespace

__global__ void poly_kernel(const int *__restrict__ x,
			    long long *__restrict__ y, std::size_t n)
{
	std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	long long acc = 0;
	for (int k = poly_ncoeffs - 1; k >= 0; k--)
		acc = acc * x[i] + poly_coeffs[k];
	y[i] = acc;
}

__global__ void count_kernel()
{
	unsigned long long i =
		(unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(&thread_hits, 1ull);
	atomicAdd(&thread_index_sum, i);
}

namespace multi {
namespace gpu {

const char *identify_symbols(int *id)
{
	device_buffer<int> d;
	MULTI_TRY("cudaMalloc", d.alloc(1));
	MULTI_TRY("cudaMemset", cudaMemset(d.p, 0, sizeof(int)));
	identify<<<1, 1>>>(d.p);
	if (const char *err = launched("identify (symbols.cu)"))
		return err;
	MULTI_TRY("cudaMemcpy to host", d.download(id, 1));
	return nullptr;
}

const char *anon_variable(int in, int *out)
{
	MULTI_TRY("cudaMemcpyToSymbol anon_value",
		  cudaMemcpyToSymbol(anon_value, &in, sizeof in));
	anon_kernel<<<1, 1>>>();
	if (const char *err = launched("anon_kernel"))
		return err;
	MULTI_TRY("cudaMemcpyFromSymbol anon_value",
		  cudaMemcpyFromSymbol(out, anon_value, sizeof *out));
	return nullptr;
}

const char *poly_eval(const int *coeffs, int ncoeffs, const int *x,
		      long long *y, std::size_t n)
{
	if (ncoeffs < 0 || ncoeffs > poly_max)
		return "poly_eval: too many coefficients";
	MULTI_TRY("cudaMemcpyToSymbol poly_coeffs",
		  cudaMemcpyToSymbol(poly_coeffs, coeffs,
				     ncoeffs * sizeof(int)));
	MULTI_TRY("cudaMemcpyToSymbol poly_ncoeffs",
		  cudaMemcpyToSymbol(poly_ncoeffs, &ncoeffs, sizeof ncoeffs));
	device_buffer<int> dx;
	device_buffer<long long> dy;
	MULTI_TRY("cudaMalloc", dx.alloc(n));
	MULTI_TRY("cudaMalloc", dy.alloc(n));
	MULTI_TRY("cudaMemcpy to device", dx.upload(x, n));
	unsigned blocks = (unsigned)((n + 127) / 128);
	poly_kernel<<<blocks ? blocks : 1, 128>>>(dx.p, dy.p, n);
	if (const char *err = launched("poly_kernel"))
		return err;
	MULTI_TRY("cudaMemcpy to host", dy.download(y, n));
	return nullptr;
}

const char *count_threads(unsigned blocks, unsigned threads,
			  unsigned long long *hits,
			  unsigned long long *index_sum)
{
	const unsigned long long zero = 0;
	MULTI_TRY("cudaMemcpyToSymbol thread_hits",
		  cudaMemcpyToSymbol(thread_hits, &zero, sizeof zero));
	MULTI_TRY("cudaMemcpyToSymbol thread_index_sum",
		  cudaMemcpyToSymbol(thread_index_sum, &zero, sizeof zero));
	count_kernel<<<blocks, threads>>>();
	if (const char *err = launched("count_kernel"))
		return err;
	MULTI_TRY("cudaMemcpyFromSymbol thread_hits",
		  cudaMemcpyFromSymbol(hits, thread_hits, sizeof *hits));
	MULTI_TRY("cudaMemcpyFromSymbol thread_index_sum",
		  cudaMemcpyFromSymbol(index_sum, thread_index_sum,
				       sizeof *index_sum));
	return nullptr;
}

} // namespace gpu
} // namespace multi
