/* safepath.c -- names from read files, written and removed safely; see
 * safepath.h. */
#include "safepath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

gboolean cg_rel_ok(const char *rel)
{
	if (!rel || !*rel || *rel == '/')
		return FALSE;
	for (const char *p = rel; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return FALSE;
	char **parts = g_strsplit(rel, "/", -1);
	gboolean ok = TRUE;
	for (char **q = parts; ok && *q; q++)
		ok = **q && strcmp(*q, ".") != 0 && strcmp(*q, "..") != 0;
	g_strfreev(parts);
	return ok;
}

/* The directory of rel's last component, opened below root without
 * following a link (created when create); *base its last component. */
static int parent_fd(const char *root, const char *rel, gboolean create, char **base)
{
	*base = NULL;
	if (!cg_rel_ok(rel)) {
		errno = EINVAL;
		return -1;
	}
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && create && errno == ENOENT && g_mkdir_with_parents(root, 0777) == 0)
		fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **parts = g_strsplit(rel, "/", -1);
	guint n = g_strv_length(parts);
	for (guint i = 0; fd >= 0 && i + 1 < n; i++) {
		int next = openat(fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create && mkdirat(fd, parts[i], 0777) == 0)
			next = openat(fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int saved = errno;
		close(fd);
		errno = saved;
		fd = next;
	}
	if (fd >= 0)
		*base = g_strdup(parts[n - 1]);
	g_strfreev(parts);
	return fd;
}

static const char *why_not(int e)
{
	/* O_NOFOLLOW on a link: ELOOP; O_DIRECTORY on a link: ENOTDIR */
	return e == ELOOP || e == ENOTDIR ? "a symbolic link or a file is in the way"
	       : e == EINVAL		  ? "not a name below the directory"
					  : g_strerror(e);
}

gboolean cg_write_beneath(const char *root, const char *rel, const void *data, gsize len, GError **err)
{
	char *base = NULL;
	int dfd = parent_fd(root, rel, TRUE, &base);
	if (dfd < 0) {
		cg_error(err, "cannot write '%s' in '%s': %s", rel, root, why_not(errno));
		return FALSE;
	}
	char *tmp = NULL;
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		g_free(tmp);
		tmp = g_strdup_printf(".%s.%08x", base, g_random_int());
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	gboolean ok = fd >= 0 && cg_write_all(fd, data, len);
	int e = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = FALSE;
		e = errno;
	}
	if (ok && renameat(dfd, tmp, dfd, base) != 0) {
		ok = FALSE;
		e = errno;
	}
	if (!ok) {
		if (fd >= 0)
			unlinkat(dfd, tmp, 0);
		cg_error(err, "cannot write '%s' in '%s': %s", rel, root, why_not(e));
	}
	close(dfd);
	g_free(tmp);
	g_free(base);
	return ok;
}

int cg_append_beneath(const char *root, const char *rel)
{
	char *base = NULL;
	int dfd = parent_fd(root, rel, FALSE, &base);
	if (dfd < 0)
		return -1;
	int fd = openat(dfd, base, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	int e = errno;
	struct stat sb;
	if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
		close(fd);
		fd = -1;
		e = EINVAL;
	}
	close(dfd);
	g_free(base);
	errno = e;
	return fd;
}

char *cg_read_regular(const char *path, gsize max, gboolean nofollow, gsize *len, GError **err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0) {
		cg_error(err, "cannot read '%s': %s", path,
			 errno == ELOOP && nofollow ? "it is a symbolic link" : g_strerror(errno));
		return NULL;
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		cg_error(err, "cannot read '%s': not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((guint64)sb.st_size > max) {
		cg_error(err, "cannot read '%s': %" G_GUINT64_FORMAT " bytes, more than the %" G_GSIZE_FORMAT
			      " it may have", path, (guint64)sb.st_size, max);
		close(fd);
		return NULL;
	}
	/* a file that grows while read is cut at max */
	GString *s = g_string_sized_new((gsize)sb.st_size + 1);
	char buf[65536];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			cg_error(err, "cannot read '%s': %s", path, g_strerror(errno));
			close(fd);
			g_string_free(s, TRUE);
			return NULL;
		}
		if (r == 0)
			break;
		if (s->len + (gsize)r > max) {
			cg_error(err, "cannot read '%s': more than the %" G_GSIZE_FORMAT " bytes it may have", path, max);
			close(fd);
			g_string_free(s, TRUE);
			return NULL;
		}
		g_string_append_len(s, buf, r);
	}
	close(fd);
	if (len)
		*len = s->len;
	return g_string_free(s, FALSE);
}

/* Everything in the directory dfd, then nothing follows a link. */
static void rm_contents(int dfd)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	struct dirent *de;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			g_ptr_array_add(names, g_strdup(de->d_name));
	for (guint i = 0; i < names->len; i++) {
		const char *n = g_ptr_array_index(names, i);
		if (unlinkat(dirfd(d), n, 0) == 0)
			continue;
		int sub = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			rm_contents(sub);
			unlinkat(dirfd(d), n, AT_REMOVEDIR);
		}
	}
	g_ptr_array_free(names, TRUE);
	closedir(d);
}

void cg_rm_tree(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb) != 0)
		return;
	if (!S_ISDIR(sb.st_mode)) {
		unlink(path);
		return;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		rm_contents(fd);
	rmdir(path);
}

char *cg_read_file(const char *path, gsize *len, GError **err)
{
	return cg_read_regular(path, CG_READ_MAX, FALSE, len, err);
}

/* The directories "PREFIX-PID-XXXXXX" in TMPDIR that runs killed before
 * they removed them left: this user's, an hour old, whose PID is gone.
 * Swept once a process per prefix, before the first is made. */
static void sweep_tmp_dirs(const char *prefix)
{
	static GHashTable *swept;
	if (!swept)
		swept = g_hash_table_new(g_str_hash, g_str_equal);
	if (!g_hash_table_add(swept, (gpointer)prefix))
		return;
	const char *tmp = g_get_tmp_dir();
	gsize pn = strlen(prefix);
	GDir *d = g_dir_open(tmp, 0, NULL);
	for (const char *n; d && (n = g_dir_read_name(d));) {
		if (strncmp(n, prefix, pn) != 0 || n[pn] != '-')
			continue;
		char *end = NULL;
		long pid = strtol(n + pn + 1, &end, 10);
		if (pid <= 0 || !end || *end != '-' || strlen(end) != 7)
			continue;
		char *p = g_build_filename(tmp, n, NULL);
		struct stat sb;
		/* (and an hour old: a process of another pid namespace sharing
		 * this TMPDIR looks gone from here) */
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == geteuid() &&
		    sb.st_mtime < time(NULL) - 3600 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			cg_rm_tree(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
}

char *cg_make_tmp_dir(const char *prefix, GError **err)
{
	sweep_tmp_dirs(prefix);
	char *name = g_strdup_printf("%s-%ld-XXXXXX", prefix, (long)getpid());
	char *dir = g_dir_make_tmp(name, err);
	g_free(name);
	return dir;
}
