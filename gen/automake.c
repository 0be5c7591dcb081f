/* automake.c -- the cugen.mk fragment for automake projects.
 *
 * Owns: what the fragment exposes (a variable per target of cugen.ini:
 * CUGEN_LIB_<name> for libraries, CUGEN_OBJ_<name> for object targets,
 * CUGEN_PROG_<name> for executables, each a rule that runs cugen's graph),
 * the sources it adds to EXTRA_DIST (so make dist ships them), and its
 * text (templates/cugen.mk.in). The graph itself is the make backend's,
 * set up at build time in $(CUGEN_BUILDDIR). */
#include "automake.h"

#include <string.h>

#include "template.h"
#include "util.h"

/* automake variable names: letters, digits and '_' */
static char *var_name(const char *prefix, const char *name)
{
	GString *s = g_string_new(prefix);
	for (const char *p = name; *p; p++)
		g_string_append_c(s, g_ascii_isalnum(*p) ? *p : '_');
	return g_string_free(s, FALSE);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean automake_write(Generated *gen, GError **err)
{
	Config *c = gen->c;
	GString *vars = g_string_new(NULL), *rules = g_string_new(NULL), *targets = g_string_new(NULL);
	GString *dist = g_string_new(NULL);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		char *out = target_output_name(t);
		const char *kind = t->type == TGT_EXECUTABLE ? "CUGEN_PROG_" : t->type == TGT_OBJECT ? "CUGEN_OBJ_" : "CUGEN_LIB_";
		char *v = var_name(kind, t->name);
		if (out) {
			g_string_append_printf(vars, "%s = $(CUGEN_BUILDDIR)/%s\n", v, out);
		} else {
			/* an object target: its objects */
			g_string_append_printf(vars, "%s =", v);
			for (guint k = 0; k < gen->g->edges->len; k++) {
				Edge *e = g_ptr_array_index(gen->g->edges, k);
				if (e->target && strcmp(e->target, t->name) == 0 &&
				    (e->kind == EK_FATBIN || e->kind == EK_NVCC || e->kind == EK_CC || e->kind == EK_CXX))
					g_string_append_printf(vars, " $(CUGEN_BUILDDIR)/%s", EDGE_AT(e->outs, 0));
			}
			g_string_append_c(vars, '\n');
		}
		g_string_append_printf(rules, "$(%s): cugen-all\n\t@:\n", v);
		g_string_append_printf(targets, " %s", t->name);
		for (guint k = 0; k < t->sources->len; k++) {
			Source *s = g_ptr_array_index(t->sources, k);
			if (!g_hash_table_contains(seen, s->rel)) {
				g_hash_table_add(seen, g_strdup(s->rel));
				g_string_append_printf(dist, " %s", s->rel);
			}
		}
		g_free(v);
		g_free(out);
	}
	/* headers in the include directories ship too */
	for (guint i = 0; i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		for (guint k = 0; k < t->include->len; k++) {
			char *rel = cg_relpath(g_ptr_array_index(t->include, k), c->srcdir);
			GDir *d = g_dir_open(g_ptr_array_index(t->include, k), 0, NULL);
			GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
			const char *n;
			while (d && (n = g_dir_read_name(d)))
				if (g_str_has_suffix(n, ".h") || g_str_has_suffix(n, ".cuh") || g_str_has_suffix(n, ".hpp"))
					g_ptr_array_add(names, g_strdup(n));
			if (d)
				g_dir_close(d);
			g_ptr_array_sort(names, cmp_str);
			for (guint j = 0; j < names->len; j++) {
				char *p = strcmp(rel, ".") == 0 ? g_strdup(g_ptr_array_index(names, j))
							       : g_build_filename(rel, g_ptr_array_index(names, j), NULL);
				if (!g_hash_table_contains(seen, p)) {
					g_hash_table_add(seen, p);
					g_string_append_printf(dist, " %s", p);
				} else {
					g_free(p);
				}
			}
			g_ptr_array_free(names, TRUE);
			g_free(rel);
		}
	}
	if (vars->len && vars->str[vars->len - 1] == '\n')
		g_string_truncate(vars, vars->len - 1);
	const char *tv[] = { "PROJECT", c->name, "VERSION", CUGEN_VERSION, "TARGET_VARS", vars->str,
			     "DIST", dist->str, "TARGETS", targets->str + (targets->len ? 1 : 0),
			     "OUTPUT_RULES", rules->str, NULL };
	char *text = template_expand("cugen.mk.in", tv);
	Stage *st = stage_new();
	char *p = g_build_filename(c->srcdir, "cugen.mk", NULL);
	stage_add(st, p, g_string_new(text));
	gboolean ok = stage_commit(st, err);
	stage_free(st);
	g_free(p);
	g_free(text);
	g_hash_table_destroy(seen);
	g_string_free(vars, TRUE);
	g_string_free(rules, TRUE);
	g_string_free(targets, TRUE);
	g_string_free(dist, TRUE);
	return ok;
}
