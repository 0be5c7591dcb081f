# The gate ([project] gate = yes; auto from 10,000 edges): build.ninja is
# one edge over the project's inputs and the headers the last build read,
# in front of the full graph (.cugen/full.ninja). It must build the same
# images, rebuild exactly what the full graph rebuilds after each kind of
# change, keep a failed or interrupted build open, forward named targets
# and ninja's flags, regenerate, and be a no-op when nothing changed.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "80"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B g -D project.gate=yes
grep -q 'a gate over' "$WORK/run.log" || { cat "$WORK/run.log"; die "setup's summary does not say the build is gated"; }
run "$CUGEN" setup -B plain
[ -f plain/.cugen/full.ninja ] && die "gate = auto turned the gate on for a small project"
[ -f g/.cugen/full.ninja ] || die "no .cugen/full.ninja"
[ "$(grep -c '^build .cugen/gate.stamp' g/build.ninja)" = 1 ] || die "build.ninja has no gate edge"
grep -q '^builddir = .cugen/full$' g/.cugen/full.ninja || die "the full graph does not keep its logs in .cugen/full"

# ran DIR: the full graph's edges that ran, sorted (the gate's own lines out)
ran() {
	build "$@" | grep -v '^cugen gate'
}

note "the first build makes the same images as the ungated one"
ran g >"$WORK/g.ran"
ran plain >"$WORK/plain.ran"
cmp -s "$WORK/g.ran" "$WORK/plain.ran" || { diff "$WORK/g.ran" "$WORK/plain.ran"; die "different edges ran"; }
same_images g/libk.a plain/libk.a "gated libk.a"
same_images g/app plain/app "gated app"
[ -f g/.cugen/full/.ninja_log ] || die "the full graph's log is not in .cugen/full"

noop() {
	"$NINJA" -C g -n >"$WORK/n.log" 2>&1
	grep -q 'no work to do' "$WORK/n.log" || { cat "$WORK/n.log"; "$NINJA" -C g -d explain -n 2>&1 | head; die "$1: the gate is open"; }
}
noop "after the first build"

# change FILE's contents (or touch it) in both copies' view and compare
# what each build dir rebuilds
same_rebuild() { # what
	ran g >"$WORK/g.ran"
	ran plain >"$WORK/plain.ran"
	[ -s "$WORK/plain.ran" ] || die "$1: the plain build had nothing to do"
	cmp -s "$WORK/g.ran" "$WORK/plain.ran" || { diff "$WORK/g.ran" "$WORK/plain.ran"; die "$1: the gate rebuilt other edges"; }
	noop "after $1"
}
sleep 1
note "a device-only header: the same edges as without the gate"
echo '#define DEV_EXTRA 1' >>inc/dev.cuh
same_rebuild "editing dev.cuh"
note "a host header"
echo '#define HOST_EXTRA 1' >>inc/host.h
same_rebuild "editing host.h"
note "a source"
echo '// edited' >>src/b.cu
same_rebuild "editing b.cu"

note "a deleted program is rebuilt"
rm g/app
build g >/dev/null
[ -x g/app ] || die "app was not rebuilt"
noop "after rebuilding app"

note "a failed build leaves the gate open"
cp src/a.cu "$WORK/a.cu.good"
echo 'this is not C++' >>src/a.cu
"$NINJA" -C g >"$WORK/fail.log" 2>&1 && die "a broken a.cu built"
"$NINJA" -C g >"$WORK/fail2.log" 2>&1 && die "the second build of a broken a.cu passed"
grep -q 'no work to do' "$WORK/fail2.log" && die "the gate closed after a failed build"
cp "$WORK/a.cu.good" src/a.cu
build g >/dev/null
noop "after the fix"

note "an interrupted build (^C: SIGINT to every process of it) leaves the gate open"
command -v setsid >/dev/null 2>&1 || skip "no setsid"
echo '// again' >>src/a.cu
NINJA_STATUS='@@ ' setsid "$NINJA" -C g >"$WORK/int.log" 2>&1 &
pid=$!
wait_for 600 "$WORK/int.log" "the build never started a CUDA edge" grep -q '^@@ .*CUDA' "$WORK/int.log"
kill -INT $(session_pids "$pid") 2>/dev/null
wait "$pid" 2>/dev/null
wait_for 300 /dev/null "the interrupted build's processes did not end" session_ended "$pid"
[ -f g/.cugen/gate.stamp ] && die "an interrupted build left the gate's stamp"
"$NINJA" -C g -n 2>&1 | grep -q 'no work to do' && die "the gate closed after an interrupted build"
build g >/dev/null
noop "after the interrupted build"

note "named targets and -v reach the full graph"
build g arch-sm_80 >/dev/null
build g k >/dev/null
echo '// verbose' >>src/a.cu
"$NINJA" -C g -v >"$WORK/v.log" 2>&1 || { cat "$WORK/v.log"; die "ninja -v failed"; }
grep -q 'cicc.*a\.cu' "$WORK/v.log" || { cat "$WORK/v.log"; die "-v did not reach the full graph's ninja"; }
noop "after the verbose build"

note "editing cugen.ini regenerates both files"
sleep 1
sed -i 's|deps = k|deps = k\ndefines = GATE_DEFINE=1|' cugen.ini
build g >"$WORK/regen.ran"
grep -q 'GATE_DEFINE=1' g/.cugen/full.ninja || die "the full graph was not regenerated"
grep -q '^CXX obj/app/src/main.cpp.o$' "$WORK/regen.ran" || { cat "$WORK/regen.ran"; die "main.cpp not rebuilt with the new define"; }
noop "after regeneration"

note "cugen report reads the full graph's log"
run "$CUGEN" report -B g -o "$WORK/report"
[ -s "$WORK/report/trace.json" ] || { ls "$WORK/report"; die "no report"; }
grep -q "main.cpp.o" "$WORK/report/trace.json" || die "the report misses the full graph's edges"

note "gate = no: the plain graph again"
run "$CUGEN" setup -B g -D project.gate=no
[ -f g/.cugen/full.ninja ] && die "gate = no left .cugen/full.ninja"
grep -q '^build .cugen/gate.stamp' g/build.ninja && die "gate = no wrote a gate"
build g >/dev/null
[ -x g/app ] || die "no app after turning the gate off"
echo ok
