# The packagers' recipes of doc/packaging.md, run as their tools run them:
# doc/packaging/build.sh with the variables conda-build sets (PREFIX,
# SRC_DIR, CPU_COUNT, conda's CFLAGS, CXXFLAGS and LDFLAGS, CUDAARCHS,
# cuda-nvcc's NVCC_PREPEND_FLAGS=-ccbin=$CXX),
# and doc/packaging/rules's overrides with dpkg-buildflags' hardening
# flags, each building and installing examples/multi and examples/rdc;
# the flags reach the commands, the files land where each packager
# expects, and a downstream program builds against the installed tree
# with pkg-config and with CMake. doc/packaging.md shows both recipes as
# they are here.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
unset CPPFLAGS CFLAGS CXXFLAGS LDFLAGS CUDAFLAGS CUDAARCHS CUDAHOSTCXX DESTDIR CI GITHUB_ACTIONS GITLAB_CI TF_BUILD
R=$SRC/doc/packaging
C=$SRC/tests/integration/consumer
mkdir -p "$WORK/bin"
ln -s "$CUGEN" "$WORK/bin/cugen"
case $NINJA in */*) ln -s "$NINJA" "$WORK/bin/ninja" ;; esac
PATH=$WORK/bin:$PATH
export PATH

note "doc/packaging.md shows the recipes as they are"
for f in build.sh rules; do
	grep -v '^$' "$R/$f" | while IFS= read -r line; do
		grep -qxF "    $line" "$SRC/doc/packaging.md" || die "doc/packaging.md lacks this line of $f: $line"
	done || exit 1
done

consumer() { # prefix pkg-config-options...: build and run tests/integration/consumer both ways
	_p=$1
	shift
	flags=$(PKG_CONFIG_PATH=$PKGDIR pkg-config "$@" --static --cflags --libs multi rdcshared) ||
		die "pkg-config does not find the installed multi and rdcshared"
	run g++ -std=c++17 "$C/main.cpp" -o "$WORK/consumer" $flags
	LD_LIBRARY_PATH=$LIBDIR "$WORK/consumer" >"$WORK/out" 2>&1 || { cat "$WORK/out"; die "the pkg-config consumer failed"; }
	grep -q '^multi checks: [1-9]' "$WORK/out" || { cat "$WORK/out"; die "the pkg-config consumer printed something else"; }
	command -v cmake >/dev/null 2>&1 || return 0
	rm -rf "$WORK/cm"
	run cmake -S "$C" -B "$WORK/cm" -DCMAKE_PREFIX_PATH="$_p" -DCUDAToolkit_ROOT="$CUDA_PATH"
	run cmake --build "$WORK/cm"
	LD_LIBRARY_PATH=$LIBDIR "$WORK/cm/consumer" >"$WORK/out" 2>&1 || { cat "$WORK/out"; die "the CMake consumer failed"; }
}

note "conda-build: recipe/build.sh"
P=$WORK/conda/prefix
mkdir -p "$P"
for p in multi rdc; do
	copy_example $p "$WORK/conda/$p"
	# the feedstock's CUDAARCHS chooses, over cugen.ini's archs
	# what conda-build and conda-forge's compiler activation set (and
	# cuda-nvcc's: NVCC_PREPEND_FLAGS=-ccbin=$CXX)
	env PREFIX="$P" SRC_DIR="$WORK/conda/$p" CPU_COUNT=2 CUDAARCHS=80-real CXX="$(command -v g++)" \
		NVCC_PREPEND_FLAGS="-ccbin=$(command -v g++)" \
		CFLAGS="-march=nocona -mtune=haswell -ftree-vectorize -fPIC -fstack-protector-strong -fno-plt -O2 -ffunction-sections -pipe -isystem $P/include" \
		CXXFLAGS="-fvisibility-inlines-hidden -fmessage-length=0 -march=nocona -mtune=haswell -ftree-vectorize -fPIC -fstack-protector-strong -fno-plt -O2 -ffunction-sections -pipe -isystem $P/include" \
		LDFLAGS="-Wl,-O2 -Wl,--sort-common -Wl,--as-needed -Wl,-z,relro -Wl,-z,now -Wl,--disable-new-dtags -Wl,--gc-sections -Wl,-rpath,$P/lib -Wl,-rpath-link,$P/lib -L$P/lib" \
		sh -c 'cd "$1" && bash "$2/build.sh"' - "$WORK/conda/$p" "$R" >"$WORK/conda-$p.log" 2>&1 ||
		{ tail -30 "$WORK/conda-$p.log"; die "build.sh ($p) failed"; }
	grep -q "archs sm_80, flags from the environment (CFLAGS CXXFLAGS LDFLAGS)" "$WORK/conda-$p.log" ||
		{ grep 'cugen:' "$WORK/conda-$p.log"; die "$p: setup did not take conda's variables"; }
	grep -q -- "-fvisibility-inlines-hidden .*-isystem $P/include" "$WORK/conda/$p/build/build.ninja" ||
		die "$p: conda's CXXFLAGS are not in the commands"
done
for f in lib/libmulti.a lib/pkgconfig/multi.pc bin/multi_app include/multi/multi.h lib/librdcshared.so.1.0.0 \
	lib/cmake/rdc/rdcConfig.cmake bin/rdc_app; do
	[ -f "$P/$f" ] || die "conda: $f not installed"
done
# conda relocates through the RUNPATH LDFLAGS gave: it stays
readelf -d "$P/bin/rdc_app" | grep -q "R\(UN\)\?PATH.*\[$P/lib\]" || die "conda: rdc_app lost LDFLAGS' RUNPATH"
PKGDIR=$P/lib/pkgconfig LIBDIR=$P/lib consumer "$P"

note "Debian: debian/rules with dpkg-buildflags"
command -v dpkg-buildflags >/dev/null 2>&1 || skip "no dpkg-buildflags (dpkg-dev)"
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
D=$WORK/deb
for p in multi rdc; do
	copy_example $p "$D/$p"
	sed -i 's/^archs = .*/archs = 80/' "$D/$p/cugen.ini"
	mkdir -p "$D/$p/debian"
	cp "$R/rules" "$D/$p/debian/rules"
	(cd "$D/$p" && DEB_BUILD_OPTIONS=parallel=2 make -f debian/rules override_dh_auto_configure \
		override_dh_auto_build override_dh_auto_install) >"$WORK/deb-$p.log" 2>&1 ||
		{ tail -30 "$WORK/deb-$p.log"; die "debian/rules ($p) failed"; }
	B=$(ls -d "$D/$p"/obj-*)
	grep -q -- '-D_FORTIFY_SOURCE=2.*-fstack-protector-strong' "$B/build.ninja" || die "$p: the hardening flags are not in the commands"
	grep -q -- '-Wl,-z,relro.*-Wl,-z,now' "$B/build.ninja" || die "$p: the hardening link flags are not in the commands"
done
T=$D/multi/debian/tmp/usr
for f in "lib/$MA/libmulti.a" "lib/$MA/pkgconfig/multi.pc" "lib/$MA/cmake/multi/multiConfig.cmake" include/multi/multi.h bin/multi_app; do
	[ -f "$T/$f" ] || die "Debian: $f not installed under debian/tmp/usr"
done
T2=$D/rdc/debian/tmp/usr
[ -L "$T2/lib/$MA/librdcshared.so.1" ] && [ -f "$T2/lib/$MA/librdcshared.so.1.0.0" ] || die "Debian: librdcshared.so.1 not installed"
# one tree, as the packages' files would be unpacked
cp -R "$T2/." "$T/"
PKGDIR=$T/lib/$MA/pkgconfig LIBDIR=$T/lib/$MA consumer "$T" --define-variable=prefix="$T"
exit 0
