/* spawn.h -- running an external program with a time and an output bound.
 *
 * Owns: every short run of another program whose output setup reads (nvcc
 * --dryrun and probes, the host compiler's version, ninja --version and
 * -t deps, nvidia-smi): a program that hangs is killed (with its process
 * group) after CUGEN_TOOL_TIMEOUT seconds (default 300), one that prints
 * more than CUGEN_TOOL_OUTPUT bytes (default 64M) is killed as soon as it
 * passes that; either gives one error line naming the program and the
 * limit. Builds themselves (ninja running the graph) are not bounded. */
#ifndef CUGEN_SPAWN_H
#define CUGEN_SPAWN_H

#include <glib.h>

/* Like g_spawn_sync: argv run in cwd (NULL: here), stdin /dev/null; flags
 * may hold G_SPAWN_SEARCH_PATH and G_SPAWN_STDERR_TO_DEV_NULL. out and
 * errout (each may be NULL: discarded) get what it printed, wstatus its
 * wait status. FALSE with err when it could not run, or ran past a
 * bound (then it was killed). */
gboolean cg_spawn_bounded(const char *cwd, const char *const *argv, GSpawnFlags flags, char **out,
			  char **errout, int *wstatus, GError **err);

/* The bounds (for messages and docs): seconds and bytes. */
double cg_spawn_timeout(void);
gsize cg_spawn_output_max(void);

#endif
