# A CuPy-style nvcc command as it is keeps the per-arch graph: its arch
# list in nvcc's spelling with a family arch written
# arch=compute_100f,code=sm_100 (nvcc builds sm_100f) and a PTX-only last
# entry (code=compute_120, which nvcc 13 checks with ptxas), -t2 and the
# other spellings of --threads, and a define whose value holds a space
# and quotes (CYTHON_EXTERN_C=extern "C"). The CUB TU of examples/tmpl
# and a Cython-style TU built so have plain nvcc's images with the same
# command, the PTX entry included.
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P/include/tmpl"
cp "$SRC/examples/tmpl/lib/sum.cu" "$P/"
cp "$SRC/examples/tmpl/include/tmpl/tmpl.h" "$P/include/tmpl/"
cat >"$P/cy.cu" <<'CU'
#include <cuda_runtime.h>
CYTHON_EXTERN_C __global__ void cy_kernel(int *p) { *p = 1; }
CYTHON_EXTERN_C int cy_launch(int *p)
{
	cy_kernel<<<1, 1>>>(p);
	return (int)cudaGetLastError();
}
CU
GENCODE="--generate-code=arch=compute_75,code=sm_75 --generate-code=arch=compute_80,code=sm_80 --generate-code=arch=compute_100f,code=sm_100 --generate-code=arch=compute_120,code=compute_120"
FLAGS="-O2 --expt-relaxed-constexpr --std=c++17"
cat >"$P/cugen.ini" <<EOF2
[project]
name = cupyflags
[cuda]
archs = $GENCODE
module_id = absolute
[target k]
type = static
sources = sum.cu cy.cu
include = include
defines = "CYTHON_EXTERN_C=extern \\"C\\""
cuda_flags = $FLAGS -t2
EOF2
cd "$P" || exit 1

note "every spelling of --threads keeps the per-arch graph"
for t in -t2 "-t 2" --threads=2 "--threads 2" -t=2; do
	"$CUGEN" setup -B "t$(echo "$t" | tr -dc 'a-z0-9')" -D target.k.cuda_flags="$FLAGS $t" >out.txt 2>&1 ||
		{ cat out.txt; die "setup with $t failed"; }
	grep -q 'nvcc per TU\|split = tu' out.txt && { cat out.txt; die "$t: one nvcc per TU"; }
	grep -q 'archs sm_75 sm_80 sm_100f compute_120' out.txt || { cat out.txt; die "$t: not the per-arch images"; }
done

note "the build: per-arch edges, the PTX entry checked as nvcc does"
"$CUGEN" setup -B b >out.txt 2>&1 || { cat out.txt; die "setup failed"; }
[ "$(grep -c warning out.txt)" -eq 0 ] || { cat out.txt; die "setup warned"; }
for img in sm_75.cubin sm_80.cubin sm_100f.cubin compute_120.ptx; do
	grep -q "^build obj/k/sum.cu.p/$img:" b/build.ninja || die "no edge for $img"
done
grep -q 'ptxas -arch=compute_120 ' b/build.ninja || die "the PTX-only entry's ptxas check is not run"
build b >/dev/null
nm b/obj/k/cy.cu.o | grep -q ' T cy_launch$' || die "CYTHON_EXTERN_C did not reach nvcc as extern \"C\""

note "plain nvcc's images, with the same command (and cugen's module id seed)"
cd b || exit 1
for f in sum cy; do
	"$NVCC" -c $GENCODE $FLAGS -t2 -I../include '-DCYTHON_EXTERN_C=extern "C"' -frandom-seed="cupyflags/k:../$f.cu" \
		"../$f.cu" -o "ref-$f.o" || die "plain nvcc failed on $f.cu"
	same_images "obj/k/$f.cu.o" "ref-$f.o" "$f.cu"
done
images obj/k/sum.cu.o | grep -q '^ptx compute_120 ' || die "no PTX image of compute_120"
images obj/k/sum.cu.o | grep -q '^elf sm_100f ' || die "no sm_100f image"
echo ok
