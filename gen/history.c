/* history.c -- BUILDDIR/.cugen/edges.log; see history.h. */
#include "history.h"

#include <stdlib.h>
#include <string.h>

/* A line's key: "tag\tstep", up to its second tab. */
static gsize key_len(const char *line)
{
	const char *t = strchr(line, '\t');
	t = t ? strchr(t + 1, '\t') : NULL;
	return t ? (gsize)(t - line) : strlen(line);
}

static guint key_hash(gconstpointer p)
{
	const char *s = p;
	gsize n = key_len(s);
	guint h = 5381;
	for (gsize i = 0; i < n; i++)
		h = h * 33 + (guchar)s[i];
	return h;
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
	gsize n = key_len(a);
	return key_len(b) == n && memcmp(a, b, n) == 0;
}

/* The latest line per "tag\tstep" (of 5 fields), in first-seen order:
 * pointers into *data, which the caller frees. At 10,000 TUs a build
 * logs some 300,000 lines: no line is copied or split. */
static GPtrArray *latest_lines(const char *builddir, char **data)
{
	char *path = g_build_filename(builddir, ".cugen", "edges.log", NULL);
	GPtrArray *lines = g_ptr_array_new();
	GHashTable *index = g_hash_table_new(key_hash, key_equal);
	*data = NULL;
	if (g_file_get_contents(path, data, NULL, NULL)) {
		for (char *l = *data; *l;) {
			char *end = strchrnul(l, '\n');
			gboolean more = *end != 0;
			*end = 0;
			int tabs = 0;
			for (const char *c = l; (c = strchr(c, '\t')); c++)
				tabs++;
			if (tabs == 4) {
				gpointer pos;
				if (g_hash_table_lookup_extended(index, l, NULL, &pos)) {
					lines->pdata[GPOINTER_TO_UINT(pos)] = l;
				} else {
					g_hash_table_insert(index, l, GUINT_TO_POINTER(lines->len));
					g_ptr_array_add(lines, l);
				}
			}
			if (!more)
				break;
			l = end + 1;
		}
	}
	g_hash_table_destroy(index);
	g_free(path);
	return lines;
}

History *history_load(const char *builddir)
{
	History *h = g_new0(History, 1);
	h->edges = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	char *data;
	GPtrArray *lines = latest_lines(builddir, &data);
	for (guint i = 0; i < lines->len; i++) {
		/* tag \t step \t rss KiB \t cpu s \t ... */
		char *tag = g_ptr_array_index(lines, i);
		char *step = strchr(tag, '\t') + 1;
		char *rs = strchr(step, '\t') + 1;
		char *cs = strchr(rs, '\t') + 1;
		step[-1] = 0;
		EdgeStat *st = g_hash_table_lookup(h->edges, tag);
		if (!st) {
			st = g_new0(EdgeStat, 1);
			g_hash_table_insert(h->edges, g_strdup(tag), st);
		}
		double rss = g_ascii_strtod(rs, NULL) * 1024.0;
		st->rss = MAX(st->rss, rss);
		double cpu = g_ascii_strtod(cs, NULL);
		st->cpu += cpu;
		gsize sn = rs - 1 - step;
		if (!(sn == 4 && memcmp(step, "cicc", 4) == 0) && !(sn == 5 && memcmp(step, "ptxas", 5) == 0))
			st->cpu_pre += cpu;
		h->lines++;
	}
	g_ptr_array_free(lines, TRUE);
	g_free(data);
	h->syntax_stub = h->pp_edges = -1;
	char *path = g_build_filename(builddir, ".cugen", "plan.ini", NULL);
	GKeyFile *k = g_key_file_new();
	if (g_key_file_load_from_file(k, path, G_KEY_FILE_NONE, NULL)) {
		const char *keys[] = { "syntax_stub", "pp_edges" };
		int *vals[] = { &h->syntax_stub, &h->pp_edges };
		for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
			GError *e = NULL;
			gboolean v = g_key_file_get_boolean(k, "plan", keys[i], &e);
			if (!e)
				*vals[i] = v;
			g_clear_error(&e);
		}
	}
	g_key_file_free(k);
	g_free(path);
	return h;
}

GString *history_choices(gboolean syntax_stub, gboolean pp_edges)
{
	GString *s = g_string_new("# cugen's planner: its choices that change commands (history.h)\n[plan]\n");
	g_string_append_printf(s, "syntax_stub=%s\npp_edges=%s\n", syntax_stub ? "true" : "false",
			       pp_edges ? "true" : "false");
	return s;
}

void history_free(History *h)
{
	if (!h)
		return;
	g_hash_table_destroy(h->edges);
	g_free(h);
}

const EdgeStat *history_get(const History *h, const char *output)
{
	return h ? g_hash_table_lookup(h->edges, output) : NULL;
}

GString *history_compact(const char *builddir)
{
	char *data;
	GPtrArray *lines = latest_lines(builddir, &data);
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < lines->len; i++) {
		g_string_append(s, g_ptr_array_index(lines, i));
		g_string_append_c(s, '\n');
	}
	g_ptr_array_free(lines, TRUE);
	g_free(data);
	return s;
}
