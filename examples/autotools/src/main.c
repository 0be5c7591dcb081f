/* main.c -- a C program using the CUDA library built by cugen. */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		printf("usage: demo\nAdds 1 to 1000 ints on the GPU and checks them "
		       "(built for archs %s).\n", demo_archs());
		return 0;
	}
	int v[1000];
	for (int i = 0; i < 1000; i++)
		v[i] = i;
	int rc = demo_increment(v, 1000);
	if (rc == 77) {
		printf("demo: SKIP no CUDA device\n");
		return 77;
	}
	for (int i = 0; rc == 0 && i < 1000; i++)
		if (v[i] != i + 1)
			rc = 1;
	printf("demo: %s\n", rc == 0 ? "PASS" : "FAIL");
	return rc;
}
