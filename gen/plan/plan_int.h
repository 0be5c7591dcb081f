/* plan_int.h -- what the planner's files share; not for other modules
 * (they use plan.h).
 *
 * Owns: the planner's view of a graph (PlanGraph: each edge's estimates
 * and the simulation's scratch, which the graph's edges do not carry).
 * The files: cost.c (each edge's expected CPU seconds and peak memory,
 * from the last build's measurements or the defaults), guess.c and
 * tuscan.c (before anything is measured: each CUDA TU's costs from a
 * scan of its text), simulate.c (the
 * PlanGraph, critical path, edge order, the simulation of ninja running
 * the graph, the trace), pools.c (the pools' depths), plan.c (the
 * choices and their reasons: plan_make) and shardplan.c (per-arch
 * costs, shard balancing, CI time limits). Every number they decide by
 * is in planknobs.h.
 */
#ifndef CUGEN_PLAN_INT_H
#define CUGEN_PLAN_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "plan.h"
#include "toolkit.h"

#define GiB 1073741824.0

/* How a simulation varies the estimates (planknobs.h's spread): each
 * edge by up to edge, each TU's edges together by up to tu, averaged
 * over samples runs. NULL: as estimated. */
typedef struct {
	double edge, tu;
	int samples;
} Spread;

/* What the planner knows of one edge: its estimates, its annotation and
 * the simulation's scratch. The graph's edges carry none of it. */
typedef struct PlanNode PlanNode;
struct PlanNode {
	Edge *e;
	double cost;          /* expected CPU seconds (cost.c) */
	double memory;        /* expected peak bytes (cost.c) */
	EstimateFrom from;    /* where cost and memory came from (cost.c) */
	double level;         /* cost of the longest chain from here (pl_bottom_levels) */
	int split;            /* the --split-compile weighed for it (plan.c's tail
	                       * split, an annotation; 0: its rule's) */
	PlanNode **succ;      /* the edges that use an output (nsucc) */
	guint nsucc;
	guint npred;          /* inputs made by other edges */
	int pending;          /* simulation scratch */
	guint index;          /* its position in the graph's edges, in a walk */
};

/* A graph as the planner sees it: a node per edge, by Edge.serial (the
 * order edges_lower made them: 0 .. n-1), and the walk order of
 * its bottom levels, made on the first pl_bottom_levels and kept (the
 * graph's shape does not change). */
struct PlanGraph {
	Graph *g;
	gboolean owns;        /* pg_free frees g too */
	PlanNode *node;
	guint n;
	PlanNode **topo;      /* users before producers, once walked */
	guint ntopo;          /* n, unless the graph has a cycle */
	PlanNode **succ_store;/* every node's succ, end to end */
};

PlanGraph *pg_new(Graph *g, gboolean owns);
/* A copy of pg (estimates and walk; the same graph, not owned). */
PlanGraph *pg_copy(const PlanGraph *pg);
void pg_free(PlanGraph *pg);
static inline PlanNode *pg_node(const PlanGraph *pg, const Edge *e)
{
	return &pg->node[e->serial];
}

/* An edge with its rank for ordering (simulate.c's sort). */
typedef struct {
	PlanNode *n;
	double level;
	gboolean last;        /* phony and regen edges go after the others */
} Ranked;

/* One line for `cugen plan`. */
static inline void pl_why(Plan *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static inline void pl_why(Plan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_ptr_array_add(p->why, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

/* pools.c: the pools' depths (p->device, host, link, shared) and the
 * rules' pools; with announce, the pools go into the graph and the
 * reasons into the plan */
void pl_size_pools(PlanGraph *pg, Plan *p, int dev_threads, gboolean announce);

/* cost.c */
gboolean pl_ptxas_only(const Edge *e);
/* Before anything of its kind is measured: a CUDA TU's edge's CPU
 * seconds and peak bytes from its TU's scan (guess.c), *cpu without the
 * device preprocess of an edge that runs cicc (*pre: that preprocess);
 * FALSE for an edge of no CUDA TU. */
/* Where a TU's headers are: its target's -I directories (r's) and the
 * system's, the toolkit's include directories and the host compiler's
 * as its installation lays them out (guess.c). */
void pl_guess_init(Plan *p, const Resolved *r);
/* Scans every CUDA TU of c on a thread (a build directory with nothing
 * measured: each will be asked for), joined by pl_guess_join, which the
 * first pl_guess does. */
void pl_guess_prefetch(Plan *p, const Config *c);
void pl_guess_join(Plan *p);
/* How many of the TUs scanned (*tus) reach CUB, Thrust, CUTLASS or CuTe. */
guint pl_scans_heavy(const Plan *p, guint *tus);
gboolean pl_guess(Plan *p, const Config *c, const Edge *e, int archs, int threads, double *cpu, double *rss,
		  double *pre);
void pl_set_costs(PlanGraph *pg, const History *h, const Config *c, const GraphInfo *info,
		      int threads, gboolean pp, Plan *p);

/* simulate.c */
void pl_bottom_levels(PlanGraph *pg, double *cpl, double *work);
void pl_sort_ranked(Ranked *v, guint n);
void pl_order_edges(PlanGraph *pg, int defer, GRand *noise);
int pl_pool_of(const Edge *e);
double pl_simulate(PlanGraph *pg, const Plan *p, int threads, double *start, FILE *trace);
double pl_order_best(PlanGraph *pg, const Plan *p, int threads, const Spread *sp, const char **how);
void pl_write_trace(PlanGraph *pg, const Plan *p, const Config *c, const GraphInfo *info, int threads);

#endif
