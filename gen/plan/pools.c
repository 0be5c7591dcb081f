/* pools.c -- the ninja pools of a planned graph and their depths
 * (device, host and link, or device and host sharing "compile"), from
 * the cores, the memory and the edges' expected peak memory; see
 * plan_int.h. */
#include "plan_int.h"

#include <string.h>

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
 * limit. When memory allows a job of the larger kind on every core,
 * device and host compiles share one pool ("compile", depth = cores), so
 * that ninja's default -j (cores + 2) never runs more compiles than
 * cores. Otherwise each kind gets its own pool, deepened in turn (the
 * kind with the most work per slot first) while the memory lasts and
 * device plus host jobs stay within the cores. With announce, the pools
 * go into the graph and the reasons into the plan. */
void pl_size_pools(PlanGraph *pg, Plan *p, int dev_threads, gboolean announce)
{
	Graph *g = pg->g;
	double mem[3] = { 0, 0, 0 }, work[3] = { 0, 0, 0 };
	guint count[3] = { 0, 0, 0 };
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		int k = pl_pool_of(e);
		if (k < 0)
			continue;
		const PlanNode *x = pg_node(pg, e);
		mem[k] = MAX(mem[k], x->memory);
		work[k] += x->cost;
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
			pl_why(p, "one job of each kind needs about %s, over the %s limit: running one at a time and hoping",
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
		pl_why(p, "memory: %d compile x %s + %d link x %s = %s of %s (%s)", p->cores, size_str(big, b1), depth[2],
		    size_str(mem[2], b2), size_str(used, (char[32]){ 0 }), size_str(limit, (char[32]){ 0 }), p->memory_from);
	else
		pl_why(p, "memory: %d device x %s + %d host x %s + %d link x %s = %s of %s (%s)",
		    depth[0], size_str(mem[0], b1), depth[1], size_str(mem[1], b2), depth[2],
		    size_str(mem[2], (char[32]){ 0 }), size_str(depth[0] * mem[0] + depth[1] * mem[1] + depth[2] * mem[2], (char[32]){ 0 }),
		    size_str(limit, (char[32]){ 0 }), p->memory_from);
}
