# The cache's direct mode never serves an image a fresh compile would not
# make: after a cached build, a header appears where the preprocessor
# looked and found nothing -- beside the header that includes it (its
# quoted #include searches its own directory first), beside the TU, or
# where a __has_include probed -- and a fresh build directory with the
# cache must make the uncached build's image, not the cached one. Each
# round: the cached build's image equals an uncached build's, and differs
# from the round before.
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P/inc1" "$P/inc2/sub"
cat >"$P/cugen.ini" <<'INI'
[project]
name = look
[cuda]
archs = 80
[target k]
type = static
sources = a.cu
include = inc1 inc2
INI
cat >"$P/a.cu" <<'CU'
#include "sub/a.h"
#include "c.h"
#if __has_include("opt.h")
#include "opt.h"
#else
#define OPT_VALUE 0
#endif
__global__ void k(int *p) { *p = B_VALUE + C_VALUE + OPT_VALUE; }
CU
# sub/a.h (in inc2) includes "b.h", found in inc1 at first
echo '#include "b.h"' >"$P/inc2/sub/a.h"
echo '#define B_VALUE 1' >"$P/inc1/b.h"
echo '#define C_VALUE 10' >"$P/inc1/c.h"
cd "$P" || exit 1
CACHE=$WORK/cache
n=0
round() { # what changed
	n=$((n + 1))
	CUGEN_CACHE_DIR=$CACHE run "$CUGEN" setup -B "c$n"
	CUGEN_CACHE_DIR=$CACHE build "c$n" >/dev/null
	run "$CUGEN" setup -B "u$n"
	build "u$n" >/dev/null
	cmp -s "c$n/obj/k/a.cu.p/sm_80.cubin" "u$n/obj/k/a.cu.p/sm_80.cubin" ||
		die "$1: the cache served an image an uncached build does not make"
	cmp -s "c$n/obj/k/a.cu.o" "u$n/obj/k/a.cu.o" || die "$1: the cached object is not the uncached one"
	if [ "$n" -gt 1 ]; then
		cmp -s "c$((n - 1))/obj/k/a.cu.p/sm_80.cubin" "c$n/obj/k/a.cu.p/sm_80.cubin" &&
			die "$1: the image did not change"
	fi
	# the guard skips a store when a file is as new as the lookup
	sleep 1
}
note "a first cached build"
round "first"
grep -q '^a [^ ]*inc2/sub/b\.h$' "$(grep -rl '^h .* \.\./inc2/sub/a\.h$' "$CACHE" | head -1)" ||
	die "the direct entry does not record the empty place beside sub/a.h"
note "a header beside the including header"
echo '#define B_VALUE 2' >inc2/sub/b.h
round "inc2/sub/b.h beside sub/a.h"
note "a header beside the TU"
echo '#define C_VALUE 20' >c.h
round "c.h beside a.cu"
note "a header a __has_include probed"
echo '#define OPT_VALUE 100' >inc1/opt.h
round "opt.h for __has_include"
note "and it goes away again"
rm inc1/opt.h
round "opt.h removed"
echo ok
