/* group.c -- the planner's groupings of one step graph: the views of the
 * step graph that its choices stand for (group.h).
 *
 * The step graph is edges_build's with pp edges, ptxas edges and rank
 * stamps on and the host stub copied from the stub arch's device edge.
 * Per CUDA TU (tuedges.c) it holds, in this order: the front end, the
 * fatbin edge, per arch the device edge (with ptxas edges a ptxas-only
 * edge, then its cicc edge), the stub copy (the stub arch's), the pp
 * edge; then the host compile and its two stamps. A view drops, merges
 * or adds edges in place, so that its edges come in edges_build's order
 * for the same choices:
 *   no pp edges     the pp edges go, and the device edges' inputs of them;
 *                   the edges that run cicc run the preprocess too;
 *   no ptxas edges  a ptxas-only edge and its cicc edge become one device
 *                   edge (the cicc edge's inputs, the PTX an implicit
 *                   output where the fatbin embeds it), at the first's place;
 *   syntax stub     the stub copies go; a syntax-only stub edge (the
 *                   source, the front end's output and, with pp edges,
 *                   the stub arch's preprocess) comes before the host compile;
 *   no rank stamps  the stamps go, and the fatbin edges' order-only
 *                   inputs of them.
 * tests/unit/test_steps.c checks every view against edges_build's graph.
 */
#include "group.h"

#include <string.h>

Grouping group_step_graph(const Grouping *base)
{
	Grouping o = *base;
	o.pp_edges = TRUE;
	o.ptxas_edges = TRUE;
	o.host_rank = TRUE;
	o.syntax_stub = FALSE;
	o.split_edges = NULL;
	o.tail_split = 0;
	return o;
}

/* Adds the outputs of steps' edges of kind k to set. */
static void add_outs(GHashTable *set, const Graph *steps, EdgeKind k)
{
	for (guint i = 0; i < steps->edges->len; i++) {
		const Edge *e = g_ptr_array_index(steps->edges, i);
		if (e->kind == k)
			for (guint j = 0; j < EDGE_LEN(e->outs); j++)
				g_hash_table_add(set, (gpointer)EDGE_AT(e->outs, j));
	}
}

/* A ptxas-only device edge's cicc edge (its one input's maker), or NULL. */
static const Edge *cicc_of(const Edge *e)
{
	if (e->kind != EK_DEV || EDGE_LEN(e->ins) != 1)
		return NULL;
	const Edge *m = graph_maker(EDGE_AT(e->ins, 0));
	return m && m->kind == EK_CICC ? m : NULL;
}

typedef enum { L_OUT, L_IMPLICIT_OUT, L_IN, L_IMPLICIT_IN, L_ORDER_IN } List;

/* Appends list from to e's list l (interned in v), less the paths in
 * drop (may be NULL). */
static void copy_list(Graph *v, Edge *e, List l, const PathList *from, GHashTable *drop)
{
	for (guint i = 0; i < EDGE_LEN(from); i++) {
		const char *s = EDGE_AT(from, i);
		if (drop && g_hash_table_contains(drop, s))
			continue;
		const char *is = graph_intern(v, s);
		switch (l) {
		case L_OUT: edge_out_interned(e, is); break;
		case L_IMPLICIT_OUT: edge_implicit_out(e, is); break;
		case L_IN: edge_in_interned(e, is); break;
		case L_IMPLICIT_IN: edge_implicit_in_interned(e, is); break;
		case L_ORDER_IN: edge_order_in(e, is); break;
		}
	}
}

static void copy_vars(Graph *v, Edge *e, const Edge *from)
{
	for (guint i = 0; i + 1 < EDGE_LEN(from->vars); i += 2)
		edge_var_interned(e, graph_intern(v, EDGE_AT(from->vars, i)), graph_intern(v, EDGE_AT(from->vars, i + 1)));
}

/* What a view carries over from the step graph besides its edges: its
 * device units, copied into the view once each, and whether the edges
 * that run cicc run the device preprocess too (no pp edges). */
typedef struct {
	Graph *v;
	GHashTable *units;    /* the step graph's DevUnit -> the view's */
	guint pre;            /* TOOL_PP without pp edges, else 0 */
} View;

static const DevUnit *unit_in(View *w, const DevUnit *u)
{
	if (!u)
		return NULL;
	DevUnit *c = g_hash_table_lookup(w->units, u);
	if (!c) {
		c = graph_dev_unit(w->v);
		c->image = graph_intern(w->v, u->image);
		c->cubin = u->cubin ? graph_intern(w->v, u->cubin) : NULL;
		c->ptx = graph_intern(w->v, u->ptx);
		c->ii = graph_intern(w->v, u->ii);
		g_hash_table_insert(w->units, (gpointer)u, c);
	}
	return c;
}

/* The steps an edge of the view runs: e's, and the preprocess where it
 * runs cicc for a device image and has no pp edge before it. */
static guint tools_in(const View *w, const Edge *e)
{
	const gboolean compile = e->kind == EK_DEV || e->kind == EK_CICC;
	return e->tools | (compile && (e->tools & TOOL_CICC) ? w->pre : 0);
}

/* A new edge in v of kind with e's rule, owner, source, arch, unit and
 * steps. */
static Edge *like(View *w, const Edge *e, EdgeKind kind)
{
	Graph *v = w->v;
	Edge *n = graph_edge(v, kind, e->rule);
	n->target = e->target;
	n->source = e->source;
	n->arch = e->arch ? graph_intern(v, e->arch) : NULL;
	n->unit = unit_in(w, e->unit);
	n->tools = tools_in(w, e);
	return n;
}

/* e in the view, less the inputs in drop. */
static Edge *copy_edge(View *w, const Edge *e, GHashTable *drop)
{
	Graph *v = w->v;
	Edge *n = like(w, e, e->kind);
	n->image_in = e->image_in ? graph_intern(v, e->image_in) : NULL;
	copy_list(v, n, L_OUT, e->outs, NULL);
	copy_list(v, n, L_IMPLICIT_OUT, e->implicit_outs, NULL);
	copy_list(v, n, L_IN, e->ins, drop);
	copy_list(v, n, L_IMPLICIT_IN, e->implicit_ins, drop);
	copy_list(v, n, L_ORDER_IN, e->order_ins, drop);
	copy_vars(v, n, e);
	return n;
}

/* A ptxas-only edge d and its cicc edge ce as one device edge. */
static void merge_device(View *w, const Edge *d, const Edge *ce, GHashTable *drop)
{
	Graph *v = w->v;
	Edge *n = like(w, d, EK_DEV);
	n->rule = ce->rule;
	n->tools = tools_in(w, ce) | d->tools;
	copy_list(v, n, L_OUT, d->outs, NULL);
	if (d->image_in)
		edge_implicit_out(n, graph_intern(v, d->image_in));
	copy_list(v, n, L_IN, ce->ins, drop);
	copy_list(v, n, L_IMPLICIT_IN, ce->implicit_ins, drop);
	copy_vars(v, n, d);
}

/* What a view of one TU carries from its stub copy to its host compile. */
typedef struct {
	const Edge *fe;       /* the TU's front end */
	const char *stub;     /* the stub copy's output, once dropped */
	const char *ii;       /* the stub arch's preprocess, with pp edges */
} TuStub;

/* The syntax-only stub edge of the TU in t, whose host compile is host. */
static void syntax_stub(Graph *v, const TuStub *t, const Edge *host, Rule **rule)
{
	if (!*rule)
		*rule = graph_rule(v, RULE_STUB "_syntax", "", "CUDA stub ${out}", NULL, NULL, "device");
	Edge *n = graph_edge(v, EK_STUB, *rule);
	n->target = host->target;
	n->source = host->source;
	n->tools = TOOL_CICC | (t->ii ? 0 : TOOL_PP); /* its own preprocess without the pp edge's */
	edge_out_interned(n, graph_intern(v, t->stub));
	edge_in_interned(n, graph_intern(v, EDGE_AT(t->fe->ins, 0)));
	edge_implicit_in_interned(n, graph_intern(v, EDGE_AT(t->fe->outs, 0)));
	if (t->ii)
		edge_implicit_in_interned(n, graph_intern(v, t->ii));
	copy_vars(v, n, t->fe);
}

Graph *group_view(const Graph *steps, const Grouping *ch)
{
	Graph *v = graph_new();
	View w = { v, g_hash_table_new(NULL, NULL), ch->pp_edges ? 0 : TOOL_PP };
	/* inputs that go with the edges that made them */
	GHashTable *drop = g_hash_table_new(NULL, NULL);
	if (!ch->pp_edges)
		add_outs(drop, steps, EK_DEVPP);
	if (!ch->host_rank)
		add_outs(drop, steps, EK_RANK);
	Rule *syntax = NULL;
	TuStub tu = { 0 };
	const guint n = steps->edges->len;
	for (guint i = 0; i < n; i++) {
		const Edge *e = g_ptr_array_index(steps->edges, i);
		const Edge *ce, *src;
		switch (e->kind) {
		case EK_FE:
			tu = (TuStub){ e, NULL, NULL };
			copy_edge(&w, e, drop);
			break;
		case EK_DEVPP:
		case EK_RANK:
		case EK_CICC:
			if (e->kind == EK_DEVPP ? ch->pp_edges : e->kind == EK_RANK ? ch->host_rank : ch->ptxas_edges)
				copy_edge(&w, e, drop);
			break;
		case EK_DEV:
			if (!ch->ptxas_edges && (ce = cicc_of(e)))
				merge_device(&w, e, ce, drop);
			else
				copy_edge(&w, e, drop);
			break;
		case EK_STUB:
			if (ch->syntax_stub && e->rule && e->rule->copy) {
				/* the stub arch's pp edge, if any, comes next */
				const Edge *next = i + 1 < n ? g_ptr_array_index(steps->edges, i + 1) : NULL;
				tu.stub = EDGE_AT(e->outs, 0);
				tu.ii = ch->pp_edges && next && next->kind == EK_DEVPP ? EDGE_AT(next->outs, 0) : NULL;
			} else if (!ch->ptxas_edges && EDGE_LEN(e->ins) == 1 && (src = graph_maker(EDGE_AT(e->ins, 0))) &&
				   src->kind == EK_CICC) {
				/* it copies from the device edge that its cicc edge
				 * became: that edge's first output, the ptxas-only
				 * edge's (the cicc edge's one user of that kind) */
				Edge *m = like(&w, e, EK_STUB);
				copy_list(v, m, L_OUT, e->outs, NULL);
				for (guint k = i; k-- > 0;) {
					const Edge *d = g_ptr_array_index(steps->edges, k);
					if (cicc_of(d) == src) {
						edge_in_interned(m, graph_intern(v, EDGE_AT(d->outs, 0)));
						break;
					}
				}
				copy_vars(v, m, e);
			} else {
				copy_edge(&w, e, drop);
			}
			break;
		case EK_HOST:
			if (tu.stub)
				syntax_stub(v, &tu, e, &syntax);
			tu.stub = NULL;
			copy_edge(&w, e, drop);
			break;
		default:
			copy_edge(&w, e, drop);
		}
	}
	g_hash_table_unref(drop);
	g_hash_table_unref(w.units);
	GError *err = NULL;
	if (!graph_check_outputs(v, &err))
		g_error("internal error: a view of the step graph: %s", err->message);
	return v;
}
