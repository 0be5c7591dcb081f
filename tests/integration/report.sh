# report: `cugen report` errors and empty logs; then a real nvcc build of
# examples/saxpy for 2 archs, whose trace.json is checked against
# .ninja_log (every edge of the latest run exactly once, ts/dur equal to
# the log's times, no two events of one slot overlapping), whose
# report.html has one <rect class="bar ..."> per edge, and which an
# incremental rebuild narrows to the edges it ran; last, the page renders
# in headless Chromium to a non-blank screenshot (skipped, exit 77, when
# chromium is missing: everything else has run by then).
. "$(dirname "$0")/lib.sh"
# a private copy: build.ninja depends on the cugen binary it was written
# by, and a relink of the shared one must not regenerate this test's graph
cp "$CUGEN" "$WORK/cugen" || die "cannot copy $CUGEN"
CUGEN=$WORK/cugen

# expect STATUS CMD...: the exit status and, for errors, one line
# "cugen: error: ..." on stderr
expect() {
	want=$1
	shift
	"$@" >"$WORK/out" 2>"$WORK/err"
	st=$?
	[ "$st" -eq "$want" ] || { cat "$WORK/out" "$WORK/err"; die "$*: exit $st, expected $want"; }
	if [ "$want" -ne 0 ]; then
		[ "$(wc -l <"$WORK/err")" -eq 1 ] || { cat "$WORK/err"; die "$*: not one line on stderr"; }
		grep -q '^cugen: error: ' "$WORK/err" || { cat "$WORK/err"; die "$*: not 'cugen: error: '"; }
	fi
}

note "errors"
expect 1 "$CUGEN" report -B "$WORK/missing"
grep -q "build directory '$WORK/missing' does not exist" "$WORK/err" || die "no-build-dir message: $(cat "$WORK/err")"
mkdir -p "$WORK/e"
expect 1 "$CUGEN" report -B "$WORK/e"
grep -q '\.ninja_log: no such file; build first' "$WORK/err" || die "no-log message: $(cat "$WORK/err")"
printf '# ninja log v4\n0\t1\t0\tx\tab\n' >"$WORK/e/.ninja_log"
: >"$WORK/e/build.ninja"
expect 1 "$CUGEN" report -B "$WORK/e"
grep -q 'ninja log version 4 is not supported' "$WORK/err" || die "bad-version message: $(cat "$WORK/err")"
printf 'not a log\n' >"$WORK/e/.ninja_log"
expect 1 "$CUGEN" report -B "$WORK/e"
grep -q 'not a ninja log' "$WORK/err" || die "garbage message: $(cat "$WORK/err")"
printf '# ninja log v5\n' >"$WORK/e/.ninja_log"
rm "$WORK/e/build.ninja"
expect 1 "$CUGEN" report -B "$WORK/e"
grep -q 'build.ninja: no such file' "$WORK/err" || die "no-build.ninja message: $(cat "$WORK/err")"
[ ! -e "$WORK/e/report" ] || die "a failed report wrote files"
expect 2 "$CUGEN" report -B "$WORK/e" extra
expect 2 "$CUGEN" report --bogus
expect 0 "$CUGEN" report --help
grep -q '^  cugen report \[OPTION' "$WORK/out" && grep -q -- '-B, --build-dir=BUILDDIR' "$WORK/out" || die "report --help"

note "an empty log is not an error"
: >"$WORK/e/build.ninja"
for content in '' '# ninja log v7\n'; do
	printf "$content" >"$WORK/e/.ninja_log"
	expect 0 "$CUGEN" report -B "$WORK/e" -o "$WORK/e/out"
	grep -q 'no finished edges recorded yet' "$WORK/out" || die "empty-log summary: $(cat "$WORK/out")"
	[ -s "$WORK/e/out/trace.json" ] && [ -s "$WORK/e/out/report.html" ] || die "empty log: no files"
	! grep -q '"ph":"X"' "$WORK/e/out/trace.json" || die "empty log: events"
done

need_cuda
command -v python3 >/dev/null 2>&1 || skip "no python3"

# check LOG TRACE HTML: prints the number of edges and their kinds
check() {
	python3 - "$@" <<'PY' || die "report check failed"
import json, re, sys
log, trace, html = sys.argv[1:4]
lines = open(log).read().split("\n")
assert re.match(r"# ninja log v[567]$", lines[0]), lines[0]
entries = []
for l in lines[1:]:
    if not l or l.startswith("#"):
        continue
    s, e, _mtime, out, h = l.split("\t")
    entries.append((int(s), int(e), out, h))
# the latest run: after the last place where end times go back
first = 0
for i in range(1, len(entries)):
    if entries[i][1] < entries[i - 1][1]:
        first = i
edges = {}
for s, e, out, h in entries[first:]:
    edges.setdefault((s, e, h), []).append(out)
doc = json.load(open(trace))
ev = [x for x in doc["traceEvents"] if x["ph"] == "X"]
assert len(ev) == len(edges), "%d events, %d edges in the log" % (len(ev), len(edges))
seen = set()
for x in ev:
    outs = sorted(x["args"]["outputs"])
    keys = [k for k, v in edges.items() if sorted(v) == outs]
    assert len(keys) == 1, "event %s: %d matching edges" % (x["name"], len(keys))
    k = keys[0]
    assert k not in seen, "edge %s twice" % x["name"]
    seen.add(k)
    assert x["name"] in outs
    assert x["ts"] == k[0] * 1000 and x["dur"] == (k[1] - k[0]) * 1000, x
    assert x["pid"] == 1 and x["tid"] >= 1 and x["cat"] == x["args"]["kind"], x
slots = {}
for x in ev:
    slots.setdefault(x["tid"], []).append((x["ts"], x["ts"] + x["dur"]))
for tid, iv in slots.items():
    iv.sort()
    for a, b in zip(iv, iv[1:]):
        assert a[1] <= b[0], "slot %d: %s overlaps %s" % (tid, a, b)
last = max(ev, key=lambda x: x["ts"] + x["dur"])
assert last["args"]["critical"], "the last edge is not on the critical path"
page = open(html).read()
bars = len(re.findall(r'<rect class="bar ', page))
assert bars == len(ev), "%d bars for %d edges" % (bars, len(ev))
assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
print(len(ev), " ".join(sorted({x["cat"] + ("/" + x["args"]["arch"] if "arch" in x["args"] else "") for x in ev})))
PY
}

note "a full build of saxpy for sm_80 and sm_90"
copy_example saxpy "$WORK/p"
cd "$WORK/p" || exit 1
run "$CUGEN" setup -B build -D cuda.archs="80 90"
build build >/dev/null
state() { cksum build/build.ninja build/.ninja_log build/.ninja_deps build/compile_commands.json; }
before=$(state)
expect 0 "$CUGEN" report -B build
[ "$(state)" = "$before" ] || die "cugen report changed the build directory"
cat "$WORK/out"
grep -q '^cugen report: saxpy: build/.ninja_log (ninja log v[567]): the latest of 1 run' "$WORK/out" || die "summary header"
grep -q '^  critical path ' "$WORK/out" || die "no critical path in the summary"
grep -q '^  sm_80 ' "$WORK/out" && grep -q '^  sm_90 ' "$WORK/out" || die "per-arch lines missing"
[ -s build/report/trace.json ] && [ -s build/report/report.html ] || die "no report files"
got=$(check build/.ninja_log build/report/trace.json build/report/report.html)
echo "edges: $got"
for k in fe dev/sm_80 dev/sm_90 host fatbin link; do
	case " ${got#* } " in *" $k "*) ;; *) die "no $k edge in the trace: $got" ;; esac
done
ran=$(build build)
[ -z "$ran" ] || die "ninja has work after cugen report: $ran"

note "an incremental build: only its edges"
sleep 1
touch main.cpp
build build >/dev/null
expect 0 "$CUGEN" report -B build -o "$WORK/r2"
got=$(check build/.ninja_log "$WORK/r2/trace.json" "$WORK/r2/report.html")
[ "$got" = "2 cxx link" ] || die "incremental report: $got"
grep -q 'the latest of 2 runs, 2 edges' "$WORK/out" || die "incremental summary: $(head -n 1 "$WORK/out")"

note "a run that only regenerated build.ninja is passed over"
sleep 1
printf '\n' >>cugen.ini
ran=$(build build)
case $ran in *egenerat*) ;; *) die "touching cugen.ini did not regenerate: $ran" ;; esac
expect 0 "$CUGEN" report -B build -o "$WORK/r3"
grep -q '^cugen report: saxpy: build/.ninja_log (ninja log v[567]): the latest build of 3 runs (the 1 after it only regenerated the build files), 2 edges' "$WORK/out" ||
	die "regeneration-only run: $(head -n 1 "$WORK/out")"
grep -q '<title>cugen report: saxpy</title>' "$WORK/r3/report.html" || die "the page's title is not the project"

note "pp and ptxas edges: every edge has a kind; the critical path is the longest chain"
printf '\n[profile wide]\njobs = 16\nmemory = 32G\n' >>cugen.ini
run "$CUGEN" setup -B wide --profile wide -D cuda.archs="80 90"
grep -q '^rule cuda_pp_' wide/build.ninja && grep -q '^rule cuda_cicc_' wide/build.ninja ||
	die "the 16-job plan has no pp or cicc edges: $(grep '^rule' wide/build.ninja | tr '\n' ' ')"
build wide >/dev/null
expect 0 "$CUGEN" report -B wide
grep -q '^  dev-pp ' "$WORK/out" && grep -q '^  dev-cicc ' "$WORK/out" || die "no dev-pp or dev-cicc kind: $(cat "$WORK/out")"
grep -q '^  other ' "$WORK/out" && die "an edge of cugen's is 'other': $(cat "$WORK/out")"
grep -q '^per TU' "$WORK/out" && grep -q 'saxpy.cu (saxpy): ' "$WORK/out" || die "no per-TU table: $(cat "$WORK/out")"
for o in $(python3 -c 'import json,sys; print(" ".join(x["name"] for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"] == "X"))' wide/report/trace.json); do
	printf '%s\n' "== $o"
	"${NINJA:-ninja}" -C wide -t query "$o"
done >"$WORK/query.txt" || die "ninja -t query failed"
python3 - "$WORK/query.txt" wide/report/trace.json "$WORK/out" <<'PY' || die "the critical path is not the longest chain"
import json, re, sys
query, trace, summary = sys.argv[1:4]
ev = {x["name"]: x for x in json.load(open(trace))["traceEvents"] if x["ph"] == "X"}
of = {}  # output -> event name
for n, x in ev.items():
    for o in x["args"]["outputs"]:
        of[o] = n
inputs, cur, section = {}, None, None
for line in open(query).read().split("\n"):
    if line.startswith("== "):
        cur = line[3:]
        inputs[cur] = []
    elif line.startswith("  input:"):
        section = "in"
    elif line.startswith("  outputs:"):
        section = "out"
    elif line.startswith("    ") and section == "in":
        inputs[cur].append(line.strip().lstrip("|").strip())
# ninja -t query names phony inputs as they are; go through them with -t query again? the
# edges of this graph take files, so a name not made by an event is a source
dur = {n: x["dur"] for n, x in ev.items()}
start = {n: x["ts"] for n, x in ev.items()}
memo = {}
def chain(n):
    if n not in memo:
        best = 0
        for i in inputs.get(n, []):
            p = of.get(i)
            if p and p != n and start[p] + dur[p] <= start[n]:
                best = max(best, chain(p))
        memo[n] = dur[n] + best
    return memo[n]
longest = max(chain(n) for n in ev)
crit = [n for n, x in ev.items() if x["args"]["critical"]]
got = sum(dur[n] for n in crit)
assert got == longest, "critical path %d us, longest chain %d us" % (got, longest)
m = re.search(r"critical path +([0-9.]+) s", open(summary).read())
assert m and abs(float(m.group(1)) * 1e6 - longest) < 1000, (m and m.group(1), longest)
print("critical path = longest chain: %.3f s in %d edges" % (longest / 1e6, len(crit)))
PY

note "the page renders"
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || skip "no chromium (apt-get install chromium); the other checks passed"
profile=$(mktemp -d "$WORK/chromium.XXXXXX")
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --screenshot="$WORK/shot.png" --window-size=1400,900 \
	"file://$WORK/p/build/report/report.html" >"$WORK/chromium.log" 2>&1 ||
	{ tail -n 20 "$WORK/chromium.log"; die "chromium failed"; }
[ -f "$WORK/shot.png" ] || { tail -n 20 "$WORK/chromium.log"; die "no screenshot"; }
python3 - "$WORK/shot.png" <<'PY' || die "the screenshot looks blank"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _c, _f, interlace = hdr
assert depth == 8 and ctype in (2, 6) and not interlace, hdr
bpp = 4 if ctype == 6 else 3
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
nonwhite = coloured = 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        if min(r, g, bl) < 235:
            nonwhite += 1
        if max(r, g, bl) - min(r, g, bl) > 60:
            coloured += 1
    prev = line
print("%dx%d: %d non-white, %d coloured pixels" % (w, h, nonwhite, coloured))
assert nonwhite > 10000 and coloured > 5000
PY
echo ok
