/*
 * cdp.h -- interface between main.cpp (plain C++, compiled by the host
 * C++ compiler) and cdp.cu (kernels that launch kernels: CUDA dynamic
 * parallelism, which needs -rdc=true, a device link and libcudadevrt).
 *
 * Every function takes and returns host values, and returns NULL on
 * success or "STEP: CUDA error text" (a static buffer) on failure.
 * "Device errors" are cudaError_t codes that the device runtime returned
 * to a launching thread (cudaGetLastError in device code); 0 is success.
 */
#ifndef CDP_H
#define CDP_H

#include <cstddef>

#ifdef __CUDACC__
#define CDP_HOST_DEVICE __host__ __device__
#else
#define CDP_HOST_DEVICE
#endif

namespace cdp {

struct device_info {
	char name[256];
	int major; /* compute capability */
	int minor;
};

/* Device 0. Returns true if a CUDA device is usable; otherwise false and
 * *why says why (cudaGetErrorString text). */
bool query_device(device_info *dev, const char **why);

/* What child grid p writes at index i of its slice. */
CDP_HOST_DEVICE inline long long child_value(unsigned p, unsigned i,
					     long long salt)
{
	return salt + (long long)p * 100003 + (long long)i * 7;
}

/* How a parent thread launches its child grid. */
enum launch_stream {
	stream_null = 0,	     /* child<<<g, b>>>: the implicit stream */
	stream_fire_and_forget = 1,  /* cudaStreamFireAndForget */
	stream_device_created = 2,   /* cudaStreamCreateWithFlags on the GPU */
};

/* A parent grid of blocks x threads; parent thread p launches a child
 * grid that writes child_value(p, i, salt) to out[p * len + i], i < len.
 * The host reads out after the parent grid (and so its children) has
 * completed. *first_error is the first device error, *nerrors their
 * count. */
const char *fan_out(launch_stream how, unsigned blocks, unsigned threads,
		    unsigned len, long long salt, long long *out,
		    int *first_error, unsigned *nerrors);

/* As fan_out with fire-and-forget children (out stays on the device),
 * and thread 0 of the parent grid tail-launches a check kernel: it runs
 * only after the parent grid and all its children, counts the values of
 * out that are right and sums them. */
const char *tail_launch(unsigned blocks, unsigned threads, unsigned len,
			long long salt, unsigned long long *right,
			long long *sum, int *tail_ran, int *first_error,
			unsigned *nerrors);

/* A binary tree of grids of one thread each: the node at depth d < depth
 * launches its two children (heap numbering: node k has children 2k and
 * 2k+1; the root is 1). visits has 2^(depth+1) entries (visits[0] stays
 * 0), levels depth+1. depth <= tree_max_depth. */
const int tree_max_depth = 10;
const char *tree(int depth, unsigned *visits, unsigned *levels,
		 int *first_error, unsigned *nerrors);

/* A parent asks for a child with 2048 threads per block (too many):
 * *bad_error is what its cudaGetLastError returns (and *bad_name that
 * error's name); it then launches a valid child, which sets *valid_ran,
 * and *after is the error of that launch. */
const char *bad_launch(int *bad_error, const char **bad_name,
		       int *valid_ran, int *after);
/* cudaErrorInvalidConfiguration, for the check. */
int invalid_configuration();

/* __CUDA_ARCH__ of a parent kernel and of the child it launched. */
const char *arch_probe(int *parent_arch, int *child_arch);

/* __CUDA_ARCH_LIST__ as cdp.cu's host pass saw it. Returns the count
 * (at most max stored), 0 if it was not defined. */
int arch_list(int *archs, int max);

/* Name of a cudaError_t code. */
const char *error_name(int code);

} // namespace cdp

#endif
