# cugen nvcc: nvcc for build systems cugen does not drive. A CuPy-style
# command (several --generate-code entries, a PTX-only one and an f
# family arch, -t2, a define holding extern "C", a template-only TU)
# gives plain nvcc's images through cugen's per-arch graph, each step
# cached; the launcher
# form (cugen nvcc /path/to/nvcc), CMake's CMAKE_CUDA_COMPILER_LAUNCHER
# (images equal to CMake's plain build, its -MD dependency file read by
# ninja) and a Makefile under make -j2 (the jobserver's slots, never more)
# build so; everything else -- --version, -M, an unknown flag, a link, a
# compile error -- is the real nvcc's output and exit status.
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P/include"
# a TU that defines only templates (as CuPy's CUB TUs): plain nvcc gives
# it random module ids
echo 'template <class T> __global__ void fill(T *p, T v) { *p = v; }' >"$P/include/fill.h"
cat >"$P/sum.cu" <<'CU'
#include "fill.h"
template __global__ void fill<int>(int *, int);
template __global__ void fill<float>(float *, float);
CU
cat >"$P/cy.cu" <<'CU'
#include <cuda_runtime.h>
CYTHON_EXTERN_C __global__ void cy_kernel(int *p) { *p = 1; }
CYTHON_EXTERN_C int cy_launch(int *p)
{
	cy_kernel<<<1, 1>>>(p);
	return (int)cudaGetLastError();
}
CU
cd "$P" || exit 1
mkdir -p "$WORK/tmp"
export TMPDIR=$WORK/tmp
GENCODE="--generate-code=arch=compute_75,code=sm_75 --generate-code=arch=compute_80,code=sm_80 --generate-code=arch=compute_100f,code=sm_100 --generate-code=arch=compute_120,code=compute_120"

note "a CuPy-style compile: plain nvcc's images, through cugen's graph"
# (the template-only TU: both are given one seed)
for tu in sum cy; do
	seed= codes=$GENCODE n=4
	[ $tu = sum ] && seed=-frandom-seed=cupy/sum
	# shellcheck disable=SC2086
	"$NVCC" $codes -O2 --std=c++17 -Iinclude '-DCYTHON_EXTERN_C=extern "C"' -Xcompiler -fPIC -t2 $seed \
		-c $tu.cu -o $tu.nvcc.o || die "nvcc $tu"
	# shellcheck disable=SC2086
	CUGEN_VERBOSE=1 "$CUGEN" nvcc $codes -O2 --std=c++17 -Iinclude '-DCYTHON_EXTERN_C=extern "C"' \
		-Xcompiler -fPIC -t2 $seed -c $tu.cu -o $tu.cugen.o 2>v.$tu || { cat v.$tu; die "cugen nvcc $tu"; }
	grep -q "^cugen nvcc: $tu.cu: $n arch entries built by cugen's graph, 2 jobs$" v.$tu ||
		{ cat v.$tu; die "$tu was not built by cugen's graph with -t2's 2 jobs"; }
	same_images $tu.nvcc.o $tu.cugen.o "$tu"
done
# cugen's own seed where none is given: the same bytes every time
# shellcheck disable=SC2086
"$CUGEN" nvcc -arch=sm_80 -Iinclude -c sum.cu -o again.o && cp again.o again1.o &&
	"$CUGEN" nvcc -arch=sm_80 -Iinclude -c sum.cu -o again.o || die "cugen nvcc sum.cu"
cmp -s again.o again1.o || die "two compiles of a template-only TU differ"
ls -d "$TMPDIR"/cugen-nvcc* 2>/dev/null | grep -q . && die "a scratch directory was left"
# (the toolkit probe kept for the next compile: this user's, 0600)
[ "$(stat -c %a "$TMPDIR/cugen-probe-nvcc-$(id -u).ini" 2>/dev/null)" = 600 ] || die "no probe kept for the next compile"
# one others could have written is not read: garbage there changes nothing
probe=$TMPDIR/cugen-probe-nvcc-$(id -u).ini
printf '[host tools]\ncxx=/bin/false\n' >"$probe" && chmod 666 "$probe"
"$CUGEN" nvcc -arch=sm_80 -c cy.cu -o probed.o '-DCYTHON_EXTERN_C=extern "C"' || die "a hostile probe file broke the compile"
nm probed.o | grep -q ' T cy_launch$' || die "the compile after a hostile probe file"
[ "$(stat -c %a "$probe")" = 600 ] || die "the group-writable probe was not replaced"

note "the launcher form names its nvcc"
CUGEN_VERBOSE=1 "$CUGEN" nvcc "$NVCC" -arch=sm_80 -c cy.cu '-DCYTHON_EXTERN_C=extern "C"' 2>v.l ||
	{ cat v.l; die "cugen nvcc NVCC"; }
grep -q "built by cugen's graph, 1 job$" v.l || { cat v.l; die "the launcher form did not build"; }
[ -f cy.o ] || die "-c cy.cu without -o writes cy.o, as nvcc does"

note "each arch step cached (CUGEN_CACHE_DIR): a second compile hits"
for i in 1 2; do
	CUGEN_CACHE_DIR=$WORK/cache "$CUGEN" nvcc -arch=sm_80 -c cy.cu -o cached$i.o '-DCYTHON_EXTERN_C=extern "C"' ||
		die "cugen nvcc with a cache"
done
CUGEN_CACHE_DIR=$WORK/cache "$CUGEN" cache --stats >stats.txt || die "cugen cache --stats"
grep -q '^hits: [1-9]' stats.txt || { cat stats.txt; die "the second compile did not hit the cache"; }
cmp -s cached1.o cached2.o || die "a cache hit gave another object"

note "everything else is the real nvcc's"
same_run() { # what args...: stdout, stderr and status equal to nvcc's
	_w=$1
	shift
	"$NVCC" "$@" >o.n 2>e.n
	echo $? >>o.n
	"$CUGEN" nvcc "$@" >o.c 2>e.c
	echo $? >>o.c
	cmp -s o.n o.c && cmp -s e.n e.c || { diff o.n o.c; diff e.n e.c; die "$_w: not nvcc's"; }
}
same_run "--version" --version
same_run "-M" -M -Iinclude sum.cu
same_run "an unknown flag" --no-such-flag -arch=sm_80 -c cy.cu
printf '__global__ void k() { int x = ; }\n' >bad.cu
same_run "a compile error" -arch=sm_80 -c bad.cu -o bad.o
[ -e bad.o ] && die "a failed compile left an object"
echo 'int main() { return 0; }' >m.cu
"$CUGEN" nvcc -arch=sm_80 -c m.cu -o m.o || die "compile m.cu"
same_run "a link" m.o -o m
[ -x m ] || die "the link wrote no program"

note "CMake's compiler launcher"
command -v cmake >/dev/null 2>&1 || skip "no cmake"
C=$WORK/cm
mkdir -p "$C/inc"
cp cy.cu "$C/"
echo '#define V 3' >"$C/inc/v.h"
printf '#include "v.h"\n__global__ void k(int *p) { *p = V; }\nextern "C" void go(int *p) { k<<<1, 1>>>(p); }\n' >"$C/k.cu"
cat >"$C/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.24)
project(cl LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 75 80)
add_library(kk SHARED k.cu)
target_include_directories(kk PRIVATE inc)
EOF
cd "$C" || exit 1
export CUDACXX="$NVCC"
run cmake -S . -B plain -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA"
run cmake -S . -B launched -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA" "-DCMAKE_CUDA_COMPILER_LAUNCHER=$CUGEN;nvcc"
run "$NINJA" -C plain
CUGEN_VERBOSE=1 "$NINJA" -C launched >v.cm 2>&1 || { cat v.cm; die "the launched build"; }
grep -q "k.cu: 2 arch entries built by cugen's graph" v.cm || { cat v.cm; die "the launcher did not build per arch"; }
same_images plain/libkk.so launched/libkk.so "CMake's launcher"
"$NINJA" -C launched -t deps CMakeFiles/kk.dir/k.cu.o | grep -q 'inc/v.h$' || die "no -MD dependency file for ninja"
touch inc/v.h
"$NINJA" -C launched -n | grep -q 'Building CUDA object' || die "a header change does not rebuild"

note "a Makefile under make -j2: the jobserver's slots"
M=$WORK/mk
mkdir -p "$M"
cp "$C/k.cu" "$C/inc/v.h" "$M/"
sed 's/V;/V + 1;/; s/void go/void go2/; s/void k(/void k2(/; s/k<<</k2<<</' "$C/k.cu" >"$M/k2.cu"
printf 'NVCC = %s nvcc\nall: k.o k2.o\n%%.o: %%.cu\n\t+$(NVCC) -arch=sm_75 -gencode arch=compute_80,code=sm_80 -I. -c $< -o $@\n' "$CUGEN" >"$M/Makefile"
CUGEN_VERBOSE=1 make -C "$M" -j2 >v.mk 2>&1 || { cat v.mk; die "make -j2"; }
[ "$(grep -c "built by cugen's graph, [12] jobs\? (make's jobserver)$" v.mk)" = 2 ] ||
	{ cat v.mk; die "not 2 compiles within make's 2 slots"; }
CUGEN_VERBOSE=1 make -C "$M" -B -j1 >v.mk1 2>&1 || { cat v.mk1; die "make -j1"; }
[ "$(grep -c "built by cugen's graph, 1 job (make's jobserver)$\|built by cugen's graph, 1 job$" v.mk1)" = 2 ] ||
	{ cat v.mk1; die "make -j1 gave more than one slot"; }
echo ok
