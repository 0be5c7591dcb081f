#!/bin/bash
# build.sh -- a conda-forge feedstock's recipe/build.sh for a project
# built with cugen. conda-build sets SRC_DIR, PREFIX and CPU_COUNT, and
# the compiler packages set CC, CXX, CFLAGS, CXXFLAGS and LDFLAGS: cugen
# reads them as CMake does. CUDAARCHS (CMake's spelling, "75;80;90-real")
# chooses the archs when the project's cugen.ini names none.
set -euxo pipefail
cugen setup -S "$SRC_DIR" -B build --prefix "$PREFIX"
ninja -C build -j "$CPU_COUNT" install
