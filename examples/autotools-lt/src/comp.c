/* comp.c -- the component: calls the CUDA kernels of kernel/. */
#include <config.h>

#include <stdlib.h>

#include "comp.h"
#include "kernels.h"

int comp_run(int n)
{
	if (kernels_block() != COMP_BLOCK)
		return 1;
	int *v = malloc(n * sizeof *v);
	if (!v)
		return 1;
	for (int i = 0; i < n; i++)
		v[i] = i;
	int rc = kernels_apply(v, n);
	for (int i = 0; rc == 0 && i < n; i++)
		if (v[i] != 3 * i + 1)
			rc = 1;
	free(v);
	return rc;
}
