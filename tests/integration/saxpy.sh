# saxpy: setup + ninja build with real nvcc for 2 archs; the object's GPU
# images equal those of one plain `nvcc -c` with the same flags; no-op
# build; deterministic output; compile_commands.json.
. "$(dirname "$0")/lib.sh"
need_cuda

copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B build -D cuda.archs="80 90"
[ -f build/build.ninja ] || die "no build.ninja"
build build >/dev/null
[ -x build/saxpy ] || die "no executable"
build/saxpy --help >/dev/null || die "saxpy --help failed"

note "images equal those of nvcc -c"
run "$NVCC" -c -gencode arch=compute_80,code=sm_80 -gencode 'arch=compute_90,code=[sm_90,compute_90]' \
	-std=c++17 -O3 -Xcompiler -O2 -Xcompiler -Wall -I. -DSAXPY_N=1048576 saxpy.cu -o ref.o
same_images build/obj/saxpy/saxpy.cu.o ref.o "saxpy.cu"
images build/obj/saxpy/saxpy.cu.o | grep -q 'elf sm_80' || die "no sm_80 image"
images build/obj/saxpy/saxpy.cu.o | grep -q 'ptx compute_90' || die "no compute_90 PTX"
images build/saxpy | grep -q 'elf sm_90' || die "the executable lacks the sm_90 image"

note "one device edge per TU per arch"
grep -c '^build obj/saxpy/saxpy.cu.p/sm_[0-9]*.cubin' build/build.ninja | grep -qx 2 || die "expected 2 device edges"

note "no-op build does nothing"
ran=$(build build)
[ -z "$ran" ] || die "no-op build ran: $ran"

note "the same input gives byte-identical files"
# (the input includes what the last build measured: the planner uses it)
run "$CUGEN" setup -B build -D cuda.archs="80 90"
cp build/build.ninja build.ninja.1
cp build/compile_commands.json cc.json.1
run "$CUGEN" setup -B build -D cuda.archs="80 90"
cmp build/build.ninja build.ninja.1 || die "build.ninja changed"
cmp build/compile_commands.json cc.json.1 || die "compile_commands.json changed"
ran=$(build build)
[ -z "$ran" ] || die "re-setup with the same input made ninja rebuild: $ran"
run "$CUGEN" setup -B fresh1 -D cuda.archs="80 90"
run "$CUGEN" setup -B fresh2 -D cuda.archs="80 90"
sed 's/fresh2/fresh1/g' fresh2/build.ninja | cmp - fresh1/build.ninja || die "two fresh setups differ"

note "compile_commands.json"
python3 -c 'import json, sys; files = {e["file"] for e in json.load(open(sys.argv[1]))}; sys.exit(0 if {"../saxpy.cu", "../main.cpp"} <= files else 1)' \
	build/compile_commands.json || die "saxpy.cu or main.cpp missing from compile_commands.json"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==2' build/compile_commands.json ||
		die "compile_commands.json is not valid JSON with 2 entries"
fi
echo ok
