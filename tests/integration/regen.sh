# Regeneration: ninja re-runs cugen when cugen.ini changes or when a file
# appears in a directory a glob reads; the new graph is used at once.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "80"
cd "$WORK/p" || exit 1
sed -i 's|sources = src/a.cu src/b.cu|sources = src/*.cu|' cugen.ini
run "$CUGEN" setup -B build
build build >/dev/null
sleep 1

note "editing cugen.ini regenerates build.ninja"
sed -i 's|deps = k|deps = k\ndefines = EXTRA_DEFINE=1|' cugen.ini
ran=$(build build)
echo "$ran"
grep -q 'EXTRA_DEFINE=1' build/build.ninja || die "build.ninja was not regenerated"
echo "$ran" | grep -q '^CXX obj/app/src/main.cpp.o$' || die "main.cpp not rebuilt with the new define"
echo "$ran" | grep -q 'CUDA sm_80' && die "device code rebuilt for a host-only define"

note "a new file matching a glob is picked up"
sleep 1
cat >src/c.cu <<'CU'
__global__ void kc(int *p) { *p = 3; }
CU
ran=$(build build)
echo "$ran"
echo "$ran" | grep -q '^CUDA sm_80 obj/k/src/c.cu.p/sm_80.cubin$' || die "c.cu was not built"
images build/libk.a | grep -c 'elf sm_80' | grep -qx 3 || die "libk.a should hold 3 sm_80 images"

note "a broken cugen.ini: the regeneration fails with the error, build.ninja is kept"
sleep 1
cp build/build.ninja before.ninja
echo 'bogus = 1' >>cugen.ini
if "$NINJA" -C build >out.txt 2>&1; then cat out.txt; die "ninja succeeded with a broken cugen.ini"; fi
grep -q "cugen.ini:[0-9]*: error: unknown key 'bogus'" out.txt || { cat out.txt; die "no error line"; }
cmp -s before.ninja build/build.ninja || die "build.ninja changed after a failed regeneration"
echo ok
