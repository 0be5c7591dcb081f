/* report.c -- `cugen report`'s model.
 *
 * Owns: one report edge per build statement that ran, its kind
 * and arch from the shared table (kinds.c), its target and TU from
 * cugen's output layout, its job slot; the critical path, the longest
 * chain of dependent edges as they ran; and the groups the tables show
 * (per kind, per arch, per TU). The three outputs are reportfmt.c's.
 */
#include "report.h"

#include <string.h>

/* ---- classification ---- */

const char *report_edge_kind(const char *rule, const char *description, char **arch)
{
	return edge_kind_name(edge_kind_of_rule(rule, description, arch));
}

/* ---- the report ---- */

static void redge_free(gpointer p)
{
	ReportEdge *e = p;
	g_free(e->name);
	g_ptr_array_free(e->outputs, TRUE);
	g_free(e->arch);
	g_free(e->target);
	g_free(e->tu);
	g_free(e->unit);
	g_free(e);
}

void report_free(Report *r)
{
	if (!r)
		return;
	g_ptr_array_free(r->critical, TRUE);
	g_ptr_array_free(r->edges, TRUE);
	g_free(r->project);
	g_free(r);
}

/* Target and TU from cugen's output layout: obj/TARGET/SRC.p/FILE for
 * what a TU makes, obj/TARGET/SRC.o for host TUs; a library or executable
 * is the input of the phony edge named after its target, or (an
 * executable) has that name itself. */
static void place(ReportEdge *e, GHashTable *phony_target)
{
	const char *o = e->name;
	if (g_str_has_prefix(o, "obj/")) {
		const char *t = o + 4, *slash = strchr(t, '/');
		if (!slash || slash == t)
			return;
		e->target = g_strndup(t, slash - t);
		const char *rest = slash + 1;
		const char *p = strstr(rest, ".p/");
		gboolean dlink = e->ek == EK_DLOBJ || e->ek == EK_NVLINK || e->ek == EK_DLFATBIN ||
				 e->ek == EK_DLHOST;
		if (p && p > rest && !dlink)
			e->tu = g_strndup(rest, p - rest);
		else if ((e->ek == EK_CC || e->ek == EK_CXX || e->ek == EK_FATBIN || e->ek == EK_NVCC ||
			  e->ek == EK_IMPORT) && g_str_has_suffix(rest, ".o"))
			e->tu = g_strndup(rest, strlen(rest) - 2);
		if (e->tu)
			e->unit = g_strdup_printf("%s (%s)", e->tu, e->target);
		return;
	}
	const char *t = g_hash_table_lookup(phony_target, o);
	if (t)
		e->target = g_strdup(t);
	else if (strcmp(e->kind, "link") == 0 && !strchr(o, '/'))
		e->target = g_strdup(o);
}

static gint by_start(gconstpointer a, gconstpointer b)
{
	const ReportEdge *x = *(ReportEdge *const *)a, *y = *(ReportEdge *const *)b;
	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	if (x->end_ms != y->end_ms)
		return x->end_ms < y->end_ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The edges of this run that made e's inputs (through phony edges) and
 * finished no later than e started, into out. */
static void ran_preds(const ReportEdge *e, const Manifest *m, GHashTable *by_medge, GHashTable *visited,
		      GPtrArray *todo, GPtrArray *out)
{
	g_ptr_array_set_size(out, 0);
	if (!e->me || !m)
		return;
	g_hash_table_remove_all(visited);
	g_ptr_array_set_size(todo, 0);
	const GPtrArray *lists[] = { e->me->ins, e->me->implicit_ins, e->me->order_ins };
	for (gsize k = 0; k < G_N_ELEMENTS(lists); k++)
		for (guint i = 0; i < lists[k]->len; i++)
			g_ptr_array_add(todo, g_ptr_array_index(lists[k], i));
	while (todo->len) {
		const char *path = g_ptr_array_steal_index_fast(todo, todo->len - 1);
		const ManifestEdge *pe = g_hash_table_lookup(m->producer, path);
		if (!pe || g_hash_table_contains(visited, pe))
			continue;
		g_hash_table_add(visited, (gpointer)pe);
		if (strcmp(pe->rule, "phony") == 0) {
			const GPtrArray *pl[] = { pe->ins, pe->implicit_ins, pe->order_ins };
			for (gsize k = 0; k < G_N_ELEMENTS(pl); k++)
				for (guint i = 0; i < pl[k]->len; i++)
					g_ptr_array_add(todo, g_ptr_array_index(pl[k], i));
			continue;
		}
		ReportEdge *c = g_hash_table_lookup(by_medge, pe);
		if (c && c != e && c->end_ms <= e->start_ms)
			g_ptr_array_add(out, c);
	}
}

/* Earlier end first; an edge's inputs end before it starts, so they come
 * before it. */
static gint by_end(gconstpointer a, gconstpointer b)
{
	const ReportEdge *x = *(ReportEdge *const *)a, *y = *(ReportEdge *const *)b;
	if (x->end_ms != y->end_ms)
		return x->end_ms < y->end_ms ? -1 : 1;
	if (x->start_ms != y->start_ms)
		return x->start_ms < y->start_ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* a is the better end of a chain than b: longer, else ending later. */
static gboolean longer_chain(const ReportEdge *a, const ReportEdge *b)
{
	if (!b || a->chain_ms != b->chain_ms)
		return !b || a->chain_ms > b->chain_ms;
	if (a->end_ms != b->end_ms)
		return a->end_ms > b->end_ms;
	return a->order > b->order;
}

/* The critical path: of the chains of edges where each made an input of
 * the next (all of them run in this build), the one whose durations add
 * up to most. */
static void critical_path(Report *r, const Manifest *m, GHashTable *by_medge)
{
	GPtrArray *v = g_ptr_array_sized_new(r->edges->len); /* (a copy would free the edges) */
	for (guint i = 0; i < r->edges->len; i++)
		g_ptr_array_add(v, g_ptr_array_index(r->edges, i));
	g_ptr_array_sort(v, by_end);
	GHashTable *visited = g_hash_table_new(NULL, NULL);
	GPtrArray *todo = g_ptr_array_new(), *preds = g_ptr_array_new();
	ReportEdge *end = NULL;
	for (guint i = 0; i < v->len; i++) {
		ReportEdge *e = g_ptr_array_index(v, i);
		ran_preds(e, m, by_medge, visited, todo, preds);
		ReportEdge *best = NULL;
		for (guint k = 0; k < preds->len; k++) {
			ReportEdge *p = g_ptr_array_index(preds, k);
			if (longer_chain(p, best))
				best = p;
		}
		e->chain_pred = best;
		e->chain_ms = (e->end_ms - e->start_ms) + (best ? best->chain_ms : 0);
		if (longer_chain(e, end))
			end = e;
	}
	for (ReportEdge *e = end; e; e = e->chain_pred) {
		e->critical = TRUE;
		g_ptr_array_insert(r->critical, 0, e);
	}
	r->critical_ms = end ? end->chain_ms : 0;
	g_ptr_array_free(preds, TRUE);
	g_ptr_array_free(todo, TRUE);
	g_hash_table_destroy(visited);
	g_ptr_array_free(v, TRUE);
}

Report *report_compute(const NinjaLog *log, const Manifest *m)
{
	Report *r = g_new0(Report, 1);
	r->edges = g_ptr_array_new_with_free_func(redge_free);
	r->critical = g_ptr_array_new();
	GHashTable *by_medge = g_hash_table_new(NULL, NULL);
	GHashTable *phony_target = g_hash_table_new(g_str_hash, g_str_equal);
	if (m) {
		for (guint i = 0; i < m->edges->len; i++) {
			const ManifestEdge *me = g_ptr_array_index(m->edges, i);
			if (strcmp(me->rule, "phony") != 0) {
				r->graph_edges++;
				continue;
			}
			const char *name = g_ptr_array_index(me->outs, 0);
			if (me->outs->len != 1 || strcmp(name, "all") == 0 ||
			    g_str_has_prefix(name, "arch-"))
				continue;
			for (guint j = 0; j < me->ins->len; j++)
				g_hash_table_insert(phony_target, g_ptr_array_index(me->ins, j),
						    (gpointer)name);
		}
	}
	/* One report edge per build statement: its outputs' lines together. */
	for (guint i = 0; i < log->latest->len; i++) {
		const NinjaLogEntry *le = g_ptr_array_index(log->latest, i);
		const ManifestEdge *me = m ? g_hash_table_lookup(m->producer, le->output) : NULL;
		if (me && strcmp(me->rule, "phony") == 0)
			me = NULL;
		ReportEdge *e = me ? g_hash_table_lookup(by_medge, me) : NULL;
		if (e) {
			e->start_ms = MIN(e->start_ms, le->start_ms);
			e->end_ms = MAX(e->end_ms, le->end_ms);
			g_ptr_array_add(e->outputs, g_strdup(le->output));
			continue;
		}
		e = g_new0(ReportEdge, 1);
		e->outputs = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(e->outputs, g_strdup(le->output));
		e->start_ms = le->start_ms;
		e->end_ms = le->end_ms;
		e->order = i;
		e->me = me;
		if (me) {
			g_hash_table_insert(by_medge, (gpointer)me, e);
			e->name = g_strdup(g_ptr_array_index(me->outs, 0));
			e->rule = me->rule;
			e->ek = edge_kind_of_rule(me->rule, g_hash_table_lookup(m->rules, me->rule), &e->arch);
			e->kind = edge_kind_name(e->ek);
		} else {
			e->name = g_strdup(le->output);
			e->ek = EK_COUNT;
			e->kind = edge_kind_name(EK_COUNT);
			r->unknown++;
		}
		place(e, phony_target);
		g_ptr_array_add(r->edges, e);
	}
	g_ptr_array_sort(r->edges, by_start);

	/* Job slots: each edge takes the lowest slot free at its start. */
	GArray *slot_end = g_array_new(FALSE, FALSE, sizeof(gint64));
	for (guint i = 0; i < r->edges->len; i++) {
		ReportEdge *e = g_ptr_array_index(r->edges, i);
		guint s = 0;
		while (s < slot_end->len && g_array_index(slot_end, gint64, s) > e->start_ms)
			s++;
		if (s == slot_end->len)
			g_array_append_val(slot_end, e->end_ms);
		else
			g_array_index(slot_end, gint64, s) = e->end_ms;
		e->slot = s + 1;
		r->edge_ms += e->end_ms - e->start_ms;
		r->wall_ms = MAX(r->wall_ms, e->end_ms);
	}
	r->slots = slot_end->len;
	g_array_free(slot_end, TRUE);

	critical_path(r, m, by_medge);
	g_hash_table_destroy(phony_target);
	g_hash_table_destroy(by_medge);
	return r;
}

/* ---- tables ---- */

/* sm_80 < compute_80 < sm_90 < sm_90a < sm_100 */
static int arch_cmp(const char *a, const char *b)
{
	const char *da = a + strcspn(a, "0123456789"), *db = b + strcspn(b, "0123456789");
	long na = strtol(da, NULL, 10), nb = strtol(db, NULL, 10);
	if (na != nb)
		return na < nb ? -1 : 1;
	const char *sa = da + strspn(da, "0123456789"), *sb = db + strspn(db, "0123456789");
	int c = strcmp(sa, sb);
	if (c)
		return c;
	int ra = g_str_has_prefix(a, "sm_") ? 0 : g_str_has_prefix(a, "compute_") ? 1 : 2;
	int rb = g_str_has_prefix(b, "sm_") ? 0 : g_str_has_prefix(b, "compute_") ? 1 : 2;
	return ra != rb ? ra - rb : strcmp(a, b);
}

static gint group_by_time(gconstpointer a, gconstpointer b)
{
	const ReportGroup *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->name, y->name);
}

static gint group_by_arch(gconstpointer a, gconstpointer b)
{
	return arch_cmp(((const ReportGroup *)a)->name, ((const ReportGroup *)b)->name);
}

static gint interval_cmp(gconstpointer a, gconstpointer b)
{
	const gint64 *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

GArray *report_groups(const Report *r, ReportGroupBy by)
{
	GArray *g = g_array_new(FALSE, TRUE, sizeof(ReportGroup));
	GHashTable *idx = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *spans = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	for (guint i = 0; i < r->edges->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->edges, i);
		const char *key = by == GROUP_ARCH ? e->arch : by == GROUP_TU ? e->unit : e->kind;
		if (!key)
			continue;
		gpointer v;
		guint k;
		if (g_hash_table_lookup_extended(idx, key, NULL, &v)) {
			k = GPOINTER_TO_UINT(v);
		} else {
			k = g->len;
			ReportGroup n = { .name = key, .first_ms = e->start_ms, .last_ms = e->end_ms };
			g_array_append_val(g, n);
			g_hash_table_insert(idx, (gpointer)key, GUINT_TO_POINTER(k));
			g_ptr_array_add(spans, g_array_new(FALSE, FALSE, 2 * sizeof(gint64)));
		}
		ReportGroup *gr = &g_array_index(g, ReportGroup, k);
		gint64 d = e->end_ms - e->start_ms;
		gr->n++;
		gr->ms += d;
		if (!gr->longest || d > gr->longest->end_ms - gr->longest->start_ms)
			gr->longest = e;
		gr->first_ms = MIN(gr->first_ms, e->start_ms);
		gr->last_ms = MAX(gr->last_ms, e->end_ms);
		gint64 iv[2] = { e->start_ms, e->end_ms };
		g_array_append_vals(g_ptr_array_index(spans, k), iv, 1);
	}
	/* busy time: the union of the intervals */
	for (guint k = 0; k < g->len; k++) {
		GArray *s = g_ptr_array_index(spans, k);
		g_array_sort(s, interval_cmp);
		gint64 busy = 0, cs = 0, ce = -1;
		for (guint i = 0; i < s->len; i++) {
			gint64 *iv = (gint64 *)(void *)(s->data + i * 2 * sizeof(gint64));
			if (iv[0] > ce) {
				if (ce >= 0)
					busy += ce - cs;
				cs = iv[0];
				ce = iv[1];
			} else {
				ce = MAX(ce, iv[1]);
			}
		}
		if (ce >= 0)
			busy += ce - cs;
		g_array_index(g, ReportGroup, k).busy_ms = busy;
	}
	g_ptr_array_free(spans, TRUE);
	g_hash_table_destroy(idx);
	g_array_sort(g, by == GROUP_ARCH ? group_by_arch : group_by_time);
	return g;
}

static gint by_duration(gconstpointer a, gconstpointer b)
{
	const ReportEdge *x = *(ReportEdge *const *)a, *y = *(ReportEdge *const *)b;
	gint64 dx = x->end_ms - x->start_ms, dy = y->end_ms - y->start_ms;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

GPtrArray *report_top_dev(const Report *r, guint n)
{
	GPtrArray *v = g_ptr_array_new();
	for (guint i = 0; i < r->edges->len; i++) {
		ReportEdge *e = g_ptr_array_index(r->edges, i);
		if (e->ek == EK_DEV || e->ek == EK_CICC || e->ek == EK_NVCC)
			g_ptr_array_add(v, e);
	}
	g_ptr_array_sort(v, by_duration);
	if (v->len > n)
		g_ptr_array_set_size(v, n);
	return v;
}
