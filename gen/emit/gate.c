/* gate.c -- build.ninja as a gate over the full graph; see gate.h.
 *
 * The outer build.ninja holds one edge, `.cugen/gate.stamp`, whose inputs
 * are the full graph's manifest, every file the full graph reads that no
 * edge makes (the sources, user libraries) and, through the depfile
 * .cugen/gate.d, every header the full graph's last build recorded in its
 * deps log; its implicit outputs are the targets' files, so a deleted
 * program or library is rebuilt. When none of that changed, a no-op is one
 * edge. Otherwise `cugen gate` runs ninja on the full graph (which decides,
 * exactly as without the gate, what to rebuild), then writes the depfile
 * and the stamp. The stamp is removed first and dated from the start of the
 * run: a failed or interrupted build, or a file edited while it ran, leaves
 * the gate open.
 *
 * `cugen gate`, which the outer edge runs, is run/gaterun.c's.
 */
#include "gate.h"

#include <stdio.h>
#include <string.h>

#include "ninja.h"
#include "template.h"
#include "util.h"

gboolean gate_wanted(const Config *c, guint real_edges)
{
	switch (c->gate) {
	case GATE_YES:
		return TRUE;
	case GATE_NO:
		return FALSE;
	default:
		return real_edges >= GATE_AUTO_EDGES;
	}
}

gboolean gate_on(const char *builddir)
{
	char *full = g_build_filename(builddir, GATE_FULL, NULL);
	gboolean on = g_file_test(full, G_FILE_TEST_IS_REGULAR);
	g_free(full);
	return on;
}

GString *gate_outer(const Graph *g, const char *header, const char *cugen, GError **err)
{
	/* what the full graph reads that nothing makes (graph_maker; paths
	 * are interned, so pointers compare) */
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GPtrArray *leaves = g_ptr_array_new();
	GPtrArray *finals = g_ptr_array_new();
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (e->kind == EK_REGEN || e->kind == EK_PHONY)
			continue;
		PathList *lists[] = { e->ins, e->implicit_ins };
		for (gsize l = 0; l < G_N_ELEMENTS(lists); l++)
			for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
				char *p = g_ptr_array_index(lists[l], k);
				if (!graph_maker(p) && g_hash_table_add(seen, p))
					g_ptr_array_add(leaves, p);
			}
		if (e->kind == EK_LINK || e->kind == EK_AR || e->kind == EK_SYMLINK)
			for (guint k = 0; k < EDGE_LEN(e->outs); k++)
				g_ptr_array_add(finals, g_ptr_array_index(e->outs, k));
	}

	Graph *o = graph_new();
	char *q = cg_ninja_sh_quote(cugen);
	const char *vars[] = { "CUGEN", q, NULL };
	char *cmd = template_fragment("rule-text.in", "gate", vars);
	Rule *r = graph_rule(o, RULE_GATE, cmd, "cugen gate: the full graph (" GATE_FULL ")", GATE_DEPFILE, "gcc",
			     "console");
	g_free(cmd);
	Edge *e = graph_edge(o, EK_GATE, r);
	edge_out(e, GATE_STAMP);
	edge_in(e, GATE_FULL);
	for (guint i = 0; i < leaves->len; i++)
		edge_implicit_in(e, g_ptr_array_index(leaves, i));

	/* each named target (a target's name, arch-sm_XX, shard), run on
	 * demand; and each target's file, run when it is missing (as an
	 * output of the gate edge, the file's mtime would keep the gate open
	 * after a build that had nothing to relink; with restat, an edit made
	 * while the build ran would be lost) */
	cmd = template_fragment("rule-text.in", "gate-target", vars);
	Rule *fwd = graph_rule(o, RULE_GATE "_target", cmd, "cugen gate: ${target} (" GATE_FULL ")", NULL, NULL, "console");
	g_free(cmd);
	g_free(q);
	GPtrArray *named = g_ptr_array_new();
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *p = g_ptr_array_index(g->edges, i);
		if (p->kind == EK_PHONY && strcmp(EDGE_AT(p->outs, 0), "all") != 0)
			g_ptr_array_add(named, g_ptr_array_index(p->outs, 0));
	}
	g_ptr_array_extend(named, finals, NULL, NULL);
	for (guint i = 0; i < named->len; i++) {
		Edge *f = graph_edge(o, EK_GATE, fwd);
		edge_out(f, g_ptr_array_index(named, i));
		char *t = cg_sh_quote(g_ptr_array_index(named, i));
		edge_var(f, "target", t);
		g_free(t);
	}
	g_ptr_array_free(named, TRUE);
	Edge *all = graph_edge(o, EK_PHONY, NULL);
	edge_out(all, "all");
	edge_in(all, GATE_STAMP);
	for (guint i = 0; i < finals->len; i++)
		edge_in(all, g_ptr_array_index(finals, i));
	g_ptr_array_add(o->defaults, g_strdup("all"));

	/* regeneration: the outer file's (it writes both) */
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *rg = g_ptr_array_index(g->edges, i);
		if (rg->kind != EK_REGEN)
			continue;
		Rule *rr = graph_rule(o, rg->rule->name, rg->rule->command, rg->rule->description, NULL, NULL,
				      rg->rule->pool);
		rr->generator = TRUE;
		Edge *x = graph_edge(o, EK_REGEN, rr);
		for (guint k = 0; k < EDGE_LEN(rg->outs); k++)
			edge_out(x, EDGE_AT(rg->outs, k));
		edge_implicit_out(x, GATE_FULL);
		for (guint k = 0; k < EDGE_LEN(rg->ins); k++)
			edge_in(x, EDGE_AT(rg->ins, k));
		for (guint k = 0; k < EDGE_LEN(rg->implicit_ins); k++)
			edge_implicit_in(x, EDGE_AT(rg->implicit_ins, k));
	}
	GString *text = ninja_write(o, header, NULL, err);
	graph_free(o);
	g_ptr_array_free(leaves, TRUE);
	g_ptr_array_free(finals, TRUE);
	g_hash_table_destroy(seen);
	return text;
}
