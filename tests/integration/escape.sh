# Paths with spaces, '$', ':', '#', '=' and non-ASCII letters in the
# project, source, include and build directories build correctly.
. "$(dirname "$0")/lib.sh"
need_cuda

odd='p q$r:s#t=u-é'
P="$WORK/$odd"
mkdir -p "$P/src dir" "$P/inc \$dir"
cat >"$P/cugen.ini" <<'INI'
[project]
name = odd
[cuda]
archs = 80
[target tool]
type = executable
sources = "src dir/k ernel.cu" "src dir/m#a=in.cpp"
include = "inc $dir"
INI
cat >"$P/inc \$dir/odd.h" <<'H'
#pragma once
int run(int);
H
cat >"$P/src dir/k ernel.cu" <<'CU'
#include "odd.h"
__global__ void k(int *p) { *p = 1; }
int run(int x) { if (x > 1) { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); } return x; }
CU
cat >"$P/src dir/m#a=in.cpp" <<'CPP'
#include "odd.h"
int main(int argc, char **) { return run(argc) == argc ? 0 : 1; }
CPP
for b in "$P/build dir" "$WORK/out \$b:c#d=é"; do
	note "build directory: $b"
	run "$CUGEN" setup -S "$P" -B "$b"
	build "$b" >/dev/null
	[ -x "$b/tool" ] || die "no executable in $b"
	"$b/tool" || die "the program failed"
	ran=$(build "$b")
	[ -z "$ran" ] || die "no-op build ran: $ran"
	sleep 1
	touch "$P/inc \$dir/odd.h"
	ran=$(build "$b")
	echo "$ran" | grep -q 'CUDA sm_80' || die "the header change was not seen: $ran"
done
echo ok
