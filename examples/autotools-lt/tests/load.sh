#!/bin/sh
# load.sh -- make check: the component loads with dlopen(RTLD_NOW) and its
# kernels run (77 without a GPU). Where there is no driver, the toolkit's
# stub libcuda.so stands in for libcuda.so.1, as on a build machine.
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' && [ -f "$CUDA_PATH/lib64/stubs/libcuda.so" ]; then
	stub=${TMPDIR:-/tmp}/ltcomp-stub.$$
	mkdir -p "$stub" && ln -sf "$CUDA_PATH/lib64/stubs/libcuda.so" "$stub/libcuda.so.1" || exit 99
	LD_LIBRARY_PATH=$stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	trap 'rm -rf "$stub"' EXIT
fi
./tests/loader "$COMP"
