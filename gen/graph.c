/* graph.c -- rules, edges, pools and their bookkeeping; see graph.h. */
#include "graph.h"

#include <string.h>

#include "util.h"

static const char *const kind_names[EK_COUNT] = {
	[EK_FE] = "fe", [EK_DEV] = "dev", [EK_DEVPP] = "dev-pp", [EK_STUB] = "stub", [EK_FATBIN] = "fatbin",
	[EK_HOST] = "host", [EK_NVCC] = "nvcc",
	[EK_DLOBJ] = "dlink-obj", [EK_NVLINK] = "nvlink", [EK_DLFATBIN] = "dlink-fatbin",
	[EK_DLHOST] = "dlink-host", [EK_CC] = "cc", [EK_CXX] = "cxx",
	[EK_AR] = "ar", [EK_LINK] = "link", [EK_MANIFEST] = "manifest", [EK_REGEN] = "regen",
	[EK_PHONY] = "phony",
};

const char *edge_kind_name(EdgeKind k)
{
	return kind_names[k];
}

static void rule_free(gpointer p)
{
	Rule *r = p;
	g_free(r->name);
	g_free(r->command);
	g_free(r->description);
	g_free(r->depfile);
	g_free(r->deps);
	g_free(r->pool);
	g_free(r->pool_kind);
	g_free(r->canon);
	g_free(r);
}

static void edge_free(gpointer p)
{
	Edge *e = p;
	GPtrArray *a[] = { e->outs, e->implicit_outs, e->ins, e->implicit_ins, e->order_ins, e->vars, e->succ };
	for (gsize i = 0; i < G_N_ELEMENTS(a); i++)
		if (a[i])
			g_ptr_array_free(a[i], TRUE);
	g_free(e);
}

const char *graph_intern(Graph *g, const char *s)
{
	const char *v = g_hash_table_lookup(g->interned, s);
	if (!v) {
		v = g_string_chunk_insert(g->strings, s);
		g_hash_table_add(g->interned, (gpointer)v);
	}
	return v;
}

static void pool_free(gpointer p)
{
	Pool *pl = p;
	g_free(pl->name);
	g_free(pl->why);
	g_free(pl);
}

static void compdb_free(gpointer p)
{
	CompdbEntry *c = p;
	g_free(c->file);
	g_free(c->output);
	g_free(c->command);
	g_free(c);
}

Graph *graph_new(void)
{
	Graph *g = g_new0(Graph, 1);
	g->rules = g_ptr_array_new_with_free_func(rule_free);
	g->rule_by_command = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g->edges = g_ptr_array_new_with_free_func(edge_free);
	g->pools = g_ptr_array_new_with_free_func(pool_free);
	g->defaults = g_ptr_array_new_with_free_func(g_free);
	g->compdb = g_ptr_array_new_with_free_func(compdb_free);
	g->outputs = g_hash_table_new(NULL, NULL);
	g->strings = g_string_chunk_new(1 << 16);
	g->interned = g_hash_table_new(g_str_hash, g_str_equal);
	return g;
}

void graph_free(Graph *g)
{
	if (!g)
		return;
	g_hash_table_destroy(g->outputs);
	if (g->topo)
		g_ptr_array_free(g->topo, TRUE);
	g_ptr_array_free(g->edges, TRUE);
	g_hash_table_destroy(g->rule_by_command);
	g_ptr_array_free(g->rules, TRUE);
	g_ptr_array_free(g->pools, TRUE);
	g_ptr_array_free(g->defaults, TRUE);
	g_ptr_array_free(g->compdb, TRUE);
	g_hash_table_destroy(g->interned);
	g_string_chunk_free(g->strings);
	g_free(g);
}

Rule *graph_rule(Graph *g, const char *stem, const char *command,
		 const char *description, const char *depfile, const char *deps,
		 const char *pool)
{
	return graph_rule_canon(g, stem, command, NULL, description, depfile, deps, pool);
}

Rule *graph_rule_canon(Graph *g, const char *stem, const char *command, const char *canon,
		       const char *description, const char *depfile, const char *deps,
		       const char *pool)
{
	char *key = g_strdup_printf("%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", stem, command,
				    description ? description : "", depfile ? depfile : "",
				    deps ? deps : "", pool ? pool : "", canon ? canon : "");
	Rule *r = g_hash_table_lookup(g->rule_by_command, key);
	if (r) {
		g_free(key);
		return r;
	}
	r = g_new0(Rule, 1);
	/* Rule names: the stem, numbered when a stem has several variants. */
	guint n = 0;
	for (guint i = 0; i < g->rules->len; i++) {
		Rule *o = g_ptr_array_index(g->rules, i);
		if (g_str_has_prefix(o->name, stem) &&
		    (o->name[strlen(stem)] == 0 || o->name[strlen(stem)] == '_'))
			n++;
	}
	r->name = n ? g_strdup_printf("%s_%u", stem, n) : g_strdup(stem);
	r->command = g_strdup(command);
	r->description = g_strdup(description);
	r->depfile = g_strdup(depfile);
	r->deps = g_strdup(deps);
	r->pool = g_strdup(pool);
	r->pool_kind = g_strdup(pool);
	r->canon = g_strdup(canon);
	g_ptr_array_add(g->rules, r);
	g_hash_table_insert(g->rule_by_command, key, r);
	return r;
}

Edge *graph_edge(Graph *g, EdgeKind kind, Rule *rule)
{
	Edge *e = g_new0(Edge, 1);
	e->kind = kind;
	e->rule = rule;
	e->graph = g;
	g_ptr_array_add(g->edges, e);
	return e;
}

static void add(Edge *e, GPtrArray **list, const char *s)
{
	if (!*list)
		*list = g_ptr_array_sized_new(2);
	g_ptr_array_add(*list, (gpointer)graph_intern(e->graph, s));
}

void edge_out(Edge *e, const char *path) { add(e, &e->outs, path); }
void edge_implicit_out(Edge *e, const char *path) { add(e, &e->implicit_outs, path); }
void edge_in(Edge *e, const char *path) { add(e, &e->ins, path); }
void edge_implicit_in(Edge *e, const char *path) { add(e, &e->implicit_ins, path); }
void edge_order_in(Edge *e, const char *path) { add(e, &e->order_ins, path); }

void edge_var(Edge *e, const char *name, const char *value)
{
	add(e, &e->vars, name);
	add(e, &e->vars, value);
}

void edge_arch(Edge *e, const char *arch)
{
	e->arch = graph_intern(e->graph, arch);
}

const char *edge_get_var(const Edge *e, const char *name)
{
	for (guint i = 0; i + 1 < EDGE_LEN(e->vars); i += 2)
		if (strcmp(g_ptr_array_index(e->vars, i), name) == 0)
			return g_ptr_array_index(e->vars, i + 1);
	return NULL;
}

Pool *graph_pool(Graph *g, const char *name, int depth, const char *why)
{
	for (guint i = 0; i < g->pools->len; i++) {
		Pool *p = g_ptr_array_index(g->pools, i);
		if (strcmp(p->name, name) == 0) {
			p->depth = depth;
			g_free(p->why);
			p->why = g_strdup(why);
			return p;
		}
	}
	Pool *p = g_new0(Pool, 1);
	p->name = g_strdup(name);
	p->depth = depth;
	p->why = g_strdup(why);
	g_ptr_array_add(g->pools, p);
	return p;
}

void graph_compdb(Graph *g, const char *file, const char *output, const char *command)
{
	CompdbEntry *c = g_new0(CompdbEntry, 1);
	c->file = g_strdup(file);
	c->output = g_strdup(output);
	c->command = g_strdup(command);
	g_ptr_array_add(g->compdb, c);
}

static gboolean claim(Graph *g, Edge *e, GPtrArray *paths, GError **err)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++) {
		char *p = g_ptr_array_index(paths, i);
		Edge *o = g_hash_table_lookup(g->outputs, p);
		if (o && o != e) {
			cg_error(err, "two build steps write '%s' (%s and %s)", p,
				 edge_kind_name(o->kind), edge_kind_name(e->kind));
			return FALSE;
		}
		g_hash_table_insert(g->outputs, p, e);
	}
	return TRUE;
}

gboolean graph_check_outputs(Graph *g, GError **err)
{
	g_hash_table_remove_all(g->outputs);
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (!claim(g, e, e->outs, err) || !claim(g, e, e->implicit_outs, err))
			return FALSE;
	}
	return TRUE;
}

static void join_paths(GString *s, GPtrArray *paths)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++) {
		if (i)
			g_string_append_c(s, ' ');
		char *q = cg_sh_quote(g_ptr_array_index(paths, i));
		g_string_append(s, q);
		g_free(q);
	}
}

char *edge_command(const Edge *e)
{
	if (!e->rule)
		return g_strdup("");
	GString *s = g_string_new(NULL);
	for (const char *p = e->rule->command; *p; p++) {
		if (*p != '$') {
			g_string_append_c(s, *p);
			continue;
		}
		p++;
		if (*p == '$') {
			g_string_append_c(s, '$');
			continue;
		}
		char *name;
		if (*p == '{') {
			const char *end = strchr(p, '}');
			name = g_strndup(p + 1, end - p - 1);
			p = end;
		} else {
			const char *st = p;
			while (g_ascii_isalnum(p[1]) || p[1] == '_')
				p++;
			name = g_strndup(st, p - st + 1);
		}
		if (strcmp(name, "in") == 0)
			join_paths(s, e->ins);
		else if (strcmp(name, "out") == 0)
			join_paths(s, e->outs);
		else {
			const char *v = edge_get_var(e, name);
			if (v)
				g_string_append(s, v);
		}
		g_free(name);
	}
	return g_string_free(s, FALSE);
}
