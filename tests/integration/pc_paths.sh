# The .pc a library installs names the toolkit's place (cuda_root) as
# pkg-config reads it back, whatever characters it
# holds: a toolkit at 'my cuda#$1' (a blank, a comment mark, a dollar)
# gives Cflags and Libs that split, as pkg-config's consumers split them
# (shell words), into that path's -I and -L. Written as it was, '#' cut
# the value and the blank split the path.
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
echo ok
