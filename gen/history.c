/* history.c -- BUILDDIR/.cugen/edges.log; see history.h. */
#include "history.h"

#include <stdlib.h>
#include <string.h>

/* Latest line per "tag\tstep", in first-seen order. */
static GPtrArray *latest_lines(const char *builddir, GHashTable **index_out)
{
	char *path = g_build_filename(builddir, ".cugen", "edges.log", NULL);
	char *data = NULL;
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	GHashTable *index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (g_file_get_contents(path, &data, NULL, NULL)) {
		char **v = g_strsplit(data, "\n", -1);
		for (char **l = v; *l; l++) {
			char **f = g_strsplit(*l, "\t", -1);
			if (g_strv_length(f) == 5) {
				char *key = g_strconcat(f[0], "\t", f[1], NULL);
				gpointer pos;
				if (g_hash_table_lookup_extended(index, key, NULL, &pos)) {
					guint i = GPOINTER_TO_UINT(pos);
					g_free(lines->pdata[i]);
					lines->pdata[i] = g_strdup(*l);
					g_free(key);
				} else {
					g_hash_table_insert(index, key, GUINT_TO_POINTER(lines->len));
					g_ptr_array_add(lines, g_strdup(*l));
				}
			}
			g_strfreev(f);
		}
		g_strfreev(v);
		g_free(data);
	}
	g_free(path);
	if (index_out)
		*index_out = index;
	else
		g_hash_table_destroy(index);
	return lines;
}

History *history_load(const char *builddir)
{
	History *h = g_new0(History, 1);
	h->edges = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GPtrArray *lines = latest_lines(builddir, NULL);
	for (guint i = 0; i < lines->len; i++) {
		char **f = g_strsplit(g_ptr_array_index(lines, i), "\t", -1);
		EdgeStat *st = g_hash_table_lookup(h->edges, f[0]);
		if (!st) {
			st = g_new0(EdgeStat, 1);
			g_hash_table_insert(h->edges, g_strdup(f[0]), st);
		}
		double rss = g_ascii_strtod(f[2], NULL) * 1024.0;
		st->rss = MAX(st->rss, rss);
		double cpu = g_ascii_strtod(f[3], NULL);
		st->cpu += cpu;
		if (strcmp(f[1], "cicc") != 0 && strcmp(f[1], "ptxas") != 0)
			st->cpu_pre += cpu;
		h->lines++;
		g_strfreev(f);
	}
	g_ptr_array_free(lines, TRUE);
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
	GPtrArray *lines = latest_lines(builddir, NULL);
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < lines->len; i++) {
		g_string_append(s, g_ptr_array_index(lines, i));
		g_string_append_c(s, '\n');
	}
	g_ptr_array_free(lines, TRUE);
	return s;
}
