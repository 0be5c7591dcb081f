/* plan_int.h -- what the planner's files share; not for other modules
 * (they use plan.h).
 *
 * The files: cost.c (each edge's expected CPU seconds and peak memory,
 * from the last build's measurements or the defaults), simulate.c
 * (critical path, edge order, the simulation of ninja running the graph,
 * the trace), plan.c (the choices, pools and their reasons: plan_make)
 * and shardplan.c (per-arch costs, shard balancing, CI time limits).
 */
#ifndef CUGEN_PLAN_INT_H
#define CUGEN_PLAN_INT_H

#include <stdio.h>

#include "plan.h"

#define GiB 1073741824.0

/* An edge with its rank for ordering (simulate.c's sort). */
typedef struct {
	Edge *e;
	double level;
	gboolean last;        /* phony and regen edges go after the others */
} Ranked;

/* cost.c */
gboolean pl_ptxas_only(const Edge *e);
void pl_set_costs(Graph *g, const History *h, const Config *c, const GraphInfo *info,
		      int threads, gboolean pp, Plan *p);

/* simulate.c */
void pl_bottom_levels(Graph *g, double *cpl, double *work);
void pl_sort_ranked(Ranked *v, guint n);
void pl_order_edges(Graph *g, int defer, GRand *noise);
int pl_pool_of(const Edge *e);
double pl_simulate(Graph *g, const Plan *p, int threads, double *start, FILE *trace);
double pl_order_best(Graph *g, const Plan *p, int threads, double amp, const char **how);
void pl_write_trace(Graph *g, const Plan *p, const Config *c, const GraphInfo *info, int threads);

#endif
