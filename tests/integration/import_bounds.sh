# cugen import walks a link graph in linear time: 40 libraries in a
# diamond chain (each level's two libraries link both of the level
# below, publicly, through an interface library each) were 2^20 walks of
# every library's usage requirements -- 26 took 40 s, 30 never ended.
# The import must end (timeout(1) bounds it far beyond a linear walk),
# give every library its section, and the program the include directory
# and define of the bottom level, through all of them. And a hostile
# File API reply (a cmake on PATH that answers with 100,000 nested
# arrays: json-glib's parser recurses once a level) is one error line,
# not a crash. Where the file goes is checked before cmake runs (-o ''
# and a missing directory); a cugen.ini saved while cmake ran is left as
# it is; the file gets the umask's mode, not 0600; the scratch trees of
# killed imports are swept from TMPDIR as setup's are. A child cmake
# leaves in the background holding its output does not stall the import
# (it is cmake that is waited for, not its pipes). Two static libraries
# that link each other (CMake allows the cycle) import with one warning
# (was "a bug of cugen import": cugen.ini's deps cannot be circular) and
# build.
. "$(dirname "$0")/lib.sh"
command -v cmake >/dev/null 2>&1 || skip "no cmake"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"
P=$WORK/p
mkdir -p "$P/inc"
cd "$P" || exit 1
echo 'int bottom();' >inc/bottom.h
{
	echo 'cmake_minimum_required(VERSION 3.18)'
	echo 'project(diamond LANGUAGES CXX)'
	echo 'add_library(a0 STATIC a0.cpp)'
	echo 'add_library(b0 STATIC b0.cpp)'
	echo 'target_include_directories(a0 PUBLIC inc)'
	echo 'target_compile_definitions(a0 PUBLIC BOTTOM=1)'
	i=1
	while [ $i -lt 20 ]; do
		p=$((i - 1))
		echo "add_library(i$i INTERFACE)"
		echo "target_link_libraries(i$i INTERFACE a$p b$p)"
		echo "add_library(a$i STATIC a$i.cpp)"
		echo "add_library(b$i STATIC b$i.cpp)"
		echo "target_link_libraries(a$i PUBLIC i$i a$p b$p)"
		echo "target_link_libraries(b$i PUBLIC i$i a$p b$p)"
		i=$((i + 1))
	done
	echo 'add_executable(top main.cpp)'
	echo 'target_link_libraries(top a19 b19)'
} >CMakeLists.txt
echo 'int bottom() { return 1; }' >a0.cpp
i=0
while [ $i -lt 20 ]; do
	[ $i -gt 0 ] && echo "int a$i() { return $i; }" >a$i.cpp
	echo "int b$i() { return $i; }" >b$i.cpp
	i=$((i + 1))
done
printf '#include "bottom.h"\nint main() { return BOTTOM - bottom(); }\n' >main.cpp
timeout 300 "$CUGEN" import . >out.txt 2>&1 || { tail -5 out.txt; die "import did not end (or failed) on a diamond of 40 libraries"; }
[ "$(grep -c '^\[target [ab][0-9]*\]$' cugen.ini)" = 40 ] || { grep '^\[target' cugen.ini; die "not 40 library sections"; }
sed -n '/^\[target top\]/,$p' cugen.ini | grep -q '^deps = a19 b19$' || { cat cugen.ini; die "top's deps"; }
sed -n '/^\[target a0\]/,/^$/p' cugen.ini | grep -q '^include = inc$' || { cat cugen.ini; die "a0's public include"; }

note "a File API reply nested 100,000 levels deep"
mkdir -p "$WORK/fake"
cat >"$WORK/fake/cmake" <<'SH'
#!/bin/sh
# answers any configure with a reply index of 100,000 nested arrays
while [ $# -gt 0 ]; do [ "$1" = -B ] && b=$2; shift; done
mkdir -p "$b/.cmake/api/v1/reply"
python3 -c 'import sys; sys.stdout.write("{\"a\":" + "[" * 100000 + "]" * 100000 + "}")' \
	>"$b/.cmake/api/v1/reply/index-2000-01-01T00-00-00-0000.json"
SH
chmod +x "$WORK/fake/cmake"
PATH="$WORK/fake:$PATH" "$CUGEN" import -o deep.ini . >out.txt 2>&1
rc=$?
[ $rc = 1 ] || { cat out.txt; die "a deep reply: exit $rc, not 1"; }
grep -q "error: cannot read CMake's File API reply .*index-2000-01-01T00-00-00-0000.json: it nests 100001 levels deep (at most 256)" out.txt ||
	{ cat out.txt; die "no error naming the deep reply"; }
[ -e deep.ini ] && die "a failed import wrote its file"

note "-o is checked before cmake runs"
cat >"$WORK/fake/cmake" <<SH
#!/bin/sh
touch "$WORK/cmake-ran"
exit 1
SH
rm -f "$WORK/cmake-ran"
PATH="$WORK/fake:$PATH" "$CUGEN" import -o '' . >out.txt 2>&1
[ $? = 2 ] || { cat out.txt; die "-o '' is not a usage error"; }
PATH="$WORK/fake:$PATH" "$CUGEN" import -o "$WORK/missing/dir/x.ini" . >out.txt 2>&1 && die "-o into a missing directory accepted"
grep -qx "cugen: error: cannot write $WORK/missing/dir/x.ini: its directory does not exist" out.txt ||
	{ cat out.txt; die "wrong message for a missing directory"; }
[ -e "$WORK/cmake-ran" ] && die "cmake ran before -o was checked"

note "a cugen.ini saved while cmake runs is kept"
real=$(command -v cmake)
cat >"$WORK/fake/cmake" <<SH
#!/bin/sh
echo '; the user saved this while cmake ran' >"$P/cugen.ini"
exec "$real" "\$@"
SH
rm -f cugen.ini
PATH="$WORK/fake:$PATH" "$CUGEN" import . >out.txt 2>&1 && die "import replaced a cugen.ini saved while cmake ran"
grep -q "cugen.ini appeared while cmake ran: left as it is (--force replaces it)" out.txt || { cat out.txt; die "no message"; }
[ "$(cat cugen.ini)" = '; the user saved this while cmake ran' ] || die "the user's cugen.ini was replaced"
ls -A | grep -q '\.import-' && die "a temporary was left beside cugen.ini"

note "the umask's mode; killed imports' scratch trees swept"
mkdir -p "$WORK/tmp/cugen-import-999999999-AbCdEf" "$WORK/tmp/cugen-import-1-AbCdEf"
touch -d '2 hours ago' "$WORK/tmp/cugen-import-999999999-AbCdEf" "$WORK/tmp/cugen-import-1-AbCdEf"
(umask 022 && TMPDIR=$WORK/tmp "$CUGEN" import -o um.ini . >out.txt 2>&1) || { cat out.txt; die "import failed"; }
[ "$(stat -c %a um.ini)" = 644 ] || die "the imported file's mode is $(stat -c %a um.ini), not 644"
[ -e "$WORK/tmp/cugen-import-999999999-AbCdEf" ] && die "a killed import's scratch tree was not swept"
# (pid 1 is alive: its tree stays)
[ -e "$WORK/tmp/cugen-import-1-AbCdEf" ] || die "a live process's scratch tree was swept"

note "a background child of cmake that holds its output"
cat >"$WORK/fake/cmake" <<SH
#!/bin/sh
sh -c 'while [ ! -e "$WORK/done" ]; do sleep 0.2; done' &
exec "$real" "\$@"
SH
rm -f "$WORK/done"
PATH="$WORK/fake:$PATH" CUGEN_TOOL_TIMEOUT=120 "$CUGEN" import -o bg.ini . >out.txt 2>&1
rc=$?
touch "$WORK/done"
[ $rc = 0 ] || { cat out.txt; die "import waited for cmake's background child (exit $rc)"; }
[ -f bg.ini ] || die "no file written"

note "static libraries that link each other"
mkdir -p "$WORK/cyc"
cd "$WORK/cyc" || exit 1
printf 'cmake_minimum_required(VERSION 3.18)\nproject(cyc LANGUAGES CXX)\nadd_library(a STATIC a.cpp)\nadd_library(b STATIC b.cpp)\ntarget_link_libraries(a PUBLIC b)\ntarget_link_libraries(b PUBLIC a)\nadd_executable(app main.cpp)\ntarget_link_libraries(app a)\n' >CMakeLists.txt
echo 'int b(); int a() { return b() + 1; }' >a.cpp
echo 'int a(); int b() { return 2; } int bb() { return a(); }' >b.cpp
echo 'int a(); int main() { return a() - 3; }' >main.cpp
"$CUGEN" import . >out.txt 2>&1 || { cat out.txt; die "import refused a static-library link cycle"; }
grep -q "warning: target 'b' links 'a', which links it back" out.txt || { cat out.txt; die "no warning for the cycle"; }
run "$CUGEN" setup -B b
build b >/dev/null
b/app || die "the program of a link cycle does not run"
echo ok
