/* plan.c -- costs, critical path, pools and edge order; see plan.h. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "ninjalog.h"
#include "runner.h"
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
	if (p->why)
		g_ptr_array_free(p->why, TRUE);
	memset(p, 0, sizeof *p);
}

/* Defaults before anything was measured: seconds and bytes per edge,
 * from the lab's 4-TU CUB workload (research/nvcc-pipeline.md §8). */
static void default_cost(const Edge *e, int archs, int threads, double *cpu, double *rss)
{
	switch (e->kind) {
	case EK_DEV: *cpu = 10; *rss = 1.0 * GiB; break;
	case EK_NVCC: *cpu = 10.0 * MAX(archs, 1) + 6; *rss = 1.0 * GiB * MAX(threads, 1); break;
	case EK_FE: *cpu = 3; *rss = 0.6 * GiB; break;
	case EK_HOST: *cpu = 12; *rss = 0.5 * GiB; break; /* a bit over one arch of device code */
	case EK_STUB: *cpu = e->rule && e->rule->restat ? 0.01 : 5; *rss = e->rule && e->rule->restat ? 0.01 * GiB : 1.0 * GiB; break;
	case EK_CC: case EK_CXX: *cpu = 1; *rss = 0.3 * GiB; break;
	case EK_NVLINK: case EK_DLHOST: *cpu = 1; *rss = 0.3 * GiB; break;
	case EK_LINK: *cpu = 1; *rss = 0.5 * GiB; break;
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

/* Each edge's expected cost and memory: its own measurement, else the
 * median of its kind's measurements (an added arch, a new TU), else the
 * default. job_memory (profile) fixes device edges' memory. */
static void set_costs(Graph *g, const History *h, const Config *c, const GraphInfo *info,
		      int threads, Plan *p)
{
	GArray *kcpu[EK_COUNT], *krss[EK_COUNT];
	for (int k = 0; k < EK_COUNT; k++) {
		kcpu[k] = g_array_new(FALSE, FALSE, sizeof(double));
		krss[k] = g_array_new(FALSE, FALSE, sizeof(double));
	}
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		const EdgeStat *st = EDGE_LEN(e->outs) ? history_get(h, EDGE_AT(e->outs, 0)) : NULL;
		if (st) {
			g_array_append_val(kcpu[e->kind], st->cpu);
			g_array_append_val(krss[e->kind], st->rss);
		}
	}
	double med_cpu[EK_COUNT], med_rss[EK_COUNT];
	for (int k = 0; k < EK_COUNT; k++) {
		med_cpu[k] = kcpu[k]->len ? median(kcpu[k]) : -1;
		med_rss[k] = krss[k]->len ? median(krss[k]) : -1;
		g_array_free(kcpu[k], TRUE);
		g_array_free(krss[k], TRUE);
	}
	double job_memory = 0;
	if (g_strcmp0(c->profile->job_memory, "auto") != 0)
		job_memory = (double)plan_parse_size(c->profile->job_memory);
	p->measured = p->edges = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		double cpu, rss;
		default_cost(e, info->device_archs, threads, &cpu, &rss);
		const EdgeStat *st = EDGE_LEN(e->outs) ? history_get(h, EDGE_AT(e->outs, 0)) : NULL;
		if (st) {
			cpu = st->cpu;
			/* cugen exec sees one process: nvcc --threads runs several */
			rss = e->kind == EK_NVCC ? st->rss * MAX(threads, 1) : st->rss;
			p->measured++;
		} else if (med_cpu[e->kind] >= 0) {
			cpu = med_cpu[e->kind];
			rss = med_rss[e->kind];
		}
		if (job_memory > 0 && (e->kind == EK_DEV || e->kind == EK_NVCC ||
				       (e->kind == EK_STUB && !e->rule->restat)))
			rss = job_memory;
		e->cost = cpu;
		e->memory = rss;
		if (e->kind != EK_PHONY && e->kind != EK_REGEN)
			p->edges++;
	}
}

/* Bottom levels (e->level): an edge's cost plus the longest chain after
 * it, by a reverse topological walk over successors. The successor lists
 * and the walk's order depend only on the graph's shape: they are made on
 * the first call and kept (g->topo) while the graph has the same edges. */
static void bottom_levels(Graph *g, double *cpl, double *work)
{
	if (!g->topo || g->topo->len != g->edges->len) {
		/* one pass over the inputs: each edge's producers, flat (pred,
		 * from pstart[i]), and each producer's users (succ) */
		guint n = g->edges->len;
		guint *pstart = g_new(guint, n + 1);
		GPtrArray *pred = g_ptr_array_sized_new(n * 2);
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			if (e->succ)
				g_ptr_array_set_size(e->succ, 0);
			e->index = i;
		}
		/* g->outputs maps interned paths to producers (graph_check_outputs) */
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			pstart[i] = pred->len;
			GPtrArray *lists[] = { e->ins, e->implicit_ins, e->order_ins };
			for (int l = 0; l < 3; l++)
				for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
					Edge *pe = g_hash_table_lookup(g->outputs, g_ptr_array_index(lists[l], k));
					if (!pe || pe == e)
						continue;
					if (!pe->succ)
						pe->succ = g_ptr_array_sized_new(2);
					g_ptr_array_add(pe->succ, e);
					g_ptr_array_add(pred, pe);
				}
		}
		pstart[n] = pred->len;
		if (g->topo)
			g_ptr_array_set_size(g->topo, 0);
		else
			g->topo = g_ptr_array_sized_new(n);
		for (guint i = 0; i < n; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			e->pending = (int)EDGE_LEN(e->succ);
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
		for (guint k = 0; k < EDGE_LEN(e->succ); k++) {
			Edge *sx = g_ptr_array_index(e->succ, k);
			if (sx->level > best)
				best = sx->level;
		}
		e->level = e->cost + best;
		*cpl = MAX(*cpl, e->level);
		*work += e->cost;
	}
}

typedef struct {
	Edge *e;
	double level;
	guint index;
} Ranked;

static gint cmp_ranked(gconstpointer a, gconstpointer b)
{
	const Ranked *x = a, *y = b;
	/* build-edges before phony and regen; longest chain first; stable */
	gboolean px = x->e->kind == EK_PHONY || x->e->kind == EK_REGEN;
	gboolean py = y->e->kind == EK_PHONY || y->e->kind == EK_REGEN;
	if (px != py)
		return px - py;
	if (x->level != y->level)
		return x->level > y->level ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* ninja 1.11 starts ready edges in manifest order: put the edges that head
 * the longest remaining chains first. */
static void order_edges(Graph *g)
{
	GArray *r = g_array_sized_new(FALSE, FALSE, sizeof(Ranked), g->edges->len);
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		Ranked x = { e, e->level, i };
		g_array_append_val(r, x);
	}
	g_array_sort(r, cmp_ranked);
	for (guint i = 0; i < r->len; i++)
		g->edges->pdata[i] = g_array_index(r, Ranked, i).e;
	g_array_free(r, TRUE);
}

/* Wall time estimate: the work spread over the cores, or the critical
 * path, whichever is longer. */
static double estimate(Graph *g, int cores, double *cpl, double *work)
{
	bottom_levels(g, cpl, work);
	return MAX(*work / MAX(cores, 1), *cpl);
}

static int pool_of(const Edge *e)
{
	if (!e->rule || !e->rule->pool)
		return -1;
	if (strcmp(e->rule->pool, "device") == 0) return 0;
	if (strcmp(e->rule->pool, "host") == 0) return 1;
	if (strcmp(e->rule->pool, "link") == 0) return 2;
	return -1;
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
static void size_pools(Graph *g, Plan *p, int dev_threads)
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
	double used = 0;
	for (int k = 0; k < 3; k++)
		if (count[k])
			used += mem[k];
	const double limit = (double)p->memory;
	char b1[32], b2[32];
	if (used > limit)
		why(p, "one job of each kind needs about %s, over the %s limit: running one at a time and hoping",
		    size_str(used, b1), size_str(limit, b2));
	for (;;) {
		int best = -1;
		double best_share = -1;
		for (int k = 0; k < 3; k++) {
			if (!count[k] || depth[k] >= cap[k] || used + mem[k] > limit)
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
	p->device = depth[0];
	p->host = depth[1];
	p->link = depth[2];
	p->mem_device = mem[0];
	p->mem_host = mem[1];
	p->mem_link = mem[2];
	const char *names[3] = { "device", "host", "link" };
	const char *what[3] = { "per-arch device compiles", "front ends, host compiles", "device and host links" };
	for (int k = 0; k < 3; k++) {
		const char *bound = depth[k] >= cap[k] ? (k == 0 && dev_threads > 1 ? "cores / threads" : k == 2 && cap[2] == (int)count[2] ? "link edges" : "cores")
				  : "memory";
		char *line = g_strdup_printf("%s (%s): %u edges, %d jobs (bound: %s), about %s each",
					     what[k], names[k], count[k], depth[k], count[k] ? bound : "none", size_str(mem[k], b1));
		graph_pool(g, names[k], depth[k], line);
		g_free(line);
	}
	p->recommended_j = MAX(1, p->cores / MAX(dev_threads, 1));
	why(p, "memory: %d device x %s + %d host x %s + %d link x %s = %s of %s (%s)",
	    depth[0], size_str(mem[0], b1), depth[1], size_str(mem[1], b2), depth[2],
	    size_str(mem[2], (char[32]){ 0 }), size_str(depth[0] * mem[0] + depth[1] * mem[1] + depth[2] * mem[2], (char[32]){ 0 }),
	    size_str(limit, (char[32]){ 0 }), p->memory_from);
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
	p->mem_from = h && h->lines ? "measured in the last build" : "defaults (nothing measured yet)";
	if (g_strcmp0(pr->job_memory, "auto") != 0)
		p->mem_from = "profile job_memory";

	EdgeOptions ch = { 0 };
	if (g_strcmp0(pr->threads, "auto") != 0)
		ch.threads = atoi(pr->threads);
	if (g_strcmp0(pr->split_compile, "auto") != 0)
		ch.split_compile = atoi(pr->split_compile);
	Graph *g = build(data, &ch, info, err);
	if (!g)
		return NULL;
	cg_timing("graph");
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
		int t = MAX(ch.threads, 1);
		if (g_strcmp0(pr->split_compile, "auto") == 0) {
			int idle = p->cores - MIN(ntu, p->cores / t) * t;
			if (t >= archs && ntu * t < p->cores && idle >= 2) {
				ch.split_compile = MIN(4, p->cores / MAX(ntu * t, 1));
				if (ch.split_compile < 2)
					ch.split_compile = 0;
			}
			if (ch.split_compile)
				why(p, "nvcc --split-compile %d: %d cores would stay idle; note: it changes the generated code",
				    ch.split_compile, idle);
		}
		if (ch.threads || ch.split_compile) {
			graph_free(g);
			graph_info_clear(info);
			g = build(data, &ch, info, err);
			if (!g)
				return NULL;
		}
	} else if (ch.split_compile > 1) {
		why(p, "--split-compile %d (profile split_compile); note: it changes the generated code", ch.split_compile);
	}

	set_costs(g, h, c, info, ch.threads, p);
	cg_timing("set_costs");
	double cpl = 0, work = 0;
	double t_dev = estimate(g, p->cores, &cpl, &work);
	cg_timing("costs");
	if (ntu && !info->split_tu_targets && ntu * (archs + 1) < 4 * p->cores) {
		/* Few TUs for the cores: the host compile waiting for a whole
		 * device compile may set the critical path. Try the stub from
		 * a syntax-only edge (more CPU, shorter chain). */
		EdgeOptions alt = ch;
		alt.syntax_stub = TRUE;
		GraphInfo ai = { 0 };
		Graph *g2 = build(data, &alt, &ai, err);
		if (!g2)
			return NULL;
		set_costs(g2, h, c, &ai, alt.threads, p);
		double cpl2 = 0, work2 = 0;
		double t_syn = estimate(g2, p->cores, &cpl2, &work2);
		if (t_syn < 0.97 * t_dev) {
			why(p, "host stub from a syntax-only edge: expected %.0f s instead of %.0f s (+%.0f CPU s, critical path %.0f s -> %.0f s)",
			    t_syn, t_dev, work2 - work, cpl, cpl2);
			graph_free(g);
			graph_info_clear(info);
			*info = ai;
			g = g2;
			ch = alt;
			cpl = cpl2;
			work = work2;
		} else {
			why(p, "host stub from the first arch's device edge: expected %.0f s (a syntax-only stub edge: %.0f s)", t_dev, t_syn);
			graph_free(g2);
			graph_info_clear(&ai);
		}
	}
	p->threads = ch.threads;
	p->split_compile = ch.split_compile;
	p->syntax_stub = ch.syntax_stub;
	bottom_levels(g, &cpl, &work);
	order_edges(g);
	cg_timing("order");
	p->critical_path = cpl;
	p->work = work;
	p->estimate = MAX(work / MAX(p->cores, 1), cpl);
	size_pools(g, p, MAX(MAX(ch.threads, ch.split_compile), 1));
	why(p, "edge order: longest remaining chain first (critical path %.0f s of %.0f CPU s; %u of %u edges measured)",
	    cpl, work, p->measured, p->edges);
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
		if (e->kind != EK_DEV || !e->arch)
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
	GPtrArray *lists[] = { e->outs, e->implicit_outs };
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
	double fe_work = 0, fe_max = 0, dev_max = 0;
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
		}
	}
	double cpl = 0, work = 0;
	bottom_levels(g, &cpl, &work);
	tc->estimate = MAX(work / tc->cores, cpl);
	GArray *costs = plan_arch_costs(g);
	tc->archs = (int)costs->len;
	if (tc->estimate > limit && costs->len) {
		/* the combine job: everything but the device compiles */
		for (guint i = 0; i < g->edges->len; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			if (e->kind == EK_DEV)
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
