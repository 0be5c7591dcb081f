#!/bin/bash
# build.sh -- a conda-forge feedstock's recipe/build.sh for a project
# built with cugen. conda-build sets SRC_DIR, PREFIX and CPU_COUNT, and
# the compiler packages set CC, CXX, CFLAGS, CXXFLAGS and LDFLAGS: cugen
# reads them as CMake does. The variant's CUDAARCHS (CMake's spelling,
# "75;80;90-real") chooses the archs also where cugen.ini names its own,
# as -DCMAKE_CUDA_ARCHITECTURES would.
set -euxo pipefail
cugen setup -S "$SRC_DIR" -B build --prefix "$PREFIX" ${CUDAARCHS:+-D "cuda.archs=$CUDAARCHS"}
ninja -C build -j "$CPU_COUNT" install
