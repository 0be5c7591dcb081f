/* gate.h -- build.ninja as a gate over the full graph, for large projects.
 *
 * Owns: the two-level layout ([project] gate), the outer build.ninja
 * (one gate edge whose inputs are the project's sources and, through a
 * depfile, every header the last build read; the regeneration edge; each
 * named target forwarded), the `cugen gate` command that runs ninja on the
 * full graph (BUILDDIR/.cugen/full.ninja, its logs in .cugen/full/) and
 * writes that depfile from the full graph's deps log, and where the full
 * graph's manifest and log are for `cugen report` and `cugen plan`.
 *
 * Why: a no-op ninja run stats and checks every edge; per-arch edges make
 * ten or more per CUDA TU where CMake has one. The gate makes a no-op as
 * cheap as one edge over the project's inputs (bench/RESULTS.md, scale).
 */
#ifndef CUGEN_GATE_H
#define CUGEN_GATE_H

#include "config.h"
#include "graph.h"

/* The gate's stamp and depfile (gate.c's edge, run/gaterun.c writes them). */
#define GATE_STAMP ".cugen/gate.stamp"
#define GATE_DEPFILE ".cugen/gate.d"
#define GATE_FULL ".cugen/full.ninja"
#define GATE_FULL_DIR ".cugen/full"
/* gate = auto turns the gate on from this many edges */
#define GATE_AUTO_EDGES 10000u

gboolean gate_wanted(const Config *c, guint real_edges);
/* The outer build.ninja for g (the full graph). */
GString *gate_outer(const Graph *g, const char *header, const char *cugen, GError **err);
/* Is builddir gated? Then the full graph's manifest and .ninja_log are
 * GATE_FULL and GATE_LOG, else build.ninja and .ninja_log. */
gboolean gate_on(const char *builddir);
#define GATE_LOG GATE_FULL_DIR "/.ninja_log"

#endif
