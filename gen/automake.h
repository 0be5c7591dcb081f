/* automake.h -- `cugen setup --backend automake`: the cugen.mk fragment
 * an automake project includes from its Makefile.am. See automake.c. */
#ifndef CUGEN_AUTOMAKE_H
#define CUGEN_AUTOMAKE_H

#include "config.h"
#include "graph.h"

/* Write SRCDIR/cugen.mk for the project (atomically). */
gboolean automake_write(const Config *c, const Graph *g, GError **err);

#endif
