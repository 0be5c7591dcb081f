# One hostile name set through every backend and through regeneration:
# file names holding each of $ ( ) \ # : [ ] { } ~ ! % = , @ + and a
# space, non-ASCII letters, and command substitutions that would create
# a file if anything ran them. ninja builds every one (a no-op build runs
# nothing, a regeneration builds again); make builds those a Makefile can
# say and refuses each other with one error line; automake takes
# non-ASCII names and refuses each other the same way. A name with one of
# | & ^ ; ' " * ? < > ` (ninja cannot say '|'; the others gcc writes into
# dependency files ninja cannot read back, so it would rebuild them on
# every run), a tab or a newline is refused by every backend with one
# line. Nothing is ever created by a name.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v make >/dev/null 2>&1 || skip "no make"

P="$WORK/p"
mkdir -p "$P/src"
# one character per name (the shell strings below are single-quoted)
set -- '$' '(' ')' '\' '#' ':' '[' ']' '{' '}' '~' ' ' '!' '%' '=' ',' '@' '+' 'é'
i=0
main="$P/src/main.cpp"
: >"$main"
for c in "$@"; do
	i=$((i + 1))
	printf 'int f%d(void) { return %d; }\n' "$i" "$i" >"$P/src/h${c}x$i.cpp"
	echo "int f$i(void);" >>"$main"
done
n=$i
# what would run if a name reached a shell or make unquoted
printf 'int g1(void) { return 1; }\n' >"$P/src/\$(touch PWNED1)g1.cpp"
printf 'int g2(void) { return 2; }\n' >"$P/src/\${HOME}g2.cpp"
printf 'int g3(void) { return 3; }\n' >"$P/src/\$(shell touch PWNED3)g3.cpp"
printf '__global__ void k(int *p) { *p = 7; }\nint dev(void) { int *d, h = 0; if (cudaMalloc(&d, 4) == cudaSuccess) { k<<<1, 1>>>(d); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); cudaFree(d); } return 7; }\n' \
	>"$P/src/d\$(touch PWNED4)é.cu"
{
	echo 'int g1(void); int g2(void); int g3(void); int dev(void);'
	printf 'int main(void) { int s = g1() + g2() + g3() + (dev() == 7)'
	i=1
	while [ $i -le $n ]; do printf ' + f%d()' $i; i=$((i + 1)); done
	echo '; return s == 7 + '"$((n * (n + 1) / 2))"' ? 0 : 1; }'
} >>"$main"
cat >"$P/cugen.ini" <<'INI'
[project]
name = hostile
[cuda]
archs = 80
[target tool]
type = executable
sources = src/*.cpp src/*.cu
INI
pwned() { find "$WORK" -name 'PWNED*' | grep -q . && die "a name ran a command: $(find "$WORK" -name 'PWNED*')"; return 0; }

note "ninja: every name builds, a no-op build runs nothing, regeneration builds"
run "$CUGEN" setup -S "$P" -B "$WORK/b-ninja"
build "$WORK/b-ninja" >/dev/null
"$WORK/b-ninja/tool" || die "the program built by ninja failed"
ran=$(build "$WORK/b-ninja")
[ -z "$ran" ] || die "no-op build ran: $ran"
sleep 1
touch "$P/cugen.ini"
build "$WORK/b-ninja" >/dev/null
"$WORK/b-ninja/tool" || die "the program failed after regeneration"
pwned

note "make: the names a Makefile can say build; each other is one clear error"
mkdir -p "$WORK/pm/src"
cp "$P/cugen.ini" "$WORK/pm/"
refused=0
for f in "$P"/src/*; do
	b=$(basename "$f")
	case $b in
	*[' %=:\*?[;|']*) refused=$((refused + 1)) ;;
	*) cp "$f" "$WORK/pm/src/" ;;
	esac
done
[ $refused -ge 4 ] || die "expected names make cannot say, found $refused"
# (the full main.cpp calls every f: this one calls none; the kernel's
# file gets a name make can say)
printf 'int main(void) { return 0; }\n' >"$WORK/pm/src/main.cpp"
cp "$P/src/d\$(touch PWNED4)é.cu" "$WORK/pm/src/d\$(x)é.cu"
run "$CUGEN" setup -S "$WORK/pm" -B "$WORK/b-make" --backend make
make -C "$WORK/b-make" >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; die "make failed"; }
"$WORK/b-make/tool" || die "the program built by make failed"
make -C "$WORK/b-make" >"$WORK/make2.log" 2>&1 || { cat "$WORK/make2.log"; die "second make failed"; }
grep -q '^CUDA\|^CXX\|^LINK' "$WORK/make2.log" && { cat "$WORK/make2.log"; die "the second make did work"; }
pwned
for c in ' ' '%' '=' ':' '\' '['; do
	mkdir -p "$WORK/m1/src"
	rm -f "$WORK/m1/src/"*
	printf 'int main(void) { return 0; }\n' >"$WORK/m1/src/a${c}b.cpp"
	printf '[project]\nname = m\n[target t]\ntype = executable\nsources = src/*.cpp\n' >"$WORK/m1/cugen.ini"
	if "$CUGEN" setup -S "$WORK/m1" -B "$WORK/b-m1" --backend make >"$WORK/m1.log" 2>&1; then
		die "make backend took a name with '$c'"
	fi
	[ "$(wc -l <"$WORK/m1.log")" -eq 1 ] || { cat "$WORK/m1.log"; die "not one line for '$c'"; }
	grep -q "cannot be written in a Makefile" "$WORK/m1.log" || { cat "$WORK/m1.log"; die "unclear error for '$c'"; }
	[ ! -e "$WORK/b-m1" ] || die "a refused setup left a build directory"
done

note "automake: non-ASCII names are written; every other hostile one is refused"
mkdir -p "$WORK/am/src"
printf 'int main(void) { return 0; }\n' >"$WORK/am/src/é.cpp"
printf '[project]\nname = am\n[target t]\ntype = executable\nsources = src/*.cpp\n' >"$WORK/am/cugen.ini"
run "$CUGEN" setup -S "$WORK/am" -B "$WORK/am/_build" --backend automake
grep -q 'src/é.cpp' "$WORK/am/cugen.mk" || die "cugen.mk lacks the non-ASCII name"
for c in '$' '(' ')' '\' '#' ':' '[' ']' '{' '}' '~' ' ' '!' '%' '=' ',' '@'; do
	rm -f "$WORK/am/src/"* "$WORK/am/cugen.mk"
	printf 'int main(void) { return 0; }\n' >"$WORK/am/src/a${c}b.cpp"
	if "$CUGEN" setup -S "$WORK/am" -B "$WORK/am/_build" --backend automake >"$WORK/am.log" 2>&1; then
		die "automake backend took a name with '$c'"
	fi
	[ "$(wc -l <"$WORK/am.log")" -eq 1 ] || { cat "$WORK/am.log"; die "not one line for '$c'"; }
	grep -q "cugen.ini:5: error: .* cannot be written in cugen.mk" "$WORK/am.log" ||
		{ cat "$WORK/am.log"; die "unclear error for '$c'"; }
	[ ! -e "$WORK/am/cugen.mk" ] || die "a refused setup wrote cugen.mk"
done
pwned

# a project whose one source is src/a<C>b.cpp: every backend refuses it
# with one line matching PATTERN, and leaves no build directory
refused_everywhere() { # c pattern
	mkdir -p "$WORK/v1/src"
	rm -f "$WORK/v1/src/"*
	printf 'int main(void) { return 0; }\n' >"$WORK/v1/src/a${1}b.cpp"
	printf '[project]\nname = v\n[target t]\ntype = executable\nsources = src/*.cpp\n' >"$WORK/v1/cugen.ini"
	for be in ninja make automake; do
		if "$CUGEN" setup -S "$WORK/v1" -B "$WORK/b-v1" --backend $be >"$WORK/v1.log" 2>&1; then
			die "$be took a name with '$1'"
		fi
		[ "$(wc -l <"$WORK/v1.log")" -eq 1 ] || { cat "$WORK/v1.log"; die "not one line for '$1' ($be)"; }
		grep -q "$2" "$WORK/v1.log" || { cat "$WORK/v1.log"; die "unclear error for '$1' ($be)"; }
		[ ! -e "$WORK/b-v1" ] || die "a refused setup left a build directory"
	done
}

note "the names no backend can track: refused by each with one line"
for c in '|' '&' '^' ';' "'" '"' '*' '?' '<' '>' '`'; do
	refused_everywhere "$c" "cugen.ini:5: error: source 'src/a.b.cpp': a path with '.' cannot be"
done
pwned

note "a tab or a newline in a name: refused by every backend"
for c in "$(printf '\t')" "$(printf '\nx')"; do
	refused_everywhere "$c" "cugen.ini:5: error: glob 'src/\*.cpp' matches a file whose name contains a"
done
pwned
echo "hostile names: ok"
