# multi: a static library of CUDA and C++ TUs (templates, an anonymous-
# namespace kernel, __constant__, CUB) and an executable, built for 2
# archs. Every CUDA TU's images are byte-identical to one plain `nvcc -c`
# per TU with the same flags (module ids from absolute paths, as nvcc
# makes them); the program links and its GPU-free modes run.
. "$(dirname "$0")/lib.sh"
need_cuda

copy_example multi "$WORK/p"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B build -D cuda.archs="75 80" -D cuda.module_id=absolute
build build >/dev/null
[ -x build/multi_app ] || die "no multi_app"
build/multi_app --help >/dev/null || die "multi_app --help failed"
build/multi_app --list >/dev/null || die "multi_app --list failed"

note "each CUDA TU equals nvcc -c with the same flags"
n=0
cd build || exit 1
for cu in ../lib/*.cu; do
	b=$(basename "$cu")
	run "$NVCC" -c -gencode arch=compute_75,code=sm_75 -gencode 'arch=compute_80,code=[sm_80,compute_80]' \
		-std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall -I../include "$cu" -o "ref.$b.o"
	same_images "obj/multi/lib/$b.o" "ref.$b.o" "$b"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || die "expected at least 3 CUDA TUs, found $n"

note "the library and the executable carry every TU's images"
for a in sm_75 sm_80 compute_80; do
	c=$(images libmulti.a | grep -c " $a ")
	[ "$c" -eq "$n" ] || die "libmulti.a has $c $a images, expected $n"
	c=$(images multi_app | grep -c " $a ")
	[ "$c" -eq "$n" ] || die "multi_app has $c $a images, expected $n"
done
echo ok
