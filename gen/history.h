/* history.h -- what the last builds measured.
 *
 * Owns: reading BUILDDIR/.cugen/edges.log (written by `cugen exec`: per
 * step of each edge its peak RSS and CPU time) into per-edge figures, and
 * compacting the log to the latest run of each step. */
#ifndef CUGEN_HISTORY_H
#define CUGEN_HISTORY_H

#include <glib.h>

typedef struct {
	double cpu;        /* seconds, summed over the edge's steps */
	double rss;        /* bytes, the largest step */
	double cpu_pre;    /* seconds of steps other than cicc and ptxas (a device
	                    * edge's preprocess) */
} EdgeStat;

typedef struct {
	GHashTable *edges; /* first output -> EdgeStat* */
	guint lines;       /* lines read */
	/* the planner's last choices (BUILDDIR/.cugen/plan.ini): 1 or 0, -1
	 * unknown; a re-setup keeps them unless another is much better, so
	 * that new measurements do not change commands and rebuild */
	int syntax_stub, pp_edges;
} History;

History *history_load(const char *builddir);
void history_free(History *h);
const EdgeStat *history_get(const History *h, const char *output);
/* BUILDDIR/.cugen/plan.ini's text for these choices: to be staged. */
GString *history_choices(gboolean syntax_stub, gboolean pp_edges);
/* The log with only the latest line per (edge, step): to be staged. */
GString *history_compact(const char *builddir);

#endif
