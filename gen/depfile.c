/* depfile.c -- depfiles and `cugen depdiff`; see depfile.h. */
#include "depfile.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "util.h"

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
	return o;
}

/* cugen depdiff HOST.d FULL.d OUT.d TARGET: OUT.d lists the headers of
 * FULL.d (a device view) missing from HOST.d (the host view); FULL.d is
 * removed. A missing HOST.d keeps every header (safe). */
int cmd_depdiff(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: cugen depdiff HOST.d FULL.d OUT.d TARGET\n");
		return 2;
	}
	GError *err = NULL;
	char *full = cg_read_file(argv[2], NULL, &err);
	if (!full)
		return cg_report(err);
	char *host = NULL;
	g_file_get_contents(argv[1], &host, NULL, NULL);
	GPtrArray *fdeps = depfile_parse(full);
	GHashTable *hset = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *hdeps = host ? depfile_parse(host) : NULL;
	for (guint i = 0; hdeps && i < hdeps->len; i++)
		g_hash_table_add(hset, g_ptr_array_index(hdeps, i));
	GPtrArray *extra = g_ptr_array_new();
	for (guint i = 0; i < fdeps->len; i++)
		if (!g_hash_table_contains(hset, g_ptr_array_index(fdeps, i)))
			g_ptr_array_add(extra, g_ptr_array_index(fdeps, i));
	GString *out = depfile_format(argv[4], extra);
	int rc = 0;
	if (!g_file_set_contents(argv[3], out->str, out->len, &err)) {
		fprintf(stderr, "cugen: error: %s\n", err->message);
		g_error_free(err);
		rc = 1;
	} else {
		unlink(argv[2]);
	}
	g_string_free(out, TRUE);
	g_ptr_array_free(extra, TRUE);
	g_hash_table_destroy(hset);
	if (hdeps)
		g_ptr_array_free(hdeps, TRUE);
	g_ptr_array_free(fdeps, TRUE);
	g_free(host);
	g_free(full);
	return rc;
}
