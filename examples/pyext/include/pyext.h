/* pyext.h -- the kernels' C entry points */
#ifndef PYEXT_H
#define PYEXT_H
#ifdef __cplusplus
extern "C" {
#endif
int pyext_scale(float *host, int n, float by);
int pyext_fill_int(int *host, int n, int v);
#ifdef __cplusplus
}
#endif
#endif
