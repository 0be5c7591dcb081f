/* cachelook.c -- the direct mode's record of where the preprocessor
 * looked: for each file a preprocess read, the header names its
 * directives ask for (#include, #include_next, #import, and the
 * parenthesised names of __has_include and its wrappers on #if, #elif and
 * #define lines) and the places each is searched, in the preprocessor's
 * order: the includer's own directory for a quoted name, then the search
 * directories. Every place before the one that answered is recorded as
 * "a PATH" (nothing there: a header must not appear), and a file a
 * __has_include found as "x PATH" (it must stay), as ccache's manifests
 * record what a compile depended on; a hit checks them all
 * (ch_lookups_hold). Names a macro builds cannot be read here: those are
 * found headers, checked by cachedirect.c's shadow candidates. */
#include "cache_int.h"

#include <string.h>
#include <sys/stat.h>

typedef struct {
	const Request *r;
	const char *includer;
	GHashTable *seen; /* the paths recorded so far */
	GString *out;
	gint64 sec;
	glong nsec;
	gboolean ok; /* FALSE: a place changed during the compile */
} Look;

/* A header there: what the preprocessor would open (not a directory). */
static gboolean header_at(const char *path, struct stat *sb)
{
	return stat(path, sb) == 0 && !S_ISDIR(sb->st_mode);
}

static const char *search_dir(const Request *r, int k)
{
	return g_str_has_prefix(r->keys[k], "search=") ? r->keys[k] + strlen("search=") : NULL;
}

static gboolean under(const char *path, const char *dir)
{
	gsize n = strlen(dir);
	return n && strncmp(path, dir, n) == 0 && (path[n] == '/' || dir[n - 1] == '/');
}

/* One place: TRUE when the search stops there (a header answered). */
static gboolean place(Look *l, const char *path, gboolean probe)
{
	if (strchr(path, '\n'))
		return FALSE;
	struct stat sb;
	if (!header_at(path, &sb)) {
		if (g_hash_table_add(l->seen, g_strconcat("a ", path, NULL)))
			g_string_append_printf(l->out, "a %s\n", path);
		return FALSE;
	}
	/* found now, but made while the preprocess ran: it may have found
	 * nothing there, or other bytes */
	if (ch_changed_since(&sb, l->sec, l->nsec))
		l->ok = FALSE;
	if (probe && g_hash_table_add(l->seen, g_strconcat("x ", path, NULL)))
		g_string_append_printf(l->out, "x %s\n", path);
	return TRUE;
}

static void lookup(Look *l, const char *name, gboolean quote, gboolean next, gboolean probe)
{
	if (g_path_is_absolute(name)) {
		place(l, name, probe);
		return;
	}
	if (quote && !next) {
		char *dir = g_path_get_dirname(l->includer);
		char *p = g_build_filename(dir, name, NULL);
		gboolean stop = place(l, p, probe);
		g_free(p);
		g_free(dir);
		if (stop)
			return;
	}
	/* #include_next: the directories after the includer's (all of them
	 * where it is under none) */
	int from = 0;
	for (int k = 0; next && k < l->r->nkeys; k++) {
		const char *d = search_dir(l->r, k);
		if (d && under(l->includer, d)) {
			from = k + 1;
			break;
		}
	}
	for (int k = from; k < l->r->nkeys; k++) {
		const char *d = search_dir(l->r, k);
		if (!d)
			continue;
		char *p = g_build_filename(d, name, NULL);
		gboolean stop = place(l, p, probe);
		g_free(p);
		if (stop)
			return;
	}
}

/* A header name: "..." or <...> of plain path characters. */
static gsize header_name(const char *s, gsize n, const char **name, gboolean *quote)
{
	if (!n || (s[0] != '"' && s[0] != '<'))
		return 0;
	char close = s[0] == '"' ? '"' : '>';
	gsize i = 1;
	while (i < n && i < 4096 && (g_ascii_isalnum(s[i]) || strchr("_./+-@", s[i])))
		i++;
	if (i >= n || s[i] != close || i == 1)
		return 0;
	*name = s + 1;
	*quote = close == '"';
	return i + 1;
}

static void probes(Look *l, const char *s, gsize n)
{
	for (gsize i = 0; i < n; i++) {
		if (s[i] != '(')
			continue;
		/* the word before the parenthesis: __has_include_next */
		gsize e = i;
		while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		static const char nx[] = "__has_include_next";
		gboolean next = e >= sizeof nx - 1 && memcmp(s + e - (sizeof nx - 1), nx, sizeof nx - 1) == 0;
		gsize j = i + 1;
		while (j < n && (s[j] == ' ' || s[j] == '\t'))
			j++;
		const char *name = NULL;
		gboolean quote = FALSE;
		gsize m = header_name(s + j, n - j, &name, &quote);
		if (!m)
			continue;
		gsize k = j + m;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k < n && s[k] == ')') {
			char *nm = g_strndup(name, m - 2);
			lookup(l, nm, quote, next, TRUE);
			g_free(nm);
		}
	}
}

/* One logical line (continuations joined) that begins with '#'. */
static void directive(Look *l, const char *s, gsize n)
{
	gsize i = 1;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	gsize w = i;
	while (i < n && (g_ascii_isalnum(s[i]) || s[i] == '_'))
		i++;
	const char *word = s + w;
	gsize wl = i - w;
#define IS(lit) (wl == sizeof lit - 1 && memcmp(word, lit, wl) == 0)
	if (IS("include") || IS("include_next") || IS("import")) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		const char *name = NULL;
		gboolean quote = FALSE;
		gsize m = header_name(s + i, n - i, &name, &quote);
		if (m) { /* (a name a macro makes: cachedirect.c's shadows) */
			char *nm = g_strndup(name, m - 2);
			lookup(l, nm, quote, IS("include_next"), FALSE);
			g_free(nm);
		}
	} else if (IS("if") || IS("elif") || IS("define")) {
		probes(l, s + i, n - i);
	}
#undef IS
}

gboolean ch_lookups(const Request *r, const char *includer, const char *data, gsize len, GHashTable *seen,
		    GString *out, gint64 sec, glong nsec)
{
	Look l = { r, includer, seen, out, sec, nsec, TRUE };
	GString *line = g_string_new(NULL);
	gsize i = 0;
	while (i < len) {
		gsize s = i;
		while (s < len && (data[s] == ' ' || data[s] == '\t'))
			s++;
		gboolean hash = s < len && data[s] == '#';
		g_string_truncate(line, 0);
		/* to the end of the logical line */
		while (i < len) {
			const char *nl = memchr(data + i, '\n', len - i);
			gsize e = nl ? (gsize)(nl - data) : len;
			gsize k = e;
			gboolean cont = k > i && data[k - 1] == '\\';
			if (hash)
				g_string_append_len(line, data + i, (gssize)((cont ? k - 1 : k) - i));
			i = e < len ? e + 1 : len;
			if (!cont)
				break;
		}
		if (hash) {
			const char *t = line->str + strspn(line->str, " \t");
			directive(&l, t, line->len - (gsize)(t - line->str));
		}
	}
	g_string_free(line, TRUE);
	return l.ok;
}

gboolean ch_lookups_hold(const char *line)
{
	struct stat sb;
	if (line[0] == 'a' && line[1] == ' ')
		return !header_at(line + 2, &sb);
	if (line[0] == 'x' && line[1] == ' ')
		return header_at(line + 2, &sb);
	return TRUE;
}
