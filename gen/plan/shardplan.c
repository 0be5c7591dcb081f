/* shardplan.c -- planning for CI: each arch's device work, the archs
 * balanced over N shards, and whether a build fits a CI job's time
 * limit (from .ninja_log's durations); see plan.h. */
#include "plan_int.h"

#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "ninjalog.h"
#include "units.h"
#include "util.h"

static gint by_cost(gconstpointer a, gconstpointer b)
{
	const ArchCost *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return strcmp(x->arch, y->arch);
}

static GArray *arch_costs(const PlanGraph *pg)
{
	const Graph *g = pg->g;
	GArray *costs = g_array_new(FALSE, FALSE, sizeof(ArchCost));
	GHashTable *at = g_hash_table_new(g_str_hash, g_str_equal); /* arch -> index + 1 */
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if ((e->kind != EK_DEV && e->kind != EK_DEVPP && e->kind != EK_CICC) || !e->arch)
			continue;
		guint k = GPOINTER_TO_UINT(g_hash_table_lookup(at, e->arch));
		if (!k) {
			ArchCost c = { g_strdup(e->arch), 0, 0, 0 };
			g_array_append_val(costs, c);
			k = costs->len;
			g_hash_table_insert(at, (gpointer)e->arch, GUINT_TO_POINTER(k));
		}
		ArchCost *c = &g_array_index(costs, ArchCost, k - 1);
		c->cost += pg_node(pg, e)->cost;
		c->edges++;
		c->measured += pg_node(pg, e)->from == EST_MEASURED;
	}
	g_hash_table_destroy(at);
	g_array_sort(costs, by_cost);
	return costs;
}

GArray *plan_arch_costs(const Plan *p)
{
	return arch_costs(p->costed);
}

void plan_arch_costs_free(GArray *costs)
{
	for (guint k = 0; k < costs->len; k++)
		g_free(g_array_index(costs, ArchCost, k).arch);
	g_array_free(costs, TRUE);
}

/* An arch's id as --archs names it: "sm_80" -> "80". */
static const char *cost_id(const ArchCost *c)
{
	const char *id = strchr(c->arch, '_');
	return id ? id + 1 : c->arch;
}

char *plan_costs_source(const GArray *costs, const char *archs)
{
	char **ids = archs ? g_strsplit(archs, " ", -1) : NULL;
	guint edges = 0, measured = 0;
	for (guint k = 0; k < costs->len; k++) {
		const ArchCost *c = &g_array_index(costs, ArchCost, k);
		if (ids && !g_strv_contains((const char *const *)ids, cost_id(c)))
			continue;
		edges += c->edges;
		measured += c->measured;
	}
	g_strfreev(ids);
	if (edges && measured == edges)
		return g_strdup("measured in the last build");
	if (!measured)
		return g_strdup("guessed from each TU's text: nothing measured yet");
	return g_strdup_printf("%u of %u device compiles measured in the last build, the rest guessed", measured, edges);
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
		g_string_append_printf(s[best], "%s%s", s[best]->len ? " " : "", cost_id(c));
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

void plan_time_check(const Plan *p, const char *builddir, double limit, int want, TimeCheck *tc)
{
	memset(tc, 0, sizeof *tc);
	tc->limit = limit;
	tc->cores = MAX(p->cores, 1);
	GHashTable *d = logged_durations(builddir);
	/* the plan's graph with the logged durations for costs: a copy */
	PlanGraph *pg = pg_copy(p->costed);
	const Graph *g = pg->g;
	double fe_work = 0, fe_max = 0, dev_max = 0, cicc_max = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		PlanNode *x = pg_node(pg, e);
		if (e->kind == EK_PHONY || e->kind == EK_REGEN)
			continue;
		tc->edges++;
		const double *v = edge_logged(d, e);
		if (v) {
			x->cost = *v;
			tc->timed++;
		}
		if (e->kind == EK_FE) {
			fe_work += x->cost;
			fe_max = MAX(fe_max, x->cost);
		} else if (e->kind == EK_DEV) {
			dev_max = MAX(dev_max, x->cost);
		} else if (e->kind == EK_CICC) { /* a ptxas edge's cicc edge */
			cicc_max = MAX(cicc_max, x->cost);
		}
	}
	dev_max += cicc_max;
	double cpl = 0, work = 0;
	pl_bottom_levels(pg, &cpl, &work);
	tc->estimate = MAX(work / tc->cores, cpl);
	GArray *costs = arch_costs(pg);
	tc->archs = (int)costs->len;
	const gboolean over = tc->estimate > limit && costs->len;
	tc->want = want > 0 && costs->len ? MIN(want, (int)costs->len) : 0;
	if (tc->want)
		tc->want_shard_estimate = shard_wall(costs, tc->want, fe_work, fe_max + dev_max, tc->cores);
	if (over || tc->want) {
		/* the combine job: everything but the device compiles (and
		 * their preprocess and cicc edges) */
		for (guint i = 0; i < g->edges->len; i++) {
			Edge *e = g_ptr_array_index(g->edges, i);
			if (e->kind == EK_DEV || e->kind == EK_DEVPP || e->kind == EK_CICC)
				pg_node(pg, e)->cost = 0;
		}
		double ccpl = 0, cwork = 0;
		pl_bottom_levels(pg, &ccpl, &cwork);
		tc->combine_estimate = MAX(cwork / tc->cores, ccpl);
	}
	if (over) {
		tc->shards = -1;
		for (int n = 1; n <= (int)costs->len; n++) {
			double w = shard_wall(costs, n, fe_work, fe_max + dev_max, tc->cores);
			tc->shard_estimate = w;
			if (w <= TIME_LIMIT_SHARE * limit) {
				tc->shards = n;
				break;
			}
		}
		if (tc->combine_estimate > TIME_LIMIT_SHARE * limit)
			tc->shards = -1;
	}
	plan_arch_costs_free(costs);
	pg_free(pg);
	g_hash_table_destroy(d);
}

char *plan_time_warning(const TimeCheck *tc, const char *profile, const char *runner)
{
	if (!tc->limit || tc->estimate <= tc->limit)
		return NULL;
	char *est = units_format_duration(tc->estimate), *lim = units_format_duration(tc->limit);
	char *whose = runner ? g_strdup_printf("runner %s, profile %s", runner, profile)
			     : g_strdup_printf("profile %s", profile);
	GString *w = g_string_new(NULL);
	g_string_append_printf(w, "the build would take about %s on %d cores (%u of %u edges timed by the last build's "
			       ".ninja_log), over the %s job time limit (%s); ",
			       est, tc->cores, tc->timed, tc->edges, lim, whose);
	if (tc->shards > 0) {
		char *sh = units_format_duration(tc->shard_estimate), *co = units_format_duration(tc->combine_estimate);
		g_string_append_printf(w, "split it into %d shard%s by arch (cugen ci --shards %d; the longest shard job about %s, "
				       "the combine job about %s)", tc->shards, tc->shards == 1 ? "" : "s", tc->shards, sh, co);
		g_free(sh);
		g_free(co);
	} else if (tc->combine_estimate > TIME_LIMIT_SHARE * tc->limit) {
		char *co = units_format_duration(tc->combine_estimate);
		g_string_append_printf(w, "sharding by arch cannot fit: the combine job alone takes about %s; use a larger runner", co);
		g_free(co);
	} else {
		char *sh = units_format_duration(tc->shard_estimate);
		g_string_append_printf(w, "even one arch per shard (%d shards) takes about %s; use a larger runner",
				       tc->archs, sh);
		g_free(sh);
	}
	g_free(est);
	g_free(lim);
	g_free(whose);
	return g_string_free(w, FALSE);
}

