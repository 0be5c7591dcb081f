/* relocate.h -- names that do not depend on where the checkout and the
 * build directory are.
 *
 * Owns: `cugen srcnames` (a device preprocess's line markers rewritten to
 * project-relative names, and the names cicc's PTX records made relative
 * again), the layout-free text of a device rule that shards compare (paths
 * below the build and source directories written @BUILD@ and @SRC@), the
 * same for the input files a shard hashed, and the first word in which two
 * such texts differ, for combine's messages. */
#ifndef CUGEN_RELOCATE_H
#define CUGEN_RELOCATE_H

#include <glib.h>

/* The places a build's paths are relative to: absolute, normalised. */
typedef struct {
	const char *src;   /* the project directory */
	const char *build; /* the build directory (commands run there) */
} Places;

/* A path as a command or a depfile gives it (relative ones to p->build):
 * "@BUILD@/rest" below the build directory, "@SRC@/rest" below the
 * project, "@BUILD@/../../utils" for one elsewhere written relative (a
 * directory beside the project), else the absolute path itself. */
char *reloc_path(const char *path, const Places *p);
/* What follows dir in path ("" for dir itself), or NULL when path is not
 * below it; both absolute and normalised. */
const char *reloc_below(const char *path, const char *dir);
/* The other way: a name reloc_path gave, as a path here. */
char *reloc_local(const char *name, const Places *p);
/* A device rule's command without what depends on the layout: cugen's
 * own path as "cugen", every path word (and the path of -I, -isystem,
 * -L, ...) through reloc_path. Where the device code records the build
 * directory all the same (-lineinfo or -G without `cugen srcnames`, as
 * with absolute module ids, or --source-in-ptx), the text starts with
 * "build-directory=DIR". */
char *reloc_rule_text(const char *command, const char *cugen, const Places *p);
/* A name or word of reloc_path's for a message: "@SRC@/lib/a.cu" as
 * "lib/a.cu", @SRC@ elsewhere as "<project>" (-I<project>/include),
 * @BUILD@ as "<build>"; cut to 200 bytes. */
char *reloc_shown(const char *w);
/* Where two rule texts first differ, for "was built with ...": "'-O2'
 * where this build has '-O3'", or NULL when they are equal. */
char *reloc_first_difference(const char *theirs, const char *mine);

/* Whether a device compile's cicc words record source names (-lineinfo,
 * -G) and whether cugen can make them project-relative (not with
 * --source-in-ptx, which has cicc open the files by those names). */
gboolean reloc_records_names(GPtrArray *cicc);
gboolean reloc_can_rename(GPtrArray *cicc);

#endif
