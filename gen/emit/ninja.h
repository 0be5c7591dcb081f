/* ninja.h -- writing the graph as build.ninja, and compile_commands.json.
 *
 * Owns: ninja's escaping rules ($ , $:, $$; newlines refused), the layout
 * of build.ninja (header from templates/ninja-header.in, pools, rules,
 * edges, defaults) and the JSON compilation database.
 */
#ifndef CUGEN_NINJA_H
#define CUGEN_NINJA_H

#include "graph.h"

/* NULL (and err) when a path cannot be written in ninja syntax. INNER:
 * the full graph behind a gate (gate.h), whose logs are in the directory
 * INNER and which leaves regeneration to the gate's build.ninja; or NULL. */
GString *ninja_write(const Graph *g, const char *header, const char *inner, GError **err);
GString *compdb_write(const Graph *g, const char *builddir);

#endif
