/* simulate.c -- the graph as ninja would run it: the planner's graph
 * (PlanGraph, a node per edge), bottom levels and the critical path, the
 * edge order (longest remaining chain first, or jittered for a tighter
 * packing), the simulation with ninja's scheduling and pools, its robust
 * (varied-cost) average, and the trace `cugen plan --trace` writes; see
 * plan_int.h. */
#include "plan_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* nvcc --split-compile N on one heavy TU's device compile, measured on
 * the 16-core device machine (bench/RESULTS.md): the wall time shrinks
 * by 1.27x at 2 and 1.5-1.75x at 4, for the same CPU time. */
static double split_speedup(int n)
{
	return n >= 4 ? 1.6 : n >= 2 ? 1.27 : 1;
}

PlanGraph *pg_new(Graph *g, gboolean owns)
{
	PlanGraph *pg = g_new0(PlanGraph, 1);
	pg->g = g;
	pg->owns = owns;
	pg->n = g->edges->len;
	pg->node = g_new0(PlanNode, MAX(pg->n, 1));
	for (guint i = 0; i < pg->n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		g_assert(e->serial < pg->n && !pg->node[e->serial].e);
		pg->node[e->serial].e = e;
	}
	return pg;
}

/* x's pointer into from's array, moved to the same place in to's. */
#define MOVED(x, from, to) ((to) + ((x) - (from)))

PlanGraph *pg_copy(const PlanGraph *pg)
{
	PlanGraph *c = g_memdup2(pg, sizeof *pg);
	c->owns = FALSE;
	c->node = g_memdup2(pg->node, MAX(pg->n, 1) * sizeof(PlanNode));
	if (!pg->topo)
		return c;
	gsize nsucc = 0;
	for (guint i = 0; i < pg->n; i++)
		nsucc += pg->node[i].nsucc;
	c->succ_store = g_new(PlanNode *, MAX(nsucc, 1));
	for (gsize k = 0; k < nsucc; k++)
		c->succ_store[k] = MOVED(pg->succ_store[k], pg->node, c->node);
	c->topo = g_new(PlanNode *, MAX(pg->n, 1));
	for (guint i = 0; i < pg->ntopo; i++)
		c->topo[i] = MOVED(pg->topo[i], pg->node, c->node);
	for (guint i = 0; i < pg->n; i++)
		c->node[i].succ = MOVED(pg->node[i].succ, pg->succ_store, c->succ_store);
	return c;
}

void pg_free(PlanGraph *pg)
{
	if (!pg)
		return;
	if (pg->owns)
		graph_free(pg->g);
	g_free(pg->node);
	g_free(pg->topo);
	g_free(pg->succ_store);
	g_free(pg);
}

/* A node's --split-compile: the planner's annotation while it weighs a
 * tail split, else its rule's. */
static int node_split(const PlanNode *x)
{
	return x->split ? x->split : x->e->rule ? x->e->rule->split_compile : 0;
}

/* Bottom levels (level): a node's cost plus the longest chain after it,
 * by a reverse topological walk over successors. The successor lists and
 * the walk's order depend only on the graph's shape: they are made on
 * the first call (from the edges' order then) and kept. */
void pl_bottom_levels(PlanGraph *pg, double *cpl, double *work)
{
	Graph *g = pg->g;
	if (!pg->topo) {
		/* one pass over the inputs: each edge's producers (graph_maker),
		 * flat (pred, from pstart[i]); then each producer's users, in
		 * one array (pg->succ_store) */
		guint n = pg->n;
		guint *pstart = g_new(guint, n + 1);
		GPtrArray *pred = g_ptr_array_sized_new(n * 2);
		for (guint i = 0; i < n; i++) {
			PlanNode *x = pg_node(pg, g_ptr_array_index(g->edges, i));
			x->index = i;
			x->nsucc = 0;
		}
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			pstart[i] = pred->len;
			PathList *lists[] = { e->ins, e->implicit_ins, e->order_ins };
			for (int l = 0; l < 3; l++)
				for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
					Edge *pe = graph_maker(EDGE_AT(lists[l], k));
					if (pe && pe != e) {
						PlanNode *px = pg_node(pg, pe);
						px->nsucc++;
						g_ptr_array_add(pred, px);
					}
				}
		}
		pstart[n] = pred->len;
		pg->succ_store = g_new(PlanNode *, MAX(pred->len, 1));
		PlanNode **next = pg->succ_store;
		for (guint i = 0; i < n; i++) {
			PlanNode *x = pg_node(pg, g_ptr_array_index(g->edges, i));
			x->succ = next;
			next += x->nsucc;
			x->pending = (int)x->nsucc;
			x->nsucc = 0;
			x->npred = pstart[i + 1] - pstart[i];
		}
		for (guint i = 0; i < n; i++) {
			PlanNode *x = pg_node(pg, g_ptr_array_index(g->edges, i));
			for (guint k = pstart[i]; k < pstart[i + 1]; k++) {
				PlanNode *px = g_ptr_array_index(pred, k);
				px->succ[px->nsucc++] = x;
			}
		}
		pg->topo = g_new(PlanNode *, MAX(n, 1));
		guint nt = 0;
		for (guint i = 0; i < n; i++) {
			PlanNode *x = pg_node(pg, g_ptr_array_index(g->edges, i));
			if (!x->pending)
				pg->topo[nt++] = x;
		}
		/* users before producers: a producer follows once all its
		 * users are in */
		for (guint qi = 0; qi < nt; qi++) {
			PlanNode *x = pg->topo[qi];
			for (guint k = pstart[x->index]; k < pstart[x->index + 1]; k++) {
				PlanNode *px = g_ptr_array_index(pred, k);
				if (--px->pending == 0)
					pg->topo[nt++] = px;
			}
		}
		pg->ntopo = nt; /* n, unless the graph has a cycle */
		g_ptr_array_free(pred, TRUE);
		g_free(pstart);
	}
	*cpl = 0;
	*work = 0;
	for (guint qi = 0; qi < pg->ntopo; qi++) {
		PlanNode *x = pg->topo[qi];
		double best = 0;
		for (guint k = 0; k < x->nsucc; k++) {
			PlanNode *sx = x->succ[k];
			if (sx->level > best)
				best = sx->level;
		}
		/* the edge's wall time: a split compile runs in parallel */
		x->level = x->cost / split_speedup(node_split(x)) + best;
		*cpl = MAX(*cpl, x->level);
		*work += x->cost;
	}
}


/* An unsigned key that orders as the level descending. */
static guint64 level_key(double level)
{
	if (level == 0)
		level = 0; /* -0.0 ties with 0.0 */
	guint64 b;
	memcpy(&b, &level, sizeof b);
	b = b >> 63 ? ~b : b | (1ull << 63); /* ascending with the double */
	return ~b;
}

/* Sorts v: build edges before phony and regen, the longest chain first,
 * else in v's order. A radix sort of the levels, a byte at a time and
 * stable, then the last ones moved to the end: a comparison sort over
 * 100,000 edges took a fifth of the planner's time. */
void pl_sort_ranked(Ranked *v, guint n)
{
	Ranked *tmp = g_new(Ranked, MAX(n, 1)), *from = v, *to = tmp;
	guint64 *key = g_new(guint64, MAX(n, 1)), *key2 = g_new(guint64, MAX(n, 1));
	for (guint i = 0; i < n; i++)
		key[i] = level_key(v[i].level);
	for (int shift = 0; shift < 64; shift += 8) {
		guint count[256] = { 0 };
		for (guint i = 0; i < n; i++)
			count[key[i] >> shift & 255]++;
		if (n && count[key[0] >> shift & 255] == n)
			continue; /* one value of this byte: nothing moves */
		guint pos[256], sum = 0;
		for (int b = 0; b < 256; b++) {
			pos[b] = sum;
			sum += count[b];
		}
		for (guint i = 0; i < n; i++) {
			guint b = key[i] >> shift & 255;
			to[pos[b]] = from[i];
			key2[pos[b]++] = key[i];
		}
		Ranked *t = from;
		from = to;
		to = t;
		guint64 *k = key;
		key = key2;
		key2 = k;
	}
	/* stable: the others, then the last ones */
	guint k = 0;
	for (guint i = 0; i < n; i++)
		if (!from[i].last)
			to[k++] = from[i];
	for (guint i = 0; i < n; i++)
		if (from[i].last)
			to[k++] = from[i];
	if (to != v)
		memcpy(v, to, n * sizeof(Ranked));
	g_free(tmp);
	g_free(key);
	g_free(key2);
}

/* ninja 1.11 starts ready edges in manifest order: put the edges that head
 * the longest remaining chains first; ties keep the edges' present order.
 * With defer, the edges of that kind come after all others (they start
 * only when nothing else is ready). */
void pl_order_edges(PlanGraph *pg, int defer, GRand *noise)
{
	Graph *g = pg->g;
	guint n = g->edges->len;
	Ranked *r = g_new(Ranked, MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		PlanNode *x = pg_node(pg, e);
		double level = noise ? x->level * g_rand_double_range(noise, 0.7, 1.3) : x->level;
		r[i] = (Ranked){ x, (int)e->kind == defer ? level - 1e9 : level,
				 e->kind == EK_PHONY || e->kind == EK_REGEN };
	}
	pl_sort_ranked(r, n);
	for (guint i = 0; i < n; i++)
		g->edges->pdata[i] = r[i].n->e;
	g_free(r);
}

/* The kind of pool edges.c gave the edge's rule: 0 device, 1 host,
 * 2 link, -1 none (size_pools may move device and host into "compile"). */
int pl_pool_of(const Edge *e)
{
	if (!e->rule || !e->rule->pool_kind)
		return -1;
	if (strcmp(e->rule->pool_kind, "device") == 0) return 0;
	if (strcmp(e->rule->pool_kind, "host") == 0) return 1;
	if (strcmp(e->rule->pool_kind, "link") == 0) return 2;
	return -1;
}

/* A binary heap of edge ranks (positions in the manifest), least first. */
typedef struct {
	guint *v;
	guint n;
} Heap;

static void heap_push(Heap *h, guint x)
{
	guint i = h->n++;
	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static guint heap_pop(Heap *h)
{
	guint top = h->v[0], x = h->v[--h->n], i = 0;
	for (;;) {
		guint c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

/* ninja's default -j: processors + 2, 3 on two, 2 on one. */
static int ninja_default_j(int cores)
{
	return cores <= 1 ? 2 : cores == 2 ? 3 : cores + 2;
}

static gint by_depth(gconstpointer a, gconstpointer b, gpointer data)
{
	const int *w = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	if (w[x] != w[y])
		return w[x] > w[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The build as ninja runs it, with the planned costs: ready edges start
 * in manifest order (g->edges after order_edges; from ninja 1.12, by
 * their depth first: the edges on their longest path to the end, phony
 * ones not counted) while -j (ninja's default) and the edge's pool
 * allow; running jobs share the cores equally when they outnumber them.
 * Needs bottom_levels (succ, npred, topo). Returns the expected wall
 * seconds; with start, each edge's start time (by index in g->edges);
 * with trace (plan --trace), each edge's start and end as lines. */
double pl_simulate(PlanGraph *pg, const Plan *p, int threads, double *start, FILE *trace)
{
	Graph *g = pg->g;
	guint n = g->edges->len;
	if (!n)
		return 0;
	/* the nodes in the edges' order */
	PlanNode **nd = g_new(PlanNode *, n);
	for (guint i = 0; i < n; i++) {
		PlanNode *x = nd[i] = pg_node(pg, g_ptr_array_index(g->edges, i));
		x->index = i;
		x->pending = (int)x->npred;
	}
	/* the start order: key[i] of edge i, edge byk[k] of key k */
	guint *key = g_new(guint, n), *byk = g_new(guint, n);
	for (guint i = 0; i < n; i++)
		byk[i] = i;
	if (p->depth_first && pg->topo && pg->ntopo == n) {
		int *w = g_new0(int, n);
		for (guint q = 0; q < n; q++) {
			const PlanNode *x = pg->topo[q];
			int best = 0;
			for (guint k = 0; k < x->nsucc; k++)
				best = MAX(best, w[x->succ[k]->index]);
			w[x->index] = best + (x->e->kind != EK_PHONY);
		}
		g_qsort_with_data(byk, (gint)n, sizeof(guint), by_depth, w);
		g_free(w);
	}
	for (guint k = 0; k < n; k++)
		key[byk[k]] = k;
	/* the cores each job keeps busy: nvcc --threads, --split-compile */
	double *par = g_new(double, n);
	for (guint i = 0; i < n; i++) {
		par[i] = nd[i]->e->kind == EK_NVCC ? MAX(threads, 1) : split_speedup(node_split(nd[i]));
	}
	const int depth[3] = { p->device, p->host, p->link };
	int busy[3] = { 0, 0, 0 };
	const int jobs = ninja_default_j(p->cores);
	/* one ready heap per pool (none, device or compile, host, link):
	 * the next edge to start is the first in file order among the
	 * heads of the heaps whose pool has room */
	Heap ready[4];
	for (int k = 0; k < 4; k++)
		ready[k] = (Heap){ g_new(guint, n), 0 };
	int *slot = g_new(int, n); /* heap of each edge: pool + 1 */
	for (guint i = 0; i < n; i++) {
		int k = pl_pool_of(nd[i]->e);
		if (p->shared && k == 1)
			k = 0; /* one pool "compile" */
		slot[i] = k + 1;
	}
	guint *run = g_new(guint, n);
	double *left = g_new(double, n);
	guint nrun = 0, done = 0;
	double t = 0;
	for (guint i = 0; i < n; i++)
		if (!nd[i]->pending)
			heap_push(&ready[slot[i]], key[i]);
	while (done < n) {
		while ((int)nrun < jobs) {
			int best = -1;
			for (int h = 0; h < 4; h++)
				if (ready[h].n && (h == 0 || busy[h - 1] < depth[h - 1]) &&
				    (best < 0 || ready[h].v[0] < ready[best].v[0]))
					best = h;
			if (best < 0)
				break;
			guint i = byk[heap_pop(&ready[best])];
			const Edge *e = nd[i]->e;
			if (best > 0)
				busy[best - 1]++;
			left[i] = e->kind == EK_PHONY || e->kind == EK_REGEN ? 0 : nd[i]->cost;
			run[nrun++] = i;
			if (start)
				start[i] = t;
			if (trace && left[i] > 0)
				fprintf(trace, "start %8.2f %7.2f %s\n", t, nd[i]->cost, EDGE_LEN(e->outs) ? EDGE_AT(e->outs, 0) : "?");
		}
		if (!nrun)
			break; /* a cycle, or nothing runnable: stop */
		/* the next job to end, all running jobs sharing the cores */
		double used = 0;
		for (guint r = 0; r < nrun; r++)
			used += par[run[r]];
		double rate = used > p->cores ? p->cores / used : 1;
		double step = G_MAXDOUBLE;
		for (guint r = 0; r < nrun; r++)
			step = MIN(step, left[run[r]] / (rate * par[run[r]]));
		t += step;
		guint kept = 0;
		for (guint r = 0; r < nrun; r++) {
			guint i = run[r];
			PlanNode *x = nd[i];
			left[i] -= step * rate * par[i];
			if (left[i] > 1e-9) {
				run[kept++] = i;
				continue;
			}
			done++;
			if (trace && x->cost > 0)
				fprintf(trace, "end   %8.2f %7.2f %s\n", t, x->cost,
					EDGE_LEN(x->e->outs) ? EDGE_AT(x->e->outs, 0) : "?");
			if (slot[i] > 0)
				busy[slot[i] - 1]--;
			for (guint s2 = 0; s2 < x->nsucc; s2++) {
				PlanNode *sx = x->succ[s2];
				if (--sx->pending == 0)
					heap_push(&ready[slot[sx->index]], key[sx->index]);
			}
		}
		nrun = kept;
	}
	for (int k = 0; k < 4; k++)
		g_free(ready[k].v);
	g_free(slot);
	g_free(par);
	g_free(run);
	g_free(left);
	g_free(key);
	g_free(byk);
	g_free(nd);
	return t;
}

/* A number in [0, 1) from a string's hash and a sample number. */
static double draw(guint32 h, guint k)
{
	h ^= (k + 1) * 0x9e3779b9u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h / 4294967296.0;
}

/* What an edge's variations are drawn from: the hashes of its source's
 * name and of its first output, so that the same edge gets the same
 * variations in every graph the planner compares and in every run. */
typedef struct {
	guint32 source, out;
	gboolean has_source, has_out;
} EdgeSeed;

static EdgeSeed edge_seed(const Edge *e)
{
	EdgeSeed s = { 0, 0, e->source != NULL, EDGE_LEN(e->outs) > 0 };
	if (s.has_source)
		s.source = g_str_hash(e->source);
	if (s.has_out)
		s.out = g_str_hash(EDGE_AT(e->outs, 0));
	return s;
}

/* An edge's cost in sample k, varied as sp says: by its TU (every edge
 * of one source file shares a factor) and by the edge itself. */
static double varied(const EdgeSeed *s, double cost, guint k, const Spread *sp)
{
	double f = 1;
	if (s->has_source && sp->tu > 0)
		f *= 1 + sp->tu * (2 * draw(s->source, k) - 1);
	if (s->has_out)
		f *= 1 + sp->edge * (2 * draw(s->out, k + 1000) - 1);
	return cost * f;
}

/* The simulated wall time of the graph as ordered, averaged over costs
 * varied as sp says (NULL: as estimated): real edges differ from their
 * estimates, and equal default costs would make waves of jobs that no
 * build has. The variations come from varied(). */
static double robust_time(PlanGraph *pg, const Plan *p, int threads, const Spread *sp)
{
	if (!sp || sp->samples <= 0)
		return pl_simulate(pg, p, threads, NULL, NULL);
	Graph *g = pg->g;
	guint n = g->edges->len;
	double *cost = g_new(double, n), sum = 0;
	EdgeSeed *seed = g_new(EdgeSeed, n);
	PlanNode **nd = g_new(PlanNode *, MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		nd[i] = pg_node(pg, g_ptr_array_index(g->edges, i));
		cost[i] = nd[i]->cost;
		seed[i] = edge_seed(nd[i]->e);
	}
	const int samples = sp->samples;
	for (int k = 0; k < samples; k++) {
		for (guint i = 0; i < n; i++)
			nd[i]->cost = varied(&seed[i], cost[i], (guint)k, sp);
		sum += pl_simulate(pg, p, threads, NULL, NULL);
	}
	for (guint i = 0; i < n; i++)
		nd[i]->cost = cost[i];
	g_free(nd);
	g_free(cost);
	g_free(seed);
	return sum / samples;
}

/* (ORDER_GAIN, ORDER_TRIES, ORDER_BUDGET: planknobs.h) */

/* Orders the edges for the shortest simulated build. Starts from longest
 * remaining chain first, and the same with the host compiles after
 * everything else; then tries orders with the chain lengths jittered by
 * up to 30% (a fixed seed: the same inputs give the same file), which
 * finds packings of a few long edges on few cores that the greedy order
 * misses. Each order is scored by robust_time (costs varied as sp says), so
 * a packing that only works for the estimates exactly is not chosen.
 * Returns that time; *how says which order won. */
double pl_order_best(PlanGraph *pg, const Plan *p, int threads, const Spread *sp, const char **how)
{
	Graph *g = pg->g;
	double cpl, work;
	pl_bottom_levels(pg, &cpl, &work);
	guint n = g->edges->len;
	gpointer *best_order = g_new(gpointer, n);
	pl_order_edges(pg, -1, NULL);
	double plain = robust_time(pg, p, threads, sp), best = plain;
	memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
	*how = "longest remaining chain first";
	pl_order_edges(pg, EK_HOST, NULL);
	double t = robust_time(pg, p, threads, sp);
	if (t < best * ORDER_GAIN) {
		best = t;
		memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
		*how = "longest remaining chain first, host compiles after the device work";
	}
	/* (none on guessed costs, each order simulated SPREAD_GUESSED_SAMPLES times) */
	guint tries = sp && sp->tu > 0 ? 0 : MIN(ORDER_TRIES, ORDER_BUDGET / ((sp ? sp->samples : 1) * MAX(n, 1u)));
	GRand *r = g_rand_new_with_seed(20261129);
	for (guint i = 0; i < tries; i++) {
		pl_order_edges(pg, i % 2 ? EK_HOST : -1, r);
		t = robust_time(pg, p, threads, sp);
		if (t < best * ORDER_GAIN) {
			best = t;
			memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
			*how = "by simulation: chain lengths jittered for a tighter packing";
		}
	}
	g_rand_free(r);
	memcpy(g->edges->pdata, best_order, n * sizeof(gpointer));
	g_free(best_order);
	return best;
}
/* plan --trace FILE: the simulated build of the chosen graph, an edge a
 * line as it starts and ends. With --costs BUILDDIR, simulated with the
 * costs measured there instead (how this plan would have run with that
 * build's costs: the planner's own benchmark). Changes the graph's
 * costs: the last thing plan_make does. */
void pl_write_trace(PlanGraph *pg, const Plan *p, const Config *c, const GraphInfo *info, int threads)
{
	const Graph *g = pg->g;
	const char *path = p->trace, *costs = p->trace_costs;
	FILE *trace;
	if (!path)
		return;
	if (g->edges->len > SIM_EDGES) {
		cg_warn("no trace written: %u edges (%u at most)", g->edges->len, SIM_EDGES);
		return;
	}
	if (!(trace = fopen(path, "w"))) {
		cg_warn("cannot write the trace to %s: %s", path, g_strerror(errno));
		return;
	}
	if (costs) {
		History *h = history_load(costs);
		Plan tp = *p;
		tp.why = g_ptr_array_new_with_free_func(g_free);
		pl_set_costs(pg, h, c, info, threads, p->chosen.pp_edges, &tp);
		g_ptr_array_free(tp.why, TRUE);
		history_free(h);
		double cpl, work;
		pl_bottom_levels(pg, &cpl, &work);
		fprintf(trace, "# costs from %s: %.1f CPU s, critical path %.1f s\n", costs, work, cpl);
	}
	fprintf(trace, "# %.2f s simulated\n", pl_simulate(pg, p, threads, NULL, trace));
	fclose(trace);
}

