/* edges.h -- turning the resolved project into build edges.
 *
 * Owns: the per-arch CUDA recipe as graph edges: the steps nvcc --dryrun
 * prints for all archs at once, cut into a front end (host preprocess and
 * cudafe++), a device compile per arch, the fatbinary and the host
 * compile (fe, dev per arch, fatbin, host, embed), the split = tu fallback (one nvcc -c per TU),
 * host C/C++ compiles, archives, links, phony targets (each target,
 * arch-sm_XX, all), compile_commands.json entries and file naming under
 * BUILDDIR/obj. Made by edges.c, ruletext.c, recipe.c, tuedges.c and link.c
 * (edges_int.h says which owns what).
 */
#ifndef CUGEN_EDGES_H
#define CUGEN_EDGES_H

#include "arch.h"
#include "config.h"
#include "graph.h"
#include "resolve.h"
#include "toolkit.h"

/* What every graph of one setup is built with: setup's, the same for
 * each grouping the planner weighs. */
typedef struct {
	const char *cugen;      /* absolute path of this program */
	GPtrArray *regen_args;  /* arguments for `cugen setup` on regeneration */
} EdgeInputs;

/* The planner's choices (plan.c): how nvcc's steps are grouped into
 * edges, and the flags that spread a compile over cores. */
typedef struct {
	gboolean syntax_stub;   /* host stub from a cicc --device-syntax-only edge */
	int threads;            /* split = tu: nvcc --threads (0: none) */
	int split_compile;      /* nvcc --split-compile (0: none) */
	gboolean pp_edges;      /* device preprocess as its own edge (not with the cache) */
	gboolean ptxas_edges;   /* ptxas as its own edge after a cicc edge (not with the
	                         * cache, nor for LTO images or PTX-only archs) */
	/* the device edges (by first output) whose cicc and ptxas run with
	 * --split-compile tail_split: the planner's choice for the edges that
	 * run while cores would otherwise idle at the end (not with the cache,
	 * nor for LTO images) */
	GHashTable *split_edges;
	int tail_split;
	/* two stamp edges (EK_RANK) between each host compile and its fatbin
	 * edge: ninja >= 1.12 starts ready edges by the number of edges
	 * between them and the end, and would otherwise start every ready
	 * device compile before a host compile, the longest single job */
	gboolean host_rank;
} Grouping;

/* Facts about the graph for the summary line and `cugen plan`. */
typedef struct {
	guint cuda_tus, host_tus, targets;
	guint split_tu_targets;    /* targets built with one nvcc per TU */
	guint device_archs;        /* most archs built for one TU */
	char *archs;               /* the archs built, e.g. "sm_80 sm_90 compute_90" */
	/* targets that fell back to one nvcc per TU, in threes: the name,
	 * the flag to blame (or ""), and why ("nvcc --dryrun: ...") */
	GPtrArray *fallbacks;
	/* device compiles whose line info (-lineinfo, -G) names files
	 * project-relative, not as plain nvcc's would (recipe.c) */
	gboolean relative_names;
	/* CUDA TUs whose module ids cugen seeds (resolve_seed) */
	gboolean seeded_ids;
} GraphInfo;

/* The one lowering: the graph for one grouping, from what resolve.c
 * found (read, not changed). Each CUDA TU's nvcc steps (the dry run's)
 * are cut into edges as gr says, and only here (tuedges.c). With
 * plan_only the graph is a candidate the planner weighs: the same edges
 * in the same order, whose CUDA rules carry what the planner reads (pool
 * kind, tail split, stub copy) and no command, and no
 * compile_commands.json entries; without, the graph setup writes. */
Graph *edges_lower(const Resolved *r, const EdgeInputs *in, const Grouping *gr, gboolean plan_only, GraphInfo *info,
		   GError **err);
/* edges_lower's graph to write (plan_only FALSE). */
Graph *edges_build(const Resolved *r, const EdgeInputs *in, const Grouping *gr, GraphInfo *info, GError **err);
void graph_info_clear(GraphInfo *info);
/* Whether r's graph may have at most limit edges with the planner's
 * fewest: its CUDA TUs built per arch (none per TU), each with at least
 * a front end, a fatbin, a stub, a host compile and a device edge per
 * arch, and a compile per C/C++ TU (a lower bound: the planner weighs
 * groupings only where it may). FALSE without CUDA
 * TUs. */
gboolean edges_may_group(const Resolved *r, guint limit);

#endif
