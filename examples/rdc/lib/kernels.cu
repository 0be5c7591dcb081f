/*
 * kernels.cu -- kernels that call the __device__ functions of devfuncs.cu
 * and use the __device__ variables of state.cu (extern, device.cuh); a
 * `static __device__ int tu_state` and an anonymous-namespace kernel
 * identify() with the same names as in state.cu.
 */
#include "rdc/rdc.h"

#include "device.cuh"
#include "util.cuh"

/* Same name as in state.cu, another initial value. */
static __device__ int tu_state = rdc::kernels_state_init;

__global__ void mix_gcd_kernel(const unsigned *__restrict__ in,
			       unsigned *__restrict__ out, std::size_t n,
			       unsigned modulus)
{
	std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = rdc::mix(in[i]) + rdc::gcd(in[i], modulus);
}

__global__ void add_bias_kernel(const int *__restrict__ in,
				int *__restrict__ out, std::size_t n)
{
	std::size_t i = (std::size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i] + rdc_bias;
	out[i] = v;
	atomicAdd(&rdc_total, (unsigned long long)(long long)v);
}

__global__ void bump_bias_kernel()
{
	rdc_bias = rdc_bias * 2 + 1;
}

static __global__ void kernels_step_kernel()
{
	tu_state = tu_state * 3 + rdc::kernels_tu_id;
}

__global__ void arch_kernel(int *out)
{
#ifdef __CUDA_ARCH__
	out[0] = __CUDA_ARCH__;
#endif
	out[1] = rdc::device_arch();
}

__global__ void origin_kernel(unsigned *out)
{
	*out = rdc_origin();
}

namespace {

/* Same name and signature as identify() in state.cu. */
__global__ void identify(int *id)
{
	*id = rdc::kernels_tu_id;
}

} // namespace

namespace rdc {

using detail::blocks_for;
using detail::device_buffer;
using detail::launched;

const char *mix_gcd(const unsigned *in, unsigned *out, std::size_t n,
		    unsigned modulus)
{
	device_buffer<unsigned> din, dout;
	RDC_TRY("cudaMalloc", din.alloc(n));
	RDC_TRY("cudaMalloc", dout.alloc(n));
	RDC_TRY("cudaMemcpy to device", din.upload(in, n));
	mix_gcd_kernel<<<blocks_for(n, 128), 128>>>(din.p, dout.p, n, modulus);
	if (const char *err = launched("mix_gcd_kernel"))
		return err;
	RDC_TRY("cudaMemcpy to host", dout.download(out, n));
	return nullptr;
}

const char *add_bias(const int *in, int *out, std::size_t n,
		     unsigned long long *total)
{
	const unsigned long long zero = 0;
	/* rdc_total is defined in state.cu: this TU's host side names it
	 * through the extern declaration. */
	RDC_TRY("cudaMemcpyToSymbol rdc_total (kernels.cu)",
		cudaMemcpyToSymbol(rdc_total, &zero, sizeof zero));
	device_buffer<int> din, dout;
	RDC_TRY("cudaMalloc", din.alloc(n));
	RDC_TRY("cudaMalloc", dout.alloc(n));
	RDC_TRY("cudaMemcpy to device", din.upload(in, n));
	add_bias_kernel<<<blocks_for(n, 256), 256>>>(din.p, dout.p, n);
	if (const char *err = launched("add_bias_kernel"))
		return err;
	bump_bias_kernel<<<1, 1>>>();
	if (const char *err = launched("bump_bias_kernel"))
		return err;
	RDC_TRY("cudaMemcpy to host", dout.download(out, n));
	RDC_TRY("cudaMemcpyFromSymbol rdc_total (kernels.cu)",
		cudaMemcpyFromSymbol(total, rdc_total, sizeof *total));
	return nullptr;
}

const char *static_step_kernels(const int *set, int *after)
{
	if (set)
		RDC_TRY("cudaMemcpyToSymbol tu_state (kernels.cu)",
			cudaMemcpyToSymbol(tu_state, set, sizeof *set));
	kernels_step_kernel<<<1, 1>>>();
	if (const char *err = launched("kernels_step_kernel"))
		return err;
	RDC_TRY("cudaMemcpyFromSymbol tu_state (kernels.cu)",
		cudaMemcpyFromSymbol(after, tu_state, sizeof *after));
	return nullptr;
}

const char *identify_kernels(int *id)
{
	device_buffer<int> d;
	RDC_TRY("cudaMalloc", d.alloc(1));
	RDC_TRY("cudaMemset", cudaMemset(d.p, 0, sizeof(int)));
	identify<<<1, 1>>>(d.p);
	if (const char *err = launched("identify (kernels.cu)"))
		return err;
	RDC_TRY("cudaMemcpy to host", d.download(id, 1));
	return nullptr;
}

const char *arch_probe(int *kernel_arch, int *function_arch)
{
	device_buffer<int> d;
	RDC_TRY("cudaMalloc", d.alloc(2));
	RDC_TRY("cudaMemset", cudaMemset(d.p, 0, 2 * sizeof(int)));
	arch_kernel<<<1, 1>>>(d.p);
	if (const char *err = launched("arch_kernel"))
		return err;
	int h[2];
	RDC_TRY("cudaMemcpy to host", d.download(h, 2));
	*kernel_arch = h[0];
	*function_arch = h[1];
	return nullptr;
}

const char *origin(unsigned *value)
{
	device_buffer<unsigned> d;
	RDC_TRY("cudaMalloc", d.alloc(1));
	RDC_TRY("cudaMemset", cudaMemset(d.p, 0, sizeof(unsigned)));
	origin_kernel<<<1, 1>>>(d.p);
	if (const char *err = launched("origin_kernel"))
		return err;
	RDC_TRY("cudaMemcpy to host", d.download(value, 1));
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

} // namespace rdc
