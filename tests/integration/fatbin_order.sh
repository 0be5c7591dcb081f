# The fatbinary keeps nvcc's entry order, so an object equals plain
# nvcc's byte for byte where the images do: nvcc lists an arch's PTX and
# SASS in the order its code list names them, and CMake writes
# code=[compute_NN,sm_NN] (PTX first) where cugen's own default, as
# -arch=sm_NN, is SASS first. archs in nvcc's spelling with the PTX first
# (or CMake's, or an import) set ptx_first; the TU's .nv_fatbin section
# is then plain nvcc's, byte for byte (module_id = absolute: nvcc's
# names), and without it the entries are the other way round.
. "$(dirname "$0")/lib.sh"
need_cuda
copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
fatbin() { objcopy -O binary --only-section=.nv_fatbin "$1" "$1.fatbin" && sha256sum <"$1.fatbin"; }
GC='-gencode=arch=compute_75,code=sm_75 -gencode=arch=compute_80,code=[compute_80,sm_80]'
run "$CUGEN" setup -B b -D "cuda.archs=$GC" -D cuda.module_id=absolute
grep -q 'kind=elf,sm=75,.*kind=ptx,sm=80,.*kind=elf,sm=80,' b/build.ninja || die "not nvcc's order (PTX of 80 before its SASS)"
build b obj/saxpy/saxpy.cu.o >/dev/null
(cd b && "$NVCC" -c -std=c++17 -O3 -I.. -DSAXPY_N=1048576 -frandom-seed=saxpy/saxpy:saxpy.cu $GC ../saxpy.cu -o ref.o) ||
	die "plain nvcc failed"
same_images b/obj/saxpy/saxpy.cu.o b/ref.o "saxpy.cu"
[ "$(fatbin b/obj/saxpy/saxpy.cu.o)" = "$(fatbin b/ref.o)" ] || die "the .nv_fatbin section is not plain nvcc's"
note "cugen's own spelling: SASS first, as -arch=sm_80"
run "$CUGEN" setup -B b2 -D cuda.archs="75 80" -D cuda.ptx=80 -D cuda.module_id=absolute
grep -q 'kind=elf,sm=80,.*kind=ptx,sm=80,' b2/build.ninja || die "cugen's own spelling is not SASS first"
echo ok
