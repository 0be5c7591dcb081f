/* srcnames.c -- `cugen srcnames`, run by a device compile whose line
 * info names files (-lineinfo, -G): the line markers of its preprocessed
 * view and the file names of its PTX rewritten project-relative (or
 * build-relative), so that shards built in different places make the same
 * images; see relocate.h.
 */
#include "relocate.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

/* The name a line marker gets: below the build directory relative to it,
 * below the project relative to that, another relative one absolute;
 * NULL to keep it (absolute outside both, <built-in>). */
static char *marker_name(const char *name, const Places *p)
{
	if (name[0] == '<' || !*name)
		return NULL;
	char *abs = cg_path_join(p->build, name);
	const char *rest = reloc_below(abs, p->build);
	if (!rest)
		rest = reloc_below(abs, p->src);
	char *r = NULL;
	if (rest)
		r = g_strdup(*rest ? rest : ".");
	else if (name[0] != '/')
		r = g_strdup(abs);
	g_free(abs);
	if (r && strcmp(r, name) == 0) {
		g_free(r);
		r = NULL;
	}
	return r;
}

/* Rewrite the quoted names of the lines of text that start with lead
 * (then digits, a space and '"'); rename gives a new name or NULL. */
static GString *rewrite(const char *text, gsize len, const char *lead, char *(*rename)(const char *, const void *),
			const void *data, gboolean *changed)
{
	GString *o = g_string_sized_new(len + 64);
	gsize ln = strlen(lead);
	const char *s = text, *end = text + len;
	*changed = FALSE;
	while (s < end) {
		const char *nl = memchr(s, '\n', (gsize)(end - s));
		const char *e = nl ? nl + 1 : end;
		const char *d = s + ln, *q, *qe;
		if ((gsize)(e - s) > ln && memcmp(s, lead, ln) == 0 && g_ascii_isdigit(*d)) {
			while (d < e && g_ascii_isdigit(*d))
				d++;
			q = d + 2;
			if (d + 2 < e && d[0] == ' ' && d[1] == '"' && (qe = memchr(q, '"', (gsize)(e - q))) &&
			    !memchr(q, '\\', (gsize)(qe - q))) {
				char *name = g_strndup(q, (gsize)(qe - q));
				char *r = rename(name, data);
				g_free(name);
				if (r) {
					cg_put(o, s, (gsize)(q - s));
					cg_puts(o, r);
					cg_put(o, qe, (gsize)(e - qe));
					g_free(r);
					*changed = TRUE;
					s = e;
					continue;
				}
			}
		}
		cg_put(o, s, (gsize)(e - s));
		s = e;
	}
	return o;
}

static char *ii_rename(const char *name, const void *data)
{
	return marker_name(name, data);
}

/* A PTX .file name less the current directory, which cicc puts before
 * relative names (as $PWD gives it where that names it: render_cicc in
 * recipe.c sets it to /proc/self/cwd). */
static char *ptx_rename(const char *name, const void *data)
{
	const char *prefixes[] = { data, "/proc/self/cwd/" };
	for (gsize i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		gsize n = strlen(prefixes[i]);
		if (strncmp(name, prefixes[i], n) == 0 && name[n])
			return g_strdup(name + n);
	}
	return NULL;
}

/* cugen srcnames SRCDIR FILE: FILE, a device preprocess's output, with
 * its line markers naming files as marker_name says (the current
 * directory is the build directory).
 * cugen srcnames --ptx FILE: FILE, cicc's PTX, with the current
 * directory's prefix (which cicc puts before relative names) dropped from
 * its .file names. Either rewrites FILE only where it changes. */
int cmd_srcnames(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: cugen srcnames SRCDIR|--ptx FILE\n");
		return 2;
	}
	char *cwd = g_get_current_dir();
	GError *err = NULL;
	gchar *text = NULL;
	gsize len = 0;
	int rc = 0;
	if (!g_file_get_contents(argv[2], &text, &len, &err)) {
		fprintf(stderr, "cugen: error: srcnames: %s\n", err->message);
		g_clear_error(&err);
		g_free(cwd);
		return 1;
	}
	gboolean changed = FALSE;
	GString *o;
	char *src = NULL, *prefix = NULL;
	if (strcmp(argv[1], "--ptx") == 0) {
		prefix = g_strconcat(cwd, strcmp(cwd, "/") ? "/" : "", NULL);
		o = rewrite(text, len, "\t.file\t", ptx_rename, prefix, &changed);
	} else {
		src = cg_path_join(cwd, argv[1]);
		Places p = { src, cwd };
		o = rewrite(text, len, "# ", ii_rename, &p, &changed);
	}
	if (changed && !g_file_set_contents(argv[2], o->str, (gssize)o->len, &err)) {
		fprintf(stderr, "cugen: error: srcnames: %s\n", err->message);
		g_clear_error(&err);
		rc = 1;
	}
	g_string_free(o, TRUE);
	g_free(prefix);
	g_free(src);
	g_free(text);
	g_free(cwd);
	return rc;
}
