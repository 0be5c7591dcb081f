/* installrun.c -- `cugen install`: the install manifest carried out.
 *
 * Owns: reading BUILDDIR/.cugen/install.ini (install.c writes it; only an
 * intact seal is read), checking each destination (absolute, no "..",
 * no control character), and installing each file under $DESTDIR (or
 * --destdir) as install(1) would: directories made 0755, the file
 * written beside its place and renamed over it with its mode, a
 * binary's RUNPATH rewritten or removed (rpath.c), symbolic links made
 * the same way; then BUILDDIR/install_manifest.txt lists what was
 * installed, as CMake's does, and BUILDDIR/.cugen/installed.ini (sealed)
 * records each path with what was put there: a file's size and hash, a
 * link's target. Installs add to that record (a prefix or DESTDIR
 * changed between them orphans nothing). ninja install and make install
 * run it. `cugen uninstall` (ninja uninstall, make uninstall) removes the
 * recorded paths (under $DESTDIR where one is given), each only where it
 * still is what was installed; any other is left, said, and stays
 * recorded. Files and links only, never a directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "commands.h"
#include "install.h"
#include "safepath.h"
#include "statefile.h"
#include "util.h"

#define INSTALLED ".cugen/installed.ini"

/* dest is absolute, normalised, without "..", "." or a control character. */
static gboolean dest_ok(const char *dest)
{
	if (!g_path_is_absolute(dest))
		return FALSE;
	for (const char *p = dest; *p; p++)
		if ((guchar)*p < 0x20 || *p == 0x7f)
			return FALSE;
	char **parts = g_strsplit(dest, "/", -1);
	gboolean ok = TRUE;
	for (char **q = parts + 1; *q; q++)
		ok &= **q && strcmp(*q, ".") != 0 && strcmp(*q, "..") != 0;
	g_strfreev(parts);
	return ok;
}

static gboolean put_file_held(const char *path, const char *data, gsize len, int mode, GError **err);

/* An interrupt (Ctrl-C, ninja stopping) waits while a temporary beside
 * a destination exists: it is renamed into place or removed first, so no
 * NAME.cugen-XXXXXX is left in bindir for good. */
static void hold_signals(sigset_t *old)
{
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_BLOCK, &stop, old);
}

/* Write data to path through a temporary beside it, with mode. */
static gboolean put_file(const char *path, const char *data, gsize len, int mode, GError **err)
{
	sigset_t old;
	hold_signals(&old);
	gboolean ok = put_file_held(path, data, len, mode, err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static gboolean put_file_held(const char *path, const char *data, gsize len, int mode, GError **err)
{
	char *tmp = g_strconcat(path, ".cugen-XXXXXX", NULL);
	int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0600);
	gboolean ok = fd >= 0 && cg_write_all(fd, data, len) && fchmod(fd, (mode_t)mode) == 0;
	int e = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = FALSE;
		e = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = FALSE;
		e = errno;
	}
	if (!ok) {
		if (fd >= 0)
			g_unlink(tmp);
		cg_error(err, "cannot install '%s': %s", path, g_strerror(e));
	}
	g_free(tmp);
	return ok;
}

static gboolean put_link(const char *path, const char *to, GError **err)
{
	/* (a name of this process's own: two installs into one DESTDIR at
	 * once do not meet on it) */
	char *tmp = g_strdup_printf("%s.cugen-link-%ld", path, (long)getpid());
	sigset_t old;
	hold_signals(&old);
	g_unlink(tmp);
	gboolean ok = symlink(to, tmp) == 0 && rename(tmp, path) == 0;
	if (!ok) {
		cg_error(err, "cannot install the link '%s': %s", path, g_strerror(errno));
		g_unlink(tmp);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	g_free(tmp);
	return ok;
}

/* Whether group g of the manifest is an entry install_one can carry out. */
static gboolean entry_ok(GKeyFile *k, const char *g, const char *builddir, GError **err)
{
	char *kind = g_key_file_get_string(k, g, "kind", NULL), *src = g_key_file_get_string(k, g, "src", NULL);
	char *dest = g_key_file_get_string(k, g, "dest", NULL), *mode = g_key_file_get_string(k, g, "mode", NULL);
	const char *const kinds[] = { "file", "elf", "link", NULL };
	gboolean ok = kind && g_strv_contains(kinds, kind) && src && *src && dest && dest_ok(dest) &&
		      (strcmp(kind, "link") == 0 ? strchr(src, '/') == NULL && strcmp(src, "..") != 0
						 : mode && strspn(mode, "01234567") == strlen(mode) && *mode);
	if (!ok)
		cg_error(err, "%s/" INSTALL_MANIFEST ": [%s] is not an install entry (run cugen setup again)", builddir, g);
	g_free(mode);
	g_free(dest);
	g_free(src);
	g_free(kind);
	return ok;
}

/* What path holds now, as the record says it: "file SIZE SHA256",
 * "link TARGET", or NULL (nothing, or something else). */
static char *holds(const char *path)
{
	GStatBuf st;
	if (g_lstat(path, &st) != 0)
		return NULL;
	if (S_ISLNK(st.st_mode)) {
		char *to = g_file_read_link(path, NULL);
		char *r = to ? g_strconcat("link ", to, NULL) : NULL;
		g_free(to);
		return r;
	}
	if (!S_ISREG(st.st_mode))
		return NULL;
	gsize len = 0;
	char *data = cg_read_regular(path, CG_READ_MAX, TRUE, &len, NULL);
	if (!data)
		return NULL;
	char *sum = cg_hash_hex(data, len);
	char *r = g_strdup_printf("file %" G_GSIZE_FORMAT " %s", len, sum);
	g_free(sum);
	g_free(data);
	return r;
}

static gboolean install_one(GKeyFile *k, const char *g, const char *builddir, const char *destdir, GString *done,
			    GKeyFile *record, GError **err)
{
	char *kind = g_key_file_get_string(k, g, "kind", NULL), *src = g_key_file_get_string(k, g, "src", NULL);
	char *dest = g_key_file_get_string(k, g, "dest", NULL), *mode = g_key_file_get_string(k, g, "mode", NULL);
	char *rpath = g_key_file_get_string(k, g, "rpath", NULL), *drop = g_key_file_get_string(k, g, "drop", NULL);
	gboolean ok = FALSE;
	char *path = destdir && *destdir ? g_strconcat(destdir, dest, NULL) : g_strdup(dest);
	char *dir = g_path_get_dirname(path);
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		cg_error(err, "cannot make the directory '%s': %s", dir, g_strerror(errno));
	} else if (strcmp(kind, "link") == 0) {
		printf("-- Installing: %s\n", path);
		ok = put_link(path, src, err);
	} else {
		printf("-- Installing: %s\n", path);
		char *from = g_path_is_absolute(src) ? g_strdup(src) : g_build_filename(builddir, src, NULL);
		char *data = NULL;
		gsize len = 0;
		GError *e = NULL;
		if (!g_file_get_contents(from, &data, &len, &e)) {
			cg_error(err, "cannot install '%s': %s (build it first: ninja install builds all)", from, e->message);
			g_error_free(e);
		} else if (strcmp(kind, "elf") == 0 && rpath &&
			   !rpath_edit((guint8 *)data, len, *rpath ? rpath : NULL, drop, &e)) {
			cg_error(err, "cannot install '%s': %s", from, e->message);
			g_error_free(e);
		} else {
			ok = put_file(path, data, len, (int)strtol(mode, NULL, 8) & 07777, err);
		}
		g_free(data);
		g_free(from);
	}
	if (ok) {
		g_string_append_printf(done, "%s\n", path);
		char *what = holds(path);
		g_key_file_set_string(record, path, "holds", what ? what : "");
		g_free(what);
	}
	g_free(dir);
	g_free(path);
	g_free(drop);
	g_free(rpath);
	g_free(mode);
	g_free(dest);
	g_free(src);
	g_free(kind);
	return ok;
}

/* Remove a recorded path where it still holds what was installed;
 * TRUE when it is gone (now or before), FALSE when it was left. */
static gboolean uninstall_one(GKeyFile *record, const char *path, GError **err)
{
	char *want = g_key_file_get_string(record, path, "holds", NULL);
	char *now = holds(path);
	GStatBuf st;
	gboolean gone = TRUE;
	if (g_lstat(path, &st) != 0) {
		printf("-- Not installed: %s\n", path);
	} else if (!now || !want || strcmp(now, want) != 0) {
		printf("-- Left (not what was installed there): %s\n", path);
		gone = FALSE;
	} else if (g_unlink(path) != 0) {
		cg_error(err, "cannot uninstall '%s': %s", path, g_strerror(errno));
		gone = FALSE;
	} else {
		printf("-- Removing: %s\n", path);
	}
	g_free(now);
	g_free(want);
	return gone;
}

static gboolean save_record(const char *builddir, GKeyFile *record, GError **err)
{
	char *path = g_build_filename(builddir, INSTALLED, NULL);
	gsize n = 0;
	char *text = g_key_file_to_data(record, &n, NULL);
	GString *sealed = state_seal("installed", g_string_new_len(text, (gssize)n));
	gboolean ok = g_file_set_contents(path, sealed->str, (gssize)sealed->len, err);
	g_string_free(sealed, TRUE);
	g_free(text);
	g_free(path);
	return ok;
}

/* uninstall: the recorded paths (those under destdir where one is
 * given), last installed first (links before what they point at). */
static int uninstall_recorded(const char *builddir, const char *destdir)
{
	char *rpath = g_build_filename(builddir, INSTALLED, NULL);
	GKeyFile *record = g_key_file_new();
	GError *err = NULL;
	int rc = 0;
	if (!state_load_keyfile(record, rpath, "installed")) {
		printf("-- Nothing recorded as installed from %s\n", builddir);
	} else {
		gsize n = 0;
		char **paths = g_key_file_get_groups(record, &n);
		guint left = 0, seen = 0;
		for (gsize i = n; !rc && i-- > 0;) {
			const char *p = paths[i];
			gboolean under = !destdir || !*destdir || (g_str_has_prefix(p, destdir) && p[strlen(destdir)] == '/');
			if (!under || !g_path_is_absolute(p))
				continue;
			seen++;
			if (uninstall_one(record, p, &err))
				g_key_file_remove_group(record, p, NULL);
			else if (err)
				rc = cg_report(err);
			else
				left++;
			g_clear_error(&err);
		}
		if (!seen)
			printf("-- Nothing recorded as installed from %s%s%s\n", builddir, destdir && *destdir ? " under " : "",
			       destdir && *destdir ? destdir : "");
		if (left)
			printf("-- %u file%s left: changed or replaced since cugen installed them\n", left, left == 1 ? "" : "s");
		g_strfreev(paths);
		if (!save_record(builddir, record, &err))
			rc = cg_report(err);
		g_clear_error(&err);
	}
	g_key_file_free(record);
	g_free(rpath);
	return rc;
}

static int run(int argc, char **argv, gboolean uninstall)
{
	char *builddir = NULL, *destdir = NULL;
	GOptionEntry entries[] = {
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &builddir, "Build directory (default: .)", "BUILDDIR" },
		{ "destdir", 0, 0, G_OPTION_ARG_FILENAME, &destdir,
		  uninstall ? "Uninstall from under DIR (default: $DESTDIR)" : "Install under DIR (default: $DESTDIR)", "DIR" },
		{ NULL }
	};
	const char *cmd = uninstall ? "uninstall" : "install";
	GOptionContext *ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, uninstall ? "Remove what cugen install installed from BUILDDIR (ninja uninstall runs it)."
						    : "Install what BUILDDIR built, as its setup said (ninja install runs it).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	char *prg = g_strconcat("cugen ", cmd, NULL);
	g_set_prgname(prg);
	g_free(prg);
	GError *err = NULL;
	gboolean ok = g_option_context_parse(ctx, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok) {
		GError *u = NULL;
		cg_usage_error(&u, "%s (see 'cugen %s --help')", err->message, cmd);
		g_error_free(err);
		int r = cg_report(u);
		g_error_free(u);
		return r;
	}
	if (argc > 1) {
		GError *e = NULL;
		cg_usage_error(&e, "unexpected argument '%s' (see 'cugen %s --help')", argv[1], cmd);
		int r = cg_report(e);
		g_error_free(e);
		return r;
	}
	if (!builddir)
		builddir = g_strdup(".");
	if (!destdir && g_getenv("DESTDIR"))
		destdir = g_strdup(g_getenv("DESTDIR"));
	/* the install record holds one path a line, and every path is a
	 * command's word: a control character cannot be carried */
	for (const char *p = destdir ? destdir : ""; *p; p++)
		if ((guchar)*p < 0x20 || *p == 0x7f) {
			char *shown = g_strescape(destdir, NULL);
			cg_error(&err, "DESTDIR '%s': control character 0x%02x in the path", shown, (guchar)*p);
			g_free(shown);
			int r = cg_report(err);
			g_clear_error(&err);
			g_free(destdir);
			g_free(builddir);
			return r;
		}
	if (destdir && *destdir && !g_path_is_absolute(destdir)) {
		char *abs = cg_abspath(destdir);
		g_free(destdir);
		destdir = abs;
	}
	if (uninstall) {
		int r = uninstall_recorded(builddir, destdir);
		char *list = g_build_filename(builddir, "install_manifest.txt", NULL);
		if (!r && g_unlink(list) != 0 && errno != ENOENT) {
			cg_error(&err, "cannot remove '%s': %s", list, g_strerror(errno));
			r = cg_report(err);
			g_clear_error(&err);
		}
		g_free(list);
		g_free(destdir);
		g_free(builddir);
		return r;
	}
	char *mpath = g_build_filename(builddir, INSTALL_MANIFEST, NULL);
	GKeyFile *k = g_key_file_new();
	int rc = 0;
	if (!state_load_keyfile(k, mpath, "install")) {
		cg_error(&err, "%s has no install manifest (run cugen setup -B %s first)", builddir, builddir);
		rc = cg_report(err);
		g_clear_error(&err);
	} else {
		gsize n = 0;
		char **groups = g_key_file_get_groups(k, &n);
		GString *done = g_string_new(NULL);
		/* every entry checked before any is installed */
		for (gsize i = 0; !rc && i < n; i++)
			if (g_str_has_prefix(groups[i], "file ") && !entry_ok(k, groups[i], builddir, &err))
				rc = cg_report(err);
		/* the record of earlier installs, added to (a path installed
		 * again moves to the end: uninstall goes in reverse); written
		 * once before anything is installed, so that a build directory
		 * where it cannot be (read-only) installs nothing unrecorded */
		char *rpath = g_build_filename(builddir, INSTALLED, NULL);
		GKeyFile *record = g_key_file_new();
		state_load_keyfile(record, rpath, "installed");
		g_free(rpath);
		if (!rc && !save_record(builddir, record, &err)) {
			GError *e2 = NULL;
			cg_error(&e2, "cannot record what is installed in %s (%s): nothing installed", builddir,
				 err->message + (g_str_has_prefix(err->message, "error: ") ? 7 : 0));
			rc = cg_report(e2);
			g_error_free(e2);
			g_clear_error(&err);
		}
		for (gsize i = 0; !rc && i < n; i++)
			if (g_str_has_prefix(groups[i], "file ") &&
			    !install_one(k, groups[i], builddir, destdir, done, record, &err))
				rc = cg_report(err);
		g_clear_error(&err);
		g_strfreev(groups);
		/* (recorded also after a failure: what was installed is there) */
		if (!save_record(builddir, record, &err) && !rc)
			rc = cg_report(err);
		g_clear_error(&err);
		g_key_file_free(record);
		char *list = g_build_filename(builddir, "install_manifest.txt", NULL);
		if (!rc && !g_file_set_contents(list, done->str, (gssize)done->len, &err))
			rc = cg_report(err);
		g_clear_error(&err);
		g_free(list);
		g_string_free(done, TRUE);
	}
	g_key_file_free(k);
	g_free(mpath);
	g_free(destdir);
	g_free(builddir);
	return rc;
}

int cmd_install(int argc, char **argv)
{
	return run(argc, argv, FALSE);
}

int cmd_uninstall(int argc, char **argv)
{
	return run(argc, argv, TRUE);
}
