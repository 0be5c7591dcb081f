# Whom the compile cache trusts: a cache directory other users can write,
# or one that belongs to another user, is refused by setup with the
# reason and the way to say the users trust each other
# (CUGEN_CACHE_SHARED=yes, as ccache's and sccache's shared caches need);
# an entry another user made (here: chowned to nobody, as root) is never
# used, the image compiled instead, unless the cache is shared on purpose.
# And a hit is what an uncached build makes: a header that appears in a
# search directory before the one a recorded header came from is found.
. "$(dirname "$0")/lib.sh"
need_cuda
small_project "$WORK/p" "80"
cd "$WORK/p" || exit 1
export CUGEN_CACHE_DIR="$WORK/cache"
unset CUGEN_CACHE_SHARED
stat_of() { "$CUGEN" cache --stats | sed -n "s/^$1: //p"; }

note "a cache directory everyone can write is refused"
mkdir -m 1777 "$WORK/cache"
chmod 1777 "$WORK/cache"
if "$CUGEN" setup -B b0 >err.txt 2>&1; then die "setup took a world-writable cache"; fi
grep -qF "cugen: error: CUGEN_CACHE_DIR '$WORK/cache' cannot be trusted: other users can write it, who could put images there that this build would embed (set CUGEN_CACHE_SHARED=yes if every user of it is trusted)" err.txt ||
	{ cat err.txt; die "wrong message for a world-writable cache"; }
[ -e b0 ] && die "a refused setup wrote the build directory"
CUGEN_CACHE_SHARED=yes run "$CUGEN" setup -B b0
rmdir "$WORK/cache"

note "a cache of this user's own: an entry of another user's is not used"
run "$CUGEN" setup -B b1
build b1 >/dev/null
[ "$(stat_of misses)" = 2 ] || die "expected 2 misses, got $(stat_of misses)"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	# another user's entry: the fe and device entries of a.cu's sm_80
	for e in "$WORK"/cache/*/*; do
		[ -d "$e" ] && grep -q . "$e/manifest" 2>/dev/null && chown -R nobody "$e"
	done
	run "$CUGEN" setup -B b2
	build b2 >/dev/null
	[ "$(stat_of hits)" = 0 ] || die "another user's entries were used ($(stat_of hits) hits)"
	cmp b1/app b2/app || die "the program built past another user's entries differs"
	# shared on purpose: the users trust each other
	CUGEN_CACHE_SHARED=yes run "$CUGEN" setup -B b3
	CUGEN_CACHE_SHARED=yes build b3 >/dev/null
	[ "$(stat_of hits)" -ge 1 ] || die "a shared cache's entries were not used"
else
	echo "note: not root (or no user nobody): the other user's entry is not made"
fi
note "a header that appears earlier on the search path is not shadowed by a hit"
# (a.cu's device code reads CFG_VALUE from cfg.h: only in inc2 at first)
Q=$WORK/q
mkdir -p "$Q/inc1" "$Q/inc2"
cat >"$Q/cugen.ini" <<'INI'
[project]
name = q
[cuda]
archs = 80
[target k]
type = static
sources = a.cu
include = inc1 inc2
INI
printf '#include "cfg.h"\n__global__ void k(int *p) { *p = CFG_VALUE; }\n' >"$Q/a.cu"
echo '#define CFG_VALUE 1111' >"$Q/inc2/cfg.h"
cd "$Q" || exit 1
export CUGEN_CACHE_DIR="$WORK/qcache"
run "$CUGEN" setup -B q1
build q1 >/dev/null
sleep 1
echo '#define CFG_VALUE 2222' >inc1/cfg.h
run "$CUGEN" setup -B q2
build q2 >/dev/null
unset CUGEN_CACHE_DIR
run "$CUGEN" setup -B q3
build q3 >/dev/null
cmp -s q1/obj/k/a.cu.p/sm_80.cubin q2/obj/k/a.cu.p/sm_80.cubin &&
	die "the cache served the image of the shadowed header"
cmp -s q2/obj/k/a.cu.p/sm_80.cubin q3/obj/k/a.cu.p/sm_80.cubin ||
	die "the cached build's image is not the uncached build's"
cmp -s q2/obj/k/a.cu.o q3/obj/k/a.cu.o || die "the cached build's object is not the uncached build's"
echo ok
