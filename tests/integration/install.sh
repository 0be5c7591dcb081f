# Installing: examples/multi (a static library and a program) and
# examples/rdc (a versioned shared library too) with ninja install and
# make install, under DESTDIR and into a prefix; the SONAME and its
# links, the RUNPATH as install_rpath says (removed, or $ORIGIN/../lib),
# the headers, the .pc files and the CMake package; then a downstream
# C++ program built against the installed tree with pkg-config and with
# CMake's find_package, which runs. Also ninja help and ninja clean.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
command -v readelf >/dev/null 2>&1 || skip "no readelf"
unset DESTDIR CI GITHUB_ACTIONS GITLAB_CI TF_BUILD

copy_example multi "$WORK/multi"
copy_example rdc "$WORK/rdc"
A="-D cuda.archs=80"

runpath() { readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p'; }

note "ninja install with DESTDIR: what goes where"
run "$CUGEN" setup -S "$WORK/rdc" -B "$WORK/b-rdc" $A --prefix /opt/rdc
build "$WORK/b-rdc" >/dev/null
S=$WORK/stage
DESTDIR=$S "$NINJA" -C "$WORK/b-rdc" install >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; die "ninja install failed"; }
grep -q -- "-- Installing: $S/opt/rdc/bin/rdc_app" "$WORK/install.log" || die "install did not say what it installed"
L=$S/opt/rdc/lib
for f in bin/rdc_app lib/librdcstatic.a lib/librdcshared.so.1.0.0 include/rdc/rdc.h include/rdc/shared.h \
	lib/pkgconfig/rdcstatic.pc lib/pkgconfig/rdcshared.pc lib/cmake/rdc/rdcConfig.cmake lib/cmake/rdc/rdcConfigVersion.cmake; do
	[ -f "$S/opt/rdc/$f" ] && [ ! -L "$S/opt/rdc/$f" ] || die "not installed as a file: $f"
done
[ "$(readlink "$L/librdcshared.so.1")" = librdcshared.so.1.0.0 ] || die "librdcshared.so.1 is not a link to librdcshared.so.1.0.0"
[ "$(readlink "$L/librdcshared.so")" = librdcshared.so.1 ] || die "librdcshared.so is not a link to librdcshared.so.1"
readelf -d "$L/librdcshared.so.1.0.0" | grep -q 'Library soname: \[librdcshared.so.1\]' || die "SONAME is not librdcshared.so.1"
readelf -d "$S/opt/rdc/bin/rdc_app" | grep -q 'Shared library: \[librdcshared.so.1\]' || die "rdc_app does not need librdcshared.so.1"
cmp -s "$WORK/b-rdc/librdcstatic.a" "$L/librdcstatic.a" || die "the installed archive differs from the built one"
[ "$(stat -c %a "$S/opt/rdc/bin/rdc_app")" = 755 ] && [ "$(stat -c %a "$L/librdcstatic.a")" = 644 ] ||
	die "modes: $(stat -c '%a %n' "$S/opt/rdc/bin/rdc_app" "$L/librdcstatic.a")"
[ -d "$S/usr" ] && die "installed outside the prefix"
# the build tree keeps its RUNPATH; the installed tree has none (install_rpath = none)
[ "$(runpath "$WORK/b-rdc/rdc_app")" = '$ORIGIN' ] || die "build tree RUNPATH: '$(runpath "$WORK/b-rdc/rdc_app")'"
[ -z "$(runpath "$S/opt/rdc/bin/rdc_app")" ] || die "installed RUNPATH not removed: $(runpath "$S/opt/rdc/bin/rdc_app")"
grep -qx 'prefix=/opt/rdc' "$L/pkgconfig/rdcshared.pc" || die "the .pc file's prefix is not /opt/rdc"
grep -q "^$S/opt/rdc/bin/rdc_app\$" "$WORK/b-rdc/install_manifest.txt" || die "install_manifest.txt lacks rdc_app"

note "install_rpath = origin: the installed program finds its library"
run "$CUGEN" setup -S "$WORK/rdc" -B "$WORK/b-rdc" $A --prefix /opt/rdc -D project.install_rpath=origin
build "$WORK/b-rdc" >/dev/null
rm -rf "$S"
DESTDIR=$S "$NINJA" -C "$WORK/b-rdc" install >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; die "ninja install failed"; }
[ "$(runpath "$S/opt/rdc/bin/rdc_app")" = '$ORIGIN/../lib' ] || die "installed RUNPATH: '$(runpath "$S/opt/rdc/bin/rdc_app")'"
[ "$(runpath "$L/librdcshared.so.1.0.0")" = '$ORIGIN' ] || die "installed library RUNPATH: '$(runpath "$L/librdcshared.so.1.0.0")'"
"$S/opt/rdc/bin/rdc_app" --list >"$WORK/list" 2>&1 || { cat "$WORK/list"; die "the installed rdc_app does not run"; }
build "$WORK/b-rdc/" >/dev/null && [ -x "$WORK/b-rdc/rdc_app" ] || die "build tree broken"

note "an entry LDFLAGS gave stays: only cugen's own are changed"
LDFLAGS=-Wl,-rpath,/opt/keep/lib run "$CUGEN" setup -S "$WORK/rdc" -B "$WORK/b-keep" $A --prefix /opt/rdc
build "$WORK/b-keep" >/dev/null
DESTDIR=$WORK/st-keep "$NINJA" -C "$WORK/b-keep" install >/dev/null 2>&1 || die "ninja install (LDFLAGS) failed"
[ "$(runpath "$WORK/st-keep/opt/rdc/bin/rdc_app")" = /opt/keep/lib ] ||
	die "installed RUNPATH with LDFLAGS' entry: '$(runpath "$WORK/st-keep/opt/rdc/bin/rdc_app")'"

# four installs at once into one DESTDIR, a few rounds: none fails (the
# links go through temporaries of each process's own)
r=0
while [ $r -lt 4 ]; do
	for i in 1 2 3 4; do "$CUGEN" install -B "$WORK/b-rdc" --destdir "$WORK/st-conc" >"$WORK/conc.$i" 2>&1 & done
	wait
	for i in 1 2 3 4; do grep -q 'error' "$WORK/conc.$i" && { cat "$WORK/conc.$i"; die "round $r: a concurrent install failed"; }; done
	r=$((r + 1))
done
[ -L "$WORK/st-conc/opt/rdc/lib/librdcshared.so.1" ] || die "the concurrent installs left no SONAME link"
[ -z "$(find "$WORK/st-conc" -name '*.cugen-*')" ] || die "the concurrent installs left temporaries"

note "ninja help and ninja clean"
"$NINJA" -C "$WORK/b-rdc" help >"$WORK/help" 2>&1 || die "ninja help failed"
for w in 'rdcshared: shared librdcshared.so' 'rdc_app: executable' 'arch-sm_80' 'install: install under /opt/rdc' clean; do
	grep -q "$w" "$WORK/help" || { cat "$WORK/help"; die "ninja help does not list '$w'"; }
done
"$NINJA" -C "$WORK/b-rdc" clean >/dev/null 2>&1 || die "ninja clean failed"
for f in rdc_app librdcshared.so.1.0.0 librdcshared.so librdcstatic.a; do
	[ -e "$WORK/b-rdc/$f" ] && die "ninja clean left $f"
done
[ -f "$WORK/b-rdc/build.ninja" ] || die "ninja clean removed build.ninja"

note "the manifest is checked: a destination with '..' is refused"
m=$WORK/b-rdc/.cugen/install.ini
sed '1d; s#^dest=/opt/rdc/bin/rdc_app$#dest=/opt/rdc/../../tmp/x#' "$m" >"$WORK/body"
{ printf '# cugen STATE install 1 sha256=%s\n' "$(sha256sum <"$WORK/body" | cut -d' ' -f1)"; cat "$WORK/body"; } >"$m"
"$CUGEN" install -B "$WORK/b-rdc" --destdir "$WORK/evil" >"$WORK/evil.log" 2>&1 && die "a manifest with '..' was installed"
grep -q 'is not an install entry' "$WORK/evil.log" || { cat "$WORK/evil.log"; die "no error for the '..' destination"; }

# a version with build metadata and no dot: the SONAME takes the major
run "$CUGEN" setup -S "$WORK/rdc" -B "$WORK/b-meta" $A -D project.version=2+git_abc
grep -q -- '-soname,librdcshared\.so\.2 ' "$WORK/b-meta/build.ninja" ||
	{ grep -o -- '-soname,[^ ]*' "$WORK/b-meta/build.ninja"; die "the SONAME of version 2+git_abc is not librdcshared.so.2"; }

note "make install DESTDIR=... installs what ninja install does"
run "$CUGEN" setup -S "$WORK/multi" -B "$WORK/b-multi" $A --prefix /usr/local
build "$WORK/b-multi" >/dev/null
DESTDIR=$WORK/st-ninja "$NINJA" -C "$WORK/b-multi" install >/dev/null 2>&1 || die "ninja install (multi) failed"
run "$CUGEN" setup -S "$WORK/multi" -B "$WORK/m-multi" $A --prefix /usr/local --backend make
make -C "$WORK/m-multi" -j2 install DESTDIR="$WORK/st-make" >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; die "make install failed"; }
(cd "$WORK/st-ninja" && find . | sort) >"$WORK/ninja.files"
(cd "$WORK/st-make" && find . | sort) >"$WORK/make.files"
cmp -s "$WORK/ninja.files" "$WORK/make.files" || { diff "$WORK/ninja.files" "$WORK/make.files"; die "make install and ninja install differ"; }
grep -qx './usr/local/include/multi/multi.h' "$WORK/make.files" || die "multi.h not installed"
make -C "$WORK/m-multi" help 2>&1 | grep -q 'multi_app: executable' || die "make help does not list multi_app"

note "ninja uninstall and make uninstall remove every file and link installed, no directory"
DESTDIR=$WORK/st-ninja "$NINJA" -C "$WORK/b-multi" uninstall >"$WORK/un.log" 2>&1 || { cat "$WORK/un.log"; die "ninja uninstall failed"; }
grep -q "^-- Removing: $WORK/st-ninja/usr/local/include/multi/multi.h\$" "$WORK/un.log" || { cat "$WORK/un.log"; die "ninja uninstall did not say what it removed"; }
left=$(find "$WORK/st-ninja" ! -type d)
[ -z "$left" ] || die "ninja uninstall left: $left"
[ -d "$WORK/st-ninja/usr/local/include/multi" ] || die "ninja uninstall removed a directory"
[ ! -e "$WORK/b-multi/install_manifest.txt" ] || die "install_manifest.txt still lists what was removed"
make -C "$WORK/m-multi" uninstall DESTDIR="$WORK/st-make" >"$WORK/un.log" 2>&1 || { cat "$WORK/un.log"; die "make uninstall failed"; }
left=$(find "$WORK/st-make" ! -type d)
[ -z "$left" ] || die "make uninstall left: $left"
"$CUGEN" uninstall -B "$WORK/m-multi" --destdir "$WORK/st-make" >"$WORK/un.log" 2>&1 || die "a second uninstall failed"
grep -q '^-- Nothing recorded as installed from ' "$WORK/un.log" || { cat "$WORK/un.log"; die "a second uninstall did not say nothing was left to remove"; }

note "uninstall removes only what install wrote, as it wrote it"
# another package's files at this build's destinations, nothing installed
# from it: nothing is removed
mkdir -p "$WORK/st-other/usr/local/include/multi" "$WORK/st-other/usr/local/lib"
echo theirs >"$WORK/st-other/usr/local/include/multi/multi.h"
echo theirs >"$WORK/st-other/usr/local/lib/libmulti.a"
run "$CUGEN" setup -S "$WORK/multi" -B "$WORK/u-multi" $A --prefix /usr/local
DESTDIR=$WORK/st-other "$NINJA" -C "$WORK/u-multi" uninstall >"$WORK/un.log" 2>&1 || { cat "$WORK/un.log"; die "uninstall failed"; }
grep -q Removing "$WORK/un.log" && { cat "$WORK/un.log"; die "uninstall removed files it never installed"; }
[ "$(cat "$WORK/st-other/usr/local/include/multi/multi.h")" = theirs ] || die "another package's header is gone"
# a file changed since it was installed stays, and is said; the rest goes
build "$WORK/u-multi" >/dev/null
DESTDIR=$WORK/st-chg "$NINJA" -C "$WORK/u-multi" install >/dev/null 2>&1 || die "install failed"
echo '/* edited */' >>"$WORK/st-chg/usr/local/include/multi/multi.h"
DESTDIR=$WORK/st-chg "$NINJA" -C "$WORK/u-multi" uninstall >"$WORK/un.log" 2>&1 || { cat "$WORK/un.log"; die "uninstall failed"; }
grep -qx -- "-- Left (not what was installed there): $WORK/st-chg/usr/local/include/multi/multi.h" "$WORK/un.log" &&
	grep -qx -- '-- 1 file left: changed or replaced since cugen installed them' "$WORK/un.log" ||
	{ cat "$WORK/un.log"; die "uninstall did not say what it left"; }
[ "$(find "$WORK/st-chg" ! -type d)" = "$WORK/st-chg/usr/local/include/multi/multi.h" ] ||
	{ find "$WORK/st-chg" ! -type d; die "uninstall removed the edited file, or left others"; }
# a prefix changed between installs orphans nothing
rm -rf "$WORK/st-pre"
for pre in /opt/one /opt/two; do
	run "$CUGEN" setup -S "$WORK/multi" -B "$WORK/u-multi" $A --prefix $pre
	DESTDIR=$WORK/st-pre "$NINJA" -C "$WORK/u-multi" install >/dev/null 2>&1 || die "install into $pre failed"
done
[ -f "$WORK/st-pre/opt/one/include/multi/multi.h" ] && [ -f "$WORK/st-pre/opt/two/include/multi/multi.h" ] ||
	die "the two installs are not both there"
DESTDIR=$WORK/st-pre "$NINJA" -C "$WORK/u-multi" uninstall >"$WORK/un.log" 2>&1 || { cat "$WORK/un.log"; die "uninstall failed"; }
[ -z "$(find "$WORK/st-pre" ! -type d)" ] || { find "$WORK/st-pre" ! -type d; die "uninstall after a prefix change left files"; }
"$NINJA" -C "$WORK/b-multi" help | grep -q 'uninstall: remove what install installed' || die "ninja help does not list uninstall"

note "a build directory where the record cannot be written installs nothing"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	# (nobody must reach the build directory: the test directories are 0700)
	chmod o+x "$(dirname "$WORK")" "$WORK"
	mkdir -p "$WORK/ro-dest" && chmod 777 "$WORK/ro-dest" && chmod -R a+rX "$WORK/u-multi"
	if setpriv --reuid=65534 --regid=65534 --clear-groups "$CUGEN" install -B "$WORK/u-multi" \
		--destdir "$WORK/ro-dest/d" >"$WORK/ro.log" 2>&1; then
		die "install recorded nothing and went on"
	fi
	grep -q "cannot record what is installed in $WORK/u-multi (.*): nothing installed" "$WORK/ro.log" ||
		{ cat "$WORK/ro.log"; die "wrong message for a read-only build directory"; }
	[ -z "$(find "$WORK/ro-dest" -type f)" ] || die "files were installed without a record"
else
	echo "note: not root, or no setpriv: the read-only build directory is not tried"
fi

note "a downstream program: pkg-config and CMake against the installed prefix"
P=$WORK/prefix
for p in multi rdc; do
	run "$CUGEN" setup -S "$WORK/$p" -B "$WORK/p-$p" $A --prefix "$P"
	build "$WORK/p-$p" install >/dev/null
done
C=$SRC/tests/integration/consumer
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
flags=$(pkg-config --static --cflags --libs multi rdcshared) || die "pkg-config does not find multi and rdcshared"
run g++ -std=c++17 "$C/main.cpp" -o "$WORK/consumer-pc" $flags
LD_LIBRARY_PATH=$P/lib "$WORK/consumer-pc" >"$WORK/out" 2>&1 || { cat "$WORK/out"; die "the pkg-config consumer failed"; }
grep -q '^multi checks: [1-9]' "$WORK/out" && grep -q '^rdcshared identify: ' "$WORK/out" ||
	{ cat "$WORK/out"; die "the pkg-config consumer printed something else"; }
if command -v cmake >/dev/null 2>&1; then
	run cmake -S "$C" -B "$WORK/cm" -G Ninja -DCMAKE_MAKE_PROGRAM="$(command -v "$NINJA")" -DCMAKE_PREFIX_PATH="$P" \
		-DCUDAToolkit_ROOT="$CUDA_PATH"
	run cmake --build "$WORK/cm"
	"$WORK/cm/consumer" >"$WORK/out" 2>&1 || { cat "$WORK/out"; die "the CMake consumer failed"; }
	grep -q '^multi checks: [1-9]' "$WORK/out" || { cat "$WORK/out"; die "the CMake consumer printed something else"; }
	# find_package checks the version: rdc 2 is not there
	sed 's/find_package(rdc 1 REQUIRED)/find_package(rdc 2 REQUIRED)/' "$C/CMakeLists.txt" >"$WORK/CMakeLists.txt"
	mkdir -p "$WORK/cv" && cp "$WORK/CMakeLists.txt" "$C/main.cpp" "$WORK/cv/"
	cmake -S "$WORK/cv" -B "$WORK/cv/b" -DCMAKE_PREFIX_PATH="$P" >"$WORK/cv.log" 2>&1 &&
		die "find_package(rdc 2) accepted version 1.0.0"
	grep -q 'rdcConfig.cmake, version: 1.0.0' "$WORK/cv.log" || { cat "$WORK/cv.log"; die "no version mismatch reported"; }
else
	note "no cmake: the CMake consumer is not tried"
fi
exit 0
