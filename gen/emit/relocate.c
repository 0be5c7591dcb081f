/* relocate.c -- layout-free names for shards and device line info; see
 * relocate.h (`cugen srcnames`, which device compiles run, is
 * run/srcnames.c's). */
#include "relocate.h"

#include <stdio.h>
#include <string.h>

#include "pipeline.h"
#include "util.h"

#define AT_BUILD "@BUILD@"
#define AT_SRC "@SRC@"

/* What follows dir in path ("" for dir itself), or NULL when path is not
 * below it; both absolute and normalised. */
const char *reloc_below(const char *path, const char *dir)
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
	if ((rest = reloc_below(abs, p->build)))
		r = *rest ? g_strconcat(AT_BUILD "/", rest, NULL) : g_strdup(AT_BUILD);
	else if ((rest = reloc_below(abs, p->src)))
		r = *rest ? g_strconcat(AT_SRC "/", rest, NULL) : g_strdup(AT_SRC);
	else if (path[0] != '/') /* beside the project (../../utils): from the
				  * build directory, as written */
		r = g_strconcat(AT_BUILD "/", path, NULL);
	else /* the toolkit's and the system's paths as they were written */
		r = g_strdup(path);
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

/* gcc's OLD=NEW maps (cugen's: -fmacro-prefix-map=SRC/=): OLD a path. */
static const char *const map_opts[] = { "-fmacro-prefix-map=", "-ffile-prefix-map=", "-fdebug-prefix-map=", NULL };

static char *reloc_word(const char *w, const Places *p)
{
	for (gsize i = 0; map_opts[i]; i++) {
		gsize n = strlen(map_opts[i]);
		const char *eq = strncmp(w, map_opts[i], n) == 0 ? strchr(w + n, '=') : NULL;
		if (!eq || eq == w + n)
			continue;
		char *old = g_strndup(w + n, (gsize)(eq - w - n));
		gsize len = strlen(old);
		gboolean slash = len > 1 && old[len - 1] == '/';
		if (slash)
			old[len - 1] = '\0';
		char *r = path_word(old) ? reloc_path(old, p) : g_strdup(old);
		char *o = g_strconcat(map_opts[i], r, slash ? "/" : "", eq, NULL);
		g_free(r);
		g_free(old);
		return o;
	}
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
