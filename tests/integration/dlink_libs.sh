# dlink_libs: static libraries with relocatable device code given in
# libs reach nvlink in rdc mode: one built by plain nvcc (as a file path,
# and as -lNAME with an -L in ldflags) and one built by another cugen
# project link, and the programs' device images equal plain nvcc's link of
# the same objects. Where the toolkit ships libcufft_static.a, a cuFFT
# callback program links (otherwise that part says it is skipped).
# Also: module_id = absolute gives nvcc's module id (an anonymous-
# namespace kernel's name carries it), whole and rdc, for a project
# reached through a symbolic link and for a build directory outside the
# project (the source's path as given is then its real path).
. "$(dirname "$0")/lib.sh"
need_cuda

G="-gencode arch=compute_80,code=sm_80"
GC="-gencode arch=compute_80,code=[sm_80,compute_80]" # (ptx = highest, the default)
mkdir -p "$WORK/p/ext" "$WORK/p/app" "$WORK/q/lib"
cd "$WORK/p" || exit 1
cat >ext/ext.cu <<'CU'
__device__ int ext_twice(int x) { return 2 * x; }
CU
cat >app/k.cu <<'CU'
__device__ int ext_twice(int x);
namespace {
__global__ void anon(int *p) { p[threadIdx.x] = ext_twice((int)threadIdx.x); }
}
int run(int *p) { anon<<<1, 32>>>(p); return (int)cudaGetLastError(); }
CU
cat >app/main.cpp <<'CPP'
int run(int *);
int main(int argc, char **) { return argc > 5 ? run(nullptr) : 0; }
CPP
note "a static library of plain nvcc -dc objects"
(cd ext && run "$NVCC" -dc $G ext.cu -o ext.o && run ar rcs libext.a ext.o)
cat >cugen.ini <<'INI'
[project]
name = dl
[cuda]
archs = 80
mode = rdc
module_id = absolute
[target app]
type = executable
sources = app/k.cu app/main.cpp
libs = ext/libext.a
INI
run "$CUGEN" setup -B b
grep "nvlink" b/build.ninja | grep -q 'ext/libext.a' || die "the library does not reach nvlink"
build b >/dev/null
[ -x b/app ] || die "no program"
nm b/app | grep -q ' U __cudaRegisterLinkedBinary' && die "undefined __cudaRegisterLinkedBinary in the program"
(cd b && run "$NVCC" -dc $GC -std=c++17 ../app/k.cu -o ref_k.o && run g++ -c ../app/main.cpp -o ref_main.o &&
	run "$NVCC" -rdc=true $G ref_k.o ref_main.o ../ext/libext.a -o ref_app)
same_images b/app b/ref_app "app with the plain nvcc library"

note "the same as -lext with -Lext in ldflags"
sed -i 's|^libs = ext/libext.a$|libs = ext\nldflags = -L../ext|' cugen.ini
run "$CUGEN" setup -B b2
grep "nvlink" b2/build.ninja | grep -q -- '-L../ext .*-lext' || { grep nvlink b2/build.ninja; die "-L and -l do not reach nvlink"; }
build b2 >/dev/null
# (nvlink records its command line, -L and -l here: normalised)
IMAGES_OPT=--normalized same_images b2/app b/ref_app "app with -lext"

note "a static library another cugen project built"
cat >"$WORK/q/lib/ext.cu" <<'CU'
__device__ int ext_twice(int x) { return 2 * x; }
CU
cat >"$WORK/q/cugen.ini" <<'INI'
[project]
name = q
[cuda]
archs = 80
ptx = none
mode = rdc
[target ext]
type = static
sources = lib/ext.cu
INI
(cd "$WORK/q" && run "$CUGEN" setup -B b && build b >/dev/null)
[ -f "$WORK/q/b/libext.a" ] || die "the other project made no libext.a"
sed -i "s|^libs = ext$|libs = $WORK/q/b/libext.a|; /^ldflags/d" cugen.ini
run "$CUGEN" setup -B b3
build b3 >/dev/null
nm b3/app | grep -q ' U __cudaRegisterLinkedBinary' && die "undefined __cudaRegisterLinkedBinary (cugen's library)"
same_images b3/app b/ref_app "app with cugen's library"

note "cuFFT callbacks with libcufft_static"
if [ -f "$CUDA_PATH/targets/x86_64-linux/lib/libcufft_static.a" ]; then
	mkdir -p "$WORK/fft"
	cat >"$WORK/fft/cb.cu" <<'CU'
#include <cufft.h>
#include <cufftXt.h>
__device__ cufftComplex load_cb(void *in, size_t off, void *, void *)
{
	cufftComplex v = ((cufftComplex *)in)[off];
	v.x *= 2.0f;
	return v;
}
__device__ cufftCallbackLoadC d_load = load_cb;
int main(int argc, char **)
{
	if (argc < 2)
		return 0; /* linked is what is tested here */
	cufftHandle plan;
	cufftPlan1d(&plan, 64, CUFFT_C2C, 1);
	cufftCallbackLoadC h;
	cudaMemcpyFromSymbol(&h, d_load, sizeof h);
	return cufftXtSetCallback(plan, (void **)&h, CUFFT_CB_LD_COMPLEX, 0) != CUFFT_SUCCESS;
}
CU
	cat >"$WORK/fft/cugen.ini" <<'INI'
[project]
name = fft
[cuda]
archs = 80
mode = rdc
[target cb]
type = executable
sources = cb.cu
libs = cufft_static culibos
INI
	(cd "$WORK/fft" && run "$CUGEN" setup -B b && build b >/dev/null && [ -x b/cb ] && b/cb) ||
		die "the cuFFT callback program did not link"
else
	echo "skipped: no libcufft_static.a in this toolkit ($CUDA_PATH)"
fi

note "module_id = absolute through a symbolic link: nvcc's module id"
ln -s "$WORK/p" "$WORK/plink"
cd "$WORK/plink" || exit 1
for m in whole rdc; do
	sed -i "s/^mode = .*/mode = $m/" cugen.ini
	sed -i '/^libs/d' cugen.ini
	cat >app/k.cu <<'CU'
namespace {
__global__ void anon(int *p) { p[threadIdx.x] = (int)threadIdx.x; }
}
int run(int *p) { anon<<<1, 32>>>(p); return (int)cudaGetLastError(); }
CU
	run "$CUGEN" setup -B "m$m"
	build "m$m" >/dev/null
	rdc=
	[ "$m" = rdc ] && rdc=-rdc=true
	(cd "m$m" && run "$NVCC" -c $GC $rdc -std=c++17 ../app/k.cu -o ref_k.o)
	same_images "m$m/obj/app/app/k.cu.o" "m$m/ref_k.o" "module id ($m) through a link"
	# out of the tree, the source is named by its real path: as given
	# and canonical are the same
	run "$CUGEN" setup -S "$WORK/p" -B "$WORK/out$m"
	build "$WORK/out$m" >/dev/null
	(cd "$WORK/out$m" && run "$NVCC" -c $GC $rdc -std=c++17 "$WORK/p/app/k.cu" -o ref_k.o)
	same_images "$WORK/out$m/obj/app/app/k.cu.o" "$WORK/out$m/ref_k.o" "module id ($m), out of the tree"
done
echo ok
