/* plan.h -- parallelism for a graph on a machine.
 *
 * Owns: the ninja pools (device, host, link) and their depths, and the
 * reasons given for them in build.ninja and `cugen plan`. */
#ifndef CUGEN_PLAN_H
#define CUGEN_PLAN_H

#include "config.h"
#include "graph.h"
#include "machine.h"

typedef struct {
	int jobs;              /* total concurrent jobs */
	const char *jobs_from;
	int device, host, link;
} Plan;

gboolean plan_make(Graph *g, const Config *c, const Machine *m, Plan *p, GError **err);

#endif
