# A graph large enough for setup's threads (from 20,000 edges the build
# file is written in two halves; files of 1 MiB and more are compared with
# the old ones side by side): ninja reads every edge exactly once, a
# second setup writes the same bytes and leaves unchanged files alone,
# and a changed file is rewritten.
. "$(dirname "$0")/lib.sh"
need_cuda

P="$WORK/p"
sh "$SRC/bench/scale/gen" 2000 "$P" >/dev/null || die "bench/scale/gen failed"
b="$WORK/b"
run "$CUGEN" setup -S "$P" -B "$b" -D project.gate=no
edges=$(sed -n 's/.*, \([0-9]*\) edges, .*/\1/p' "$WORK/run.log")
[ -n "$edges" ] && [ "$edges" -ge 20000 ] || { cat "$WORK/run.log"; die "expected 20,000 edges or more, got '$edges'"; }
[ -f "$b/.cugen/full.ninja" ] && die "gate = no wrote a full graph"
[ "$(wc -c <"$b/build.ninja")" -ge 1048576 ] || die "build.ninja is under 1 MiB: the threaded comparison is not tested"

note "ninja plans every edge once"
"$NINJA" -C "$b" -n >"$WORK/dry.log" 2>&1 || { tail "$WORK/dry.log"; die "ninja -n failed"; }
total=$(sed -n 's/^\[[0-9]*\/\([0-9]*\)\].*/\1/p' "$WORK/dry.log" | tail -1)
# the regeneration edge does not run in a dry run of an up-to-date setup
[ "$total" = "$edges" ] || [ "$total" = "$((edges - 1))" ] || die "ninja would run $total edges of $edges"
dups=$(grep '^build ' "$b/build.ninja" | sort | uniq -d | head -3)
[ -z "$dups" ] || die "repeated build statements: $dups"

note "a second setup writes the same bytes and keeps the files' times"
cp -p "$b/build.ninja" "$b/.cugen/shard.spec" "$b/compile_commands.json" "$WORK/"
sleep 1
run "$CUGEN" setup -S "$P" -B "$b" -D project.gate=no
for f in build.ninja .cugen/shard.spec compile_commands.json; do
	cmp -s "$b/$f" "$WORK/$(basename "$f")" || die "$f changed"
done
for f in .cugen/shard.spec compile_commands.json; do
	[ "$b/$f" -nt "$WORK/$(basename "$f")" ] && die "$f was rewritten with the same content"
done

note "the gated graph: the same statements in .cugen/full.ninja"
g="$WORK/g"
run "$CUGEN" setup -S "$P" -B "$g"
[ -f "$g/.cugen/full.ninja" ] || die "no gate from 20,000 edges (gate = auto)"
# (the regeneration edge is the gate's, outside the full graph)
grep '^build ' "$b/build.ninja" | grep -v '^build build.ninja: regen \|^build [a-z]*: cugen_[a-z]*' | sort >"$WORK/plain.builds"
grep -q '^build install: cugen_install all$' "$g/build.ninja" || die "the gate's build.ninja has no install target"
grep '^build ' "$g/.cugen/full.ninja" | sort >"$WORK/full.builds"
cmp -s "$WORK/plain.builds" "$WORK/full.builds" || { diff "$WORK/plain.builds" "$WORK/full.builds" | head; die "the full graph's statements differ"; }

note "a changed file is rewritten"
echo '# edited' >>"$b/.cugen/shard.spec"
run "$CUGEN" setup -S "$P" -B "$b" -D project.gate=no
cmp -s "$b/.cugen/shard.spec" "$WORK/shard.spec" || die "the edited shard spec was not rewritten"
rm -rf "$WORK"
