/* util.h -- errors, warnings, quoting, paths and atomic file output.
 *
 * Owns: the error domain and the one-line error format of cugen(1)'s
 * DIAGNOSTICS ("FILE:LINE: error: MESSAGE" / "error: MESSAGE"), shell and ninja
 * quoting, "did you mean" suggestions, path helpers, the staging of
 * output files so that a failed run leaves the build directory untouched,
 * the fast appends, hash and hash table that setup at scale needs,
 * little-endian reads (ELF and fatbin headers), and finding the ninja
 * that runs a helper (/proc). Made by util.c and stage.c (the staging).
 */
#ifndef CUGEN_UTIL_H
#define CUGEN_UTIL_H

#include <glib.h>
#include <string.h>
#include <sys/types.h>

/* Little-endian integers at p (ELF and fatbin headers), unaligned. */
static inline guint16 cg_rd16(const guint8 *p)
{
	guint16 v;
	memcpy(&v, p, sizeof v);
	return GUINT16_FROM_LE(v);
}

static inline guint32 cg_rd32(const guint8 *p)
{
	guint32 v;
	memcpy(&v, p, sizeof v);
	return GUINT32_FROM_LE(v);
}

static inline guint64 cg_rd64(const guint8 *p)
{
	guint64 v;
	memcpy(&v, p, sizeof v);
	return GUINT64_FROM_LE(v);
}

#define CUGEN_ERROR (cugen_error_quark())
GQuark cugen_error_quark(void);

enum {
	CUGEN_ERROR_INPUT = 1, /* bad INI or environment: exit 1 */
	CUGEN_ERROR_USAGE = 2, /* bad command line: exit 2 */
};

/* Error located in a file: message "FILE:LINE: error: ...". */
void cg_error_at(GError **err, const char *file, int line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);
/* Error at a location that may be a file line (line > 0), a command-line
 * argument (file names it, line 0: "error: FILE: ...") or nothing. */
void cg_error_loc(GError **err, const char *file, int line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);
/* Error without a location: message "error: ...". */
void cg_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Usage error (exit status 2): message "error: ...". */
void cg_usage_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Print "cugen: MESSAGE" and return the exit status for err. */
int cg_report(const GError *err);
void cg_warn(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
void cg_note(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* After cg_timing_enable() (-d timing), prints to stderr the time since
 * the last mark (or the first call) as "cugen: timing: WHAT N ms". */
void cg_timing(const char *what);
void cg_timing_enable(void);

/* The candidate closest to word (edit distance <= 2 or a case change), or
 * NULL. candidates is NULL-terminated. */
const char *cg_suggest(const char *word, const char *const *candidates);

/* Quote s for /bin/sh if needed ("abc" stays abc, "a b" becomes 'a b'). */
char *cg_sh_quote(const char *s);

/* A fast hash of n bytes (8 at a time, multiply and fold): the graph's
 * interned strings and the edge log's lines. */
guint32 cg_hash32(const char *s, gsize n);

/* An open-addressed table of (hash, value) pairs, probed linearly and at
 * most half full; a value is compared (same) only when the hashes match.
 * For the graph's 300,000 interned strings and the edge log's lines,
 * where GHashTable's hashing and probing cost a fifth of setup. */
typedef struct {
	guint32 hash;
	gpointer value;        /* NULL: free */
} CgSlot;

typedef struct {
	CgSlot *slots;
	guint mask, used;
} CgTable;

void cg_table_init(CgTable *t);
/* Room for n values without growing, in a table still empty. */
void cg_table_reserve(CgTable *t, guint n);
void cg_table_clear(CgTable *t);
/* The slot of the value with this hash that same(value, key) accepts,
 * else the free slot where it would go. */
CgSlot *cg_table_slot(const CgTable *t, guint32 hash, gboolean (*same)(gconstpointer value, gconstpointer key),
		      gconstpointer key);
/* Fill the free slot s (from cg_table_slot); slots move when it grows. */
void cg_table_fill(CgTable *t, CgSlot *s, guint32 hash, gpointer value);

/* Append n bytes of s (or the string s): a memcpy when o has room, else
 * g_string_append_len. GLib 2.74's appends check and re-measure on every
 * call, which was a fifth of setup's instructions at 10,000 TUs. */
static inline void cg_put(GString *o, const char *s, gsize n)
{
	if (o->len + n < o->allocated_len) {
		memcpy(o->str + o->len, s, n);
		o->len += n;
		o->str[o->len] = 0;
	} else {
		g_string_append_len(o, s, (gssize)n);
	}
}

static inline void cg_puts(GString *o, const char *s)
{
	cg_put(o, s, strlen(s));
}
/* cg_sh_quote for a ninja rule's command: '$' doubled as well. */
char *cg_ninja_sh_quote(const char *s);
void cg_sh_append(GString *out, const char *arg);
/* Split a command-line-like string on whitespace, honouring '' and "". */
gboolean cg_split_words(const char *s, GPtrArray *out, GError **err);
/* Split a list value: words separated by spaces or commas; "..." quotes. */
gboolean cg_split_list(const char *s, GPtrArray *out, GError **err);
/* Split a defines value as CMake writes definitions: NAME or NAME=VALUE
 * separated by spaces or commas, where the value keeps its quotes
 * (VERSION="1.0" is the string "1.0") and a quoted run or parentheses
 * hold spaces and commas (MSG="a, b", MAX(a,b)=...); a word that starts
 * with a quote is the text inside it ("NAME=a b"). */
gboolean cg_split_defines(const char *s, GPtrArray *out, GError **err);

/* Paths. cg_path_join returns a normalised join; cg_relpath returns path
 * relative to dir (both absolute, normalised). */
char *cg_path_norm(const char *path);
char *cg_path_join(const char *a, const char *b);
char *cg_abspath(const char *path);
char *cg_relpath(const char *path, const char *dir);
/* Whether two absolute paths share their first two components
 * ("/home/a/repo/utils" and "/home/a/repo/proj"): a directory beside a
 * project, in the same repository, rather than one of the system's. */
gboolean cg_path_near(const char *a, const char *b);

/* Write n bytes to fd (retrying short writes and EINTR); FALSE and
 * errno on failure. */
gboolean cg_write_all(int fd, const char *p, gsize n);

/* Output staging: files are written to temporary names beside their
 * targets and renamed into place only by stage_commit(), after every
 * file was written. stage_abort() removes the temporaries. */
typedef struct Stage Stage;
Stage *stage_new(void);
void stage_add(Stage *st, const char *path, GString *contents);
/* Written even when the content is unchanged (the mtime matters). */
void stage_add_always(Stage *st, const char *path, GString *contents);
gboolean stage_commit(Stage *st, GError **err);
void stage_free(Stage *st);
/* Hold the build directory builddir for this process, so that two
 * setups (or a setup and a combine) never mix their files: an exclusive
 * flock(2) on the directory, taken through its nearest existing parent
 * (held instead while builddir does not exist yet, until the process
 * ends). Waits while another cugen holds it (saying so to a terminal);
 * writes nothing. Let go by stage_unlock_dir or at exit. */
void stage_lock_dir(const char *builddir);
void stage_unlock_dir(void);

/* A hash of the bytes, as lowercase hex (sha256). */
char *cg_hash_hex(const void *data, gsize len);

/* The ninja that runs this process: the first ancestor within four
 * generations whose program's name starts with "ninja" (ninja runs
 * `sh -c`, which may run a wrapper first), or 0; with argv, that
 * ninja's command line (to free). */
pid_t cg_ninja_ancestor(char ***argv);

#endif
