/* nvccshard.c -- `cugen nvcc`'s shards and combine through the
 * environment, for builds cugen does not drive: CUGEN_SHARD_DIR=DIR with
 * CUGEN_ARCHS="80 90" builds only those arch entries of each compile and
 * stores the shard (`ninja shard`'s images and manifest) as DIR/KEY;
 * CUGEN_COMBINE="DIR1 DIR2 ..." takes every image of a compile from the
 * DIRn/KEY that exist, through `cugen combine` (its checks: command,
 * inputs, toolkit, ids, hashes, CUGEN_TRUST's digests), and compiles no
 * device code. KEY hashes what the compile makes (its one-TU project,
 * which names the source and the nvcc, and the source's bytes), not where
 * its object goes, so the shard runs and the combine run may write their
 * objects anywhere; their scratch project sits at one path per KEY
 * (TMPDIR/cugen-nvcc-shard-KEY), as combine wants module_id = absolute
 * shards made where it combines them.
 *
 * Owns: the mode, the key, the scratch path, copying shards in and out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvcc_int.h"
#include "safepath.h"
#include "util.h"

NvMode nvcc_mode(const char **why)
{
	const char *sd = g_getenv("CUGEN_SHARD_DIR"), *co = g_getenv("CUGEN_COMBINE");
	gboolean shard = sd && *sd, combine = co && *co;
	*why = NULL;
	if (shard && combine) {
		*why = "CUGEN_SHARD_DIR and CUGEN_COMBINE are both set: a run either builds shards or combines them";
		return NV_LOCAL;
	}
	if (shard && !(g_getenv("CUGEN_ARCHS") && *g_getenv("CUGEN_ARCHS"))) {
		*why = "CUGEN_SHARD_DIR needs CUGEN_ARCHS (the arch entries this shard builds, e.g. \"80 90\")";
		return NV_LOCAL;
	}
	return shard ? NV_SHARD : combine ? NV_COMBINE : NV_LOCAL;
}

char *nvcc_key(const char *project, const char *source, GError **err)
{
	gchar *data = NULL;
	gsize len = 0;
	if (!g_file_get_contents(source, &data, &len, err))
		return NULL;
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(c, (const guchar *)"cugen nvcc shard 1\n", -1);
	g_checksum_update(c, (const guchar *)project, -1);
	g_checksum_update(c, (const guchar *)"\n", 1);
	g_checksum_update(c, (const guchar *)data, (gssize)len);
	char *key = g_strndup(g_checksum_get_string(c), 32);
	g_checksum_free(c);
	g_free(data);
	return key;
}

char *nvcc_fixed_scratch(const char *key, int *lock, GError **err)
{
	char *dir = g_strdup_printf("%s/cugen-nvcc-shard-%s", g_get_tmp_dir(), key);
	char *lp = g_strconcat(dir, ".lock", NULL);
	/* one compile of this key at a time (the same TU twice in a build);
	 * the lock file goes with the directory, so a lock taken on a file
	 * already unlinked is taken again on the new one */
	for (int tries = 0;; tries++) {
		struct stat a, b;
		*lock = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (*lock < 0 || flock(*lock, LOCK_EX) != 0 || fstat(*lock, &a) != 0 || tries > 100) {
			cg_error(err, "cannot lock %s: %s", lp, g_strerror(errno));
			if (*lock >= 0)
				close(*lock);
			*lock = -1;
			g_free(lp);
			g_free(dir);
			return NULL;
		}
		if (stat(lp, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			break;
		close(*lock);
	}
	g_free(lp);
	cg_rm_tree(dir); /* a run killed before it removed its own */
	if (mkdir(dir, 0700) != 0) {
		cg_error(err, "cannot make %s: %s", dir, g_strerror(errno));
		nvcc_release_scratch(dir, lock, FALSE);
		g_free(dir);
		return NULL;
	}
	return dir;
}

void nvcc_release_scratch(const char *dir, int *lock, gboolean keep)
{
	if (!keep)
		cg_rm_tree(dir);
	if (*lock >= 0) {
		char *lp = g_strconcat(dir, ".lock", NULL);
		unlink(lp);
		g_free(lp);
		close(*lock);
		*lock = -1;
	}
}

/* Regular files and directories of from, as they are, into to (made). */
static gboolean copy_tree(const char *from, const char *to, GError **err)
{
	if (mkdir(to, 0755) != 0 && errno != EEXIST) {
		cg_error(err, "cannot make %s: %s", to, g_strerror(errno));
		return FALSE;
	}
	GDir *d = g_dir_open(from, 0, err);
	if (!d)
		return FALSE;
	gboolean ok = TRUE;
	for (const char *n; ok && (n = g_dir_read_name(d));) {
		char *a = g_build_filename(from, n, NULL), *b = g_build_filename(to, n, NULL);
		struct stat sb;
		if (lstat(a, &sb) != 0) {
			ok = FALSE;
			cg_error(err, "%s: %s", a, g_strerror(errno));
		} else if (S_ISDIR(sb.st_mode)) {
			ok = copy_tree(a, b, err);
		} else if (S_ISREG(sb.st_mode)) {
			gchar *data = NULL;
			gsize len = 0;
			ok = g_file_get_contents(a, &data, &len, err) && g_file_set_contents(b, data, (gssize)len, err);
			g_free(data);
		}
		g_free(a);
		g_free(b);
	}
	g_dir_close(d);
	return ok;
}

gboolean nvcc_store_shard(const char *shard, const char *key, GError **err)
{
	const char *dir = g_getenv("CUGEN_SHARD_DIR");
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		cg_error(err, "CUGEN_SHARD_DIR: cannot make %s: %s", dir, g_strerror(errno));
		return FALSE;
	}
	/* whole or not at all: beside it, then renamed over an older one */
	char *dest = g_build_filename(dir, key, NULL), *part = g_strdup_printf("%s.part.%ld", dest, (long)getpid());
	cg_rm_tree(part);
	gboolean ok = copy_tree(shard, part, err);
	if (ok) {
		cg_rm_tree(dest);
		if (rename(part, dest) != 0) {
			cg_error(err, "cannot rename %s to %s: %s", part, dest, g_strerror(errno));
			ok = FALSE;
		}
	}
	if (!ok)
		cg_rm_tree(part);
	g_free(dest);
	g_free(part);
	return ok;
}

GPtrArray *nvcc_find_shards(const char *key)
{
	GPtrArray *found = g_ptr_array_new_with_free_func(g_free);
	char **dirs = g_strsplit_set(g_getenv("CUGEN_COMBINE"), " \t\n", -1);
	for (guint i = 0; dirs[i]; i++) {
		if (!*dirs[i])
			continue;
		char *p = g_build_filename(dirs[i], key, NULL);
		struct stat sb;
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			g_ptr_array_add(found, p);
		else
			g_free(p);
	}
	g_strfreev(dirs);
	return found;
}

char *nvcc_shard_archs(const char *project_archs)
{
	/* the arch ids of this compile that CUGEN_ARCHS names ("80 90" of
	 * "75 80 90"; 120 or compute_120 for a PTX-only entry) */
	char **want = g_strsplit_set(g_getenv("CUGEN_ARCHS"), " ,;\t", -1);
	char **have = g_strsplit(project_archs, " ", -1);
	GString *o = g_string_new(NULL);
	for (guint i = 0; have[i]; i++) {
		const char *h = g_str_has_prefix(have[i], "compute_") ? have[i] + 8 : have[i];
		gboolean in = FALSE;
		for (guint k = 0; want[k] && !in; k++) {
			const char *w = want[k];
			if (g_str_has_prefix(w, "sm_") || g_str_has_prefix(w, "compute_"))
				w = strchr(w, '_') + 1;
			in = *h && !strcmp(w, h);
		}
		if (in)
			g_string_append_printf(o, "%s%s", o->len ? " " : "", have[i]);
	}
	g_strfreev(want);
	g_strfreev(have);
	return g_string_free(o, FALSE);
}
