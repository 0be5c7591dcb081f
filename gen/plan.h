/* plan.h -- parallelism for a graph on a machine.
 *
 * Owns: the expected cost (CPU seconds) and peak memory of every edge
 * (learned from the last build's edges.log, else defaults), the critical
 * path, the choices the graph depends on (where the host stub comes from,
 * nvcc --threads and --split-compile in split = tu), the ninja pools
 * (device, host, link) and their depths, the order of edges in
 * build.ninja (longest remaining chain first: ninja 1.11 starts ready
 * edges in file order), and the reasons for all of it. */
#ifndef CUGEN_PLAN_H
#define CUGEN_PLAN_H

#include "config.h"
#include "edges.h"
#include "graph.h"
#include "history.h"
#include "machine.h"

typedef struct {
	int cores;
	const char *cores_from;
	guint64 memory;
	const char *memory_from;
	int device, host, link;          /* pool depths */
	double mem_device, mem_host, mem_link; /* expected peak per job, bytes */
	const char *mem_from;            /* measured / default / job_memory */
	int threads, split_compile;      /* as built */
	gboolean syntax_stub;
	double work;                     /* expected CPU seconds, all edges */
	double critical_path;            /* expected seconds */
	double estimate;                 /* expected wall seconds */
	guint measured;                  /* edges with a measurement */
	guint edges;                     /* edges with a cost */
	int recommended_j;
	GPtrArray *why;                  /* one line per decision */
} Plan;

/* Builds the graph for a set of planner choices (the caller's closure). */
typedef Graph *(*GraphBuilder)(void *data, const EdgeOptions *choices, GraphInfo *info, GError **err);

/* Decide, build the chosen graph, size its pools and order its edges. */
Graph *plan_make(const Config *c, const Machine *m, const History *h,
		 GraphBuilder build, void *data, GraphInfo *info, Plan *p, GError **err);
void plan_clear(Plan *p);
/* Bytes from "7G", "512M", "1.5GiB", "2048" (bytes). */
guint64 plan_parse_size(const char *s);

#endif
