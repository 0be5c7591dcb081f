/* plan.c -- costs, critical path, pools and edge order; see plan.h. */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "ninjalog.h"
#include "runner.h"
#include "spawn.h"
#include "util.h"

#define GiB 1073741824.0

guint64 plan_parse_size(const char *s)
{
	char *end = NULL;
	double v = g_ascii_strtod(s, &end);
	double mult = 1;
	switch (end ? *end : 0) {
	case 'k': case 'K': mult = 1024.0; break;
	case 'm': case 'M': mult = 1024.0 * 1024; break;
	case 'g': case 'G': mult = GiB; break;
	case 't': case 'T': mult = GiB * 1024; break;
	}
	return (guint64)(v * mult);
}

static void why(Plan *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void why(Plan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_ptr_array_add(p->why, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

void plan_clear(Plan *p)
{
	if (p->split_edges)
		g_hash_table_destroy(p->split_edges);
	if (p->why)
		g_ptr_array_free(p->why, TRUE);
	memset(p, 0, sizeof *p);
}

/* A device view's preprocess (device gcc -E: 0.75 s a call, §8). */
#define PP_COST 0.8

/* A device edge that runs ptxas alone (edges.c's ptxas edges): it reads
 * the PTX its cicc edge (EK_CICC) wrote. */
static gboolean ptxas_only(const Edge *e)
{
	return e->kind == EK_DEV && EDGE_LEN(e->ins) && g_str_has_suffix(EDGE_AT(e->ins, 0), ".ptx");
}

/* Defaults before anything was measured: seconds and bytes per edge,
 * from the lab's 4-TU CUB workload (research/nvcc-pipeline.md §8, "where
 * the CPU goes"): per arch gcc -E 0.75 + cicc 11.5 + ptxas 4.0 s; per TU
 * host gcc -E 0.74 + cudafe++ 2.5 s, host compile 18.8 s. A syntax-only
 * stub is the preprocess and cicc's front end (about a third of it); with
 * pp edges it is the front end alone. */
static void default_cost(const Edge *e, int archs, int threads, double *cpu, double *rss)
{
	switch (e->kind) {
	case EK_DEV: /* less PP_COST with pp edges; sm_75's ptxas takes 7.3 s */
		if (ptxas_only(e)) { /* ptxas alone */
			*cpu = e->arch && strcmp(e->arch, "sm_75") == 0 ? 7.3 : 4.0;
			*rss = 0.2 * GiB;
			break;
		}
		*cpu = e->arch && strcmp(e->arch, "sm_75") == 0 ? 19.6 : 16.3;
		*rss = 1.0 * GiB;
		break;
	case EK_CICC: *cpu = PP_COST + 11.5; *rss = 1.0 * GiB; break; /* less PP_COST with pp edges */
	case EK_DEVPP: *cpu = PP_COST; *rss = 0.2 * GiB; break;
	case EK_NVCC: *cpu = 16.3 * MAX(archs, 1) + 22; *rss = 1.0 * GiB * MAX(threads, 1); break;
	case EK_FE: *cpu = 3.3; *rss = 0.6 * GiB; break;
	case EK_HOST: *cpu = 18.8; *rss = 0.5 * GiB; break;
	case EK_STUB: *cpu = e->rule && e->rule->copy ? 0.01 : 4.6; *rss = e->rule && e->rule->copy ? 0.01 * GiB : 1.0 * GiB; break;
	case EK_CC: case EK_CXX: *cpu = 1; *rss = 0.3 * GiB; break;
	case EK_NVLINK: case EK_DLHOST: *cpu = 1; *rss = 0.3 * GiB; break;
	case EK_LINK: *cpu = 1; *rss = 0.5 * GiB; break;
	case EK_RANK: *cpu = 0.002; *rss = 0.001 * GiB; break; /* touch */
	case EK_PHONY: case EK_REGEN: *cpu = 0; *rss = 0; break;
	default: *cpu = 0.05; *rss = 0.05 * GiB; break;
	}
}

static gint cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(GArray *v)
{
	g_array_sort(v, cmp_double);
	return g_array_index(v, double, v->len / 2);
}

/* The kinds whose measurements stand in for each other's: a syntax-only
 * stub (a preprocess and a cicc) is not a stub copy, a ptxas edge not a
 * whole device edge. */
#define BUCKETS (EK_COUNT + 2)
static int bucket(const Edge *e)
{
	return e->kind == EK_STUB && e->rule && !e->rule->copy ? EK_COUNT : ptxas_only(e) ? EK_COUNT + 1 : (int)e->kind;
}

/* Whether an edge's cost is counted without its device preprocess, which
 * a pp edge runs when there are pp edges: a device compile (its cicc
 * edge, with ptxas edges), and a syntax-only stub (edges.c: it reads the
 * stub arch's pp output then). */
static gboolean without_pre(const Edge *e)
{
	return (e->kind == EK_DEV && !ptxas_only(e)) || e->kind == EK_CICC ||
	       (e->kind == EK_STUB && e->rule && !e->rule->copy);
}

/* The measurement of the TU's file D/PREFIX ID SUFFIX for e's arch. */
static const EdgeStat *sibling(const History *h, const Edge *e, const char *prefix, const char *suffix)
{
	const char *O = edge_get_var(e, "O");
	const char *id = e->arch ? strchr(e->arch, '_') : NULL;
	if (!h || !O || !id)
		return NULL;
	char *f = g_strconcat(O, "/", prefix, id + 1, suffix, NULL);
	const EdgeStat *st = history_get(h, f);
	g_free(f);
	return st;
}

/* A device edge's preprocess, measured: in its own log lines, or in its
 * pp edge's (D/ID.ii) when the last build had pp edges; else -1. */
static double measured_pre(const History *h, const Edge *e, const EdgeStat *st)
{
	if (st && st->cpu_pre > 0)
		return st->cpu_pre;
	const EdgeStat *ps = sibling(h, e, "", ".ii");
	return ps ? ps->cpu : -1;
}

/* cicc's seconds in a measurement: what is neither preprocess nor ptxas. */
static double cicc_part(const EdgeStat *st)
{
	return st ? st->cpu - st->cpu_pre - st->cpu_ptxas : 0;
}

/* An edge's measured seconds (without its preprocess where without_pre),
 * or -1; *from: the measurement it came from (its memory, its
 * preprocess). cicc and ptxas ran in one device edge (its lines under
 * D/sm_ID.cubin) or, with ptxas edges, apart (cicc's under
 * D/compute_ID.ptx, ptxas's under the cubin): either build's lines stand
 * in for the other's, each edge's own first. */
static double own_measured(const History *h, const Edge *e, const EdgeStat *st, const EdgeStat **from)
{
	*from = st;
	const gboolean cubin = e->kind == EK_DEV && EDGE_LEN(e->outs) && g_str_has_suffix(EDGE_AT(e->outs, 0), ".cubin");
	if (!cubin && e->kind != EK_CICC)
		return st ? (without_pre(e) ? st->cpu - st->cpu_pre : st->cpu) : -1;
	const EdgeStat *cub = cubin ? st : sibling(h, e, "sm_", ".cubin");
	const EdgeStat *ptx = cubin ? sibling(h, e, "compute_", ".ptx") : st;
	if (ptxas_only(e))
		return cub && cub->cpu_ptxas > 0 ? cub->cpu_ptxas : -1;
	const EdgeStat *own = cubin ? cub : ptx, *other = cubin ? ptx : cub;
	const EdgeStat *cs = cicc_part(own) > 1e-3 ? own : cicc_part(other) > 1e-3 ? other : NULL;
	if (!cs)
		return -1;
	*from = cs;
	if (e->kind == EK_CICC)
		return cicc_part(cs);
	/* a whole device edge: cicc and ptxas (what its lines hold) */
	return cs == cub ? cub->cpu - cub->cpu_pre : cicc_part(cs) + (cub ? cub->cpu_ptxas : 0);
}

/* Each edge's expected cost and memory: its own measurement, else the
 * median of its kind's measurements (an added arch, a new TU), else the
 * default. A device edge's preprocess counts apart: with pp edges (pp)
 * it is theirs. job_memory (profile) fixes device edges' memory. */
static void set_costs(Graph *g, const History *h, const Config *c, const GraphInfo *info,
		      int threads, gboolean pp, Plan *p)
{
	if (h && !h->edges)
		h = NULL; /* nothing measured: no lookups */
	GArray *kcpu[BUCKETS], *krss[BUCKETS], *pres = g_array_new(FALSE, FALSE, sizeof(double));
	for (int k = 0; k < BUCKETS; k++) {
		kcpu[k] = g_array_new(FALSE, FALSE, sizeof(double));
		krss[k] = g_array_new(FALSE, FALSE, sizeof(double));
	}
	/* each edge's measurement, looked up once: its own seconds (-1: none)
	 * and the line set they came from */
	const EdgeStat **stats = g_new0(const EdgeStat *, MAX(g->edges->len, 1));
	double *owns = g_new(double, MAX(g->edges->len, 1));
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		const char *out = EDGE_LEN(e->outs) ? EDGE_AT(e->outs, 0) : NULL;
		const EdgeStat *st = out ? history_get_hashed(h, out, graph_str(out)->len, graph_str(out)->hash) : NULL;
		/* D/stub.c is a copy or a syntax-only cicc run: the last
		 * build's may have been the other (a cicc step tells) */
		if (st && e->kind == EK_STUB && (e->rule->copy ? st->cpu > st->cpu_pre : st->cpu <= st->cpu_pre))
			st = NULL;
		owns[i] = h ? own_measured(h, e, st, &stats[i]) : -1;
		if (owns[i] < 0)
			stats[i] = NULL;
		if (stats[i]) {
			g_array_append_val(kcpu[bucket(e)], owns[i]);
			g_array_append_val(krss[bucket(e)], stats[i]->rss);
		}
		double pre = without_pre(e) && e->kind != EK_STUB ? measured_pre(h, e, stats[i]) : -1;
		if (pre >= 0)
			g_array_append_val(pres, pre);
	}
	double med_cpu[BUCKETS], med_rss[BUCKETS];
	for (int k = 0; k < BUCKETS; k++) {
		med_cpu[k] = kcpu[k]->len ? median(kcpu[k]) : -1;
		med_rss[k] = krss[k]->len ? median(krss[k]) : -1;
		g_array_free(kcpu[k], TRUE);
		g_array_free(krss[k], TRUE);
	}
	double med_pre = pres->len ? median(pres) : PP_COST;
	g_array_free(pres, TRUE);
	double job_memory = 0;
	if (g_strcmp0(c->profile->job_memory, "auto") != 0)
		job_memory = (double)plan_parse_size(c->profile->job_memory);
	p->measured = p->edges = p->dev_measured = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		double cpu, rss;
		default_cost(e, info->device_archs, threads, &cpu, &rss);
		const EdgeStat *st = stats[i];
		if (without_pre(e))
			cpu -= PP_COST; /* the default without its preprocess */
		if (st) {
			cpu = owns[i];
			/* cugen exec sees one process: nvcc --threads runs several */
			rss = e->kind == EK_NVCC ? st->rss * MAX(threads, 1) : st->rss;
			p->measured++;
			p->dev_measured += e->kind == EK_DEV;
		} else if (med_cpu[bucket(e)] >= 0) {
			cpu = med_cpu[bucket(e)];
			rss = med_rss[bucket(e)];
		} else if (e->kind == EK_DEVPP) {
			cpu = med_pre;
		}
		if (without_pre(e) && !pp) {
			double pre = e->kind != EK_STUB ? measured_pre(h, e, st) : st && st->cpu_pre > 0 ? st->cpu_pre : -1;
			cpu += pre >= 0 ? pre : med_pre;
		}
		if (job_memory > 0 && (e->kind == EK_DEV || e->kind == EK_CICC || e->kind == EK_NVCC ||
				       (e->kind == EK_STUB && !e->rule->copy)))
			rss = job_memory;
		e->cost = cpu;
		e->memory = rss;
		if (e->kind != EK_PHONY && e->kind != EK_REGEN)
			p->edges++;
	}
	g_free(owns);
	g_free(stats);
}

/* nvcc --split-compile N on one heavy TU's device compile, measured on
 * the 16-core device machine (bench/RESULTS.md): the wall time shrinks
 * by 1.27x at 2 and 1.5-1.75x at 4, for the same CPU time. */
static double split_speedup(int n)
{
	return n >= 4 ? 1.6 : n >= 2 ? 1.27 : 1;
}

/* Bottom levels (e->level): an edge's cost plus the longest chain after
 * it, by a reverse topological walk over successors. The successor lists
 * and the walk's order depend only on the graph's shape: they are made on
 * the first call and kept (g->topo) while the graph has the same edges. */
static void bottom_levels(Graph *g, double *cpl, double *work)
{
	if (!g->topo || g->topo->len != g->edges->len) {
		/* one pass over the inputs: each edge's producers (graph_maker),
		 * flat (pred, from pstart[i]); then each producer's users, in
		 * one array (g->succ_store) */
		guint n = g->edges->len;
		guint *pstart = g_new(guint, n + 1);
		GPtrArray *pred = g_ptr_array_sized_new(n * 2);
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			e->index = i;
			e->nsucc = 0;
		}
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			pstart[i] = pred->len;
			PathList *lists[] = { e->ins, e->implicit_ins, e->order_ins };
			for (int l = 0; l < 3; l++)
				for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
					Edge *pe = graph_maker(EDGE_AT(lists[l], k));
					if (pe && pe != e) {
						pe->nsucc++;
						g_ptr_array_add(pred, pe);
					}
				}
		}
		pstart[n] = pred->len;
		g_free(g->succ_store);
		g->succ_store = g_new(Edge *, MAX(pred->len, 1));
		Edge **next = g->succ_store;
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			e->succ = next;
			next += e->nsucc;
			e->pending = (int)e->nsucc;
			e->nsucc = 0;
			e->npred = pstart[i + 1] - pstart[i];
		}
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			for (guint k = pstart[i]; k < pstart[i + 1]; k++) {
				Edge *pe = g_ptr_array_index(pred, k);
				pe->succ[pe->nsucc++] = e;
			}
		}
		if (g->topo)
			g_ptr_array_set_size(g->topo, 0);
		else
			g->topo = g_ptr_array_sized_new(n);
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			if (!e->pending)
				g_ptr_array_add(g->topo, e);
		}
		/* users before producers: a producer follows once all its
		 * users are in */
		for (guint qi = 0; qi < g->topo->len; qi++) {
			Edge *e = g_ptr_array_index(g->topo, qi);
			for (guint k = pstart[e->index]; k < pstart[e->index + 1]; k++) {
				Edge *pe = g_ptr_array_index(pred, k);
				if (--pe->pending == 0)
					g_ptr_array_add(g->topo, pe);
			}
		}
		g_ptr_array_free(pred, TRUE);
		g_free(pstart);
	}
	*cpl = 0;
	*work = 0;
	for (guint qi = 0; qi < g->topo->len; qi++) {
		Edge *e = g_ptr_array_index(g->topo, qi);
		double best = 0;
		for (guint k = 0; k < e->nsucc; k++) {
			Edge *sx = e->succ[k];
			if (sx->level > best)
				best = sx->level;
		}
		/* the edge's wall time: a split compile runs in parallel */
		e->level = e->cost / (e->rule ? split_speedup(e->rule->split_compile) : 1) + best;
		*cpl = MAX(*cpl, e->level);
		*work += e->cost;
	}
}

typedef struct {
	Edge *e;
	double level;
	gboolean last;        /* phony and regen edges go after the others */
} Ranked;

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
static void sort_ranked(Ranked *v, guint n)
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
static void order_edges(Graph *g, int defer, GRand *noise)
{
	guint n = g->edges->len;
	Ranked *r = g_new(Ranked, MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		double level = noise ? e->level * g_rand_double_range(noise, 0.7, 1.3) : e->level;
		r[i] = (Ranked){ e, (int)e->kind == defer ? level - 1e9 : level,
				 e->kind == EK_PHONY || e->kind == EK_REGEN };
	}
	sort_ranked(r, n);
	for (guint i = 0; i < n; i++)
		g->edges->pdata[i] = r[i].e;
	g_free(r);
}

/* The kind of pool edges.c gave the edge's rule: 0 device, 1 host,
 * 2 link, -1 none (size_pools may move device and host into "compile"). */
static int pool_of(const Edge *e)
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
 * with trace (CUGEN_SIMTRACE), each edge's start and end as lines. */
static double simulate(Graph *g, const Plan *p, int threads, double *start, FILE *trace)
{
	guint n = g->edges->len;
	if (!n)
		return 0;
	for (guint i = 0; i < n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		e->index = i;
		e->pending = (int)e->npred;
	}
	/* the start order: key[i] of edge i, edge byk[k] of key k */
	guint *key = g_new(guint, n), *byk = g_new(guint, n);
	for (guint i = 0; i < n; i++)
		byk[i] = i;
	if (p->depth_first && g->topo && g->topo->len == n) {
		int *w = g_new0(int, n);
		for (guint q = 0; q < n; q++) {
			Edge *e = g_ptr_array_index(g->topo, q);
			int best = 0;
			for (guint k = 0; k < e->nsucc; k++)
				best = MAX(best, w[e->succ[k]->index]);
			w[e->index] = best + (e->kind != EK_PHONY);
		}
		g_qsort_with_data(byk, (gint)n, sizeof(guint), by_depth, w);
		g_free(w);
	}
	for (guint k = 0; k < n; k++)
		key[byk[k]] = k;
	/* the cores each job keeps busy: nvcc --threads, --split-compile */
	double *par = g_new(double, n);
	for (guint i = 0; i < n; i++) {
		const Edge *e = g_ptr_array_index(g->edges, i);
		par[i] = e->kind == EK_NVCC ? MAX(threads, 1) : e->rule ? split_speedup(e->rule->split_compile) : 1;
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
		Edge *e = g_ptr_array_index(g->edges, i);
		int k = pool_of(e);
		if (p->shared && k == 1)
			k = 0; /* one pool "compile" */
		slot[i] = k + 1;
	}
	guint *run = g_new(guint, n);
	double *left = g_new(double, n);
	guint nrun = 0, done = 0;
	double t = 0;
	for (guint i = 0; i < n; i++)
		if (!((Edge *)g_ptr_array_index(g->edges, i))->pending)
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
			Edge *e = g_ptr_array_index(g->edges, i);
			if (best > 0)
				busy[best - 1]++;
			left[i] = e->kind == EK_PHONY || e->kind == EK_REGEN ? 0 : e->cost;
			run[nrun++] = i;
			if (start)
				start[i] = t;
			if (trace && left[i] > 0)
				fprintf(trace, "start %8.2f %7.2f %s\n", t, e->cost, EDGE_LEN(e->outs) ? EDGE_AT(e->outs, 0) : "?");
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
			Edge *e = g_ptr_array_index(g->edges, i);
			left[i] -= step * rate * par[i];
			if (left[i] > 1e-9) {
				run[kept++] = i;
				continue;
			}
			done++;
			if (trace && e->cost > 0)
				fprintf(trace, "end   %8.2f %7.2f %s\n", t, e->cost, EDGE_LEN(e->outs) ? EDGE_AT(e->outs, 0) : "?");
			if (slot[i] > 0)
				busy[slot[i] - 1]--;
			for (guint s2 = 0; s2 < e->nsucc; s2++) {
				Edge *sx = e->succ[s2];
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
	return t;
}

#define SAMPLES 8

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

/* An edge's cost in sample k, varied by up to amp each way: by its TU
 * (every edge of one source file shares a factor: a heavy TU is heavy
 * in every arch, and nothing before its first build says which TU that
 * is) and by the edge itself. */
#define EDGE_SPREAD 0.2
#define TU_SPREAD 0.35
static double varied(const EdgeSeed *s, double cost, guint k, double amp)
{
	double f = 1;
	if (s->has_source && amp > EDGE_SPREAD)
		f *= 1 + TU_SPREAD * (2 * draw(s->source, k) - 1);
	if (s->has_out)
		f *= 1 + MIN(amp, EDGE_SPREAD) * (2 * draw(s->out, k + 1000) - 1);
	return cost * f;
}

/* The simulated wall time of the graph as ordered, averaged over costs
 * varied by up to amp (0.2: 20%) each way: real edges differ from their
 * estimates, and equal default costs would make waves of jobs that no
 * build has. The variations come from varied(). */
static double robust_time(Graph *g, const Plan *p, int threads, double amp)
{
	if (amp <= 0)
		return simulate(g, p, threads, NULL, NULL);
	guint n = g->edges->len;
	double *cost = g_new(double, n), sum = 0;
	EdgeSeed *seed = g_new(EdgeSeed, n);
	for (guint i = 0; i < n; i++) {
		const Edge *e = g_ptr_array_index(g->edges, i);
		cost[i] = e->cost;
		seed[i] = edge_seed(e);
	}
	const int samples = amp > EDGE_SPREAD ? 4 * SAMPLES : SAMPLES;
	for (int k = 0; k < samples; k++) {
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			e->cost = varied(&seed[i], cost[i], (guint)k, amp);
		}
		sum += simulate(g, p, threads, NULL, NULL);
	}
	for (guint i = 0; i < n; i++)
		((Edge *)g_ptr_array_index(g->edges, i))->cost = cost[i];
	g_free(cost);
	g_free(seed);
	return sum / samples;
}

/* Orders the edges for the shortest simulated build. Starts from longest
 * remaining chain first, and the same with the host compiles after
 * everything else; then tries orders with the chain lengths jittered by
 * up to 30% (a fixed seed: the same inputs give the same file), which
 * finds packings of a few long edges on few cores that the greedy order
 * misses. Each order is scored by robust_time (costs varied by amp), so
 * a packing that only works for the estimates exactly is not chosen.
 * Returns that time; *how says which order won. */
static double order_best(Graph *g, const Plan *p, int threads, double amp, const char **how)
{
	double cpl, work;
	bottom_levels(g, &cpl, &work);
	guint n = g->edges->len;
	gpointer *best_order = g_new(gpointer, n);
	order_edges(g, -1, NULL);
	double plain = robust_time(g, p, threads, amp), best = plain;
	memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
	*how = "longest remaining chain first";
	order_edges(g, EK_HOST, NULL);
	double t = robust_time(g, p, threads, amp);
	if (t < best * 0.995) {
		best = t;
		memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
		*how = "longest remaining chain first, host compiles after the device work";
	}
	/* a budget of about 20,000 simulated edges: a few long edges on
	 * few cores are where the order matters */
	guint tries = amp > EDGE_SPREAD ? 0 : MIN(100u, 20000u / ((amp > 0 ? SAMPLES : 1) * MAX(n, 1u)));
	GRand *r = g_rand_new_with_seed(20261129);
	for (guint i = 0; i < tries; i++) {
		order_edges(g, i % 2 ? EK_HOST : -1, r);
		t = robust_time(g, p, threads, amp);
		if (t < best * 0.995) {
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

static const char *size_str(double bytes, char buf[32])
{
	if (bytes >= GiB)
		g_snprintf(buf, 32, "%.1f GiB", bytes / GiB);
	else
		g_snprintf(buf, 32, "%.0f MiB", bytes / (1024.0 * 1024));
	return buf;
}

/* Pool depths: each pool alone may fill the cores (divided by the threads
 * a job uses), and the pools together, each full, stay within the memory
 * limit. Slots go to the pool with the most work per slot. */
/* The pools. When memory allows a job of the larger kind on every core,
 * device and host compiles share one pool ("compile", depth = cores), so
 * that ninja's default -j (cores + 2) never runs more compiles than
 * cores. Otherwise each kind gets its own pool, deepened in turn (the
 * kind with the most work per job first) while the memory lasts and
 * device plus host jobs stay within the cores. With announce, the pools
 * go into the graph and the reasons into the plan. */
static void size_pools(Graph *g, Plan *p, int dev_threads, gboolean announce)
{
	double mem[3] = { 0, 0, 0 }, work[3] = { 0, 0, 0 };
	guint count[3] = { 0, 0, 0 };
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		int k = pool_of(e);
		if (k < 0)
			continue;
		mem[k] = MAX(mem[k], e->memory);
		work[k] += e->cost;
		count[k]++;
	}
	int cap[3] = { MAX(1, p->cores / MAX(dev_threads, 1)), p->cores, MAX(1, MIN(p->cores, (int)count[2])) };
	int depth[3] = { 1, 1, 1 };
	const double limit = (double)p->memory;
	double link_mem = count[2] ? mem[2] : 0;
	double big = MAX(mem[0], mem[1]);
	p->shared = dev_threads == 1 && count[0] && count[1] && big * p->cores + link_mem <= limit;
	double used = 0;
	if (p->shared) {
		depth[0] = depth[1] = p->cores;
		used = big * p->cores + link_mem;
		while (depth[2] < cap[2] && used + mem[2] <= limit) {
			depth[2]++;
			used += mem[2];
		}
	} else {
		for (int k = 0; k < 3; k++)
			if (count[k])
				used += mem[k];
		if (used > limit && announce) {
			char b1[32], b2[32];
			why(p, "one job of each kind needs about %s, over the %s limit: running one at a time and hoping",
			    size_str(used, b1), size_str(limit, b2));
		}
		for (;;) {
			int best = -1;
			double best_share = -1;
			for (int k = 0; k < 3; k++) {
				if (!count[k] || depth[k] >= cap[k] || used + mem[k] > limit)
					continue;
				/* device threads plus host jobs within the cores */
				if (k < 2 && count[0] && count[1] &&
				    depth[0] * dev_threads + depth[1] + (k == 0 ? dev_threads : 1) > MAX(p->cores, dev_threads + 1))
					continue;
				double share = (work[k] + 1e-9) / depth[k];
				if (share > best_share) {
					best_share = share;
					best = k;
				}
			}
			if (best < 0)
				break;
			depth[best]++;
			used += mem[best];
		}
	}
	p->device = depth[0];
	p->host = depth[1];
	p->link = depth[2];
	p->mem_device = mem[0];
	p->mem_host = mem[1];
	p->mem_link = mem[2];
	p->recommended_j = MAX(1, p->cores / MAX(dev_threads, 1));
	p->peak_memory = p->shared ? used : depth[0] * mem[0] + depth[1] * mem[1] + depth[2] * mem[2];
	/* the rules' pools follow the choice (once per rule, not per edge) */
	for (guint i = 0; i < g->rules->len; i++) {
		Rule *r = g_ptr_array_index(g->rules, i);
		if (!r->pool_kind || (strcmp(r->pool_kind, "device") != 0 && strcmp(r->pool_kind, "host") != 0))
			continue;
		g_free(r->pool);
		r->pool = g_strdup(p->shared ? "compile" : r->pool_kind);
	}
	if (!announce)
		return;
	char b1[32], b2[32];
	const char *names[3] = { "device", "host", "link" };
	const char *what[3] = { "per-arch device compiles", "front ends, host compiles", "device and host links" };
	if (p->shared) {
		char *line = g_strdup_printf("device and host compiles (compile): %u + %u edges share %d jobs (bound: cores; memory allows %d of the larger, about %s each)",
					     count[0], count[1], p->cores, p->cores, size_str(big, b1));
		graph_pool(g, "compile", p->cores, line);
		g_free(line);
	}
	for (int k = p->shared ? 2 : 0; k < 3; k++) {
		const char *bound = depth[k] >= cap[k] ? (k == 0 && dev_threads > 1 ? "cores / threads" : k == 2 && cap[2] == (int)count[2] ? "link edges" : "cores")
				  : k < 2 && count[0] && count[1] && used + mem[k] <= limit ? "cores, with the other kind" : "memory";
		char *line = g_strdup_printf("%s (%s): %u edges, %d jobs (bound: %s), about %s each",
					     what[k], names[k], count[k], depth[k], count[k] ? bound : "none", size_str(mem[k], b1));
		graph_pool(g, names[k], depth[k], line);
		g_free(line);
	}
	if (p->shared)
		why(p, "memory: %d compile x %s + %d link x %s = %s of %s (%s)", p->cores, size_str(big, b1), depth[2],
		    size_str(mem[2], b2), size_str(used, (char[32]){ 0 }), size_str(limit, (char[32]){ 0 }), p->memory_from);
	else
		why(p, "memory: %d device x %s + %d host x %s + %d link x %s = %s of %s (%s)",
		    depth[0], size_str(mem[0], b1), depth[1], size_str(mem[1], b2), depth[2],
		    size_str(mem[2], (char[32]){ 0 }), size_str(depth[0] * mem[0] + depth[1] * mem[1] + depth[2] * mem[2], (char[32]){ 0 }),
		    size_str(limit, (char[32]){ 0 }), p->memory_from);
}

/* The ninja on PATH: from 1.12 it starts ready edges by depth, then in
 * file order (its "critical path" scheduler); before, in file order. */
static gboolean probe_ninja(Plan *p, GError **err)
{
	char *ninja = g_find_program_in_path("ninja");
	char *out = NULL;
	const char *argv[] = { ninja, "--version", NULL };
	gboolean ok = !ninja || cg_spawn_bounded(NULL, argv, G_SPAWN_STDERR_TO_DEV_NULL, &out, NULL, NULL, err);
	int major = 0, minor = 0;
	if (ok && out && sscanf(out, "%d.%d", &major, &minor) == 2) {
		p->depth_first = major > 1 || (major == 1 && minor >= 12);
		g_strlcpy(p->ninja_version, g_strstrip(out), sizeof p->ninja_version);
	}
	g_free(out);
	g_free(ninja);
	return ok;
}

/* Take the alternative (expected t_alt against t_cur)? Without a last
 * choice (prev -1), when it is faster by the margin and saves at least
 * `gain` seconds; else the last
 * setup's choice (prev: 1 took it, 0 did not) stands unless the other
 * saves a share `change` of the time and 2 s: a changed choice changes
 * commands, and a re-setup with new measurements (which vary from build
 * to build) should not rebuild for a little. */
/* The least share `change` can be: about twice the largest run-to-run
 * spread (11%) of the ratio of two alternatives' expected times, each
 * from one build's measurements, over repeated builds on a loaded 2-core
 * machine (bench/noise.sh, bench/RESULTS.md). Below it a re-setup would
 * flip choices on noise. */
#define CHANGE_FLOOR 0.2

static gboolean prefer(double t_alt, double t_cur, int prev, double margin, double gain, double change)
{
	change = MAX(change, CHANGE_FLOOR);
	if (prev == 1)
		return !(t_cur < (1 - change) * t_alt && t_alt - t_cur >= 2);
	if (prev == 0)
		return t_alt < (1 - change) * t_cur && t_cur - t_alt >= 2;
	return t_alt < margin * t_cur && t_cur - t_alt >= gain;
}

/* A candidate graph's expected wall time: its pools sized (quietly) and
 * its edges ordered for the shortest simulated build under varied costs
 * (order_best). Large graphs are not simulated: the work over the cores,
 * or the critical path. */
static double evaluate(Graph *g, Plan *p, int threads, const char **how)
{
	size_pools(g, p, threads, FALSE);
	if (g->edges->len > 20000) {
		double cpl, work;
		bottom_levels(g, &cpl, &work);
		order_edges(g, -1, NULL);
		*how = "longest remaining chain first";
		return MAX(work / MAX(p->cores, 1), cpl);
	}
	/* the estimates' spread: wide before anything was measured; large
	 * graphs (no alternatives to weigh) are simulated as estimated */
	double amp = g->edges->len > 4000 ? 0 : p->measured * 2 >= p->edges ? 0.2 : 0.4;
	return order_best(g, p, threads, amp, how);
}

/* A choice that changes the graph, for plan_make to weigh: how cugen
 * plan words it taken and not, the last setup's choice (prev), prefer()'s
 * margins, and whether the alternative must add edges to differ. */
typedef struct {
	const char *taken, *taken_short, *kept, *kept_short;
	int prev;
	double margin, gain, change;
	gboolean adds_edges;
} Alternative;

/* A graph for a set of choices, built and costed: t and how once
 * evaluated. */
typedef struct {
	Graph *g;
	GraphInfo info;
	double t;
	const char *how;
} Candidate;

static gboolean build_candidate(Candidate *k, const EdgeOptions *alt, GraphBuilder build, void *data,
				const History *h, const Config *c, Plan *p, GError **err)
{
	memset(k, 0, sizeof *k);
	k->g = build(data, alt, &k->info, err);
	if (!k->g)
		return FALSE;
	set_costs(k->g, h, c, &k->info, alt->threads, alt->pp_edges, p);
	return TRUE;
}

static void candidate_free(Candidate *k)
{
	graph_free(k->g);
	graph_info_clear(&k->info);
}

/* Keeps whichever of the evaluated candidate k (choices alt) and *g
 * prefer() picks, and says why: *g, *info, *ch, *t and *how then
 * describe the kept one; k is used up. */
static void weigh(const Alternative *a, const EdgeOptions *alt, Candidate *k, Plan *p, Graph **g,
		  GraphInfo *info, EdgeOptions *ch, double *t, const char **how)
{
	const char *note = a->prev >= 0 && prefer(k->t, *t, -1, a->margin, a->gain, 0) !=
				   prefer(k->t, *t, a->prev, a->margin, a->gain, a->change)
			   ? ", as in the last setup" : "";
	if (prefer(k->t, *t, a->prev, a->margin, a->gain, a->change)) {
		why(p, "%s: expected %.0f s (%s: %.0f s%s)", a->taken, k->t, a->kept_short, *t, note);
		graph_free(*g);
		graph_info_clear(info);
		*info = k->info;
		*g = k->g;
		*ch = *alt;
		*t = k->t;
		*how = k->how;
	} else {
		why(p, "%s: expected %.0f s (%s: %.0f s%s)", a->kept, *t, a->taken_short, k->t, note);
		candidate_free(k);
	}
}

/* Builds the graph with the alternative choices (alt), simulates it and
 * keeps whichever of it and *g prefer() picks (weigh). FALSE (and err)
 * when the build fails. */
static gboolean try_alternative(const Alternative *a, const EdgeOptions *alt, GraphBuilder build, void *data,
				const History *h, const Config *c, Plan *p, int threads, Graph **g,
				GraphInfo *info, EdgeOptions *ch, double *t, const char **how, GError **err)
{
	Candidate k;
	if (!build_candidate(&k, alt, build, data, h, c, p, err))
		return FALSE;
	k.t = !a->adds_edges || k.g->edges->len > (*g)->edges->len ? evaluate(k.g, p, threads, &k.how) : *t;
	weigh(a, alt, &k, p, g, info, ch, t, how);
	return TRUE;
}

/* A device compile that a tail split can take (edges.c splits no LTO
 * image): a whole device edge, or with ptxas edges a cicc edge (the long
 * part; its ptxas edge is split with it). */
static gboolean splittable(const Edge *e)
{
	return (e->kind == EK_CICC || (e->kind == EK_DEV && !ptxas_only(e))) && EDGE_LEN(e->outs) &&
	       !g_str_has_suffix(EDGE_AT(e->outs, 0), ".ltoir");
}

/* The name a split set knows a splittable edge by: its device edge's
 * first output (a cicc edge's D/compute_ID.ptx is D/sm_ID.cubin's). */
static char *split_key(const Edge *e)
{
	const char *out = EDGE_AT(e->outs, 0);
	if (e->kind != EK_CICC)
		return g_strdup(out);
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	const char *id = base + strlen("compute_");
	return g_strdup_printf("%.*ssm_%.*s.cubin", (int)(base - out), out, (int)(strlen(id) - strlen(".ptx")), id);
}

/* The first outputs of the k device edges whose chains end last in g's
 * simulated build (as ordered, with its estimated costs: the start plus
 * the edge's bottom level): the edges that start last, and those on the
 * critical path. A set of strings it owns. */
static GHashTable *last_device_edges(Graph *g, const Plan *p, int threads, guint k)
{
	guint n = g->edges->len;
	double *start = g_new0(double, MAX(n, 1));
	simulate(g, p, threads, start, NULL);
	GArray *dev = g_array_new(FALSE, FALSE, sizeof(Ranked));
	for (guint i = 0; i < n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (splittable(e)) {
			Ranked r = { e, start[i] + e->level + i * 1e-9, FALSE }; /* ties: later in the file */
			g_array_append_val(dev, r);
		}
	}
	g_free(start);
	sort_ranked((Ranked *)(void *)dev->data, dev->len); /* latest first */
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < MIN(k, dev->len); i++)
		g_hash_table_add(set, split_key(g_array_index(dev, Ranked, i).e));
	g_array_free(dev, TRUE);
	return set;
}

/* The tail split (profile split_compile = auto or tail, 4 cores or
 * more): at the end of a build, the last device compiles run while cores
 * idle (nothing else is left to start). nvcc --split-compile runs parts
 * of their cicc and ptxas in parallel: shorter edges for the same CPU
 * time, but other code, so it must save 5% and 2 s (cugen plan and the
 * shard manifest say so; split_compile = 0 keeps plain nvcc's code).
 * Tries the last cores/4, cores/2 and cores device edges by where their
 * chains end (a set from the last setup stays unless dropping it saves
 * 10%: a change reruns the edges it moves). */
static gboolean try_tail_split(GraphBuilder build, void *data, const History *h, const Config *c, Plan *p,
			       int threads, Graph **g, GraphInfo *info, EdgeOptions *ch, double *t, const char **how,
			       GError **err)
{
	const int sc = p->cores >= 8 ? 4 : 2;
	guint ndev = 0;
	for (guint i = 0; i < (*g)->edges->len; i++)
		ndev += splittable(g_ptr_array_index((*g)->edges, i));
	if (!ndev)
		return TRUE;
	p->tail_considered = TRUE;
	p->tail_guessed = p->dev_measured == 0;
	/* the sets to try: the last setup's (its edges that are still
	 * there), else the last k. A choice made on guessed costs (no
	 * device compile measured) is weighed again once some are: the
	 * defaults guess heavy TUs, so a small project would otherwise keep
	 * a split its first build's guesses took. The guessed set stays
	 * unless it no longer saves 2 s or a fresh set saves 2 s more (a
	 * change reruns edges); a guessed "none" is chosen anew. */
	int prev = h ? h->tail_split : -1;
	const gboolean reweigh = prev >= 0 && h->split_guessed && !p->tail_guessed;
	if (reweigh && prev == 0)
		prev = -1;
	GPtrArray *sets = g_ptr_array_new();
	if (prev > 1 && h->split_edges && *h->split_edges) {
		GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		for (char **s = h->split_edges; *s; s++)
			if (graph_maker(graph_intern(*g, *s)))
				g_hash_table_add(set, g_strdup(*s));
		if (g_hash_table_size(set))
			g_ptr_array_add(sets, set);
		else /* its edges are gone: choose anew */
			g_hash_table_destroy(set);
	}
	const gboolean kept = sets->len > 0;
	if (kept)
		prev = 1;
	else
		prev = prev == 0 ? 0 : -1;
	/* a guessed set (sets[0]), weighed again, competes with fresh ones */
	const gboolean guessed = kept && reweigh;
	if (!kept || guessed) {
		const guint ks[] = { (guint)p->cores / 4, (guint)p->cores / 2, (guint)p->cores };
		guint last = 0;
		for (gsize i = 0; i < G_N_ELEMENTS(ks); i++) {
			guint k = MIN(MAX(ks[i], 1u), ndev);
			if (k != last)
				g_ptr_array_add(sets, last_device_edges(*g, p, threads, k));
			last = k;
		}
	}
	/* the fastest of them (the first of equals; the guessed set unless
	 * another saves 2 s), against none */
	Candidate best = { 0 };
	guint best_i = 0;
	EdgeOptions alt = *ch;
	alt.tail_split = sc;
	gboolean ok = TRUE;
	for (guint i = 0; i < sets->len && ok; i++) {
		EdgeOptions o = alt;
		o.split_edges = g_ptr_array_index(sets, i);
		Candidate k;
		ok = build_candidate(&k, &o, build, data, h, c, p, err);
		if (!ok)
			break;
		k.t = evaluate(k.g, p, threads, &k.how);
		const double bar = guessed && best_i == 0 ? 2 : 0;
		if (!best.g || k.t < best.t - bar) {
			if (best.g)
				candidate_free(&best);
			best = k;
			best_i = i;
			alt.split_edges = o.split_edges;
		} else {
			candidate_free(&k);
		}
	}
	if (ok) {
		char *taken = g_strdup_printf("nvcc --split-compile %d for the %u device compiles whose chains end last "
					      "(cores would idle; note: it changes their code, the shard manifest says so)",
					      sc, g_hash_table_size(alt.split_edges));
		char *taken_short = g_strdup_printf("with --split-compile %d for the last %u", sc,
						    g_hash_table_size(alt.split_edges));
		Alternative a = { taken, taken_short, "no --split-compile for the device compiles whose chains end last",
				  "without", prev, 0.95, 2, 0.1, FALSE };
		if (guessed) { /* measured: any 2 s keep the guessed set; another as new */
			a.prev = -1;
			if (best_i == 0)
				a.margin = 1;
		}
		weigh(&a, &alt, &best, p, g, info, ch, t, how);
		g_free(taken);
		g_free(taken_short);
	} else if (best.g) {
		candidate_free(&best);
	}
	for (guint i = 0; i < sets->len; i++)
		if (g_ptr_array_index(sets, i) != ch->split_edges)
			g_hash_table_destroy(g_ptr_array_index(sets, i));
	g_ptr_array_free(sets, TRUE);
	return ok;
}

/* plan --trace FILE: the simulated build of the chosen graph, an edge a
 * line as it starts and ends. With --costs BUILDDIR, simulated with the
 * costs measured there instead (how this plan would have run with that
 * build's costs: the planner's own benchmark). Changes the graph's
 * costs: the last thing plan_make does. */
static void write_trace(Graph *g, const Plan *p, const Config *c, const GraphInfo *info, int threads)
{
	const char *path = p->trace, *costs = p->trace_costs;
	FILE *trace;
	if (!path)
		return;
	if (g->edges->len > 20000) {
		cg_warn("no trace written: %u edges (20,000 at most)", g->edges->len);
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
		set_costs(g, h, c, info, threads, p->pp_edges, &tp);
		g_ptr_array_free(tp.why, TRUE);
		history_free(h);
		double cpl, work;
		bottom_levels(g, &cpl, &work);
		fprintf(trace, "# costs from %s: %.1f CPU s, critical path %.1f s\n", costs, work, cpl);
	}
	fprintf(trace, "# %.2f s simulated\n", simulate(g, p, threads, NULL, trace));
	fclose(trace);
}

/* auto (and tail, its older name) leave --split-compile to the planner;
 * [cuda] reproducible = yes: plain nvcc's code, whatever the profile */
static gboolean split_compile_auto(const Config *c)
{
	const char *v = c->profile->split_compile;
	return !c->reproducible && (g_strcmp0(v, "auto") == 0 || g_strcmp0(v, "tail") == 0);
}

int plan_profile_split_compile(const Config *c)
{
	return split_compile_auto(c) || c->reproducible ? 0 : atoi(c->profile->split_compile);
}

Graph *plan_make(const Config *c, const Machine *m, const History *h,
		 GraphBuilder build, void *data, GraphInfo *info, Plan *p, GError **err)
{
	const Profile *pr = c->profile;
	p->why = g_ptr_array_new_with_free_func(g_free);
	p->cores = m->cores;
	p->cores_from = m->cores_from;
	if (g_strcmp0(pr->jobs, "auto") != 0) {
		p->cores = atoi(pr->jobs);
		p->cores_from = "profile jobs";
	}
	p->memory = m->memory ? m->memory : (guint64)(8 * GiB);
	p->memory_from = m->memory ? m->memory_from : "unknown, assumed";
	if (g_strcmp0(pr->memory, "auto") != 0) {
		p->memory = plan_parse_size(pr->memory);
		p->memory_from = "profile memory";
	}
	EdgeOptions ch = { 0 };
	if (g_strcmp0(pr->threads, "auto") != 0)
		ch.threads = atoi(pr->threads);
	const gboolean sc_auto = split_compile_auto(c);
	ch.split_compile = plan_profile_split_compile(c);
	Graph *g = build(data, &ch, info, err);
	if (!g)
		return NULL;
	cg_timing("graph");
	/* (h is read from here on: setup loads it while the graph is built) */
	p->mem_from = h && h->lines ? "measured in the last build" : "defaults (nothing measured yet)";
	if (g_strcmp0(pr->job_memory, "auto") != 0)
		p->mem_from = "profile job_memory";
	int archs = MAX((int)info->device_archs, 1);
	int ntu = (int)info->cuda_tus;

	if (info->split_tu_targets) {
		/* split = tu: nvcc per TU; --threads when TUs are fewer than cores */
		if (g_strcmp0(pr->threads, "auto") == 0) {
			int t = ntu >= p->cores ? 1 : MIN(archs, (p->cores + ntu - 1) / MAX(ntu, 1));
			ch.threads = t > 1 ? t : 0;
			why(p, "nvcc --threads %d: %d TUs for %d cores, %d archs each", MAX(t, 1), ntu, p->cores, archs);
		} else {
			why(p, "nvcc --threads %d (profile threads)", ch.threads);
		}
		/* (never --split-compile unasked: one nvcc per TU compiles
		 * what plain nvcc does; --threads does not change the code) */
		if (ch.threads || ch.split_compile) {
			graph_free(g);
			graph_info_clear(info);
			g = build(data, &ch, info, err);
			if (!g)
				return NULL;
		}
	}
	if (ch.split_compile > 1)
		why(p, "--split-compile %d (profile split_compile); note: it changes the generated code", ch.split_compile);
	if (c->reproducible)
		why(p, "no --split-compile ([cuda] reproducible = yes): the code plain nvcc makes");

	set_costs(g, h, c, info, ch.threads, ch.pp_edges, p);
	cg_timing("set_costs");
	const int pool_threads = MAX(MAX(ch.threads, ch.split_compile), 1);
	double cpl = 0, work = 0;
	const char *how = NULL;
	/* Alternatives for small graphs (a simulated build each decides) */
	const gboolean small = ntu && !info->split_tu_targets && g->edges->len <= 4000;
	if (g->edges->len <= 20000 && !probe_ninja(p, err)) {
		graph_free(g);
		graph_info_clear(info);
		return NULL;
	}
	/* ninja 1.12 and later start the ready edge with the most edges
	 * after it first (each edge counts 1, whatever it costs), then in
	 * file order: every ready cicc edge (4 edges to the end, with its
	 * ptxas, fatbin and link) before a host compile (3), the longest
	 * single job, which then ends the build. Two stamp edges after each
	 * host compile make it 5: it starts once its stub is made. The
	 * choices below are made with them; the last weighs them. Not on
	 * fewer than 4 cores, nor before a device compile is measured
	 * without a tail split to take: a first build does not know which
	 * TU is heavy, and starting the host compiles early can start its
	 * device compiles late. With seven measured pairs of workload A
	 * builds (bench/RESULTS.md), the stamps made every rebuild faster
	 * and every first build that could take a tail split; first builds
	 * without one were 3% slower on average. */
	if (small && p->depth_first && !p->no_rank && p->cores >= 4 && (sc_auto || p->dev_measured > 0)) {
		ch.host_rank = TRUE;
		p->rank_considered = TRUE;
		graph_free(g);
		graph_info_clear(info);
		g = build(data, &ch, info, err);
		if (!g)
			return NULL;
		set_costs(g, h, c, info, ch.threads, ch.pp_edges, p);
	}
	double t_dev = evaluate(g, p, pool_threads, &how);
	cg_timing("costs");
	if (small) {
		/* The host compile waiting for a whole device compile may set
		 * the critical path. Try the stub from a syntax-only edge (more
		 * CPU, shorter chain). A switch reruns only the stub edges, and
		 * the host compiles only if a stub changed: 3% would do (CHANGE_FLOOR rules: noise). */
		Alternative syntax = { "host stub from a syntax-only edge", "a syntax-only stub edge",
				       "host stub from the first arch's device edge", "from the first arch's device edge",
				       h ? h->syntax_stub : -1, 0.97, 0, 0.03, FALSE };
		EdgeOptions alt = ch;
		alt.syntax_stub = TRUE;
		if (!try_alternative(&syntax, &alt, build, data, h, c, p, pool_threads, &g, info, &ch, &t_dev, &how, err))
			return NULL;
		/* While the front ends run (the device compiles need their
		 * module ids), cores may idle. Try the device preprocesses as
		 * their own edges, which need no id (7 more edges per TU; not
		 * with the cache, which keys the device edge by its preprocess:
		 * edges.c then adds none). A switch reruns every device
		 * compile: 10% (CHANGE_FLOOR rules). */
		Alternative pp = { "device preprocesses as their own edges, beside the front ends",
				   "as their own edges", "device preprocesses inside the device edges",
				   "inside the device edges", h ? h->pp_edges : -1, 0.99, 0, 0.1, TRUE };
		alt = ch;
		alt.pp_edges = TRUE;
		if (!try_alternative(&pp, &alt, build, data, h, c, p, pool_threads, &g, info, &ch, &t_dev, &how, err))
			return NULL;
		/* The tail split, and cicc and ptxas as edges of their own (not
		 * for LTO images, PTX-only archs or with the cache: edges.c then
		 * adds none): smaller edges pack tighter, at the end of a build
		 * above all, and an error in the estimates costs less; the same
		 * commands run, the PTX stays on disk. Each way gets a tail
		 * split of its own (A: device edges whole, B: ptxas edges), and
		 * B is weighed against A: a switch reruns every device compile
		 * (10%). Only the kept way's lines stay in `cugen plan`. */
		const EdgeOptions before = ch;
		const guint a0 = p->why->len;
		if (sc_auto && p->cores >= 4 &&
		    !try_tail_split(build, data, h, c, p, pool_threads, &g, info, &ch, &t_dev, &how, err))
			return NULL;
		const guint a1 = p->why->len;
		EdgeOptions b = before;
		b.ptxas_edges = TRUE;
		Candidate kb;
		if (!p->whole_device && p->cores > 1) {
			if (!build_candidate(&kb, &b, build, data, h, c, p, err))
				return NULL;
			/* (a graph over 4,000 edges would be simulated without the
			 * spread of costs that A's was) */
			if (kb.g->edges->len > g->edges->len && kb.g->edges->len <= 4000) {
				kb.t = evaluate(kb.g, p, pool_threads, &kb.how);
				if (sc_auto && p->cores >= 4 &&
				    !try_tail_split(build, data, h, c, p, pool_threads, &kb.g, &kb.info, &b, &kb.t,
						    &kb.how, err)) {
					candidate_free(&kb);
					return NULL;
				}
				const guint b1 = p->why->len;
				Alternative px = { "cicc and ptxas as edges of their own", "as edges of their own",
						   "cicc and ptxas in one device edge", "in one device edge",
						   h ? h->ptxas_edges : -1, 0.99, 0, 0.1, TRUE };
				GHashTable *a_split = ch.split_edges;
				if (p->dev_measured == 0) {
					/* Guessed costs (no device compile measured): the
					 * simulations of measured workload A and B builds
					 * (bench/RESULTS.md) ran faster with ptxas edges in
					 * every case, 3% on average, also where the guessed
					 * costs said otherwise: a first build does not know
					 * which TU is heavy, and small edges suffer least
					 * from that. Taken unless 10% slower. */
					px.taken = "cicc and ptxas as edges of their own (nothing measured yet: "
						   "small edges suffer least from wrong guesses)";
					px.margin = 1.1;
					px.gain = -G_MAXDOUBLE;
				}
				weigh(&px, &b, &kb, p, &g, info, &ch, &t_dev, &how);
				if (ch.ptxas_edges) { /* B: A's tail split lines and set go */
					g_ptr_array_remove_range(p->why, a0, a1 - a0);
					if (a_split && a_split != ch.split_edges)
						g_hash_table_destroy(a_split);
				} else {
					g_ptr_array_remove_range(p->why, a1, b1 - a1);
					if (b.split_edges && b.split_edges != ch.split_edges)
						g_hash_table_destroy(b.split_edges);
				}
			} else {
				candidate_free(&kb);
			}
		}
		/* The stamp edges (below) against none, with the rest chosen
		 * with them. Dropping them reruns only the stamps: 1% (CHANGE_FLOOR rules). */
		if (ch.host_rank) {
			Alternative norank = { "host compiles ranked by ninja after the device compiles (no stamp edges)",
					       "without stamp edges",
					       "host compiles ranked ahead in ninja's order (two stamp edges after each)",
					       "with stamp edges", h && h->host_rank >= 0 ? !h->host_rank : -1, 1, 0, 0.01,
					       FALSE };
			alt = ch;
			alt.host_rank = FALSE;
			if (!try_alternative(&norank, &alt, build, data, h, c, p, pool_threads, &g, info, &ch, &t_dev, &how,
					     err))
				return NULL;
		}
	}
	p->threads = ch.threads;
	p->split_compile = ch.split_compile;
	p->syntax_stub = ch.syntax_stub;
	p->pp_edges = ch.pp_edges;
	p->ptxas_edges = ch.ptxas_edges;
	p->host_rank = ch.host_rank;
	p->tail_split = ch.split_edges ? ch.tail_split : 0;
	p->split_edges = ch.split_edges;
	if (small) /* the counts of measured edges were the last candidate's */
		set_costs(g, h, c, info, ch.threads, ch.pp_edges, p);
	/* g is ordered (its evaluate); the pools again, announced */
	size_pools(g, p, pool_threads, TRUE);
	p->estimate = t_dev;
	bottom_levels(g, &cpl, &work);
	cg_timing("order");
	p->critical_path = cpl;
	p->work = work;
	if (g->edges->len > 20000)
		why(p, "edge order: longest remaining chain first (critical path %.0f s of %.0f CPU s; %u of %u edges measured)",
		    cpl, work, p->measured, p->edges);
	else
		why(p, "edge order: %s (critical path %.0f s of %.0f CPU s; %u of %u edges measured; simulated with %s %s: %.0f s)",
		    how, cpl, work, p->measured, p->edges, *p->ninja_version ? "ninja" : "ninja 1.11's scheduling,",
		    *p->ninja_version ? p->ninja_version : "no ninja on PATH", p->estimate);
	write_trace(g, p, c, info, pool_threads);
	return g;
}

static gint by_cost(gconstpointer a, gconstpointer b)
{
	const ArchCost *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return strcmp(x->arch, y->arch);
}

GArray *plan_arch_costs(Graph *g)
{
	GArray *costs = g_array_new(FALSE, FALSE, sizeof(ArchCost));
	GHashTable *at = g_hash_table_new(g_str_hash, g_str_equal); /* arch -> index + 1 */
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if ((e->kind != EK_DEV && e->kind != EK_DEVPP && e->kind != EK_CICC) || !e->arch)
			continue;
		guint k = GPOINTER_TO_UINT(g_hash_table_lookup(at, e->arch));
		if (!k) {
			ArchCost c = { g_strdup(e->arch), 0 };
			g_array_append_val(costs, c);
			k = costs->len;
			g_hash_table_insert(at, (gpointer)e->arch, GUINT_TO_POINTER(k));
		}
		g_array_index(costs, ArchCost, k - 1).cost += e->cost;
	}
	g_hash_table_destroy(at);
	g_array_sort(costs, by_cost);
	return costs;
}

void plan_arch_costs_free(GArray *costs)
{
	for (guint k = 0; k < costs->len; k++)
		g_free(g_array_index(costs, ArchCost, k).arch);
	g_array_free(costs, TRUE);
}

void plan_balance(GArray *costs, int n, char **archs, double *load)
{
	GString **s = g_new0(GString *, n);
	for (int i = 0; i < n; i++) {
		s[i] = g_string_new(NULL);
		load[i] = 0;
	}
	for (guint k = 0; k < costs->len; k++) {
		int best = 0;
		for (int i = 1; i < n; i++)
			if (load[i] < load[best])
				best = i;
		const ArchCost *c = &g_array_index(costs, ArchCost, k);
		load[best] += c->cost;
		const char *id = strchr(c->arch, '_');
		g_string_append_printf(s[best], "%s%s", s[best]->len ? " " : "", id ? id + 1 : c->arch);
	}
	for (int i = 0; i < n; i++)
		archs[i] = g_string_free(s[i], FALSE);
	g_free(s);
}

/* Each output's latest duration in builddir/.ninja_log, in seconds. */
static GHashTable *logged_durations(const char *builddir)
{
	GHashTable *d = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	char *path = g_build_filename(builddir, gate_on(builddir) ? GATE_LOG : ".ninja_log", NULL);
	gsize len = 0;
	char *data = NULL;
	if (g_file_get_contents(path, &data, &len, NULL)) {
		NinjaLog *log = ninjalog_parse(data, len, path, NULL);
		for (guint i = 0; log && i < log->all->len; i++) {
			const NinjaLogEntry *en = g_ptr_array_index(log->all, i);
			double *v = g_new(double, 1);
			*v = MAX(en->end_ms - en->start_ms, 0) / 1000.0;
			g_hash_table_replace(d, g_strdup(en->output), v);
		}
		ninjalog_free(log);
		g_free(data);
	}
	g_free(path);
	return d;
}

static const double *edge_logged(GHashTable *d, const Edge *e)
{
	PathList *lists[] = { e->outs, e->implicit_outs };
	for (int l = 0; l < 2; l++)
		for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
			const double *v = g_hash_table_lookup(d, EDGE_AT(lists[l], k));
			if (v)
				return v;
		}
	return NULL;
}

/* The longest shard of n: the front ends (every shard runs them) and its
 * archs' device compiles over the cores, or its longest chain. */
static double shard_wall(GArray *costs, int n, double fe_work, double chain, int cores)
{
	char **archs = g_new0(char *, n);
	double *load = g_new0(double, n);
	plan_balance(costs, n, archs, load);
	double worst = 0;
	for (int i = 0; i < n; i++) {
		worst = MAX(worst, MAX((fe_work + load[i]) / cores, chain));
		g_free(archs[i]);
	}
	g_free(archs);
	g_free(load);
	return worst;
}

void plan_time_check(Graph *g, const Plan *p, const char *builddir, double limit, TimeCheck *tc)
{
	memset(tc, 0, sizeof *tc);
	tc->limit = limit;
	tc->cores = MAX(p->cores, 1);
	GHashTable *d = logged_durations(builddir);
	double *saved = g_new(double, g->edges->len);
	double fe_work = 0, fe_max = 0, dev_max = 0, cicc_max = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		saved[i] = e->cost;
		if (e->kind == EK_PHONY || e->kind == EK_REGEN)
			continue;
		tc->edges++;
		const double *v = edge_logged(d, e);
		if (v) {
			e->cost = *v;
			tc->timed++;
		}
		if (e->kind == EK_FE) {
			fe_work += e->cost;
			fe_max = MAX(fe_max, e->cost);
		} else if (e->kind == EK_DEV) {
			dev_max = MAX(dev_max, e->cost);
		} else if (e->kind == EK_CICC) { /* a ptxas edge's cicc edge */
			cicc_max = MAX(cicc_max, e->cost);
		}
	}
	dev_max += cicc_max;
	double cpl = 0, work = 0;
	bottom_levels(g, &cpl, &work);
	tc->estimate = MAX(work / tc->cores, cpl);
	GArray *costs = plan_arch_costs(g);
	tc->archs = (int)costs->len;
	if (tc->estimate > limit && costs->len) {
		/* the combine job: everything but the device compiles (and
		 * their preprocess and cicc edges) */
		for (guint i = 0; i < g->edges->len; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			if (e->kind == EK_DEV || e->kind == EK_DEVPP || e->kind == EK_CICC)
				e->cost = 0;
		}
		double ccpl = 0, cwork = 0;
		bottom_levels(g, &ccpl, &cwork);
		tc->combine_estimate = MAX(cwork / tc->cores, ccpl);
		tc->shards = -1;
		for (int n = 1; n <= (int)costs->len; n++) {
			double w = shard_wall(costs, n, fe_work, fe_max + dev_max, tc->cores);
			tc->shard_estimate = w;
			if (w <= 0.9 * limit) {
				tc->shards = n;
				break;
			}
		}
		if (tc->combine_estimate > 0.9 * limit)
			tc->shards = -1;
	}
	plan_arch_costs_free(costs);
	for (guint i = 0; i < g->edges->len; i++)
		((Edge *)g_ptr_array_index(g->edges, i))->cost = saved[i];
	bottom_levels(g, &cpl, &work);
	g_free(saved);
	g_hash_table_destroy(d);
}

char *plan_time_warning(const TimeCheck *tc, const char *profile, const char *runner)
{
	if (!tc->limit || tc->estimate <= tc->limit)
		return NULL;
	char *est = runner_format_duration(tc->estimate), *lim = runner_format_duration(tc->limit);
	char *whose = runner ? g_strdup_printf("runner %s, profile %s", runner, profile)
			     : g_strdup_printf("profile %s", profile);
	GString *w = g_string_new(NULL);
	g_string_append_printf(w, "the build would take about %s on %d cores (%u of %u edges timed by the last build's "
			       ".ninja_log), over the %s job time limit (%s); ",
			       est, tc->cores, tc->timed, tc->edges, lim, whose);
	if (tc->shards > 0) {
		char *sh = runner_format_duration(tc->shard_estimate), *co = runner_format_duration(tc->combine_estimate);
		g_string_append_printf(w, "split it into %d shard%s by arch (cugen ci --shards %d; the longest shard job about %s, "
				       "the combine job about %s)", tc->shards, tc->shards == 1 ? "" : "s", tc->shards, sh, co);
		g_free(sh);
		g_free(co);
	} else if (tc->combine_estimate > 0.9 * tc->limit) {
		char *co = runner_format_duration(tc->combine_estimate);
		g_string_append_printf(w, "sharding by arch cannot fit: the combine job alone takes about %s; use a larger runner", co);
		g_free(co);
	} else {
		char *sh = runner_format_duration(tc->shard_estimate);
		g_string_append_printf(w, "even one arch per shard (%d shards) takes about %s; use a larger runner",
				       tc->archs, sh);
		g_free(sh);
	}
	g_free(est);
	g_free(lim);
	g_free(whose);
	return g_string_free(w, FALSE);
}
