# What a build directory, a cache or a project file may hold that cugen
# did not put there, and what cugen does with it: a planted symbolic link
# is never written through (the edge log, the project file's, a cache
# entry's), a damaged state file is ignored with one warning and made
# again, a killed setup's temporaries go, and the cache clears only a
# cache. Each part checks the build still works.
. "$(dirname "$0")/lib.sh"
need_cuda

P="$WORK/p"
mkdir -p "$P"
cat >"$P/cugen.ini" <<'INI'
[project]
name = u
[cuda]
archs = 80
[target app]
type = executable
sources = k.cu main.cpp
INI
printf '__global__ void k(int *p) { *p = 1; }\nint run(void) { return 0; }\n' >"$P/k.cu"
printf 'int run(void);\nint main(void) { return run(); }\n' >"$P/main.cpp"
B="$WORK/b"
run "$CUGEN" setup -S "$P" -B "$B"
build "$B" >/dev/null

note "the edge log is never written through a planted link"
echo keep >"$WORK/victim"
rm -f "$B/.cugen/edges.log"
ln -s "$WORK/victim" "$B/.cugen/edges.log"
sleep 1
touch "$P/main.cpp"
build "$B" >/dev/null
[ "$(cat "$WORK/victim")" = keep ] || die "cugen exec wrote through a link: $(cat "$WORK/victim")"
[ -L "$B/.cugen/edges.log" ] || die "the link was replaced"
rm -f "$B/.cugen/edges.log"

note "a damaged state file: one warning, ignored, made again"
for f in probe.ini plan.ini; do
	[ -f "$B/.cugen/$f" ] || die "no .cugen/$f"
	head -n 1 "$B/.cugen/$f" | grep -q '^# cugen STATE ' || die ".cugen/$f is not sealed"
	# a byte of the body changed
	sed -i '2s/./X/' "$B/.cugen/$f"
	"$CUGEN" setup -S "$P" -B "$B" >"$WORK/out.log" 2>"$WORK/err.log" || { cat "$WORK/err.log"; die "setup failed over a damaged $f"; }
	[ "$(wc -l <"$WORK/err.log")" -eq 1 ] || { cat "$WORK/err.log"; die "not one warning for $f"; }
	grep -q "warning: .*\.cugen/$f is damaged" "$WORK/err.log" || { cat "$WORK/err.log"; die "no warning naming $f"; }
	"$CUGEN" setup -S "$P" -B "$B" >"$WORK/out.log" 2>"$WORK/err.log" || die "second setup failed"
	[ -s "$WORK/err.log" ] && { cat "$WORK/err.log"; die "$f was not made again"; }
done
# edges.log: a line with nan, one with a negative time, one garbled
build "$B" >/dev/null
printf 'obj/app/k.cu.o\tcicc\t100\tnan\t1\nobj/app/main.cpp.o\tc++\t1\t-5\t1\n\001\002garbage\n' >>"$B/.cugen/edges.log"
"$CUGEN" setup -S "$P" -B "$B" >"$WORK/out.log" 2>"$WORK/err.log" || die "setup failed over a damaged edges.log"
grep -q "edges.log: 3 damaged lines ignored" "$WORK/err.log" || { cat "$WORK/err.log"; die "no warning for edges.log"; }
"$CUGEN" plan -S "$P" -B "$B" 2>/dev/null | grep -qi 'nan' && die "a nan reached the plan"
[ -z "$(build "$B")" ] || die "a damaged edges.log changed the graph"

note "a killed setup's temporaries are removed by the next setup"
: >"$B/build.ninja.tmp.AbC123"
: >"$B/.cugen/probe.ini.tmp.XyZ789"
: >"$B/notes.tmp.123456"
run "$CUGEN" setup -S "$P" -B "$B"
[ -e "$B/build.ninja.tmp.AbC123" ] && die "a stale build.ninja temporary stayed"
[ -e "$B/.cugen/probe.ini.tmp.XyZ789" ] && die "a stale probe.ini temporary stayed"
[ -e "$B/notes.tmp.123456" ] || die "a file that is not cugen's was removed"

note "profile --append on a project file that is a link: the link stays, its target is edited"
mkdir -p "$WORK/q"
cp "$P/k.cu" "$P/main.cpp" "$WORK/q/"
cp "$P/cugen.ini" "$WORK/real.ini"
ln -s "$WORK/real.ini" "$WORK/q/cugen.ini"
run "$CUGEN" profile ci --runner 2:8G --append -S "$WORK/q"
[ -L "$WORK/q/cugen.ini" ] || die "profile --append replaced the link with a file"
grep -q '^\[profile ci\]' "$WORK/real.ini" || die "the link's target did not get the profile"

note "a cache entry that is a link is never followed; --clear clears only a cache"
C="$WORK/cache"
mkdir -p "$WORK/outside"
echo keep >"$WORK/outside/0"
echo "0 0000" >"$WORK/outside/manifest"
run "$CUGEN" setup -S "$P" -B "$WORK/bc" -D toolchain.cache="$C"
build "$WORK/bc" >/dev/null
[ -f "$C/CACHEDIR.TAG" ] || die "the cache has no CACHEDIR.TAG"
n=0
for e in "$C"/??/*; do
	[ -d "$e" ] || continue
	rm -rf "$e"
	ln -s "$WORK/outside" "$e"
	n=$((n + 1))
done
[ $n -gt 0 ] || die "no cache entries"
rm -rf "$WORK/bc"
run "$CUGEN" setup -S "$P" -B "$WORK/bc" -D toolchain.cache="$C"
build "$WORK/bc" >/dev/null
"$WORK/bc/app" || die "the program failed after a build past linked entries"
[ "$(cat "$WORK/outside/0")" = keep ] || die "a linked entry's target was written"
[ -f "$WORK/outside/manifest" ] || die "a linked entry's target was removed"
mkdir -p "$WORK/notcache/ab"
echo data >"$WORK/notcache/ab/x"
"$CUGEN" cache --clear --dir "$WORK/notcache" >/dev/null 2>"$WORK/err.log" && die "cache --clear cleared a directory that is no cache"
[ -f "$WORK/notcache/ab/x" ] || die "cache --clear removed a file of a directory that is no cache"
run "$CUGEN" cache --clear --dir "$C"
[ -f "$WORK/outside/0" ] || die "cache --clear followed a link"
echo "untrusted: ok"
