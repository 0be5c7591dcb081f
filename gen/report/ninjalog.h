/* ninjalog.h -- reading what ninja leaves in a build directory: the
 * build log (.ninja_log) and the manifest (build.ninja).
 *
 * Owns: the .ninja_log reader (versions 5, 6 and 7: "# ninja log vN",
 * then "START\tEND\tMTIME\tOUTPUT\tCMDHASH" lines) and what counts as
 * "the latest run" of a log that several builds appended to; and a
 * reader of the parts of a ninja manifest that `cugen report` needs:
 * rules with their descriptions and build statements with their outputs
 * and inputs (escapes and continuations handled, variables left as
 * written).
 */
#ifndef CUGEN_NINJALOG_H
#define CUGEN_NINJALOG_H

#include <glib.h>

/* ---- .ninja_log ---- */

typedef struct {
	gint64 start_ms;      /* since the start of its ninja run */
	gint64 end_ms;
	gint64 mtime;         /* as ninja wrote it (its meaning varies by version) */
	char *output;
	char *hash;           /* the command hash, as written */
	guint line;           /* 1-based line in the log */
} NinjaLogEntry;

typedef struct {
	int version;          /* 5, 6 or 7; 0 for an empty file */
	GPtrArray *all;       /* NinjaLogEntry*: every well-formed line, in order */
	/* The latest run: its entries in log order, one per output (later
	 * lines win). Points into all. */
	GPtrArray *latest;
	guint latest_first;   /* the index in all of latest's first entry */
	guint runs;           /* runs found in the log (0 when it has no entries) */
	guint malformed;      /* malformed lines skipped (not the truncated last one) */
	guint first_malformed;/* the line number of the first of them */
	gboolean truncated;   /* the last line was cut off (no newline, incomplete) */
} NinjaLog;

/* Parse a log's bytes. name is used in error messages. A run starts where
 * an entry ends earlier than the one before it (ninja writes the entries
 * of one run as edges finish, each run's times counted from its own
 * start), or after an earlier line for an output that appears again (a
 * run builds an output once). An empty file or a header alone gives a log
 * without entries. NULL (and err) when the header is missing or names a
 * version other than 5, 6 or 7. */
NinjaLog *ninjalog_parse(const char *data, gsize len, const char *name, GError **err);
void ninjalog_free(NinjaLog *log);
/* Make latest the run before it (by the same two rules, on the lines
 * before it); FALSE, and nothing changed, when there is none. */
gboolean ninjalog_select_earlier(NinjaLog *log);

/* ---- build.ninja ---- */

typedef struct {
	char *rule;
	GPtrArray *outs;          /* char*: explicit outputs */
	GPtrArray *implicit_outs; /* after '|' */
	GPtrArray *ins;           /* explicit inputs */
	GPtrArray *implicit_ins;  /* after '|' */
	GPtrArray *order_ins;     /* after '||' (validations, '|@', are dropped) */
	guint line;
} ManifestEdge;

typedef struct {
	GHashTable *rules;        /* name -> description (unescaped; "" if none) */
	GPtrArray *edges;         /* ManifestEdge*, in file order */
	GHashTable *producer;     /* output path -> ManifestEdge* */
} Manifest;

/* Parse a manifest's text. Per-edge and top-level variable bindings,
 * pools, defaults, include and subninja are skipped. NULL (and err, at
 * "NAME:LINE") on a malformed rule or build statement. */
Manifest *manifest_parse(const char *text, gsize len, const char *name, GError **err);
void manifest_free(Manifest *m);

#endif
