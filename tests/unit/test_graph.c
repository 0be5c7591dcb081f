/* test_graph.c -- unit tests of the core without nvcc: the kind table
 * (kinds.c) both ways, the planner's simulation of ninja on synthetic
 * graphs (given costs and pools in, predicted times and the critical path
 * out; simulate.c), a copy of the planner's graph, the edge order it chooses, and the lowering of a graph
 * to build.ninja, a Makefile and compile_commands.json text (ninja.c,
 * make.c). */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "graph.h"
#include "kinds.h"
#include "make.h"
#include "ninja.h"
#include "plan_int.h"

/* ---- the kind table ---- */

static void test_kind_names(void)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (int k = 0; k < EK_COUNT; k++) {
		const char *n = edge_kind_name((EdgeKind)k);
		g_assert_nonnull(n);
		g_assert_cmpstr(n, !=, "other");
		g_assert_false(g_hash_table_contains(seen, n));
		g_hash_table_add(seen, (gpointer)n);
	}
	g_hash_table_destroy(seen);
	g_assert_cmpstr(edge_kind_name(EK_COUNT), ==, "other");
	g_assert_true(edge_kind_per_arch(EK_DEV) && edge_kind_per_arch(EK_DEVPP) && edge_kind_per_arch(EK_CICC));
	g_assert_true(edge_kind_per_arch(EK_NVLINK) && edge_kind_per_arch(EK_DLOBJ));
	g_assert_false(edge_kind_per_arch(EK_FE) || edge_kind_per_arch(EK_HOST) || edge_kind_per_arch(EK_LINK));
}

/* Every rule stem edges.c names its rules with reads back as its kind:
 * plain, numbered as graph.c numbers variants, and per arch with an id
 * and the split suffix. */
static void test_kind_rules(void)
{
	static const struct {
		const char *rule;
		EdgeKind kind;
		const char *arch;
	} rows[] = {
		{ RULE_FE, EK_FE, NULL },
		{ RULE_FE "_2", EK_FE, NULL },
		{ RULE_DEV "_80", EK_DEV, "sm_80" },
		{ RULE_DEV "_90a_split4_1", EK_DEV, "sm_90a" },
		{ RULE_PTXAS "_100f", EK_DEV, "sm_100f" },
		{ RULE_PP "_75", EK_DEVPP, "sm_75" },
		{ RULE_CICC "_120_split2", EK_CICC, "sm_120" },
		{ RULE_STUB "_80", EK_STUB, NULL },
		{ RULE_STUB "_syntax", EK_STUB, NULL },
		{ RULE_HOST "_1", EK_HOST, NULL },
		{ RULE_FATBIN, EK_FATBIN, NULL },
		{ RULE_NVCC, EK_NVCC, NULL },
		{ RULE_DLOBJ "_86", EK_DLOBJ, "sm_86" },
		{ RULE_NVLINK "_89_3", EK_NVLINK, "sm_89" },
		{ RULE_DLFATBIN, EK_DLFATBIN, NULL },
		{ RULE_DLHOST "_1", EK_DLHOST, NULL },
		{ RULE_CC, EK_CC, NULL },
		{ RULE_CXX "_4", EK_CXX, NULL },
		{ RULE_AR, EK_AR, NULL },
		{ RULE_LINK "_1", EK_LINK, NULL },
		{ RULE_RANK, EK_RANK, NULL },
		{ RULE_DATA, EK_DATA, NULL },
		{ RULE_MANIFEST, EK_MANIFEST, NULL },
		{ RULE_IMPORT, EK_IMPORT, NULL },
		{ RULE_GATE, EK_GATE, NULL },
		{ RULE_REGEN, EK_REGEN, NULL },
		{ "phony", EK_PHONY, NULL },
		{ "cuda_dev", EK_COUNT, NULL },     /* a per-arch stem without its id */
		{ "cuda_pp__1", EK_COUNT, NULL },
		{ "ccx", EK_COUNT, NULL },
		{ "link_x", EK_COUNT, NULL },
		{ "nvvm_dir", EK_COUNT, NULL },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(rows); i++) {
		char *arch = NULL;
		EdgeKind k = edge_kind_of_rule(rows[i].rule, NULL, &arch);
		if (k != rows[i].kind || g_strcmp0(arch, rows[i].arch) != 0)
			g_error("%s: %s %s, expected %s %s", rows[i].rule, edge_kind_name(k), arch ? arch : "-",
				edge_kind_name(rows[i].kind), rows[i].arch ? rows[i].arch : "-");
		g_free(arch);
	}
	/* the description's arch word wins over the id (a PTX-only arch) */
	char *arch = NULL;
	g_assert_cmpint(edge_kind_of_rule(RULE_DEV "_90", "CUDA compute_90 ${out}", &arch), ==, EK_DEV);
	g_assert_cmpstr(arch, ==, "compute_90");
	g_free(arch);
}

/* ---- simulation ---- */

/* A synthetic graph and the cost of each of its edges, by serial. */
typedef struct {
	Graph *g;
	GArray *cost;
} Synth;

static Synth synth_new(void)
{
	return (Synth){ graph_new(), g_array_new(FALSE, FALSE, sizeof(double)) };
}

/* The planner's graph of s, with s's costs; it owns s's graph. */
static PlanGraph *synth_plan(Synth *s)
{
	GError *err = NULL;
	g_assert_true(graph_check_outputs(s->g, &err));
	g_assert_no_error(err);
	PlanGraph *pg = pg_new(s->g, TRUE);
	for (guint i = 0; i < s->g->edges->len; i++) {
		const Edge *e = g_ptr_array_index(s->g->edges, i);
		pg_node(pg, e)->cost = g_array_index(s->cost, double, e->serial);
	}
	g_array_free(s->cost, TRUE);
	return pg;
}

/* An edge of kind k in pool (NULL: none) making out from up to two
 * inputs, costing cost seconds. */
static Edge *mk(Synth *s, EdgeKind k, const char *pool, const char *out, double cost, const char *in1,
		const char *in2)
{
	Graph *g = s->g;
	char *cmd = g_strdup_printf("make %s", out);
	Rule *r = graph_rule(g, "r", cmd, NULL, NULL, NULL, pool);
	g_free(cmd);
	Edge *e = graph_edge(g, k, r);
	edge_out(e, out);
	if (in1)
		edge_in(e, in1);
	if (in2)
		edge_in(e, in2);
	g_array_append_val(s->cost, cost);
	return e;
}

static Plan machine(int cores, int device, int host, int link)
{
	Plan p = { 0 };
	p.cores = cores;
	p.device = device;
	p.host = host;
	p.link = link;
	return p;
}

static double run(PlanGraph *g, const Plan *p, double *cpl, double *work)
{
	pl_bottom_levels(g, cpl, work);
	return pl_simulate(g, p, 1, NULL, NULL);
}

/* The pool's depth bounds the jobs, not the cores. */
static void test_simulate_pools(void)
{
	Synth s = synth_new();
	for (int i = 0; i < 4; i++) {
		char out[16];
		snprintf(out, sizeof out, "d%d", i);
		mk(&s, EK_DEV, "device", out, 10, "src.cu", NULL);
	}
	PlanGraph *g = synth_plan(&s);
	double cpl, work;
	Plan p = machine(4, 1, 4, 1);
	g_assert_cmpfloat_with_epsilon(run(g, &p, &cpl, &work), 40, 1e-6);
	g_assert_cmpfloat_with_epsilon(cpl, 10, 1e-6);
	g_assert_cmpfloat_with_epsilon(work, 40, 1e-6);
	p = machine(4, 4, 4, 1);
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &p, 1, NULL, NULL), 10, 1e-6);
	/* more jobs than cores share them: on 2 cores ninja runs 3 jobs (-j 3),
	 * which end together at 15 s; the fourth then has a core to itself */
	p = machine(2, 4, 4, 1);
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &p, 1, NULL, NULL), 25, 1e-6);
	pg_free(g);
}

/* A chain waits for its inputs; the critical path is the longest chain. */
static void test_simulate_chain(void)
{
	Synth s = synth_new();
	mk(&s, EK_FE, "host", "a", 5, "src.cu", NULL);
	mk(&s, EK_DEV, "device", "b", 5, "a", NULL);
	mk(&s, EK_CXX, "host", "c", 2, "main.cpp", NULL);
	mk(&s, EK_LINK, "link", "app", 1, "b", "c");
	PlanGraph *g = synth_plan(&s);
	double cpl, work;
	Plan p = machine(2, 2, 2, 1);
	g_assert_cmpfloat_with_epsilon(run(g, &p, &cpl, &work), 11, 1e-6);
	g_assert_cmpfloat_with_epsilon(cpl, 11, 1e-6);
	g_assert_cmpfloat_with_epsilon(work, 13, 1e-6);
	/* one core: the work, in a row */
	p = machine(1, 1, 1, 1);
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &p, 1, NULL, NULL), 13, 1e-6);
	pg_free(g);
}

/* ninja 1.11 starts ready edges in file order: four short edges listed
 * before a long chain take the cores first (30 s). ninja >= 1.12 starts
 * the edge with the most edges after it first (the chain's head), but
 * then ties by file order, so the chain's tail waits for two short edges
 * (25 s). Longest remaining chain first, by cost, gives 20 s. */
static void test_simulate_order(void)
{
	Synth s = synth_new();
	const char *shorts[] = { "s1", "s2", "s3", "s4" };
	for (gsize i = 0; i < G_N_ELEMENTS(shorts); i++)
		mk(&s, EK_DEV, "device", shorts[i], 5, "src.cu", NULL);
	mk(&s, EK_DEV, "device", "l1", 10, "src.cu", NULL);
	mk(&s, EK_DEV, "device", "l2", 10, "l1", NULL);
	PlanGraph *g = synth_plan(&s);
	double cpl, work;
	Plan p = machine(2, 2, 2, 1);
	g_assert_cmpfloat_with_epsilon(run(g, &p, &cpl, &work), 30, 1e-6);
	g_assert_cmpfloat_with_epsilon(cpl, 20, 1e-6);
	Plan deep = p;
	deep.depth_first = TRUE;
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &deep, 1, NULL, NULL), 25, 1e-6);
	pl_order_edges(g, -1, NULL);
	const Edge *first = g_ptr_array_index(g->g->edges, 0);
	g_assert_cmpstr(EDGE_AT(first->outs, 0), ==, "l1");
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &p, 1, NULL, NULL), 20, 1e-6);
	pg_free(g);
}

/* The planner weighs a tail split as an annotation (PlanNode.split) on the
 * graph as built: it must simulate as the graph built with split rules
 * does. A 40 s device compile on 4 cores behind a 4 s front end, with
 * --split-compile 4 (1.6x): 4 + 25 s either way, 44 s unsplit. */
static void test_simulate_split_annotation(void)
{
	double t[3], cpl[3], work[3];
	for (int way = 0; way < 3; way++) {
		Synth s = synth_new();
		mk(&s, EK_FE, "host", "fe", 4, "src.cu", NULL);
		Edge *d = mk(&s, EK_DEV, "device", "sm_90.cubin", 40, "fe", NULL);
		if (way == 1)
			d->rule->split_compile = 4; /* built split */
		PlanGraph *g = synth_plan(&s);
		if (way == 2)
			pg_node(g, d)->split = 4; /* annotated */
		Plan p = machine(4, 4, 4, 1);
		t[way] = run(g, &p, &cpl[way], &work[way]);
		g_assert_cmpuint(d->serial, ==, 1);
		pg_free(g);
	}
	g_assert_cmpfloat_with_epsilon(t[0], 44, 1e-6);
	g_assert_cmpfloat_with_epsilon(t[1], 29, 1e-6);
	g_assert_cmpfloat_with_epsilon(t[2], t[1], 1e-9);
	g_assert_cmpfloat_with_epsilon(cpl[2], cpl[1], 1e-9);
	g_assert_cmpfloat_with_epsilon(work[2], work[0], 1e-9); /* the same CPU time */
}

/* A copy of the planner's graph (plan_time_check's, with other costs)
 * has its own estimates and walk: changing the copy's costs leaves the
 * original's levels as they were. */
static void test_simulate_copy(void)
{
	Synth s = synth_new();
	mk(&s, EK_FE, "host", "a", 5, "src.cu", NULL);
	Edge *d = mk(&s, EK_DEV, "device", "b", 5, "a", NULL);
	mk(&s, EK_LINK, "link", "app", 1, "b", NULL);
	PlanGraph *g = synth_plan(&s);
	double cpl, work;
	pl_bottom_levels(g, &cpl, &work);
	g_assert_cmpfloat_with_epsilon(cpl, 11, 1e-9);
	PlanGraph *c = pg_copy(g);
	g_assert_true(c->g == g->g && !c->owns);
	pg_node(c, d)->cost = 20;
	pl_bottom_levels(c, &cpl, &work);
	g_assert_cmpfloat_with_epsilon(cpl, 26, 1e-9);
	g_assert_cmpfloat_with_epsilon(work, 26, 1e-9);
	Plan p = machine(2, 2, 2, 1);
	g_assert_cmpfloat_with_epsilon(pl_simulate(c, &p, 1, NULL, NULL), 26, 1e-9);
	pg_free(c);
	g_assert_cmpfloat_with_epsilon(pg_node(g, d)->level, 6, 1e-9);
	pl_bottom_levels(g, &cpl, &work);
	g_assert_cmpfloat_with_epsilon(cpl, 11, 1e-9);
	g_assert_cmpfloat_with_epsilon(pl_simulate(g, &p, 1, NULL, NULL), 11, 1e-9);
	pg_free(g);
}

/* ---- lowering ---- */

/* A device edge and a link from source NAME.cu (obj/t/NAME.cu.p/...). */
static Graph *small_graph(const char *name)
{
	Graph *g = graph_new();
	graph_pool(g, "device", 2, "two device jobs");
	Rule *r = graph_rule(g, RULE_DEV "_80", "cicc ${in} -o ${out}", "CUDA sm_80 ${out}", "${out}.d", "gcc", "device");
	Edge *e = graph_edge(g, EK_DEV, r);
	char *cubin = g_strdup_printf("obj/t/%s.cu.p/sm_80.cubin", name), *src = g_strdup_printf("../%s.cu", name);
	edge_out(e, cubin);
	edge_in(e, src);
	edge_implicit_in(e, "gen.h");
	edge_var(e, "O", "obj/t/my_k.cu.p");
	Rule *l = graph_rule(g, RULE_LINK, "c++ ${in} -o ${out}", "LINK ${out}", NULL, NULL, NULL);
	Edge *le = graph_edge(g, EK_LINK, l);
	edge_out(le, "app");
	edge_in(le, cubin);
	Edge *ph = graph_edge(g, EK_PHONY, NULL);
	edge_out(ph, "all");
	edge_in(ph, "app");
	g_ptr_array_add(g->defaults, g_strdup("all"));
	graph_compdb(g, src, "obj/t/k.cu.o", "nvcc -c", "k.cu -o obj/t/k.cu.o");
	g_free(cubin);
	g_free(src);
	GError *err = NULL;
	g_assert_true(graph_check_outputs(g, &err));
	return g;
}

static void test_lower_ninja(void)
{
	Graph *g = small_graph("my k");
	GError *err = NULL;
	GString *o = ninja_write(g, "# test\n", NULL, &err);
	g_assert_no_error(err);
	g_assert_nonnull(strstr(o->str, "pool device\n  depth = 2\n"));
	g_assert_nonnull(strstr(o->str, "rule cuda_dev_80\n  command = cicc ${in} -o ${out}\n"));
	g_assert_nonnull(strstr(o->str, "  pool = device\n"));
	g_assert_nonnull(strstr(o->str, "build obj/t/my$ k.cu.p/sm_80.cubin: cuda_dev_80 ../my$ k.cu | gen.h\n"));
	g_assert_nonnull(strstr(o->str, "  O = obj/t/my_k.cu.p\n"));
	g_assert_nonnull(strstr(o->str, "build app: link obj/t/my$ k.cu.p/sm_80.cubin\n"));
	g_assert_nonnull(strstr(o->str, "default all\n"));
	g_string_free(o, TRUE);
	/* a newline cannot be written in ninja syntax */
	Edge *bad = graph_edge(g, EK_PHONY, NULL);
	edge_out(bad, "new\nline");
	o = ninja_write(g, "# test\n", NULL, &err);
	g_assert_null(o);
	g_assert_nonnull(err);
	g_clear_error(&err);
	graph_free(g);
}

static void test_lower_make_compdb(void)
{
	Graph *g = small_graph("k");
	GError *err = NULL;
	GString *o = make_write(g, "# test\n", "cugen", &err);
	g_assert_no_error(err);
	g_assert_true(g_str_has_prefix(o->str, "# test\n"));
	/* each edge depends on cugen-force unless its command's hash is
	 * the one recorded, and its recipe records it */
	g_assert_nonnull(strstr(o->str, "obj/t/k.cu.p/sm_80.cubin: $(if $(filter "));
	g_assert_nonnull(strstr(o->str, ",,cugen-force) ../k.cu gen.h"));
	g_assert_nonnull(strstr(o->str, "-include $(wildcard .cugen/cmd/*.mk)"));
	/* (in the pool's slot: the command quoted) */
	const char *rec = strstr(o->str, "cicc ../k.cu -o obj/t/k.cu.p/sm_80.cubin' && echo 'cugen_cmd_");
	g_assert_nonnull(rec);
	/* its key and hash: the same in the prerequisite */
	char key[17] = "", hash[17] = "";
	g_assert_cmpint(sscanf(rec, "cicc ../k.cu -o obj/t/k.cu.p/sm_80.cubin' && echo 'cugen_cmd_%16[0-9a-f] := %16[0-9a-f]'",
			       key, hash), ==, 2);
	char *pre = g_strdup_printf("$(if $(filter %s,$(cugen_cmd_%s)),,cugen-force)", hash, key);
	g_assert_nonnull(strstr(o->str, pre));
	g_free(pre);
	g_assert_nonnull(strstr(o->str, ",,cugen-force) obj/t/k.cu.p/sm_80.cubin\n"));
	g_assert_nonnull(strstr(o->str, "\napp: $(if $(filter "));
	g_string_free(o, TRUE);
	GString *j = compdb_write(g, "/b");
	JsonParser *jp = json_parser_new();
	g_assert_true(json_parser_load_from_data(jp, j->str, (gssize)j->len, NULL));
	JsonObject *first = json_array_get_object_element(json_node_get_array(json_parser_get_root(jp)), 0);
	g_assert_cmpstr(json_object_get_string_member(first, "directory"), ==, "/b");
	g_assert_cmpstr(json_object_get_string_member(first, "file"), ==, "../k.cu");
	g_object_unref(jp);
	g_string_free(j, TRUE);
	graph_free(g);
	/* make cannot say a path with a space: refused, naming it */
	g = small_graph("my k");
	o = make_write(g, "# test\n", "cugen", &err);
	g_assert_null(o);
	g_assert_nonnull(strstr(err->message, "'obj/t/my k.cu.p/sm_80.cubin' cannot be written in a Makefile"));
	g_clear_error(&err);
	graph_free(g);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/kinds/names", test_kind_names);
	g_test_add_func("/kinds/rules", test_kind_rules);
	g_test_add_func("/simulate/pools", test_simulate_pools);
	g_test_add_func("/simulate/chain", test_simulate_chain);
	g_test_add_func("/simulate/order", test_simulate_order);
	g_test_add_func("/simulate/split_annotation", test_simulate_split_annotation);
	g_test_add_func("/simulate/copy", test_simulate_copy);
	g_test_add_func("/lower/ninja", test_lower_ninja);
	g_test_add_func("/lower/make_compdb", test_lower_make_compdb);
	return g_test_run();
}
