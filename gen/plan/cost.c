/* cost.c -- what each edge is expected to cost: CPU seconds and peak
 * memory (its PlanNode's cost and memory), from the last build's
 * measurements where the edge (or the same step under another grouping)
 * was measured, else its TU's scan (guess.c) or the defaults below; see
 * plan_int.h. */
#include "plan_int.h"

#include <string.h>

#include "util.h"

/* A device edge that runs ptxas alone (the planner's ptxas edges): it
 * reads the PTX its cicc edge (EK_CICC) wrote. */
gboolean pl_ptxas_only(const Edge *e)
{
	return e->kind == EK_DEV && e->tools == TOOL_PTXAS;
}

/* The default costs' rows and table (planknobs.h's DEFAULT_COSTS). */
#define ROW(row, cpu, gib, from) row,
enum { DEFAULT_COSTS(ROW) C_COUNT };
#undef ROW
static const struct {
	double cpu, gib;
	const char *from;
} defaults[C_COUNT] = {
#define ROW(row, cpu, gib, from) [row] = { cpu, gib, from },
	DEFAULT_COSTS(ROW)
#undef ROW
};

static int default_row(const Edge *e)
{
	gboolean sm75 = e->arch && strcmp(e->arch, "sm_75") == 0;
	switch (e->kind) {
	case EK_DEV: return pl_ptxas_only(e) ? (sm75 ? C_PTXAS_SM75 : C_PTXAS) : sm75 ? C_DEV_SM75 : C_DEV;
	case EK_CICC: return C_CICC;
	case EK_DEVPP: return C_DEVPP;
	case EK_FE: return C_FE;
	case EK_HOST: return C_HOST;
	case EK_STUB: return e->rule && e->rule->copy ? C_STUB_COPY : C_STUB_SYNTAX;
	case EK_CC: case EK_CXX: return C_CC;
	case EK_NVLINK: case EK_DLHOST: return C_DLINK;
	case EK_LINK: return C_LINK;
	case EK_RANK: case EK_SYMLINK: return C_RANK;
	case EK_PHONY: case EK_REGEN: return C_NONE;
	default: return C_OTHER;
	}
}

/* A guess the machine's speed scales: a compiler's or a linker's work,
 * not the milliseconds of a copy, a stamp or a manifest (edges no build
 * measures, so that a measured build's plan never depends on it). */
static gboolean speed_scales(const Edge *e)
{
	const int k = e->kind == EK_NVCC ? C_NVCC_TU : default_row(e);
	return k != C_OTHER && k != C_RANK && k != C_NONE;
}

static void default_cost(const Edge *e, int archs, int threads, double *cpu, double *rss)
{
	if (e->kind == EK_NVCC) {
		*cpu = defaults[C_NVCC_ARCH].cpu * MAX(archs, 1) + defaults[C_NVCC_TU].cpu;
		*rss = defaults[C_NVCC_ARCH].gib * GiB * MAX(threads, 1);
		return;
	}
	int k = default_row(e);
	*cpu = defaults[k].cpu;
	*rss = defaults[k].gib * GiB;
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
	return e->kind == EK_STUB && (e->tools & TOOL_CICC) ? EK_COUNT : pl_ptxas_only(e) ? EK_COUNT + 1 : (int)e->kind;
}

/* Whether an edge's cost is counted without its device preprocess, which
 * a pp edge runs when there are pp edges: every edge that runs cicc (a
 * device compile, its cicc edge with ptxas edges, a syntax-only stub,
 * which reads the stub arch's pp output then). */
static gboolean without_pre(const Edge *e)
{
	return (e->tools & TOOL_CICC) != 0;
}

/* The last build's measurement of the edge that made path (interned: an
 * edge's first output, or a name of a step of its device compile,
 * DevUnit), or NULL. */
static const EdgeStat *measured_at(const History *h, const char *path)
{
	return h && path ? history_get_hashed(h, path, graph_str(path)->len, graph_str(path)->hash) : NULL;
}

/* A device edge's preprocess, measured: in its own log lines, or in its
 * pp edge's (D/ID.ii) when the last build had pp edges; else -1. */
static double measured_pre(const History *h, const Edge *e, const EdgeStat *st)
{
	if (st && st->cpu_pre > 0)
		return st->cpu_pre;
	const EdgeStat *ps = e->unit ? measured_at(h, e->unit->ii) : NULL;
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
 * the cubin, DevUnit) or, with ptxas edges, apart (cicc's under the PTX,
 * ptxas's under the cubin): either build's lines stand in for the
 * other's, each edge's own first. */
static double own_measured(const History *h, const Edge *e, const EdgeStat *st, const EdgeStat **from)
{
	*from = st;
	const gboolean cubin = e->kind == EK_DEV && (e->tools & TOOL_PTXAS); /* it makes the cubin */
	if ((!cubin && e->kind != EK_CICC) || !e->unit)
		return st ? (without_pre(e) ? st->cpu - st->cpu_pre : st->cpu) : -1;
	const EdgeStat *cub = cubin ? st : measured_at(h, e->unit->cubin);
	const EdgeStat *ptx = cubin ? measured_at(h, e->unit->ptx) : st;
	if (pl_ptxas_only(e))
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
void pl_set_costs(PlanGraph *pg, const History *h, const Config *c, const GraphInfo *info,
		      int threads, gboolean pp, Plan *p)
{
	const Graph *g = pg->g;
	const Speed *kept = h ? &h->speed : NULL; /* (h is dropped below when nothing was measured) */
	p->speed.used = FALSE; /* (of the graph costed last: the one built) */
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
		const EdgeStat *st = measured_at(h, out);
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
	const gboolean pre_measured = pres->len > 0;
	double med_pre = pres->len ? median(pres) : PP_COST;
	g_array_free(pres, TRUE);
	const double job_memory = (double)c->profile->job_memory;
	p->measured = p->edges = p->dev_measured = p->scanned = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		double cpu, rss, pre_guess = -1;
		/* nothing measured of its kind: its TU's scan, else the table */
		const gboolean guessed = !stats[i] && med_cpu[bucket(e)] < 0 &&
					 pl_guess(p, c, e, info->device_archs, threads, &cpu, &rss, &pre_guess);
		if (!guessed) {
			default_cost(e, info->device_archs, threads, &cpu, &rss);
			if (without_pre(e))
				cpu -= PP_COST; /* the default without its preprocess */
		}
		if (!pre_measured && pre_guess >= 0)
			med_pre = pre_guess; /* this TU's preprocess, not the table's */
		else if (!pre_measured)
			med_pre = PP_COST;
		const EdgeStat *st = stats[i];
		if (st) {
			cpu = owns[i];
			/* cugen exec sees one process: nvcc --threads runs several */
			rss = e->kind == EK_NVCC ? st->rss * MAX(threads, 1) : st->rss;
			p->measured++;
			p->dev_measured += e->kind == EK_DEV;
		} else if (med_cpu[bucket(e)] >= 0) {
			cpu = med_cpu[bucket(e)];
			rss = med_rss[bucket(e)];
		} else if (e->kind == EK_DEVPP && !guessed) {
			cpu = med_pre;
		}
		if (without_pre(e) && !pp) {
			double pre = e->kind != EK_STUB ? measured_pre(h, e, st) : st && st->cpu_pre > 0 ? st->cpu_pre : -1;
			cpu += pre >= 0 ? pre : med_pre;
		}
		/* a guess is the reference machine's seconds: this machine's
		 * are so many times those (speed.h); a measurement, or the
		 * median of measured ones, is this machine's already */
		if (!st && med_cpu[bucket(e)] < 0 && cpu > 0 && speed_scales(e) && !(e->kind == EK_DEVPP && pre_measured)) {
			speed_settle(&p->speed, kept);
			cpu *= p->speed.speed;
		}
		if (job_memory > 0 && (e->kind == EK_DEV || e->kind == EK_CICC || e->kind == EK_NVCC ||
				       (e->kind == EK_STUB && !e->rule->copy)))
			rss = job_memory;
		PlanNode *x = pg_node(pg, e);
		x->cost = cpu;
		x->memory = rss;
		x->from = st ? EST_MEASURED : med_cpu[bucket(e)] >= 0 ? EST_KIND : guessed ? EST_SCAN : EST_DEFAULT;
		if (e->kind != EK_PHONY && e->kind != EK_REGEN)
			p->edges++;
	}
	g_free(owns);
	g_free(stats);
}

gboolean plan_edge_estimate(const Plan *p, const Edge *e, EdgeEstimate *est)
{
	memset(est, 0, sizeof *est);
	const PlanGraph *pg = p->costed;
	if (!pg || e->graph != pg->g || e->serial >= pg->n)
		return FALSE;
	const PlanNode *x = pg_node(pg, e);
	est->cost = x->cost;
	est->memory = x->memory;
	est->split = x->split;
	est->from = x->from;
	return x->from != EST_NONE;
}

const char *plan_estimate_from(EstimateFrom f)
{
	switch (f) {
	case EST_MEASURED: return "measured";
	case EST_KIND: return "median of its kind";
	case EST_SCAN: return "guessed from its TU's text";
	case EST_DEFAULT: return "default";
	default: return "none";
	}
}
