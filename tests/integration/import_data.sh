# cugen import: CMake's data never becomes cugen.ini syntax. A define
# holding a line break followed by "[toolchain] launcher = ...", and a
# globbed source whose file name holds one, would have been lines of
# their own (a launcher run by every host compile); they are left out
# with one warning each. Values cugen.ini can say are quoted for their
# key's reader and read back as they were: a source and an include
# directory with a blank, a string define with a blank. What it
# cannot say is a warning, never "a bug of cugen import": VERSION
# 1.2.3-rc1 (1.2.3), OUTPUT_NAME "k cuda" (the target's name), a target
# named check (check_). The import builds, and the defines reach the code.
# Installed headers go to an installed library whose include directory
# holds them, not to the first library in build order (not installed:
# ninja install then installed none of them). include(CTest)'s
# dashboard targets are CMake's module's, not the project's: no warning
# (there were 28); the project's own custom target still gets one. A
# project without install(TARGETS) gets one warning saying install = no.
# A CUDA program that links CUDA::cudart (the shared runtime) gets
# cudart = shared, as CMake's links libcudart.so (it became static).
# An imported target a subdirectory's find_package makes (OpenMP, as in
# ggml) gives its libraries (libgomp was dropped: the link failed); a
# project whose packages cannot be global still imports.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v cmake >/dev/null 2>&1 || skip "no cmake"
export CUDACXX="$NVCC"
P=$WORK/p
mkdir -p "$P/inc dir" "$P/src/extra"
cd "$P" || exit 1
cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.18)
project(hostile VERSION 1.2.3 LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
file(GLOB extra src/extra/*.cpp)
add_library(k SHARED "src/my k.cu" ${extra})
set_target_properties(k PROPERTIES VERSION 1.2.3-rc1 SOVERSION 1 OUTPUT_NAME "k cuda")
target_include_directories(k PUBLIC "inc dir")
target_compile_definitions(k PRIVATE "EVIL=1\n[toolchain]\nlauncher = touch ${CMAKE_BINARY_DIR}/../pwned" "NOTE=\"x y\"" PLAIN=2)
add_executable(check src/main.cpp)
target_link_libraries(check k)
CMAKE
cat >"inc dir/k.h" <<'H'
int k_value();
H
cat >"src/my k.cu" <<'CU'
#include "k.h"
#include <cstring>
__global__ void kk(int *p) { *p = PLAIN; }
int k_value() { return PLAIN + (int)std::strlen(NOTE); }
CU
cat >src/main.cpp <<'CPP'
#include "k.h"
#include <cstdio>
int main() { std::printf("%d\n", k_value()); return 0; }
CPP
# a file name with a line break, as a glob finds it
printf 'int unused_glob;\n' >"$P/src/extra/x
[toolchain]
launcher = touch pwned2
.cpp"
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q 'a bug of cugen import' out.txt && { cat out.txt; die "import called valid CMake data a bug"; }
grep -q '^\[toolchain\]' cugen.ini && { cat cugen.ini; die "CMake's data became a [toolchain] section"; }
grep -q 'launcher' cugen.ini && { cat cugen.ini; die "CMake's data became a launcher"; }
grep -q "warning: defines: 'EVIL=1\\\\n\[toolchain\]" out.txt || { cat out.txt; die "no warning for the define with a line break"; }
grep -q "warning: sources: 'src/extra/x\\\\n\[toolchain\]" out.txt || { cat out.txt; die "no warning for the file name with a line break"; }
grep -q "VERSION '1.2.3-rc1' is not a version cugen.ini can give a library (e.g. 1.2.3): 1.2.3" out.txt ||
	{ cat out.txt; die "no warning for VERSION 1.2.3-rc1"; }
grep -q "OUTPUT_NAME 'k cuda' is no name cugen.ini can give a file" out.txt || { cat out.txt; die "no warning for OUTPUT_NAME"; }
grep -q "target 'check' is 'check_' in cugen.ini" out.txt || { cat out.txt; die "no warning for the target named check"; }
grep -q '^sources = "src/my k.cu"' cugen.ini || { cat cugen.ini; die "the source with a blank is not quoted"; }
grep -q '^include = "inc dir"$' cugen.ini || { cat cugen.ini; die "the include directory with a blank is not quoted"; }
run "$CUGEN" setup -B b
build b >/dev/null
[ -e "$WORK/pwned" ] || [ -e b/pwned2 ] && die "a launcher from CMake's data ran"
[ -f b/libk.so.1.2.3 ] || { ls b; die "no libk.so.1.2.3"; }
[ "$(b/check_)" = 5 ] || die "the defines did not reach the code as CMake gave them: $(b/check_)"

note "installed headers belong to the installed library"
mkdir -p "$WORK/h/include"
cd "$WORK/h" || exit 1
cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.18)
project(hdr LANGUAGES CXX)
add_library(internal STATIC internal.cpp)
target_include_directories(internal PUBLIC include)
add_library(pub SHARED pub.cpp)
target_include_directories(pub PUBLIC include)
target_link_libraries(pub PRIVATE internal)
install(TARGETS pub)
install(FILES include/pub.h DESTINATION include)
CMAKE
echo 'int pub();' >include/pub.h
echo 'int internal() { return 1; }' >internal.cpp
echo 'int internal(); int pub() { return internal(); }' >pub.cpp
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
sed -n '/^\[target pub\]/,/^$/p' cugen.ini | grep -q '^headers = include/pub.h$' || { cat cugen.ini; die "pub.h is not the installed library's header"; }
sed -n '/^\[target internal\]/,/^$/p' cugen.ini | grep -q '^headers' && { cat cugen.ini; die "the header went to the library that is not installed"; }
run "$CUGEN" setup -B b --prefix "$WORK/h/pre"
build b install >/dev/null
[ -f "$WORK/h/pre/include/pub.h" ] || die "ninja install did not install pub.h"

note "include(CTest): no warning for CMake's own targets"
mkdir -p "$WORK/ct"
cd "$WORK/ct" || exit 1
printf 'cmake_minimum_required(VERSION 3.18)\nproject(ct LANGUAGES CXX)\ninclude(CTest)\nadd_executable(app main.cpp)\nadd_test(NAME t COMMAND app)\ninstall(TARGETS app)\nadd_custom_target(mine COMMAND true)\n' >CMakeLists.txt
echo 'int main() { return 0; }' >main.cpp
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q '; 1 warning$' out.txt && grep -q "warning: target 'mine' (UTILITY: a custom target) is not imported" out.txt ||
	{ cat out.txt; die "include(CTest): not the one warning for the project's own custom target"; }

note "no install rule: one warning"
sed -i '/^install(TARGETS app)$/d' CMakeLists.txt
"$CUGEN" import --force . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q "warning: no install(TARGETS) rule: every target is imported with install = no" out.txt ||
	{ cat out.txt; die "no word for a project without install rules"; }

note "a CUDA target linking CUDA::cudart: the shared runtime"
mkdir -p "$WORK/rt"
cd "$WORK/rt" || exit 1
printf 'cmake_minimum_required(VERSION 3.18)\nproject(rt LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(app k.cu)\ntarget_link_libraries(app PRIVATE CUDA::cudart)\ninstall(TARGETS app)\n' >CMakeLists.txt
printf '__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n' >k.cu
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -qx 'cudart = shared' cugen.ini || { cat cugen.ini; die "CUDA::cudart did not give cudart = shared"; }
run "$CUGEN" setup -B b
build b >/dev/null
readelf -d b/app | grep -q 'NEEDED.*libcudart\.so' || die "the program does not need libcudart.so"

note "find_package in a subdirectory: its imported targets' libraries"
mkdir -p "$WORK/omp/sub"
cd "$WORK/omp" || exit 1
printf 'cmake_minimum_required(VERSION 3.18)\nproject(omp LANGUAGES CXX)\nadd_subdirectory(sub)\n' >CMakeLists.txt
printf 'find_package(OpenMP REQUIRED)\nadd_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE OpenMP::OpenMP_CXX)\ninstall(TARGETS app)\n' >sub/CMakeLists.txt
printf '#include <omp.h>\nint main() { int n = 0;\n#pragma omp parallel\n{ n = omp_get_num_threads(); }\nreturn n > 0 ? 0 : 1; }\n' >sub/main.cpp
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q '^private_libs = gomp' cugen.ini || { cat out.txt cugen.ini; die "OpenMP's libgomp was dropped"; }
run "$CUGEN" setup -B b
build b >/dev/null
b/app || die "the OpenMP program does not run"
# a Find module without a guard, in two directories: not global
mkdir -p "$WORK/tw/cmake" "$WORK/tw/a" "$WORK/tw/b"
cd "$WORK/tw" || exit 1
printf 'add_library(Foo::Foo INTERFACE IMPORTED)\nset(Foo_FOUND TRUE)\n' >cmake/FindFoo.cmake
printf 'cmake_minimum_required(VERSION 3.18)\nproject(tw LANGUAGES CXX)\nlist(APPEND CMAKE_MODULE_PATH ${CMAKE_SOURCE_DIR}/cmake)\nadd_subdirectory(a)\nadd_subdirectory(b)\n' >CMakeLists.txt
for d in a b; do
	printf 'find_package(Foo REQUIRED)\nadd_executable(app%s m.cpp)\ntarget_link_libraries(app%s Foo::Foo)\ninstall(TARGETS app%s)\n' $d $d $d >$d/CMakeLists.txt
	echo 'int main() { return 0; }' >$d/m.cpp
done
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "a project whose packages cannot be global did not import"; }
echo ok
