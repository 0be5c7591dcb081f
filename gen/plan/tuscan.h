/* tuscan.h -- a cheap look at a CUDA TU's text before its first build:
 * what it includes and what it makes the device compiler instantiate,
 * so that the first plan's costs are the TU's and not one lab's.
 *
 * It reads the TU and the headers it reaches through its include
 * directories (the project's text; the toolkit's headers are only
 * recognised by name), comments stripped, and counts: whether it reaches
 * CUB, Thrust, CUTLASS or CuTe; the files it reaches (the toolkit's and
 * the host compiler's headers too); its __global__ functions and
 * `#pragma unroll`s; its distinct
 * device-wide algorithm calls (cub::Device*::*, cub::Block*, thrust::sort
 * and the like), each weighted by how heavy the algorithm is; and its
 * explicit instantiations, also those an X-macro list expands to
 * (SEED_TYPES(INSTANTIATE)) and those a macro applied on a line of its
 * own expands to, through the macros it applies (DECL_CASE(64) ->
 * three DECL_CASE_HELPER(T, 64) -> `template void f<T, 64>(...)`).
 * Nothing is preprocessed: #if is not followed, and no macro is
 * expanded but to count those instantiations.
 */
#ifndef CUGEN_TUSCAN_H
#define CUGEN_TUSCAN_H

#include <glib.h>

typedef struct {
	gboolean heavy;  /* it reaches CUB, Thrust, CUTLASS or CuTe */
	guint kernels;   /* __global__ in the project's text it reaches */
	guint unrolls;   /* #pragma unroll in it: code ptxas gets to unroll */
	guint calls;     /* distinct device-wide algorithm calls */
	guint inst;      /* explicit instantiations (X-lists expanded) */
	double units;    /* the calls, weighted, times the instantiations per call */
	gboolean templated; /* no call seen, but instantiations made: its unrolls
	                     * are template code */
	double tunits;   /* then sqrt(inst) x unrolls: the template code it makes
	                  * the compilers build */
	guint files;     /* files it reaches: itself and every header found */
} TuScan;

typedef struct TuScanner TuScanner;

TuScanner *tuscan_new(void);
void tuscan_free(TuScanner *s);
/* Scans the TU at path (absolute), following #include through dirs
 * (absolute, in order: the project's, the toolkit's, the host
 * compiler's; a quoted include tries the including file's directory
 * first; the last nsys are the system's: what is found there and
 * beside it only counts and says which libraries it includes), implicit
 * (nvcc's -include cuda_runtime.h, a system header) included first.
 * Files are read once per scanner, and the headers a TU reaches are
 * walked once per set of first headers. */
void tuscan_tu(TuScanner *s, const char *path, const char *implicit, const char *const *dirs, guint ndirs,
	       guint nsys, TuScan *out);
/* "CUB/Thrust, 3 algorithm calls, 30 instantiations: 90 units, 1148 files" */
char *tuscan_describe(const TuScan *t);

#endif
