/* plancmd.c -- `cugen plan`: the plan of a setup, printed and not
 * written: the machine, the edges per kind, the pools, the expected
 * times and the planner's reasons, as text or --json; with -v every
 * edge of the graph too, in build file order, with what the planner
 * expects of it (tests/graphs compares these lists).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "jsonout.h"
#include "setup.h"
#include "units.h"
#include "util.h"

static void count_edges(Graph *g, guint counts[EK_COUNT])
{
	memset(counts, 0, sizeof(guint) * EK_COUNT);
	for (guint i = 0; i < g->edges->len; i++)
		counts[((Edge *)g_ptr_array_index(g->edges, i))->kind]++;
}

static void print_paths(GString *s, const PathList *l, const char *sep)
{
	if (!EDGE_LEN(l))
		return;
	g_string_append(s, sep);
	for (guint i = 0; i < l->len; i++)
		g_string_append_printf(s, " %s", EDGE_AT(l, i));
}

/* One edge: kind, arch, the nvcc steps it runs, its pool, what the
 * planner expects of it, outputs <- inputs (| implicit, || order-only). */
static void print_edge(const Plan *pl, const Edge *e)
{
	static const struct { guint bit; const char *name; } tools[] = {
		{ TOOL_PP, "pp" }, { TOOL_CICC, "cicc" }, { TOOL_PTXAS, "ptxas" }, { TOOL_LTO, "lto" },
	};
	GString *s = g_string_new("  ");
	g_string_append(s, edge_kind_name(e->kind));
	if (e->arch)
		g_string_append_printf(s, " %s", e->arch);
	for (guint i = 0, n = 0; i < G_N_ELEMENTS(tools); i++)
		if (e->tools & tools[i].bit)
			g_string_append_printf(s, "%s%s", n++ ? "+" : " ", tools[i].name);
	if (e->rule && e->rule->split_compile)
		g_string_append_printf(s, " split=%d", e->rule->split_compile);
	if (e->rule && e->rule->pool)
		g_string_append_printf(s, " pool=%s", e->rule->pool);
	EdgeEstimate est;
	if (plan_edge_estimate(pl, e, &est) && e->kind != EK_PHONY)
		g_string_append_printf(s, " %.1fs %.0fMiB %s", est.cost, est.memory / 1048576.0,
				       plan_estimate_from(est.from));
	g_string_append(s, ":");
	print_paths(s, e->outs, "");
	print_paths(s, e->implicit_outs, " |");
	g_string_append(s, " <-");
	print_paths(s, e->ins, "");
	print_paths(s, e->implicit_ins, " |");
	print_paths(s, e->order_ins, " ||");
	puts(s->str);
	g_string_free(s, TRUE);
}

int cmd_plan(int argc, char **argv)
{
	TimeCheck tc = { 0 };
	char *late = NULL;
	SetupArgs a = { 0 };
	GError *err = NULL;
	Generated gen = { 0 };
	int rc = 0;
	if (!setup_parse_args(&argc, &argv, &a, "plan", TRUE, &err))
		goto out;
	if (!setup_generate(&a, &gen, &err))
		goto out;
	guint counts[EK_COUNT];
	count_edges(gen.g, counts);
	Plan *pl = &gen.plan;
	const Grouping *ch = &pl->chosen;
	const Profile *pr = gen.c->profile;
	if (pr->time_limit > 0) {
		plan_time_check(pl, gen.builddir, pr->time_limit, 0, &tc);
		late = plan_time_warning(&tc, pr->name, pr->runner);
	}
	if (a.json) {
		JsonBuilder *b = json_builder_new();
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "machine");
		json_builder_begin_object(b);
		cg_json_int(b, "cores", pl->cores);
		cg_json_str(b, "cores_from", pl->cores_from);
		cg_json_int(b, "memory", (gint64)pl->memory);
		cg_json_str(b, "memory_from", pl->memory_from);
		cg_json_str(b, "ci", gen.m.ci);
		json_builder_end_object(b);
		json_builder_set_member_name(b, "pools");
		json_builder_begin_object(b);
		for (guint i = 0; i < gen.g->pools->len; i++) {
			Pool *po = g_ptr_array_index(gen.g->pools, i);
			cg_json_int(b, po->name, po->depth);
		}
		json_builder_end_object(b);
		json_builder_set_member_name(b, "job_memory");
		json_builder_begin_object(b);
		cg_json_int(b, "device", (gint64)pl->mem_device);
		cg_json_int(b, "host", (gint64)pl->mem_host);
		cg_json_int(b, "link", (gint64)pl->mem_link);
		cg_json_str(b, "from", pl->mem_from);
		json_builder_end_object(b);
		cg_json_int(b, "expected_peak_memory", (gint64)pl->peak_memory);
		cg_json_int(b, "threads", MAX(ch->threads, 1));
		cg_json_int(b, "split_compile", ch->split_compile);
		cg_json_str(b, "stub", ch->syntax_stub ? "syntax" : "device-edge");
		cg_json_bool(b, "pp_edges", ch->pp_edges);
		cg_json_bool(b, "ptxas_edges", ch->ptxas_edges);
		cg_json_bool(b, "host_rank", ch->host_rank);
		json_builder_set_member_name(b, "tail_split");
		json_builder_begin_object(b);
		cg_json_int(b, "split_compile", ch->tail_split);
		cg_json_int(b, "edges", ch->split_edges ? g_hash_table_size(ch->split_edges) : 0);
		json_builder_end_object(b);
		json_builder_set_member_name(b, "speed"); /* null: nothing guessed */
		if (pl->speed.used) {
			json_builder_begin_object(b);
			json_builder_set_member_name(b, "value");
			json_builder_add_double_value(b, pl->speed.speed);
			cg_json_str(b, "from", pl->speed.from);
			json_builder_set_member_name(b, "probe_cpu_seconds");
			json_builder_add_double_value(b, pl->speed.probe_cpu);
			cg_json_int(b, "probe_jobs", pl->speed.probe_cpu > 0 ? pl->speed.probe_jobs : 0);
			json_builder_end_object(b);
		} else {
			json_builder_add_null_value(b);
		}
		cg_json_seconds(b, "work_seconds", pl->work);
		cg_json_seconds(b, "critical_path_seconds", pl->critical_path);
		cg_json_seconds(b, "estimate_seconds", pl->estimate);
		cg_json_int(b, "measured_edges", pl->measured);
		cg_json_int(b, "guessed_from_text_edges", pl->scanned);
		cg_json_int(b, "recommended_j", pl->recommended_j);
		cg_json_str(b, "archs", gen.info.archs);
		json_builder_set_member_name(b, "edges");
		json_builder_begin_object(b);
		for (int k = 0; k < EK_COUNT; k++)
			if (counts[k] && k != EK_PHONY && k != EK_REGEN)
				cg_json_int(b, edge_kind_name(k), counts[k]);
		json_builder_end_object(b);
		json_builder_set_member_name(b, "order");
		json_builder_begin_array(b);
		guint shown = 0;
		for (guint i = 0; i < gen.g->edges->len && shown < 10; i++) {
			Edge *e = g_ptr_array_index(gen.g->edges, i);
			if (e->kind == EK_PHONY || e->kind == EK_REGEN)
				continue;
			json_builder_add_string_value(b, EDGE_AT(e->outs, 0));
			shown++;
		}
		json_builder_end_array(b);
		if (gen.c->profile->name)
			cg_json_str(b, "profile", gen.c->profile->name);
		if (pr->time_limit > 0) {
			json_builder_set_member_name(b, "time_limit");
			json_builder_begin_object(b);
			cg_json_int(b, "limit_seconds", (gint64)tc.limit);
			cg_json_int(b, "estimate_seconds", (gint64)(tc.estimate + 0.5));
			cg_json_int(b, "cores", tc.cores);
			cg_json_int(b, "timed_edges", tc.timed);
			cg_json_int(b, "edges", tc.edges);
			cg_json_bool(b, "fits", !late);
			cg_json_int(b, "shards", tc.shards);
			cg_json_int(b, "shard_estimate_seconds", (gint64)(tc.shard_estimate + 0.5));
			cg_json_int(b, "combine_estimate_seconds", (gint64)(tc.combine_estimate + 0.5));
			json_builder_end_object(b);
		}
		json_builder_set_member_name(b, "why");
		json_builder_begin_array(b);
		for (guint i = 0; i < pl->why->len; i++)
			json_builder_add_string_value(b, g_ptr_array_index(pl->why, i));
		json_builder_end_array(b);
		json_builder_end_object(b);
		GString *o = cg_json_finish(b, TRUE);
		fputs(o->str, stdout);
		g_string_free(o, TRUE);
		goto out;
	}
	printf("machine: %d cores (%s), %.1f GiB memory (%s)%s%s\n", pl->cores, pl->cores_from,
	       pl->memory / 1073741824.0, pl->memory_from, gen.m.ci ? ", CI: " : "", gen.m.ci ? gen.m.ci : "");
	printf("archs built: %s\n", *gen.info.archs ? gen.info.archs : "none");
	printf("edges:");
	for (int k = 0; k < EK_COUNT; k++)
		if (counts[k] && k != EK_PHONY && k != EK_REGEN)
			printf(" %s=%u", edge_kind_name(k), counts[k]);
	printf("\n");
	for (guint i = 0; i < gen.g->pools->len; i++) {
		Pool *po = g_ptr_array_index(gen.g->pools, i);
		printf("pool %s = %d: %s\n", po->name, po->depth, po->why ? po->why : "");
	}
	printf("job memory: %s\n", pl->mem_from);
	printf("expected: %.*f CPU s of work, critical path %.*f s, about %.*f s on %d cores\n",
	       PLAN_SECS(pl->work), PLAN_SECS(pl->critical_path), PLAN_SECS(pl->estimate), pl->cores);
	printf("first edges:");
	guint shown = 0;
	for (guint i = 0; i < gen.g->edges->len && shown < 5; i++) {
		Edge *e = g_ptr_array_index(gen.g->edges, i);
		if (e->kind == EK_PHONY || e->kind == EK_REGEN)
			continue;
		printf(" %s", EDGE_AT(e->outs, 0));
		shown++;
	}
	printf("\nwhy:\n");
	for (guint i = 0; i < pl->why->len; i++)
		printf("  %s\n", (char *)g_ptr_array_index(pl->why, i));
	if (a.verbose) {
		GPtrArray *scans = plan_scans(pl);
		if (scans->len)
			printf("CUDA TUs read for the first costs:\n");
		for (guint i = 0; i < scans->len; i++)
			printf("  %s\n", (char *)g_ptr_array_index(scans, i));
		g_ptr_array_free(scans, TRUE);
		printf("edges, in build file order (kind, arch, nvcc steps, pool, expected CPU s and peak memory, "
		       "from what: outputs <- inputs):\n");
		for (guint i = 0; i < gen.g->edges->len; i++) {
			const Edge *e = g_ptr_array_index(gen.g->edges, i);
			if (e->kind != EK_REGEN)
				print_edge(pl, e);
		}
	}
	if (pr->time_limit > 0 && !late) {
		char *est = units_format_duration(tc.estimate), *lim = units_format_duration(tc.limit);
		printf("time limit: about %s on %d cores (%u of %u edges timed by .ninja_log), within the %s job limit\n",
		       est, tc.cores, tc.timed, tc.edges, lim);
		g_free(est);
		g_free(lim);
	}
	if (strcmp(a.backend, "make") == 0)
		printf("run: make -C %s -j%d (cugen slot keeps each kind of job within its pool)\n", a.builddir,
		       pl->recommended_j);
	else if (strcmp(a.backend, "automake") == 0)
		printf("run: make -j%d (the automake fragment builds through %s)\n", pl->recommended_j, a.builddir);
	else if (pl->shared)
		printf("run: ninja -C %s (pool compile keeps the compiles within the %d cores)\n", a.builddir, pl->cores);
	else
		printf("run: ninja -C %s (the pools bound each kind of job; -j%d bounds them together)\n",
		       a.builddir, pl->recommended_j);
out:
	if (late)
		cg_warn("%s", late);
	g_free(late);
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	setup_generated_clear(&gen);
	setup_args_clear(&a);
	return rc;
}
