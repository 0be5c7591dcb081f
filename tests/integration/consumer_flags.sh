# Consumers of the installed package see exactly the project's own
# defines and libraries. public_defines holding quotes, a blank and a
# comma reach a pkg-config consumer and a CMake consumer as the
# project wrote them (a program prints each); a library word with a
# generator expression, a public define with a '$' (a generator
# expression, $ENV{HOME}, ${prefix}: the consumers' tools would expand
# them), a ';' (CMake ends the define there) or a '#' (CMake drops it),
# and a prefix with a blank are refused at setup, at their line.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
P=$WORK/p
mkdir -p "$P/include/pub"
cd "$P" || exit 1
echo 'int pub_answer(void) { return 42; }' >pub.cpp
echo 'int pub_answer(void);' >include/pub/pub.h
cat >cugen.ini <<'INI'
[project]
name = pub
version = 1.0
[target pub]
type = static
sources = pub.cpp
include = include
headers = include/pub/pub.h
public_defines = "Q=\"it's\"" "SP=\"x, y\"" "NEG=-3" PLAIN=7
INI
run "$CUGEN" setup -B b --prefix "$WORK/prefix"
build b install >/dev/null
cat >"$WORK/main.cpp" <<'CPP'
#include <cstdio>
#include <pub/pub.h>
int main() { std::printf("%s|%s|%d|%d|%d\n", Q, SP, NEG, PLAIN, pub_answer()); }
CPP
want="it's|x, y|-3|7|42"

note "pkg-config: the defines as written"
flags=$(PKG_CONFIG_PATH="$WORK/prefix/lib/pkgconfig" pkg-config --cflags --libs pub) || die "pkg-config failed"
eval "set -- $flags"
run g++ "$WORK/main.cpp" -o "$WORK/pc" "$@"
[ "$("$WORK/pc")" = "$want" ] || { "$WORK/pc"; echo "flags: $flags"; die "the pkg-config consumer saw other defines"; }

if command -v cmake >/dev/null 2>&1; then
	note "CMake: the defines as written"
	mkdir -p "$WORK/cm"
	cp "$WORK/main.cpp" "$WORK/cm/"
	printf 'cmake_minimum_required(VERSION 3.18)\nproject(c CXX)\nfind_package(pub REQUIRED)\nadd_executable(c main.cpp)\ntarget_link_libraries(c pub::pub)\n' >"$WORK/cm/CMakeLists.txt"
	run cmake -S "$WORK/cm" -B "$WORK/cm/b" -G Ninja -DCMAKE_MAKE_PROGRAM="$(command -v "$NINJA")" -DCMAKE_PREFIX_PATH="$WORK/prefix"
	run cmake --build "$WORK/cm/b"
	[ "$("$WORK/cm/b/c")" = "$want" ] || { "$WORK/cm/b/c"; die "the CMake consumer saw other defines"; }
fi

note "what consumers would read more into is refused"
refused() { # what message
	if "$CUGEN" setup -B "$WORK/r" >"$WORK/err.txt" 2>&1; then die "$1: setup took it"; fi
	grep -qF -- "$2" "$WORK/err.txt" || { cat "$WORK/err.txt"; die "$1: wrong message"; }
	[ -e "$WORK/r" ] && die "$1: a refused setup wrote the build directory"
	return 0
}
cp cugen.ini good.ini
printf 'libs = m;$<1:-Wl,--defsym=evil=0>\n' >>cugen.ini
refused "a generator expression in libs" "cugen.ini:10: error: library 'm;\$<1:-Wl' is not a library name"
cp good.ini cugen.ini
for d in 'GE=$<1:x>' 'HOMEDIR=$ENV{HOME}' 'P=${prefix}' 'S=a;b' 'H=a#b'; do
	cp good.ini cugen.ini
	sed -i "s/PLAIN=7/$d/" cugen.ini
	c=$(printf '%s' "$d" | tr -dc '$;#' | cut -c1)
	refused "$d in a public define" "public define '$d' holds '$c', which"
done
cp good.ini cugen.ini
sed -i 's|^version = 1.0|version = 1.0\nprefix = /opt/my dir|' cugen.ini
refused "a prefix with a blank" "cugen.ini:4: error: prefix '/opt/my dir' holds ' ', which the installed .pc and CMake files cannot carry"
cp good.ini cugen.ini
echo ok
