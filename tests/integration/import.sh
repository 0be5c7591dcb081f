# cugen import: a CMake project's cugen.ini builds what CMake's build
# builds. The saxpy and rdc examples (our CMakeLists.txt beside the
# hand-written cugen.ini) are imported, and each import's build is
# compared with CMake's own build and with the hand-written file's:
# device images (CMake's with module_id = absolute, as CMake names
# modules by absolute paths; a device link with plain nvcc -dlink's of
# CMake's objects), exported symbols, SONAME and version links, the
# program's output; multi's, cdp's and tmpl's imports write the
# hand-written file's graph (every edge, every device command). Another
# project has what CMake says and cugen.ini cannot (a custom command's
# output, a configure-time header directory, an interface library): one
# warning line each, at its CMakeLists line;
# and string defines, OUTPUT_NAME, VERSION/SOVERSION, a source and a
# define CMake gives only with arch 90 (a -D cuda.archs=80 build lacks
# them as CMake's does), a C++ TU including the toolkit's headers
# (cuda_headers), and a public cuBLAS dependency, whose installed package
# a pkg-config consumer and a find_package consumer link and run.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v cmake >/dev/null 2>&1 || skip "no cmake"
export CUDACXX="$NVCC"

# the images of a file as sorted lines (the order of the sections aside)
sorted_images() { images "$1" | sort; }
same_sorted() { # a b what
	sorted_images "$1" >"$WORK/s.a" && sorted_images "$2" >"$WORK/s.b" || die "cugen inspect failed"
	[ -s "$WORK/s.a" ] || die "$3: no images in $1"
	cmp -s "$WORK/s.a" "$WORK/s.b" || { diff "$WORK/s.a" "$WORK/s.b"; die "$3: images differ: $1 $2"; }
}
# the dynamic symbols a library defines
exported() { nm -D --defined-only "$1" | awk '{ print $2, $3 }' | sort; }
same_exports() { # a b
	exported "$1" >"$WORK/e.a" && exported "$2" >"$WORK/e.b" || die "nm failed"
	cmp -s "$WORK/e.a" "$WORK/e.b" || { diff "$WORK/e.a" "$WORK/e.b"; die "exported symbols differ: $1 $2"; }
}
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
# a program's output and exit status (SKIP and 77 without a GPU)
output() { "$@" 2>&1; echo "exit $?"; }
cmake_build() { # srcdir builddir [args]
	_s=$1 _b=$2
	shift 2
	run cmake -S "$_s" -B "$_b" -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA" "$@"
	run "$NINJA" -C "$_b"
}

note "saxpy: imported, refused over an existing file, built as CMake builds it"
copy_example saxpy "$WORK/saxpy"
cd "$WORK/saxpy" || exit 1
rm -f cugen.ini.hand && cp cugen.ini cugen.ini.hand
"$CUGEN" import . >out.txt 2>&1 && die "import wrote over cugen.ini without --force"
grep -q 'cugen.ini exists (--force replaces it)' out.txt || { cat out.txt; die "no refusal message"; }
cmp -s cugen.ini cugen.ini.hand || die "a refused import changed cugen.ini"
"$CUGEN" import -o imported.ini . >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q '^cugen: imported 1 target (2 TUs) from ./CMakeLists.txt into imported.ini; 0 warnings$' out.txt ||
	{ cat out.txt; die "import's summary line"; }
grep -q '^; CMakeLists.txt:[0-9]*: add_executable(saxpy)$' imported.ini || die "no comment naming the CMakeLists line"
grep -q '^archs = 80 90$' imported.ini && grep -q '^ptx = highest$' imported.ini ||
	{ cat imported.ini; die "80-real;90 is not archs = 80 90, ptx = highest"; }
ls -A | grep -q '^\.imported' && die "a temporary was left in the project directory"
cmake_build . cm
run "$CUGEN" setup -f imported.ini -B ci
build ci >/dev/null
run "$CUGEN" setup -B hand
build hand >/dev/null
same_sorted cm/saxpy ci/saxpy "saxpy, CMake and imported"
same_sorted hand/saxpy ci/saxpy "saxpy, hand-written and imported"
[ "$(output cm/saxpy)" = "$(output ci/saxpy)" ] || die "saxpy's output differs from CMake's build"

note "rdc: a static device library and a versioned shared one, archs 80-real;90"
copy_example rdc "$WORK/rdc"
cd "$WORK/rdc" || exit 1
"$CUGEN" import -o imported.ini . -- '-DCMAKE_CUDA_ARCHITECTURES=80-real;90' >out.txt 2>&1 ||
	{ cat out.txt; die "import failed"; }
grep -q '0 warnings$' out.txt || { cat out.txt; die "rdc's import warned"; }
grep -q '^mode = rdc$' imported.ini || die "separable compilation is not mode = rdc"
grep -q '^version = 1.0.0$' imported.ini && grep -q '^soversion = 1$' imported.ini || die "VERSION and SOVERSION"
cmake_build . cm '-DCMAKE_CUDA_ARCHITECTURES=80-real;90'
run "$CUGEN" setup -f imported.ini -B ci
build ci >/dev/null
run "$CUGEN" setup -B hand -D 'cuda.archs=80 90'
build hand >/dev/null
# CMake hands nvcc absolute paths, which name the module of a TU's
# internal device symbols: module_id = absolute is CMake's
run "$CUGEN" setup -f imported.ini -B ca -D cuda.module_id=absolute
build ca >/dev/null
same_sorted cm/librdcstatic.a ca/librdcstatic.a "the static library, CMake and imported"
# the device link is plain nvcc -dlink's of CMake's own objects (CMake's
# own dlink line adds -shared and the runtime's libraries, which nvlink
# records in the image), in cugen's archive's order (nvlink's image
# follows the order of its inputs; CMake's order is its own)
mkdir -p cmobj && (cd cmobj && ar x ../cm/librdcstatic.a) || die "ar x"
set -- $(ar t ca/librdcstatic.a | sed 's|^|cmobj/|')
"$NVCC" --generate-code=arch=compute_80,code=sm_80 '--generate-code=arch=compute_90,code=[compute_90,sm_90]' \
	-dlink cm/CMakeFiles/rdc_app.dir/app/main.cpp.o "$@" -o ref-dlink.o || die "plain nvcc -dlink"
same_sorted ref-dlink.o ca/obj/rdc_app/rdc_app.dlink.p.o "rdc_app's device link, plain nvcc and imported"
for f in librdcstatic.a librdcshared.so.1.0.0 rdc_app; do
	same_sorted hand/$f ci/$f "$f, hand-written and imported"
done
[ "$(soname ci/librdcshared.so.1.0.0)" = librdcshared.so.1 ] || die "SONAME"
[ "$(soname cm/librdcshared.so.1.0.0)" = "$(soname ci/librdcshared.so.1.0.0)" ] || die "SONAME differs from CMake's"
[ "$(readlink ci/librdcshared.so)" = "$(readlink cm/librdcshared.so)" ] &&
	[ "$(readlink ci/librdcshared.so.1)" = "$(readlink cm/librdcshared.so.1)" ] || die "version links differ"
same_exports cm/librdcshared.so.1.0.0 ca/librdcshared.so.1.0.0
[ "$(output cm/rdc_app)" = "$(output ci/rdc_app)" ] || die "rdc_app's output differs from CMake's build"
# installed: what the hand-written file installs, and CMake's files
# (cugen adds its .pc and CMake package)
for b in ci hand; do
	DESTDIR="$WORK/inst-$b" run "$NINJA" -C $b install
	(cd "$WORK/inst-$b" && find . | sort) >"$WORK/tree-$b"
done
cmp -s "$WORK/tree-ci" "$WORK/tree-hand" || { diff "$WORK/tree-ci" "$WORK/tree-hand"; die "install trees differ"; }
run cmake --install cm --prefix "$WORK/inst-cm"
(cd "$WORK/inst-cm" && find . -type f | sort) >"$WORK/tree-cm"
(cd "$WORK/inst-ci/usr/local" && find . -type f | grep -v '/pkgconfig/\|/cmake/' | sort) >"$WORK/tree-ci-files"
cmp -s "$WORK/tree-cm" "$WORK/tree-ci-files" || { diff "$WORK/tree-cm" "$WORK/tree-ci-files"; die "not CMake's installed files"; }

note "multi, cdp, tmpl: the imported graph is the hand-written file's"
for e in multi cdp tmpl; do
	copy_example $e "$WORK/$e"
	cd "$WORK/$e" || exit 1
	"$CUGEN" import -o imported.ini . >out.txt 2>&1 || { cat out.txt; die "$e: import failed"; }
	grep -q ' 0 warnings$' out.txt || { cat out.txt; die "$e: import warned"; }
	run "$CUGEN" setup -f imported.ini -B ci
	# (CMake's fatbinary order: the import says ptx_first = yes)
	grep -qx 'ptx_first = yes' imported.ini || { cat imported.ini; die "$e: no ptx_first = yes (CMake's order)"; }
	run "$CUGEN" setup -B hand -D cuda.ptx_first=yes
	# every edge's outputs, and every device command (preprocess, cicc,
	# ptxas, fatbinary) word for word
	for b in ci hand; do
		grep '^build ' $b/build.ninja | sed 's/:.*//' | sort >$b.edges
		grep -h 'cicc\|ptxas' $b/build.ninja | sed "s|$WORK/$e/$b|BUILDDIR|g" | sort >$b.device
	done
	cmp -s ci.edges hand.edges || { diff ci.edges hand.edges | head; die "$e: not the hand-written file's edges"; }
	cmp -s ci.device hand.device || { diff ci.device hand.device | head -4; die "$e: not the hand-written file's device commands"; }
done

note "what cugen.ini cannot say is a warning at its line; the rest builds"
P=$WORK/blas
mkdir -p "$P/include"
cd "$P" || exit 1
cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.24)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 80-real 90)
endif()
project(blas VERSION 2.1.0 LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
configure_file(config.h.in config.h)
add_library(opts INTERFACE)
target_compile_definitions(opts INTERFACE "GREETING=\"hi, there\"")
add_library(gemm SHARED gemm.cu)
set_target_properties(gemm PROPERTIES OUTPUT_NAME gemm_cuda13 VERSION 2.1.0 SOVERSION 2)
target_include_directories(gemm PUBLIC include PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
target_compile_definitions(gemm PRIVATE "NAME=\"gemm lib\"" PUBLIC GEMM_API=1)
target_link_libraries(gemm PUBLIC CUDA::cublas PRIVATE opts)
set_source_files_properties(kern.cpp PROPERTIES LANGUAGE CUDA)
target_sources(gemm PRIVATE kern.cpp)
if("90" IN_LIST CMAKE_CUDA_ARCHITECTURES)
  target_sources(gemm PRIVATE gemm_sm90.cu)
  target_compile_definitions(gemm PRIVATE HAS_SM90=1)
endif()
add_custom_command(OUTPUT stamp.cpp COMMAND ${CMAKE_COMMAND} -E echo "int stamp = 1;" > stamp.cpp)
add_executable(demo main.cpp ${CMAKE_CURRENT_BINARY_DIR}/stamp.cpp)
target_link_libraries(demo PRIVATE gemm CUDA::cudart)
install(TARGETS gemm demo)
install(FILES include/gemm.h DESTINATION include)
EOF
echo '#define CONFIGURED 1' >config.h.in
cat >include/gemm.h <<'EOF'
#pragma once
extern "C" const char *gemm_name(void);
extern "C" int gemm_status(void);
extern "C" int gemm_variant(void);
EOF
cat >kern.cpp <<'EOF'
__global__ void twice(float *p) { p[threadIdx.x] *= 2.0f; }
extern "C" void gemm_twice(float *p) { twice<<<1, 32>>>(p); }
EOF
cat >gemm_sm90.cu <<'EOF'
extern "C" int gemm_sm90(void) { return 90; }
EOF
cat >gemm.cu <<'EOF'
#include <cublas_v2.h>
#include "gemm.h"
__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }
extern "C" const char *gemm_name(void) { return NAME " / " GREETING; }
#ifdef HAS_SM90
extern "C" int gemm_sm90(void);
extern "C" int gemm_variant(void) { return gemm_sm90(); }
#else
extern "C" int gemm_variant(void) { return 0; }
#endif
extern "C" int gemm_status(void)
{
	cublasHandle_t h;
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		return 1;
	cublasDestroy(h);
	return 0;
}
EOF
cat >main.cpp <<'EOF'
#include <cstdio>
#include <cuda_runtime_api.h>
#include "gemm.h"
static_assert(CUDART_VERSION > 0, "the toolkit headers");
int main() { std::printf("%s %d %d %d\n", gemm_name(), GEMM_API, gemm_variant(), gemm_status()); return 0; }
EOF
"$CUGEN" import . -- -DCMAKE_BUILD_TYPE=Release >out.txt 2>&1 || { cat out.txt; die "import failed"; }
grep -q '^./CMakeLists.txt:22: warning: target .demo.: stamp.cpp is generated at build time' out.txt ||
	{ cat out.txt; die "no warning for the custom command's output"; }
grep -q "^./CMakeLists.txt:12: warning: target 'gemm': include directory . is in CMake's build directory .*: config.h): not imported; copy them into the project" out.txt ||
	{ cat out.txt; die "no warning for the configure-time header directory"; }
grep -q "^./CMakeLists.txt:10: warning: interface library 'opts' (linked by 'gemm') has no section" out.txt ||
	{ cat out.txt; die "no warning for the interface library"; }
grep -q '; 3 warnings$' out.txt || { cat out.txt; die "not 3 warnings"; }
grep -q '^output_name = gemm_cuda13$' cugen.ini || die "OUTPUT_NAME"
grep -q '^buildtype = release$' cugen.ini || die "CMAKE_BUILD_TYPE=Release is not buildtype = release"
grep -q '^libs = cublas$' cugen.ini || die "CUDA::cublas is not libs = cublas"
grep -q '^public_defines = GEMM_API=1$' cugen.ini || die "the public define"
grep -q '^defines = GREETING="hi, there" NAME="gemm lib" gemm_EXPORTS$' cugen.ini ||
	{ cat cugen.ini; die "the string defines"; }
grep -q '^arch_sources = 90: gemm_sm90.cu$' cugen.ini && grep -q '^arch_defines = 90: HAS_SM90=1$' cugen.ini ||
	{ cat cugen.ini; die "the source and define CMake gives only with arch 90"; }
sed -n '/^\[target demo\]/,$p' cugen.ini | grep -q '^cuda_headers = yes$' ||
	{ cat cugen.ini; die "demo's C++ TU is not given the toolkit's headers (CUDA::cudart)"; }
grep -q '^cuda_sources = kern.cpp$' cugen.ini || { cat cugen.ini; die "a .cpp of LANGUAGE CUDA is not a CUDA source"; }
grep -q '^\[target gemm\]$' cugen.ini && grep -q '^deps = gemm$' cugen.ini || die "the target keeps its name"
cmake_build . cm -DCMAKE_BUILD_TYPE=Release
run "$CUGEN" setup -B ci -D "project.prefix=$WORK/prefix"
build ci >/dev/null
[ -f ci/libgemm_cuda13.so.2.1.0 ] && [ "$(readlink ci/libgemm_cuda13.so)" = libgemm_cuda13.so.2 ] ||
	die "OUTPUT_NAME and VERSION do not name the files"
[ "$(soname ci/libgemm_cuda13.so.2.1.0)" = libgemm_cuda13.so.2 ] || die "SONAME"
same_exports cm/libgemm_cuda13.so.2.1.0 ci/libgemm_cuda13.so.2.1.0
[ "$(output cm/demo)" = "$(output ci/demo)" ] || die "demo's output differs from CMake's build"
output ci/demo | grep -q '^gemm lib / hi, there 1 90 ' || die "the string defines did not reach the code"
note "a build for other archs gets what CMake's gets"
cmake_build . cm80 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80
run "$CUGEN" setup -B ci80 -D cuda.archs=80
build ci80 >/dev/null
output ci80/demo | grep -q '^gemm lib / hi, there 1 0 ' || die "the arch-90 source is built without arch 90"
[ "$(output cm80/demo)" = "$(output ci80/demo)" ] || die "demo's output differs from CMake's build for arch 80"
same_exports cm80/libgemm_cuda13.so.2.1.0 ci80/libgemm_cuda13.so.2.1.0

note "consumers of the installed package link cuBLAS through it"
run "$NINJA" -C ci install
grep -q '^Libs: -L${libdir} -lgemm_cuda13 -L${cuda_libdir} -lcublas$' "$WORK/prefix/lib/pkgconfig/gemm.pc" ||
	{ cat "$WORK/prefix/lib/pkgconfig/gemm.pc"; die "the .pc's Libs"; }
grep -q 'INTERFACE_LINK_LIBRARIES "CUDA::cublas"' "$WORK/prefix/lib/cmake/blas/blasConfig.cmake" ||
	die "the CMake package does not give CUDA::cublas"
grep -rq "$(realpath "$CUDA_PATH")" "$WORK/prefix/lib/pkgconfig" "$WORK/prefix/lib/cmake" &&
	[ "$(realpath "$CUDA_PATH")" != "$(realpath /usr/local/cuda 2>/dev/null)" ] &&
	die "the package names the build machine's toolkit path"
C=$WORK/consumer
mkdir -p "$C"
cat >"$C/main.cpp" <<'EOF'
#include <cstdio>
#include "gemm.h"
int main() { std::printf("%s %d\n", gemm_name(), GEMM_API); return 0; }
EOF
cat >"$C/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.24)
project(consumer LANGUAGES CXX)
find_package(blas 2.1 REQUIRED)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE blas::gemm)
EOF
cmake_build "$C" "$C/b" "-DCMAKE_PREFIX_PATH=$WORK/prefix" "-DCUDAToolkit_ROOT=$CUDA_PATH"
"$C/b/consumer" | grep -q '^gemm lib / hi, there 1$' || die "the find_package consumer"
PCF=$(PKG_CONFIG_PATH="$WORK/prefix/lib/pkgconfig" pkg-config --define-variable=cuda_root="$CUDA_PATH" --cflags --libs gemm) ||
	die "pkg-config gemm"
# shellcheck disable=SC2086
g++ "$C/main.cpp" $PCF -Wl,-rpath,"$WORK/prefix/lib" -o "$C/pc" >"$WORK/pc.log" 2>&1 || { cat "$WORK/pc.log"; die "the pkg-config consumer does not link"; }
"$C/pc" | grep -q '^gemm lib / hi, there 1$' || die "the pkg-config consumer"
echo ok
