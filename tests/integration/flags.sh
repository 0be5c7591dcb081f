# flags: every nvcc option of flags.table (taken from real projects'
# builds) keeps the per-arch graph in whole-program, rdc and lto mode:
# setup warns of nothing and writes one device edge per TU per arch, the
# build succeeds for sm_80 and sm_90, and the GPU images of each object
# and program equal those of plain nvcc with the same flags (run from the
# build directory with the same source path, module_id = absolute). One
# project holds a target per line and mode, so one setup and one ninja
# run cover the table. (Programs of lto lines are compared by their
# objects only: plain nvcc -dlink -dlto cannot load this toolkit's
# libnvvm.)
. "$(dirname "$0")/lib.sh"
need_cuda

P=$WORK/p
mkdir -p "$P/sysinc"
cd "$P" || exit 1
cat >sysinc/sys_marker.h <<'H'
#pragma once
#define SYS_MARKER 1
H
# a TU with what the flags act on: a template, a lambda, an anonymous
# namespace kernel (its name carries the module id), math, a constant
cat >k.cu <<'CU'
#if __has_include(<sys_marker.h>)
#include <sys_marker.h>
#endif
__constant__ float c_scale[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
namespace {
__global__ void anon_kernel(int *p) { p[threadIdx.x] = (int)threadIdx.x; }
}
template <typename T, typename F> __global__ void apply(T *x, int n, F f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = f(x[i]);
}
__device__ float shape(float v) { return sqrtf(v) / 3.0f + expf(v) * c_scale[1]; }
struct Halve {
	__device__ float operator()(float v) const { return shape(v) * 0.5f; }
};
int launch(float *x, int *p, int n)
{
	apply<<<(n + 255) / 256, 256>>>(x, n, Halve());
	anon_kernel<<<1, 32>>>(p);
	return (int)cudaGetLastError();
}
CU
cat >main.cpp <<'CPP'
int launch(float *, int *, int);
int main(int argc, char **argv) { return argc > 1 ? launch(nullptr, nullptr, 0) : 0; }
CPP
printf '[project]\nname = flags\n[cuda]\narchs = 80 90\nmodule_id = absolute\n' >cugen.ini

# one target per line and mode: tN_MODE/{k.cu,main.cpp}
: >list
n=0
grep -v '^#' "$SRC/tests/integration/flags.table" | grep -v '^[[:space:]]*$' >table
while IFS= read -r line; do
	n=$((n + 1))
	modes=$(printf '%s' "$line" | cut -f1 | sed 's/^norm://')
	norm=
	case $line in norm:*) norm=--normalized ;; esac
	flags=$(printf '%s' "$line" | cut -f2- | sed "s|@P@|$P|g")
	for m in $(echo "$modes" | tr , ' '); do
		t=t${n}_$m
		mkdir -p "$t"
		cp k.cu main.cpp "$t/"
		{
			# a whole-program program's images are its objects' (and
			# cudart's): only device-linked ones are linked here
			if [ "$m" = whole ]; then
				printf '[target %s]\ntype = object\nsources = %s/k.cu\n' "$t" "$t"
			else
				printf '[target %s]\ntype = executable\nsources = %s/k.cu %s/main.cpp\n' "$t" "$t" "$t"
			fi
			printf 'cuda_flags = %s\n' "$flags"
			case $m in
			rdc) echo 'mode = rdc' ;;
			lto) printf 'mode = rdc\nlto = yes\n' ;;
			esac
		} >>cugen.ini
		printf '%s\t%s\t%s\t%s\n' "$t" "$m" "$flags" "$norm" >>list
	done
done <table
lines=$n
targets=$(wc -l <list)
[ "$lines" -ge 40 ] || die "flags.table has $lines lines, fewer than 40"
note "$lines flag lines, $targets targets"

"$CUGEN" setup -B b >setup.out 2>setup.err || { cat setup.err; die "setup failed"; }
cat setup.out
if [ -s setup.err ]; then
	cat setup.err
	die "setup printed warnings"
fi
grep -q 'archs sm_80 sm_90' setup.out || die "the summary does not list the per-arch images"
grep -qi 'split = tu\|nvcc per TU\|fallback' setup.out && die "the summary reports a fallback"

note "per-arch edges for every target"
while IFS="$(printf '\t')" read -r t m flags norm; do
	for a in 80 90; do
		case $m in
		lto) out=compute_$a.ltoir ;;
		*) out=sm_$a.cubin ;;
		esac
		grep -q "^build obj/$t/$t/k.cu.p/$out:" b/build.ninja || die "$t ($flags): no $out edge"
	done
	grep -q "^build obj/$t/$t/k.cu.o: cuda_nvcc" b/build.ninja && die "$t ($flags): one nvcc per TU"
done <list

note "build"
"$NINJA" -C b >build.log 2>&1 || { tail -40 build.log; die "the build failed"; }

note "plain nvcc, from the build directory"
g() { # mode: gencodes for a compile
	case $1 in
	lto) echo "-gencode arch=compute_80,code=lto_80 -gencode arch=compute_90,code=lto_90" ;;
	*) echo "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]" ;;
	esac
}
{
	echo "rule run"
	echo "  command = \$cmd"
	echo "build ref/main.o: run"
	echo "  cmd = c++ -c ../main.cpp -o ref/main.o"
	while IFS="$(printf '\t')" read -r t m flags norm; do
		std=-std=c++17 rdc=
		case " $flags " in *" -std"* | *" --std"*) std= ;; esac
		[ "$m" != whole ] && rdc=-rdc=true
		case " $flags " in *" -rdc=true "* | *" -dc "*) rdc= ;; esac
		cflags=$(echo " $flags " | sed 's/ -dlto / /')
		lflags=$(echo " $flags " | sed 's/ -dc / /; s/ -rdc=true / /')
		link=
		[ "$m" != whole ] && link=-rdc=true
		echo "build ref/$t.o: run"
		echo "  cmd = $NVCC -c $(g "$m") $std $rdc $cflags ../$t/k.cu -o ref/$t.o"
		# (nvcc -dlink -dlto cannot load libnvvm from this toolkit's
		# layout, research/nvcc-pipeline.md: lto programs are not linked)
		[ "$m" = lto ] && continue
		[ "$m" = rdc ] || continue
		echo "build ref/$t: run ref/$t.o ref/main.o"
		echo "  cmd = $NVCC -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 $link $lflags ref/$t.o ref/main.o -o ref/$t"
	done <list
} | sed 's/\$ *$//' >b/ref.ninja
mkdir -p b/ref
"$NINJA" -C b -f ref.ninja >ref.log 2>&1 || { tail -40 ref.log; die "plain nvcc failed"; }

note "images equal plain nvcc's"
while IFS="$(printf '\t')" read -r t m flags norm; do
	IMAGES_OPT=$norm same_images "b/obj/$t/$t/k.cu.o" "b/ref/$t.o" "$t ($flags): the object"
	[ "$m" = rdc ] && IMAGES_OPT=$norm same_images "b/$t" "b/ref/$t" "$t ($flags): the program"
	images "b/obj/$t/$t/k.cu.o" | grep -q '_90 ' || die "$t ($flags): no image for arch 90"
done <list
note "the examples' summary lines carry no fallback"
for ex in saxpy multi rdc cdp; do
	"$CUGEN" setup -S "$SRC/examples/$ex" -B "$WORK/ex-$ex" -D cuda.archs="80 90" >ex.out 2>ex.err ||
		{ cat ex.err; die "$ex: setup failed"; }
	[ -s ex.err ] && { cat ex.err; die "$ex: setup warned"; }
	grep -q 'one nvcc per TU\|archs none' ex.out && { cat ex.out; die "$ex: the summary reports a fallback"; }
done
echo ok
