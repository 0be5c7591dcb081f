/* report.h -- `cugen report`: where the time of the latest build went.
 *
 * Owns: the command line of `report`, the classification of ninja edges
 * by the rule names cugen writes (edge kind and GPU arch), job-slot
 * assignment, the critical path, the per-kind and per-arch tables, and
 * the three outputs: DIR/trace.json (Chrome trace / Perfetto),
 * DIR/report.html (from templates/report.html.in) and the text summary on
 * stdout. Reading .ninja_log and build.ninja is ninjalog.c's.
 */
#ifndef CUGEN_REPORT_H
#define CUGEN_REPORT_H

#include <glib.h>

#include "ninjalog.h"

typedef struct ReportEdge ReportEdge;
struct ReportEdge {
	char *name;           /* its first output */
	GPtrArray *outputs;   /* char*: every output the log has for it */
	const char *kind;     /* "fe", "dev", ... "other" (static) */
	char *arch;           /* "sm_80" for per-arch edges, else NULL */
	char *target;         /* the cugen target, or NULL */
	char *tu;             /* the translation unit, or NULL */
	const char *rule;     /* the ninja rule, or NULL (owned by the manifest) */
	gint64 start_ms, end_ms;
	guint slot;           /* job slot, from 1 */
	gboolean critical;
	guint order;          /* position of its first line in the run */
	const ManifestEdge *me; /* its build statement, or NULL */
};

typedef struct {
	GPtrArray *edges;     /* ReportEdge*, by start time */
	GPtrArray *critical;  /* ReportEdge*: the critical path, first to last */
	guint slots;
	gint64 wall_ms;       /* the last end (times count from ninja's start) */
	gint64 edge_ms;       /* the sum of the edges' durations */
	gint64 critical_ms;   /* the sum of the critical path's durations */
	guint graph_edges;    /* edges of build.ninja other than phony ones */
	guint unknown;        /* edges of the log that build.ninja does not have */
} Report;

/* The kind of an edge made by rule (its description as build.ninja has
 * it, or NULL), and in *arch its GPU arch where it has one (dev, nvlink,
 * dlink-obj), else NULL. */
const char *report_edge_kind(const char *rule, const char *description, char **arch);

/* The report of the log's latest run against the manifest (may be NULL:
 * then every edge is "other" and the critical path is the last edge). */
Report *report_compute(const NinjaLog *log, const Manifest *m);
void report_free(Report *r);

/* The outputs, for a log found at log_path (as shown to the user). */
GString *report_trace_json(const Report *r, const NinjaLog *log, const char *log_path);
GString *report_html(const Report *r, const NinjaLog *log, const char *log_path);
GString *report_summary(const Report *r, const NinjaLog *log, const char *log_path);

#endif
