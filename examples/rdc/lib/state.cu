/*
 * state.cu -- defines the __device__ variables that kernels.cu declares
 * extern (device.cuh), and reaches them by symbol from the host; a
 * `static __device__ int tu_state` and an anonymous-namespace kernel
 * identify() with the same names as in kernels.cu; the device query.
 */
#include "rdc/rdc.h"

#include "device.cuh"
#include "util.cuh"

/* Defined here, used by kernels.cu's kernels. */
__device__ int rdc_bias;
__device__ unsigned long long rdc_total;

/* Same name as in kernels.cu, another initial value: with relocatable
 * device code both end up in one linked image, and must stay two. */
static __device__ int tu_state = rdc::state_state_init;

static __global__ void state_step_kernel()
{
	tu_state = tu_state * 3 + rdc::state_tu_id;
}

namespace {

/* Same name and signature as identify() in kernels.cu. */
__global__ void identify(int *id)
{
	*id = rdc::state_tu_id;
}

} // namespace

namespace rdc {

using detail::device_buffer;
using detail::launched;

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

const char *set_bias(int bias)
{
	RDC_TRY("cudaMemcpyToSymbol rdc_bias",
		cudaMemcpyToSymbol(rdc_bias, &bias, sizeof bias));
	return nullptr;
}

const char *get_bias(int *bias)
{
	RDC_TRY("cudaMemcpyFromSymbol rdc_bias",
		cudaMemcpyFromSymbol(bias, rdc_bias, sizeof *bias));
	return nullptr;
}

const char *get_total(unsigned long long *total)
{
	RDC_TRY("cudaMemcpyFromSymbol rdc_total",
		cudaMemcpyFromSymbol(total, rdc_total, sizeof *total));
	return nullptr;
}

const char *static_step_state(const int *set, int *after)
{
	if (set)
		RDC_TRY("cudaMemcpyToSymbol tu_state (state.cu)",
			cudaMemcpyToSymbol(tu_state, set, sizeof *set));
	state_step_kernel<<<1, 1>>>();
	if (const char *err = launched("state_step_kernel"))
		return err;
	RDC_TRY("cudaMemcpyFromSymbol tu_state (state.cu)",
		cudaMemcpyFromSymbol(after, tu_state, sizeof *after));
	return nullptr;
}

const char *identify_state(int *id)
{
	device_buffer<int> d;
	RDC_TRY("cudaMalloc", d.alloc(1));
	RDC_TRY("cudaMemset", cudaMemset(d.p, 0, sizeof(int)));
	identify<<<1, 1>>>(d.p);
	if (const char *err = launched("identify (state.cu)"))
		return err;
	RDC_TRY("cudaMemcpy to host", d.download(id, 1));
	return nullptr;
}

} // namespace rdc
