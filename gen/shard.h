/* shard.h -- building GPU archs on several machines and combining them.
 *
 * Owns: the shard spec (written at setup: which images this build makes,
 * from which inputs and with which rule), the shard manifest and images a
 * shard build leaves in BUILDDIR/shard (`cugen manifest`), the hashes that
 * tie an image to its inputs, and `cugen import` (an image of a shard
 * copied into a combine build after its checks). `cugen combine` itself is
 * in combine.c. */
#ifndef CUGEN_SHARD_H
#define CUGEN_SHARD_H

#include "graph.h"
#include "toolkit.h"

#define SHARD_DIR "shard"
#define SHARD_SPEC ".cugen/shard.spec"

/* The spec of the device images of g (to stage as BUILDDIR/.cugen/shard.spec):
 * the part of it from edges [from, to), with or without its header (setup
 * writes it in parts, side by side). */
GString *shard_spec_part(const Graph *g, const Toolkit *tk, guint from, guint to, gboolean header);
/* The hash that stands for a device edge's rule (its command, with this
 * cugen's own path written as "cugen"). */
char *shard_rule_hash(const Rule *r, const char *cugen);
/* What a device edge's shard image must hold: its files (outputs, then
 * the PTX a ptxas edge embeds), NULL-terminated, and its host stub. The
 * spec lists these; combine accepts nothing else. */
char **shard_image_files(const Edge *e);
char *shard_image_stub(const Edge *e);
/* A shard's manifest.ini (text, len bytes, no NUL needed after them; dir names the shard in
 * messages) into m: it must be UTF-8 with no NUL, of this format, and
 * name only paths below the build directory (cg_rel_ok). */
gboolean shard_manifest_load(GKeyFile *m, const char *text, gsize len, const char *dir, GError **err);
/* The manifest format this cugen writes and reads ([shard] format). */
#define SHARD_FORMAT "1"
/* sha256 of a file's bytes, cached; NULL if it cannot be read. */
const char *shard_file_hash(GHashTable *cache, const char *path);

#endif
