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
		const char *end = strchr(p + 1, '@');
		if (!end) {
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
