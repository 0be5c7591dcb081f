/* history.h -- what the last builds measured.
 *
 * Owns: reading BUILDDIR/.cugen/edges.log (written by `cugen exec`: per
 * step of each edge its peak RSS and CPU time) into per-edge figures, and
 * compacting the log to the latest run of each step. */
#ifndef CUGEN_HISTORY_H
#define CUGEN_HISTORY_H

#include <glib.h>

#include "speed.h"
#include "util.h"

typedef struct {
	double cpu;        /* seconds, summed over the edge's steps */
	double rss;        /* bytes, the largest step */
	double cpu_pre;    /* seconds of steps other than cicc and ptxas (a device
	                    * edge's preprocess) */
	double cpu_ptxas;  /* seconds of its ptxas steps */
} EdgeStat;

typedef struct {
	CgTable table;     /* first output -> EdgeStat (history.c) */
	GArray *stats;
	guint edges;       /* edges measured */
	guint lines;       /* lines read */
	char *data;        /* the log as read */
	GString *compact;  /* the log with only the latest line per (edge, step):
			    * setup stages it (and takes it) */
	/* the planner's last choices (BUILDDIR/.cugen/plan.ini): 1 or 0, -1
	 * unknown; a re-setup keeps them unless another is much better, so
	 * that new measurements do not change commands and rebuild */
	int syntax_stub, pp_edges, ptxas_edges, host_rank;
	/* the tail split (plan.h): its --split-compile (0 none, -1 unknown),
	 * its device edges' first outputs (NULL-terminated, or NULL), and
	 * whether it was weighed on guessed costs (no device compile
	 * measured yet: the next setup with measurements weighs it anew) */
	int tail_split;
	char **split_edges;
	gboolean split_guessed;
	/* the last setup's probe of the machine's speed (speed.h: its
	 * speed, CPU seconds and jobs; speed 0: none kept) */
	Speed speed;
	GThread *loading;  /* history_read_async's, until history_join */
	char *loading_dir;
} History;

History *history_load(const char *builddir);
/* The same into h (zeroed). */
void history_read(History *h, const char *builddir);
/* history_read on a thread of its own, into a new History: setup reads
 * the last build's log (some 300,000 lines at 10,000 TUs) while the
 * graph is lowered. Nothing in it may be read before history_join. */
History *history_read_async(const char *builddir);
/* Waits for history_read_async's thread (none: returns at once; h may
 * be NULL). */
void history_join(History *h);
/* Whether the build directory has no measurements at all (no edges.log,
 * or an empty one), known without waiting for history_join. */
gboolean history_none(const History *h);
void history_free(History *h);
const EdgeStat *history_get(const History *h, const char *output);
/* The same for an output whose length and cg_hash32 are known (the
 * graph's interned strings know theirs). */
const EdgeStat *history_get_hashed(const History *h, const char *output, gsize len, guint32 hash);
/* BUILDDIR/.cugen/plan.ini's text for these choices: to be staged. */
GString *history_choices(gboolean syntax_stub, gboolean pp_edges, gboolean ptxas_edges, int host_rank, int tail_split, GHashTable *split_edges,
			 gboolean split_guessed, const Speed *speed);
/* The log with only the latest line per (edge, step): to be staged
 * (history_read keeps the same in History.compact). */
GString *history_compact(const char *builddir);

#endif
