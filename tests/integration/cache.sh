# The per-arch compile cache: a second build directory with the same cache
# takes every device image from it, byte-identical, through the direct mode
# (no host or device preprocess runs: the fe and device edges are restored
# whole); adding an arch misses only that arch; a flag that changes device
# code misses everywhere; a damaged entry (preprocessed or direct) is
# detected, removed and rebuilt, never used; editing a header that only the
# device view includes misses exactly the TUs that include it, touching a
# header without changing its bytes still hits. And launcher = ccache: host
# compiles hit ccache in a fresh build directory.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "75 80 90"
cd "$WORK/p" || exit 1
# a file changed in the clock tick of a lookup looks "changed after the
# lookup" to the direct mode's guard, which then skips the store (as
# ccache's "file too new"): a second passes after each write below
export CUGEN_CACHE_DIR="$WORK/cache"
stat_of() { "$CUGEN" cache --stats | sed -n "s/^$1: //p"; }
sleep 1
# the steps `cugen exec` ran for the fe and device edges (a preprocess,
# cudafe++, cicc, ptxas): none when they all came from the cache
pp_steps() { grep -E '(fe\.cpp|\.cubin|\.ptx)	' "$1/.cugen/edges.log" || true; }

note "cold: every device edge misses"
run "$CUGEN" setup -B b1 --archs "75 80"
build b1 >/dev/null
[ "$(stat_of hits)" = 0 ] || die "hits in a cold cache"
[ "$(stat_of misses)" = 4 ] || die "expected 4 misses (2 TUs x 2 archs), got $(stat_of misses)"
# 4 preprocessed entries, 4 direct device entries, 2 direct fe entries
[ "$(stat_of entries)" = 10 ] || die "expected 10 entries, got $(stat_of entries)"
[ "$(stat_of 'direct misses')" = 4 ] || die "expected 4 direct misses"
[ "$(stat_of 'fe direct misses')" = 2 ] || die "expected 2 fe direct misses"

note "warm: a fresh build directory takes every image from the cache"
run "$CUGEN" setup -B b2 --archs "75 80"
ran=$(build b2)
[ "$(stat_of hits)" = 4 ] || die "expected 4 hits, got $(stat_of hits)"
[ "$(stat_of misses)" = 4 ] || die "misses went up"
[ "$(stat_of 'direct hits')" = 4 ] || die "expected 4 direct hits, got $(stat_of 'direct hits')"
[ "$(stat_of 'fe direct hits')" = 2 ] || die "expected 2 fe direct hits, got $(stat_of 'fe direct hits')"
[ -z "$(pp_steps b2)" ] || { pp_steps b2; die "fe or device steps ran in a warm build"; }
for f in a b; do same_images "b1/obj/k/src/$f.cu.o" "b2/obj/k/src/$f.cu.o" "$f.cu (miss vs hit)"; done
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "b2/obj/k/src/$f.cu.o" || die "$f.cu.o differs (miss vs direct hit)"; done
cmp b1/app b2/app || die "the executables differ"
ninja_deps() { "$NINJA" -C "$1" -t deps | sed 's/, deps mtime.*//' | sort; }
[ "$(ninja_deps b1)" = "$(ninja_deps b2)" ] || die "ninja's header deps differ between a miss and a direct hit"
run "$CUGEN" setup -B b2 --archs "75 80"
[ "$(build b2)" = "" ] || die "a direct hit left b2 dirty"

note "adding an arch: only it misses"
run "$CUGEN" setup -B b2 --archs "75 80 90"
build b2 >/dev/null
[ "$(stat_of misses)" = 6 ] || die "expected 6 misses after adding sm_90, got $(stat_of misses)"
[ "$(stat_of hits)" = 4 ] || die "hits changed"

note "a flag that changes device code: every arch misses"
run "$CUGEN" setup -B b3 --archs "75 80" -D cuda.flags=-O1
build b3 >/dev/null
[ "$(stat_of misses)" = 10 ] || die "expected 10 misses after -O1, got $(stat_of misses)"

note "damaged direct entries are detected, removed and stored again"
misses=$(stat_of misses)
hits=$(stat_of 'direct hits')
for v in "$CUGEN_CACHE_DIR"/*/*.*/0; do printf 'garbage' >>"$v"; done
run "$CUGEN" setup -B b5 --archs "75 80"
build b5 >/dev/null 2>&1
grep -q 'is damaged' "$WORK/ninja.log" || die "no word of the damaged direct entries"
[ "$(stat_of 'direct hits')" = "$hits" ] || die "a damaged direct entry was used"
[ "$(stat_of misses)" = "$misses" ] || die "the preprocessed entries did not answer"
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "b5/obj/k/src/$f.cu.o" || die "$f.cu.o differs after damaged direct entries"; done
run "$CUGEN" setup -B b6 --archs "75 80"
build b6 >/dev/null
[ "$(stat_of 'direct hits')" = $((hits + 4)) ] || die "the direct entries were not stored again"
[ -z "$(pp_steps b6)" ] || { pp_steps b6; die "fe or device steps ran after the direct entries were stored again"; }
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "b6/obj/k/src/$f.cu.o" || die "$f.cu.o differs from the direct entries stored again"; done

note "damaged entries are detected and rebuilt"
misses=$(stat_of misses)
for v in "$CUGEN_CACHE_DIR"/*/*/0; do printf 'garbage' >>"$v"; done
rm -rf "$CUGEN_CACHE_DIR"/*/*.* # no direct hits: the preprocessed entries answer
run "$CUGEN" setup -B b4 --archs "75 80"
build b4 >/dev/null 2>&1
grep -q 'is damaged' "$WORK/ninja.log" || die "no word of the damaged entries"
[ "$(stat_of misses)" = $((misses + 4)) ] || die "the damaged entries were not misses (misses $(stat_of misses))"
for f in a b; do same_images "b1/obj/k/src/$f.cu.o" "b4/obj/k/src/$f.cu.o" "$f.cu (after a damaged entry)"; done
rm -rf "$CUGEN_CACHE_DIR"/*/*.*
run "$CUGEN" setup -B b7 --archs "75 80"
build b7 >/dev/null
[ "$(stat_of misses)" = $((misses + 4)) ] || die "the rebuilt entries missed"
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "b7/obj/k/src/$f.cu.o" || die "$f.cu.o differs from the rebuilt entries"; done

note "cugen cache --clear"
run "$CUGEN" cache --clear
[ "$(stat_of entries)" = 0 ] || die "entries left after --clear"

note "direct mode: a header only the device view of a.cu includes"
run "$CUGEN" setup -B h1 --archs "75 80"
build h1 >/dev/null
sed 's/DEV_VALUE 10/DEV_VALUE 11/' inc/dev.cuh >inc/dev.cuh.new && mv inc/dev.cuh.new inc/dev.cuh
sleep 1
run "$CUGEN" setup -B h2 --archs "75 80"
build h2 >/dev/null
# a.cu's two device edges miss (direct, then preprocessed: new code);
# b.cu's and both fe edges (the host view lacks dev.cuh) hit directly
[ "$(stat_of misses)" = 6 ] || die "expected 6 misses after editing dev.cuh, got $(stat_of misses)"
[ "$(stat_of 'direct hits')" = 2 ] || die "expected 2 direct hits (b.cu), got $(stat_of 'direct hits')"
[ "$(stat_of 'fe direct hits')" = 2 ] || die "expected 2 fe direct hits, got $(stat_of 'fe direct hits')"
pp_steps h2 | grep -q 'b\.cu\.p' && die "b.cu's steps ran though it does not include dev.cuh"
pp_steps h2 | grep -q 'a\.cu\.p/sm_80\.cubin' || die "a.cu's device steps did not run"
cmp -s h1/obj/k/src/a.cu.o h2/obj/k/src/a.cu.o && die "a.cu.o did not change with dev.cuh"
# h1, incrementally: ninja reruns a.cu's device edges, which now hit
# directly (h2 stored the new version of the header list)
ran=$(build h1)
echo "$ran" | grep -q 'a.cu.p/sm_75.cubin' || die "a.cu's sm_75 edge did not rerun in h1: $ran"
echo "$ran" | grep -q 'b.cu.p' && die "b.cu's edges reran in h1: $ran"
[ "$(stat_of misses)" = 6 ] || die "misses went up in h1"
[ "$(stat_of 'direct hits')" = 4 ] || die "expected 4 direct hits, got $(stat_of 'direct hits')"
for f in a b; do cmp "h1/obj/k/src/$f.cu.o" "h2/obj/k/src/$f.cu.o" || die "$f.cu.o: direct hit vs miss differ"; done
# the old bytes again: the first version of the entries answers
sed 's/DEV_VALUE 11/DEV_VALUE 10/' inc/dev.cuh >inc/dev.cuh.new && mv inc/dev.cuh.new inc/dev.cuh
sleep 1
run "$CUGEN" setup -B h3 --archs "75 80"
build h3 >/dev/null
[ "$(stat_of misses)" = 6 ] || die "the first version of dev.cuh missed"
[ -z "$(pp_steps h3)" ] || { pp_steps h3; die "fe or device steps ran with the first dev.cuh again"; }
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "h3/obj/k/src/$f.cu.o" || die "$f.cu.o differs with the first dev.cuh"; done

note "direct mode: touching a header (same bytes) still hits"
hits=$(stat_of 'direct hits')
fehits=$(stat_of 'fe direct hits')
sleep 1
touch inc/common.h inc/dev.cuh
ran=$(build h3)
echo "$ran" | grep -q 'b.cu.p/fe.cpp' || die "touching common.h did not rerun b.cu's fe edge: $ran"
[ "$(stat_of misses)" = 6 ] || die "a touched header missed"
[ "$(stat_of 'direct hits')" = $((hits + 4)) ] || die "expected $((hits + 4)) direct hits, got $(stat_of 'direct hits')"
[ "$(stat_of 'fe direct hits')" = $((fehits + 2)) ] || die "expected $((fehits + 2)) fe direct hits"
[ -z "$(pp_steps h3)" ] || { pp_steps h3; die "fe or device steps ran after a touch"; }
run "$CUGEN" setup -B h4 --archs "75 80"
build h4 >/dev/null
[ "$(stat_of misses)" = 6 ] || die "a touched header missed in a fresh build directory"
[ -z "$(pp_steps h4)" ] || { pp_steps h4; die "fe or device steps ran in a fresh build directory after a touch"; }
for f in a b; do cmp "b1/obj/k/src/$f.cu.o" "h4/obj/k/src/$f.cu.o" || die "$f.cu.o differs after a touch"; done

note "launcher = ccache"
if command -v ccache >/dev/null; then
	export CCACHE_DIR="$WORK/ccache"
	ccache -z >/dev/null
	run "$CUGEN" setup -B c1 -D toolchain.launcher=ccache --archs 80
	build c1 >/dev/null
	run "$CUGEN" setup -B c2 -D toolchain.launcher=ccache --archs 80
	build c2 >/dev/null
	ccache -s >ccache.txt
	cat ccache.txt
	hits=$(sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' ccache.txt | head -1)
	[ "${hits:-0}" -ge 3 ] || die "ccache had ${hits:-0} hits (want the 2 host compiles and main.cpp)"
fi
echo ok
