/* util.c -- errors, quoting, paths, hashing, timing marks, processes;
 * see util.h (staged output is stage.c's). */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(cugen-error-quark, cugen_error)

/* Messages quote what they name ('VALUE'): a quoted run longer than
 * QUOTE_MAX bytes (a pasted megabyte, not a path) keeps its start and
 * end around "...", so the message stays one readable line. */
#define QUOTE_MAX 200
static char *shorten_quotes(char *msg)
{
	if (strlen(msg) <= QUOTE_MAX)
		return msg;
	GString *o = g_string_new(NULL);
	const char *p = msg;
	for (;;) {
		const char *q = strchr(p, '\'');
		const char *end = q ? strchr(q + 1, '\'') : NULL;
		if (!end) {
			g_string_append(o, p);
			break;
		}
		gsize n = (gsize)(end - q - 1);
		if (n > QUOTE_MAX) {
			/* cut between UTF-8 characters */
			const char *h = q + 1 + 120, *t = end - 40;
			while (h > q + 1 && ((guchar)*h & 0xC0) == 0x80)
				h--;
			while (t < end && ((guchar)*t & 0xC0) == 0x80)
				t++;
			g_string_append_len(o, p, h - p);
			g_string_append_printf(o, "...(%" G_GSIZE_FORMAT " bytes)...", n);
			g_string_append_len(o, t, end + 1 - t);
		} else {
			g_string_append_len(o, p, end + 1 - p);
		}
		p = end + 1;
	}
	g_free(msg);
	return g_string_free(o, FALSE);
}

static void set_msg(GError **err, int code, char *msg)
{
	msg = shorten_quotes(msg);
	if (err)
		g_set_error_literal(err, CUGEN_ERROR, code, msg);
	g_free(msg);
}

void cg_error_at(GError **err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line > 0)
		set_msg(err, CUGEN_ERROR_INPUT,
			g_strdup_printf("%s:%d: error: %s", file, line, m));
	else
		set_msg(err, CUGEN_ERROR_INPUT,
			g_strdup_printf("%s: error: %s", file, m));
	g_free(m);
}

void cg_error_loc(GError **err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (file && line > 0)
		cg_error_at(err, file, line, "%s", m);
	else if (file)
		set_msg(err, CUGEN_ERROR_INPUT, g_strdup_printf("error: %s: %s", file, m));
	else
		set_msg(err, CUGEN_ERROR_INPUT, g_strconcat("error: ", m, NULL));
	g_free(m);
}

void cg_error(GError **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	set_msg(err, CUGEN_ERROR_INPUT, g_strconcat("error: ", m, NULL));
	g_free(m);
}

void cg_usage_error(GError **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	set_msg(err, CUGEN_ERROR_USAGE, g_strconcat("error: ", m, NULL));
	g_free(m);
}

int cg_report(const GError *err)
{
	/* One line, whatever the message holds: line breaks become spaces,
	 * other control characters (a terminal escape in a file name) '?'. */
	GString *s = g_string_new("cugen: ");
	for (const char *p = err->message; *p; p++) {
		guchar c = (guchar)*p;
		if (c == '\n' || c == '\r')
			g_string_append_c(s, ' ');
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			g_string_append_c(s, '?');
		else
			g_string_append_c(s, *p);
	}
	fprintf(stderr, "%s\n", s->str);
	g_string_free(s, TRUE);
	if (err->domain == CUGEN_ERROR && err->code == CUGEN_ERROR_USAGE)
		return 2;
	return 1;
}

void cg_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "cugen: warning: %s\n", m);
	g_free(m);
}

void cg_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "cugen: note: %s\n", m);
	g_free(m);
}

/* Optimal string alignment distance (a swap of two neighbours counts 1),
 * ignoring case. */
static guint edit_distance(const char *a, const char *b)
{
	gsize la = strlen(a), lb = strlen(b);
	guint *d = g_new(guint, (la + 1) * (lb + 1));
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (gsize i = 0; i <= la; i++)
		D(i, 0) = i;
	for (gsize j = 0; j <= lb; j++)
		D(0, j) = j;
	for (gsize i = 1; i <= la; i++) {
		for (gsize j = 1; j <= lb; j++) {
			char ca = g_ascii_tolower(a[i - 1]), cb = g_ascii_tolower(b[j - 1]);
			guint v = MIN(D(i - 1, j) + 1, D(i, j - 1) + 1);
			v = MIN(v, D(i - 1, j - 1) + (ca != cb));
			if (i > 1 && j > 1 && ca == g_ascii_tolower(b[j - 2]) &&
			    g_ascii_tolower(a[i - 2]) == cb)
				v = MIN(v, D(i - 2, j - 2) + 1);
			D(i, j) = v;
		}
	}
	guint r = D(la, lb);
#undef D
	g_free(d);
	return r;
}

const char *cg_suggest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	guint best_d = G_MAXUINT;
	gboolean tie = FALSE;
	gsize len = strlen(word);
	for (const char *const *c = candidates; *c; c++) {
		guint d = edit_distance(word, *c);
		if (d < best_d) {
			best_d = d;
			best = *c;
			tie = FALSE;
		} else if (d == best_d && strcmp(*c, best) != 0) {
			tie = TRUE;
		}
	}
	if (tie)
		return NULL; /* two equally close: a guess would mislead */
	guint limit = len <= 3 ? 1 : 2;
	return best_d <= limit ? best : NULL;
}

static gboolean sh_safe(const char *s)
{
	if (!*s)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("@%_-+=:,./", *p))
			return FALSE;
	return TRUE;
}

char *cg_ninja_sh_quote(const char *s)
{
	char *q = cg_sh_quote(s);
	if (!strchr(q, '$'))
		return q;
	GString *o = g_string_new(NULL);
	for (const char *p = q; *p; p++) {
		if (*p == '$')
			g_string_append_c(o, '$');
		g_string_append_c(o, *p);
	}
	g_free(q);
	return g_string_free(o, FALSE);
}

char *cg_sh_quote(const char *s)
{
	if (sh_safe(s))
		return g_strdup(s);
	GString *o = g_string_new("'");
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			g_string_append(o, "'\\''");
		else
			g_string_append_c(o, *p);
	}
	g_string_append_c(o, '\'');
	return g_string_free(o, FALSE);
}

void cg_sh_append(GString *out, const char *arg)
{
	char *q = cg_sh_quote(arg);
	if (out->len && out->str[out->len - 1] != ' ')
		g_string_append_c(out, ' ');
	g_string_append(out, q);
	g_free(q);
}

gboolean cg_split_words(const char *s, GPtrArray *out, GError **err)
{
	int argc = 0;
	char **argv = NULL;
	while (*s && g_ascii_isspace(*s))
		s++;
	if (!*s)
		return TRUE;
	GError *e = NULL;
	if (!g_shell_parse_argv(s, &argc, &argv, &e)) {
		cg_error(err, "cannot split '%s' into words: %s", s, e->message);
		g_error_free(e);
		return FALSE;
	}
	for (int i = 0; i < argc; i++)
		g_ptr_array_add(out, g_strdup(argv[i]));
	g_strfreev(argv);
	return TRUE;
}

gboolean cg_split_defines(const char *s, GPtrArray *out, GError **err)
{
	const char *p = s;
	for (;;) {
		while (*p == ',' || g_ascii_isspace(*p))
			p++;
		if (!*p)
			return TRUE;
		GString *w = g_string_new(NULL);
		if (*p == '"') {
			/* the whole word quoted: its text, unquoted, \" and \\
			 * in it a quote and a backslash (as CMake reads
			 * "NAME=extern \"C\"") */
			const char *q = p + 1;
			while (*q && *q != '"') {
				if (q[0] == '\\' && (q[1] == '"' || q[1] == '\\'))
					q++;
				g_string_append_c(w, *q++);
			}
			if (!*q) {
				cg_error(err, "unterminated '\"' in list");
				g_string_free(w, TRUE);
				return FALSE;
			}
			p = q + 1;
		} else if (*p == '\'') {
			/* or in single quotes: the text inside, as it is */
			const char *end = strchr(p + 1, '\'');
			if (!end) {
				cg_error(err, "unterminated \"'\" in list");
				g_string_free(w, TRUE);
				return FALSE;
			}
			g_string_append_len(w, p + 1, end - p - 1);
			p = end + 1;
		}
		int depth = 0;
		while (*p && (depth > 0 || (*p != ',' && !g_ascii_isspace(*p)))) {
			if (*p == '\\' && p[1] && (g_ascii_isspace(p[1]) || p[1] == ',')) {
				/* "a\ b": the blank (or comma) belongs to the value,
				 * as the shell and CMake read it */
				g_string_append_c(w, p[1]);
				p += 2;
				continue;
			}
			if (*p == '"') {
				/* a quoted run, kept with its quotes and escapes */
				const char *q = p + 1;
				while (*q && *q != '"')
					q += q[0] == '\\' && q[1] ? 2 : 1;
				if (!*q) {
					cg_error(err, "unterminated '\"' in list");
					g_string_free(w, TRUE);
					return FALSE;
				}
				g_string_append_len(w, p, q + 1 - p);
				p = q + 1;
				continue;
			}
			if (*p == '(')
				depth++;
			else if (*p == ')' && depth > 0)
				depth--;
			g_string_append_c(w, *p++);
		}
		g_ptr_array_add(out, g_string_free(w, FALSE));
	}
}

gboolean cg_split_list(const char *s, GPtrArray *out, GError **err)
{
	GString *cur = NULL;
	for (const char *p = s;; p++) {
		if (*p == '"') {
			const char *end = strchr(p + 1, '"');
			if (!end) {
				cg_error(err, "unterminated '\"' in list");
				if (cur)
					g_string_free(cur, TRUE);
				return FALSE;
			}
			if (!cur)
				cur = g_string_new(NULL);
			g_string_append_len(cur, p + 1, end - p - 1);
			p = end;
			continue;
		}
		if (!*p || *p == ',' || g_ascii_isspace(*p)) {
			if (cur)
				g_ptr_array_add(out, g_string_free(cur, FALSE));
			cur = NULL;
			if (!*p)
				break;
			continue;
		}
		if (!cur)
			cur = g_string_new(NULL);
		g_string_append_c(cur, *p);
	}
	return TRUE;
}

/* Whether normalizing would give path back: no empty, "." or ".."
 * component (a leading '/' aside) and no trailing '/'. */
static gboolean path_is_norm(const char *path)
{
	const char *p = path[0] == '/' ? path + 1 : path;
	if (!*p)
		return FALSE;
	for (;;) {
		const char *end = strchrnul(p, '/');
		gsize n = end - p;
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return FALSE;
		if (!*end)
			return TRUE;
		p = end + 1;
	}
}

char *cg_path_norm(const char *path)
{
	if (path_is_norm(path)) /* most are: 10,000 sources from a glob */
		return g_strdup(path);
	gboolean abs = path[0] == '/';
	char **parts = g_strsplit(path, "/", -1);
	GPtrArray *st = g_ptr_array_new();
	for (char **p = parts; *p; p++) {
		if (!**p || strcmp(*p, ".") == 0)
			continue;
		if (strcmp(*p, "..") == 0 && st->len &&
		    strcmp(g_ptr_array_index(st, st->len - 1), "..") != 0) {
			g_ptr_array_remove_index(st, st->len - 1);
			continue;
		}
		if (strcmp(*p, "..") == 0 && abs)
			continue;
		g_ptr_array_add(st, *p);
	}
	GString *o = g_string_new(abs ? "/" : "");
	for (guint i = 0; i < st->len; i++) {
		if (i)
			g_string_append_c(o, '/');
		g_string_append(o, g_ptr_array_index(st, i));
	}
	if (!o->len)
		g_string_append_c(o, '.');
	g_ptr_array_free(st, TRUE);
	g_strfreev(parts);
	return g_string_free(o, FALSE);
}

char *cg_path_join(const char *a, const char *b)
{
	if (b[0] == '/')
		return cg_path_norm(b);
	char *j = g_build_filename(a, b, NULL);
	char *n = cg_path_norm(j);
	g_free(j);
	return n;
}

char *cg_abspath(const char *path)
{
	char *cwd = g_get_current_dir();
	char *r = cg_path_join(cwd, path);
	g_free(cwd);
	return r;
}

gboolean cg_path_near(const char *a, const char *b)
{
	guint n = 0;
	for (gsize i = 1; n < 2; i++) {
		gboolean ea = !a[i] || a[i] == '/', eb = !b[i] || b[i] == '/';
		if (ea != eb || (!ea && a[i] != b[i]))
			return FALSE;
		if (ea) {
			n++;
			if (!a[i] || !b[i])
				break;
		}
	}
	return n >= 2;
}

char *cg_relpath(const char *path, const char *dir)
{
	/* a normal path under a normal directory: what follows it */
	gsize dn = strlen(dir);
	if (dn > 1 && strncmp(path, dir, dn) == 0 && path[dn] == '/' && path_is_norm(dir) && path_is_norm(path))
		return g_strdup(path + dn + 1);
	char **p = g_strsplit(path, "/", -1);
	char **d = g_strsplit(dir, "/", -1);
	guint i = 0;
	while (p[i] && d[i] && strcmp(p[i], d[i]) == 0)
		i++;
	GString *o = g_string_new(NULL);
	for (guint j = i; d[j]; j++) {
		if (!*d[j])
			continue;
		g_string_append(o, o->len ? "/.." : "..");
	}
	for (guint j = i; p[j]; j++) {
		if (!*p[j])
			continue;
		if (o->len)
			g_string_append_c(o, '/');
		g_string_append(o, p[j]);
	}
	if (!o->len)
		g_string_append_c(o, '.');
	g_strfreev(p);
	g_strfreev(d);
	return g_string_free(o, FALSE);
}

char *cg_hash_hex(const void *data, gsize len)
{
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, len);
}

static gboolean timing_on;

void cg_timing_enable(void)
{
	timing_on = TRUE;
}

void cg_timing(const char *what)
{
	static gint64 last;
	if (!timing_on)
		return;
	gint64 now = g_get_monotonic_time();
	if (last)
		fprintf(stderr, "cugen: timing: %s %.1f ms\n", what, (now - last) / 1000.0);
	last = now;
}

/* ---- processes ---- */

/* The NUL-separated words of /proc/PID/cmdline, or NULL. */
static char **proc_cmdline(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	gchar *text = NULL;
	gsize len = 0;
	if (!g_file_get_contents(path, &text, &len, NULL) || !len) {
		g_free(text);
		return NULL;
	}
	GPtrArray *w = g_ptr_array_new();
	for (gsize i = 0; i < len; i += strlen(text + i) + 1)
		g_ptr_array_add(w, g_strdup(text + i));
	g_ptr_array_add(w, NULL);
	g_free(text);
	return (char **)g_ptr_array_free(w, FALSE);
}

static pid_t proc_parent(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	gchar *text = NULL;
	long ppid = 0;
	if (g_file_get_contents(path, &text, NULL, NULL)) {
		/* pid (comm) state ppid: comm may hold spaces and ')' */
		const char *r = strrchr(text, ')');
		if (!r || sscanf(r + 1, " %*c %ld", &ppid) != 1)
			ppid = 0;
	}
	g_free(text);
	return (pid_t)ppid;
}

pid_t cg_ninja_ancestor(char ***argv)
{
	pid_t pid = getppid();
	for (int depth = 0; depth < 4 && pid > 1; depth++, pid = proc_parent(pid)) {
		char **words = proc_cmdline(pid);
		if (!words)
			continue;
		char *base = g_path_get_basename(words[0]);
		gboolean is_ninja = g_str_has_prefix(base, "ninja");
		g_free(base);
		if (is_ninja) {
			if (argv)
				*argv = words;
			else
				g_strfreev(words);
			return pid;
		}
		g_strfreev(words);
	}
	return 0;
}

