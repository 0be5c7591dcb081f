/* report.c -- `cugen report [-B BUILDDIR] [-o DIR]`; see report.h.
 *
 * Owns the output formats:
 *   DIR/trace.json   {"traceEvents":[...]} with one complete event
 *                    ("ph":"X", ts and dur in microseconds, pid 1, tid the
 *                    job slot from 1) per edge of the latest run, named by
 *                    the edge's first output, cat its kind, args kind,
 *                    rule, arch, target, tu, outputs, critical; metadata
 *                    events name the process and the slots; otherData
 *                    holds the totals.
 *   DIR/report.html  templates/report.html.in: an SVG timeline (a row per
 *                    slot, a <rect class="bar kind-KIND[ arch-ARCH][ crit]">
 *                    per edge, with a <title> tooltip) and the tables.
 *   stdout           the summary: totals, the critical path, per kind and
 *                    per arch (layout in report_summary()).
 * Edge kinds are the rule names setup writes (edges.c), a "_N" suffix
 * marking a variant: cuda_fe fe, cuda_dev_ID dev, cuda_stub_* stub,
 * cuda_host host, cuda_fatbin fatbin, cuda_nvcc nvcc, cuda_dlobj_ID
 * dlink-obj, cuda_nvlink_ID nvlink, cuda_dlink_fatbin dlink-fatbin,
 * cuda_dlink_host dlink-host, cuda_import import (cugen combine),
 * cuda_manifest manifest (ninja shard), cc, cxx, ar, link, regen;
 * anything else is "other". The arch of dev, dlink-obj and nvlink edges is
 * the sm_/compute_/lto_ word of the rule's description ("CUDA sm_90
 * ${out}"), else sm_ID from the rule's name.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gate.h"
#include "template.h"
#include "util.h"

/* ---- classification ---- */

/* rule is stem, or stem followed by "_" and digits (a variant). */
static gboolean stem_is(const char *rule, const char *stem)
{
	gsize n = strlen(stem);
	if (strncmp(rule, stem, n) != 0)
		return FALSE;
	if (!rule[n])
		return TRUE;
	if (rule[n] != '_' || !rule[n + 1])
		return FALSE;
	for (const char *p = rule + n + 1; *p; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	return TRUE;
}

/* An arch word: sm_90, compute_90, lto_90, sm_90a, sm_100f. */
static gboolean is_arch_word(const char *s, gsize n)
{
	gsize p = 0;
	if (n > 3 && strncmp(s, "sm_", 3) == 0)
		p = 3;
	else if (n > 8 && strncmp(s, "compute_", 8) == 0)
		p = 8;
	else if (n > 4 && strncmp(s, "lto_", 4) == 0)
		p = 4;
	else
		return FALSE;
	gsize d = p;
	while (d < n && g_ascii_isdigit(s[d]))
		d++;
	if (d == p)
		return FALSE;
	return d == n || (d + 1 == n && g_ascii_islower(s[d]));
}

static char *arch_in_description(const char *desc)
{
	if (!desc)
		return NULL;
	for (const char *p = desc; *p;) {
		while (*p == ' ')
			p++;
		gsize n = strcspn(p, " ");
		if (is_arch_word(p, n))
			return g_strndup(p, n);
		p += n;
	}
	return NULL;
}

/* "sm_ID" from a rule named PREFIX + ID (+ "_N"). */
static char *arch_in_rule(const char *rule, const char *prefix)
{
	const char *id = rule + strlen(prefix);
	gsize n = strcspn(id, "_");
	if (!n)
		return NULL;
	char *a = g_strdup_printf("sm_%.*s", (int)n, id);
	if (!is_arch_word(a, strlen(a)))
		g_clear_pointer(&a, g_free);
	return a;
}

const char *report_edge_kind(const char *rule, const char *description, char **arch)
{
	static const struct {
		const char *stem;
		gboolean prefix;  /* stem is a prefix: stem + ID (+ _N) */
		const char *kind;
		gboolean has_arch;
	} kinds[] = {
		{ "cuda_fe", FALSE, "fe", FALSE },
		{ "cuda_dev_", TRUE, "dev", TRUE },
		/* ptxas edges: cicc and ptxas apart, the device compile's parts */
		{ "cuda_cicc_", TRUE, "dev", TRUE },
		{ "cuda_ptxas_", TRUE, "dev", TRUE },
		{ "cuda_stub_", TRUE, "stub", FALSE },
		{ "cuda_host", FALSE, "host", FALSE },
		{ "cuda_fatbin", FALSE, "fatbin", FALSE },
		{ "cuda_nvcc", FALSE, "nvcc", FALSE },
		{ "cuda_dlobj_", TRUE, "dlink-obj", TRUE },
		{ "cuda_nvlink_", TRUE, "nvlink", TRUE },
		{ "cuda_dlink_fatbin", FALSE, "dlink-fatbin", FALSE },
		{ "cuda_dlink_host", FALSE, "dlink-host", FALSE },
		{ "cuda_import", FALSE, "import", FALSE },
		{ "cuda_manifest", FALSE, "manifest", FALSE },
		{ "cugen_rank", FALSE, "rank", FALSE },
		{ "cc", FALSE, "cc", FALSE },
		{ "cxx", FALSE, "cxx", FALSE },
		{ "ar", FALSE, "ar", FALSE },
		{ "link", FALSE, "link", FALSE },
		{ "regen", FALSE, "regen", FALSE },
		{ "phony", FALSE, "phony", FALSE },
	};
	*arch = NULL;
	if (!rule)
		return "other";
	for (gsize i = 0; i < G_N_ELEMENTS(kinds); i++) {
		gboolean match = kinds[i].prefix
			? g_str_has_prefix(rule, kinds[i].stem) && rule[strlen(kinds[i].stem)]
			: stem_is(rule, kinds[i].stem);
		if (!match)
			continue;
		if (kinds[i].has_arch) {
			*arch = arch_in_description(description);
			if (!*arch)
				*arch = arch_in_rule(rule, kinds[i].stem);
		}
		return kinds[i].kind;
	}
	return "other";
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
	g_free(e);
}

void report_free(Report *r)
{
	if (!r)
		return;
	g_ptr_array_free(r->critical, TRUE);
	g_ptr_array_free(r->edges, TRUE);
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
		if (p && p > rest && strcmp(e->kind, "dlink-obj") != 0 &&
		    strcmp(e->kind, "nvlink") != 0 && strncmp(e->kind, "dlink-", 6) != 0)
			e->tu = g_strndup(rest, p - rest);
		else if ((strcmp(e->kind, "cc") == 0 || strcmp(e->kind, "cxx") == 0 ||
			  strcmp(e->kind, "fatbin") == 0 || strcmp(e->kind, "nvcc") == 0) &&
			 g_str_has_suffix(rest, ".o"))
			e->tu = g_strndup(rest, strlen(rest) - 2);
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

/* Of the edges that made e's inputs (through phony edges) and ran in
 * this run, finishing no later than e started: the one that finished
 * last. */
static ReportEdge *critical_pred(const ReportEdge *e, const Manifest *m, GHashTable *by_medge)
{
	if (!e->me || !m)
		return NULL;
	GHashTable *visited = g_hash_table_new(NULL, NULL);
	GPtrArray *todo = g_ptr_array_new();
	const GPtrArray *lists[] = { e->me->ins, e->me->implicit_ins, e->me->order_ins };
	for (gsize k = 0; k < G_N_ELEMENTS(lists); k++)
		for (guint i = 0; i < lists[k]->len; i++)
			g_ptr_array_add(todo, g_ptr_array_index(lists[k], i));
	ReportEdge *best = NULL;
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
		if (!c || c == e || c->end_ms > e->start_ms)
			continue;
		if (!best || c->end_ms > best->end_ms ||
		    (c->end_ms == best->end_ms && c->order > best->order))
			best = c;
	}
	g_ptr_array_free(todo, TRUE);
	g_hash_table_destroy(visited);
	return best;
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
			e->kind = report_edge_kind(me->rule, g_hash_table_lookup(m->rules, me->rule),
						   &e->arch);
		} else {
			e->name = g_strdup(le->output);
			e->kind = "other";
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

	/* The critical path: back from the edge that finished last. */
	ReportEdge *last = NULL;
	for (guint i = 0; i < r->edges->len; i++) {
		ReportEdge *e = g_ptr_array_index(r->edges, i);
		if (!last || e->end_ms > last->end_ms ||
		    (e->end_ms == last->end_ms && e->order > last->order))
			last = e;
	}
	for (ReportEdge *e = last; e && !e->critical; e = critical_pred(e, m, by_medge)) {
		e->critical = TRUE;
		g_ptr_array_insert(r->critical, 0, e);
		r->critical_ms += e->end_ms - e->start_ms;
	}
	g_hash_table_destroy(phony_target);
	g_hash_table_destroy(by_medge);
	return r;
}

/* ---- tables ---- */

typedef struct {
	const char *name;
	guint n;
	gint64 ms;
	const ReportEdge *longest;
	gint64 busy_ms;       /* archs: time with at least one edge running */
	gint64 first_ms, last_ms;
} Group;

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
	const Group *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return strcmp(x->name, y->name);
}

static gint group_by_arch(gconstpointer a, gconstpointer b)
{
	return arch_cmp(((const Group *)a)->name, ((const Group *)b)->name);
}

static gint interval_cmp(gconstpointer a, gconstpointer b)
{
	const gint64 *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Per kind (by time, most first) or per arch (in arch order). */
static GArray *groups(const Report *r, gboolean arch)
{
	GArray *g = g_array_new(FALSE, TRUE, sizeof(Group));
	GHashTable *idx = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *spans = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	for (guint i = 0; i < r->edges->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->edges, i);
		const char *key = arch ? e->arch : e->kind;
		if (!key)
			continue;
		gpointer v;
		guint k;
		if (g_hash_table_lookup_extended(idx, key, NULL, &v)) {
			k = GPOINTER_TO_UINT(v);
		} else {
			k = g->len;
			Group n = { .name = key, .first_ms = e->start_ms, .last_ms = e->end_ms };
			g_array_append_val(g, n);
			g_hash_table_insert(idx, (gpointer)key, GUINT_TO_POINTER(k));
			g_ptr_array_add(spans, g_array_new(FALSE, FALSE, 2 * sizeof(gint64)));
		}
		Group *gr = &g_array_index(g, Group, k);
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
		g_array_index(g, Group, k).busy_ms = busy;
	}
	g_ptr_array_free(spans, TRUE);
	g_hash_table_destroy(idx);
	g_array_sort(g, arch ? group_by_arch : group_by_time);
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

/* The most expensive device compiles (TU x arch; with split = tu, TU x
 * all archs), at most n. */
static GPtrArray *top_dev(const Report *r, guint n)
{
	GPtrArray *v = g_ptr_array_new();
	for (guint i = 0; i < r->edges->len; i++) {
		ReportEdge *e = g_ptr_array_index(r->edges, i);
		if (strcmp(e->kind, "dev") == 0 || strcmp(e->kind, "nvcc") == 0)
			g_ptr_array_add(v, e);
	}
	g_ptr_array_sort(v, by_duration);
	if (v->len > n)
		g_ptr_array_set_size(v, n);
	return v;
}

/* ---- formatting ---- */

static void put_secs(GString *o, gint64 ms)
{
	g_string_append_printf(o, "%" G_GINT64_FORMAT ".%03d s", ms / 1000, (int)(ms % 1000));
}

static char *secs(gint64 ms)
{
	GString *o = g_string_new(NULL);
	put_secs(o, ms);
	return g_string_free(o, FALSE);
}

/* part of whole as "12.3%" */
static void put_pct(GString *o, gint64 part, gint64 whole)
{
	gint64 t = whole > 0 ? (part * 1000 + whole / 2) / whole : 0;
	g_string_append_printf(o, "%" G_GINT64_FORMAT ".%d%%", t / 10, (int)(t % 10));
}

static void put_num(GString *o, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	g_string_append(o, g_ascii_formatd(buf, sizeof buf, "%.1f", v));
}

/* Valid UTF-8 with control characters as '?'. */
static char *clean_text(const char *s)
{
	char *v = g_utf8_make_valid(s, -1);
	for (char *p = v; *p; p++)
		if ((guchar)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return v;
}

static void put_html(GString *o, const char *s)
{
	char *v = clean_text(s);
	for (const char *p = v; *p; p++) {
		switch (*p) {
		case '&': g_string_append(o, "&amp;"); break;
		case '<': g_string_append(o, "&lt;"); break;
		case '>': g_string_append(o, "&gt;"); break;
		case '"': g_string_append(o, "&quot;"); break;
		case '\'': g_string_append(o, "&#39;"); break;
		default: g_string_append_c(o, *p);
		}
	}
	g_free(v);
}

static void put_json(GString *o, const char *s)
{
	char *v = g_utf8_make_valid(s, -1);
	cg_json_string(o, v);
	g_free(v);
}

/* The rest of the wall time, when it is 5% or more: the critical path's
 * edges were ready (their inputs made) but waited for a job slot or pool. */
static void put_waited(GString *o, const Report *r)
{
	if ((r->wall_ms - r->critical_ms) * 20 >= r->wall_ms && r->wall_ms > r->critical_ms) {
		g_string_append(o, "; for the rest, ");
		put_secs(o, r->wall_ms - r->critical_ms);
		g_string_append(o, ", its edges were ready but waited for a job slot or pool");
	}
}

/* "ninja log v5", or what an empty file is */
static char *log_kind(const NinjaLog *log)
{
	return log->version ? g_strdup_printf("ninja log v%d", log->version)
			    : g_strdup("an empty log");
}

/* ---- trace.json ---- */

GString *report_trace_json(const Report *r, const NinjaLog *log, const char *log_path)
{
	GString *o = g_string_new("{\"traceEvents\":[\n");
	g_string_append(o, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
			"\"args\":{\"name\":");
	char *pn = g_strdup_printf("ninja build (%s)", log_path);
	put_json(o, pn);
	g_free(pn);
	g_string_append(o, "}}");
	for (guint s = 1; s <= r->slots; s++)
		g_string_append_printf(o, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
				       "\"tid\":%u,\"args\":{\"name\":\"slot %u\"}},\n"
				       "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,"
				       "\"tid\":%u,\"args\":{\"sort_index\":%u}}", s, s, s, s);
	for (guint i = 0; i < r->edges->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->edges, i);
		g_string_append(o, ",\n{\"name\":");
		put_json(o, e->name);
		g_string_append_printf(o, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%" G_GINT64_FORMAT
				       ",\"dur\":%" G_GINT64_FORMAT ",\"pid\":1,\"tid\":%u,"
				       "\"args\":{\"kind\":\"%s\"", e->kind, e->start_ms * 1000,
				       (e->end_ms - e->start_ms) * 1000, e->slot, e->kind);
		const char *keys[] = { "rule", "arch", "target", "tu" };
		const char *vals[] = { e->rule, e->arch, e->target, e->tu };
		for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
			if (!vals[k])
				continue;
			g_string_append_printf(o, ",\"%s\":", keys[k]);
			put_json(o, vals[k]);
		}
		g_string_append(o, ",\"outputs\":[");
		for (guint j = 0; j < e->outputs->len; j++) {
			if (j)
				g_string_append_c(o, ',');
			put_json(o, g_ptr_array_index(e->outputs, j));
		}
		g_string_append_printf(o, "],\"critical\":%s}}", e->critical ? "true" : "false");
	}
	g_string_append(o, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"generator\":");
	put_json(o, "cugen " CUGEN_VERSION);
	g_string_append(o, ",\"log\":");
	put_json(o, log_path);
	g_string_append_printf(o, ",\"log_version\":%d,\"runs\":%u,\"edges\":%u,\"slots\":%u,"
			       "\"wall_ms\":%" G_GINT64_FORMAT ",\"edge_ms\":%" G_GINT64_FORMAT
			       ",\"critical_path_ms\":%" G_GINT64_FORMAT "}\n}\n",
			       log->version, log->runs, r->edges->len, r->slots, r->wall_ms,
			       r->edge_ms, r->critical_ms);
	return o;
}

/* ---- report.html ---- */

/* One colour per arch for device compiles; the kinds' colours are in the
 * template. */
static const char *const arch_palette[] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e",
	"#e6ab02", "#a6761d", "#1f78b4", "#b15928", "#6a3d9a",
};

static void put_classes(GString *o, const char *prefix, const ReportEdge *e)
{
	g_string_append_printf(o, "%s kind-%s", prefix, e->kind);
	if (e->arch && strcmp(e->kind, "dev") == 0)
		g_string_append_printf(o, " arch-%s", e->arch);
}

static void put_swatch(GString *o, const char *kind, const char *arch, gboolean crit)
{
	g_string_append_printf(o, "<svg class=\"sw\" width=\"14\" height=\"12\"><rect class=\"swatch "
			       "kind-%s%s%s%s\" x=\"1\" y=\"1\" width=\"12\" height=\"10\"/></svg>",
			       kind, arch ? " arch-" : "", arch ? arch : "", crit ? " crit" : "");
}

static void put_tooltip(GString *o, const ReportEdge *e)
{
	put_html(o, e->name);
	for (guint j = 1; j < e->outputs->len; j++) {
		g_string_append(o, "&#10;  + ");
		put_html(o, g_ptr_array_index(e->outputs, j));
	}
	g_string_append_printf(o, "&#10;%s", e->kind);
	if (e->arch)
		g_string_append_printf(o, " %s", e->arch);
	if (e->tu) {
		g_string_append(o, ", TU ");
		put_html(o, e->tu);
	}
	if (e->target) {
		g_string_append(o, ", target ");
		put_html(o, e->target);
	}
	g_string_append(o, "&#10;");
	put_secs(o, e->end_ms - e->start_ms);
	g_string_append(o, " (");
	put_secs(o, e->start_ms);
	g_string_append(o, " to ");
	put_secs(o, e->end_ms);
	g_string_append_printf(o, ", slot %u)", e->slot);
	if (e->critical)
		g_string_append(o, "&#10;on the critical path");
}

/* A tick step of 1, 2 or 5 times a power of ten, for about ten ticks. */
static gint64 tick_step(gint64 wall)
{
	gint64 raw = MAX(wall / 10, 1), mag = 1;
	while (mag * 10 <= raw)
		mag *= 10;
	if (mag >= raw)
		return mag;
	if (2 * mag >= raw)
		return 2 * mag;
	if (5 * mag >= raw)
		return 5 * mag;
	return 10 * mag;
}

static void put_tick_label(GString *o, gint64 t, gint64 step)
{
	if (step % 1000 == 0)
		g_string_append_printf(o, "%" G_GINT64_FORMAT " s", t / 1000);
	else if (step % 100 == 0)
		g_string_append_printf(o, "%" G_GINT64_FORMAT ".%01d s", t / 1000, (int)(t % 1000 / 100));
	else if (step % 10 == 0)
		g_string_append_printf(o, "%" G_GINT64_FORMAT ".%02d s", t / 1000, (int)(t % 1000 / 10));
	else
		g_string_append_printf(o, "%" G_GINT64_FORMAT ".%03d s", t / 1000, (int)(t % 1000));
}

static char *timeline_svg(const Report *r)
{
	const double left = 70, width = 1100, right = 20, top = 26, row = 18, bar = 14;
	gint64 wall = MAX(r->wall_ms, 1);
	double scale = width / (double)wall;
	guint rows = MAX(r->slots, 1);
	double height = top + rows * row + 8;
	GString *o = g_string_new(NULL);
	g_string_append(o, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	put_num(o, left + width + right);
	g_string_append(o, "\" height=\"");
	put_num(o, height);
	g_string_append(o, "\" role=\"img\" aria-label=\"build timeline\">\n");
	for (guint s = 0; s < rows; s++) {
		g_string_append_printf(o, "<rect class=\"row%s\" x=\"%d\" y=\"", s % 2 ? " odd" : "",
				       (int)left);
		put_num(o, top + s * row);
		g_string_append_printf(o, "\" width=\"%d\" height=\"%d\"/>"
				       "<text class=\"slot\" x=\"%d\" y=\"", (int)width, (int)row,
				       (int)left - 6);
		put_num(o, top + s * row + row - 5);
		g_string_append_printf(o, "\">slot %u</text>\n", s + 1);
	}
	gint64 step = tick_step(wall);
	for (gint64 t = 0; t <= wall; t += step) {
		double x = left + t * scale;
		g_string_append(o, "<line class=\"grid\" x1=\"");
		put_num(o, x);
		g_string_append(o, "\" x2=\"");
		put_num(o, x);
		g_string_append_printf(o, "\" y1=\"%d\" y2=\"", (int)top - 4);
		put_num(o, top + rows * row);
		g_string_append(o, "\"/><text class=\"tick\" x=\"");
		put_num(o, x);
		g_string_append_printf(o, "\" y=\"%d\">", (int)top - 8);
		put_tick_label(o, t, step);
		g_string_append(o, "</text>\n");
	}
	for (guint i = 0; i < r->edges->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->edges, i);
		double x = left + e->start_ms * scale;
		double w = MAX((e->end_ms - e->start_ms) * scale, 1.0);
		g_string_append(o, "<rect class=\"");
		put_classes(o, "bar", e);
		if (e->critical)
			g_string_append(o, " crit");
		g_string_append(o, "\" x=\"");
		put_num(o, x);
		g_string_append(o, "\" y=\"");
		put_num(o, top + (e->slot - 1) * row + (row - bar) / 2);
		g_string_append(o, "\" width=\"");
		put_num(o, w);
		g_string_append_printf(o, "\" height=\"%d\"><title>", (int)bar);
		put_tooltip(o, e);
		g_string_append(o, "</title></rect>\n");
	}
	g_string_append(o, "</svg>");
	return g_string_free(o, FALSE);
}

static const char *const kind_order[] = {
	"fe", "dev", "stub", "host", "rank", "fatbin", "nvcc", "dlink-obj", "nvlink",
	"dlink-fatbin", "dlink-host", "import", "manifest", "cc", "cxx", "ar", "link",
	"regen", "other",
};

static char *legend(const Report *r, GArray *archs)
{
	GString *o = g_string_new("<p class=\"legend\">");
	for (gsize k = 0; k < G_N_ELEMENTS(kind_order); k++) {
		gboolean dev = strcmp(kind_order[k], "dev") == 0, seen = FALSE, archless = FALSE;
		for (guint i = 0; i < r->edges->len; i++) {
			const ReportEdge *e = g_ptr_array_index(r->edges, i);
			if (strcmp(e->kind, kind_order[k]) == 0) {
				seen = TRUE;
				archless |= !e->arch;
			}
		}
		if (!seen)
			continue;
		if (dev) {
			for (guint a = 0; a < archs->len; a++) {
				const char *an = g_array_index(archs, Group, a).name;
				gboolean has = FALSE;
				for (guint i = 0; !has && i < r->edges->len; i++) {
					const ReportEdge *e = g_ptr_array_index(r->edges, i);
					has = e->arch && strcmp(e->kind, "dev") == 0 &&
					      strcmp(e->arch, an) == 0;
				}
				if (!has)
					continue;
				g_string_append(o, "<span class=\"item\">");
				put_swatch(o, "dev", an, FALSE);
				g_string_append_printf(o, "dev %s</span> ", an);
			}
			if (!archless)
				continue;
		}
		g_string_append(o, "<span class=\"item\">");
		put_swatch(o, kind_order[k], NULL, FALSE);
		g_string_append_printf(o, "%s</span> ", kind_order[k]);
	}
	if (r->critical->len) {
		g_string_append(o, "<span class=\"item\">");
		put_swatch(o, "other", NULL, TRUE);
		g_string_append(o, "critical path</span>");
	}
	g_string_append(o, "</p>");
	return g_string_free(o, FALSE);
}

static void put_meter(GString *o, gint64 part, gint64 whole)
{
	g_string_append(o, "<td class=\"meter\"><span style=\"width:");
	put_pct(o, part, whole);
	g_string_append(o, "\"></span></td>");
}

static void td_secs(GString *o, gint64 ms)
{
	g_string_append(o, "<td class=\"num\">");
	put_secs(o, ms);
	g_string_append(o, "</td>");
}

static void td_pct(GString *o, gint64 part, gint64 whole)
{
	g_string_append(o, "<td class=\"num\">");
	put_pct(o, part, whole);
	g_string_append(o, "</td>");
}

static void td_text(GString *o, const char *s)
{
	g_string_append(o, "<td>");
	if (s)
		put_html(o, s);
	g_string_append(o, "</td>");
}

static char *arch_table(const Report *r, GArray *archs)
{
	GString *o = g_string_new(NULL);
	if (!archs->len) {
		gboolean tu = FALSE;
		for (guint i = 0; !tu && i < r->edges->len; i++)
			tu = strcmp(((const ReportEdge *)g_ptr_array_index(r->edges, i))->kind,
				    "nvcc") == 0;
		g_string_append(o, tu ? "<p class=\"none\">No per-architecture edges in this build: "
				"with split = tu one nvcc per TU compiles every arch.</p>"
				: "<p class=\"none\">No per-architecture edges in this build.</p>");
		return g_string_free(o, FALSE);
	}
	g_string_append(o, "<table><thead><tr><th>arch</th><th class=\"num\">edges</th>"
			"<th class=\"num\">edge time</th><th class=\"num\">wall time</th>"
			"<th class=\"num\">first start</th><th class=\"num\">last end</th>"
			"<th class=\"num\">share of edge time</th><th></th></tr></thead><tbody>\n");
	for (guint i = 0; i < archs->len; i++) {
		const Group *g = &g_array_index(archs, Group, i);
		g_string_append(o, "<tr><td>");
		put_swatch(o, "dev", g->name, FALSE);
		put_html(o, g->name);
		g_string_append_printf(o, "</td><td class=\"num\">%u</td>", g->n);
		td_secs(o, g->ms);
		td_secs(o, g->busy_ms);
		td_secs(o, g->first_ms);
		td_secs(o, g->last_ms);
		td_pct(o, g->ms, r->edge_ms);
		put_meter(o, g->ms, r->edge_ms);
		g_string_append(o, "</tr>\n");
	}
	g_string_append(o, "</tbody></table>");
	return g_string_free(o, FALSE);
}

static char *kind_table(const Report *r, GArray *kinds)
{
	GString *o = g_string_new("<table><thead><tr><th>kind</th><th class=\"num\">edges</th>"
				  "<th class=\"num\">edge time</th><th class=\"num\">share</th><th></th>"
				  "<th class=\"num\">longest</th><th>longest edge</th></tr></thead><tbody>\n");
	for (guint i = 0; i < kinds->len; i++) {
		const Group *g = &g_array_index(kinds, Group, i);
		g_string_append(o, "<tr><td>");
		put_swatch(o, g->name, NULL, FALSE);
		put_html(o, g->name);
		g_string_append_printf(o, "</td><td class=\"num\">%u</td>", g->n);
		td_secs(o, g->ms);
		td_pct(o, g->ms, r->edge_ms);
		put_meter(o, g->ms, r->edge_ms);
		td_secs(o, g->longest->end_ms - g->longest->start_ms);
		td_text(o, g->longest->name);
		g_string_append(o, "</tr>\n");
	}
	g_string_append(o, "</tbody></table>");
	return g_string_free(o, FALSE);
}

static char *top_table(const Report *r)
{
	GPtrArray *top = top_dev(r, 10);
	GString *o = g_string_new(NULL);
	if (!top->len) {
		g_string_append(o, "<p class=\"none\">No device compiles in this build.</p>");
	} else {
		g_string_append(o, "<table><thead><tr><th class=\"num\">#</th><th>TU</th>"
				"<th>arch</th><th>target</th><th class=\"num\">time</th>"
				"<th class=\"num\">share of edge time</th><th>output</th></tr>"
				"</thead><tbody>\n");
		for (guint i = 0; i < top->len; i++) {
			const ReportEdge *e = g_ptr_array_index(top, i);
			g_string_append_printf(o, "<tr><td class=\"num\">%u</td>", i + 1);
			td_text(o, e->tu ? e->tu : e->name);
			td_text(o, e->arch ? e->arch : "all archs");
			td_text(o, e->target);
			td_secs(o, e->end_ms - e->start_ms);
			td_pct(o, e->end_ms - e->start_ms, r->edge_ms);
			td_text(o, e->name);
			g_string_append(o, "</tr>\n");
		}
		g_string_append(o, "</tbody></table>");
	}
	g_ptr_array_free(top, TRUE);
	return g_string_free(o, FALSE);
}

static char *critical_table(const Report *r)
{
	GString *o = g_string_new(NULL);
	if (!r->critical->len)
		return g_string_free(o, FALSE);
	g_string_append(o, "<table><thead><tr><th class=\"num\">#</th><th>kind</th><th>arch</th>"
			"<th>output</th><th class=\"num\">start</th><th class=\"num\">end</th>"
			"<th class=\"num\">time</th></tr></thead><tbody>\n");
	for (guint i = 0; i < r->critical->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->critical, i);
		g_string_append_printf(o, "<tr><td class=\"num\">%u</td><td>", i + 1);
		put_swatch(o, e->kind, strcmp(e->kind, "dev") == 0 ? e->arch : NULL, FALSE);
		g_string_append_printf(o, "%s</td>", e->kind);
		td_text(o, e->arch);
		td_text(o, e->name);
		td_secs(o, e->start_ms);
		td_secs(o, e->end_ms);
		td_secs(o, e->end_ms - e->start_ms);
		g_string_append(o, "</tr>\n");
	}
	g_string_append(o, "</tbody></table>");
	return g_string_free(o, FALSE);
}

static void put_row(GString *o, const char *what, const char *value_html)
{
	g_string_append_printf(o, "<tr><th>%s</th><td>%s</td></tr>\n", what, value_html);
}

static char *summary_table(const Report *r, const NinjaLog *log, const char *log_path)
{
	GString *o = g_string_new("<table class=\"summary\"><tbody>\n");
	GString *v = g_string_new(NULL);
	put_html(v, log_path);
	char *kind = log_kind(log);
	if (log->runs)
		g_string_append_printf(v, " (%s; the latest of %u run%s", kind, log->runs,
				       log->runs == 1 ? "" : "s");
	else
		g_string_append_printf(v, " (%s; no finished edges", kind);
	g_free(kind);
	if (log->latest->len) {
		const NinjaLogEntry *a = g_ptr_array_index(log->latest, 0);
		const NinjaLogEntry *b = g_ptr_array_index(log->latest, log->latest->len - 1);
		g_string_append_printf(v, ", lines %u to %u", a->line, b->line);
	}
	g_string_append(v, ")");
	put_row(o, "log", v->str);
	g_string_assign(v, "");
	put_secs(v, r->wall_ms);
	put_row(o, "wall time", v->str);
	g_string_printf(v, "%u", r->edges->len);
	if (r->graph_edges)
		g_string_append_printf(v, " (build.ninja has %u)", r->graph_edges);
	if (r->unknown)
		g_string_append_printf(v, "; %u not in build.ninja", r->unknown);
	put_row(o, "edges", v->str);
	g_string_assign(v, "");
	put_secs(v, r->edge_ms);
	if (r->wall_ms > 0) {
		gint64 h = (r->edge_ms * 100 + r->wall_ms / 2) / r->wall_ms;
		g_string_append_printf(v, " (average parallelism %" G_GINT64_FORMAT ".%02d)",
				       h / 100, (int)(h % 100));
	}
	put_row(o, "edge time", v->str);
	g_string_printf(v, "%u", r->slots);
	put_row(o, "job slots used", v->str);
	g_string_assign(v, "");
	put_secs(v, r->critical_ms);
	g_string_append_printf(v, " in %u edge%s (", r->critical->len,
			       r->critical->len == 1 ? "" : "s");
	put_pct(v, r->critical_ms, r->wall_ms);
	g_string_append(v, " of the wall time");
	put_waited(v, r);
	g_string_append(v, ")");
	put_row(o, "critical path", v->str);
	g_string_append(o, "</tbody></table>");
	g_string_free(v, TRUE);
	return g_string_free(o, FALSE);
}

GString *report_html(const Report *r, const NinjaLog *log, const char *log_path)
{
	GArray *archs = groups(r, TRUE);
	GArray *kinds = groups(r, FALSE);
	GString *css = g_string_new(NULL);
	for (guint i = 0; i < archs->len; i++)
		g_string_append_printf(css, ".kind-dev.arch-%s { fill: %s; }\n",
				       g_array_index(archs, Group, i).name,
				       arch_palette[i % G_N_ELEMENTS(arch_palette)]);
	GString *title = g_string_new("cugen report: ");
	put_html(title, log_path);
	char *summary = summary_table(r, log, log_path);
	char *timeline = r->edges->len ? timeline_svg(r)
		: g_strdup("<p class=\"none\">The log records no finished edges: nothing ran yet, "
			   "or the build was interrupted before the first edge finished.</p>");
	char *leg = legend(r, archs);
	char *at = arch_table(r, archs);
	char *tt = top_table(r);
	char *kt = kind_table(r, kinds);
	char *ct = critical_table(r);
	const char *vars[] = {
		"TITLE", title->str,
		"ARCH_CSS", css->str,
		"SUMMARY", summary,
		"LEGEND", leg,
		"TIMELINE", timeline,
		"ARCH_TABLE", at,
		"TOP_TABLE", tt,
		"KIND_TABLE", kt,
		"CRITICAL_TABLE", ct,
		"VERSION", CUGEN_VERSION,
		NULL,
	};
	char *html = template_expand("report.html.in", vars);
	GString *o = g_string_new(html);
	g_free(html);
	g_free(summary);
	g_free(timeline);
	g_free(leg);
	g_free(at);
	g_free(tt);
	g_free(kt);
	g_free(ct);
	g_string_free(title, TRUE);
	g_string_free(css, TRUE);
	g_array_free(archs, TRUE);
	g_array_free(kinds, TRUE);
	return o;
}

/* ---- the summary ---- */

GString *report_summary(const Report *r, const NinjaLog *log, const char *log_path)
{
	GString *o = g_string_new(NULL);
	char *p = clean_text(log_path);
	char *kind = log_kind(log);
	if (!r->edges->len) {
		g_string_append_printf(o, "cugen report: %s (%s): no finished edges recorded "
				       "yet; nothing to report\n", p, kind);
		g_free(kind);
		g_free(p);
		return o;
	}
	g_string_append_printf(o, "cugen report: %s (%s): the latest of %u run%s, %u edge%s",
			       p, kind, log->runs, log->runs == 1 ? "" : "s", r->edges->len,
			       r->edges->len == 1 ? "" : "s");
	g_free(kind);
	if (r->graph_edges)
		g_string_append_printf(o, " (build.ninja has %u)", r->graph_edges);
	g_string_append(o, "\n");
	g_free(p);
	g_string_append(o, "  wall time      ");
	put_secs(o, r->wall_ms);
	g_string_append(o, "\n  edge time      ");
	put_secs(o, r->edge_ms);
	if (r->wall_ms > 0) {
		gint64 h = (r->edge_ms * 100 + r->wall_ms / 2) / r->wall_ms;
		g_string_append_printf(o, " (average parallelism %" G_GINT64_FORMAT ".%02d on %u "
				       "job slot%s)", h / 100, (int)(h % 100), r->slots,
				       r->slots == 1 ? "" : "s");
	}
	g_string_append(o, "\n  critical path  ");
	put_secs(o, r->critical_ms);
	g_string_append_printf(o, " in %u edge%s (", r->critical->len,
			       r->critical->len == 1 ? "" : "s");
	put_pct(o, r->critical_ms, r->wall_ms);
	g_string_append(o, " of the wall time");
	put_waited(o, r);
	g_string_append(o, ")\n");
	for (guint i = 0; i < r->critical->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->critical, i);
		char *what = e->arch ? g_strdup_printf("%s %s", e->kind, e->arch) : g_strdup(e->kind);
		char *t = secs(e->end_ms - e->start_ms);
		char *n = clean_text(e->name);
		g_string_append_printf(o, "    %-18s %12s  %s\n", what, t, n);
		g_free(n);
		g_free(t);
		g_free(what);
	}
	GArray *kinds = groups(r, FALSE);
	g_string_append_printf(o, "per kind %16s %14s %8s\n", "edges", "time", "share");
	for (guint i = 0; i < kinds->len; i++) {
		const Group *g = &g_array_index(kinds, Group, i);
		char *t = secs(g->ms);
		GString *pc = g_string_new(NULL);
		put_pct(pc, g->ms, r->edge_ms);
		g_string_append_printf(o, "  %-14s %8u %14s %8s\n", g->name, g->n, t, pc->str);
		g_string_free(pc, TRUE);
		g_free(t);
	}
	g_array_free(kinds, TRUE);
	GArray *archs = groups(r, TRUE);
	if (archs->len) {
		g_string_append_printf(o, "per arch %16s %14s %14s %8s\n", "edges", "time", "wall",
				       "share");
		for (guint i = 0; i < archs->len; i++) {
			const Group *g = &g_array_index(archs, Group, i);
			char *t = secs(g->ms), *w = secs(g->busy_ms);
			GString *pc = g_string_new(NULL);
			put_pct(pc, g->ms, r->edge_ms);
			g_string_append_printf(o, "  %-14s %8u %14s %14s %8s\n", g->name, g->n, t, w,
					       pc->str);
			g_string_free(pc, TRUE);
			g_free(w);
			g_free(t);
		}
	}
	g_array_free(archs, TRUE);
	return o;
}

/* ---- the command ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: cugen report [-B BUILDDIR] [-o DIR]\n"
		"Show where the time of the latest build in BUILDDIR went, from ninja's log\n"
		"(BUILDDIR/.ninja_log) and the graph (BUILDDIR/build.ninja): a timeline of\n"
		"the edges on ninja's job slots, the critical path, the time per edge kind\n"
		"and per GPU architecture, and the most expensive TU x arch compiles.\n"
		"\n"
		"Options:\n"
		"  -B, --build-dir=BUILDDIR  the build directory (default: build)\n"
		"  -o, --output=DIR          where to write the report (default: BUILDDIR/report)\n"
		"  -h, --help                show this help and exit\n"
		"\n"
		"It writes DIR/trace.json (Chrome trace format: open it in ui.perfetto.dev or\n"
		"chrome://tracing) and DIR/report.html (self-contained: no scripts, no\n"
		"network), and prints a summary. The latest build is the last run ninja\n"
		"appended to the log; a no-op build appends nothing, so the report then\n"
		"shows the build before it. A log that records no finished edge yet (empty,\n"
		"or just its header) is not an error: the summary says so and the files are\n"
		"written without edges.\n"
		"\n"
		"Exit status: 0 on success, also when there is nothing to report; 1 when\n"
		"BUILDDIR, its .ninja_log or its build.ninja is missing or unreadable, or the\n"
		"log is not a ninja log of version 5, 6 or 7; 2 for bad usage.\n");
}

static int fail(GError *e)
{
	int rc = cg_report(e);
	g_error_free(e);
	return rc;
}

/* Read BUILDDIR/NAME; a missing file is an error with hint. */
static char *read_in(const char *builddir, const char *name, const char *hint, char **path,
		     gsize *len, GError **err)
{
	*path = g_build_filename(builddir, name, NULL);
	if (!g_file_test(*path, G_FILE_TEST_EXISTS)) {
		cg_error(err, "%s: no such file; %s", *path, hint);
		return NULL;
	}
	if (g_file_test(*path, G_FILE_TEST_IS_DIR)) {
		cg_error(err, "%s: is a directory, not a file", *path);
		return NULL;
	}
	return cg_read_file(*path, len, err);
}

int cmd_report(int argc, char **argv)
{
	gboolean help = FALSE;
	g_autofree char *builddir = NULL, *outdir = NULL;
	g_auto(GStrv) rest = NULL;
	GOptionEntry entries[] = {
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &builddir, NULL, NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, NULL, NULL },
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help, NULL, NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, entries, NULL);
	char **args = g_new0(char *, argc + 1);
	for (int i = 0; i < argc; i++)
		args[i] = g_strdup(argv[i]);
	GError *ge = NULL, *e = NULL;
	gboolean parsed = g_option_context_parse_strv(ctx, &args, &ge);
	g_strfreev(args);
	if (!parsed) {
		char *m = g_strdup(ge->message);
		if (*m)
			*m = g_ascii_tolower(*m);
		cg_usage_error(&e, "report: %s (see 'cugen report --help')", m);
		g_free(m);
		g_error_free(ge);
		return fail(e);
	}
	if (help) {
		usage(stdout);
		return 0;
	}
	if (rest && rest[0]) {
		cg_usage_error(&e, "report: unexpected argument '%s' (see 'cugen report --help')",
			       rest[0]);
		return fail(e);
	}
	if (!builddir)
		builddir = g_strdup("build");
	if (!g_file_test(builddir, G_FILE_TEST_EXISTS)) {
		cg_error(&e, "build directory '%s' does not exist (give it with -B BUILDDIR)",
			 builddir);
		return fail(e);
	}
	if (!g_file_test(builddir, G_FILE_TEST_IS_DIR)) {
		cg_error(&e, "'%s' is not a directory (give the build directory with -B BUILDDIR)",
			 builddir);
		return fail(e);
	}
	if (!outdir)
		outdir = g_build_filename(builddir, "report", NULL);

	g_autofree char *log_path = NULL, *ninja_path = NULL;
	gsize log_len = 0, ninja_len = 0;
	g_autofree char *mk = g_build_filename(builddir, "Makefile", NULL);
	g_autofree char *bn = g_build_filename(builddir, "build.ninja", NULL);
	g_autofree char *hint = !g_file_test(bn, G_FILE_TEST_EXISTS) &&
		g_file_test(mk, G_FILE_TEST_EXISTS)
		? g_strdup("cugen report reads ninja's log, and this build directory is set up "
			   "for make (--backend make)")
		: g_strdup_printf("build first (ninja -C %s)", builddir);
	gboolean gated = gate_on(builddir);
	g_autofree char *log_text = read_in(builddir, gated ? GATE_LOG : ".ninja_log", hint, &log_path, &log_len, &e);
	if (!log_text)
		return fail(e);
	NinjaLog *log = ninjalog_parse(log_text, log_len, log_path, &e);
	if (!log)
		return fail(e);
	g_free(hint);
	hint = g_strdup_printf("is '%s' a build directory written by cugen setup?", builddir);
	g_autofree char *ninja_text = read_in(builddir, gated ? GATE_FULL : "build.ninja", hint, &ninja_path,
					      &ninja_len, &e);
	Manifest *m = ninja_text ? manifest_parse(ninja_text, ninja_len, ninja_path, &e) : NULL;
	if (!m) {
		ninjalog_free(log);
		return fail(e);
	}
	if (log->malformed == 1)
		cg_warn("%s:%u: malformed line ignored", log_path, log->first_malformed);
	else if (log->malformed > 1)
		cg_warn("%s:%u: malformed line ignored (and %u more)", log_path,
			log->first_malformed, log->malformed - 1);
	if (log->truncated)
		cg_note("%s: the last line is incomplete and was ignored (ninja was stopped while "
			"writing it)", log_path);

	Report *r = report_compute(log, m);
	if (r->unknown)
		cg_note("%u edge%s of the log %s not in %s (it changed since that build)",
			r->unknown, r->unknown == 1 ? "" : "s", r->unknown == 1 ? "is" : "are",
			ninja_path);
	Stage *st = stage_new();
	g_autofree char *json_path = g_build_filename(outdir, "trace.json", NULL);
	g_autofree char *html_path = g_build_filename(outdir, "report.html", NULL);
	stage_add(st, json_path, report_trace_json(r, log, log_path));
	stage_add(st, html_path, report_html(r, log, log_path));
	int rc = 0;
	if (stage_commit(st, &e)) {
		GString *s = report_summary(r, log, log_path);
		g_string_append_printf(s, "wrote %s and %s\n", json_path, html_path);
		fwrite(s->str, 1, s->len, stdout);
		fflush(stdout);
		g_string_free(s, TRUE);
	} else {
		rc = fail(e);
	}
	stage_free(st);
	report_free(r);
	manifest_free(m);
	ninjalog_free(log);
	return rc;
}
