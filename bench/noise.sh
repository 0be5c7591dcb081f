#!/bin/sh
# bench/noise.sh -- how much one build's measured times vary from run to
# run: the spread plan.c's CHANGE_FLOOR (the least gain for which a
# re-setup changes a choice that changes commands) must exceed.
#
# Builds PROJECT (default examples/multi) ROUNDS times (default 5) from
# clean, each with LOAD CPU hogs beside it (default: one per core), and
# keeps each build's .cugen/edges.log; after each build `cugen plan`
# weighs its alternatives with that build's measurements. Prints per
# round the summed wall time of the device compiles and of all edges,
# the spread of those sums (max/min - 1), the median and 90th percentile
# of the per-edge spread, and, what the margin is about, the spread over
# the rounds of each alternative's expected time over the kept one's (a
# machine that is slower as a whole moves both alike).
#
# Environment: CUGEN (binary, default ./cugen), CUDA_PATH, NINJA, ROUNDS,
# LOAD, PROJECT.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
CUGEN=${CUGEN:-$here/cugen}
NINJA=${NINJA:-ninja}
ROUNDS=${ROUNDS:-5}
LOAD=${LOAD:-$(nproc)}
PROJECT=${PROJECT:-$here/examples/multi}
work=$(mktemp -d "${TMPDIR:-/tmp}/cugen-noise.XXXXXX")
hogs=
stop_hogs() { for p in $hogs; do kill "$p" 2>/dev/null || true; done; hogs=; }
trap 'stop_hogs; rm -rf "$work"' EXIT INT TERM
cp -R "$PROJECT/." "$work/p"
i=0
while [ "$i" -lt "$LOAD" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
r=1
while [ "$r" -le "$ROUNDS" ]; do
	rm -rf "$work/b"
	"$CUGEN" setup -S "$work/p" -B "$work/b" >/dev/null
	"$NINJA" -C "$work/b" >/dev/null
	"$CUGEN" plan -S "$work/p" -B "$work/b" 2>/dev/null |
		sed -n 's/^ *\(.*\): expected \([0-9.]*\) s (\(.*\): \([0-9.]*\) s.*/\1 | \3\t\2\t\4/p' >"$work/plan$r"
	# the latest line per edge and step
	awk -F'\t' '{ k = $1 "\t" $2; w[k] = $5 } END { for (k in w) print k "\t" w[k] }' \
		"$work/b/.cugen/edges.log" | sort >"$work/round$r"
	r=$((r + 1))
done
stop_hogs
echo "machine: $(nproc) cores, $LOAD CPU hogs; project: $PROJECT; $ROUNDS rounds"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	awk -F'\t' -v r="$r" '$2 == "cicc" || $2 == "ptxas" { d += $3 } { a += $3 }
		END { printf "round %d: device compiles %.2f s, all edges %.2f s\n", r, d, a }' "$work/round$r"
	r=$((r + 1))
done
cat "$work"/round* | awk -F'\t' '
	{ k = $1 "\t" $2; v = $3 + 0
	  if (!(k in lo) || v < lo[k]) lo[k] = v
	  if (!(k in hi) || v > hi[k]) hi[k] = v
	  if ($2 == "cicc" || $2 == "ptxas") dev[FILENAME] += v }
	END { n = 0
	  for (k in lo) if (lo[k] > 0.05) s[n++] = hi[k] / lo[k] - 1
	  # insertion sort: a few hundred edges
	  for (i = 1; i < n; i++) { x = s[i]; for (j = i - 1; j >= 0 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x }
	  if (n) printf "per-edge spread (edges over 0.05 s: %d): median %.0f%%, 90th percentile %.0f%%\n",
		n, 100 * s[int(n / 2)], 100 * s[int(n * 0.9)] }'
for r in $(seq 1 "$ROUNDS"); do
	awk -F'\t' '$2 == "cicc" || $2 == "ptxas" { d += $3 } END { print d }' "$work/round$r"
done | sort -n | awk '{ v[NR] = $1 } END { printf "spread of the device compiles sum: %.0f%%\n", 100 * (v[NR] / v[1] - 1) }'
# each alternative (the n-th weighing line of `cugen plan`, the same
# in every round): its expected time over the other way's, oriented as
# round 1 chose (a round that chose the other way counts inverted)
for r in $(seq 1 "$ROUNDS"); do cat "$work/plan$r"; echo "--"; done | awk -F'\t' '
	$0 == "--" { n = 0; next }
	{ n++; split($1, w, " [|] ")
	  if (!(n in name)) name[n] = w[1]
	  x = w[1] == name[n] ? $2 / $3 : $3 / $2
	  if (!(n in lo) || x < lo[n]) lo[n] = x
	  if (!(n in hi) || x > hi[n]) hi[n] = x
	  if (n > m) m = n }
	END { for (k = 1; k <= m; k++) printf "choice \"%s\": ratio %.3f .. %.3f, spread %.0f%%\n",
		name[k], lo[k], hi[k], 100 * (hi[k] / lo[k] - 1) }'
