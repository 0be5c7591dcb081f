/* plan.h -- parallelism for a graph on a machine.
 *
 * Owns: the expected cost (CPU seconds) and peak memory of every edge
 * (learned from the last build's edges.log, else defaults), the critical
 * path, the choices the graph depends on (where the host stub comes from,
 * device preprocesses as edges of their own, nvcc --threads and
 * --split-compile in split = tu, --split-compile for the device compiles
 * at the end of the build: the tail split), the ninja pools (compile or
 * device and host, link) and their depths, a simulation of ninja running
 * the graph (cugen plan --trace writes it), the order of edges in build.ninja
 * (ninja 1.11 starts ready edges in file order: whichever order simulates
 * shortest), and the reasons for all of it. Made by plan.c, cost.c,
 * simulate.c and shardplan.c (plan_int.h says which owns what). */
#ifndef CUGEN_PLAN_H
#define CUGEN_PLAN_H

#include "config.h"
#include "edges.h"
#include "graph.h"
#include "history.h"
#include "machine.h"
#include "planknobs.h"
#include "speed.h"

/* Seconds as the plan shows them, for "%.*f": a tenth below 10 s (a
 * small project's choices differ by less than a second), whole above. */
#define PLAN_SECS(t) ((t) < 9.95 ? 1 : 0), (double)(t)
#define PLAN_SHOWN(t) ((t) < 9.95 ? round((t) * 10) / 10 : round(t))

/* The planner's graph: the chosen graph's edges with their estimates
 * (plan_int.h). */
typedef struct PlanGraph PlanGraph;

typedef struct {
	int cores;
	const char *cores_from;
	guint64 memory;
	const char *memory_from;
	int device, host, link;          /* pool depths */
	gboolean shared;                 /* device and host compiles share pool compile (depth device) */
	double peak_memory;              /* expected, bytes, all pools full */
	gboolean depth_first;            /* ninja >= 1.12: ready edges by depth, then file order */
	char ninja_version[32];          /* of the ninja on PATH, or empty */
	double mem_device, mem_host, mem_link; /* expected peak per job, bytes */
	const char *mem_from;            /* measured / default / job_memory */
	Grouping chosen;                 /* the grouping built (its split_edges owned here) */
	gboolean whole_device;           /* in: never ptxas edges (SetupArgs.whole_device) */
	gboolean no_rank;                /* in: never host_rank (not the ninja backend, host_rank = no) */
	gboolean no_syntax_stub;         /* in: never the syntax-only stub (syntax_stub = no) */
	gboolean no_pp_edges;            /* in: never pp edges (pp_edges = no) */
	gboolean may_group;              /* in: the graph may be small enough to weigh its groupings
	                                  * (edges_may_group): each lowered as a candidate */
	Speed speed;                     /* in: the machine's speed where given (the profile,
	                                  * CUGEN_SPEED, a runner's), else 0: the build
	                                  * directory's last, else probed when a cost is guessed
	                                  * (out: the speed guesses were scaled by, if any) */
	const char *trace;               /* in: write the simulated build here (plan --trace) */
	const char *trace_costs;         /* in: ... with the costs measured in this build directory */
	void (*made)(Graph *g, gpointer data); /* in: called with the graph to write once its edges
	                                  * and rules are final, before they are ordered (only a
	                                  * graph of more than SIM_EDGES, where no groupings are
	                                  * weighed: plan_make no longer fails then); it may read
	                                  * them on a thread while the plan is made */
	gpointer made_data;
	gboolean rank_considered;        /* the planner weighed host_rank */
	gboolean tail_considered;        /* the planner weighed a tail split */
	gboolean tail_guessed;           /* ... on guessed costs (no device compile measured) */
	double work;                     /* expected CPU seconds, all edges */
	double critical_path;            /* expected seconds */
	double estimate;                 /* expected wall seconds */
	guint measured;                  /* edges with a measurement */
	guint dev_measured;              /* ... of them device compiles */
	guint edges;                     /* edges with a cost */
	int recommended_j;
	GPtrArray *why;                  /* one line per decision */
	struct TuScanner *scanner;       /* the first plan's look at the TUs (tuscan.h) */
	GHashTable *scans;               /* project-relative source -> TuScan* (guess.c) */
	GThread *scan_thread;            /* scanning every CUDA TU while the graph is lowered,
	                                  * when nothing was measured (guess.c) */
	GHashTable *scan_tus;            /* project-relative path -> its CUDA TU (guess.c) */
	GHashTable *scan_target_dirs;    /* Target* -> the directories its TUs' #includes are
	                                  * looked for in (guess.c) */
	const Resolved *scan_resolved;   /* the project the plan is made for (its targets' -I) */
	GPtrArray *scan_dirs;            /* char*: the toolkit's and the host compiler's include
	                                  * directories (guess.c) */
	char *scan_implicit;             /* the toolkit's cuda_runtime.h */
	guint scanned;                   /* edges whose cost came from their TU's scan */
	PlanGraph *costed;               /* the graph plan_make returned, with its estimates
	                                  * (plan_arch_costs, plan_time_check read them) */
} Plan;

/* (PLAN_GROUP_EDGES, the most edges for which the planner weighs
 * groupings: planknobs.h) */

/* Decide the grouping, its order and pools: where p->may_group each
 * set of choices weighed is r lowered as a candidate (edges_lower's
 * plan_only), and the one chosen is lowered once more with its rules;
 * else r is lowered once. h is joined (history_join) once the first
 * graph is made: it may be read on a thread meanwhile. Returns the graph
 * to write (info its facts), ordered, with its pools. */
Graph *plan_make(const Config *c, const Machine *m, History *h, const Resolved *r, const EdgeInputs *in,
		 GraphInfo *info, Plan *p, GError **err);
/* Waits for what the plan still runs (the TU scan's thread), so that
 * the rest may be left to the process's exit. */
void plan_settle(Plan *p);
void plan_clear(Plan *p);
/* The profile's nvcc --split-compile for every device compile: 0 when the
 * planner chooses (auto) or [cuda] reproducible = yes. */
int plan_profile_split_compile(const Config *c);

/* The device compile work of each arch built (the planned graph's device
 * edges' expected costs, summed), costliest first. */
typedef struct {
	char *arch;      /* "sm_90" */
	double cost;     /* seconds */
	guint edges;     /* its device edges */
	guint measured;  /* ... whose cost was measured in the last build */
} ArchCost;
GArray *plan_arch_costs(const Plan *p);
void plan_arch_costs_free(GArray *costs);
/* Where those costs came from, for cugen ci and cugen profile: "measured
 * in the last build", "guessed from each TU's text: nothing measured yet"
 * or "N of M device compiles measured in the last build, the rest
 * guessed" (of the archs named in the space-separated list archs, or all
 * where it is NULL: "80 90", as plan_balance gives them). */
char *plan_costs_source(const GArray *costs, const char *archs);
/* Split the archs into n shards, costliest arch first to the shard with
 * the least work so far. Per shard: its arch ids ("80 90") in archs, its
 * work in load (n entries). */
void plan_balance(GArray *costs, int n, char **archs, double *load);

/* Where an edge's estimate came from: its own measurement in the last
 * build, the median of its kind's measured edges (an added arch, a new
 * TU), a scan of its TU's text (tuscan.h), or the default table
 * (cost.c). */
typedef enum { EST_NONE, EST_MEASURED, EST_KIND, EST_SCAN, EST_DEFAULT } EstimateFrom;
typedef struct {
	double cost;        /* expected CPU seconds */
	double memory;      /* expected peak bytes */
	int split;          /* the tail split's --split-compile for it, or 0 */
	EstimateFrom from;
} EdgeEstimate;
/* What the planner expects of an edge of the graph plan_make returned
 * (`cugen plan -v`). FALSE for an edge it did not cost. */
gboolean plan_edge_estimate(const Plan *p, const Edge *e, EdgeEstimate *est);
const char *plan_estimate_from(EstimateFrom f);
/* What the scan saw of each CUDA TU it was asked of, sorted: "SRC: CUB/Thrust,
 * ..." (tuscan_describe); an empty array when nothing was scanned. */
GPtrArray *plan_scans(const Plan *p);

/* Will the build fit a CI job's time limit? */
typedef struct {
	double limit;           /* the profile's time_limit, seconds */
	int cores;
	double estimate;        /* wall seconds for the whole build on cores */
	guint timed, edges;     /* edges timed by .ninja_log, of all */
	int shards;             /* 0: fits; N: the fewest shards that fit; -1: none do */
	double shard_estimate;  /* the longest shard job, with that many shards */
	double combine_estimate;/* the combine job */
	int archs;              /* archs built */
	int want;               /* the shards asked for (at most archs; 0: none asked) */
	double want_shard_estimate; /* the longest shard job with that many */
} TimeCheck;
/* Estimates the planned build's wall time on the plan's cores from the durations
 * in builddir/.ninja_log (each output's latest; the planner's estimates
 * for edges the log lacks), and the fewest shards whose jobs (the front
 * ends and their archs' device compiles) and combine job (the rest) each
 * fit in 90% of the limit; with want > 0 also the longest job of that
 * many shards and the combine job's estimate. */
void plan_time_check(const Plan *p, const char *builddir, double limit, int want, TimeCheck *tc);
/* One line for a check that does not fit, or NULL. */
char *plan_time_warning(const TimeCheck *tc, const char *profile, const char *runner);

#endif
