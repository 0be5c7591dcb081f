/*
 * main.cpp -- the tmpl example's program: runs every instantiation of
 * tmpl.h on device 0 and checks the results exactly on the CPU.
 *
 * Exit status: 0 PASS, 1 FAIL, 77 SKIP (no CUDA device), 2 bad usage.
 */
#include <cassert>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tmpl/tmpl.h"

static const int N = 5000;

static int failed(const char *what, cudaError_t e)
{
	printf("tmpl_app: FAIL %s: %s\n", what, cudaGetErrorString(e));
	return 1;
}

template <typename T> static int check_scale(const char *name)
{
	std::vector<T> h(N);
	for (int i = 0; i < N; i++)
		h[i] = (T)(i % 100);
	T *d = nullptr;
	cudaError_t e;
	if ((e = cudaMalloc(&d, N * sizeof(T))) != cudaSuccess ||
	    (e = cudaMemcpy(d, h.data(), N * sizeof(T), cudaMemcpyHostToDevice)) != cudaSuccess ||
	    (e = tmpl_scale<T>(d, (T)3, N)) != cudaSuccess ||
	    (e = cudaMemcpy(h.data(), d, N * sizeof(T), cudaMemcpyDeviceToHost)) != cudaSuccess)
		return cudaFree(d), failed(name, e);
	cudaFree(d);
	for (int i = 0; i < N; i++)
		if (h[i] != (T)(3 * (i % 100))) {
			printf("tmpl_app: FAIL %s: element %d\n", name, i);
			return 1;
		}
	return 0;
}

template <typename T> static int check_sum(const char *name)
{
	std::vector<T> h(N);
	T want = 0;
	for (int i = 0; i < N; i++)
		want += h[i] = (T)(i % 10);
	T *d = nullptr, got = 0;
	cudaError_t e;
	if ((e = cudaMalloc(&d, (N + 1) * sizeof(T))) != cudaSuccess ||
	    (e = cudaMemcpy(d, h.data(), N * sizeof(T), cudaMemcpyHostToDevice)) != cudaSuccess ||
	    (e = tmpl_sum<T>(d, d + N, N)) != cudaSuccess ||
	    (e = cudaMemcpy(&got, d + N, sizeof(T), cudaMemcpyDeviceToHost)) != cudaSuccess)
		return cudaFree(d), failed(name, e);
	cudaFree(d);
	if (got != want) {
		printf("tmpl_app: FAIL %s: %g, not %g\n", name, (double)got, (double)want);
		return 1;
	}
	return 0;
}

template <typename T> static int check_axpy(const char *name)
{
	std::vector<T> x(N), y(N);
	for (int i = 0; i < N; i++) {
		x[i] = (T)(i % 50);
		y[i] = (T)(i % 3);
	}
	T *d = nullptr;
	unsigned count = 0;
	cudaError_t e;
	if ((e = cudaMalloc(&d, 2 * N * sizeof(T))) != cudaSuccess ||
	    (e = cudaMemcpy(d, x.data(), N * sizeof(T), cudaMemcpyHostToDevice)) != cudaSuccess ||
	    (e = cudaMemcpy(d + N, y.data(), N * sizeof(T), cudaMemcpyHostToDevice)) != cudaSuccess ||
	    (e = tmpl_axpy<T>((T)2, d, d + N, N, &count)) != cudaSuccess ||
	    (e = cudaMemcpy(y.data(), d + N, N * sizeof(T), cudaMemcpyDeviceToHost)) != cudaSuccess)
		return cudaFree(d), failed(name, e);
	cudaFree(d);
	for (int i = 0; i < N; i++)
		if (y[i] != (T)(2 * (i % 50) + i % 3)) {
			printf("tmpl_app: FAIL %s: element %d\n", name, i);
			return 1;
		}
	if (count != (unsigned)N) {
		printf("tmpl_app: FAIL %s: counted %u elements, not %d\n", name, count, N);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		bool help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
		fprintf(help ? stdout : stderr,
			"usage: tmpl_app [--help]\n"
			"Runs tmpl.h's instantiations on CUDA device 0 and prints\n"
			"tmpl_app: PASS (exit 0), FAIL REASON (1) or SKIP no CUDA device (77).\n");
		return help ? 0 : 2;
	}
	int count = 0;
	assert(argc == 1);
	if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
		printf("tmpl_app: SKIP no CUDA device\n");
		return 77;
	}
	if (check_scale<int>("scale<int>") || check_scale<float>("scale<float>") ||
	    check_sum<int>("sum<int>") || check_sum<float>("sum<float>") ||
	    check_axpy<float>("axpy<float>") || check_axpy<double>("axpy<double>"))
		return 1;
	printf("tmpl_app: PASS (6 instantiations, %d elements each)\n", N);
	return 0;
}
