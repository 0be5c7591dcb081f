# The .pc a library installs names the toolkit's place (cuda_root) as
# pkg-config reads it back, whatever characters it
# holds: a toolkit at 'my cuda#$1' (a blank, a comment mark, a dollar)
# gives Cflags and Libs that split, as pkg-config's consumers split them
# (shell words), into that path's -I and -L. Written as it was, '#' cut
# the value and the blank split the path. And a static library named like
# an installed shared one (output_name k for both) is linked by its file:
# -lk found libk.so. A toolkit under the install prefix (a conda
# environment's cudart, in $PREFIX/targets/...) is named from ${prefix},
# so that conda's relocation of the prefix moves it too (it was the build
# machine's path).
. "$(dirname "$0")/lib.sh"
need_cuda
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
# a toolkit of links to the real one's entries, in a directory of its own
tk="$WORK/tk/my cuda#\$1"
mkdir -p "$tk"
for e in "$CUDA_PATH"/*; do ln -s "$(readlink -f "$e")" "$tk/$(basename "$e")"; done
copy_example multi "$WORK/p"
cd "$WORK/p" || exit 1
CUDA_PATH=$tk run "$CUGEN" setup -B b -D cuda.archs=80
pc=b/.cugen/install/multi.pc
[ -f "$pc" ] || die "no multi.pc"
want_i="-I$tk/targets/x86_64-linux/include" want_l="-L$tk/targets/x86_64-linux/lib"
PKG_CONFIG_PATH=b/.cugen/install pkg-config --cflags --libs --static multi >flags.txt || die "pkg-config failed"
python3 - flags.txt "$want_i" "$want_l" <<'PY' || { cat flags.txt "$pc"; die "the .pc's paths do not read back"; }
import shlex, sys
words = shlex.split(open(sys.argv[1]).read())
missing = [w for w in sys.argv[2:] if w not in words]
sys.exit(1 if missing else 0)
PY

note "a static and a shared library of one output_name"
mkdir -p "$WORK/two"
cd "$WORK/two" || exit 1
printf '[project]\nname = two\nversion = 1.0\n[target kshared]\ntype = shared\nsources = a.cpp\noutput_name = k\n[target kstatic]\ntype = static\nsources = b.cpp\noutput_name = k\n' >cugen.ini
echo 'int a() { return 1; }' >a.cpp
echo 'int b() { return 2; }' >b.cpp
run "$CUGEN" setup -B b --prefix "$WORK/pre"
libs=$(PKG_CONFIG_PATH=b/.cugen/install pkg-config --libs kstatic) || die "pkg-config kstatic failed"
case " $libs " in *" $WORK/pre/lib/libk.a "*) ;; *) die "kstatic.pc links '$libs', not its libk.a" ;; esac
case " $libs " in *" -lk "*) die "kstatic.pc links -lk (libk.so)" ;; esac

note "a toolkit under the prefix is named from \${prefix}"
cd "$WORK/p" || exit 1
pre=$WORK/env
mkdir -p "$pre"
for e in "$CUDA_PATH"/*; do ln -s "$(readlink -f "$e")" "$pre/$(basename "$e")"; done
CUDA_PATH=$pre run "$CUGEN" setup -B c -D cuda.archs=80 --prefix "$pre"
grep -qx 'cuda_root=${prefix}' c/.cugen/install/multi.pc || { cat c/.cugen/install/multi.pc; die "cuda_root is not \${prefix}"; }
moved=$(PKG_CONFIG_PATH=c/.cugen/install pkg-config --define-variable=prefix=/opt/moved --cflags multi)
case " $moved " in *" -I/opt/moved/targets/x86_64-linux/include "*) ;; *) die "a moved prefix does not move the toolkit: $moved" ;; esac
echo ok
