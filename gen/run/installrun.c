/* installrun.c -- `cugen install`: the install manifest carried out.
 *
 * Owns: reading BUILDDIR/.cugen/install.ini (install.c writes it; only an
 * intact seal is read), checking each destination (absolute, no "..",
 * no control character), and installing each file under $DESTDIR (or
 * --destdir) as install(1) would: directories made 0755, the file
 * written beside its place and renamed over it with its mode, a
 * binary's RUNPATH rewritten or removed (rpath.c), symbolic links made
 * the same way; then BUILDDIR/install_manifest.txt lists what was
 * installed, as CMake's does. ninja install and make install run it.
 * `cugen uninstall` (ninja uninstall, make uninstall, as Meson's) removes
 * the same destinations: files and links only, never a directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "commands.h"
#include "install.h"
#include "statefile.h"

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

/* Write data to path through a temporary beside it, with mode. */
static gboolean put_file(const char *path, const char *data, gsize len, int mode, GError **err)
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
	char *tmp = g_strconcat(path, ".cugen-link", NULL);
	g_unlink(tmp);
	gboolean ok = symlink(to, tmp) == 0 && rename(tmp, path) == 0;
	if (!ok) {
		cg_error(err, "cannot install the link '%s': %s", path, g_strerror(errno));
		g_unlink(tmp);
	}
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

static gboolean install_one(GKeyFile *k, const char *g, const char *builddir, const char *destdir, GString *done,
			    GError **err)
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
	if (ok)
		g_string_append_printf(done, "%s\n", path);
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

/* Remove group g's destination under destdir, where it is a file or a
 * link (a directory or anything else stays, and is an error). */
static gboolean uninstall_one(GKeyFile *k, const char *g, const char *destdir, GError **err)
{
	char *dest = g_key_file_get_string(k, g, "dest", NULL);
	char *path = destdir && *destdir ? g_strconcat(destdir, dest, NULL) : g_strdup(dest);
	GStatBuf st;
	gboolean ok = TRUE;
	if (g_lstat(path, &st) != 0) {
		printf("-- Not installed: %s\n", path);
	} else if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		cg_error(err, "cannot uninstall '%s': not a file or a link", path);
		ok = FALSE;
	} else if (g_unlink(path) != 0) {
		cg_error(err, "cannot uninstall '%s': %s", path, g_strerror(errno));
		ok = FALSE;
	} else {
		printf("-- Removing: %s\n", path);
	}
	g_free(path);
	g_free(dest);
	return ok;
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
	if (destdir && *destdir && !g_path_is_absolute(destdir)) {
		char *abs = cg_abspath(destdir);
		g_free(destdir);
		destdir = abs;
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
		for (gsize i = 0; !rc && !uninstall && i < n; i++)
			if (g_str_has_prefix(groups[i], "file ") && !install_one(k, groups[i], builddir, destdir, done, &err))
				rc = cg_report(err);
		/* links before what they point at: the reverse of install order */
		for (gsize i = n; !rc && uninstall && i-- > 0;)
			if (g_str_has_prefix(groups[i], "file ") && !uninstall_one(k, groups[i], destdir, &err))
				rc = cg_report(err);
		g_clear_error(&err);
		g_strfreev(groups);
		char *list = g_build_filename(builddir, "install_manifest.txt", NULL);
		if (uninstall) {
			if (!rc && g_unlink(list) != 0 && errno != ENOENT) {
				cg_error(&err, "cannot remove '%s': %s", list, g_strerror(errno));
				rc = cg_report(err);
			}
		} else if (!rc && !g_file_set_contents(list, done->str, (gssize)done->len, &err))
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
