/* kernels.h -- the C interface of the CUDA library. */
#ifndef KERNELS_H
#define KERNELS_H
#ifdef __cplusplus
extern "C" {
#endif
/* Adds 1 to n ints on the GPU; 0 on success, 77 without a GPU, else 1. */
int demo_increment(int *values, int n);
/* The archs the library was built for, as __CUDA_ARCH_LIST__ says. */
const char *demo_archs(void);
#ifdef __cplusplus
}
#endif
#endif
