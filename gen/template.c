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

char *template_expand(const char *name, const char *const *vars)
{
	char *t = template_text(name);
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
		char *key = g_strndup(p + 1, end - p - 1);
		const char *val = NULL;
		for (const char *const *v = vars; v && v[0]; v += 2)
			if (strcmp(v[0], key) == 0)
				val = v[1];
		if (!val)
			g_error("template '%s': no value for @%s@", name, key);
		g_string_append(o, val);
		g_free(key);
		p = end;
	}
	g_free(t);
	return g_string_free(o, FALSE);
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
