# lib.sh -- helpers for the integration tests (sourced, POSIX sh).
# Each test script is run by tests/run with CUGEN, CUDA_PATH, NINJA and
# TESTS_TMP set; it exits 0 (pass), 77 (skip) or anything else (fail).

set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
: "${CUDA_PATH:=/usr/local/cuda}"
[ -n "${NINJA:-}" ] || NINJA=$(command -v ninja || echo ninja)
case $NINJA in /*) ;; */*) NINJA=$(cd "$(dirname "$NINJA")" && pwd)/$(basename "$NINJA") ;; *) NINJA=$(command -v "$NINJA" || echo "$NINJA") ;; esac
NVCC="$CUDA_PATH/bin/nvcc"
WORK=$(mktemp -d "${TESTS_TMP:-/tmp}/$(basename "$0" .sh).XXXXXX")

die() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
note() { echo "== $*"; }

need_cuda() {
	[ -x "$NVCC" ] || skip "no nvcc at $NVCC"
	command -v "$NINJA" >/dev/null 2>&1 || skip "no ninja"
}

# the planner simulates the ninja on PATH (file order before 1.12, by
# depth from 1.12). ninja_saying prints a directory whose ninja says
# VERSION and runs $NINJA; pin_ninja puts it first on PATH, so that a
# test of the planner's choices plans the same with any ninja installed
ninja_saying() { # version
	mkdir -p "$WORK/ninja-$1"
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo %s; exit 0; }\nexec "%s" "$@"\n' "$1" "$NINJA" >"$WORK/ninja-$1/ninja"
	chmod +x "$WORK/ninja-$1/ninja"
	echo "$WORK/ninja-$1"
}
pin_ninja() { # version
	PATH="$(ninja_saying "$1"):$PATH"
	export PATH
}

# poll until a command succeeds, every 0.1 s; after TENTHS tries, show
# LOG and fail with WHAT
wait_for() { # tenths log what command...
	_n=0 _max=$1 _log=$2 _what=$3
	shift 3
	until "$@"; do
		_n=$((_n + 1))
		[ $_n -gt "$_max" ] && { [ -f "$_log" ] && cat "$_log"; die "$_what"; }
		sleep 0.1
	done
}

# the processes of a session (a build started under setsid)
session_pids() { ps -o pid= -s "$1" 2>/dev/null; }
session_ended() { [ -z "$(session_pids "$1")" ]; }

# run a command, failing the test with its output when it fails
run() {
	"$@" >"$WORK/run.log" 2>&1 || { cat "$WORK/run.log"; die "command failed: $*"; }
}

# the images of FILE as "kind arch size sha" lines, without the file name
# (IMAGES_OPT=--normalized: normalised hashes, see cugen(1))
images() {
	if [ -n "${IMAGES_OPT:-}" ]; then
		# (sizes and the per-arch totals count the command lines too)
		"$CUGEN" inspect $IMAGES_OPT "$1" | grep -v ': total ' | sed 's/^[^:]*: //' |
			sed 's/^\.nv_fatbin #[0-9]* //; s/^__nv_relfatbin #[0-9]* //; s/ size=[0-9]*//; s/ \[compressed [^]]*\]//'
		return
	fi
	"$CUGEN" inspect "$1" | sed 's/^[^:]*: //' | sed 's/^\.nv_fatbin #[0-9]* //; s/^__nv_relfatbin #[0-9]* //'
}

# assert that two files list the same images with the same bytes
same_images() { # a b what
	images "$1" >"$WORK/img.a" || die "cugen inspect $1 failed"
	images "$2" >"$WORK/img.b" || die "cugen inspect $2 failed"
	[ -s "$WORK/img.a" ] || die "$3: no images in $1"
	if ! cmp -s "$WORK/img.a" "$WORK/img.b"; then
		diff "$WORK/img.a" "$WORK/img.b"
		die "$3: images differ between $1 and $2"
	fi
}

# the command line of a rule of BUILDDIR/build.ninja
rule_of() { # builddir rule
	awk -v r="rule $2" '$0 == r { getline; print; exit }' "$1/build.ninja"
}

# build, and print the descriptions of the edges that ran, sorted
# ("CUDA sm_80 obj/t/k.cu.p/sm_80.cubin", "LINK app", ...)
build() { # builddir [targets...]
	d=$1
	shift
	NINJA_STATUS='@@ ' "$NINJA" -C "$d" "$@" >"$WORK/ninja.log" 2>&1 ||
		{ cat "$WORK/ninja.log"; die "ninja -C $d $* failed"; }
	sed -n 's/^@@ //p' "$WORK/ninja.log" | sort
}

# a fresh copy of an example in the work directory
copy_example() { # name dest
	mkdir -p "$2"
	cp -R "$SRC/examples/$1/." "$2/"
}

# The planner's tests: the multi example in $WORK/p, made the current
# directory; they read cugen plan --json with python3, and unset the CI
# variables (by which cugen would choose a [profile ci]).
multi_project() {
	command -v python3 >/dev/null 2>&1 || skip "no python3"
	unset CI GITHUB_ACTIONS GITLAB_CI TF_BUILD
	copy_example multi "$WORK/p"
	cd "$WORK/p" || exit 1
}

# append [profile NAME] to ./cugen.ini: jobs = JOBS, memory = 64G and
# each KEY=VALUE as KEY = VALUE
add_profile() { # name jobs [key=value...]
	_name=$1 _jobs=$2
	shift 2
	printf '\n[profile %s]\njobs = %s\nmemory = 64G\n' "$_name" "$_jobs" >>cugen.ini
	for _kv in "$@"; do
		printf '%s = %s\n' "${_kv%%=*}" "${_kv#*=}" >>cugen.ini
	done
}

# A small project: two CUDA TUs and a C++ TU in a static library and an
# executable. a.cu includes common.h (host and device views) and, only in
# the device view, dev.cuh; b.cu includes only common.h; main.cpp host.h.
small_project() { # dir archs
	mkdir -p "$1/src" "$1/inc"
	cat >"$1/cugen.ini" <<INI
[project]
name = small
[cuda]
archs = $2
std = c++17
[target k]
type = static
sources = src/a.cu src/b.cu
include = inc
[target app]
type = executable
sources = src/main.cpp
deps = k
INI
	cat >"$1/inc/common.h" <<'H'
#pragma once
#define COMMON_VALUE 1
int run_a(int);
int run_b(int);
H
	cat >"$1/inc/dev.cuh" <<'H'
#pragma once
#define DEV_VALUE 10
H
	cat >"$1/inc/host.h" <<'H'
#pragma once
#define HOST_VALUE 100
H
	cat >"$1/src/a.cu" <<'CU'
#include "common.h"
#ifdef __CUDA_ARCH__
#include "dev.cuh"
#else
#define DEV_VALUE 0
#endif
__global__ void ka(int *p) { *p = COMMON_VALUE + DEV_VALUE; }
int run_a(int x) { int *d; cudaMalloc(&d, 4); ka<<<1, 1>>>(d); cudaFree(d); return x; }
CU
	cat >"$1/src/b.cu" <<'CU'
#include "common.h"
__global__ void kb(int *p) { *p = COMMON_VALUE * 2; }
int run_b(int x) { int *d; cudaMalloc(&d, 4); kb<<<1, 1>>>(d); cudaFree(d); return x; }
CU
	cat >"$1/src/main.cpp" <<'CPP'
#include "common.h"
#include "host.h"
#include <cstdio>
int main(int argc, char **) { if (argc > 1) std::printf("%d\n", run_a(1) + run_b(2)); return HOST_VALUE - 100; }
CPP
}

# PY: a python3 that builds examples/pyext (setuptools and Python.h;
# Debian's where there is one), with the modules named too; else skip
need_pyext() { # [module...]
	PY=python3
	[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
	_mods=$(printf '%s, ' setuptools sysconfig os sys "$@")
	"$PY" -c "import ${_mods%, }; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" 2>/dev/null ||
		skip "no python3 with setuptools${*:+, $*} and Python.h"
}
