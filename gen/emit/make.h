/* make.h -- writing the graph as a GNU Make Makefile.
 *
 * Owns: make's escaping (and refusing paths make cannot express), the
 * Makefile's layout (grouped targets for edges with several outputs,
 * -include of every depfile, the regeneration rule, phony targets, clean)
 * and the pool limits through `cugen slot` (make has no pools). */
#ifndef CUGEN_MAKE_H
#define CUGEN_MAKE_H

#include "graph.h"

/* NULL (and err) when a path cannot be written for make. */
GString *make_write(const Graph *g, const char *header, const char *cugen, GError **err);

#endif
