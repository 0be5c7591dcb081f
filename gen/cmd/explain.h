/* explain.h -- `cugen setup -d explain`: which commands a re-setup
 * changes, and how. See explain.c. */
#ifndef CUGEN_EXPLAIN_H
#define CUGEN_EXPLAIN_H

#include "edges.h"
#include "graph.h"
#include "history.h"
#include "options.h"

/* The graph of the build file the last setup wrote in builddir (its
 * rules and edges; kinds are not known: EK_CXX, or EK_PHONY), with the
 * file read in *file; NULL when there is none. */
Graph *explain_read(const char *builddir, char **file);
/* On standard error: the -D's set or dropped (-U, --reset, the kept ones and all of
 * this setup's: a), the planner's choices that changed (h: the last
 * setup's), the commands of now that differ from old's, by how, and the
 * edges new and gone. old NULL: says there was no earlier setup. */
void explain_print(const Graph *old, const char *file, const Graph *now, const History *h, const Grouping *ch,
		   const SetupArgs *a);

#endif
