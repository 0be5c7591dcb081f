/* automake.h -- `cugen setup --backend automake`: the cugen.mk and
 * cugen-vars.mk fragments an automake project includes from its
 * Makefile.am files. See automake.c. */
#ifndef CUGEN_AUTOMAKE_H
#define CUGEN_AUTOMAKE_H

#include "config.h"
#include "graph.h"
#include "resolve.h"

/* Write SRCDIR/cugen.mk and SRCDIR/cugen-vars.mk for the project
 * (atomically, together). */
gboolean automake_write(const Config *c, const Resolved *r, const Graph *g, GError **err);

#endif
