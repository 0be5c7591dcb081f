# The tail split (split_compile = auto, the default): with device
# compiles measured long (a synthetic edges.log: 60 s each) and 16 cores,
# cores idle at the end, so the planner gives the device compiles whose chains end last
# nvcc --split-compile 4 (cicc -split-compile 4, ptxas
# -split-compile=4), says so in cugen plan (text and JSON) and records the
# set in .cugen/plan.ini. The build works with the real toolkit and gives
# the same images (kind and arch) as a build without it; the shard spec
# marks the split images and keeps the rule hash of the unsplit rule. A
# re-setup keeps the set and reruns no device compile, also when the
# edges turn out short; `tail` (its older word) plans the same. With split_compile =
# 0, on 2 cores, or where it would save under 2 s (1 s device compiles),
# no split; a split taken on guessed costs (a TU whose text reads heavy)
# is dropped once a build measured short device compiles, and kept for
# long ones.
# cugen plan --trace writes the simulated build, edge by edge. The planner
# may run cicc and ptxas as edges of their own (ptxas edges): a split
# then covers both, and counts once (by the image). The planner sees a
# ninja 1.11 (file order): from 1.12 it picks other sets.
. "$(dirname "$0")/lib.sh"
need_cuda
pin_ninja 1.11.1
multi_project
add_profile wide 16
add_profile tailword 16 split_compile=tail
add_profile nosplit 16 split_compile=0
add_profile two 2
add_profile eight 8

history() { # builddir device-seconds [fe-host-seconds [TU]]: appended to edges.log (its latest line per step counts)
	# (a ptxas edge's image gets a tenth of it as ptxas; with TU, only
	# that TU's device compiles take device-seconds, the others 1 s)
	"$NINJA" -C "$1" -t targets all | awk -F': ' -v dev="$2" -v other="${3:-}" -v only="${4:-}" '
		{ d = only == "" || index($1, only) ? dev : 1 }
		$2 ~ /^cuda_(dev|cicc)_/ { printf "%s\tcicc\t100000\t%s\t%s\n", $1, d, d }
		$2 ~ /^cuda_ptxas_/ { printf "%s\tptxas\t100000\t%s\t%s\n", $1, d / 10, d / 10 }
		other != "" && $2 ~ /^cuda_(host|fe)/ { printf "%s\tgcc\t100000\t%s\t%s\n", $1, other, other }' >>"$1/.cugen/edges.log"
}
split_lines() { # builddir -> the build lines of split device rules (by image: not a ptxas edge's cicc edge)
	grep -E '^build [^:]*: cuda_(dev|ptxas)_[0-9a-z]*_split4 ' "$1/build.ninja"
}

note "60 s device compiles on 16 cores: the last ones get --split-compile 4"
run "$CUGEN" setup -B w --profile wide
history w 60 5
rm -f w/.cugen/plan.ini
"$CUGEN" setup -B w --profile wide >summary.txt 2>&1 || { cat summary.txt; die "setup failed"; }
"$CUGEN" plan -B w --profile wide >plan.txt || die "cugen plan failed"
grep -q '^  nvcc --split-compile 4 for the [0-9]* device compiles whose chains end last' plan.txt ||
	{ cat plan.txt; die "cugen plan does not say it splits"; }
n=$(split_lines w | wc -l)
[ "$n" -ge 1 ] || die "no device edge uses a split rule"
grep -q "^  nvcc --split-compile 4 for the $n device compiles" plan.txt || { cat plan.txt; die "plan names another count than build.ninja's $n"; }
grep -q ", $n device edges with --split-compile 4 (their code differs from plain nvcc's; reproducible = yes keeps it)," summary.txt ||
	{ cat summary.txt; die "the summary line does not say that $n edges' code differs from plain nvcc's"; }
note "[cuda] reproducible = yes: no split, whatever the profile"
"$CUGEN" setup -B r --profile wide -D cuda.reproducible=yes >summary.txt 2>&1 || { cat summary.txt; die "setup failed"; }
cp w/.cugen/edges.log r/.cugen/ 2>/dev/null || { mkdir -p r/.cugen && cp w/.cugen/edges.log r/.cugen/; }
"$CUGEN" setup -B r --profile wide -D cuda.reproducible=yes >summary.txt 2>&1 || { cat summary.txt; die "setup failed"; }
grep -q '_split' r/build.ninja && die "reproducible = yes: a split rule"
grep -q 'split-compile' summary.txt && die "reproducible = yes: the summary talks of a split"
if grep -q '^rule cuda_ptxas_[0-9]*_split4$' w/build.ninja; then
	grep -A1 '^rule cuda_cicc_[0-9]*_split4$' w/build.ninja | grep -q 'cicc -split-compile 4 ' &&
		grep -A1 '^rule cuda_ptxas_[0-9]*_split4$' w/build.ninja | grep -q 'ptxas -split-compile=4 ' ||
		die "a split pair of rules does not pass -split-compile to cicc and ptxas"
	for img in $(split_lines w | sed 's/^build \([^:]*\):.*/\1/'); do
		ptx=$(echo "$img" | sed 's|/sm_\([0-9a-z]*\)\.cubin$|/compute_\1.ptx|')
		grep -q "^build $ptx: cuda_cicc_[0-9a-z]*_split4 " w/build.ninja || die "$img is split, its cicc edge not"
	done
else
	grep -A1 '^rule cuda_dev_[0-9]*_split4$' w/build.ninja | grep -q 'cicc -split-compile 4 .*/ptxas -split-compile=4 ' ||
		die "a split rule does not pass -split-compile to cicc and ptxas"
fi
"$CUGEN" plan -B w --profile wide --json >plan.json || die "cugen plan --json failed"
python3 - plan.json w/.cugen/plan.ini "$n" <<'EOF' || die "plan JSON or plan.ini disagree with build.ninja"
import json, re, sys
t = json.load(open(sys.argv[1]))['tail_split']
assert t == {'split_compile': 4, 'edges': int(sys.argv[3])}, t
ini = open(sys.argv[2]).read()
assert re.search(r'^split_compile=4$', ini, re.M), ini
edges = re.search(r'^split_edges=(.*)$', ini, re.M).group(1).rstrip(';').split(';')
assert len(edges) == int(sys.argv[3]), edges
EOF
for e in $(sed -n 's/^split_edges=//p' w/.cugen/plan.ini | tr ';' ' '); do
	split_lines w | grep -q "^build $e[ :]" || die "plan.ini names $e, build.ninja does not split it"
done

note "the build works and gives the images a build without the split gives"
build w >/dev/null
run "$CUGEN" setup -B n --profile nosplit
grep -q '_split' n/build.ninja && die "split_compile = 0: a split rule"
"$CUGEN" plan -B n --profile nosplit | grep -q 'split-compile' && die "split_compile = 0: plan talks of a split"
build n >/dev/null
for tu in arch scan symbols transform; do
	images "w/obj/multi/lib/$tu.cu.o" | awk '{ print $1, $2 }' >a.txt
	images "n/obj/multi/lib/$tu.cu.o" | awk '{ print $1, $2 }' >b.txt
	[ -s a.txt ] && cmp -s a.txt b.txt || { diff a.txt b.txt; die "$tu.cu: other images with the split"; }
done

note "the shard spec marks split images and keeps the unsplit rule's hash"
first=$(split_lines w | head -1 | sed 's/^build \([^:]*\):.*/\1/')
sec() { sed -n "/^\[$(echo "$2" | sed 's|/|\\/|g')\]/,/^\[/p" "$1/.cugen/shard.spec"; }
sec w "$first" | grep -q '^split_compile=4$' || { sec w "$first"; die "the spec does not mark $first"; }
sec n "$first" | grep -q '^split_compile' && die "the spec marks $first without a split"
h1=$(sec w "$first" | sed -n 's/^rule=//p')
h2=$(sec n "$first" | sed -n 's/^rule=//p')
[ -n "$h1" ] && [ "$h1" = "$h2" ] || die "rule hashes differ: '$h1' '$h2'"

note "a re-setup keeps the set and reruns no device compile (the build's own measurements, then short edges)"
sed -n 's/^split_edges=//p' w/.cugen/plan.ini >set.before
for dev in measured 0.5; do
	[ "$dev" = measured ] || history w "$dev"
	run "$CUGEN" setup -B w --profile wide
	sed -n 's/^split_edges=//p' w/.cugen/plan.ini | cmp -s - set.before || die "$dev: the set in plan.ini changed"
	[ "$(split_lines w | wc -l)" = "$n" ] || die "$dev: the split rules changed"
	# (the stub's source may switch with the measurements: 3% and 2 s)
	ran=$(build w | grep '^CUDA \(sm_\|compute_\|cicc \)' || true)
	[ -z "$ran" ] || die "$dev: a re-setup made ninja rerun device compiles: $ran"
done

note "split_compile = tail, the same history: the same split"
run "$CUGEN" setup -B a --profile tailword
history a 60 5
rm -f a/.cugen/plan.ini
run "$CUGEN" setup -B a --profile tailword
[ "$(split_lines a | wc -l)" = "$n" ] || die "split_compile = tail: not the $n split rules of auto"
sed -n 's/^split_edges=//p' a/.cugen/plan.ini | cmp -s - set.before || die "split_compile = tail: another set than auto's"

note "1 s device compiles: a split would save under 2 s, none"
run "$CUGEN" setup -B s --profile wide
history s 1 0.5
rm -f s/.cugen/plan.ini
run "$CUGEN" setup -B s --profile wide
grep -q '_split' s/build.ninja && die "1 s device compiles: a split rule"
"$CUGEN" plan -B s --profile wide >plan.txt || die "cugen plan failed"
grep -q '^  no --split-compile for the device compiles whose chains end last' plan.txt ||
	{ cat plan.txt; die "1 s device compiles: plan does not say it weighed the split"; }
grep -q '^split_compile=0$' s/.cugen/plan.ini || die "1 s device compiles: plan.ini does not record no split"

note "a split taken on guessed costs is weighed anew once they are measured"
# (guessed: nothing measured, each TU's text read. A block nvcc never
# sees, #if 0, makes scan.cu a heavy CUB TU to the first plan's scan:
# 8 types x a radix sort and a sum, some 9 s of cicc an arch. Whole
# device edges: with ptxas edges the guesses take no split here)
cat >>lib/scan.cu <<'EOF'
#if 0
#define TYPES(X) X(char) X(short) X(int) X(long) X(float) X(double) X(unsigned) X(unsigned long)
template <typename T> void sort_keys(T *a, T *b, int n) { cub::DeviceRadixSort::SortKeys(nullptr, n, a, b, n); }
template <typename T> void sum(T *a, T *b, int n) { cub::DeviceReduce::Sum(nullptr, n, a, b, n); }
#define INSTANTIATE(T) template void sort_keys<T>(T *, T *, int); template void sum<T>(T *, T *, int);
TYPES(INSTANTIATE)
#endif
EOF
run "$CUGEN" setup -B g --profile eight -D profile.eight.ptxas_edges=no
[ "$(split_lines g | wc -l)" -ge 1 ] || { "$CUGEN" plan -B g --profile eight -D profile.eight.ptxas_edges=no; die "8 cores, the default costs: no split"; }
grep -q '^split_guessed=true$' g/.cugen/plan.ini || die "a split on guessed costs not marked so in plan.ini"
history g 1 0.5
run "$CUGEN" setup -B g --profile eight -D profile.eight.ptxas_edges=no
grep -q '_split' g/build.ninja && die "measured 1 s device compiles: the guessed split stayed"
grep -q '^split_compile=0$' g/.cugen/plan.ini || die "measured: plan.ini does not record no split"
grep -q '^split_guessed' g/.cugen/plan.ini && die "measured: plan.ini still says guessed"
run "$CUGEN" setup -B k --profile eight -D profile.eight.ptxas_edges=no
sed -n 's/^split_edges=//p' k/.cugen/plan.ini >set.guessed
history k 60 5 scan.cu
run "$CUGEN" setup -B k --profile eight -D profile.eight.ptxas_edges=no
sed -n 's/^split_edges=//p' k/.cugen/plan.ini | cmp -s - set.guessed || die "measured 60 s device compiles of the heavy TU: the guessed split changed"
grep -q '^split_guessed' k/.cugen/plan.ini && die "measured 60 s: plan.ini still says guessed"

note "plan --trace writes the simulated build (with --costs, with a build's costs)"
"$CUGEN" plan -B w --profile wide --trace "$WORK/trace.txt" --costs w >/dev/null || die "cugen plan with a trace failed"
python3 - "$WORK/trace.txt" <<'EOF' || die "the trace is not a simulated build"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith('# costs from w: '), lines[0]
starts = [l.split()[3] for l in lines if l.startswith('start ')]
ends = {l.split()[3]: float(l.split()[1]) for l in lines if l.startswith('end ')}
assert len(starts) >= 20 and sorted(starts) == sorted(ends), (len(starts), len(ends))
m = re.match(r'# ([0-9.]+) s simulated$', lines[-1])
assert m and abs(float(m.group(1)) - max(ends.values())) < 0.02, (lines[-1], max(ends.values()))
EOF

note "2 cores: no split weighed, none recorded"
run "$CUGEN" setup -B t --profile two
grep -q '_split' t/build.ninja && die "2 cores: a split rule"
grep -q '^split_compile' t/.cugen/plan.ini && die "2 cores: plan.ini records a split choice"
echo ok
