# examples/autotools-lt, a libtool project laid out as real ones are: its
# CUDA kernels in kernel/ (relocatable device code over two TUs, a header
# beside them, config.h from the build tree) built by cugen into a
# libtool convenience library with its own device link, linked from the
# parent directory into a dlopen'ed component, libcomp.so, through
# cugen-vars.mk; the project's own --with-cuda. autoreconf, configure,
# make, make check (the component loads with dlopen(RTLD_NOW), a stub
# libcuda.so.1 standing in for the driver where there is none) and make
# distcheck pass, and every __cudaRegisterLinkedBinary_* is defined in
# the component. Then what configure hands cugen and what the fragment
# does with cugen.ini, in one more build: --with-cuda-archs in nvcc's
# -gencode spelling and CUGEN_NVCCFLAGS reach the commands when configure
# runs again, and cugen.ini edited (device_link = no) rewrites the
# fragments by itself, and the component then fails to load, naming the
# missing device link.
. "$(dirname "$0")/lib.sh"
need_cuda
for t in autoreconf automake libtoolize make nm; do
	command -v $t >/dev/null || skip "no $t (Debian: autoconf automake libtool binutils)"
done

copy_example autotools-lt "$WORK/p"
cd "$WORK/p" || exit 1
cmp -s m4/cugen.m4 "$SRC/templates/cugen.m4" || die "examples/autotools-lt/m4/cugen.m4 is not templates/cugen.m4"
for f in cugen.mk cugen-vars.mk; do cp kernel/$f kernel/$f.committed; done
(cd kernel && "$CUGEN" setup --backend automake) >setup.log 2>&1 || { cat setup.log; die "setup --backend automake in kernel/ failed"; }
for f in cugen.mk cugen-vars.mk; do
	cmp kernel/$f kernel/$f.committed || die "the committed kernel/$f is not what cugen setup --backend automake writes"
	rm kernel/$f.committed
done

note "an object target's objects as libtool objects"
mkdir -p "$WORK/ob/src" && printf '__global__ void k() {}\n' >"$WORK/ob/src/a.cu" && printf 'int f(void) { return 1; }\n' >"$WORK/ob/src/b.c"
printf '[project]\nname = ob\n[cuda]\narchs = 80\n[target objs]\ntype = object\npic = yes\nsources = src/a.cu src/b.c\n' >"$WORK/ob/cugen.ini"
(cd "$WORK/ob" && "$CUGEN" setup --backend automake) >setup.log 2>&1 || { cat setup.log; die "setup --backend automake of an object target failed"; }
for o in a.cu b.c; do
	grep -q "^CUGEN_LTOBJ_objs = .*\$(top_builddir)/cugen-build/obj/objs/src/$o\.lo" "$WORK/ob/cugen-vars.mk" || die "no $o.lo in CUGEN_LTOBJ_objs"
	grep -q "pic_object='$o.o'" "$WORK/ob/cugen.mk" || die "no libtool object text for $o"
done

run autoreconf -fi
./configure --help >help.txt
[ "$(grep -c -- '--with-cuda=' help.txt)" = 1 ] || die "configure --help does not list --with-cuda once"
grep -q -- '--with-cuda-archs=LIST' help.txt || die "no --with-cuda-archs"
run ./configure CUGEN="$CUGEN"
make -j2 >make.log 2>&1 || { tail -30 make.log; die "make failed"; }
grep -q 'CUDA nvlink sm_80 obj/kernels/kernels.dlink.p/sm_80.cubin' make.log || die "no device link of the kernels"
grep -q -- '--whole-archive \./kernel/cugen-build/\.libs/libkernels\.a' make.log || die "libtool did not link the kernels into libcomp"
nm .libs/libcomp.so >nm.txt
grep -q ' U __cudaRegisterLinkedBinary_' nm.txt && die "libcomp.so has undefined __cudaRegisterLinkedBinary_ symbols"
[ "$(grep -c ' T __cudaRegisterLinkedBinary_' nm.txt)" = 2 ] || die "libcomp.so does not define the two TUs' __cudaRegisterLinkedBinary_"
make check >check.log 2>&1 || { tail -30 check.log; die "make check failed"; }
grep -q '^loader: loaded .*libcomp.so; \(PASS\|SKIP no CUDA device\)' tests/load.sh.log || { cat tests/load.sh.log; die "the component did not load"; }
# the device link as a libtool object: libtool takes the .lo as its own
./libtool --tag=CC --mode=link gcc -o libdlo.la -rpath /nowhere kernel/cugen-build/obj/kernels/kernels.dlink.p.lo >lo.log 2>&1 ||
	{ cat lo.log; die "libtool refused CUGEN_DLINK_LO_kernels"; }
[ "$(nm .libs/libdlo.so | grep -c ' T __cudaRegisterLinkedBinary_')" = 2 ] || die "the .lo did not bring the device link"
"$CUGEN" inspect .libs/libcomp.so >inspect.txt 2>&1 || { cat inspect.txt; die "cugen inspect libcomp.so"; }
for a in sm_75 sm_80; do grep -q "\.nv_fatbin .* elf $a " inspect.txt || { cat inspect.txt; die "no linked $a image in libcomp.so"; }; done
"$CUGEN" inspect libcomp.la >inspect-la.txt 2>&1 || { cat inspect-la.txt; die "cugen inspect libcomp.la"; }
cmp -s inspect.txt inspect-la.txt || sed "s|^libcomp.la|.libs/libcomp.so|" inspect-la.txt | cmp -s - inspect.txt ||
	{ cat inspect-la.txt; die "cugen inspect libcomp.la does not read .libs/libcomp.so"; }

note "make distcheck (VPATH, read-only sources, kernel/ops.cuh shipped)"
make distcheck DISTCHECK_CONFIGURE_FLAGS="CUGEN=$CUGEN" >dc.log 2>&1 || { tail -40 dc.log; die "make distcheck failed"; }
grep -q 'archives ready for distribution' dc.log || die "distcheck did not finish"
tar tzf ltcomp-1.0.tar.gz | grep -qx 'ltcomp-1.0/kernel/ops.cuh' || die "make dist left out kernel/ops.cuh"

note "configure's archs and flags reach cugen; cugen.ini edited rewrites the fragments"
sed -i 's/^device_link = yes$/device_link = no/' kernel/cugen.ini
touch kernel/cugen.ini
run ./configure CUGEN="$CUGEN" --with-cuda-archs='-gencode=arch=compute_80,code=sm_80' CUGEN_NVCCFLAGS=-DCOMP_TUNED=1
make -j2 >make2.log 2>&1 || { tail -30 make2.log; die "make after the changes failed"; }
grep -q 'CUGEN_DLINK_kernels' kernel/cugen-vars.mk && die "kernel/cugen-vars.mk was not written again"
grep -q 'CUGEN_DLINK_kernels' kernel/Makefile && die "kernel/Makefile was not made again from the new fragment"
grep -q 'sm_80.cubin' kernel/cugen-build/Makefile || die "no sm_80 with --with-cuda-archs"
grep -q 'sm_75' kernel/cugen-build/Makefile && die "sm_75 still built with --with-cuda-archs=...sm_80"
grep -q -- 'COMP_TUNED=1' kernel/cugen-build/Makefile || die "CUGEN_NVCCFLAGS did not reach the commands"
if make check >check2.log 2>&1; then die "the component loaded without its device link"; fi
grep -q 'undefined symbol: __cudaRegisterLinkedBinary_' tests/load.sh.log || { cat tests/load.sh.log; die "the failed load does not name the missing device link"; }
echo ok
