#!/bin/sh
# layout.sh -- the source tree keeps the shape a newcomer can read: the
# sources in gen/STAGE/ (one folder per stage of a setup, and gen/run/,
# what build.ninja runs), each folder named in doc/hacking.md's map with
# exactly its files, no file over 800 lines, no two files of the same
# name, no circle in which modules include each other (X_int.h belongs
# to module X), every file opens with a comment saying what it owns, and
# getenv() reads only the variables cugen(1) documents.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
python3 - "$SRC" <<'PY' || die "the source layout"
import os, re, sys
src = sys.argv[1]
gen = os.path.join(src, "gen")
dirs = sorted(d for d in os.listdir(gen) if os.path.isdir(os.path.join(gen, d)))
where = {}
bad = []
for f in os.listdir(gen):
    if f.endswith((".c", ".h")):
        bad.append("gen/%s: outside the stage folders" % f)
hacking = open(os.path.join(src, "doc", "hacking.md")).read()
for d in dirs:
    # the map: a row naming `gen/DIR/` and each of its files
    row = [l for l in hacking.splitlines() if "`gen/%s/`" % d in l]
    if not row:
        bad.append("gen/%s/: not in doc/hacking.md's map" % d)
    for f in os.listdir(os.path.join(gen, d)):
        if f.endswith((".c", ".h")):
            if f in where:
                bad.append("%s: in two folders (one obj/ for all)" % f)
            where[f] = os.path.join(gen, d, f)
            if f.endswith(".c") and row and "`%s`" % f not in "".join(row):
                bad.append("gen/%s/%s: not on its folder's row of doc/hacking.md" % (d, f))
files = sorted(where)
for f in files:
    text = open(where[f]).read()
    n = text.count("\n")
    if f.endswith(".c") and n > 800:
        bad.append("%s: %d lines (800 at most)" % (f, n))
    if not text.startswith("/* " + f + " -- "):
        bad.append("%s: does not open with '/* %s -- what it owns'" % (f, f))
def mod(name):
    m = name.rsplit(".", 1)[0]
    return m[:-4] if m.endswith("_int") else m
graph = {}
for f in files:
    for inc in re.findall(r'#include "([a-z_]+)\.h"', open(where[f]).read()):
        if mod(inc + ".h") != mod(f):
            graph.setdefault(mod(f), set()).add(mod(inc + ".h"))
state = {}
def visit(v, path):
    state[v] = 1
    for w in sorted(graph.get(v, ())):
        if state.get(w) == 1:
            bad.append("include circle: " + " -> ".join(path[path.index(w):] + [w]))
        elif w not in state:
            visit(w, path + [w])
    state[v] = 2
for v in sorted(graph):
    if v not in state:
        visit(v, [v])
man = open(os.path.join(src, "doc", "cugen.1")).read()
for f in files:
    for var in re.findall(r'getenv\("([A-Z_]+)"\)', open(where[f]).read()):
        if not re.search(r'\.B[R]? ' + var + r'\b', man) and var + " " not in man and not re.search(r'\b' + var + r'\b', man):
            bad.append("%s: getenv(\"%s\") is not in cugen(1)" % (f, var))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
echo ok
