#!/bin/sh
# globs.sh -- a glob in sources names the files glob(3) would: its
# wildcards match the file name (a leading '.' only by a '.', brackets
# and escapes as fnmatch), regular files and links to them (a link and
# its file are one source), never a directory, a FIFO or a link to
# nowhere; the files come sorted, whatever order the directory lists.
. "$(dirname "$0")/lib.sh"
need_cuda
mkdir -p "$WORK/p/src/d.cu" "$WORK/p/inc"
cd "$WORK/p" || exit 1
for f in b a c k1 k2 k3 '.hidden' 'k[1]'; do
	printf '__global__ void k_%s() {}\n' "$(printf %s "$f" | tr -c 'a-z0-9\n' _)" >"src/$f.cu"
done
mkfifo src/fifo.cu
ln -s nowhere.cu src/dangling.cu
ln -s ../inc/real.cu src/link.cu
echo '__global__ void k_real() {}' >inc/real.cu
files() { # sources... -> the files of setup's compile_commands.json, in order
	printf '[project]\nname = g\n[cuda]\narchs = 80\n[target t]\ntype = static\nsources = %s\n' "$*" >cugen.ini
	rm -rf b
	"$CUGEN" setup -B b >"$WORK/log" 2>&1 || { cat "$WORK/log" >&2; return 1; }
	python3 -c 'import json,sys
for e in json.load(open(sys.argv[1])):
    print(e["file"])' b/compile_commands.json |
		sed "s|^$WORK/p/||; s|^\.\./||" | awk '!seen[$0]++'
}
expect() { # what got... : compare, one per line
	printf '%s\n' "$@" >"$WORK/want"
	cmp -s "$WORK/want" "$WORK/got" || { diff "$WORK/want" "$WORK/got"; die "sources = $pat"; }
}
pat='src/*.cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/a.cu src/b.cu src/c.cu src/k1.cu src/k2.cu src/k3.cu 'src/k[1].cu' src/link.cu
pat='src/.*.cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/.hidden.cu
pat='src/k[13].cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/k1.cu src/k3.cu
pat='src/k[!1].cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/k2.cu src/k3.cu
pat='src/k\[1\].cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect 'src/k[1].cu'
pat='src/k[1].cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/k1.cu
pat='src/?.cu'; files "$pat" >"$WORK/got" || die "setup of $pat"
expect src/a.cu src/b.cu src/c.cu
note "a link and the file it names are one source"
files 'src/link.cu inc/*.cu' >"$WORK/got" && die "a link and its file were taken as two sources"
grep -q "inc/real.cu.*already\|listed twice" "$WORK/log" || { cat "$WORK/log"; die "no line naming the second name of one file"; }
note "a glob matching only a directory, a FIFO and a dangling link matches no file"
files 'src/d.cu src/fifo.cu' >/dev/null 2>&1 && die "a directory was taken as a source"
files 'src/[dfn]*.cu' >"$WORK/got" && die "a directory, FIFO or dangling link was taken"
grep -q "matches no file" "$WORK/log" || { cat "$WORK/log"; die "no 'matches no file' line"; }
exit 0
