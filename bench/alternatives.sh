#!/bin/sh
# bench/alternatives.sh -- what each of the planner's alternatives is
# worth in real builds: a bench/gen workload built with the planner free
# ("free") and with one alternative left out (each MODE of MODES, as its
# profile key: no-pp-edges is pp_edges = no),
# side by side in rounds (each round in the other order: the machine may
# drift), a first build (nothing measured) and a rebuild from clean
# planned from it. A table row per build: wall and CPU seconds, the
# ratio of the build's wall time to the free one's of the same round and
# build, and the choices it made (.cugen/plan.ini).
#
# An alternative that no workload shows 3% faster than the build without
# it is not worth its code (issue 26).
#
# Environment: CUGEN (binary), WORKLOAD (default A), ROUNDS (default 2),
# FIRST_ROUND (default 1; 2 starts with the other order: a machine's
# time limit per command may allow one round at a time),
# MODES (default "no-syntax-stub no-pp-edges"), REBUILD (default 1: also
# the rebuild), OUTDIR (default bench/out/alternatives), NINJA.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${CUGEN:?}"
: "${WORKLOAD:=A}"
: "${ROUNDS:=2}"
: "${FIRST_ROUND:=1}"
: "${MODES:=no-syntax-stub no-pp-edges}"
: "${REBUILD:=1}"
: "${OUTDIR:=$here/out/alternatives}"
: "${NINJA:=ninja}"
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR"
cc -O2 -o "$OUTDIR/rsswatch" "$here/rsswatch.c"
sh "$here/gen" "$WORKLOAD" "$OUTDIR/src" >/dev/null

measure() { # builddir -> "wall cpu"
	"$OUTDIR/rsswatch" "$OUTDIR/m.txt" "$NINJA" -C "$1" >"$OUTDIR/build.log" 2>&1 ||
		{ tail -30 "$OUTDIR/build.log"; echo "alternatives: the build in $1 failed" >&2; exit 1; }
	awk '{ printf "%.2f %.2f", $1, $2 }' "$OUTDIR/m.txt"
}
choices() { # builddir
	sed -n 's/^\(syntax_stub\|pp_edges\|ptxas_edges\|host_rank\|split_compile\)=\(.*\)/\1=\2/p' \
		"$1/.cugen/plan.ini" | tr '\n' ' '
}
setup() { # builddir mode
	if [ "$2" = free ]; then
		"$CUGEN" setup -S "$OUTDIR/src" -B "$1" >/dev/null
	else
		# no-pp-edges: the profile key pp_edges = no, in a profile of its own
		key=$(echo "${2#no-}" | tr - _)
		"$CUGEN" setup -S "$OUTDIR/src" -B "$1" --profile alt -D "profile.alt.$key=no" >/dev/null
	fi
}

echo "workload $WORKLOAD, $(nproc) cores ($(uname -n)), $(date -u '+%Y-%m-%d %H:%M UTC'), ninja $("$NINJA" --version), $("$CUGEN" --version 2>/dev/null | head -1)"
echo
echo "| round | build | mode | wall s | CPU s | wall / free's | choices |"
echo "|---|---|---|---|---|---|---|"
r=$FIRST_ROUND
while [ "$r" -lt $((FIRST_ROUND + ROUNDS)) ]; do
	list="free $MODES"
	[ $((r % 2)) = 1 ] || list=$(echo "$list" | tr ' ' '\n' | awk '{ v[NR] = $0 } END { for (i = NR; i; i--) printf "%s ", v[i] }')
	for m in $list; do
		b=$OUTDIR/b-$m
		rm -rf "$b"
		setup "$b" "$m"
		set -- $(measure "$b")
		echo "$1 $2 $(choices "$b")" >"$OUTDIR/first-$m"
		if [ "$REBUILD" = 1 ]; then
			setup "$b" "$m"
			"$NINJA" -C "$b" -t clean >/dev/null
			set -- $(measure "$b")
			echo "$1 $2 $(choices "$b")" >"$OUTDIR/rebuild-$m"
		fi
	done
	for build in first rebuild; do
		[ "$build" = first ] || [ "$REBUILD" = 1 ] || continue
		free=$(awk '{ print $1 }' "$OUTDIR/$build-free")
		for m in free $MODES; do
			read -r wall cpu rest <"$OUTDIR/$build-$m"
			echo "| $r | $build | $m | $wall | $cpu | $(awk -v a="$wall" -v b="$free" 'BEGIN { printf "%.3f", a / b }') | $rest |"
		done
	done
	r=$((r + 1))
done
