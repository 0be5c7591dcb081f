/* ninjalog.c -- .ninja_log and build.ninja readers; see ninjalog.h.
 *
 * The log: ninja appends one line per output of every edge that finished,
 * "START\tEND\tMTIME\tOUTPUT\tCMDHASH" (times in ms since that ninja run
 * started), so within one run the end times never decrease; each new run
 * (and the restart after ninja regenerated build.ninja) counts from 0
 * again. ninja skips lines it cannot read and a last line without its
 * newline; so does this reader, except that a complete last line (every
 * field there, only the newline missing) is kept.
 */
#include "ninjalog.h"

#include <string.h>

#include "util.h"

/* ---- .ninja_log ---- */

static void entry_free(gpointer p)
{
	NinjaLogEntry *e = p;
	g_free(e->output);
	g_free(e->hash);
	g_free(e);
}

void ninjalog_free(NinjaLog *log)
{
	if (!log)
		return;
	g_ptr_array_free(log->latest, TRUE);
	g_ptr_array_free(log->all, TRUE);
	g_free(log);
}

/* A decimal number of n bytes; a leading '-' only when allow_neg. */
static gboolean parse_num(const char *s, gsize n, gboolean allow_neg, gint64 *out)
{
	gsize i = 0;
	gboolean neg = FALSE;
	if (allow_neg && n > 0 && s[0] == '-') {
		neg = TRUE;
		i = 1;
	}
	if (i >= n)
		return FALSE;
	gint64 v = 0;
	for (; i < n; i++) {
		if (!g_ascii_isdigit(s[i]) || v > (G_MAXINT64 - (s[i] - '0')) / 10)
			return FALSE;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return TRUE;
}

/* One entry line (without its newline); NULL when malformed. */
static NinjaLogEntry *parse_entry(const char *s, gsize n, guint lineno)
{
	if (memchr(s, '\0', n))
		return NULL;
	const char *f[5];
	gsize fl[5];
	gsize k = 0, from = 0;
	for (gsize i = 0; i <= n; i++) {
		if (i == n || s[i] == '\t') {
			if (k == 5)
				return NULL; /* more than five fields */
			f[k] = s + from;
			fl[k] = i - from;
			k++;
			from = i + 1;
		}
	}
	if (k != 5 || fl[3] == 0 || fl[4] == 0)
		return NULL;
	gint64 start, end, mtime;
	if (!parse_num(f[0], fl[0], FALSE, &start) || !parse_num(f[1], fl[1], FALSE, &end) ||
	    !parse_num(f[2], fl[2], TRUE, &mtime) || end < start)
		return NULL;
	for (gsize i = 0; i < fl[4]; i++)
		if (!g_ascii_isalnum(f[4][i]))
			return NULL;
	NinjaLogEntry *e = g_new0(NinjaLogEntry, 1);
	e->start_ms = start;
	e->end_ms = end;
	e->mtime = mtime;
	e->output = g_strndup(f[3], fl[3]);
	e->hash = g_strndup(f[4], fl[4]);
	e->line = lineno;
	return e;
}

/* The header's text, made printable and short, for a message. */
static char *shown(const char *s, gsize n)
{
	GString *o = g_string_new(NULL);
	for (gsize i = 0; i < n && i < 40; i++)
		g_string_append_c(o, (guchar)s[i] < 0x20 || (guchar)s[i] >= 0x7f ? '?' : s[i]);
	if (n > 40)
		g_string_append(o, "...");
	return g_string_free(o, FALSE);
}

static gboolean parse_header(const char *s, gsize n, const char *name, int *version,
			     GError **err)
{
	static const char sig[] = "# ninja log v";
	gsize sl = sizeof sig - 1;
	gint64 v = 0;
	if (n < sl || memcmp(s, sig, sl) != 0 || !parse_num(s + sl, n - sl, FALSE, &v)) {
		char *h = shown(s, n);
		cg_error(err, "%s: not a ninja log (its first line is '%s', not '# ninja log vN')",
			 name, h);
		g_free(h);
		return FALSE;
	}
	if (v < 5 || v > 7) {
		cg_error(err, "%s: ninja log version %" G_GINT64_FORMAT " is not supported "
			 "(cugen reads versions 5, 6 and 7; a build with this ninja rewrites it)",
			 name, v);
		return FALSE;
	}
	*version = (int)v;
	return TRUE;
}

/* Where the last run of all[0, end) starts: after the last place where
 * end times go back, and after the last earlier line of an output that
 * the run logs again. */
static guint run_start(const GPtrArray *all, guint end)
{
	guint start = 0;
	for (guint i = 1; i < end; i++) {
		const NinjaLogEntry *a = g_ptr_array_index(all, i - 1);
		const NinjaLogEntry *b = g_ptr_array_index(all, i);
		if (b->end_ms < a->end_ms)
			start = i;
	}
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint first = start;
	for (guint i = end; i > start; i--) {
		const NinjaLogEntry *e = g_ptr_array_index(all, i - 1);
		if (g_hash_table_contains(seen, e->output)) {
			first = i;
			break;
		}
		g_hash_table_add(seen, e->output);
	}
	g_hash_table_destroy(seen);
	return first;
}

static void select_run(NinjaLog *log, guint first, guint end)
{
	g_ptr_array_set_size(log->latest, 0);
	for (guint i = first; i < end; i++)
		g_ptr_array_add(log->latest, g_ptr_array_index(log->all, i));
	log->latest_first = first;
}

static void find_latest(NinjaLog *log)
{
	GPtrArray *all = log->all;
	if (!all->len)
		return;
	/* runs: one, plus each place end times go back, plus the repeated
	 * output that starts the latest run */
	log->runs = 1;
	for (guint i = 1; i < all->len; i++) {
		const NinjaLogEntry *a = g_ptr_array_index(all, i - 1);
		const NinjaLogEntry *b = g_ptr_array_index(all, i);
		if (b->end_ms < a->end_ms)
			log->runs++;
	}
	guint first = run_start(all, all->len);
	guint back = 0;
	for (guint i = 1; i < all->len; i++)
		if (((const NinjaLogEntry *)g_ptr_array_index(all, i))->end_ms <
		    ((const NinjaLogEntry *)g_ptr_array_index(all, i - 1))->end_ms)
			back = i;
	if (first != back)
		log->runs++;
	select_run(log, first, all->len);
}

gboolean ninjalog_select_earlier(NinjaLog *log)
{
	if (!log->latest->len || !log->latest_first)
		return FALSE;
	guint end = log->latest_first;
	select_run(log, run_start(log->all, end), end);
	return TRUE;
}

NinjaLog *ninjalog_parse(const char *data, gsize len, const char *name, GError **err)
{
	NinjaLog *log = g_new0(NinjaLog, 1);
	log->all = g_ptr_array_new_with_free_func(entry_free);
	log->latest = g_ptr_array_new();
	if (len == 0)
		return log;
	gsize pos = 0;
	guint lineno = 0;
	while (pos < len) {
		const char *s = data + pos;
		const char *nl = memchr(s, '\n', len - pos);
		gsize n = nl ? (gsize)(nl - s) : len - pos;
		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n && s[n - 1] == '\r')
			n--;
		if (lineno == 1) {
			if (!parse_header(s, n, name, &log->version, err)) {
				ninjalog_free(log);
				return NULL;
			}
			continue;
		}
		if (n == 0 || s[0] == '#')
			continue;
		NinjaLogEntry *e = parse_entry(s, n, lineno);
		if (e) {
			g_ptr_array_add(log->all, e);
		} else if (!nl) {
			log->truncated = TRUE;
		} else {
			if (!log->malformed)
				log->first_malformed = lineno;
			log->malformed++;
		}
	}
	find_latest(log);
	return log;
}

/* ---- build.ninja ---- */

static void medge_free(gpointer p)
{
	ManifestEdge *e = p;
	g_free(e->rule);
	g_ptr_array_free(e->outs, TRUE);
	g_ptr_array_free(e->implicit_outs, TRUE);
	g_ptr_array_free(e->ins, TRUE);
	g_ptr_array_free(e->implicit_ins, TRUE);
	g_ptr_array_free(e->order_ins, TRUE);
	g_free(e);
}

void manifest_free(Manifest *m)
{
	if (!m)
		return;
	g_hash_table_destroy(m->producer);
	g_hash_table_destroy(m->rules);
	g_ptr_array_free(m->edges, TRUE);
	g_free(m);
}

static gboolean is_var_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '-';
}

/* Copy a $-escape at p ($$, "$ ", $:, ${name}, $name) to out, unescaped
 * where it is an escape and as written where it is a variable; returns the
 * position after it, or NULL for a '$' that starts nothing. */
static const char *take_dollar(const char *p, GString *out)
{
	char c = p[1];
	if (c == '$' || c == ' ' || c == ':') {
		g_string_append_c(out, c);
		return p + 2;
	}
	if (c == '{') {
		const char *e = strchr(p + 2, '}');
		if (!e || e == p + 2)
			return NULL;
		for (const char *q = p + 2; q < e; q++)
			if (!is_var_char(*q) && *q != '.')
				return NULL;
		g_string_append_len(out, p, e + 1 - p);
		return e + 1;
	}
	if (is_var_char(c)) {
		const char *q = p + 1;
		while (is_var_char(*q))
			q++;
		g_string_append_len(out, p, q - p);
		return q;
	}
	return NULL;
}

enum { T_END, T_PATH, T_COLON, T_PIPE, T_PIPE2, T_PIPEAT, T_BAD };

static int next_token(const char **pp, GString *out)
{
	const char *p = *pp;
	while (*p == ' ')
		p++;
	int t;
	if (!*p) {
		t = T_END;
	} else if (*p == ':') {
		t = T_COLON;
		p++;
	} else if (*p == '|') {
		t = p[1] == '|' ? T_PIPE2 : p[1] == '@' ? T_PIPEAT : T_PIPE;
		p += t == T_PIPE ? 1 : 2;
	} else {
		t = T_PATH;
		g_string_truncate(out, 0);
		while (*p && *p != ' ' && *p != ':' && *p != '|') {
			if (*p == '$') {
				p = take_dollar(p, out);
				if (!p) {
					*pp = NULL;
					return T_BAD;
				}
				continue;
			}
			g_string_append_c(out, *p++);
		}
	}
	*pp = p;
	return t;
}

typedef struct {
	Manifest *m;
	const char *name;
	char *rule;          /* the rule whose bindings follow, or NULL */
	GString *tok;
} MState;

static gboolean parse_build(MState *st, const char *p, guint line, GError **err)
{
	ManifestEdge *e = g_new0(ManifestEdge, 1);
	e->outs = g_ptr_array_new_with_free_func(g_free);
	e->implicit_outs = g_ptr_array_new_with_free_func(g_free);
	e->ins = g_ptr_array_new_with_free_func(g_free);
	e->implicit_ins = g_ptr_array_new_with_free_func(g_free);
	e->order_ins = g_ptr_array_new_with_free_func(g_free);
	e->line = line;
	GPtrArray *into = e->outs;
	const char *why = NULL;
	int t;
	/* outputs */
	while ((t = next_token(&p, st->tok)) != T_COLON) {
		if (t == T_PATH)
			g_ptr_array_add(into, g_strdup(st->tok->str));
		else if (t == T_PIPE && into == e->outs)
			into = e->implicit_outs;
		else {
			why = t == T_BAD ? "bad $-escape" : t == T_END ? "expected ':' after the outputs"
				: "unexpected '|' among the outputs";
			goto fail;
		}
	}
	if (!e->outs->len) {
		why = "a build statement without outputs";
		goto fail;
	}
	/* the rule */
	while (*p == ' ')
		p++;
	const char *r = p;
	while (is_var_char(*p) || *p == '.')
		p++;
	if (p == r || (*p && *p != ' ')) {
		why = "expected a rule name after ':'";
		goto fail;
	}
	e->rule = g_strndup(r, p - r);
	/* inputs */
	into = e->ins;
	while ((t = next_token(&p, st->tok)) != T_END) {
		if (t == T_PATH) {
			if (into)
				g_ptr_array_add(into, g_strdup(st->tok->str));
		} else if (t == T_PIPE && into == e->ins) {
			into = e->implicit_ins;
		} else if (t == T_PIPE2 && (into == e->ins || into == e->implicit_ins)) {
			into = e->order_ins;
		} else if (t == T_PIPEAT) {
			into = NULL; /* validations are not dependencies */
		} else {
			why = t == T_BAD ? "bad $-escape" : "unexpected separator among the inputs";
			goto fail;
		}
	}
	g_ptr_array_add(st->m->edges, e);
	GPtrArray *lists[] = { e->outs, e->implicit_outs };
	for (gsize k = 0; k < G_N_ELEMENTS(lists); k++)
		for (guint i = 0; i < lists[k]->len; i++)
			if (!g_hash_table_contains(st->m->producer, g_ptr_array_index(lists[k], i)))
				g_hash_table_insert(st->m->producer, g_ptr_array_index(lists[k], i), e);
	return TRUE;
fail:
	cg_error_at(err, st->name, (int)line, "%s", why);
	medge_free(e);
	return FALSE;
}

/* "KEY = VALUE" of a binding: the key, and VALUE unescaped into value. */
static gboolean parse_binding(const char *p, char **key, GString *value)
{
	while (*p == ' ')
		p++;
	const char *k = p;
	while (is_var_char(*p) || *p == '.')
		p++;
	if (p == k)
		return FALSE;
	*key = g_strndup(k, p - k);
	while (*p == ' ')
		p++;
	if (*p != '=') {
		g_clear_pointer(key, g_free);
		return FALSE;
	}
	p++;
	while (*p == ' ')
		p++;
	g_string_truncate(value, 0);
	while (*p) {
		if (*p == '$') {
			const char *q = take_dollar(p, value);
			if (q) {
				p = q;
				continue;
			}
		}
		g_string_append_c(value, *p++);
	}
	return TRUE;
}

/* One logical line (continuations joined, escapes still in). */
static gboolean manifest_line(MState *st, const char *s, guint line, GError **err)
{
	gboolean indented = *s == ' ' || *s == '\t';
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#')
		return TRUE;
	if (indented) {
		if (!st->rule)
			return TRUE; /* a binding of a build, pool or other statement */
		char *key = NULL;
		GString *v = g_string_new(NULL);
		if (parse_binding(s, &key, v) && strcmp(key, "description") == 0)
			g_hash_table_replace(st->m->rules, g_strdup(st->rule), g_strdup(v->str));
		g_free(key);
		g_string_free(v, TRUE);
		return TRUE;
	}
	g_clear_pointer(&st->rule, g_free);
	gsize wl = strcspn(s, " ");
	const char *rest = s + wl;
	while (*rest == ' ')
		rest++;
	if (wl == 4 && strncmp(s, "rule", 4) == 0) {
		const char *n = rest;
		while (is_var_char(*rest) || *rest == '.')
			rest++;
		if (rest == n || (*rest && *rest != ' ')) {
			cg_error_at(err, st->name, (int)line, "expected a rule name after 'rule'");
			return FALSE;
		}
		st->rule = g_strndup(n, rest - n);
		if (!g_hash_table_contains(st->m->rules, st->rule))
			g_hash_table_insert(st->m->rules, g_strdup(st->rule), g_strdup(""));
		return TRUE;
	}
	if (wl == 5 && strncmp(s, "build", 5) == 0)
		return parse_build(st, rest, line, err);
	/* pool, default, include, subninja, variable = value */
	return TRUE;
}

Manifest *manifest_parse(const char *text, gsize len, const char *name, GError **err)
{
	Manifest *m = g_new0(Manifest, 1);
	m->rules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	m->edges = g_ptr_array_new_with_free_func(medge_free);
	m->producer = g_hash_table_new(g_str_hash, g_str_equal);
	MState st = { m, name, NULL, g_string_new(NULL) };
	GString *cur = g_string_new(NULL);
	guint line = 1, start_line = 1;
	gboolean ok = TRUE;
	for (gsize i = 0; ok && i <= len; i++) {
		char c = i < len ? text[i] : '\n';
		if (c == '\0') {
			cg_error_at(err, name, (int)line, "unexpected NUL byte");
			ok = FALSE;
			break;
		}
		if (c == '$' && i + 1 < len && text[i + 1] == '\0') {
			cg_error_at(err, name, (int)line, "unexpected NUL byte");
			ok = FALSE;
			break;
		}
		if (c == '$' && i + 1 < len) {
			gsize j = i + 1;
			if (text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
				j++;
			if (text[j] == '\n') {
				/* continuation: drop it and the next line's indentation */
				line++;
				i = j;
				while (i + 1 < len && text[i + 1] == ' ')
					i++;
				continue;
			}
			g_string_append_c(cur, c);
			g_string_append_c(cur, text[i + 1]);
			i++;
			continue;
		}
		if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue;
		if (c == '\n') {
			if (i < len || cur->len)
				ok = manifest_line(&st, cur->str, start_line, err);
			g_string_truncate(cur, 0);
			line++;
			start_line = line;
			continue;
		}
		g_string_append_c(cur, c);
	}
	g_string_free(cur, TRUE);
	g_string_free(st.tok, TRUE);
	g_free(st.rule);
	if (!ok) {
		manifest_free(m);
		return NULL;
	}
	return m;
}
