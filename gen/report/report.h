/* report.h -- `cugen report`: where the time of the latest build went.
 *
 * The model (report.c): one edge per build statement that ran with its
 * kind (kinds.h's table) and arch, job slots, the critical path (the
 * longest chain of dependent edges as they ran) and the groups per kind,
 * arch and TU. The outputs (reportfmt.c): DIR/trace.json (Chrome trace /
 * Perfetto), DIR/report.html (from templates/report.html.in) and the text
 * summary on stdout. The command (reportcmd.c): the command line and the
 * run reported. Reading .ninja_log and build.ninja is ninjalog.c's.
 */
#ifndef CUGEN_REPORT_H
#define CUGEN_REPORT_H

#include <glib.h>

#include "kinds.h"
#include "ninjalog.h"

typedef struct ReportEdge ReportEdge;
struct ReportEdge {
	char *name;           /* its first output */
	GPtrArray *outputs;   /* char*: every output the log has for it */
	EdgeKind ek;          /* EK_COUNT: not an edge of build.ninja */
	const char *kind;     /* its name: "fe", "dev", ... "other" (static) */
	char *arch;           /* "sm_80" for per-arch edges, else NULL */
	char *target;         /* the cugen target, or NULL */
	char *tu;             /* the translation unit, or NULL */
	char *unit;           /* "TU (TARGET)", the per-TU table's key, or NULL */
	const char *rule;     /* the ninja rule, or NULL (owned by the manifest) */
	gint64 start_ms, end_ms;
	guint slot;           /* job slot, from 1 */
	gboolean critical;
	gint64 chain_ms;      /* the longest chain of this run ending here */
	ReportEdge *chain_pred; /* the edge before it on that chain, or NULL */
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
	char *project;        /* the project's name, or NULL (build.ninja's first line) */
	guint regen_runs;     /* later runs passed over: they only regenerated the build files */
} Report;

typedef struct {
	const char *name;     /* the kind, arch or "TU (TARGET)" */
	guint n;
	gint64 ms;
	const ReportEdge *longest;
	gint64 busy_ms;       /* time with at least one of its edges running */
	gint64 first_ms, last_ms;
} ReportGroup;

typedef enum { GROUP_KIND, GROUP_ARCH, GROUP_TU } ReportGroupBy;

/* ReportGroups per kind or TU (by time, most first) or per arch (in arch
 * order: sm_80 < compute_80 < sm_90 < sm_90a < sm_100). */
GArray *report_groups(const Report *r, ReportGroupBy by);
/* The most expensive device compiles (TU x arch: dev and dev-cicc edges;
 * with split = tu, TU x all archs), at most n. */
GPtrArray *report_top_dev(const Report *r, guint n);

/* The name of edge_kind_of_rule()'s kind, "other" for a rule cugen does
 * not write. */
const char *report_edge_kind(const char *rule, const char *description, char **arch);

/* The report of the log's latest run against the manifest (may be NULL:
 * then every edge is "other" and the critical path its longest edge). */
Report *report_compute(const NinjaLog *log, const Manifest *m);
void report_free(Report *r);

/* The outputs, for a log found at log_path (as shown to the user). */
GString *report_trace_json(const Report *r, const NinjaLog *log, const char *log_path);
GString *report_html(const Report *r, const NinjaLog *log, const char *log_path);
GString *report_summary(const Report *r, const NinjaLog *log, const char *log_path);

#endif
