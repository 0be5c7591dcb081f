/* automake.h -- `cugen setup --backend automake`: the cugen.mk fragment
 * an automake project includes from its Makefile.am. See automake.c. */
#ifndef CUGEN_AUTOMAKE_H
#define CUGEN_AUTOMAKE_H

#include "setup.h"

/* Write SRCDIR/cugen.mk for the project (atomically). */
gboolean automake_write(Generated *gen, GError **err);

#endif
