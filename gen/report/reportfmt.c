/* reportfmt.c -- the outputs of `cugen report`; the model is report.c's.
 *
 * Owns the formats:
 *   DIR/trace.json   {"traceEvents":[...]} with one complete event
 *                    ("ph":"X", ts and dur in microseconds, pid 1, tid the
 *                    job slot from 1) per edge of the reported run, named
 *                    by the edge's first output, cat its kind, args kind,
 *                    rule, arch, target, tu, outputs, critical; metadata
 *                    events name the process and the slots; otherData
 *                    holds the totals.
 *   DIR/report.html  templates/report.html.in: the project as title, an
 *                    SVG timeline (a row per slot, a <rect class="bar
 *                    kind-KIND[ arch-ARCH][ crit]"> per edge, with a
 *                    <title> tooltip) and the tables (summary, per arch,
 *                    costliest compiles, per kind, per TU, critical path).
 *   stdout           the summary: totals, the critical path, per kind,
 *                    per arch and the costliest TUs (report_summary()).
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "template.h"
#include "util.h"

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

/* "2.5 s in 4 edges (40.0% of the wall time; for the rest, ...)" */
static void put_critical(GString *o, const Report *r)
{
	put_secs(o, r->critical_ms);
	g_string_append_printf(o, " in %u edge%s (", r->critical->len, r->critical->len == 1 ? "" : "s");
	put_pct(o, r->critical_ms, r->wall_ms);
	g_string_append(o, " of the wall time");
	put_waited(o, r);
	g_string_append(o, ")");
}

/* "the latest of 3 runs", or "the latest build of 3 runs (the 1 after it
 * only regenerated the build files)" */
static char *which_run(const Report *r, const NinjaLog *log)
{
	if (!r->regen_runs)
		return g_strdup_printf("the latest of %u run%s", log->runs, log->runs == 1 ? "" : "s");
	return g_strdup_printf("the latest build of %u runs (the %u after it only regenerated the build files)",
			       log->runs, r->regen_runs);
}

/* "ninja log v5", or what an empty file is */
static char *log_kind(const NinjaLog *log)
{
	return log->version ? g_strdup_printf("ninja log v%d", log->version)
			    : g_strdup("an empty log");
}

/* ---- trace.json ---- */

static void trace_meta(JsonBuilder *b, const char *name, guint tid, const char *key, const char *str, guint num)
{
	json_builder_begin_object(b);
	cg_json_str(b, "name", name);
	cg_json_str(b, "ph", "M");
	cg_json_int(b, "pid", 1);
	cg_json_int(b, "tid", tid);
	json_builder_set_member_name(b, "args");
	json_builder_begin_object(b);
	if (str)
		cg_json_str(b, key, str);
	else
		cg_json_int(b, key, num);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

GString *report_trace_json(const Report *r, const NinjaLog *log, const char *log_path)
{
	JsonBuilder *b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "traceEvents");
	json_builder_begin_array(b);
	char *pn = r->project ? g_strdup_printf("%s: ninja build (%s)", r->project, log_path)
			      : g_strdup_printf("ninja build (%s)", log_path);
	trace_meta(b, "process_name", 0, "name", pn, 0);
	g_free(pn);
	for (guint s = 1; s <= r->slots; s++) {
		char *slot = g_strdup_printf("slot %u", s);
		trace_meta(b, "thread_name", s, "name", slot, 0);
		trace_meta(b, "thread_sort_index", s, "sort_index", NULL, s);
		g_free(slot);
	}
	for (guint i = 0; i < r->edges->len; i++) {
		const ReportEdge *e = g_ptr_array_index(r->edges, i);
		json_builder_begin_object(b);
		cg_json_str(b, "name", e->name);
		cg_json_str(b, "cat", e->kind);
		cg_json_str(b, "ph", "X");
		cg_json_int(b, "ts", e->start_ms * 1000);
		cg_json_int(b, "dur", (e->end_ms - e->start_ms) * 1000);
		cg_json_int(b, "pid", 1);
		cg_json_int(b, "tid", e->slot);
		json_builder_set_member_name(b, "args");
		json_builder_begin_object(b);
		cg_json_str(b, "kind", e->kind);
		const char *keys[] = { "rule", "arch", "target", "tu" };
		const char *vals[] = { e->rule, e->arch, e->target, e->tu };
		for (gsize k = 0; k < G_N_ELEMENTS(keys); k++)
			if (vals[k])
				cg_json_str(b, keys[k], vals[k]);
		json_builder_set_member_name(b, "outputs");
		json_builder_begin_array(b);
		for (guint j = 0; j < e->outputs->len; j++)
			cg_json_add_str(b, g_ptr_array_index(e->outputs, j));
		json_builder_end_array(b);
		cg_json_bool(b, "critical", e->critical);
		json_builder_end_object(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	cg_json_str(b, "displayTimeUnit", "ms");
	json_builder_set_member_name(b, "otherData");
	json_builder_begin_object(b);
	cg_json_str(b, "generator", "cugen " CUGEN_VERSION);
	cg_json_str(b, "log", log_path);
	cg_json_int(b, "log_version", log->version);
	cg_json_int(b, "runs", log->runs);
	cg_json_int(b, "edges", r->edges->len);
	cg_json_int(b, "slots", r->slots);
	cg_json_int(b, "wall_ms", r->wall_ms);
	cg_json_int(b, "edge_ms", r->edge_ms);
	cg_json_int(b, "critical_path_ms", r->critical_ms);
	json_builder_end_object(b);
	json_builder_end_object(b);
	return cg_json_finish(b, FALSE);
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


static char *legend(const Report *r, GArray *archs)
{
	GString *o = g_string_new("<p class=\"legend\">");
	/* in the table's order, then edges build.ninja does not have */
	for (int k = 0; k <= EK_COUNT; k++) {
		const char *kn = edge_kind_name((EdgeKind)k);
		gboolean dev = k == EK_DEV, seen = FALSE, archless = FALSE;
		for (guint i = 0; i < r->edges->len; i++) {
			const ReportEdge *e = g_ptr_array_index(r->edges, i);
			if ((int)e->ek == k) {
				seen = TRUE;
				archless |= !e->arch;
			}
		}
		if (!seen)
			continue;
		if (dev) {
			for (guint a = 0; a < archs->len; a++) {
				const char *an = g_array_index(archs, ReportGroup, a).name;
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
		put_swatch(o, kn, NULL, FALSE);
		g_string_append_printf(o, "%s</span> ", kn);
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
		const ReportGroup *g = &g_array_index(archs, ReportGroup, i);
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
		const ReportGroup *g = &g_array_index(kinds, ReportGroup, i);
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
	GPtrArray *top = report_top_dev(r, 10);
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

/* The TUs by edge time, at most 50 rows. */
static char *tu_table(const Report *r)
{
	GArray *tus = report_groups(r, GROUP_TU);
	GString *o = g_string_new(NULL);
	if (!tus->len) {
		g_string_append(o, "<p class=\"none\">No translation units compiled in this build.</p>");
		g_array_free(tus, TRUE);
		return g_string_free(o, FALSE);
	}
	g_string_append(o, "<table><thead><tr><th>TU</th><th>target</th><th class=\"num\">edges</th>"
			"<th class=\"num\">edge time</th><th class=\"num\">first start</th>"
			"<th class=\"num\">last end</th><th class=\"num\">share of edge time</th><th></th>"
			"<th>longest edge</th><th class=\"num\">its time</th></tr></thead><tbody>\n");
	guint n = MIN(tus->len, 50u);
	for (guint i = 0; i < n; i++) {
		const ReportGroup *g = &g_array_index(tus, ReportGroup, i);
		const ReportEdge *l = g->longest;
		g_string_append(o, "<tr>");
		td_text(o, l->tu);
		td_text(o, l->target);
		g_string_append_printf(o, "<td class=\"num\">%u</td>", g->n);
		td_secs(o, g->ms);
		td_secs(o, g->first_ms);
		td_secs(o, g->last_ms);
		td_pct(o, g->ms, r->edge_ms);
		put_meter(o, g->ms, r->edge_ms);
		char *what = l->arch ? g_strdup_printf("%s %s", l->kind, l->arch) : g_strdup(l->kind);
		td_text(o, what);
		g_free(what);
		td_secs(o, l->end_ms - l->start_ms);
		g_string_append(o, "</tr>\n");
	}
	g_string_append(o, "</tbody></table>");
	if (tus->len > n)
		g_string_append_printf(o, "<p class=\"none\">and %u more TUs.</p>", tus->len - n);
	g_array_free(tus, TRUE);
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
	if (r->project) {
		put_html(v, r->project);
		put_row(o, "project", v->str);
		g_string_assign(v, "");
	}
	put_html(v, log_path);
	char *kind = log_kind(log);
	if (log->runs) {
		char *w = which_run(r, log);
		g_string_append_printf(v, " (%s; %s", kind, w);
		g_free(w);
	} else
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
	put_critical(v, r);
	put_row(o, "critical path", v->str);
	g_string_append(o, "</tbody></table>");
	g_string_free(v, TRUE);
	return g_string_free(o, FALSE);
}

GString *report_html(const Report *r, const NinjaLog *log, const char *log_path)
{
	GArray *archs = report_groups(r, GROUP_ARCH);
	GArray *kinds = report_groups(r, GROUP_KIND);
	GString *css = g_string_new(NULL);
	for (guint i = 0; i < archs->len; i++)
		g_string_append_printf(css, ".kind-dev.arch-%s { fill: %s; }\n",
				       g_array_index(archs, ReportGroup, i).name,
				       arch_palette[i % G_N_ELEMENTS(arch_palette)]);
	GString *title = g_string_new("cugen report: ");
	put_html(title, r->project ? r->project : log_path);
	char *summary = summary_table(r, log, log_path);
	char *timeline = r->edges->len ? timeline_svg(r)
		: g_strdup("<p class=\"none\">The log records no finished edges: nothing ran yet, "
			   "or the build was interrupted before the first edge finished.</p>");
	char *leg = legend(r, archs);
	char *at = arch_table(r, archs);
	char *tt = top_table(r);
	char *kt = kind_table(r, kinds);
	char *ct = critical_table(r);
	char *ut = tu_table(r);
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
		"TU_TABLE", ut,
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
	g_free(ut);
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
		g_string_append_printf(o, "cugen report: %s%s%s (%s): no finished edges recorded "
				       "yet; nothing to report\n", r->project ? r->project : "",
				       r->project ? ": " : "", p, kind);
		g_free(kind);
		g_free(p);
		return o;
	}
	char *w = which_run(r, log);
	g_string_append_printf(o, "cugen report: %s%s%s (%s): %s, %u edge%s", r->project ? r->project : "",
			       r->project ? ": " : "", p, kind, w, r->edges->len, r->edges->len == 1 ? "" : "s");
	g_free(w);
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
	put_critical(o, r);
	g_string_append(o, "\n");
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
	GArray *kinds = report_groups(r, GROUP_KIND);
	g_string_append_printf(o, "per kind %16s %14s %8s\n", "edges", "time", "share");
	for (guint i = 0; i < kinds->len; i++) {
		const ReportGroup *g = &g_array_index(kinds, ReportGroup, i);
		char *t = secs(g->ms);
		GString *pc = g_string_new(NULL);
		put_pct(pc, g->ms, r->edge_ms);
		g_string_append_printf(o, "  %-14s %8u %14s %8s\n", g->name, g->n, t, pc->str);
		g_string_free(pc, TRUE);
		g_free(t);
	}
	g_array_free(kinds, TRUE);
	GArray *archs = report_groups(r, GROUP_ARCH);
	if (archs->len) {
		g_string_append_printf(o, "per arch %16s %14s %14s %8s\n", "edges", "time", "wall",
				       "share");
		for (guint i = 0; i < archs->len; i++) {
			const ReportGroup *g = &g_array_index(archs, ReportGroup, i);
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
	GArray *tus = report_groups(r, GROUP_TU);
	if (tus->len) {
		guint n = MIN(tus->len, 10u);
		char *head = tus->len > n ? g_strdup_printf("per TU (the %u costliest of %u)", n, tus->len)
					  : g_strdup("per TU");
		g_string_append_printf(o, "%s\n  %8s %14s %8s  %s\n", head, "edges", "time", "share", "TU (target): its longest edge");
		g_free(head);
		for (guint i = 0; i < n; i++) {
			const ReportGroup *g = &g_array_index(tus, ReportGroup, i);
			const ReportEdge *l = g->longest;
			char *t = secs(g->ms), *lt = secs(l->end_ms - l->start_ms);
			char *u = clean_text(g->name);
			GString *pc = g_string_new(NULL);
			put_pct(pc, g->ms, r->edge_ms);
			g_string_append_printf(o, "  %8u %14s %8s  %s: %s%s%s %s\n", g->n, t, pc->str, u, l->kind,
					       l->arch ? " " : "", l->arch ? l->arch : "", lt);
			g_string_free(pc, TRUE);
			g_free(u);
			g_free(lt);
			g_free(t);
		}
	}
	g_array_free(tus, TRUE);
	return o;
}

