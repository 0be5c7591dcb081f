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
		st->cpu += g_ascii_strtod(f[3], NULL);
		h->lines++;
		g_strfreev(f);
	}
	g_ptr_array_free(lines, TRUE);
	return h;
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
