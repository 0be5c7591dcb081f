/* ninja.c -- build.ninja and compile_commands.json; see ninja.h. */
#include "ninja.h"

#include <string.h>

#include "util.h"

/* A path in a build line: escape '$', ' ', ':' (ninja_syntax.py). */
static gboolean put_path(GString *o, const char *p, GError **err)
{
	g_string_append_c(o, ' ');
	if (!strpbrk(p, "$ :\n\r")) {
		g_string_append(o, p);
		return TRUE;
	}
	for (; *p; p++) {
		if (*p == '\n' || *p == '\r') {
			cg_error(err, "path with a newline cannot be written to build.ninja");
			return FALSE;
		}
		if (*p == '$' || *p == ' ' || *p == ':')
			g_string_append_c(o, '$');
		g_string_append_c(o, *p);
	}
	return TRUE;
}

static gboolean put_paths(GString *o, GPtrArray *paths, GError **err)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++)
		if (!put_path(o, g_ptr_array_index(paths, i), err))
			return FALSE;
	return TRUE;
}

/* A variable value: only '$' (and newlines) matter. */
static void put_value(GString *o, const char *v)
{
	if (!strpbrk(v, "$\n")) {
		g_string_append(o, v);
		return;
	}
	for (; *v; v++) {
		if (*v == '$')
			g_string_append_c(o, '$');
		if (*v == '\n')
			g_string_append(o, "$\n");
		else
			g_string_append_c(o, *v);
	}
}

GString *ninja_write(const Graph *g, const char *header, const char *inner, GError **err)
{
	/* about 220 bytes an edge at scale: one allocation, no regrowth */
	GString *o = g_string_sized_new(strlen(header) + 4096 + 256 * (gsize)g->edges->len);
	g_string_append(o, header);
	if (inner)
		g_string_append_printf(o, "builddir = %s\n", inner);
	if (g->pools->len)
		g_string_append_c(o, '\n');
	for (guint i = 0; i < g->pools->len; i++) {
		Pool *p = g_ptr_array_index(g->pools, i);
		if (p->why)
			g_string_append_printf(o, "# %s\n", p->why);
		g_string_append_printf(o, "pool %s\n  depth = %d\n", p->name, p->depth);
	}
	for (guint i = 0; i < g->rules->len; i++) {
		Rule *r = g_ptr_array_index(g->rules, i);
		if (inner && r->generator)
			continue;
		g_string_append_printf(o, "\nrule %s\n  command = %s\n", r->name, r->command);
		if (r->description)
			g_string_append_printf(o, "  description = %s\n", r->description);
		if (r->depfile)
			g_string_append_printf(o, "  depfile = %s\n", r->depfile);
		if (r->deps)
			g_string_append_printf(o, "  deps = %s\n", r->deps);
		if (r->pool)
			g_string_append_printf(o, "  pool = %s\n", r->pool);
		if (r->generator)
			g_string_append(o, "  generator = 1\n");
		if (r->restat)
			g_string_append(o, "  restat = 1\n");
	}
	g_string_append_c(o, '\n');
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (inner && e->kind == EK_REGEN)
			continue;
		g_string_append(o, "build");
		if (!put_paths(o, e->outs, err))
			goto fail;
		if (EDGE_LEN(e->implicit_outs)) {
			g_string_append(o, " |");
			if (!put_paths(o, e->implicit_outs, err))
				goto fail;
		}
		g_string_append(o, ": ");
		g_string_append(o, e->rule ? e->rule->name : "phony");
		if (!put_paths(o, e->ins, err))
			goto fail;
		if (EDGE_LEN(e->implicit_ins)) {
			g_string_append(o, " |");
			if (!put_paths(o, e->implicit_ins, err))
				goto fail;
		}
		if (EDGE_LEN(e->order_ins)) {
			g_string_append(o, " ||");
			if (!put_paths(o, e->order_ins, err))
				goto fail;
		}
		g_string_append_c(o, '\n');
		for (guint k = 0; k + 1 < EDGE_LEN(e->vars); k += 2) {
			g_string_append(o, "  ");
			g_string_append(o, g_ptr_array_index(e->vars, k));
			g_string_append(o, " = ");
			put_value(o, g_ptr_array_index(e->vars, k + 1));
			g_string_append_c(o, '\n');
		}
	}
	if (g->defaults->len) {
		g_string_append(o, "\ndefault");
		if (!put_paths(o, g->defaults, err))
			goto fail;
		g_string_append_c(o, '\n');
	}
	return o;
fail:
	g_string_free(o, TRUE);
	return NULL;
}

GString *compdb_write(const Graph *g, const char *builddir)
{
	GString *o = g_string_new("[");
	for (guint i = 0; i < g->compdb->len; i++) {
		CompdbEntry *c = g_ptr_array_index(g->compdb, i);
		g_string_append(o, i ? ",\n  {" : "\n  {");
		g_string_append(o, "\"directory\": ");
		cg_json_string(o, builddir);
		g_string_append(o, ", \"file\": ");
		cg_json_string(o, c->file);
		g_string_append(o, ", \"output\": ");
		cg_json_string(o, c->output);
		g_string_append(o, ", \"command\": ");
		cg_json_string(o, c->command);
		g_string_append(o, "}");
	}
	g_string_append(o, "\n]\n");
	return o;
}
