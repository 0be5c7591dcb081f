#!/usr/bin/env python3
"""critpath.py BUILDDIR -- the last ninja run of BUILDDIR as it ran: its
wall time, its CPU-less critical path (the longest chain of edges through
the build graph, each weighted by the time it took in .ninja_log) and the
chain itself. The graph comes from `ninja -t graph` (every edge's inputs
and outputs), the times from .ninja_log (v5-v7), the last run only (a run
starts where end times go back). Prints one JSON object.

For comparing `cugen plan`'s prediction (critical_path_seconds,
estimate_seconds) with a real build: bench/RESULTS.md."""
import json
import re
import subprocess
import sys


def last_run(log):
    runs, cur, last_end = [], {}, -1
    for line in open(log, encoding="utf-8", errors="replace"):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) < 4:
            continue
        start, end, out = int(f[0]), int(f[1]), f[3]
        if end < last_end:
            runs.append(cur)
            cur = {}
        cur[out] = (start / 1000.0, end / 1000.0)
        last_end = end
    runs.append(cur)
    return runs[-1]


def graph(builddir):
    """{edge id: (input files, output files)} from `ninja -t graph`: rule
    nodes are ellipses (file -> rule [arrowhead=none], rule -> file); an
    edge of one input and one output is an arrow labelled with its rule."""
    dot = subprocess.run(["ninja", "-C", builddir, "-t", "graph"], capture_output=True, text=True,
                         check=True).stdout
    label, rule = {}, set()
    for m in re.finditer(r'^"(0x[0-9a-f]+)" \[label="(.*?)"(, shape=ellipse)?', dot, re.M):
        label[m.group(1)] = m.group(2)
        if m.group(3):
            rule.add(m.group(1))
    edges = {}
    for m in re.finditer(r'^"(0x[0-9a-f]+)" -> "(0x[0-9a-f]+)"(.*)$', dot, re.M):
        a, b, attrs = m.groups()
        if "label=" in attrs:
            if "phony" in attrs:
                continue
            edges[a + ">" + b] = ({label[a]}, {label[b]})
        elif b in rule:
            edges.setdefault(b, (set(), set()))[0].add(label[a])
        elif a in rule:
            edges.setdefault(a, (set(), set()))[1].add(label[b])
    return {e: io for e, io in edges.items() if label.get(e) != "phony"}


def main():
    b = sys.argv[1]
    times = last_run(b + "/.ninja_log")
    edges = graph(b)
    maker = {}
    for e, (i, o) in edges.items():
        for f in o:
            maker[f] = e
    dur = {}
    for e, (i, o) in edges.items():
        ts = [times[f] for f in o if f in times]
        if ts:
            dur[e] = max(t[1] for t in ts) - min(t[0] for t in ts)
    memo = {}

    def longest(e, depth=0):
        if e in memo:
            return memo[e]
        best, chain = 0.0, []
        for f in edges[e][0]:
            m = maker.get(f)
            if m and m != e and m in dur:
                t, c = longest(m, depth + 1)
                if t > best:
                    best, chain = t, c
        r = (best + dur.get(e, 0.0), chain + [e])
        memo[e] = r
        return r

    sys.setrecursionlimit(100000)
    best, chain = 0.0, []
    for e in dur:
        t, c = longest(e)
        if t > best:
            best, chain = t, c
    wall = max(t[1] for t in times.values()) - min(t[0] for t in times.values()) if times else 0
    print(json.dumps({
        "wall_seconds": round(wall, 2),
        "critical_path_seconds": round(best, 2),
        "edge_seconds": round(sum(dur.values()), 2),
        "chain": [{"out": sorted(edges[e][1])[0], "seconds": round(dur[e], 2)} for e in chain],
    }, indent=1))


main()
