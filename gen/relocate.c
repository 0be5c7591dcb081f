/* relocate.c -- layout-free names for shards and device line info; see
 * relocate.h. */
#include "relocate.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pipeline.h"
#include "util.h"

#define AT_BUILD "@BUILD@"
#define AT_SRC "@SRC@"

/* What follows dir in path ("" for dir itself), or NULL when path is not
 * below it; both absolute and normalised. */
static const char *below(const char *path, const char *dir)
{
	gsize n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/' ? path + 1 : NULL;
	if (strncmp(path, dir, n) != 0 || (path[n] && path[n] != '/'))
		return NULL;
	return path[n] ? path + n + 1 : path + n;
}

char *reloc_path(const char *path, const Places *p)
{
	char *abs = cg_path_join(p->build, path);
	const char *rest;
	char *r;
	if ((rest = below(abs, p->build)))
		r = *rest ? g_strconcat(AT_BUILD "/", rest, NULL) : g_strdup(AT_BUILD);
	else if ((rest = below(abs, p->src)))
		r = *rest ? g_strconcat(AT_SRC "/", rest, NULL) : g_strdup(AT_SRC);
	else /* the toolkit's and the system's paths as they were written */
		r = g_strdup(path[0] == '/' ? path : abs);
	g_free(abs);
	return r;
}

char *reloc_local(const char *name, const Places *p)
{
	const char *roots[] = { AT_BUILD, p->build, AT_SRC, p->src };
	for (gsize i = 0; i < G_N_ELEMENTS(roots); i += 2) {
		gsize n = strlen(roots[i]);
		if (strncmp(name, roots[i], n) == 0 && (!name[n] || name[n] == '/'))
			return cg_path_join(roots[i + 1], name[n] ? name + n + 1 : ".");
	}
	return g_strdup(name);
}

/* Options whose value (attached) is a path. */
static const char *const path_opts[] = {
	"-isystem", "-iquote", "-idirafter", "-imacros", "-include", "--include-path=", "--system-include=",
	"--library-path=", "-I", "-L", NULL
};

static gboolean path_word(const char *w)
{
	return w[0] == '/' || g_str_has_prefix(w, "./") || g_str_has_prefix(w, "../") || strcmp(w, ".") == 0 ||
	       strcmp(w, "..") == 0;
}

static char *reloc_word(const char *w, const Places *p)
{
	for (gsize i = 0; path_opts[i]; i++) {
		gsize n = strlen(path_opts[i]);
		if (strncmp(w, path_opts[i], n) == 0 && w[n] && w[n] != '$') {
			char *r = reloc_path(w + n, p);
			char *o = g_strconcat(path_opts[i], r, NULL);
			g_free(r);
			return o;
		}
	}
	return path_word(w) ? reloc_path(w, p) : g_strdup(w);
}

/* Whether the words of a rule make device code that records the build
 * directory whatever cugen renames. */
static gboolean records_build_dir(char **w)
{
	gboolean names = FALSE, shown = FALSE, renamed = FALSE;
	for (gsize i = 0; w[i]; i++) {
		names |= strcmp(w[i], "--debug_mode") == 0 || strcmp(w[i], "-generate-line-info") == 0;
		shown |= strcmp(w[i], "-show-src") == 0;
		renamed |= strcmp(w[i], "srcnames") == 0;
	}
	return shown || (names && !renamed);
}

char *reloc_rule_text(const char *command, const char *cugen, const Places *p)
{
	char *q = cg_sh_quote(cugen);
	char **parts = g_strsplit(command, q, -1);
	char *norm = g_strjoinv("cugen", parts);
	g_strfreev(parts);
	g_free(q);
	char **w = NULL;
	if (!g_shell_parse_argv(norm, NULL, &w, NULL))
		return norm; /* (not a command cugen wrote: compared as it is) */
	GString *o = g_string_new(NULL);
	if (records_build_dir(w))
		g_string_append_printf(o, "build-directory=%s", p->build);
	for (gsize i = 0; w[i]; i++) {
		char *r = reloc_word(w[i], p);
		if (strcmp(w[i], "&&") == 0 || strcmp(w[i], "||") == 0 || strcmp(w[i], ";") == 0)
			g_string_append_printf(o, "%s%s", o->len ? " " : "", r);
		else
			cg_sh_append(o, r);
		g_free(r);
	}
	g_strfreev(w);
	g_free(norm);
	return g_string_free(o, FALSE);
}

char *reloc_shown(const char *w)
{
	GString *o = g_string_new(NULL);
	for (const char *s = w; *s;) {
		if (s == w && g_str_has_prefix(s, AT_SRC "/")) { /* a file of the project: its name */
			s += strlen(AT_SRC "/");
		} else if (g_str_has_prefix(s, AT_SRC)) {
			g_string_append(o, "<project>");
			s += strlen(AT_SRC);
		} else if (g_str_has_prefix(s, AT_BUILD)) {
			g_string_append(o, "<build>");
			s += strlen(AT_BUILD);
		} else {
			g_string_append_c(o, *s++);
		}
	}
	if (o->len > 200) {
		g_string_truncate(o, 197);
		g_string_append(o, "...");
	}
	return g_string_free(o, FALSE);
}

static char **words_of(const char *text)
{
	char **w = NULL;
	if (!g_shell_parse_argv(text, NULL, &w, NULL)) {
		w = g_new0(char *, 2);
		w[0] = g_strdup(text);
	}
	return w;
}

/* Whether w[a...] and v[b...] agree for n words (or both end sooner). */
static gboolean same_next(char **w, guint a, char **v, guint b, guint n)
{
	for (guint q = 0; q < n; q++, a++, b++) {
		if (!w[a] || !v[b])
			return !w[a] && !v[b];
		if (strcmp(w[a], v[b]) != 0)
			return FALSE;
	}
	return TRUE;
}

/* Whether w has n words from w[a] on. */
static gboolean has_words(char **w, guint a, guint n)
{
	for (guint q = 0; q < n; q++)
		if (!w[a + q])
			return FALSE;
	return TRUE;
}

/* n words from w[a], joined by spaces, for a message. */
static char *shown_run(char **w, guint a, guint n)
{
	GString *o = g_string_new(NULL);
	for (guint q = 0; q < n && w[a + q]; q++) {
		char *x = reloc_shown(w[a + q]);
		g_string_append_printf(o, "%s%s", q ? " " : "", x);
		g_free(x);
	}
	return g_string_free(o, FALSE);
}

/* The longest change of words the messages describe. */
#define RUN_MAX 4u
/* The words after a change that must agree for it to be the change. */
#define AGREE 3u

char *reloc_first_difference(const char *theirs, const char *mine)
{
	if (strcmp(theirs, mine) == 0)
		return NULL;
	char **t = words_of(theirs), **m = words_of(mine);
	guint i = 0, j = 0;
	/* a build directory recorded on one side only: say that */
	gboolean td = t[0] && g_str_has_prefix(t[0], "build-directory="), md = m[0] && g_str_has_prefix(m[0], "build-directory=");
	char *r = NULL;
	if (td && md && strcmp(t[0], m[0]) != 0) {
		r = g_strdup_printf("its device code records the build directory '%s' where this build's is '%s': "
				    "build such shards (--source-in-ptx, or -lineinfo or -G with module_id = absolute) in one directory",
				    t[0] + 16, m[0] + 16);
		goto out;
	}
	i = td, j = md;
	while (t[i] && m[j] && strcmp(t[i], m[j]) == 0)
		i++, j++;
	if (!t[i] && !m[j]) {
		r = g_strdup("the same words in another form");
		goto out;
	}
	/* an option's value differs: name the option with it */
	if (i > (guint)td && j > (guint)md && t[i - 1][0] == '-' && (!t[i] || t[i][0] != '-') &&
	    (!m[j] || m[j][0] != '-'))
		i--, j--;
	/* k words more on one side, or k words for k: the smallest change
	 * after which AGREE words agree */
	for (guint k = 1; k <= RUN_MAX && !r; k++) {
		char *x = NULL, *y = NULL;
		if (has_words(m, j, k) && same_next(t, i, m, j + k, AGREE)) {
			x = shown_run(m, j, k);
			r = g_strdup_printf("no '%s', which this build has", x);
		} else if (has_words(t, i, k) && same_next(t, i + k, m, j, AGREE)) {
			x = shown_run(t, i, k);
			r = g_strdup_printf("'%s', which this build does not have", x);
		} else if (has_words(t, i, k) && has_words(m, j, k) && same_next(t, i + k, m, j + k, AGREE)) {
			x = shown_run(t, i, k);
			y = shown_run(m, j, k);
			r = g_strdup_printf("'%s' where this build has '%s'", x, y);
		}
		g_free(x);
		g_free(y);
	}
	if (!r) {
		char *x = shown_run(t, i, 1), *y = shown_run(m, j, 1);
		r = g_strdup_printf("'%s' where this build has '%s'", *x ? x : "(the end)", *y ? y : "(the end)");
		g_free(x);
		g_free(y);
	}
out:
	g_strfreev(t);
	g_strfreev(m);
	return r;
}

gboolean reloc_records_names(GPtrArray *cicc)
{
	return argv_contains(cicc, "-generate-line-info") || argv_contains(cicc, "--debug_mode");
}

gboolean reloc_can_rename(GPtrArray *cicc)
{
	return reloc_records_names(cicc) && !argv_contains(cicc, "-show-src");
}

/* ---- cugen srcnames ---- */

/* The name a line marker gets: below the build directory relative to it,
 * below the project relative to that, another relative one absolute;
 * NULL to keep it (absolute outside both, <built-in>). */
static char *marker_name(const char *name, const Places *p)
{
	if (name[0] == '<' || !*name)
		return NULL;
	char *abs = cg_path_join(p->build, name);
	const char *rest = below(abs, p->build);
	if (!rest)
		rest = below(abs, p->src);
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
