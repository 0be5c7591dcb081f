/* test_steps.c -- the per-arch recipe's steps from a fake nvcc: a
 * project is loaded (config_load), resolved against a hand-made Toolkit
 * whose nvcc is a script printing a canned `nvcc --dryrun` (resolve.c
 * parses it into nvcc's steps), and edges_build turns it into edges.
 * Checked: one edge per tool run, typed by the kind table, with its arch,
 * TU and inputs/outputs by role, for each way the planner may group the
 * device steps (whole, pp edges, cicc and ptxas apart, syntax-only
 * stub, rank stamps); and that each grouping lowered as the planner's
 * candidate is the graph written for it, less the rules' commands. The planner's choices on costs in (an edges.log)
 * are rows of tests/graphs/. No toolkit needed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "config.h"
#include "edges.h"
#include "graph.h"
#include "history.h"
#include "kinds.h"
#include "machine.h"
#include "plan.h"
#include "resolve.h"
#include "toolkit.h"

#include "dryrun.h"


typedef struct {
	char *dir, *builddir;
	Config *c;
	Toolkit *tk;
	Resolved *r;
} Project;

static void put_file(const char *dir, const char *name, const char *text)
{
	char *p = g_build_filename(dir, name, NULL);
	g_assert_true(g_file_set_contents(p, text, -1, NULL));
	g_free(p);
}

static void project_open(Project *p, const char *sources, gboolean ptx)
{
	p->dir = g_dir_make_tmp("cugen-steps-XXXXXX", NULL);
	g_assert_nonnull(p->dir);
	char *ini_text = g_strdup_printf("[project]\nname = t\n[cuda]\narchs = 80\n%sstd = c++17\n"
					 "[target t]\ntype = executable\nsources = %s\n", ptx ? "ptx = 80\n" : "", sources);
	put_file(p->dir, "cugen.ini", ini_text);
	g_free(ini_text);
	put_file(p->dir, "k.cu", "");
	put_file(p->dir, "l.cu", "");
	put_file(p->dir, "main.cpp", "int main(void) { return 0; }\n");
	/* the fake nvcc: --dryrun's steps on stderr, as nvcc prints them
	 * (the probe directory is where it runs: $PWD, which its shell
	 * expands; \$ is the dollar nvcc prints) */
	GString *text = g_string_new(dryrun_text);
	g_string_replace(text, "$CICC_PATH", "\\$CICC_PATH", 0);
	g_string_replace(text, "@PROBEDIR@", "$PWD", 0);
	char *script = g_strdup_printf("#!/bin/sh\ncat >&2 <<EOF\n%sEOF\n", text->str);
	g_string_free(text, TRUE);
	put_file(p->dir, "nvcc", script);
	g_free(script);
	char *nvcc = g_build_filename(p->dir, "nvcc", NULL);
	g_assert_cmpint(g_chmod(nvcc, 0755), ==, 0);
	char *ini = g_build_filename(p->dir, "cugen.ini", NULL);
	ConfigOptions co = { ini, NULL, NULL, NULL, FALSE, NULL };
	GError *err = NULL;
	p->c = config_load(&co, &err);
	g_assert_no_error(err);
	g_free(ini);
	p->builddir = g_build_filename(p->dir, "build", NULL);
	Toolkit *tk = p->tk = g_new0(Toolkit, 1);
	tk->root = g_strdup(p->dir);
	tk->nvcc = nvcc;
	tk->version = g_strdup("13.0.88");
	tk->codes = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(tk->codes, g_strdup("sm_80"));
	g_ptr_array_add(tk->codes, g_strdup("sm_90"));
	tk->host_cc = g_strdup("gcc");
	tk->host_version = g_strdup("12.2.0");
	tk->fingerprint = g_strdup("test");
	tk->ccbin = g_strdup("");
	tk->cc = g_strdup("gcc");
	tk->cxx = g_strdup("g++");
	tk->ar = g_strdup("ar");
	tk->objcopy = g_strdup("objcopy");
	tk->target = g_strdup("x86_64-linux");
	tk->cache = g_key_file_new();
	tk->out = g_key_file_new();
	p->r = resolve_project(p->c, tk, p->builddir, 0, &err);
	g_assert_no_error(err);
	g_assert_nonnull(p->r);
}

static void rm_tree(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	for (const char *n; d && (n = g_dir_read_name(d));) {
		char *p = g_build_filename(dir, n, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
			rm_tree(p);
		else
			g_unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
}

static void project_close(Project *p)
{
	resolved_free(p->r);
	toolkit_free(p->tk);
	config_free(p->c);
	rm_tree(p->dir);
	g_free(p->builddir);
	g_free(p->dir);
}

/* The graph for one set of the planner's groupings: to write, or
 * (plan_only) the planner's candidate. */
static Graph *lowered(Project *p, Grouping *o, gboolean plan_only, GraphInfo *info)
{
	GPtrArray *regen = g_ptr_array_new();
	const EdgeInputs in = { "/usr/bin/cugen", regen };
	GError *err = NULL;
	Graph *g = edges_lower(p->r, &in, o, plan_only, info, &err);
	g_assert_no_error(err);
	g_assert_nonnull(g);
	g_assert_true(graph_check_outputs(g, &err));
	g_assert_no_error(err);
	g_ptr_array_free(regen, TRUE);
	return g;
}

static Graph *graph(Project *p, Grouping *o, GraphInfo *info)
{
	return lowered(p, o, FALSE, info);
}

static guint count(Graph *g, EdgeKind k)
{
	guint n = 0;
	for (guint i = 0; i < g->edges->len; i++)
		n += ((Edge *)g_ptr_array_index(g->edges, i))->kind == k;
	return n;
}

/* The one edge of kind k, with at least one output; NULL if none. */
static Edge *edge_of(Graph *g, EdgeKind k)
{
	Edge *found = NULL;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (e->kind == k) {
			g_assert_null(found);
			found = e;
		}
	}
	if (found)
		g_assert_cmpuint(EDGE_LEN(found->outs), >, 0);
	return found;
}

static gboolean lists(const PathList *l, const char *path)
{
	for (guint i = 0; i < EDGE_LEN(l); i++)
		if (strcmp(EDGE_AT(l, i), path) == 0)
			return TRUE;
	return FALSE;
}

static gboolean reads(const Edge *e, const char *path)
{
	return lists(e->ins, path) || lists(e->implicit_ins, path) || lists(e->order_ins, path);
}

/* The maker of e's input named path: the edge before it in the chain. */
static Edge *made_by(const Edge *e, const char *path)
{
	g_assert_true(reads(e, path));
	return graph_maker(graph_intern(e->graph, path));
}

#define D "obj/t/k.cu.p"

/* Whole device edges: front end, device compile (preprocess, cicc,
 * ptxas in one), stub copy, host compile, fatbin; the C++ TU; the link.
 * Each edge's command runs the dryrun's tool for it. */
static void test_steps_whole(void)
{
	Project p = { 0 };
	project_open(&p, "k.cu main.cpp", FALSE);
	Grouping o = { 0 };
	GraphInfo info = { 0 };
	Graph *g = graph(&p, &o, &info);
	g_assert_cmpuint(info.cuda_tus, ==, 1);
	g_assert_cmpuint(info.host_tus, ==, 1);
	g_assert_cmpuint(info.split_tu_targets, ==, 0);
	g_assert_cmpstr(info.archs, ==, "sm_80");
	g_assert_cmpuint(count(g, EK_FE), ==, 1);
	g_assert_cmpuint(count(g, EK_DEV), ==, 1);
	g_assert_cmpuint(count(g, EK_CICC), ==, 0);
	g_assert_cmpuint(count(g, EK_DEVPP), ==, 0);
	g_assert_cmpuint(count(g, EK_STUB), ==, 1);
	g_assert_cmpuint(count(g, EK_HOST), ==, 1);
	g_assert_cmpuint(count(g, EK_FATBIN), ==, 1);
	g_assert_cmpuint(count(g, EK_CXX), ==, 1);
	g_assert_cmpuint(count(g, EK_LINK), ==, 1);
	g_assert_cmpuint(count(g, EK_RANK), ==, 0);
	Edge *dev = edge_of(g, EK_DEV);
	g_assert_cmpstr(dev->arch, ==, "sm_80");
	g_assert_cmpstr(dev->source, ==, "k.cu");
	g_assert_cmpstr(dev->target, ==, "t");
	g_assert_cmpstr(EDGE_AT(dev->outs, 0), ==, D "/sm_80.cubin");
	/* its steps by role, and the names each step's work is known by */
	g_assert_cmpuint(dev->tools, ==, TOOL_PP | TOOL_CICC | TOOL_PTXAS);
	g_assert_cmpstr(dev->unit->image, ==, D "/sm_80.cubin");
	g_assert_cmpstr(dev->unit->cubin, ==, D "/sm_80.cubin");
	g_assert_cmpstr(dev->unit->ptx, ==, D "/compute_80.ptx");
	g_assert_cmpstr(dev->unit->ii, ==, D "/80.ii");
	Edge *fe = made_by(dev, D "/fe.cpp");
	g_assert_cmpuint(fe->tools, ==, 0);
	g_assert_true(fe->kind == EK_FE);
	char *cmd = edge_command(dev);
	g_assert_nonnull(strstr(cmd, "-D__CUDA_ARCH__=800"));
	g_assert_nonnull(strstr(cmd, "/cicc"));
	g_assert_nonnull(strstr(cmd, "ptxas -arch=sm_80"));
	g_assert_null(strstr(cmd, "/tmp/tmpxft")); /* nvcc's temporaries renamed */
	g_free(cmd);
	cmd = edge_command(fe);
	g_assert_nonnull(strstr(cmd, "cudafe++"));
	g_free(cmd);
	/* the fatbin takes both images of the arch: the cubin and the PTX */
	Edge *fb = edge_of(g, EK_FATBIN);
	g_assert_true(made_by(fb, D "/sm_80.cubin") == dev);
	g_assert_true(reads(fb, D "/compute_80.ptx"));
	/* the host compile reads the stub the device edge's cicc wrote, copied */
	Edge *host = edge_of(g, EK_HOST), *stub = edge_of(g, EK_STUB);
	g_assert_true(stub->rule->copy);
	g_assert_cmpuint(stub->tools, ==, 0);
	g_assert_true(reads(host, EDGE_AT(stub->outs, 0)));
	g_assert_true(made_by(fb, EDGE_AT(host->outs, 0)) == host);
	Edge *link = edge_of(g, EK_LINK);
	g_assert_true(reads(link, EDGE_AT(fb->outs, 0)));
	g_assert_true(reads(link, EDGE_AT(edge_of(g, EK_CXX)->outs, 0)));
	graph_free(g);
	graph_info_clear(&info);
	project_close(&p);
}

/* The other groupings of the same steps: the device preprocess as its
 * own edge, cicc and ptxas apart (ptxas reads the PTX cicc wrote), the
 * stub from a syntax-only edge, two rank stamps after the host compile. */
static void test_steps_grouped(void)
{
	Project p = { 0 };
	project_open(&p, "k.cu main.cpp", FALSE);
	Grouping o = { 0 };
	o.pp_edges = o.ptxas_edges = o.syntax_stub = o.host_rank = TRUE;
	GraphInfo info = { 0 };
	Graph *g = graph(&p, &o, &info);
	g_assert_cmpuint(count(g, EK_DEVPP), ==, 1);
	g_assert_cmpuint(count(g, EK_CICC), ==, 1);
	g_assert_cmpuint(count(g, EK_DEV), ==, 1);
	g_assert_cmpuint(count(g, EK_RANK), ==, 2);
	Edge *ptxas = edge_of(g, EK_DEV), *cicc = edge_of(g, EK_CICC), *pp = edge_of(g, EK_DEVPP);
	g_assert_cmpstr(EDGE_AT(ptxas->outs, 0), ==, D "/sm_80.cubin");
	g_assert_true(made_by(ptxas, D "/compute_80.ptx") == cicc);
	g_assert_true(made_by(cicc, D "/80.ii") == pp);
	g_assert_cmpstr(cicc->arch, ==, "sm_80");
	/* one step each, one device compile */
	g_assert_cmpuint(ptxas->tools, ==, TOOL_PTXAS);
	g_assert_cmpuint(cicc->tools, ==, TOOL_CICC);
	g_assert_cmpuint(pp->tools, ==, TOOL_PP);
	g_assert_true(ptxas->unit == cicc->unit && cicc->unit == pp->unit);
	g_assert_cmpstr(cicc->unit->image, ==, D "/sm_80.cubin");
	char *cmd = edge_command(ptxas);
	g_assert_nonnull(strstr(cmd, "ptxas -arch=sm_80"));
	g_assert_null(strstr(cmd, "/cicc"));
	g_free(cmd);
	cmd = edge_command(pp);
	g_assert_nonnull(strstr(cmd, "-D__CUDA_ARCH__=800"));
	g_assert_null(strstr(cmd, "/cicc"));
	g_free(cmd);
	Edge *stub = edge_of(g, EK_STUB);
	g_assert_false(stub->rule->copy);
	g_assert_cmpuint(stub->tools, ==, TOOL_CICC); /* it reads the pp edge's view */
	cmd = edge_command(stub);
	g_assert_nonnull(strstr(cmd, "--device-syntax-only"));
	g_free(cmd);
	g_assert_true(made_by(stub, D "/80.ii") == pp); /* the view, preprocessed once */
	/* host.o -> rank1 -> rank2, an order-only input of the fatbin edge */
	Edge *fb = edge_of(g, EK_FATBIN);
	Edge *r2 = NULL;
	for (guint i = 0; i < EDGE_LEN(fb->order_ins); i++) {
		Edge *m = graph_maker(EDGE_AT(fb->order_ins, i));
		if (m && m->kind == EK_RANK)
			r2 = m;
	}
	g_assert_nonnull(r2);
	Edge *r1 = made_by(r2, EDGE_AT(r2->ins, 0));
	g_assert_true(r1->kind == EK_RANK);
	g_assert_true(made_by(r1, EDGE_AT(r1->ins, 0)) == edge_of(g, EK_HOST));
	graph_free(g);
	graph_info_clear(&info);
	project_close(&p);
}

static void same_list(const PathList *a, const PathList *b, const char *what, guint i)
{
	if (EDGE_LEN(a) != EDGE_LEN(b))
		g_error("edge %u: %s: %u paths in the candidate, %u built", i, what, EDGE_LEN(a), EDGE_LEN(b));
	for (guint k = 0; k < EDGE_LEN(a); k++)
		if (strcmp(EDGE_AT(a, k), EDGE_AT(b, k)) != 0)
			g_error("edge %u: %s %u: '%s' in the candidate, '%s' built", i, what, k, EDGE_AT(a, k), EDGE_AT(b, k));
}

static gboolean same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* What the planner reads of an edge, the same in candidate v and built b. */
static void same_edges(Graph *v, Graph *b)
{
	g_assert_cmpuint(v->edges->len, ==, b->edges->len);
	for (guint i = 0; i < v->edges->len; i++) {
		const Edge *x = g_ptr_array_index(v->edges, i), *y = g_ptr_array_index(b->edges, i);
		g_assert_cmpstr(edge_kind_name(x->kind), ==, edge_kind_name(y->kind));
		g_assert_cmpuint(x->serial, ==, y->serial);
		same_list(x->outs, y->outs, "outs", i);
		same_list(x->implicit_outs, y->implicit_outs, "implicit outs", i);
		same_list(x->ins, y->ins, "ins", i);
		same_list(x->implicit_ins, y->implicit_ins, "implicit ins", i);
		same_list(x->order_ins, y->order_ins, "order-only ins", i);
		same_list(x->vars, y->vars, "vars", i);
		g_assert_true(same_str(x->source, y->source));
		g_assert_true(same_str(x->target, y->target));
		g_assert_true(same_str(x->arch, y->arch));
		g_assert_true(same_str(x->image_in, y->image_in));
		if (x->tools != y->tools)
			g_error("edge %u (%s): steps %#x in the candidate, %#x built", i, EDGE_AT(x->outs, 0), x->tools, y->tools);
		g_assert_true(!x->unit == !y->unit);
		if (x->unit) {
			g_assert_true(same_str(x->unit->image, y->unit->image));
			g_assert_true(same_str(x->unit->cubin, y->unit->cubin));
			g_assert_true(same_str(x->unit->ptx, y->unit->ptx));
			g_assert_true(same_str(x->unit->ii, y->unit->ii));
		}
		g_assert_true(!x->rule == !y->rule);
		if (x->rule) {
			g_assert_true(same_str(x->rule->pool_kind, y->rule->pool_kind));
			g_assert_cmpint(x->rule->copy, ==, y->rule->copy);
			g_assert_cmpint(x->rule->split_compile, ==, y->rule->split_compile);
		}
	}
}

/* Each of the 16 groupings, and each with a tail split, lowered as the
 * planner's candidate (no rule rendered) is the graph setup writes for
 * it: edge for edge, in the same order, with the same pools, stub
 * copies and splits. */
static void candidates(gboolean ptx)
{
	Project p = { 0 };
	project_open(&p, "k.cu l.cu main.cpp", ptx);
	GraphInfo info = { 0 };
	GHashTable *split = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_add(split, (gpointer)"obj/t/k.cu.p/sm_80.cubin");
	for (int m = 0; m < 32; m++) {
		Grouping o = { 0 };
		o.pp_edges = m & 1;
		o.ptxas_edges = (m >> 1) & 1;
		o.syntax_stub = (m >> 2) & 1;
		o.host_rank = (m >> 3) & 1;
		if (m & 16) {
			o.split_edges = split;
			o.tail_split = 4;
		}
		Graph *b = graph(&p, &o, &info);
		graph_info_clear(&info);
		Graph *v = lowered(&p, &o, TRUE, &info);
		graph_info_clear(&info);
		if (g_test_verbose())
			g_printerr("grouping %d: %u edges\n", m, v->edges->len);
		same_edges(v, b);
		for (guint i = 0; i < v->edges->len; i++) { /* the CUDA recipe's rules: nothing rendered */
			const Edge *e = g_ptr_array_index(v->edges, i);
			const EdgeKind k = e->kind;
			if (k == EK_FE || k == EK_DEV || k == EK_CICC || k == EK_DEVPP || k == EK_STUB || k == EK_HOST ||
			    k == EK_FATBIN)
				g_assert_null(strchr(e->rule->command, '$'));
		}
		graph_free(v);
		graph_free(b);
	}
	g_hash_table_destroy(split);
	project_close(&p);
}

static void test_steps_candidates(void)
{
	candidates(FALSE);
	candidates(TRUE); /* the fatbin embeds sm_80's PTX too */
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/steps/whole", test_steps_whole);
	g_test_add_func("/steps/grouped", test_steps_grouped);
	g_test_add_func("/steps/candidates", test_steps_candidates);
	return g_test_run();
}
