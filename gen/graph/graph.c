/* graph.c -- rules, edges, pools and their bookkeeping; see graph.h. */
#include "graph.h"

#include <string.h>

#include "util.h"

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

/* ---- the arena ----
 * Edges, their path lists and the interned strings: some 700,000 small
 * pieces at 10,000 TUs, allocated one after another and freed together
 * with the graph. Pieces are 8-byte aligned. */
#define BLOCK (1u << 20)

static void *arena_alloc(Graph *g, gsize size)
{
	size = (size + 7) & ~(gsize)7;
	if (size > g->arena_left) {
		gsize n = MAX(size, BLOCK);
		char *b = g_malloc(n);
		g->blocks = g_slist_prepend(g->blocks, b);
		if (n > BLOCK) /* a large piece has a block of its own */
			return memset(b, 0, size);
		g->arena = b;
		g->arena_left = n;
	}
	void *p = g->arena;
	g->arena += size;
	g->arena_left -= size;
	return memset(p, 0, size);
}

/* ---- interned strings ----
 * Some 300,000 at 10,000 TUs, looked up a million times: a CgTable of
 * their hashes, where a probe reads a string only when the hashes match. */
typedef struct {
	const char *s;
	gsize n;
} Text;

static gboolean same_text(gconstpointer value, gconstpointer key)
{
	const Text *t = key;
	return graph_str(value)->len == t->n && memcmp(value, t->s, t->n) == 0;
}

/* [A-Za-z0-9] and "_-+./=,%@" (GraphStr.plain): 1 for such a byte */
static guint8 plain_tab[256];

static void plain_init(void)
{
	static gsize done;
	if (g_once_init_enter(&done)) {
		for (int c = 1; c < 256; c++)
			plain_tab[c] = g_ascii_isalnum(c) || strchr("_-+./=,%@", c);
		g_once_init_leave(&done, 1);
	}
}

/* An interned string is its GraphStr and its characters. (edges.c hands
 * the same string to a TU's ten or so edges: it interns it once and uses
 * the edge_*_interned calls.) */
static const char *intern_hashed(Graph *g, const char *s, gsize n, guint32 hash)
{
	Text t = { s, n };
	CgSlot *slot = cg_table_slot(&g->strings, hash, same_text, &t);
	if (slot->value)
		return slot->value;
	GraphStr *h = arena_alloc(g, sizeof(GraphStr) + n + 1);
	h->len = (guint32)n;
	h->hash = hash;
	guint8 plain = n > 0;
	for (gsize i = 0; i < n; i++)
		plain &= plain_tab[(unsigned char)s[i]];
	h->plain = plain;
	const char *v = memcpy(h + 1, s, n + 1);
	cg_table_fill(&g->strings, slot, hash, (gpointer)v);
	return v;
}

const char *graph_intern(Graph *g, const char *s)
{
	gsize n = strlen(s);
	return intern_hashed(g, s, n, cg_hash32(s, n));
}

void graph_intern_many(Graph *g, guint n, const char *const *s, const char **out)
{
	enum { CHUNK = 32 };
	for (guint from = 0; from < n; from += CHUNK) {
		guint to = MIN(n, from + CHUNK);
		gsize len[CHUNK];
		guint32 hash[CHUNK];
		for (guint i = from; i < to; i++) {
			len[i - from] = strlen(s[i]);
			hash[i - from] = cg_hash32(s[i], len[i - from]);
			__builtin_prefetch(&g->strings.slots[hash[i - from] & g->strings.mask]);
		}
		for (guint i = from; i < to; i++)
			out[i] = intern_hashed(g, s[i], len[i - from], hash[i - from]);
	}
}

static void set_maker(const char *p, Edge *e)
{
	((GraphStr *)(void *)p - 1)->maker = e;
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
	g_free(c->args);
	g_free(c);
}

Graph *graph_new(void)
{
	Graph *g = g_new0(Graph, 1);
	g->rules = g_ptr_array_new_with_free_func(rule_free);
	g->rule_by_command = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g->edges = g_ptr_array_new();
	g->pools = g_ptr_array_new_with_free_func(pool_free);
	g->defaults = g_ptr_array_new_with_free_func(g_free);
	g->compdb = g_ptr_array_new_with_free_func(compdb_free);
	cg_table_init(&g->strings);
	plain_init();
	return g;
}

void graph_free(Graph *g)
{
	if (!g)
		return;
	g_ptr_array_free(g->edges, TRUE);
	g_hash_table_destroy(g->rule_by_command);
	g_ptr_array_free(g->rules, TRUE);
	g_ptr_array_free(g->pools, TRUE);
	g_ptr_array_free(g->defaults, TRUE);
	g_ptr_array_free(g->compdb, TRUE);
	cg_table_clear(&g->strings);
	g_slist_free_full(g->blocks, g_free);
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
	Edge *e = arena_alloc(g, sizeof(Edge));
	e->kind = kind;
	e->rule = rule;
	e->graph = g;
	e->serial = g->edges->len;
	g_ptr_array_add(g->edges, e);
	return e;
}

DevUnit *graph_dev_unit(Graph *g)
{
	return arena_alloc(g, sizeof(DevUnit));
}

/* A list starts with room for 2 inline; a full one moves to twice the
 * room (the old room stays in the arena, unused). s is interned. */
static void append(Edge *e, PathList **list, const char *s)
{
	Graph *g = e->graph;
	PathList *l = *list;
	if (!l) {
		l = *list = arena_alloc(g, sizeof(PathList) + 2 * sizeof(gpointer));
		l->pdata = (gpointer *)(l + 1);
		l->cap = 2;
	} else if (l->len == l->cap) {
		gpointer *v = arena_alloc(g, 2 * l->cap * sizeof(gpointer));
		memcpy(v, l->pdata, l->len * sizeof(gpointer));
		l->pdata = v;
		l->cap *= 2;
	}
	l->pdata[l->len++] = (gpointer)s;
}

static void add(Edge *e, PathList **list, const char *s)
{
	append(e, list, graph_intern(e->graph, s));
}

void edge_remove_at(PathList *list, guint i)
{
	memmove(list->pdata + i, list->pdata + i + 1, (list->len - i - 1) * sizeof(gpointer));
	list->len--;
}

void edge_out(Edge *e, const char *path) { add(e, &e->outs, path); }
void edge_implicit_out(Edge *e, const char *path) { add(e, &e->implicit_outs, path); }
void edge_in(Edge *e, const char *path) { add(e, &e->ins, path); }
void edge_implicit_in(Edge *e, const char *path) { add(e, &e->implicit_ins, path); }
void edge_order_in(Edge *e, const char *path) { add(e, &e->order_ins, path); }

void edge_var(Edge *e, const char *name, const char *value)
{
	edge_var_interned(e, graph_intern(e->graph, name), graph_intern(e->graph, value));
}

void edge_out_interned(Edge *e, const char *s) { append(e, &e->outs, s); }
void edge_in_interned(Edge *e, const char *s) { append(e, &e->ins, s); }
void edge_implicit_in_interned(Edge *e, const char *s) { append(e, &e->implicit_ins, s); }

void edge_var_interned(Edge *e, const char *name, const char *value)
{
	append(e, &e->vars, name);
	append(e, &e->vars, value);
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

void graph_compdb(Graph *g, const char *file, const char *output, const char *command, const char *args)
{
	CompdbEntry *c = g_new0(CompdbEntry, 1);
	c->file = g_strdup(file);
	c->output = g_strdup(output);
	c->command = graph_intern(g, command);
	c->args = g_strdup(args);
	g_ptr_array_add(g->compdb, c);
}

static gboolean claim(Edge *e, PathList *paths, GError **err)
{
	for (guint i = 0; i < EDGE_LEN(paths); i++) {
		const char *p = EDGE_AT(paths, i);
		Edge *o = graph_maker(p);
		if (o && o != e) {
			cg_error(err, "two build steps write '%s' (%s and %s)", p,
				 edge_kind_name(o->kind), edge_kind_name(e->kind));
			return FALSE;
		}
		set_maker(p, e);
	}
	return TRUE;
}

gboolean graph_check_outputs(Graph *g, GError **err)
{
	/* makers from an earlier check go first (edges may have changed) */
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		PathList *lists[] = { e->outs, e->implicit_outs };
		for (int l = 0; l < 2; l++)
			for (guint k = 0; k < EDGE_LEN(lists[l]); k++)
				set_maker(EDGE_AT(lists[l], k), NULL);
	}
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (!claim(e, e->outs, err) || !claim(e, e->implicit_outs, err))
			return FALSE;
	}
	return TRUE;
}

static void join_paths(GString *s, PathList *paths)
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
