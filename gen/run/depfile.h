/* depfile.h -- make-style dependency files as gcc writes them.
 *
 * Owns: parsing and writing depfiles.
 */
#ifndef CUGEN_DEPFILE_H
#define CUGEN_DEPFILE_H

#include <glib.h>

/* The prerequisites of every rule in text (unescaped paths). */
GPtrArray *depfile_parse(const char *text);
/* "target: dep dep ..." with gcc's escaping. */
GString *depfile_format(const char *target, GPtrArray *deps);

#endif
