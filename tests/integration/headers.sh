# Header tracking: editing a header rebuilds exactly the TUs that include
# it, also a header included only in the device view (#ifdef __CUDA_ARCH__),
# and the edited device-only header changes the image bytes.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "75 80"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B build
build build >/dev/null
sleep 1

note "host-only header: only main.cpp"
echo '#define HOST_EXTRA 1' >>inc/host.h
ran=$(build build)
echo "$ran"
[ "$(echo "$ran" | grep -c .)" -eq 2 ] || die "expected CXX main.cpp + LINK app, got: $ran"
echo "$ran" | grep -q '^CXX obj/app/src/main.cpp.o$' || die "main.cpp not rebuilt"

note "device-only header: a.cu's device edges, not b.cu"
before=$(images build/obj/k/src/a.cu.o | grep 'elf sm_80')
sed -i 's/DEV_VALUE 10/DEV_VALUE 11/' inc/dev.cuh
ran=$(build build)
echo "$ran"
echo "$ran" | grep -q '^CUDA sm_75 obj/k/src/a.cu.p/sm_75.cubin$' || die "a.cu sm_75 not rebuilt"
echo "$ran" | grep -q '^CUDA sm_80 obj/k/src/a.cu.p/sm_80.cubin$' || die "a.cu sm_80 not rebuilt"
echo "$ran" | grep -q 'b\.cu' && die "b.cu rebuilt for a header it does not include"
echo "$ran" | grep -q '^CUDA host ' && die "host compile rebuilt for a device-only header"
echo "$ran" | grep -q '^CXX ' && die "C++ rebuilt for a device-only header"
after=$(images build/obj/k/src/a.cu.o | grep 'elf sm_80')
[ "$before" != "$after" ] || die "the sm_80 image did not change"
ran=$(build build)
[ -z "$ran" ] || die "not up to date after the rebuild: $ran"

note "common header: both CUDA TUs and main.cpp"
sleep 1
echo '#define COMMON_EXTRA 1' >>inc/common.h
ran=$(build build)
echo "$ran"
for e in 'CUDA fe obj/k/src/a.cu.p/fe.cpp' 'CUDA fe obj/k/src/b.cu.p/fe.cpp' \
	'CUDA sm_75 obj/k/src/b.cu.p/sm_75.cubin' 'CUDA sm_80 obj/k/src/a.cu.p/sm_80.cubin' \
	'CXX obj/app/src/main.cpp.o'; do
	echo "$ran" | grep -qx "$e" || die "'$e' did not run"
done

note "with pp edges (if the planner chose them), the device view's preprocess records its headers"
if grep -q '^build obj/k/src/a.cu.p/80.ii: ' build/build.ninja; then
	"$NINJA" -C build -t deps obj/k/src/a.cu.p/80.ii | grep -q 'dev.cuh' || die "the pp edge does not record dev.cuh"
fi

note ".ninja_deps: one full header list per TU, device edges add only their own (one job: no pp edges)"
printf '\n[profile one]\njobs = 1\n' >>cugen.ini
run "$CUGEN" setup -B one --profile one
grep -q 'cuda_pp_' one/build.ninja && die "one job: pp edges"
build one >/dev/null
"$NINJA" -C one -t deps obj/k/src/a.cu.p/sm_80.cubin >deps.txt
grep -q 'dev.cuh' deps.txt || die "the device edge does not record dev.cuh"
grep -q 'cuda_runtime.h' deps.txt && die "the device edge records host-view headers too"
"$NINJA" -C one -t deps obj/k/src/a.cu.p/fe.cpp | grep -q 'common.h' || die "fe does not record common.h"
echo ok
