# One lowering of a CUDA TU in every mode: a project that uses every
# target key that reaches a compile (sources, cuda_sources, arch_sources,
# arch_defines, defines, public_defines, include, private_include,
# cuda_flags, cxxflags, deps, headers, data, output_name, a shared
# library's version) is built with the per-arch graph (split = arch) and
# with one nvcc per TU (split = tu, as CMake compiles): every CUDA
# object has the same images in both, the programs the same exported
# symbols, and the C++ TU the same object. (cuda_sources under split = tu
# once compiled as plain C++.) -lineinfo is left out: the per-arch graph
# names sources project-relative in line info, one nvcc per TU as nvcc
# does, so those images differ by design. One file may be listed under
# several arch tags (80: f 90: f, "for every arch from 80"): built where
# the set holds any of them (it was "listed twice").
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P/inc" "$P/priv" "$P/src" "$P/data"
cd "$P" || exit 1
cat >cugen.ini <<'INI'
[project]
name = keys
version = 1.2.0
[cuda]
archs = 75 80
ptx = highest
std = c++17
[target core]
type = shared
sources = src/core.cu src/host.cpp
cuda_sources = src/asc.cpp
arch_sources = 80: src/sm80.cu
arch_defines = 80: HAVE_SM80=1
defines = CORE_BUILD=1
public_defines = CORE_API=2
include = inc
private_include = priv
cuda_flags = --use_fast_math
cxxflags = -O1
headers = inc/core.h
output_name = kcore
version = 1.2.0
[target app]
type = executable
sources = src/main.cpp
deps = core
data = data/table.txt
[profile tu]
split = tu
INI
cat >inc/core.h <<'H'
#pragma once
int core_value();
int asc_value();
int sm80_value();
H
echo '#define PRIV_VALUE 3' >priv/priv.h
cat >src/core.cu <<'CU'
#include "core.h"
#include "priv.h"
__global__ void kcore(int *p) { *p = CORE_BUILD + CORE_API + PRIV_VALUE + HAVE_SM80; }
int core_value() { int *d; cudaMalloc(&d, 4); kcore<<<1, 1>>>(d); cudaFree(d); return CORE_API + PRIV_VALUE; }
CU
cat >src/asc.cpp <<'CPP'
#include "core.h"
#ifndef __CUDACC__
#error asc.cpp is a cuda_sources file: it must be compiled as CUDA
#endif
__global__ void kasc(int *p) { *p = 11; }
int asc_value() { int *d; cudaMalloc(&d, 4); kasc<<<1, 1>>>(d); cudaFree(d); return 11; }
CPP
cat >src/sm80.cu <<'CU'
#include "core.h"
__global__ void k80(int *p) { *p = 80; }
int sm80_value() { int *d; cudaMalloc(&d, 4); k80<<<1, 1>>>(d); cudaFree(d); return 80; }
CU
echo 'int host_helper() { return CORE_API; }' >src/host.cpp
cat >src/main.cpp <<'CPP'
#include "core.h"
#include <cstdio>
int main() { std::printf("%d\n", CORE_API); return 0; }
CPP
echo table >data/table.txt
run "$CUGEN" setup -B arch
build arch >/dev/null
run "$CUGEN" setup -B tu --profile tu
grep -q ': cuda_nvcc ' tu/build.ninja || die "the profile did not choose split = tu"
build tu >/dev/null
for f in core.cu asc.cpp sm80.cu; do
	a=$(find arch/obj/core -name "$f.o" | head -1) t=$(find tu/obj/core -name "$f.o" | head -1)
	[ -n "$a" ] && [ -n "$t" ] || die "$f: no object in one of the modes"
	same_images "$a" "$t" "$f (split arch vs tu)"
done
cmp -s "$(find arch/obj/core -name host.cpp.o)" "$(find tu/obj/core -name host.cpp.o)" || die "the C++ TU differs between the modes"
for d in arch tu; do
	[ -f $d/libkcore.so.1.2.0 ] && [ -f $d/app ] && [ -f $d/data/table.txt ] || die "$d: not every output"
	nm -D --defined-only $d/libkcore.so.1.2.0 | awk '{ print $3 }' | sort >$d.syms
done
cmp -s arch.syms tu.syms || { diff arch.syms tu.syms; die "the library's exported symbols differ between the modes"; }
grep -q sm80_value arch.syms || die "arch_sources' file was not built"

note "one file under several arch tags"
sed -i 's|^arch_sources = 80: src/sm80.cu$|arch_sources = 80: src/sm80.cu 90: src/sm80.cu|' cugen.ini
grep -q '^arch_sources = 80: src/sm80.cu 90: src/sm80.cu$' cugen.ini || die "the test did not edit cugen.ini"
run "$CUGEN" setup -B any -D cuda.archs="75 90"
grep -q 'sm80\.cu\.p/sm_90\.cubin' any/build.ninja || die "a file of arch tags 80 and 90 is not built for the set 75 90"
run "$CUGEN" setup -B none -D cuda.archs=75
grep -q 'sm80\.cu' none/build.ninja && die "a file of arch tags 80 and 90 is built for the set 75"
echo ok
