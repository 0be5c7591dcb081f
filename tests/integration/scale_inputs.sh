# Setup is linear in what a project file holds: 200 targets in a diamond
# lattice of deps (each static library depends on the two before it: the
# walks over dependencies were exponential, 40 s at 200), 100,000
# sections (quadratic: 39 s) and 100,000 continuation lines (of archs;
# 13 s, and 77 s as defines). Each
# setup must finish within a generous bound, 60 s (the figures, about a
# second or less, go to bench/RESULTS.md); the lattice's link line must
# still hold every library once, dependents first.
. "$(dirname "$0")/lib.sh"
need_cuda
command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v timeout >/dev/null 2>&1 || skip "no timeout"

P="$WORK/p"
mkdir -p "$P"
: >"$P/k.cu"
python3 - "$P" <<'PY'
import sys, os
p = sys.argv[1]
with open(os.path.join(p, "lattice.ini"), "w") as f:
    f.write("[project]\nname = lattice\n[cuda]\narchs = 80\n")
    for i in range(200):
        open(os.path.join(p, "s%d.cpp" % i), "w").write("int f%d(void) { return %d; }\n" % (i, i))
        deps = ", ".join("t%d" % j for j in (i - 1, i - 2) if j >= 0)
        f.write("[target t%d]\ntype = static\nsources = s%d.cpp\ninclude = .\n" % (i, i))
        if deps:
            f.write("deps = %s\n" % deps)
    f.write("[target app]\ntype = executable\nsources = k.cu\ndeps = t199, t198\n")
with open(os.path.join(p, "sections.ini"), "w") as f:
    f.write("[project]\nname = s\n[target app]\ntype = executable\nsources = k.cu\n")
    for i in range(100000):
        f.write("[profile p%d]\njobs = 2\n" % i)
with open(os.path.join(p, "lines.ini"), "w") as f:
    f.write("[project]\nname = c\n[cuda]\narchs = 80\n")
    for i in range(100000):
        f.write("  80\n")
    f.write("[target app]\ntype = executable\nsources = k.cu\n")
PY
for f in lattice sections lines; do
	start=$(date +%s%N)
	timeout 60 "$CUGEN" setup -S "$P" -f "$P/$f.ini" -B "$WORK/b-$f" >"$WORK/$f.log" 2>&1 ||
		{ tail -3 "$WORK/$f.log"; die "setup of $f.ini failed or took over 60 s"; }
	echo "$f.ini: $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# the link line: each library once, every dependent before what it uses
grep '^build app:' "$WORK/b-lattice/build.ninja" >/dev/null || die "no link edge for app"
libs=$(sed -n '/^build app:/,/^$/p' "$WORK/b-lattice/build.ninja" | grep -o 'libt[0-9]*\.a' | awk '!seen[$0]++')
[ "$(printf '%s\n' "$libs" | wc -l)" -eq 200 ] || die "the link does not name the 200 libraries"
printf '%s\n' "$libs" | head -n 3 | tr '\n' ' ' | grep -q '^libt199.a libt198.a libt197.a ' ||
	die "libraries not dependents first: $(printf '%s\n' "$libs" | head -n 3 | tr '\n' ' ')"
echo "scale inputs: ok"
