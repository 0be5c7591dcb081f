# Relocatable device code: examples/rdc (static library of RDC objects
# device-linked in the executable, a shared library device-linked inside
# itself) and examples/cdp (dynamic parallelism, libcudadevrt), for 2
# archs; device_link = yes gives the static library a device link of its
# own (nvcc -dlink's images) for a program linked outside cugen. Every image of the final binaries equals plain `nvcc -dc` +
# `nvcc -dlink` with the same flags, byte for byte; LTO builds link;
# adding an arch reruns only that arch's device and nvlink edges and the
# steps that combine them.
. "$(dirname "$0")/lib.sh"
need_cuda

G="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]"
L="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
F="-std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall"
LIBS="-L$CUDA_PATH/targets/x86_64-linux/lib -lcudadevrt -lcudart_static -lrt -lpthread -ldl"

copy_example rdc "$WORK/rdc"
cd "$WORK/rdc" || exit 1
run "$CUGEN" setup -B build -D cuda.archs="80 90" -D cuda.module_id=absolute
build build >/dev/null
for f in build/rdc_app build/librdcshared.so; do [ -f "$f" ] || die "no $f"; done
build/rdc_app --help >/dev/null || die "rdc_app --help failed"

note "reference: nvcc -dc per TU, nvcc -dlink per binary"
mkdir ref && cd ref || exit 1
for cu in ../lib/*.cu; do run "$NVCC" -dc $G $F -I../include "$cu" -o "s_$(basename "$cu").o"; done
ar crs librdcstatic.a s_*.o
for cu in ../shlib/*.cu; do run "$NVCC" -dc $G $F -Xcompiler -fPIC -I../include "$cu" -o "sh_$(basename "$cu").o"; done
run "$NVCC" -dlink $L -std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall -Xcompiler -fPIC sh_*.o -o sh_dlink.o
run g++ -shared -Wl,-soname,librdcshared.so sh_dlink.o sh_*.cu.o -o librdcshared.so $LIBS
run g++ -O2 -Wall -I../include -c ../app/main.cpp -o main.o
run "$NVCC" -dlink $L -std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall main.o librdcstatic.a -o app_dlink.o
run g++ app_dlink.o main.o librdcstatic.a librdcshared.so -o rdc_app $LIBS
cd .. || exit 1
same_images build/rdc_app ref/rdc_app "rdc_app (device-linked images and every TU's relocatable images)"
same_images build/librdcshared.so ref/librdcshared.so "librdcshared.so"
"$CUGEN" inspect build/rdc_app | grep -q ": .nv_fatbin #1 elf sm_80 " || die "no device-linked sm_80 image"

note "device_link = yes: the static library's own device link, for a link outside cugen"
run "$CUGEN" setup -B dl -D cuda.archs="80 90" -D cuda.module_id=absolute -D target.rdcstatic.device_link=yes
"$NINJA" -C dl rdcstatic >/dev/null 2>&1 || die "ninja rdcstatic failed"
[ -f dl/obj/rdcstatic/rdcstatic.dlink.p.o ] || die "ninja rdcstatic made no device-link object"
(cd ref && run "$NVCC" -dlink $L -std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall s_*.o -o static_dlink.o)
same_images dl/obj/rdcstatic/rdcstatic.dlink.p.o ref/static_dlink.o "rdcstatic's device link (nvcc -dlink of its objects)"
build dl >/dev/null
run g++ ref/main.o dl/obj/rdcstatic/rdcstatic.dlink.p.o dl/librdcstatic.a build/librdcshared.so -o outside $LIBS
if g++ ref/main.o dl/librdcstatic.a build/librdcshared.so -o outside2 $LIBS >link.txt 2>&1; then
	die "linked without the device-link object"
fi
grep -q "undefined reference to .__cudaRegisterLinkedBinary_" link.txt || { cat link.txt; die "no undefined __cudaRegisterLinkedBinary_ without it"; }

note "adding an arch reruns only its device edges, its nvlink and the combining steps"
run "$CUGEN" setup -B inc --archs 80 -D cuda.archs="80 90"
build inc >/dev/null
run "$CUGEN" setup -B inc --archs "80 90" -D cuda.archs="80 90"
ran=$(build inc)
echo "$ran"
other=$(echo "$ran" | grep -v -e '^CUDA sm_90 ' -e '^CUDA cicc 90 ' -e '^CUDA nvlink sm_90 ' -e '^CUDA fatbin ' -e '^CUDA embed ' \
	-e '^CUDA dlink object .*\.sm_90\.dlink\.o$' \
	-e '^CUDA dlink fatbin ' -e '^CUDA dlink host ' -e '^AR ' -e '^LINK ')
[ -z "$other" ] || die "unexpected edges reran: $other"
echo "$ran" | grep -q '^CUDA nvlink sm_90 obj/rdc_app/rdc_app.dlink.p/sm_90.cubin$' || die "no sm_90 nvlink for rdc_app"
echo "$ran" | grep -q '^CUDA nvlink sm_80' && die "the sm_80 device link reran"
echo "$ran" | grep -q 'sm_80\.dlink\.a$' && die "the sm_80 device-link archive was rebuilt"

note "LTO: lto_NN images, nvlink -dlto, and the TU objects equal nvcc -dc's"
run "$CUGEN" setup -B lto --profile lto -D cuda.archs="80 90" -D cuda.module_id=absolute
build lto >/dev/null
images lto/rdc_app | grep -q 'nvvm lto_90' || die "no LTO-IR images in rdc_app"
"$CUGEN" inspect lto/rdc_app | grep -q ": .nv_fatbin #2 elf sm_90 " || die "no device-linked sm_90 image (LTO)"
# (from the same directory: LTO-IR records the working directory)
cd lto || exit 1
run "$NVCC" -dc -gencode arch=compute_80,code=lto_80 -gencode arch=compute_90,code=lto_90 $F -I../include ../lib/kernels.cu -o ref_lto_kernels.o
cd .. || exit 1
same_images lto/obj/rdcstatic/lib/kernels.cu.o lto/ref_lto_kernels.o "kernels.cu (lto)"
# nvcc -dlink -dlto cannot load libnvvm from this toolkit layout (see
# research/nvcc-pipeline.md §1); cugen points nvlink at a directory of links.

note "cdp: dynamic parallelism links libcudadevrt"
copy_example cdp "$WORK/cdp"
cd "$WORK/cdp" || exit 1
run "$CUGEN" setup -B build -D cuda.archs="80 90" -D cuda.module_id=absolute
build build >/dev/null
run "$NVCC" -dc $G $F -I. cdp.cu -o ref_cdp.o
run g++ -O2 -Wall -I. -c main.cpp -o ref_main.o
run "$NVCC" -dlink $L -std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall ref_cdp.o ref_main.o -o ref_dlink.o
run g++ ref_dlink.o ref_cdp.o ref_main.o -o ref_cdp $LIBS
same_images build/cdp_app ref_cdp "cdp_app"

note "devrt = no: the nvlink failure says which key to set"
run "$CUGEN" setup -B nodevrt -D cuda.archs=80 -D target.cdp_app.devrt=no
"$NINJA" -C nodevrt >out.txt 2>&1 && die "cdp linked without libcudadevrt"
grep -q "cugen: hint: target 'cdp_app' uses the CUDA device runtime (dynamic parallelism): set 'devrt = yes' in \[target cdp_app\]" out.txt ||
	{ cat out.txt; die "no devrt hint"; }
echo ok
