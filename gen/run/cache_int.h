/* cache_int.h -- what the compile cache's files share; not for other
 * modules (they use cache.h).
 *
 * The files: cachedir.c (where the cache is, its CACHEDIR.TAG, its size
 * limit), cache.c (entries: lookups, stores, eviction, stats, `cugen
 * cache`), cachedirect.c (the direct mode, keyed without the
 * preprocessor) and cachelook.c (the places its preprocess looked).
 */
#ifndef CUGEN_CACHE_INT_H
#define CUGEN_CACHE_INT_H

#include "cache.h"

/* The file that marks a directory as a cache (bford.info/cachedir). */
#define TAG_NAME "CACHEDIR.TAG"

/* An edge's request: DIR FILES... -- KEYS... -- OUTS... */
typedef struct {
	const char *dir;
	char **files, **keys, **outs;
	int nfiles, nkeys, nouts;
} Request;

typedef struct {
	guint64 hits, misses, bytes;
	guint64 dhits, dmisses;       /* device edges, direct lookups */
	guint64 fe_dhits, fe_dmisses; /* fe edges, direct lookups */
} Stats;

/* cachedir.c */
guint64 ch_limit_bytes(void);
gboolean ch_has_tag(const char *dir);
gboolean ch_cache_root(const char *dir, gboolean create);
/* Whether an entry may be used: made by this user, writable by no one
 * else, or CUGEN_CACHE_SHARED says the users trust each other. */
gboolean ch_trusted_entry(const char *entry);

/* cache.c */
void ch_count_stats(const char *dir, Stats d);
gboolean ch_hash_request(GChecksum *c, const Request *r, GError **err);
char *ch_entry_at(const char *dir, const char *name);
gboolean ch_restore_outputs(const char *entry, char **lines, int nouts, char **outs);
void ch_damaged(const char *entry);
GArray *ch_entries(const char *dir);
void ch_evict(const char *dir);
guint64 ch_store_entry(const char *dir, const char *entry, char **outs, int nouts, const char *extra);

/* cachelook.c: append to out the places the directives of includer
 * (its text data) searched ("a PATH", "x PATH" lines, each once: seen);
 * FALSE when a header found there changed at or after (sec, nsec). */
gboolean ch_lookups(const Request *r, const char *includer, const char *data, gsize len, GHashTable *seen,
		    GString *out, gint64 sec, glong nsec);
/* Whether a recorded lookup line still holds (other lines: TRUE). */
gboolean ch_lookups_hold(const char *line);

/* cachedirect.c */
struct stat;
/* Whether the file's mtime or ctime is at or after (sec, nsec): changed
 * since a lookup began (the direct mode's guard). */
gboolean ch_changed_since(const struct stat *sb, gint64 sec, glong nsec);
int ch_direct_get(const char *kind, Request *rq);
int ch_direct_put(const char *kind, Request *rq);

#endif
