/*
 * saxpy.h -- interface between main.cpp (plain C++, compiled by the host
 * C++ compiler) and saxpy.cu (compiled by nvcc). Nothing here needs CUDA
 * headers, so main.cpp builds without the toolkit's include directory.
 */
#ifndef SAXPY_H
#define SAXPY_H

#include <stddef.h>

/* Number of elements the program checks. cugen.ini sets it through
 * `defines`, so both translation units must see the same value. */
#ifndef SAXPY_N
#define SAXPY_N (1 << 20)
#endif

struct saxpy_device {
	char name[256];
	int major; /* compute capability */
	int minor;
};

/* Fills *dev with device 0. Returns 1 if a CUDA device is usable, 0 if
 * none is (no driver, no device). *why gets cudaGetErrorString() or a
 * short text when 0 is returned. */
int saxpy_query_device(struct saxpy_device *dev, const char **why);

/* y[i] = a * x[i] + y[i] for i < n, on the GPU. x and y are host arrays.
 * Returns NULL on success, else the CUDA error text of the step that
 * failed, prefixed with that step (a static buffer). */
const char *saxpy_gpu(float a, const float *x, float *y, size_t n);

/* SAXPY_N as saxpy.cu was compiled: main.cpp compares it with its own. */
size_t saxpy_compiled_n(void);

#endif
