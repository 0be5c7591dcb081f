/* statefile.h -- cugen's own state files in BUILDDIR/.cugen, sealed.
 *
 * Owns: the first line of probe.ini, plan.ini, args.ini and shard.spec,
 * "# cugen STATE KIND 1 sha256=HASH", HASH the hash of the rest of the
 * file; and reading them back: a file whose seal does not match (edited,
 * cut short, garbled) is ignored with one warning line and rebuilt by the
 * next setup, and one without a seal (an older cugen's, or not cugen's)
 * is ignored silently. A FIFO, a device or a file over 256 MiB is never
 * read. */
#ifndef CUGEN_STATEFILE_H
#define CUGEN_STATEFILE_H

#include <glib.h>

/* body with the seal line put in front (body is consumed). */
GString *state_seal(const char *kind, GString *body);
/* The same with body's SHA-256 summed already (sum fed exactly body, in
 * pieces as they were made). */
GString *state_seal_summed(const char *kind, GString *body, GChecksum *sum);

/* The body of the state file at path when its seal holds, else NULL
 * (after a warning naming path when it was damaged). */
char *state_read(const char *path, const char *kind, gsize *len);

/* The same into a GKeyFile; FALSE (k left empty) when not intact. */
gboolean state_load_keyfile(GKeyFile *k, const char *path, const char *kind);

#endif
