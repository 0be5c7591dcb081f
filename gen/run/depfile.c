/* depfile.c -- parsing and writing depfiles; see depfile.h. */
#include "depfile.h"

#include <string.h>

GPtrArray *depfile_parse(const char *text)
{
	GPtrArray *deps = g_ptr_array_new_with_free_func(g_free);
	GString *cur = g_string_new(NULL);
	gboolean in_deps = FALSE;
	for (const char *p = text;; p++) {
		char ch = *p;
		if (ch == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
			p += p[1] == '\r' ? 2 : 1;
			ch = ' ';
		} else if (ch == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\')) {
			g_string_append_c(cur, p[1]);
			p++;
			continue;
		} else if (ch == '$' && p[1] == '$') {
			g_string_append_c(cur, '$');
			p++;
			continue;
		}
		gboolean end_word = ch == '\0' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
		if (!end_word && ch == ':' && !in_deps &&
		    (p[1] == '\0' || p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == '\r')) {
			/* end of the target list */
			g_string_truncate(cur, 0);
			in_deps = TRUE;
			continue;
		}
		if (end_word) {
			if (cur->len && in_deps)
				g_ptr_array_add(deps, g_strdup(cur->str));
			g_string_truncate(cur, 0);
			if (ch == '\n')
				in_deps = FALSE;
			if (!ch)
				break;
			continue;
		}
		g_string_append_c(cur, ch);
	}
	g_string_free(cur, TRUE);
	return deps;
}

static void put_escaped(GString *o, const char *p)
{
	for (; *p; p++) {
		if (*p == ' ' || *p == '#' || *p == '\\')
			g_string_append_c(o, '\\');
		if (*p == '$')
			g_string_append_c(o, '$');
		g_string_append_c(o, *p);
	}
}

GString *depfile_format(const char *target, GPtrArray *deps)
{
	GString *o = g_string_new(NULL);
	put_escaped(o, target);
	g_string_append_c(o, ':');
	for (guint i = 0; i < deps->len; i++) {
		g_string_append(o, " \\\n ");
		put_escaped(o, g_ptr_array_index(deps, i));
	}
	g_string_append_c(o, '\n');
	/* as gcc -MP: each dependency a target of its own, so that make does
	 * not stop when one is deleted */
	for (guint i = 0; i < deps->len; i++) {
		g_string_append_c(o, '\n');
		put_escaped(o, g_ptr_array_index(deps, i));
		g_string_append(o, ":\n");
	}
	return o;
}
