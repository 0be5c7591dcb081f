# cugen nvcc's shards and combine through the environment, on
# examples/pyext: a setuptools extension whose build_ext compiles its
# .cu files through $NVCC with a CuPy-like command. NVCC="cugen nvcc"
# builds it per arch (plain nvcc's images); two shard runs
# (CUGEN_SHARD_DIR, CUGEN_ARCHS) in their own build directories and
# a combine run (CUGEN_COMBINE) give objects and an extension module
# byte-identical to the one-machine build's, and the combine runs no cicc or ptxas (its
# edges.log); a missing shard, a tampered image, a shard of a checkout
# at another path (nvcc's images hold the source's absolute path) and
# both variables at once are one error each.
. "$(dirname "$0")/lib.sh"
need_cuda
need_pyext
P=$WORK/py
cp -r "$SRC/examples/pyext" "$P"
cd "$P" || exit 1
mkdir -p "$WORK/tmp"
export TMPDIR=$WORK/tmp CUDA_PATH
ext() { ls "$1"/pyext*.so; }
build_ext() { # lib temp
	"$PY" setup.py -q build_ext --build-lib "$1" --build-temp "$2" >"$2.log" 2>&1 || { cat "$2.log"; return 1; }
}

note "plain nvcc, then NVCC=\"cugen nvcc\": the same images"
NVCC=$NVCC build_ext o0 t0 || die "the plain nvcc build"
NVCC="$CUGEN nvcc" CUGEN_VERBOSE=1 build_ext o1 t1 || die "the cugen nvcc build"
[ "$(grep -c "built by cugen's graph, 2 jobs$" t1.log)" = 2 ] || { cat t1.log; die "not both .cu through the graph, -t2's 2 jobs"; }
same_images t0/scale.cu.o t1/scale.cu.o "scale.cu"

note "two shards, each in its own build directories, then the combine"
NVCC="$CUGEN nvcc" CUGEN_SHARD_DIR=$P/S1 CUGEN_ARCHS="75 80" build_ext o2 t2 || die "shard 1"
NVCC="$CUGEN nvcc" CUGEN_SHARD_DIR=$P/S2 CUGEN_ARCHS="sm_100f 120" build_ext o3 t3 || die "shard 2"
images t2/scale.cu.o | grep -q '^elf sm_80 ' && ! images t2/scale.cu.o | grep -q 'sm_100f' ||
	die "shard 1's object is not its archs only"
images t3/scale.cu.o | grep -q '^ptx compute_120 ' || die "shard 2's object lacks the PTX-only entry"
# (a checkout at another path makes other images, as nvcc's hold the
# source's absolute path: its shard is another key)
mkdir -p "$WORK/elsewhere"
cp -r "$SRC/examples/pyext" "$WORK/elsewhere/py"
(cd "$WORK/elsewhere/py" && NVCC="$CUGEN nvcc" CUGEN_SHARD_DIR=$P/S5 CUGEN_ARCHS="sm_100f 120" build_ext o3 t3) ||
	die "shard 2 elsewhere"
ls -d "$TMPDIR"/cugen-nvcc* 2>/dev/null | grep -q . && die "a shard run left its scratch directory"
NVCC="$CUGEN nvcc" CUGEN_COMBINE="$P/S1 $P/S2" CUGEN_NVCC_KEEP=1 CUGEN_VERBOSE=1 build_ext o4 t4 || die "the combine"
[ "$(grep -c "combined from shards" t4.log)" = 2 ] || { cat t4.log; die "not both .cu combined"; }
for o in scale fill; do cmp t1/$o.cu.o t4/$o.cu.o || die "the combined $o.cu.o differs from the one-machine build's"; done
cmp "$(ext o1)" "$(ext o4)" || die "the combined module differs from the one-machine build's"
for log in "$TMPDIR"/cugen-nvcc-shard-*/b/.cugen/edges.log; do
	grep -q 'fatbinary' "$log" || die "$log: no fatbinary (not the combine's log)"
	grep -q 'cicc\|ptxas' "$log" && die "the combine compiled device code: $(grep 'cicc\|ptxas' "$log" | head -1)"
done
rm -rf "$TMPDIR"/cugen-nvcc*

note "what does not combine is one error"
NVCC="$CUGEN nvcc" CUGEN_COMBINE="$P/S1" build_ext o5 t5 && die "a combine without shard 2 succeeded"
grep -q "^cugen nvcc: error: kernels/.*\.cu: the shards do not combine: .*no shard has image .*(sm_100f)\|^cugen nvcc: error: kernels/.*\.cu: the shards do not combine: .*no shard has image .*(compute_120)" t5.log ||
	{ cat t5.log; die "no error naming the source and the missing arch"; }
cp -r S2 S3
for f in $(find S3 -name '*.cubin'); do printf 'X' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null; done
NVCC="$CUGEN nvcc" CUGEN_COMBINE="$P/S1 $P/S3" build_ext o6 t6 && die "a tampered shard combined"
grep -q "^cugen nvcc: error: kernels/.*: the shards do not combine: .*sm_100f.cubin' is corrupt" t6.log ||
	{ cat t6.log; die "no error naming the tampered image"; }
NVCC="$CUGEN nvcc" CUGEN_COMBINE="$P/S1 $P/S5" build_ext o8 t8 && die "a shard of a checkout elsewhere combined"
grep -q "^cugen nvcc: error: kernels/.*: the shards do not combine: .*no shard has image" t8.log ||
	{ cat t8.log; die "no error for the other checkout's shard"; }
NVCC="$CUGEN nvcc" CUGEN_COMBINE="$P/S1" CUGEN_SHARD_DIR=$P/S4 CUGEN_ARCHS=80 build_ext o7 t7 && die "both modes at once"
grep -q "^cugen nvcc: error: CUGEN_SHARD_DIR and CUGEN_COMBINE are both set" t7.log || { cat t7.log; die "no error for both modes"; }
ls -d "$TMPDIR"/cugen-nvcc* 2>/dev/null | grep -q . && die "a scratch directory or lock was left"
echo ok
