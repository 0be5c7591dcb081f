/*
 * main.cpp -- the saxpy example's program: plain C++, no CUDA headers.
 * Runs saxpy on SAXPY_N floats on device 0 and checks every element.
 *
 * Exit status: 0 PASS, 1 FAIL, 77 SKIP (no CUDA device), 2 bad usage.
 */
#include <cstdio>
#include <cstring>
#include <vector>

#include "saxpy.h"

static void usage(FILE *to)
{
	fprintf(to,
		"usage: saxpy [--help]\n"
		"Runs y = a*x + y on %d floats on CUDA device 0 and checks\n"
		"every element on the CPU. Prints one line:\n"
		"  saxpy: PASS (N elements, device NAME, sm_XY)   exit 0\n"
		"  saxpy: FAIL REASON                             exit 1\n"
		"  saxpy: SKIP no CUDA device                     exit 77\n",
		(int)SAXPY_N);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		fprintf(stderr, "saxpy: unknown argument '%s'\n", argv[i]);
		usage(stderr);
		return 2;
	}

	const size_t n = SAXPY_N;
	if (saxpy_compiled_n() != n) {
		printf("saxpy: FAIL SAXPY_N differs between saxpy.cu (%zu) "
		       "and main.cpp (%zu)\n",
		       saxpy_compiled_n(), n);
		return 1;
	}

	struct saxpy_device dev;
	const char *why = "";
	if (!saxpy_query_device(&dev, &why)) {
		printf("saxpy: SKIP no CUDA device\n");
		fprintf(stderr, "saxpy: (%s)\n", why);
		return 77;
	}

	/* Small integers and a = 2.5: every a*x+y is exact in float, with
	 * or without FMA, so the check can compare bit for bit. */
	const float a = 2.5f;
	std::vector<float> x(n), y(n);
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)(i % 1000);
		y[i] = (float)(i % 7) - 3.0f;
	}

	const char *err = saxpy_gpu(a, x.data(), y.data(), n);
	if (err) {
		printf("saxpy: FAIL %s\n", err);
		return 1;
	}

	size_t bad = 0, first = 0;
	for (size_t i = 0; i < n; i++) {
		float want = a * (float)(i % 1000) + ((float)(i % 7) - 3.0f);
		if (y[i] != want && bad++ == 0)
			first = i;
	}
	if (bad) {
		printf("saxpy: FAIL %zu of %zu elements wrong, first y[%zu] = "
		       "%g, expected %g\n",
		       bad, n, first, (double)y[first],
		       (double)(a * (float)(first % 1000) +
				((float)(first % 7) - 3.0f)));
		return 1;
	}
	printf("saxpy: PASS (%zu elements, device %s, sm_%d%d)\n", n, dev.name,
	       dev.major, dev.minor);
	return 0;
}
