/* history.c -- BUILDDIR/.cugen/edges.log; see history.h. */
#include "history.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "safepath.h"
#include "statefile.h"
#include "units.h"
#include "util.h"

/* edges.log's lines are "tag\tstep\trss KiB\tcpu s\twall s": a build at
 * 10,000 TUs logs some 300,000 of them, read while the graph is built.
 * They are found in place (no line is copied or split), the latest per
 * "tag\tstep" by an open-addressed table of key hashes. */
typedef struct {
	char *line;
	char *tab[4];          /* its four tabs */
	guint32 hash;          /* of "tag\tstep" */
} Line;

static gboolean same_key(const Line *a, const Line *b)
{
	gsize n = a->tab[1] - a->line;
	return (gsize)(b->tab[1] - b->line) == n && memcmp(a->line, b->line, n) == 0;
}

/* cg_table_slot's comparison: a value is 1 + an index into lines */
typedef struct {
	GArray *lines;
	const Line *x;
} LineKey;

static gboolean same_line(gconstpointer value, gconstpointer key)
{
	const LineKey *k = key;
	return same_key(&g_array_index(k->lines, Line, GPOINTER_TO_UINT(value) - 1), k->x);
}

/* A number `cugen exec` writes: 1 to 15 digits, at most one '.' (so no
 * sign, no nan, no inf, no exponent), ending at end. */
static gboolean plain_number(const char *p, const char *end)
{
	int digits = 0, dots = 0;
	for (; p < end; p++) {
		if (*p == '.' && !dots++)
			continue;
		if (*p < '0' || *p > '9' || ++digits > 15)
			return FALSE;
	}
	return digits > 0;
}

static double read_number(const char *s);

/* What one step of one edge can measure: a restored or hand-made log
 * (a CI cache) with more is damaged, not a plan that serialises the
 * build. 1 TiB of memory, a million seconds (11.6 days). */
#define MAX_RSS_KIB 1073741824.0
#define MAX_SECONDS 1e6

/* A line as `cugen exec` writes it: a tag, a program name, and three
 * plain numbers, each within what a step can measure. */
static gboolean line_ok(const Line *x, const char *end)
{
	if (x->tab[0] == x->line || x->tab[1] == x->tab[0] + 1)
		return FALSE;
	for (const char *c = x->tab[0] + 1; c < x->tab[1]; c++)
		if (!g_ascii_isalnum(*c) && !strchr("_.+-", *c))
			return FALSE;
	return plain_number(x->tab[1] + 1, x->tab[2]) && plain_number(x->tab[2] + 1, x->tab[3]) &&
	       plain_number(x->tab[3] + 1, end) && read_number(x->tab[1] + 1) <= MAX_RSS_KIB &&
	       read_number(x->tab[2] + 1) <= MAX_SECONDS && read_number(x->tab[3] + 1) <= MAX_SECONDS;
}

/* The latest line per "tag\tstep" (of 5 fields), in first-seen order:
 * pointers into data, whose newlines become NULs. A line of another form
 * (a garbled or hand-made one) is counted in *bad and left out. */
static GArray *latest_lines(char *data, guint *bad)
{
	GArray *lines = g_array_new(FALSE, FALSE, sizeof(Line));
	CgTable index;
	cg_table_init(&index);
	for (char *l = data; l && *l;) {
		char *end = strchrnul(l, '\n');
		char *next = *end ? end + 1 : NULL;
		*end = 0;
		Line x = { l, { NULL }, 0 };
		int tabs = 0;
		for (char *c = l; (c = strchr(c, '\t')); c++)
			if (tabs++ < 4)
				x.tab[tabs - 1] = c;
		l = next;
		if (tabs != 4 || !line_ok(&x, end)) {
			if (*x.line && bad)
				(*bad)++;
			continue;
		}
		x.hash = cg_hash32(x.line, x.tab[1] - x.line);
		LineKey key = { lines, &x };
		CgSlot *slot = cg_table_slot(&index, x.hash, same_line, &key);
		if (slot->value) {
			g_array_index(lines, Line, GPOINTER_TO_UINT(slot->value) - 1) = x;
			continue;
		}
		g_array_append_val(lines, x);
		cg_table_fill(&index, slot, x.hash, GUINT_TO_POINTER(lines->len));
	}
	cg_table_clear(&index);
	return lines;
}

static GString *compact_text(GArray *lines)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < lines->len; i++) {
		cg_puts(s, g_array_index(lines, Line, i).line);
		cg_put(s, "\n", 1);
	}
	return s;
}

/* A number as `cugen exec` writes it ("%ld", "%.3f"): digits with at most
 * one '.', read exactly as strtod would (digits below 2^53 over a power
 * of ten up to 10^22 are exact, so one division rounds correctly);
 * anything else through g_ascii_strtod. 600,000 of them at 10,000 TUs. */
static double read_number(const char *s)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					1e12, 1e13, 1e14, 1e15 };
	guint64 m = 0;
	int digits = 0, frac = -1;
	const char *p = s;
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && frac < 0); p++) {
		if (*p == '.') {
			frac = 0;
			continue;
		}
		m = m * 10 + (guint64)(*p - '0');
		digits++;
		if (frac >= 0)
			frac++;
	}
	if (!digits || digits > 15 || (*p && *p != '\t'))
		return g_ascii_strtod(s, NULL);
	return (double)m / pow10[frac > 0 ? frac : 0];
}

static char *log_path(const char *builddir)
{
	return g_build_filename(builddir, ".cugen", "edges.log", NULL);
}

static char *log_data(const char *builddir)
{
	char *path = log_path(builddir);
	/* never through a link (a restored CI cache can hold one) */
	char *data = cg_read_regular(path, CG_READ_MAX, TRUE, NULL, NULL);
	g_free(path);
	return data;
}

History *history_load(const char *builddir)
{
	History *h = g_new0(History, 1);
	history_read(h, builddir);
	return h;
}

/* h's edges: a CgTable by cg_hash32 of the tag, whose values are
 * 1 + an index into h->stats */
typedef struct {
	const char *tag;       /* in h->data (its first tab made a NUL) */
	EdgeStat st;
} Measured;

typedef struct {
	const History *h;
	const char *tag;
	gsize n;
} TagKey;

static gboolean same_tag(gconstpointer value, gconstpointer key)
{
	const TagKey *k = key;
	const char *tag = g_array_index(k->h->stats, Measured, GPOINTER_TO_UINT(value) - 1).tag;
	return strncmp(tag, k->tag, k->n) == 0 && !tag[k->n];
}

static EdgeStat *add_edge(History *h, const char *tag, gsize n)
{
	guint32 hash = cg_hash32(tag, n);
	TagKey key = { h, tag, n };
	CgSlot *s = cg_table_slot(&h->table, hash, same_tag, &key);
	if (!s->value) {
		Measured m = { tag, { 0 } };
		g_array_append_val(h->stats, m);
		cg_table_fill(&h->table, s, hash, GUINT_TO_POINTER(h->stats->len));
		h->edges++;
		return &g_array_index(h->stats, Measured, h->stats->len - 1).st;
	}
	return &g_array_index(h->stats, Measured, GPOINTER_TO_UINT(s->value) - 1).st;
}

void history_read(History *h, const char *builddir)
{
	cg_table_init(&h->table);
	h->stats = g_array_new(FALSE, FALSE, sizeof(Measured));
	h->data = log_data(builddir);
	guint bad = 0;
	GArray *lines = latest_lines(h->data, &bad);
	if (bad)
		cg_warn("%s/.cugen/edges.log: %u damaged line%s ignored", builddir, bad, bad == 1 ? "" : "s");
	h->compact = compact_text(lines);
	for (guint i = 0; i < lines->len; i++) {
		Line *x = &g_array_index(lines, Line, i);
		*x->tab[0] = 0;
		EdgeStat *st = add_edge(h, x->line, x->tab[0] - x->line);
		double rss = read_number(x->tab[1] + 1) * 1024.0;
		st->rss = MAX(st->rss, rss);
		double cpu = read_number(x->tab[2] + 1);
		st->cpu += cpu;
		const char *step = x->tab[0] + 1;
		gsize sn = x->tab[1] - step;
		if (sn == 5 && memcmp(step, "ptxas", 5) == 0)
			st->cpu_ptxas += cpu;
		else if (!(sn == 4 && memcmp(step, "cicc", 4) == 0))
			st->cpu_pre += cpu;
		h->lines++;
	}
	g_array_free(lines, TRUE);
	h->syntax_stub = h->pp_edges = h->ptxas_edges = h->host_rank = h->tail_split = -1;
	char *path = g_build_filename(builddir, ".cugen", "plan.ini", NULL);
	GKeyFile *k = g_key_file_new();
	if (state_load_keyfile(k, path, "plan")) {
		const char *keys[] = { "syntax_stub", "pp_edges", "ptxas_edges", "host_rank" };
		int *vals[] = { &h->syntax_stub, &h->pp_edges, &h->ptxas_edges, &h->host_rank };
		for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
			GError *e = NULL;
			gboolean v = g_key_file_get_boolean(k, "plan", keys[i], &e);
			if (!e)
				*vals[i] = v;
			g_clear_error(&e);
		}
		GError *e = NULL;
		int v = g_key_file_get_integer(k, "plan", "split_compile", &e);
		if (!e && v >= 0) {
			h->tail_split = v;
			h->split_edges = g_key_file_get_string_list(k, "plan", "split_edges", NULL, NULL);
			h->split_guessed = g_key_file_get_boolean(k, "plan", "split_guessed", NULL);
		}
		g_clear_error(&e);
		/* the probe's reading, kept for this directory's next plans */
		char *sp = g_key_file_get_value(k, "plan", "speed", NULL);
		if (sp && units_parse_speed(sp, &h->speed.speed)) {
			h->speed.probe_cpu = MAX(g_key_file_get_double(k, "plan", "speed_cpu", NULL), 0);
			h->speed.probe_jobs = MAX(g_key_file_get_integer(k, "plan", "speed_jobs", NULL), 0);
		}
		g_free(sp);
	}
	g_key_file_free(k);
	g_free(path);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GString *history_choices(gboolean syntax_stub, gboolean pp_edges, gboolean ptxas_edges, int host_rank, int tail_split, GHashTable *split_edges,
			 gboolean split_guessed, const Speed *speed)
{
	GString *s = g_string_new("# cugen's planner: its choices that change commands (history.h)\n[plan]\n");
	g_string_append_printf(s, "syntax_stub=%s\npp_edges=%s\nptxas_edges=%s\n", syntax_stub ? "true" : "false",
			       pp_edges ? "true" : "false", ptxas_edges ? "true" : "false");
	if (host_rank >= 0) /* weighed */
		g_string_append_printf(s, "host_rank=%s\n", host_rank ? "true" : "false");
	if (tail_split >= 0) /* weighed: taken (N) or not (0) */
		g_string_append_printf(s, "split_compile=%d\n%s", split_edges ? tail_split : 0,
				       split_guessed ? "split_guessed=true\n" : "");
	if (split_edges && g_hash_table_size(split_edges)) {
		guint n = 0;
		const char **v = (const char **)g_hash_table_get_keys_as_array(split_edges, &n);
		qsort(v, n, sizeof *v, cmp_strp);
		GKeyFile *k = g_key_file_new();
		g_key_file_set_string_list(k, "plan", "split_edges", v, n);
		char *line = g_key_file_get_value(k, "plan", "split_edges", NULL);
		g_string_append_printf(s, "split_edges=%s\n", line);
		g_free(line);
		g_key_file_free(k);
		g_free(v);
	}
	if (speed && speed->probe_cpu > 0) { /* a probe's: kept for the next plans */
		char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
		g_string_append_printf(s, "speed=%s\nspeed_cpu=%s\nspeed_jobs=%d\n",
				       g_ascii_formatd(a, sizeof a, "%.2f", speed->speed),
				       g_ascii_formatd(b, sizeof b, "%.4f", speed->probe_cpu), speed->probe_jobs);
	}
	return s;
}

static gpointer read_thread(gpointer data)
{
	History *h = data;
	history_read(h, h->loading_dir);
	return NULL;
}

History *history_read_async(const char *builddir)
{
	History *h = g_new0(History, 1);
	h->loading_dir = g_strdup(builddir);
	h->loading = g_thread_new("cugen-history", read_thread, h);
	return h;
}

gboolean history_none(const History *h)
{
	if (!h || !h->loading_dir)
		return TRUE;
	char *path = log_path(h->loading_dir);
	struct stat st;
	const gboolean none = stat(path, &st) != 0 || st.st_size == 0;
	g_free(path);
	return none;
}

void history_join(History *h)
{
	if (h && h->loading)
		g_thread_join(g_steal_pointer(&h->loading));
}

void history_free(History *h)
{
	if (!h)
		return;
	history_join(h);
	g_free(h->loading_dir);
	cg_table_clear(&h->table);
	if (h->stats)
		g_array_free(h->stats, TRUE);
	if (h->compact)
		g_string_free(h->compact, TRUE);
	g_free(h->data);
	g_strfreev(h->split_edges);
	g_free(h);
}

const EdgeStat *history_get(const History *h, const char *output)
{
	gsize n = strlen(output);
	return history_get_hashed(h, output, n, cg_hash32(output, n));
}

const EdgeStat *history_get_hashed(const History *h, const char *output, gsize len, guint32 hash)
{
	if (!h || !h->edges)
		return NULL;
	TagKey key = { h, output, len };
	const CgSlot *s = cg_table_slot(&h->table, hash, same_tag, &key);
	return s->value ? &g_array_index(h->stats, Measured, GPOINTER_TO_UINT(s->value) - 1).st : NULL;
}

GString *history_compact(const char *builddir)
{
	char *data = log_data(builddir);
	GArray *lines = latest_lines(data, NULL);
	GString *s = compact_text(lines);
	g_array_free(lines, TRUE);
	g_free(data);
	return s;
}
