# usage: what a target needs and gives. Defines reach the compilers
# exactly as written (strings with quotes, spaces, commas, '=', '#',
# parentheses) in .cu and .cpp TUs, with the ninja, make and automake
# backends: programs print each value. Public and private include
# directories, defines and libraries: only the public part reaches the
# targets that depend on one. data = copies run-time files next to the
# program as edges: a changed file is copied again, nothing relinks. A
# C++ target that names a toolkit library (libs = cublas) gets the
# toolkit's headers and cudart.
. "$(dirname "$0")/lib.sh"
need_cuda

mkdir -p "$WORK/p/lib/pub" "$WORK/p/lib/priv" "$WORK/p/app" "$WORK/p/data/sub"
cd "$WORK/p" || exit 1
cat >lib/pub/lib.h <<'H'
#pragma once
const char *lib_values(void);
#ifndef LIB_PUBLIC
#error "LIB_PUBLIC (a public define of lib) missing"
#endif
H
cat >lib/priv/private.h <<'H'
#pragma once
#define PRIVATE_HEADER_SEEN 1
H
# a CUDA TU and a C++ TU print the defines; # and : and = and ( are in
# the values, a comma inside quotes and parentheses
cat >lib/lib.cu <<'CU'
#include "lib.h"
#include "private.h"
#include <cstdio>
#define S_(...) #__VA_ARGS__
#define S(...) S_(__VA_ARGS__)
__global__ void k(int *p) { p[0] = LIB_PUBLIC; }
const char *lib_values(void)
{
	static char buf[512];
	snprintf(buf, sizeof buf, "cu: [%s] [%s] [%s] [%s] [%d]", VERSION, MSG, S(EXPR), S(TWICE(3)), LIB_PUBLIC);
	return buf;
}
CU
cat >app/main.cpp <<'CPP'
#include "lib.h"
#include <cstdio>
#ifdef PRIVATE_HEADER_SEEN
#error "lib's private include directory reached app"
#endif
#ifdef VERSION
#error "lib's private define reached app"
#endif
#if __has_include("private.h")
#error "lib's private include directory is on app's path"
#endif
#define S_(...) #__VA_ARGS__
#define S(...) S_(__VA_ARGS__)
int main()
{
	std::printf("%s\n", lib_values());
	std::printf("cpp: [%s] [%s] [%d]\n", APP_STR, S(APP_LIST), LIB_PUBLIC);
	FILE *f = std::fopen("data/table.txt", "r");
	char line[64] = "";
	if (!f || !std::fgets(line, sizeof line, f))
		return 2;
	std::printf("data: %s", line);
	return 0;
}
CPP
echo 'row 1' >data/table.txt
echo 'deep' >data/sub/more.txt
cat >cugen.ini <<'INI'
[project]
name = usage
[cuda]
archs = 80
[target lib]
type = static
sources = lib/lib.cu
include = lib/pub
private_include = lib/priv
defines = VERSION="1.0" MSG="a b, c # d = e : f" EXPR=(1+2) "TWICE(x)=((x)*2)"
public_defines = LIB_PUBLIC=7
private_libs = m
[target app]
type = executable
sources = app/main.cpp
deps = lib
defines = APP_STR="it's \"quoted\"" APP_LIST=(a,b)
data = data/table.txt data/sub/*.txt
INI
# a C++ program that uses a toolkit library gets the toolkit's headers
# and cudart, as CMake's CUDA::cublas gives them
mkdir -p blas
cat >blas/main.cpp <<'CPP'
#include <cublas_v2.h>
#include <cstdio>
int main()
{
	int v = 0;
	return cublasGetProperty(MAJOR_VERSION, &v) == CUBLAS_STATUS_SUCCESS && v > 0 ? 0 : 1;
}
CPP
cat >>cugen.ini <<'INI'
[target blasuser]
type = executable
sources = blas/main.cpp
libs = cublas
INI
# (what the programs must print)
cat >expected <<'OUT'
cu: [1.0] [a b, c # d = e : f] [(1+2)] [((3)*2)] [7]
cpp: [it's "quoted"] [(a,b)] [7]
data: row 1
OUT

check_run() { # builddir what
	(cd "$1" && ./app) >"$1.out" 2>&1 || { cat "$1.out"; die "$2: app failed"; }
	diff expected "$1.out" || die "$2: the defines did not reach the compilers as written"
}

note "ninja"
run "$CUGEN" setup -B bn
build bn >/dev/null
check_run bn ninja
bn/blasuser || die "the cuBLAS program did not run"
[ -f bn/data/sub/more.txt ] || die "the glob's data file was not copied"
grep -q -- '-lm' bn/build.ninja || die "private_libs not linked"

note "make"
run "$CUGEN" setup -B bm --backend make
make -C bm >bm.log 2>&1 || { tail -20 bm.log; die "make failed"; }
check_run bm make

note "a changed data file is copied again, and nothing relinks"
sleep 1
echo 'row 2' >data/table.txt
ran=$(build bn)
echo "$ran" | grep -q '^DATA data/table.txt$' || { echo "$ran"; die "the changed data file was not copied"; }
echo "$ran" | grep -q 'LINK' && die "a changed data file relinked"
grep -q 'row 2' bn/data/table.txt || die "stale data copy"
sed -i 's/row 1/row 2/' expected
ran=$(build bn)
[ -z "$ran" ] || die "a no-op build ran: $ran"
note "ninja app copies its data too"
rm bn/data/table.txt
build bn app >/dev/null
[ -f bn/data/table.txt ] || die "ninja app did not copy the data"

note "shared: its private libs stay inside it"
sed -i 's/^type = static$/type = shared/' cugen.ini
run "$CUGEN" setup -B bs
link_line=$(grep -A2 '^build app: link' bs/build.ninja)
echo "$link_line" | grep -q -- '-lm' && die "a shared library's private_libs reached its dependent's link"
build bs >/dev/null
check_run bs "shared"
sed -i 's/^type = shared$/type = static/' cugen.ini

note "automake"
if command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1; then
	mkdir -p am/m4
	cp -R lib app blas data cugen.ini expected am/
	cp "$SRC/templates/cugen.m4" am/m4/
	cd am || exit 1
	# the program comes from cugen.ini; automake links it into a
	# program of its own as well, from the same library
	cat >configure.ac <<'AC'
AC_INIT([usage], [1.0])
AC_CONFIG_MACRO_DIRS([m4])
AM_INIT_AUTOMAKE([foreign subdir-objects])
AC_PROG_CXX
CUGEN_INIT
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
	cat >Makefile.am <<'AM'
ACLOCAL_AMFLAGS = -I m4
EXTRA_DIST =
include $(srcdir)/cugen.mk
AM
	run "$CUGEN" setup --backend automake
	run autoreconf -fi
	run ./configure CUGEN="$CUGEN" --with-cuda="$CUDA_PATH"
	make >make.log 2>&1 || { tail -30 make.log; die "make (automake) failed"; }
	check_run cugen-build automake
	cd .. || exit 1
else
	echo "(no autotools: the automake backend is not run)"
fi
echo ok
