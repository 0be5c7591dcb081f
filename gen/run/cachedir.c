/* cachedir.c -- where the compile cache is (the INI's directory or
 * CUGEN_CACHE_DIR), its CACHEDIR.TAG (cugen writes into, and clears, only
 * a directory that has the tag or is empty, and follows no symbolic link
 * there) and its size limit (CUGEN_CACHE_SIZE); see cache_int.h. */
#include "cache_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "commands.h"
#include "depfile.h"
#include "safepath.h"
#include "units.h"
#include "util.h"

#define DEFAULT_LIMIT (5ULL << 30)

char *cache_dir(const char *configured, const char *srcdir)
{
	const char *d = configured && *configured ? configured : g_getenv("CUGEN_CACHE_DIR");
	if (!d || !*d)
		return NULL;
	return g_path_is_absolute(d) ? cg_path_norm(d) : cg_path_join(srcdir, d);
}

guint64 ch_limit_bytes(void)
{
	guint64 b = 0;
	const char *l = g_getenv("CUGEN_CACHE_SIZE");
	/* setup refused a bad value (cache_check); here it is the default */
	return l && *l && units_parse_size(l, &b) ? b : DEFAULT_LIMIT;
}

/* The tag of https://bford.info/cachedir/: backup tools skip the
 * directory, and it marks a directory as a cache cugen may clear. */
#define TAG_TEXT "Signature: 8a477f597d28d172789f06886806bc55\n" \
		 "# This file is a cache directory tag created by cugen.\n" \
		 "# For information about cache directory tags, see https://bford.info/cachedir/\n"

gboolean ch_has_tag(const char *dir)
{
	char *p = g_build_filename(dir, TAG_NAME, NULL);
	char *t = cg_read_regular(p, 4096, TRUE, NULL, NULL);
	/* cugen's own tag, not any (ccache's, a backup tool's): only then
	 * are the entries cugen's to look up, store and clear */
	gboolean ok = t && strcmp(t, TAG_TEXT) == 0;
	g_free(t);
	g_free(p);
	return ok;
}

/* Empty, or holding nothing but a tag being written (cg_write_beneath's
 * ".CACHEDIR.TAG.XXXXXXXX" of an edge that is making the cache now). */
static gboolean is_empty_dir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	gboolean empty = d != NULL;
	const char *n;
	while (empty && (n = g_dir_read_name(d)))
		empty = n[0] == '.' && g_str_has_prefix(n + 1, TAG_NAME ".");
	if (d)
		g_dir_close(d);
	return empty;
}

/* Whom the cache trusts. A cache that other users can write is theirs
 * to fill with images this user's builds would embed: unless
 * CUGEN_CACHE_SHARED says every user of it is trusted (as ccache's and
 * sccache's shared caches need), cugen uses only a cache directory of
 * this user's own that no one else can write, and only entries this
 * user made. */
static gboolean shared_ok(void)
{
	const char *v = g_getenv("CUGEN_CACHE_SHARED");
	return v && (strcmp(v, "yes") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
}

/* Whether others can write what sb describes: anyone (o+w), or a group
 * that is not this user's own (g+w under a umask of 002 and a user
 * private group, as Debian and Ubuntu give users, is only this user). */
static gboolean others_write(const struct stat *sb)
{
	return (sb->st_mode & S_IWOTH) || ((sb->st_mode & S_IWGRP) && sb->st_gid != getegid());
}

/* Why dir may not be used (a static text), or NULL. */
static const char *untrusted_dir(const struct stat *sb)
{
	if (shared_ok())
		return NULL;
	if (sb->st_uid != geteuid())
		return "it belongs to another user";
	if (others_write(sb))
		return "other users can write it";
	return NULL;
}

gboolean ch_trusted_entry(const char *entry)
{
	struct stat sb;
	return shared_ok() || (lstat(entry, &sb) == 0 && sb.st_uid == geteuid() && !others_write(&sb));
}

/* Whether dir is a cugen cache (its tag); when create, a missing or
 * empty directory becomes one. Nothing else is ever written into. The
 * first edges of a build with a new cache run together: each may find
 * another's tag half written (then it writes its own, the same bytes) or
 * just written (then it is a cache), never "not a cache". */
gboolean ch_cache_root(const char *dir, gboolean create)
{
	struct stat tsb;
	if (stat(dir, &tsb) == 0 && untrusted_dir(&tsb))
		return FALSE; /* (setup said why; here: no lookups, no stores) */
	if (ch_has_tag(dir))
		return TRUE;
	if (!create)
		return FALSE;
	struct stat sb;
	if (stat(dir, &sb) == 0 && (!S_ISDIR(sb.st_mode) || !is_empty_dir(dir)))
		return ch_has_tag(dir);
	return cg_write_beneath(dir, TAG_NAME, TAG_TEXT, strlen(TAG_TEXT), NULL);
}

gboolean cache_check(const char *dir, const char *what, const char *shown, GError **err)
{
	const char *size = g_getenv("CUGEN_CACHE_SIZE");
	guint64 b = 0;
	if (size && *size && !units_parse_size(size, &b)) {
		cg_error(err, "CUGEN_CACHE_SIZE='%s' is not a size (e.g. 5G, 500M)", size);
		return FALSE;
	}
	if (!dir)
		return TRUE;
	struct stat sb;
	if (stat(dir, &sb) != 0)
		return TRUE; /* made by the first store */
	const char *why = S_ISDIR(sb.st_mode) ? untrusted_dir(&sb) : NULL;
	if (!S_ISDIR(sb.st_mode))
		cg_error(err, "%s '%s' is not a directory", what, shown);
	else if (why)
		cg_error(err, "%s '%s' cannot be trusted: %s, who could put images there that this build would embed "
			      "(set CUGEN_CACHE_SHARED=yes if every user of it is trusted)",
			 what, shown, why);
	else if (!ch_has_tag(dir) && !is_empty_dir(dir))
		cg_error(err, "%s '%s' is not a cugen cache (it has files but no " TAG_NAME " of cugen's): "
			      "name an empty or new directory", what, shown);
	else
		return TRUE;
	return FALSE;
}

/* DIR/stats under DIR/lock, "NAME VALUE" lines: hits and misses of the
 * device compiles (a direct hit is a hit), bytes stored (approximate), and
 * the direct lookups of the device and fe edges. */
