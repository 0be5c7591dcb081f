/* shard.h -- building GPU archs on several machines and combining them.
 *
 * Owns: the shard spec (written at setup: which images this build makes,
 * from which inputs and with which rule), the shard manifest and images a
 * shard build leaves in BUILDDIR/shard (`cugen manifest`), the hashes that
 * tie an image to its inputs, and `cugen import` (an image of a shard
 * copied into a combine build after its checks). Made by shard.c (the
 * spec, the manifest's reading and checks) and run/manifest.c (`cugen
 * manifest` and `cugen import`, which build.ninja runs). `cugen combine`
 * itself is in combine.c. */
#ifndef CUGEN_SHARD_H
#define CUGEN_SHARD_H

#include "graph.h"
#include "relocate.h"
#include "toolkit.h"

#define SHARD_DIR "shard"
/* A spec's and a manifest's groups of rule texts: "[rule HASH]". */
#define SHARD_RULE_GROUP "rule "
#define SHARD_SPEC ".cugen/shard.spec"

/* What a spec records of its build besides the graph. */
typedef struct {
	Places places;        /* the project and build directories, absolute */
	const char *arch_set; /* the project's arch set (archset_describe) */
} ShardBuild;

/* The spec of the device images of a graph (to stage as
 * BUILDDIR/.cugen/shard.spec): the part of it from its edges [from, to),
 * with or without its header (setup writes it in parts, side by side).
 * edges are the graph's in the order they were made (Edge.serial), not
 * the plan's: setup may make the spec while the edges are ordered. Per
 * rule it holds the rule's layout-free text (shard_rule_text) under
 * [rule HASH]. */
GString *shard_spec_part(const GPtrArray *edges, const Toolkit *tk, const ShardBuild *b, guint from, guint to,
			 gboolean header);
/* A device edge's rule as shards compare it: its whole command
 * (reloc_rule_text: this cugen's path written "cugen", the build's and
 * the project's paths @BUILD@ and @SRC@); and the hash of such a text,
 * which the manifest records per image. */
char *shard_rule_text(const Rule *r, const char *cugen, const Places *p);
char *shard_rule_hash(const char *text);
/* What a device edge's shard image must hold: its files (outputs, then
 * the PTX a ptxas edge embeds), NULL-terminated, and its host stub. The
 * spec lists these; combine accepts nothing else. */
char **shard_image_files(const Edge *e);
char *shard_image_stub(const Edge *e);
/* A shard's manifest.ini (text, len bytes, no NUL needed after them; dir names the shard in
 * messages) into m: it must be UTF-8 with no NUL, of this format, and
 * name only paths below the build directory (cg_rel_ok). */
gboolean shard_manifest_load(GKeyFile *m, const char *text, gsize len, const char *dir, GError **err);
/* Whether a spec group's own name and its files are all below BUILDDIR
 * (`cugen manifest` checks each group before it copies). */
gboolean shard_spec_names_ok(GKeyFile *spec, const char *grp);
/* A spec group's (an image's) "deps" (its device preprocess's depfile),
 * "stub" (the host stub its arch's cicc wrote) or "id" (the TU's module
 * id file): beside the image, named by its arch (sm_80: 80.full.d,
 * 80.stub.c, id); NULL when that is no path below BUILDDIR. The spec
 * does not list them: a third of its 20 MB at 10,000 TUs. */
char *shard_spec_file(const char *grp, const char *arch, const char *what);
/* The manifest format this cugen writes and reads ([shard] format). */
#define SHARD_FORMAT "3"
/* sha256 of a file's bytes, cached; NULL if it cannot be read. */
const char *shard_file_hash(GHashTable *cache, const char *path);

#endif
