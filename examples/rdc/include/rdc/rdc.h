/*
 * rdc/rdc.h -- public interface of the static library rdcstatic (lib/),
 * built with relocatable device code: the kernels in lib/kernels.cu call
 * __device__ functions defined in lib/devfuncs.cu and use __device__
 * variables defined in lib/state.cu, so the executable that links the
 * library must be device-linked (nvlink) before the host link.
 *
 * Plain C++: no CUDA types, so app/main.cpp is compiled by the host C++
 * compiler alone. Every function takes and returns host values, and
 * returns NULL on success or "STEP: CUDA error text" (a thread-local
 * buffer) on failure.
 */
#ifndef RDC_RDC_H
#define RDC_RDC_H

#include <cstddef>

namespace rdc {

struct device_info {
	char name[256];
	int major; /* compute capability */
	int minor;
};

/* lib/state.cu: device 0. Returns true if a CUDA device is usable;
 * otherwise false and *why says why (cudaGetErrorString text). */
bool query_device(device_info *dev, const char **why);

/* Ids the anonymous-namespace kernels identify() write, one per TU, and
 * the step static_step() applies to that TU's static __device__ int:
 * state = state * 3 + id. */
const int kernels_tu_id = 0x4b;
const int state_tu_id = 0x5a;

/* Initial values of the two `static __device__ int tu_state` variables. */
const int kernels_state_init = 100;
const int state_state_init = 200;

/* What rdc_origin() returns in the static library's device code
 * (lib/devfuncs.cu); the shared library defines its own (rdc/shared.h). */
const unsigned static_origin = 0x57a71cu;

/* lib/kernels.cu: out[i] = mix(in[i]) + gcd(in[i], modulus), with mix()
 * and gcd() the __device__ functions of lib/devfuncs.cu (gcd recursive). */
const char *mix_gcd(const unsigned *in, unsigned *out, std::size_t n,
		    unsigned modulus);

/* lib/state.cu defines `__device__ int rdc_bias` and `__device__ unsigned
 * long long rdc_total`; lib/kernels.cu declares them extern.
 * set_bias/get_bias/get_total reach them by symbol from state.cu. */
const char *set_bias(int bias);
const char *get_bias(int *bias);
const char *get_total(unsigned long long *total);
/* lib/kernels.cu: zeroes rdc_total (by symbol, from this TU), then
 * out[i] = in[i] + rdc_bias and rdc_total += out[i] (a kernel of this
 * TU), then rdc_bias = rdc_bias * 2 + 1 (another kernel), and returns
 * rdc_total read by symbol from this TU. */
const char *add_bias(const int *in, int *out, std::size_t n,
		     unsigned long long *total);

/* lib/kernels.cu and lib/state.cu each have `static __device__ int
 * tu_state`. If set is not NULL, *set is first written to this TU's
 * variable (cudaMemcpyToSymbol); then a kernel of the TU applies
 * state = state * 3 + TU id; *after is read back by symbol. */
const char *static_step_kernels(const int *set, int *after);
const char *static_step_state(const int *set, int *after);

/* Each TU's anonymous-namespace kernel identify() writes its TU id. */
const char *identify_kernels(int *id);
const char *identify_state(int *id);

/* lib/kernels.cu: the __CUDA_ARCH__ of the kernel that ran and the one
 * rdc_arch() in lib/devfuncs.cu returns from it (they come from the
 * same linked image), and rdc_origin() as seen from the static library's
 * device code. */
const char *arch_probe(int *kernel_arch, int *function_arch);
const char *origin(unsigned *value);

/* lib/kernels.cu: __CUDA_ARCH_LIST__ as its host pass saw it. Returns
 * the count (at most max stored), 0 if it was not defined. */
int arch_list(int *archs, int max);

} // namespace rdc

#endif
