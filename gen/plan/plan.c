/* plan.c -- the planner's choices and their reasons (plan_make): the
 * groupings weighed, each the project lowered as a candidate
 * (edges_lower), the tail split as an annotation, and the lowering of
 * the one chosen with its rules. See plan.h, and plan_int.h for the
 * other files of the planner. */
#include "plan_int.h"

#include <math.h>
#include <string.h>

#include "spawn.h"
#include "tuscan.h"
#include "util.h"

/* (every number the planner decides by: planknobs.h) */

void plan_settle(Plan *p)
{
	pl_guess_join(p);
}

void plan_clear(Plan *p)
{
	if (p->chosen.split_edges)
		g_hash_table_destroy(p->chosen.split_edges);
	pg_free(p->costed);
	pl_guess_join(p);
	if (p->scans)
		g_hash_table_destroy(p->scans);
	if (p->scan_tus)
		g_hash_table_destroy(p->scan_tus);
	if (p->scan_target_dirs)
		g_hash_table_destroy(p->scan_target_dirs);
	if (p->scan_dirs)
		g_ptr_array_free(p->scan_dirs, TRUE);
	g_free(p->scan_implicit);
	tuscan_free(p->scanner);
	if (p->why)
		g_ptr_array_free(p->why, TRUE);
	memset(p, 0, sizeof *p);
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
static gboolean prefer(double t_alt, double t_cur, int prev, const Bars *b)
{
	const double change = MAX(b->change, CHANGE_FLOOR);
	if (prev == 1)
		return !(t_cur < (1 - change) * t_alt && t_alt - t_cur >= CHANGE_SECONDS);
	if (prev == 0)
		return t_alt < (1 - change) * t_cur && t_cur - t_alt >= CHANGE_SECONDS;
	return t_alt < b->margin * t_cur && t_cur - t_alt >= b->gain;
}

/* A candidate graph's expected wall time: its pools sized (quietly) and
 * its edges ordered for the shortest simulated build under varied costs
 * (order_best). Large graphs are not simulated: the work over the cores,
 * or the critical path. */
static double evaluate(PlanGraph *pg, Plan *p, int threads, const char **how)
{
	pl_size_pools(pg, p, threads, FALSE);
	if (pg->n > SIM_EDGES) {
		double cpl, work;
		pl_bottom_levels(pg, &cpl, &work);
		pl_order_edges(pg, -1, NULL);
		*how = "longest remaining chain first";
		return MAX(work / MAX(p->cores, 1), cpl);
	}
	/* the estimates' spread: wide before anything was measured; large
	 * graphs (no alternatives to weigh) are simulated as estimated */
	const Spread measured = { SPREAD_EDGE, 0, SPREAD_SAMPLES };
	const Spread guessed = { SPREAD_EDGE, SPREAD_TU, SPREAD_GUESSED_SAMPLES };
	const Spread *sp = pg->n > PLAN_GROUP_EDGES ? NULL : p->measured * 2 >= p->edges ? &measured : &guessed;
	return pl_order_best(pg, p, threads, sp, how);
}

/* A choice that changes the graph, for plan_make to weigh: how cugen
 * plan words it taken and not, the last setup's choice (prev: 1 took
 * it, 0 did not, -1 none), its bars, and whether it must add edges to
 * differ. */
typedef struct {
	const char *taken, *taken_short, *kept, *kept_short;
	int prev;
	Bars bars;
	gboolean adds_edges;
} Alternative;

/* What the weighing of groupings shares: its inputs, the project the
 * candidates are lowered from, and the grouping chosen so far with its graph as the planner sees it,
 * its expected wall time and the edge order that gives it. */
typedef struct {
	const Config *c;
	const History *h;
	const GraphInfo *info;
	Plan *p;
	const Resolved *r;    /* the project, lowered for each grouping weighed */
	const EdgeInputs *in;
	GError *err;          /* a candidate's lowering failed (none ever should) */
	int threads;          /* the cores one device job keeps busy (pools) */
	PlanGraph *g;         /* the grouping chosen so far: its view */
	Grouping ch;
	double t;
	const char *how;
} Weigh;

static void annotate_split(PlanGraph *pg, GHashTable *set, int sc, const Config *c);

/* A candidate: the lowering of a set of choices for the planner (its
 * rules not rendered: edges_lower's plan_only), with their tail split as
 * an annotation, costed: t and how once evaluated. */
typedef struct {
	PlanGraph *pg;
	double t;
	const char *how;
} Candidate;

/* r lowered for ch, as the planner sees it (it owns it): a candidate
 * (plan_only) or the graph to write; NULL (and err) when the lowering
 * fails. */
static PlanGraph *lowered(const Resolved *r, const EdgeInputs *in, const Grouping *ch, gboolean plan_only,
			  GraphInfo *info, GError **err)
{
	Graph *g = edges_lower(r, in, ch, plan_only, info, err);
	return g ? pg_new(g, TRUE) : NULL;
}

static gboolean view_candidate(Weigh *w, Candidate *k, const Grouping *alt)
{
	memset(k, 0, sizeof *k);
	GraphInfo info;
	k->pg = w->err ? NULL : lowered(w->r, w->in, alt, TRUE, &info, &w->err);
	if (!k->pg)
		return FALSE;
	graph_info_clear(&info);
	if (alt->split_edges && alt->tail_split > 1)
		annotate_split(k->pg, alt->split_edges, alt->tail_split, w->c);
	pl_set_costs(k->pg, w->h, w->c, w->info, alt->threads, alt->pp_edges, w->p);
	return TRUE;
}

/* Whether to take alternative a (expected t_alt against t_cur), with
 * cugen plan's line for it: the choice and its expected time, then the
 * other's. Where the choice is not the faster (as shown, to the second),
 * the line says what kept it: the last setup's choice (a switch must
 * save a share of the build and CHANGE_SECONDS), or the bar the faster
 * one did not clear (or the one the slower cleared). */
static gboolean decide(const Alternative *a, double t_alt, double t_cur, Plan *p)
{
	/* Before anything is measured every cost is a guess times the
	 * machine's speed: the bars' seconds are weighed in the guesses'
	 * own (the reference machine's), so that no choice, and no code a
	 * choice changes (the tail split), depends on a probe's reading. */
	const double k = p->measured == 0 && p->speed.used ? p->speed.speed : 1;
	const Bars first = { a->bars.margin, a->bars.gain, 0 };
	const gboolean fresh = prefer(t_alt / k, t_cur / k, -1, &first);
	const gboolean take = prefer(t_alt / k, t_cur / k, a->prev, &a->bars);
	const double t_ch = take ? t_alt : t_cur, t_other = take ? t_cur : t_alt;
	GString *why = g_string_new(NULL);
	g_string_printf(why, "%s: expected %.*f s (%s: %.*f s", take ? a->taken : a->kept, PLAN_SECS(t_ch),
			take ? a->kept_short : a->taken_short, PLAN_SECS(t_other));
	const gboolean slower = PLAN_SHOWN(t_ch) > PLAN_SHOWN(t_other);
	if (a->prev >= 0 && fresh != take) {
		g_string_append_printf(why, "; the last setup's choice, kept: a switch must save %.0f%% and %d s",
				       100 * MAX(a->bars.change, CHANGE_FLOOR), CHANGE_SECONDS);
	} else if (slower && take) {
		g_string_append_printf(why, "; taken unless %.0f%% slower", 100 * (a->bars.margin - 1));
	} else if (slower) {
		g_string_append_printf(why, "; taken only when %.0f%% faster", 100 * (1 - a->bars.margin));
		if (a->bars.gain > 0)
			g_string_append_printf(why, " and %.0f s", a->bars.gain * k);
	} else if (!take && t_alt < t_cur) {
		g_string_append_printf(why, ", short of the %.0f%%", 100 * (1 - a->bars.margin));
		if (a->bars.gain > 0)
			g_string_append_printf(why, " and %.0f s", a->bars.gain * k);
		g_string_append(why, " that would take it");
	}
	g_string_append(why, ")");
	g_ptr_array_add(p->why, g_string_free(why, FALSE));
	return take;
}

/* Keeps whichever of the evaluated candidate k (choices alt) and the
 * grouping chosen so far decide() picks; k is used up. */
static void weigh(Weigh *w, const Alternative *a, const Grouping *alt, Candidate *k)
{
	if (decide(a, k->t, w->t, w->p)) {
		pg_free(w->g);
		w->g = k->pg;
		w->ch = *alt;
		w->t = k->t;
		w->how = k->how;
	} else {
		pg_free(k->pg);
	}
}

/* The candidate for the alternative choices (alt), simulated; keeps
 * whichever of it and the grouping so far prefer() picks. */
static void try_alternative(Weigh *w, const Alternative *a, const Grouping *alt)
{
	Candidate k;
	if (!view_candidate(w, &k, alt))
		return;
	k.t = !a->adds_edges || k.pg->n > w->g->n ? evaluate(k.pg, w->p, w->threads, &k.how) : w->t;
	weigh(w, a, alt, &k);
}

/* A device compile that a tail split can take (edges.c splits no LTO
 * image): an edge that runs cicc for a device image, a whole device edge
 * or with ptxas edges a cicc edge (the long part; its ptxas edge is split
 * with it). */
static gboolean splittable(const Edge *e)
{
	return (e->kind == EK_CICC || e->kind == EK_DEV) && e->unit && (e->tools & TOOL_CICC) &&
	       !(e->tools & TOOL_LTO);
}

/* The name a split set knows a device compile by (edges.c's too): its
 * image, the whole device edge's first output, however it is grouped. */
static char *split_key(const Edge *e)
{
	return g_strdup(e->unit->image);
}

/* The first outputs of the k device edges whose chains end last in g's
 * simulated build (as ordered, with its estimated costs: the start plus
 * the edge's bottom level): the edges that start last, and those on the
 * critical path. A set of strings it owns. */
static GHashTable *last_device_edges(PlanGraph *pg, const Plan *p, int threads, guint k)
{
	const Graph *g = pg->g;
	guint n = g->edges->len;
	double *start = g_new0(double, MAX(n, 1));
	pl_simulate(pg, p, threads, start, NULL);
	GArray *dev = g_array_new(FALSE, FALSE, sizeof(Ranked));
	for (guint i = 0; i < n; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		if (splittable(e)) {
			PlanNode *x = pg_node(pg, e);
			Ranked r = { x, start[i] + x->level + i * 1e-9, FALSE }; /* ties: later in the file */
			g_array_append_val(dev, r);
		}
	}
	g_free(start);
	pl_sort_ranked((Ranked *)(void *)dev->data, dev->len); /* latest first */
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < MIN(k, dev->len); i++)
		g_hash_table_add(set, split_key(g_array_index(dev, Ranked, i).n->e));
	g_array_free(dev, TRUE);
	return set;
}

/* The edges edges.c splits for set (first outputs of device edges) with
 * --split-compile sc: each device edge in it and, with ptxas edges, its
 * cicc edge; none with the cache or for LTO images. Marks them in
 * their nodes' split (0: none), so that the simulation weighs the split
 * on this graph as built, without building it again (lower() does at
 * the end). */
static void annotate_split(PlanGraph *pg, GHashTable *set, int sc, const Config *c)
{
	const Graph *g = pg->g;
	for (guint i = 0; i < g->edges->len; i++) {
		Edge *e = g_ptr_array_index(g->edges, i);
		pg_node(pg, e)->split = 0;
		if (!set || c->cache_dir || (e->kind != EK_DEV && e->kind != EK_CICC) || !e->unit || (e->tools & TOOL_LTO))
			continue;
		char *key = split_key(e);
		if (g_hash_table_contains(set, key))
			pg_node(pg, e)->split = sc;
		g_free(key);
	}
}

static gint by_serial(gconstpointer a, gconstpointer b)
{
	const Edge *x = *(Edge *const *)a, *y = *(Edge *const *)b;
	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* The edges back in the order edges.c made them: where a freshly built
 * graph's evaluation starts. */
static void built_order(Graph *g)
{
	g_ptr_array_sort(g->edges, by_serial);
}

/* The tail split (profile split_compile = auto or tail, 4 cores or
 * more): at the end of a build, the last device compiles run while cores
 * idle (nothing else is left to start). nvcc --split-compile runs parts
 * of their cicc and ptxas in parallel: shorter edges for the same CPU
 * time, but other code, so it must save 5% and 2 s (cugen plan and the
 * shard manifest say so; split_compile = 0 keeps plain nvcc's code).
 * Tries the last cores/4, cores/2 and cores device edges by where their
 * chains end (a set from the last setup stays unless dropping it saves
 * 10%: a change reruns the edges it moves). Each set is an annotation
 * of *g's edges (annotate_split), simulated from *g's built order; the
 * one taken stays annotated, with the order its simulation chose. */
static void try_tail_split(const Weigh *w, PlanGraph *pg, Grouping *ch, double *t, const char **how)
{
	const Config *c = w->c;
	const History *h = w->h;
	Plan *p = w->p;
	const int threads = w->threads;
	Graph *g = pg->g;
	const int sc = TAIL_SC(p->cores);
	guint ndev = 0;
	for (guint i = 0; i < g->edges->len; i++)
		ndev += splittable(g_ptr_array_index(g->edges, i));
	if (!ndev)
		return;
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
			if (graph_maker(graph_intern(g, *s)))
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
				g_ptr_array_add(sets, last_device_edges(pg, p, threads, k));
			last = k;
		}
	}
	/* the fastest of them (the first of equals; the guessed set unless
	 * another saves 2 s), against none; the counts of measured edges
	 * that the simulation's spread depends on are g's (p has those of
	 * the last graph costed, maybe one not kept) */
	pl_set_costs(pg, h, c, w->info, ch->threads, ch->pp_edges, p);
	const guint n = g->edges->len;
	gpointer *order = g_memdup2(g->edges->pdata, n * sizeof(gpointer));
	gpointer *best_order = g_new(gpointer, n);
	double best_t = 0;
	const char *best_how = NULL;
	GHashTable *best = NULL;
	guint best_i = 0;
	for (guint i = 0; i < sets->len; i++) {
		built_order(g);
		annotate_split(pg, g_ptr_array_index(sets, i), sc, c);
		const char *k_how;
		double k_t = evaluate(pg, p, threads, &k_how);
		const double bar = guessed && best_i == 0 ? CHANGE_SECONDS : 0;
		if (!best || k_t < best_t - bar) {
			best = g_ptr_array_index(sets, i);
			best_i = i;
			best_t = k_t;
			best_how = k_how;
			memcpy(best_order, g->edges->pdata, n * sizeof(gpointer));
		}
	}
	char *taken = g_strdup_printf("nvcc --split-compile %d for the %u device compiles whose chains end last "
				      "(cores would idle; note: it changes their code, the shard manifest says so)",
				      sc, g_hash_table_size(best));
	char *taken_short = g_strdup_printf("with --split-compile %d for the last %u", sc, g_hash_table_size(best));
	Alternative a = { .taken = taken,
			  .taken_short = taken_short,
			  .kept = "no --split-compile for the device compiles whose chains end last",
			  .kept_short = "without",
			  .prev = prev,
			  .bars = TAIL_SPLIT_BARS };
	if (guessed) { /* measured: any 2 s keep the guessed set; another as new */
		a.prev = -1;
		if (best_i == 0)
			a.bars.margin = 1;
	}
	if (decide(&a, best_t, *t, p)) {
		annotate_split(pg, best, sc, c);
		memcpy(g->edges->pdata, best_order, n * sizeof(gpointer));
		ch->split_edges = best;
		ch->tail_split = sc;
		*t = best_t;
		*how = best_how;
	} else {
		annotate_split(pg, NULL, sc, c);
		memcpy(g->edges->pdata, order, n * sizeof(gpointer));
	}
	g_free(taken);
	g_free(taken_short);
	g_free(order);
	g_free(best_order);
	for (guint i = 0; i < sets->len; i++)
		if (g_ptr_array_index(sets, i) != ch->split_edges)
			g_hash_table_destroy(g_ptr_array_index(sets, i));
	g_ptr_array_free(sets, TRUE);
}

/* The graph to write for the choices the candidate *g stands for (its
 * grouping and tail split): the same lowering with its rules rendered,
 * costed as *g was and ordered as its simulation chose (edge for edge by
 * serial: the lowering makes them in one order). *g (the candidate,
 * freed) and *info are then the written graph's; *g does not own it. On
 * an error they are left as they were. */
static gboolean lower(PlanGraph **g, GraphInfo *info, const Grouping *ch, const Resolved *r, const EdgeInputs *in,
		      const History *h, const Config *c, Plan *p, GError **err)
{
	GraphInfo li;
	Graph *l = edges_build(r, in, ch, &li, err);
	if (!l)
		return FALSE;
	const Graph *v = (*g)->g;
	const guint n = v->edges->len;
	gboolean same = l->edges->len == n;
	PlanGraph *pl = NULL;
	if (same) {
		pl = pg_new(l, FALSE);
		pl_set_costs(pl, h, c, &li, ch->threads, ch->pp_edges, p);
		double cpl, work; /* (its walk order as a fresh graph's: the sums in the same order) */
		pl_bottom_levels(pl, &cpl, &work);
		gpointer *made = g_memdup2(l->edges->pdata, n * sizeof(gpointer));
		for (guint i = 0; same && i < n; i++) {
			const Edge *ve = v->edges->pdata[i];
			const Edge *e = l->edges->pdata[i] = made[ve->serial];
			same = e->kind == ve->kind && EDGE_LEN(e->outs) == EDGE_LEN(ve->outs) &&
			       (!EDGE_LEN(e->outs) || strcmp(EDGE_AT(e->outs, 0), EDGE_AT(ve->outs, 0)) == 0);
		}
		g_free(made);
	}
	if (!same) {
		pg_free(pl);
		graph_free(l);
		graph_info_clear(&li);
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "internal error: the lowering with rules is not the candidate the planner simulated");
		return FALSE;
	}
	pg_free(*g);
	graph_info_clear(info);
	*g = pl;
	*info = li;
	return TRUE;
}

/* auto (and tail, its older name) leave --split-compile to the planner;
 * [cuda] reproducible = yes: plain nvcc's code, whatever the profile */
static gboolean split_compile_auto(const Config *c)
{
	return !c->reproducible && c->profile->split_compile == PROFILE_AUTO;
}

int plan_profile_split_compile(const Config *c)
{
	return split_compile_auto(c) || c->reproducible ? 0 : MAX(c->profile->split_compile, 0);
}

/* The machine planned for: its cores and memory, or the profile's. */
static void plan_machine(Plan *p, const Profile *pr, const Machine *m)
{
	p->cores = m->cores;
	p->cores_from = m->cores_from;
	if (pr->jobs > 0) {
		p->cores = pr->jobs;
		p->cores_from = "profile jobs";
	}
	/* the speed probe runs the build's jobs at once, but no more
	 * threads than this machine has cores: more would measure their
	 * time-slicing, which CPU seconds do not count */
	if (p->speed.speed <= 0)
		p->speed.probe_jobs = MAX(MIN(p->cores, m->cores), 1);
	p->memory = m->memory ? m->memory : (guint64)(DEFAULT_MEMORY_GIB * GiB);
	p->memory_from = m->memory ? m->memory_from : "unknown, assumed";
	if (pr->memory > 0) {
		p->memory = pr->memory;
		p->memory_from = "profile memory";
	}
}

/* The groupings weighed, each a candidate simulated against
 * the grouping chosen so far (w): the stub's source, pp edges, the tail
 * split with and without ptxas edges, and last the rank stamps. */
static void weigh_groupings(Weigh *w, gboolean sc_auto)
{
	Plan *p = w->p;
	const History *h = w->h;
	/* The host compile waiting for a whole device compile may set
	 * the critical path. Try the stub from a syntax-only edge (more
	 * CPU, shorter chain). */
	Alternative syntax = { .taken = "host stub from a syntax-only edge",
			       .taken_short = "a syntax-only stub edge",
			       .kept = "host stub from the first arch's device edge",
			       .kept_short = "from the first arch's device edge",
			       .prev = h ? h->syntax_stub : -1,
			       .bars = SYNTAX_STUB_BARS };
	Grouping alt = w->ch;
	alt.syntax_stub = TRUE;
	if (!p->no_syntax_stub)
		try_alternative(w, &syntax, &alt);
	/* While the front ends run (the device compiles need their
	 * module ids), cores may idle. Try the device preprocesses as
	 * their own edges, which need no id (7 more edges per TU; not
	 * with the cache, which keys the device edge by its preprocess:
	 * edges.c then adds none). */
	Alternative pp = { .taken = "device preprocesses as their own edges, beside the front ends",
			   .taken_short = "as their own edges",
			   .kept = "device preprocesses inside the device edges",
			   .kept_short = "inside the device edges",
			   .prev = h ? h->pp_edges : -1,
			   .bars = PP_EDGES_BARS,
			   .adds_edges = TRUE };
	alt = w->ch;
	alt.pp_edges = TRUE;
	if (!p->no_pp_edges)
		try_alternative(w, &pp, &alt);
	/* The tail split, and cicc and ptxas as edges of their own (not
	 * for LTO images, PTX-only archs or with the cache: edges.c then
	 * adds none): smaller edges pack tighter, at the end of a build
	 * above all, and an error in the estimates costs less; the same
	 * commands run, the PTX stays on disk. Each way gets a tail
	 * split of its own (A: device edges whole, B: ptxas edges), and
	 * B is weighed against A. Only the kept way's lines stay in
	 * `cugen plan`. */
	const Grouping before = w->ch;
	const guint a0 = p->why->len;
	if (sc_auto && p->cores >= TAIL_CORES)
		try_tail_split(w, w->g, &w->ch, &w->t, &w->how);
	const guint a1 = p->why->len;
	Grouping b = before;
	b.ptxas_edges = TRUE;
	Candidate kb;
	if (!p->whole_device && p->cores > 1 && view_candidate(w, &kb, &b)) {
		/* (a graph over 4,000 edges would be simulated without the
		 * spread of costs that A's was) */
		if (kb.pg->n > w->g->n && kb.pg->n <= PLAN_GROUP_EDGES) {
			kb.t = evaluate(kb.pg, p, w->threads, &kb.how);
			if (sc_auto && p->cores >= TAIL_CORES)
				try_tail_split(w, kb.pg, &b, &kb.t, &kb.how);
			const guint b1 = p->why->len;
			Alternative px = { .taken = "cicc and ptxas as edges of their own",
					   .taken_short = "as edges of their own",
					   .kept = "cicc and ptxas in one device edge",
					   .kept_short = "in one device edge",
					   .prev = h ? h->ptxas_edges : -1,
					   .bars = PTXAS_EDGES_BARS,
					   .adds_edges = TRUE };
			GHashTable *a_split = w->ch.split_edges;
			if (p->dev_measured == 0) {
				/* Guessed costs (no device compile measured): a
				 * first build does not know which TU is heavy,
				 * and small edges suffer least from that */
				px.taken = "cicc and ptxas as edges of their own (nothing measured yet: "
					   "small edges suffer least from wrong guesses)";
				px.bars = PTXAS_EDGES_GUESSED_BARS;
			}
			weigh(w, &px, &b, &kb);
			if (w->ch.ptxas_edges) { /* B: A's tail split lines and set go */
				g_ptr_array_remove_range(p->why, a0, a1 - a0);
				if (a_split && a_split != w->ch.split_edges)
					g_hash_table_destroy(a_split);
			} else {
				g_ptr_array_remove_range(p->why, a1, b1 - a1);
				if (b.split_edges && b.split_edges != w->ch.split_edges)
					g_hash_table_destroy(b.split_edges);
			}
		} else {
			pg_free(kb.pg);
		}
	}
	/* The stamp edges (plan_make) against none, with the rest chosen
	 * with them. */
	if (w->ch.host_rank) {
		Alternative norank = {
			.taken = "host compiles ranked by ninja after the device compiles (no stamp edges)",
			.taken_short = "without stamp edges",
			.kept = "host compiles ranked ahead in ninja's order (two stamp edges after each)",
			.kept_short = "with stamp edges",
			.prev = h && h->host_rank >= 0 ? !h->host_rank : -1,
			.bars = NO_RANK_BARS };
		alt = w->ch;
		alt.host_rank = FALSE;
		try_alternative(w, &norank, &alt);
	}
}

Graph *plan_make(const Config *c, const Machine *m, History *h, const Resolved *r, const EdgeInputs *in,
		 GraphInfo *info, Plan *p, GError **err)
{
	const Profile *pr = c->profile;
	p->why = g_ptr_array_new_with_free_func(g_free);
	plan_machine(p, pr, m);
	pl_guess_init(p, r);
	if (history_none(h))
		pl_guess_prefetch(p, c);
	Grouping ch = { 0 };
	if (pr->threads != PROFILE_AUTO)
		ch.threads = pr->threads;
	const gboolean sc_auto = split_compile_auto(c);
	ch.split_compile = plan_profile_split_compile(c);
	/* A graph that may be small enough to weigh its groupings: each set
	 * of choices lowered as a candidate (no rule rendered), and the one
	 * chosen lowered again with its rules at the end; else lowered once */
	gboolean group = p->may_group;
	PlanGraph *g = lowered(r, in, &ch, group, info, err);
	history_join(h); /* (read while the graph was lowered; used from here on) */
	if (!g)
		return NULL;
	cg_timing("graph");
	p->mem_from = h && h->lines ? "measured in the last build" : "defaults (nothing measured yet)";
	if (pr->job_memory > 0)
		p->mem_from = "profile job_memory";
	int archs = MAX((int)info->device_archs, 1);
	int ntu = (int)info->cuda_tus;

	if (info->split_tu_targets) {
		/* split = tu: nvcc per TU; --threads when TUs are fewer than cores */
		if (pr->threads == PROFILE_AUTO) {
			int t = ntu >= p->cores ? 1 : MIN(archs, (p->cores + ntu - 1) / MAX(ntu, 1));
			ch.threads = t > 1 ? t : 0;
			pl_why(p, "nvcc --threads %d: %d TUs for %d cores, %d archs each", MAX(t, 1), ntu, p->cores, archs);
		} else {
			pl_why(p, "nvcc --threads %d (profile threads)", ch.threads);
		}
		/* (never --split-compile unasked: one nvcc per TU compiles
		 * what plain nvcc does; --threads does not change the code) */
		if (ch.threads || ch.split_compile) {
			pg_free(g);
			graph_info_clear(info);
			if (!(g = lowered(r, in, &ch, group, info, err)))
				return NULL;
		}
	}
	/* Alternatives for small graphs (a simulated build each decides) */
	const gboolean small = group && ntu && !info->split_tu_targets && g->n <= PLAN_GROUP_EDGES;
	if (group && !small) {
		pg_free(g);
		group = FALSE;
		graph_info_clear(info);
		if (!(g = lowered(r, in, &ch, FALSE, info, err)))
			return NULL;
	}
	if (!small && g->n > SIM_EDGES && p->made) /* (final: lowered once more only when small) */
		p->made(g->g, p->made_data);
	if (ch.split_compile > 1)
		pl_why(p, "--split-compile %d (profile split_compile); note: it changes the generated code", ch.split_compile);
	if (c->reproducible)
		pl_why(p, "no --split-compile ([cuda] reproducible = yes): the code plain nvcc makes");

	pl_set_costs(g, h, c, info, ch.threads, ch.pp_edges, p);
	cg_timing("set_costs");
	Weigh w = { c, h, info, p, r, in, NULL, MAX(MAX(ch.threads, ch.split_compile), 1), g, ch, 0, NULL };
	if (g->n <= SIM_EDGES && !probe_ninja(p, err)) {
		pg_free(g);
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
	if (small && p->depth_first && !p->no_rank && p->cores >= TAIL_CORES && (sc_auto || p->dev_measured > 0)) {
		w.ch.host_rank = TRUE;
		p->rank_considered = TRUE;
		pg_free(w.g);
		GraphInfo ri;
		if (!(w.g = lowered(r, in, &w.ch, TRUE, &ri, err))) {
			graph_info_clear(info);
			return NULL;
		}
		graph_info_clear(&ri);
		pl_set_costs(w.g, h, c, info, w.ch.threads, w.ch.pp_edges, p);
	}
	w.t = evaluate(w.g, p, w.threads, &w.how);
	cg_timing("costs");
	if (small)
		weigh_groupings(&w, sc_auto);
	g = w.g;
	ch = w.ch;
	if (w.err) {
		g_propagate_error(err, w.err);
		pg_free(g);
		graph_info_clear(info);
		return NULL;
	}
	const gboolean lowered = !group || lower(&g, info, &ch, r, in, h, c, p, err);
	if (!lowered) {
		pg_free(g);
		return NULL;
	}
	g->owns = FALSE; /* the caller's */
	p->chosen = ch;
	if (!ch.split_edges)
		p->chosen.tail_split = 0;
	if (small) /* the counts of measured edges were the last candidate's */
		pl_set_costs(g, h, c, info, ch.threads, ch.pp_edges, p);
	/* g is ordered (its evaluate); the pools again, announced */
	pl_size_pools(g, p, w.threads, TRUE);
	p->estimate = w.t;
	double cpl = 0, work = 0;
	pl_bottom_levels(g, &cpl, &work);
	cg_timing("order");
	p->critical_path = cpl;
	p->work = work;
	if (p->scanned && pr->job_memory <= 0 && !(h && h->lines))
		p->mem_from = "guessed from each CUDA TU's text (nothing measured yet)";
	if (p->scanned) {
		guint tus = 0, heavy = pl_scans_heavy(p, &tus);
		pl_why(p, "costs: %u of %u edges guessed from their TU's text (%u CUDA TU%s read, %u of them reaching "
			  "CUB, Thrust, CUTLASS or CuTe; cugen plan -v says what each holds), %u measured",
		       p->scanned, p->edges, tus, tus == 1 ? "" : "s", heavy, p->measured);
	}
	if (p->speed.used && p->speed.probe_cpu > 0)
		pl_why(p, "speed: guesses at %.2fx the reference machine's seconds, from %s (%.3f CPU s a job, %d at "
			  "once, against %.3f s on the reference: the 2-core box they were fitted on)",
		       p->speed.speed, p->speed.from, p->speed.probe_cpu, p->speed.probe_jobs, SPEED_REFERENCE_CPU);
	else if (p->speed.used && p->speed.speed != 1) /* (1: the guesses as they are) */
		pl_why(p, "speed: guesses at %.2fx the reference machine's seconds, from %s", p->speed.speed, p->speed.from);
	if (g->n > SIM_EDGES)
		pl_why(p, "edge order: longest remaining chain first (critical path %.*f s of %.*f CPU s; %u of %u edges measured)",
		       PLAN_SECS(cpl), PLAN_SECS(work), p->measured, p->edges);
	else
		pl_why(p, "edge order: %s (critical path %.*f s of %.*f CPU s; %u of %u edges measured; simulated with %s %s: %.*f s)",
		       w.how, PLAN_SECS(cpl), PLAN_SECS(work), p->measured, p->edges, *p->ninja_version ? "ninja" : "ninja 1.11's scheduling,",
		       *p->ninja_version ? p->ninja_version : "no ninja on PATH", PLAN_SECS(p->estimate));
	pl_guess_join(p); /* (a copy of p costs the trace) */
	pl_write_trace(g, p, c, info, w.threads);
	p->costed = g;
	return g->g;
}

