# split = tu (one nvcc -c per TU, as CMake does): chosen by a profile; the
# images equal the per-arch graph's; a subset build keeps the pinned
# __CUDA_ARCH_LIST__; an unrecognised nvcc pipeline falls back to it
# with a warning that says why.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "75 80"
cd "$WORK/p" || exit 1
cat >>cugen.ini <<'INI'
[profile tu]
split = tu
INI
run "$CUGEN" setup -B arch
build arch >/dev/null
run "$CUGEN" setup -B tu --profile tu
ran=$(build tu)
echo "$ran"
echo "$ran" | grep -q '^CUDA nvcc obj/k/src/a.cu.o$' || die "no nvcc edge for a.cu"
echo "$ran" | grep -q '^CUDA sm_' && die "per-arch edges in split = tu"
for f in a b; do
	same_images "arch/obj/k/src/$f.cu.o" "tu/obj/k/src/$f.cu.o" "$f.cu (split arch vs tu)"
done
grep -Eq -- "-MD( -MP)? -MF" tu/build.ninja || die "no depfile for the nvcc edges"

note "cuda_sources: a C++ file compiled as CUDA in both modes"
# (nvcc goes by the extension: without -x cu a .cpp was plain C++, with
# no GPU image, and its program ran its CPU fallback)
cat >src/c.cpp <<'CPP'
#ifdef __CUDACC__
__global__ void kc(int *p) { *p = 7; }
int run_c() { int *d; cudaMalloc(&d, 4); kc<<<1, 1>>>(d); cudaFree(d); return 1; }
#else
int run_c() { return 0; }
#endif
CPP
cat >>cugen.ini <<'INI'
[target kc]
type = static
cuda_sources = src/c.cpp
INI
run "$CUGEN" setup -B arch
build arch kc >/dev/null
run "$CUGEN" setup -B tu --profile tu
build tu kc >/dev/null
for d in arch tu; do
	o=$(find "$d/obj/kc" -name '*.o' | head -1)
	[ -n "$o" ] || die "$d: no object for src/c.cpp"
	images "$o" | grep -q 'sm_80' || { images "$o"; die "$d: src/c.cpp (cuda_sources) has no GPU image"; }
done
same_images "$(find arch/obj/kc -name '*.o' | head -1)" "$(find tu/obj/kc -name '*.o' | head -1)" "src/c.cpp (split arch vs tu)"
grep -q -- '-x cu .*src/c\.cpp' tu/compile_commands.json || die "compile_commands.json: c.cpp not compiled as CUDA"

note "a subset in split = tu keeps the pinned arch list"
run "$CUGEN" setup -B tu --profile tu --archs 80
grep -qF -- '-D__CUDA_ARCH_LIST__=750\,800' tu/build.ninja || { grep nvcc tu/build.ninja; die "the pinned list is not passed"; }
build tu >/dev/null
images tu/obj/k/src/a.cu.o | grep -q sm_75 && die "sm_75 built although not selected"
[ "$(images tu/obj/k/src/a.cu.o | grep 'elf sm_80')" = "$(images arch/obj/k/src/a.cu.o | grep 'elf sm_80')" ] ||
	die "the sm_80 image of a subset build differs from the full build's"

note "an nvcc whose --dryrun is not understood: fall back to split = tu"
mkdir -p fake/bin
for t in "$CUDA_PATH"/bin/*; do ln -s "$t" fake/bin/; done
rm fake/bin/nvcc
# (its --dryrun is odd only with the flag -DCUGEN_MYSTERY, which
# [target k] gets below)
cat >fake/bin/nvcc <<SH
#!/bin/sh
case " \$* " in
*" --dryrun "*" -DCUGEN_MYSTERY "* | *" -DCUGEN_MYSTERY "*" --dryrun "*)
	"$CUDA_PATH/bin/nvcc" "\$@" 2>&1 | sed 's/^#\\\$ cudafe++ /#\$ mystery-tool /' >&2 ;;
*) exec "$CUDA_PATH/bin/nvcc" "\$@" ;;
esac
SH
chmod +x fake/bin/nvcc
ln -s "$CUDA_PATH/nvvm" fake/nvvm
ln -s "$CUDA_PATH/targets" fake/targets
sed -i 's/^include = inc$/include = inc\ncuda_flags = -O2 -DCUGEN_MYSTERY/' cugen.ini
grep -q 'CUGEN_MYSTERY' cugen.ini || die "the flag did not reach cugen.ini"
# (on 16 cores the planner would have given nvcc --split-compile here)
printf '[profile big]\njobs = 16\n' >>cugen.ini
"$CUGEN" setup -B fb -D toolchain.cuda="$WORK/p/fake" --profile big >out.txt 2>err.txt ||
	{ cat err.txt; die "setup failed"; }
cat out.txt err.txt
[ "$(wc -l <err.txt)" -eq 1 ] || die "not one warning line"
grep -q "^cugen: warning: target 'k' (flag '-DCUGEN_MYSTERY') is built with one nvcc per TU (split = tu), the code plain nvcc makes: nvcc --dryrun: unknown step 'mystery-tool'" err.txt ||
	die "no fallback warning naming the target and the flag"
grep -q "one nvcc per TU for 'k' (flag '-DCUGEN_MYSTERY')" out.txt || die "the summary line does not name the fallback"
grep -q 'cuda_nvcc' fb/build.ninja || die "no nvcc rule after the fallback"
grep -q -- '--split-compile' fb/build.ninja && die "the fallback changes the code with --split-compile"
build fb >/dev/null
run "$CUDA_PATH/bin/nvcc" -c -gencode arch=compute_75,code=sm_75 -gencode 'arch=compute_80,code=[sm_80,compute_80]' \
	-std=c++17 -O2 -DCUGEN_MYSTERY -Iinc src/b.cu -o ref_b.o
same_images fb/obj/k/src/b.cu.o ref_b.o "b.cu (fallback against plain nvcc)"
"$CUGEN" setup -B fb2 -D toolchain.cuda="$WORK/p/fake" -D profile.tu.split=arch --profile tu >out.txt 2>err.txt &&
	die "split = arch with an unknown pipeline should fail"
grep -q "split = arch, but nvcc --dryrun: unknown step 'mystery-tool'" err.txt || { cat err.txt; die "wrong error"; }
echo ok
