/*
 * saxpy.cu -- the device side of the saxpy example: one kernel and the
 * host function that moves the data and launches it.
 */
#include <cstdio>

#include <cuda_runtime.h>

#include "saxpy.h"

__global__ void saxpy_kernel(float a, const float *__restrict__ x,
			     float *__restrict__ y, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		y[i] = a * x[i] + y[i];
}

int saxpy_query_device(struct saxpy_device *dev, const char **why)
{
	int count = 0;
	cudaError_t err = cudaGetDeviceCount(&count);

	if (err != cudaSuccess) {
		*why = cudaGetErrorString(err);
		return 0;
	}
	if (count == 0) {
		*why = "cudaGetDeviceCount returned 0";
		return 0;
	}
	cudaDeviceProp prop;
	err = cudaGetDeviceProperties(&prop, 0);
	if (err != cudaSuccess) {
		*why = cudaGetErrorString(err);
		return 0;
	}
	snprintf(dev->name, sizeof dev->name, "%s", prop.name);
	dev->major = prop.major;
	dev->minor = prop.minor;
	return 1;
}

static char failure[512];

static const char *fail(const char *step, cudaError_t err)
{
	snprintf(failure, sizeof failure, "%s: %s", step,
		 cudaGetErrorString(err));
	return failure;
}

const char *saxpy_gpu(float a, const float *x, float *y, size_t n)
{
	float *dx = nullptr, *dy = nullptr;
	const char *result = nullptr;
	size_t bytes = n * sizeof(float);
	cudaError_t err;

	if ((err = cudaMalloc(&dx, bytes)) != cudaSuccess ||
	    (err = cudaMalloc(&dy, bytes)) != cudaSuccess) {
		result = fail("cudaMalloc", err);
		goto out;
	}
	if ((err = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice)) !=
		    cudaSuccess ||
	    (err = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice)) !=
		    cudaSuccess) {
		result = fail("cudaMemcpy to device", err);
		goto out;
	}
	{
		unsigned threads = 256;
		size_t want = (n + threads - 1) / threads;
		unsigned blocks = want > 4096 ? 4096 : (unsigned)want;
		saxpy_kernel<<<blocks ? blocks : 1, threads>>>(a, dx, dy, n);
	}
	/* A missing image for this GPU shows up here. */
	if ((err = cudaGetLastError()) != cudaSuccess) {
		result = fail("kernel launch", err);
		goto out;
	}
	if ((err = cudaDeviceSynchronize()) != cudaSuccess) {
		result = fail("kernel execution", err);
		goto out;
	}
	if ((err = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost)) !=
	    cudaSuccess)
		result = fail("cudaMemcpy to host", err);
out:
	cudaFree(dx);
	cudaFree(dy);
	return result;
}

size_t saxpy_compiled_n(void)
{
	return SAXPY_N;
}
