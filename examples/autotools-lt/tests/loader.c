/* loader.c -- loads a component as a plugin host does, dlopen(RTLD_NOW):
 * every symbol must resolve at load (an undefined
 * __cudaRegisterLinkedBinary_* of a missing device link fails here), then
 * runs its comp_run. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: loader COMPONENT.so\n");
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("loader: FAIL %s\n", dlerror());
		return 1;
	}
	int (*run)(int) = (int (*)(int))dlsym(h, "comp_run");
	if (!run) {
		printf("loader: FAIL no comp_run: %s\n", dlerror());
		return 1;
	}
	int rc = run(1000);
	printf("loader: loaded %s; %s\n", argv[1], rc == 0 ? "PASS" : rc == 77 ? "SKIP no CUDA device" : "FAIL");
	dlclose(h);
	return rc;
}
