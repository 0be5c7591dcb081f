# The per-arch compile cache: a second build directory with the same cache
# takes every device image from it, byte-identical; adding an arch misses
# only that arch; a flag that changes device code misses everywhere; a
# damaged entry is detected, removed and rebuilt, never used. And
# launcher = ccache: host compiles hit ccache in a fresh build directory.
. "$(dirname "$0")/lib.sh"
need_cuda

small_project "$WORK/p" "75 80 90"
cd "$WORK/p" || exit 1
export CUGEN_CACHE_DIR="$WORK/cache"
stat_of() { "$CUGEN" cache --stats | sed -n "s/^$1: //p"; }

note "cold: every device edge misses"
run "$CUGEN" setup -B b1 --archs "75 80"
build b1 >/dev/null
[ "$(stat_of hits)" = 0 ] || die "hits in a cold cache"
[ "$(stat_of misses)" = 4 ] || die "expected 4 misses (2 TUs x 2 archs), got $(stat_of misses)"
[ "$(stat_of entries)" = 4 ] || die "expected 4 entries"

note "warm: a fresh build directory takes every image from the cache"
run "$CUGEN" setup -B b2 --archs "75 80"
ran=$(build b2)
[ "$(stat_of hits)" = 4 ] || die "expected 4 hits, got $(stat_of hits)"
[ "$(stat_of misses)" = 4 ] || die "misses went up"
for f in a b; do same_images "b1/obj/k/src/$f.cu.o" "b2/obj/k/src/$f.cu.o" "$f.cu (miss vs hit)"; done
cmp b1/app b2/app || die "the executables differ"

note "adding an arch: only it misses"
run "$CUGEN" setup -B b2 --archs "75 80 90"
build b2 >/dev/null
[ "$(stat_of misses)" = 6 ] || die "expected 6 misses after adding sm_90, got $(stat_of misses)"
[ "$(stat_of hits)" = 4 ] || die "hits changed"

note "a flag that changes device code: every arch misses"
run "$CUGEN" setup -B b3 --archs "75 80" -D cuda.flags=-O1
build b3 >/dev/null
[ "$(stat_of misses)" = 10 ] || die "expected 10 misses after -O1, got $(stat_of misses)"

note "a damaged entry is detected and rebuilt"
victim=$(grep -l . "$CUGEN_CACHE_DIR"/*/*/0 | head -1)
[ -n "$victim" ] || die "no cache entry"
printf 'garbage' >>"$victim"
run "$CUGEN" setup -B b4 --archs "75 80"
build b4 >/dev/null 2>&1
[ "$(stat_of misses)" = 11 ] || die "the damaged entry was not a miss (misses $(stat_of misses))"
for f in a b; do same_images "b1/obj/k/src/$f.cu.o" "b4/obj/k/src/$f.cu.o" "$f.cu (after a damaged entry)"; done
grep -q garbage "$victim" 2>/dev/null && die "the damaged entry is still there"

note "cugen cache --clear"
run "$CUGEN" cache --clear
[ "$(stat_of entries)" = 0 ] || die "entries left after --clear"

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
