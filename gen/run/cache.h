/* cache.h -- cugen's compile cache for device edges, per arch.
 *
 * Owns: the cache directory's layout (DIR/xx/KEY/ with the files and a
 * manifest of their hashes; DIR/stats; DIR/lock), keys (the hash of the
 * device preprocess's output and of everything else that decides the
 * code: the rule, the arch, the toolkit and the host compiler), the
 * direct mode that skips the preprocessors (fe and device edges keyed by
 * their command and source, with a manifest of the headers they read),
 * lookups that verify what they copy out, atomic stores, least-recently-
 * used eviction beyond a size limit, and `cugen cache`. */
#ifndef CUGEN_CACHE_H
#define CUGEN_CACHE_H

#include <glib.h>

/* The cache directory: [toolchain] cache, else $CUGEN_CACHE_DIR, else
 * NULL (off). Relative paths are relative to the project. */
char *cache_dir(const char *configured, const char *srcdir);
/* At setup: the cache directory dir (NULL: none) is absent, an empty
 * directory or a cugen cache (its CACHEDIR.TAG), and CUGEN_CACHE_SIZE is
 * a size; what names the setting in the message, shown its value. */
gboolean cache_check(const char *dir, const char *what, const char *shown, GError **err);
/* The entry directory `cugen cache get DIR FILES... -- KEYS... -- ...`
 * looks up (for tests and the fuzz target); NULL when a file is missing. */
char *cache_entry_of(const char *dir, char **files, int nfiles, char **keys, int nkeys);

/* The cache's protocol, as a rule's command speaks it (cache.c parses
 * it back). A request: [KIND] DIR FILE... -- KEY... -- OUTPUT... (KIND
 * for the direct mode: "fe" or "dev"; FILEs hashed by content, KEYs as
 * words, OUTPUTs the files an entry holds). */
char *cache_request(const char *kind, const char *dir, const char *files, const char *keys, const char *outs);
/* command behind a lookup (templates/cache-wrap.in): a hit restores the
 * outputs, a miss runs command and stores them. direct: the direct mode's
 * direct-get/direct-put, else get/put. cugen: this program, quoted. */
char *cache_wrap(const char *cugen, gboolean direct, const char *request, const char *command);

#endif
