# What ninja install takes comes from the project only, one file for one
# destination: a headers directory with links back up the tree (include/a
# -> .) is walked once, each header installed once, and setup ends; a
# header that is a link to a file or a directory outside the project is
# refused, naming both; two targets' headers of one name, or a header
# where cugen writes a package file, are refused naming both sources;
# nothing is written to the build directory on a refusal.
. "$(dirname "$0")/lib.sh"
need_cuda
P=$WORK/p
mkdir -p "$P/include/p" "$P/other/include/p"
cd "$P" || exit 1
echo 'int one(void) { return 1; }' >one.c
echo 'int two(void) { return 2; }' >two.c
echo '#define A 1' >include/p/a.h
echo '#define A 2' >other/include/p/a.h
ini() { # headers of one [more...]
	printf '[project]\nname = p\nversion = 1.0\n%s\n[target one]\ntype = static\nsources = one.c\ninclude = include\nheaders = %s\n%s\n' \
		"${3:-}" "$1" "${2:-}" >cugen.ini
}
refused() { # what message
	if "$CUGEN" setup -B "$WORK/b" >"$WORK/err.txt" 2>&1; then die "$1: setup took it"; fi
	grep -qF -- "$2" "$WORK/err.txt" || { cat "$WORK/err.txt"; die "$1: wrong message"; }
	[ "$(wc -l <"$WORK/err.txt")" -eq 1 ] || { cat "$WORK/err.txt"; die "$1: more than one line"; }
	[ -e "$WORK/b" ] && die "$1: a refused setup wrote the build directory"
	return 0
}

note "links back up the tree: each header once, and setup ends"
ln -s . include/p/x
ln -s .. include/p/y
ini include
timeout 120 "$CUGEN" setup -B "$WORK/ok" >"$WORK/out.txt" 2>&1 || { cat "$WORK/out.txt"; die "setup failed or hung"; }
[ "$(grep -c '^dest=.*/a\.h$' "$WORK/ok/.cugen/install.ini")" -eq 1 ] ||
	{ grep '^dest=' "$WORK/ok/.cugen/install.ini"; die "a.h is not installed exactly once"; }
rm include/p/x include/p/y

note "a link to a file outside the project"
echo secret >"$WORK/secret"
ln -s "$WORK/secret" include/p/secret.h
ini include
refused "a link out" "cugen.ini:9: error: header 'include/p/secret.h' is a link to '$WORK/secret', outside the project directory"
rm include/p/secret.h

note "a link to a directory outside the project"
mkdir -p "$WORK/sys/linux"
echo '#define X 1' >"$WORK/sys/linux/types.h"
ln -s "$WORK/sys/linux" include/p/linux
ini include
refused "a directory link out" "header 'include/p/linux/types.h' is a link to '$WORK/sys/linux/types.h', outside the project directory"
rm include/p/linux

note "two targets, one header name"
ini include/p/a.h "$(printf '[target two]\ntype = static\nsources = two.c\ninclude = other/include\nheaders = other/include/p/a.h')"
refused "two sources" "error: '/usr/local/include/p/a.h' would be installed from both 'include/p/a.h' (target one) and 'other/include/p/a.h' (target two)"
# the same header from two targets is one file: fine
ini include/p/a.h "$(printf '[target two]\ntype = static\nsources = two.c\ninclude = include\nheaders = include/p/a.h')"
run "$CUGEN" setup -B "$WORK/ok2"

note "a header where cugen installs a package file"
echo 'Name: forged' >include/one.pc
ini include/one.pc "" "includedir = lib/pkgconfig"
refused "over the .pc" "cugen.ini:5: error: '/usr/local/lib/pkgconfig/one.pc' would be installed from both 'include/one.pc' (target one) and '.cugen/install/one.pc' (cugen's own file)"
echo ok
