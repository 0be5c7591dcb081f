/*
 * rdc/shared.h -- public interface of the shared library rdcshared
 * (shlib/): two CUDA TUs compiled with relocatable device code and
 * device-linked inside the .so, so users of the library link it like any
 * other shared library and never see its device code.
 *
 * Plain C++, same conventions as rdc/rdc.h: host values in and out, NULL
 * on success or "STEP: CUDA error text" on failure.
 */
#ifndef RDC_SHARED_H
#define RDC_SHARED_H

#include <cstddef>

/* The library's interface is exported even where it is built with
 * -fvisibility=hidden. */
#define RDCSHARED_API __attribute__((visibility("default")))

namespace rdcshared {

/* What rdc_origin() returns in the shared library's device code: the
 * same __device__ function name as in the static library, another
 * definition, in another device link. */
const unsigned shared_origin = 0x5ba7edu;

/* Id the .so's anonymous-namespace kernel identify() writes. */
const int shared_tu_id = 0x6c;

/* shlib/kernels.cu: out[i] = weight(in[i], i) with weight() the
 * __device__ function of shlib/weights.cu, which also counts its calls
 * in `__device__ unsigned long long rdcsh_calls` (defined in weights.cu,
 * extern in kernels.cu). *calls is that count, read by symbol. */
RDCSHARED_API const char *weigh(const int *in, long long *out,
				std::size_t n, unsigned long long *calls);

/* rdc_origin() as seen from the shared library's device code. */
RDCSHARED_API const char *origin(unsigned *value);

/* The .so's anonymous-namespace identify() kernel. */
RDCSHARED_API const char *identify(int *id);

/* __CUDA_ARCH__ of the .so's kernel that ran and of weights.cu's
 * rdcsh_arch() called from it. */
RDCSHARED_API const char *arch_probe(int *kernel_arch, int *function_arch);

} // namespace rdcshared

#endif
