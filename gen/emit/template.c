/* template.c -- templates/ text with @NAME@ placeholders; see template.h. */
#include "template.h"

#include <gio/gio.h>
#include <string.h>

char *template_text(const char *name)
{
	char *path = g_strconcat("/cugen/templates/", name, NULL);
	GBytes *b = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
	if (!b)
		g_error("template '%s' is not compiled in", name);
	gsize n = 0;
	const char *data = g_bytes_get_data(b, &n);
	char *s = g_strndup(data, n);
	g_bytes_unref(b);
	g_free(path);
	return s;
}

/* text t of template file (its fragment frag, or NULL) with its @KEY@s
 * filled from vars; an unknown key aborts, naming them */
static char *fill(const char *file, const char *frag, const char *t, const char *const *vars)
{
	GString *o = g_string_new(NULL);
	for (const char *p = t; *p; p++) {
		if (*p != '@') {
			g_string_append_c(o, *p);
			continue;
		}
		if (p[1] == '@') {
			g_string_append_c(o, '@');
			p++;
			continue;
		}
		/* @NAME@: NAME is upper case, digits and '_'; any other '@'
		 * (actions/checkout@v4) is text */
		const char *end = p + 1;
		while (g_ascii_isupper(*end) || g_ascii_isdigit(*end) || *end == '_')
			end++;
		if (*end != '@' || end == p + 1) {
			g_string_append_c(o, '@');
			continue;
		}
		const char *val = NULL;
		for (const char *const *v = vars; v && v[0]; v += 2)
			if (strncmp(v[0], p + 1, end - p - 1) == 0 && !v[0][end - p - 1])
				val = v[1];
		if (!val)
			g_error("template '%s%s%s': no value for @%.*s@", file, frag ? ":" : "", frag ? frag : "",
				(int)(end - p - 1), p + 1);
		g_string_append(o, val);
		p = end;
	}
	return g_string_free(o, FALSE);
}

char *template_expand(const char *name, const char *const *vars)
{
	char *t = template_text(name);
	char *o = fill(name, NULL, t, vars);
	g_free(t);
	return o;
}

/* file's fragments, name -> text: parsed on first use, kept (the
 * compiled-in text does not change) */
static GHashTable *fragments(const char *file)
{
	static GHashTable *files;
	if (!files)
		files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_hash_table_unref);
	GHashTable *f = g_hash_table_lookup(files, file);
	if (f)
		return f;
	f = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	char *t = template_text(file);
	char **lines = g_strsplit(t, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *tab = strchr(*l, '\t');
		if (**l == '#' || !**l)
			continue;
		if (!tab || tab == *l)
			g_error("template '%s': '%s' is not NAME, a tab, text", file, *l);
		g_hash_table_insert(f, g_strndup(*l, tab - *l), g_strdup(tab + 1));
	}
	g_strfreev(lines);
	g_free(t);
	g_hash_table_insert(files, g_strdup(file), f);
	return f;
}

char *template_fragment(const char *file, const char *name, const char *const *vars)
{
	const char *t = g_hash_table_lookup(fragments(file), name);
	if (!t)
		g_error("template '%s': no fragment '%s'", file, name);
	return fill(file, name, t, vars);
}

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *template_names(const char *prefix, const char *suffix)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char **names = g_resources_enumerate_children("/cugen/templates/", G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
	for (char **n = names; n && *n; n++)
		if (g_str_has_prefix(*n, prefix) && g_str_has_suffix(*n, suffix))
			g_ptr_array_add(out, g_strndup(*n + strlen(prefix), strlen(*n) - strlen(prefix) - strlen(suffix)));
	g_strfreev(names);
	g_ptr_array_sort(out, (GCompareFunc)cmp_names);
	return out;
}
