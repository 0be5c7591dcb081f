/* kernels.h -- the C interface of the kernels. */
#ifndef KERNELS_H
#define KERNELS_H
#ifdef __cplusplus
extern "C" {
#endif
/* v[i] = 3 v[i] + 1 on the GPU: 0, 77 without a usable GPU, else 1. */
int kernels_apply(int *v, int n);
/* The threads per block it was built with (configure's COMP_BLOCK). */
int kernels_block(void);
#ifdef __cplusplus
}
#endif
#endif
