# cugen import on project shapes real CMake projects have, each imported
# with no hand edit and built as CMake builds it: an object library whose
# objects a shared library takes ($<TARGET_OBJECTS:X>) and a program
# links (target_link_libraries), one source in two programs with their
# own defines, CMAKE_BUILD_TYPE and CMAKE_<LANG>_FLAGS set in
# CMakeLists.txt rather than the cache (each flag once: the build type's
# in buildtype, the rest in [cuda] flags / [toolchain], none copied into
# the targets), and a shared library without VERSION (said, as the
# project's missing version is), and the project's own cache variable
# holding an arch list (one warning naming it). Then a hand-written
# "from arch N up" tag (arch_sources/arch_defines 80+:).
. "$(dirname "$0")/lib.sh"
need_cuda
command -v cmake >/dev/null 2>&1 || skip "no cmake"
export CUDACXX="$NVCC"

exported() { nm -D --defined-only "$1" | awk '{ print $2, $3 }' | sort; }

P=$WORK/shapes
mkdir -p "$P"
cd "$P" || exit 1
cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.24)
project(shapes LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -O3 -DNDEBUG -Wall")
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O3 --use_fast_math")
add_library(kobj OBJECT k.cu)
set_target_properties(kobj PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(kern SHARED $<TARGET_OBJECTS:kobj> api.cpp)
set(KERN_ARCHS "80;90" CACHE STRING "the archs kern has kernels for")
if("90" IN_LIST KERN_ARCHS)
  target_compile_definitions(kern PRIVATE KERN_90=1)
endif()
add_library(hobj OBJECT h.cpp)
add_executable(app_a main.cpp common.cu)
add_executable(app_b main.cpp common.cu)
target_compile_definitions(app_a PRIVATE WHICH="a")
target_compile_definitions(app_b PRIVATE WHICH="b")
target_link_libraries(app_a PRIVATE kern hobj)
target_link_libraries(app_b PRIVATE kern hobj)
install(TARGETS kern app_a app_b)
EOF
cat >k.cu <<'EOF'
__global__ void k(int *p) { *p = 1; }
extern "C" int kern_launch(int *p) { k<<<1, 1>>>(p); return 7; }
EOF
cat >api.cpp <<'EOF'
extern "C" int kern_api(void) { return 42; }
EOF
cat >h.cpp <<'EOF'
extern "C" int helper(void) { return 5; }
EOF
cat >common.cu <<'EOF'
#include <cstdio>
__global__ void c(void) {}
extern "C" const char *which(void) { return WHICH; }
EOF
cat >main.cpp <<'EOF'
#include <cstdio>
extern "C" const char *which(void);
extern "C" int kern_api(void);
extern "C" int helper(void);
int main() { std::printf("%s %d %d\n", which(), kern_api(), helper()); return 0; }
EOF

note "imported with two warnings (no VERSION, an arch list of its own), every shape as a key"
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q "^./CMakeLists.txt: warning: project() gives no VERSION: the installed .pc and CMake package have none" out.txt ||
	{ cat out.txt; die "no warning for a library installed without a version"; }
grep -q "^./CMakeLists.txt: warning: cache variable KERN_ARCHS = '80;90' reads as an arch list: .* or import with -DKERN_ARCHS=...$" out.txt ||
	{ cat out.txt; die "no warning for the project's own arch variable"; }
grep -q '; 2 warnings$' out.txt || { cat out.txt; die "other warnings"; }
sect() { sed -n "/^\[target $1\]/,/^\$/p" cugen.ini; }
sect kern | grep -q '^deps = kobj$' || { cat cugen.ini; die "\$<TARGET_OBJECTS:kobj> is not deps = kobj"; }
sect kern | grep -q '^; no VERSION in CMake' || { cat cugen.ini; die "an unversioned library is not said"; }
sect app_a | grep -q '^deps = kern hobj$' || { cat cugen.ini; die "a linked object library is not a dep"; }
for t in app_a app_b; do
	sect $t | grep -q '^sources = main.cpp common.cu$' || { cat cugen.ini; die "$t lost its shared sources"; }
done
grep -q '^buildtype = release$' cugen.ini || { cat cugen.ini; die "CMakeLists.txt's CMAKE_BUILD_TYPE"; }
grep -q '^cxxflags = -Wall$' cugen.ini || { cat cugen.ini; die "CMAKE_CXX_FLAGS not once, less the build type's"; }
grep -q '^flags = --use_fast_math$' cugen.ini || { cat cugen.ini; die "CMAKE_CUDA_FLAGS not once, less the build type's"; }
grep -q -- '-O3\|NDEBUG' cugen.ini && { cat cugen.ini; die "the build type's flags copied"; }

note "built as CMake builds it"
run cmake -S . -B cm -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA"
run "$NINJA" -C cm
run "$CUGEN" setup -B ci
build ci >/dev/null
exported cm/libkern.so >cm.exp && exported ci/libkern.so >ci.exp || die "nm"
grep -q ' kern_launch$' ci.exp || die "the object library's code is not in libkern.so"
cmp -s cm.exp ci.exp || { diff cm.exp ci.exp; die "exported symbols differ from CMake's"; }
for t in app_a app_b; do
	[ "$(cm/$t)" = "$(ci/$t)" ] || die "$t's output differs from CMake's"
done
[ "$(ci/app_a)" = "a 42 5" ] && [ "$(ci/app_b)" = "b 42 5" ] || die "the shared source's defines"
note "--buildtype debug lacks the release flags"
run "$CUGEN" setup -B dbg --buildtype debug
grep -q -- '-O3' dbg/build.ninja && die "a debug build compiles with -O3"
grep -q -- '-Wall' dbg/build.ninja || die "the project's own -Wall is lost"

note "arch tags from arch N up"
mkdir -p "$WORK/from" && cd "$WORK/from" || exit 1
echo '__global__ void h(void) {}' >h.cu
echo '__global__ void x(void) {}' >x.cu
echo 'int main() { return 0; }' >m.cpp
cat >cugen.ini <<'EOF'
[project]
name = from
[cuda]
archs = 75 80 90
[target t]
type = executable
sources = m.cpp
arch_sources = 80+: h.cu 100+: x.cu
arch_defines = 90+: HAS_90
EOF
run "$CUGEN" setup -B b
grep -q 'h\.cu' b/build.ninja || die "80+: h.cu is not built with 80 and 90"
grep -q 'x\.cu' b/build.ninja && die "100+: x.cu is built without an arch from 100 up"
grep -q 'HAS_90' b/build.ninja || die "90+: HAS_90 is not defined with 90"
run "$CUGEN" setup -B b75 -D 'cuda.archs=75'
grep -q 'h\.cu' b75/build.ninja && die "80+: h.cu is built for 75 alone"
grep -q 'HAS_90' b75/build.ninja && die "90+: HAS_90 is defined for 75 alone"
echo ok
