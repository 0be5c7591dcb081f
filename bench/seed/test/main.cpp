// main.cpp -- the seed library's test: each family on a few types, on
// the GPU, against the same computed on the host. Prints the checks
// passed; exits 1 on the first that fails (or 2 without a GPU).
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <numeric>
#include <vector>

#include <cuda_runtime.h>

#include "seed.h"

static int checks;

#define CHECK(cond, what) \
	do { \
		if (!(cond)) { \
			std::printf("seed: FAILED: %s (%s)\n", what, __func__); \
			std::exit(1); \
		} \
		checks++; \
	} while (0)

template <typename T> static T *dev(const std::vector<T> &h)
{
	T *d = nullptr;
	cudaMalloc(&d, h.size() * sizeof(T) + 1);
	cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
	return d;
}

template <typename T> static std::vector<T> host(const T *d, size_t n)
{
	std::vector<T> h(n);
	cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
	return h;
}

template <typename T> static void family(const char *name)
{
	const int n = 10000;
	std::vector<T> v(n);
	for (int i = 0; i < n; i++)
		v[i] = T((i * 7919 + 13) % 101) - T(50 * (T(-1) < T(0)));
	std::vector<int> vals(n);
	std::iota(vals.begin(), vals.end(), 0);
	T *in = dev(v), *out = dev(std::vector<T>(n));
	int *vi = dev(vals), *vo = dev(vals), *count = dev(std::vector<int>(1));

	CHECK(seed::sort_keys(in, out, n) == 0, name);
	std::vector<T> s = v;
	std::stable_sort(s.begin(), s.end());
	CHECK(host(out, n) == s, "sort_keys");
	CHECK(seed::sort_pairs(in, out, vi, vo, n) == 0, name);
	std::vector<int> order(n);
	std::iota(order.begin(), order.end(), 0);
	std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v[a] < v[b]; });
	CHECK(host(vo, n) == order, "sort_pairs");

	CHECK(seed::inclusive_sum(in, out, n) == 0, name);
	std::vector<T> p(n);
	std::partial_sum(v.begin(), v.end(), p.begin());
	CHECK(host(out, n) == p, "inclusive_sum");

	CHECK(seed::max(in, out, n) == 0, name);
	CHECK(host(out, 1)[0] == *std::max_element(v.begin(), v.end()), "max");

	CHECK(seed::select_positive(in, out, count, n) == 0, name);
	std::vector<T> pos;
	for (T x : v)
		if (x > T(0))
			pos.push_back(x);
	int c = host(count, 1)[0];
	CHECK(c == (int)pos.size() && host(out, c) == pos, "select_positive");

	CHECK(seed::thrust_sum_of_squares(in, n) ==
		      std::accumulate(v.begin(), v.end(), 0.0, [](double a, T x) { return a + double(x) * double(x); }),
	      "thrust_sum_of_squares");
	cudaFree(in);
	cudaFree(out);
	cudaFree(vi);
	cudaFree(vo);
	cudaFree(count);
}

int main()
{
	int devices = 0;
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
		std::printf("seed: no GPU\n");
		return 2;
	}
	family<int>("int");
	family<float>("float");
	family<unsigned char>("unsigned char");
	family<long long>("long long");
	family<double>("double");
	std::printf("seed: %d checks passed\n", checks);
	return 0;
}
