/* ninja.c -- build.ninja and compile_commands.json; see ninja.h. */
#include "ninja.h"

#include <string.h>

#include "jsonout.h"
#include "util.h"

/* The one escape of this language for a path in a build line: '$', ' '
 * and ':' escaped (ninja_syntax.py); '|' and newlines cannot be said. */
static gboolean put_path(GString *o, const char *p, GError **err)
{
	g_string_append_c(o, ' ');
	if (!strpbrk(p, "$ :|\n\r")) {
		g_string_append(o, p);
		return TRUE;
	}
	if (strpbrk(p, "|\n\r")) {
		/* ninja ends a path at '|' and a newline, and escapes neither */
		cg_error(err, "path '%s' cannot be written to build.ninja (a '|' or a newline in it)", p);
		return FALSE;
	}
	for (; *p; p++) {
		if (*p == '$' || *p == ' ' || *p == ':')
			g_string_append_c(o, '$');
		g_string_append_c(o, *p);
	}
	return TRUE;
}

/* A graph's path list: plain paths (graph_str) need no escaping. */
static gboolean put_paths(GString *o, PathList *paths, GError **err)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++) {
		const char *p = g_ptr_array_index(paths, i);
		const GraphStr *h = graph_str(p);
		if (h->plain) {
			cg_put(o, " ", 1);
			cg_put(o, p, h->len);
		} else if (!put_path(o, p, err)) {
			return FALSE;
		}
	}
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

/* A group of a build line: " SEP path..." when there are paths. */
static gboolean put_group(GString *o, const char *sep, PathList *paths, GError **err)
{
	if (!EDGE_LEN(paths))
		return TRUE;
	cg_puts(o, sep);
	return put_paths(o, paths, err);
}

/* The build statements of edges [from, to). */
static gboolean put_edges(GString *o, const Graph *g, guint from, guint to, gboolean skip_regen, GError **err)
{
	for (guint i = from; i < to; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (skip_regen && e->kind == EK_REGEN)
			continue;
		cg_put(o, "build", 5);
		if (!put_paths(o, e->outs, err) || !put_group(o, " |", e->implicit_outs, err))
			return FALSE;
		cg_put(o, ": ", 2);
		cg_puts(o, e->rule ? e->rule->name : "phony");
		if (!put_paths(o, e->ins, err) || !put_group(o, " |", e->implicit_ins, err) ||
		    !put_group(o, " ||", e->order_ins, err))
			return FALSE;
		cg_put(o, "\n", 1);
		for (guint k = 0; k + 1 < EDGE_LEN(e->vars); k += 2) {
			const char *name = g_ptr_array_index(e->vars, k), *v = g_ptr_array_index(e->vars, k + 1);
			cg_put(o, "  ", 2);
			cg_put(o, name, graph_str(name)->len);
			cg_put(o, " = ", 3);
			if (graph_str(v)->plain)
				cg_put(o, v, graph_str(v)->len);
			else
				put_value(o, v);
			cg_put(o, "\n", 1);
		}
	}
	return TRUE;
}

/* The second half of a large graph's statements, on a thread of its own */
typedef struct {
	const Graph *g;
	guint from, to;
	gboolean skip_regen;
	GString *text;
	GError *err;
	gboolean ok;
} EdgesPart;

static gpointer edges_part(gpointer data)
{
	EdgesPart *p = data;
	p->ok = put_edges(p->text, p->g, p->from, p->to, p->skip_regen, &p->err);
	return NULL;
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
	/* from 20,000 edges the second half is written on a thread */
	guint n = g->edges->len, half = n >= 20000 ? n / 2 : n;
	EdgesPart part = { g, half, n, inner != NULL, NULL, NULL, TRUE };
	GThread *t = NULL;
	if (half < n) {
		part.text = g_string_sized_new(256 * (gsize)(n - half));
		t = g_thread_new("cugen-edges", edges_part, &part);
	}
	gboolean ok = put_edges(o, g, 0, half, inner != NULL, err);
	if (t) {
		g_thread_join(t);
		if (ok && !part.ok)
			g_propagate_error(err, part.err);
		else
			g_clear_error(&part.err);
		ok = ok && part.ok;
		if (ok)
			cg_put(o, part.text->str, part.text->len);
		g_string_free(part.text, TRUE);
	}
	if (!ok)
		goto fail;
	if (g->defaults->len) {
		g_string_append(o, "\ndefault");
		for (guint i = 0; i < g->defaults->len; i++)
			if (!put_path(o, g_ptr_array_index(g->defaults, i), err))
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
	/* json-glib's pretty layout, written entry by entry (cg_json_put_str) */
	GString *o = g_string_sized_new(64 + (gsize)g->compdb->len * 1024);
	GString *dir = g_string_new(NULL);
	cg_json_put_str(dir, builddir);
	g_string_append(o, "[");
	GString *cmd = g_string_new(NULL);
	for (guint i = 0; i < g->compdb->len; i++) {
		CompdbEntry *c = g_ptr_array_index(g->compdb, i);
		g_string_append(o, i ? ",\n  {\n    \"directory\" : " : "\n  {\n    \"directory\" : ");
		g_string_append_len(o, dir->str, (gssize)dir->len);
		g_string_append(o, ",\n    \"file\" : ");
		cg_json_put_str(o, c->file);
		g_string_append(o, ",\n    \"output\" : ");
		cg_json_put_str(o, c->output);
		g_string_assign(cmd, c->command);
		if (c->args) {
			g_string_append_c(cmd, ' ');
			g_string_append(cmd, c->args);
		}
		g_string_append(o, ",\n    \"command\" : ");
		cg_json_put_str(o, cmd->str);
		g_string_append(o, "\n  }");
	}
	g_string_append(o, g->compdb->len ? "\n]\n" : "]\n");
	g_string_free(cmd, TRUE);
	g_string_free(dir, TRUE);
	return o;
}
