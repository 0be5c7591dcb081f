/* rpath.c -- changing an installed binary's RUNPATH in place, as CMake's
 * file(RPATH_CHANGE) and chrpath do; see install.h.
 *
 * An ELF64 little-endian executable or shared library: its .dynamic
 * section (found through the section table) and the string table that
 * section links to. Only the entries cugen's link put there change (the
 * build directory's $ORIGIN and its padding, the CUDA runtime's
 * directory); one that LDFLAGS or ldflags gave stays. The new RUNPATH is
 * written over the old one's bytes (the link left room: install.c pads
 * the build tree's); an empty one is removed, the dynamic entries after
 * it moving down one place. Every offset is
 * checked against the buffer; nothing outside it is read or written.
 */
#include "install.h"

#include <string.h>

#define SHT_DYNAMIC 6
#define DT_NULL 0
#define DT_RPATH 15
#define DT_RUNPATH 29

static gboolean edit(guint8 *buf, gsize len, const char *add, char **drop, GError **err);

static void wr64(guint8 *p, guint64 v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (guint8)(v >> (8 * i));
}

static gboolean fail(GError **err, const char *what)
{
	g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", what);
	return FALSE;
}

/* Whether entry is one that drop names, or the $ORIGIN padding
 * (install.c's "$ORIGIN" with slashes). */
static gboolean dropped(const char *entry, char **drop)
{
	if (g_str_has_prefix(entry, "$ORIGIN") && strspn(entry + 7, "/") == strlen(entry + 7))
		return TRUE;
	return drop && g_strv_contains((const char *const *)drop, entry);
}

/* The RUNPATH old becomes: add, then old's entries that drop does not
 * name, ':'-separated; "" when none is left. */
static char *new_runpath(const char *old, const char *add, char **drop)
{
	GString *o = g_string_new(add ? add : "");
	char **parts = g_strsplit(old, ":", -1);
	for (char **p = parts; *p; p++)
		if (**p && !dropped(*p, drop))
			g_string_append_printf(o, "%s%s", o->len ? ":" : "", *p);
	g_strfreev(parts);
	return g_string_free(o, FALSE);
}

gboolean rpath_edit(guint8 *buf, gsize len, const char *add, const char *drop_list, GError **err)
{
	char **drop = drop_list && *drop_list ? g_strsplit(drop_list, ":", -1) : NULL;
	gboolean ok = edit(buf, len, add, drop, err);
	g_strfreev(drop);
	return ok;
}

static gboolean edit(guint8 *buf, gsize len, const char *add, char **drop, GError **err)
{
	if (len < 64 || memcmp(buf, "\177ELF", 4) != 0 || buf[4] != 2 || buf[5] != 1)
		return fail(err, "not a 64-bit little-endian ELF file");
	guint64 shoff = cg_rd64(buf + 40);
	guint16 shentsize = cg_rd16(buf + 58), shnum = cg_rd16(buf + 60);
	if (shentsize < 64 || shoff > len || (guint64)shnum * shentsize > len - shoff)
		return fail(err, "its section table is outside the file");
	const guint8 *dyn = NULL;
	guint64 dynoff = 0, dynsize = 0, stroff = 0, strsize = 0;
	for (guint i = 0; i < shnum; i++) {
		const guint8 *sh = buf + shoff + (guint64)i * shentsize;
		if (cg_rd32(sh + 4) != SHT_DYNAMIC)
			continue;
		dynoff = cg_rd64(sh + 24);
		dynsize = cg_rd64(sh + 32);
		guint32 link = cg_rd32(sh + 40);
		if (link >= shnum)
			return fail(err, "its .dynamic section links to no string table");
		const guint8 *ss = buf + shoff + (guint64)link * shentsize;
		stroff = cg_rd64(ss + 24);
		strsize = cg_rd64(ss + 32);
		dyn = sh;
		break;
	}
	if (!dyn)
		return TRUE; /* linked statically: nothing to change */
	if (dynoff > len || dynsize > len - dynoff || stroff > len || strsize > len - stroff)
		return fail(err, "its dynamic section is outside the file");
	guint64 n = dynsize / 16;
	for (guint64 i = 0; i < n; i++) {
		guint8 *d = buf + dynoff + i * 16;
		guint64 tag = cg_rd64(d);
		if (tag == DT_NULL)
			break;
		if (tag != DT_RPATH && tag != DT_RUNPATH)
			continue;
		guint64 at = cg_rd64(d + 8);
		if (at >= strsize)
			return fail(err, "its RUNPATH is outside the string table");
		char *s = (char *)buf + stroff + at;
		gsize old = strnlen(s, strsize - at);
		if (old == strsize - at)
			return fail(err, "its RUNPATH is not terminated");
		char *runpath = new_runpath(s, add, drop);
		gsize nl = strlen(runpath);
		if (nl > old) {
			g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "its RUNPATH '%s' has no room for '%s' (set it up again and rebuild)", s, runpath);
			g_free(runpath);
			return FALSE;
		}
		if (nl) {
			memcpy(s, runpath, nl);
			memset(s + nl, 0, old - nl);
			g_free(runpath);
		} else {
			g_free(runpath);
			/* the entries after it move down; the last becomes DT_NULL */
			memmove(d, d + 16, (gsize)((n - i - 1) * 16));
			wr64(buf + dynoff + (n - 1) * 16, DT_NULL);
			wr64(buf + dynoff + (n - 1) * 16 + 8, 0);
			i--;
		}
	}
	return TRUE;
}
