/* tuscan.c -- the first plan's look at a TU's text; see tuscan.h. */
#include "tuscan.h"

#include <math.h>
#include <string.h>

#include "safepath.h"
#include "util.h"

/* A file larger than this is not read (a generated table, not code), and
 * a TU stops following includes after this many files. */
#define SCAN_FILE_MAX ((gsize)4 << 20)
#define SCAN_FILES_MAX 4096u

/* #define NAME(PARAMS) BODY: with one parameter, how many times BODY
 * calls it (an X-list's items); the explicit instantiations BODY holds,
 * and the names it calls that are not its parameters (other macros
 * applied: DECL_CASE(T) expanding to three DECL_CASE_HELPER(T, N)). */
typedef struct {
	char *name;
	guint items, inst;
	GPtrArray *uses;    /* char*, one per call, not after `extern` */
} Macro;

/* What a file holds, or a set of headers with everything they include
 * (made once per set: TuScanner.sets, by the set and the directories
 * searched; its names and macros the files' own, TuScanner.files). */
typedef struct {
	gboolean heavy;     /* it includes CUB, Thrust, CUTLASS or CuTe */
	gboolean using_cub; /* it says `using namespace cub` */
	guint kernels, inst, unrolls, files;
	GPtrArray *calls;   /* char*: cub::DeviceScan::InclusiveSum, thrust::sort */
	GPtrArray *bare;    /* char*: the same without "cub::" in the text */
	GPtrArray *invokes; /* char*: LIST, then ARG, for each LIST(ARG) line */
	GPtrArray *applied; /* char*: NAME of each line NAME(...) not after `extern` */
	GPtrArray *macros;  /* Macro*, in the order read: the first of a name counts */
} HeaderSet;

/* What one file says, read once. */
typedef struct {
	HeaderSet text;     /* what it holds itself (files: 1; the arrays own their items) */
	GPtrArray *incs;    /* char*: '<' or '"', then the name */
	gboolean full;      /* read whole, not only for its #includes (a system header) */
	char *dir;
} FileScan;

struct TuScanner {
	GHashTable *files;  /* normalised path -> FileScan* */
	GHashTable *sets;   /* directories and first headers -> HeaderSet* */
	GHashTable *exists; /* normalised path -> GINT_TO_POINTER(1 + is a file) */
};

static void set_free(gpointer p);

static void macro_free(gpointer p)
{
	Macro *m = p;
	g_free(m->name);
	g_ptr_array_free(m->uses, TRUE);
	g_free(m);
}

static void file_free(gpointer p)
{
	FileScan *f = p;
	g_ptr_array_free(f->incs, TRUE);
	g_ptr_array_free(f->text.calls, TRUE);
	g_ptr_array_free(f->text.bare, TRUE);
	g_ptr_array_free(f->text.macros, TRUE);
	g_ptr_array_free(f->text.invokes, TRUE);
	g_ptr_array_free(f->text.applied, TRUE);
	g_free(f->dir);
	g_free(f);
}

TuScanner *tuscan_new(void)
{
	TuScanner *s = g_new0(TuScanner, 1);
	s->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, file_free);
	s->exists = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s->sets = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, set_free);
	return s;
}

void tuscan_free(TuScanner *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->files);
	g_hash_table_destroy(s->exists);
	g_hash_table_destroy(s->sets);
	g_free(s);
}

static gboolean is_id(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* The text without comments, each backslash-newline a space: logical
 * lines. A string or character literal keeps its quotes, its contents
 * only in a directive (#include "x.h"). One pass: whether the line is a
 * directive is known from its first character that is not a blank. */
static char *strip(const char *t, gsize n)
{
	char *o = g_malloc(n + 1), *w = o;
	enum { BLANK, DIRECTIVE, CODE } line = BLANK;
	for (gsize i = 0; i < n; i++) {
		char c = t[i];
		if (c == '\\' && i + 1 < n && t[i + 1] == '\n') {
			*w++ = ' ';
			i++;
		} else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
			while (i < n && t[i] != '\n')
				i += t[i] == '\\' && i + 1 < n && t[i + 1] == '\n' ? 2 : 1;
			if (i < n) {
				*w++ = '\n';
				line = BLANK;
			}
		} else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
			for (i += 2; i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/'); i++)
				if (t[i] == '\n') {
					*w++ = '\n';
					line = BLANK;
				}
			i++;
			*w++ = ' ';
		} else if (c == '"' || c == '\'') {
			const gboolean keep = line == DIRECTIVE;
			line = line == BLANK ? CODE : line;
			*w++ = c;
			for (i++; i < n && t[i] != c && t[i] != '\n'; i++) {
				if (t[i] == '\\' && i + 1 < n) {
					*w++ = keep ? t[i] : ' ';
					i++;
				}
				*w++ = keep || t[i] == '\n' ? t[i] : ' ';
				if (t[i] == '\n')
					line = BLANK;
			}
			if (i < n) {
				*w++ = t[i];
				if (t[i] == '\n')
					line = BLANK;
			}
		} else {
			*w++ = c;
			if (c == '\n')
				line = BLANK;
			else if (line == BLANK && c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v')
				line = c == '#' ? DIRECTIVE : CODE;
		}
	}
	*w = 0;
	return o;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
		p++;
	return p;
}

/* An identifier at p: its length (0: none). */
static gsize id_len(const char *p)
{
	gsize n = 0;
	if (g_ascii_isdigit(*p))
		return 0;
	while (is_id(p[n]))
		n++;
	return n;
}

/* Whether word starts at p, whole. */
static gboolean word_at(const char *line, const char *p, const char *word)
{
	gsize n = strlen(word);
	return strncmp(p, word, n) == 0 && !is_id(p[n]) && (p == line || !is_id(p[-1]));
}

/* Whether the word before p (in text) is `extern`. */
static gboolean after_extern(const char *text, const char *p)
{
	while (p > text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p - text >= 6 && strncmp(p - 6, "extern", 6) == 0 && (p - 6 == text || !is_id(p[-7]));
}

/* An explicit instantiation at p ("template" not followed by '<', not
 * after "extern"). */
static gboolean instantiation_at(const char *line, const char *p)
{
	if (!word_at(line, p, "template"))
		return FALSE;
	const char *q = skip_space(p + 8);
	if (q == p + 8 || *q == '<' || !*q)
		return FALSE;
	return !after_extern(line, p);
}

static guint count_instantiations(const char *line)
{
	guint n = 0;
	for (const char *p = strstr(line, "template"); p; p = strstr(p + 8, "template"))
		n += instantiation_at(line, p);
	return n;
}

static guint count_word(const char *line, const char *word)
{
	guint n = 0;
	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word))
		n += word_at(line, p, word);
	return n;
}

/* Thrust's algorithms that launch device-wide work. */
static const char *const thrust_algos[] = {
	"sort", "sort_by_key", "stable_sort", "stable_sort_by_key", "reduce", "reduce_by_key", "inclusive_scan",
	"exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key", "transform", "transform_reduce",
	"transform_inclusive_scan", "transform_exclusive_scan", "copy_if", "remove_if", "remove_copy_if", "unique",
	"unique_by_key", "unique_count", "count", "count_if", "min_element", "max_element", "minmax_element",
	"partition", "stable_partition", "merge", "merge_by_key", "set_union", "set_intersection",
	"set_difference", "lower_bound", "upper_bound", "binary_search", "for_each", "for_each_n", "gather",
	"scatter", "sequence", "fill", "tabulate", "inner_product", "adjacent_difference", "find_if",
	"all_of", "any_of", "none_of", "equal", "mismatch", "replace_if", "generate", "uninitialized_fill",
};

static void add_call(GPtrArray *calls, char *name)
{
	for (guint i = 0; i < calls->len; i++)
		if (strcmp(g_ptr_array_index(calls, i), name) == 0) {
			g_free(name);
			return;
		}
	g_ptr_array_add(calls, name);
}

/* CUB's name at a (after "cub::", or bare), added to calls as
 * cub::NAME: DeviceX::Y, BlockX, WarpX (a primitive inside a kernel). */
static void cub_name(const char *a, GPtrArray *calls)
{
	gsize n = id_len(a);
	if (n > 6 && strncmp(a, "Device", 6) == 0 && g_ascii_isupper(a[6]) && a[n] == ':' && a[n + 1] == ':' &&
	    id_len(a + n + 2))
		add_call(calls, g_strdup_printf("cub::%.*s", (int)(n + 2 + id_len(a + n + 2)), a));
	else if ((n > 5 && strncmp(a, "Block", 5) == 0 && g_ascii_isupper(a[5])) ||
		 (n > 4 && strncmp(a, "Warp", 4) == 0 && g_ascii_isupper(a[4])))
		add_call(calls, g_strdup_printf("cub::%.*s", (int)n, a));
}

/* The device-wide calls a line names: cub::DeviceX::Y, cub::BlockX and
 * cub::WarpX, thrust::ALGO; into bare, CUB's names without "cub::" (they
 * count where a file says `using namespace cub`). */
static void find_calls(const char *line, GPtrArray *calls, GPtrArray *bare)
{
	for (const char *p = strstr(line, "cub::"); p; p = strstr(p + 5, "cub::"))
		if (p == line || (!is_id(p[-1]) && p[-1] != ':'))
			cub_name(p + 5, calls);
	for (const char *p = line; bare && *p; p++)
		if ((*p == 'D' || *p == 'B' || *p == 'W') && (p == line || (!is_id(p[-1]) && p[-1] != ':')))
			cub_name(p, bare);
	for (const char *p = strstr(line, "thrust::"); p; p = strstr(p + 8, "thrust::")) {
		if (p > line && (is_id(p[-1]) || p[-1] == ':'))
			continue;
		const char *a = p + 8;
		gsize n = id_len(a);
		const char *q = skip_space(a + n);
		if (!n || (*q != '(' && *q != '<'))
			continue;
		for (guint i = 0; i < G_N_ELEMENTS(thrust_algos); i++)
			if (strlen(thrust_algos[i]) == n && strncmp(a, thrust_algos[i], n) == 0)
				add_call(calls, g_strndup(p, (gsize)(a + n - p)));
	}
}

static gboolean heavy_name(const char *name)
{
	static const char *const libs[] = { "cub/", "thrust/", "cutlass/", "cute/" };
	for (guint i = 0; i < G_N_ELEMENTS(libs); i++)
		if (g_str_has_prefix(name, libs[i]))
			return TRUE;
	return FALSE;
}

/* The names body calls, NAME( or NAME (, but its params and a call
 * after `extern` (a declaration of an instantiation made elsewhere). */
static void macro_uses(const char *body, const char *const *params, GPtrArray *uses)
{
	for (const char *p = body; *p;) {
		gsize n = id_len(p);
		if (!n || (p > body && is_id(p[-1]))) {
			p += n ? n : 1;
			continue;
		}
		if (*skip_space(p + n) == '(' && !after_extern(body, p)) {
			gboolean param = FALSE;
			for (const char *const *a = params; *a && !param; a++)
				param = strlen(*a) == n && strncmp(*a, p, n) == 0;
			if (!param)
				g_ptr_array_add(uses, g_strndup(p, n));
		}
		p += n;
	}
}

/* A preprocessor line (after '#'). */
static void directive(FileScan *f, const char *d)
{
	d = skip_space(d);
	if (word_at(d, d, "include")) {
		const char *q = skip_space(d + 7);
		char close = *q == '<' ? '>' : *q == '"' ? '"' : 0;
		const char *e = close ? strchr(q + 1, close) : NULL;
		if (e && e > q + 1) {
			char *name = g_strndup(q + 1, (gsize)(e - q - 1));
			f->text.heavy |= heavy_name(name);
			g_ptr_array_add(f->incs, g_strdup_printf("%c%s", *q, name));
			g_free(name);
		}
	} else if (word_at(d, d, "pragma")) {
		const char *q = skip_space(d + 6);
		f->text.unrolls += word_at(q, q, "unroll");
	} else if (word_at(d, d, "define")) {
		const char *q = skip_space(d + 6);
		gsize n = id_len(q);
		if (!n || q[n] != '(')
			return;
		const char *close = strchr(q + n, ')');
		if (!close)
			return;
		char *list = g_strndup(q + n + 1, (gsize)(close - q - n - 1));
		char **params = g_strsplit(list, ",", 0);
		g_free(list);
		for (char **a = params; *a; a++)
			g_strstrip(*a);
		const char *body = close + 1;
		Macro *m = g_new0(Macro, 1);
		m->name = g_strndup(q, n);
		m->uses = g_ptr_array_new_with_free_func(g_free);
		const char *param = params[0] && !params[1] && id_len(params[0]) ? params[0] : NULL;
		gsize pn = param ? strlen(param) : 0;
		for (const char *p = param ? strstr(body, param) : NULL; p; p = strstr(p + pn, param))
			m->items += word_at(body, p, param) && *skip_space(p + pn) == '(';
		m->inst = count_instantiations(body);
		macro_uses(body, (const char *const *)params, m->uses);
		g_strfreev(params);
		g_ptr_array_add(f->text.macros, m);
		find_calls(body, f->text.calls, f->text.bare);
		f->text.kernels += count_word(body, "__global__");
	}
}

/* LIST(ARG) alone on a line (an X-list applied), recorded as a pair. */
static void invocation(FileScan *f, const char *l)
{
	gsize n = id_len(l);
	if (!n)
		return;
	const char *a = skip_space(l + n);
	if (*a != '(')
		return;
	a = skip_space(a + 1);
	gsize an = id_len(a);
	const char *e = an ? skip_space(a + an) : NULL;
	if (!e || *e != ')')
		return;
	e = skip_space(e + 1);
	if (*e == ';')
		e = skip_space(e + 1);
	if (*e)
		return;
	g_ptr_array_add(f->text.invokes, g_strndup(l, n));
	g_ptr_array_add(f->text.invokes, g_strndup(a, an));
}

/* A file read: a project file whole, a system header (system) for its
 * #includes alone (what set_add counts of it). */
static FileScan *scan_file(const char *path, gboolean system)
{
	FileScan *f = g_new0(FileScan, 1);
	f->full = !system;
	f->text.files = 1;
	f->incs = g_ptr_array_new_with_free_func(g_free);
	f->text.calls = g_ptr_array_new_with_free_func(g_free);
	f->text.bare = g_ptr_array_new_with_free_func(g_free);
	f->text.macros = g_ptr_array_new_with_free_func(macro_free);
	f->text.invokes = g_ptr_array_new_with_free_func(g_free);
	f->text.applied = g_ptr_array_new_with_free_func(g_free);
	f->dir = g_path_get_dirname(path);
	gsize n = 0;
	char *text = cg_read_regular(path, SCAN_FILE_MAX, FALSE, &n, NULL);
	if (!text)
		return f;
	char *t = strip(text, n);
	g_free(text);
	for (char *line = t, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		const char *l = skip_space(line);
		if (*l == '#') {
			const char *d = skip_space(l + 1);
			if (!system || word_at(d, d, "include"))
				directive(f, l + 1);
			continue;
		}
		if (system)
			continue;
		f->text.kernels += count_word(l, "__global__");
		f->text.inst += count_instantiations(l);
		find_calls(l, f->text.calls, f->text.bare);
		invocation(f, l);
		gsize name = id_len(l);
		if (name && *skip_space(l + name) == '(')
			g_ptr_array_add(f->text.applied, g_strndup(l, name));
		if (word_at(l, l, "using")) {
			const char *q = skip_space(l + 5);
			f->text.using_cub |= word_at(q, q, "namespace") && strncmp(skip_space(q + 9), "cub", 3) == 0 &&
					!is_id(skip_space(q + 9)[3]);
		}
	}
	g_free(t);
	return f;
}

/* Whether path is a regular file, asked of the file system once. */
static gboolean is_file(TuScanner *s, const char *path)
{
	gpointer v = g_hash_table_lookup(s->exists, path);
	if (!v) {
		v = GINT_TO_POINTER(1 + g_file_test(path, G_FILE_TEST_IS_REGULAR));
		g_hash_table_insert(s->exists, g_strdup(path), v);
	}
	return GPOINTER_TO_INT(v) == 2;
}

/* Where #include inc of from is, or NULL; *via: the index in dirs of
 * the directory it was found in, -1 for from's own. */
static char *resolve(TuScanner *s, const FileScan *from, const char *inc, const char *const *dirs, guint ndirs,
		     int *via)
{
	const char *name = inc + 1;
	*via = -1;
	if (g_path_is_absolute(name))
		return is_file(s, name) ? cg_path_norm(name) : NULL;
	for (int i = inc[0] == '"' ? -1 : 0; i < (int)ndirs; i++) {
		char *p = g_build_filename(i < 0 ? from->dir : dirs[i], name, NULL), *np = cg_path_norm(p);
		g_free(p);
		*via = i;
		if (is_file(s, np))
			return np;
		g_free(np);
	}
	return NULL;
}

/* path read once (again whole, when it was read as a system header and
 * is now a project file). */
static FileScan *file_of(TuScanner *s, const char *path, gboolean system)
{
	FileScan *f = g_hash_table_lookup(s->files, path);
	if (!f || (!f->full && !system)) {
		f = scan_file(path, system);
		g_hash_table_insert(s->files, g_strdup(path), f);
	}
	return f;
}

/* How heavy a call is against a reduction's instantiation: a sort (radix,
 * merge, segmented) about three times, Thrust's layers over CUB one more,
 * a block or warp primitive (code inside a kernel of the TU's) a quarter
 * (the seed's and CUB's examples' TUs, bench/RESULTS.md). */
static double call_weight(const char *call)
{
	const double sort = strstr(call, "Sort") || strstr(call, "sort") ? 3 : 1;
	if (g_str_has_prefix(call, "cub::Block") || g_str_has_prefix(call, "cub::Warp"))
		return sort / 4;
	return sort + g_str_has_prefix(call, "thrust::");
}


static void set_free(gpointer p)
{
	HeaderSet *a = p;
	g_ptr_array_free(a->calls, TRUE);
	g_ptr_array_free(a->bare, TRUE);
	g_ptr_array_free(a->invokes, TRUE);
	g_ptr_array_free(a->applied, TRUE);
	g_ptr_array_free(a->macros, TRUE);
	g_free(a);
}

/* from (a file's own text, or a set of headers) into set to: a system
 * header only counts and says which libraries it includes; the kernels,
 * calls and instantiations are the project's text's. */
static void set_add(HeaderSet *to, const HeaderSet *from, gboolean system)
{
	to->files += from->files;
	to->heavy |= from->heavy;
	if (system)
		return;
	to->using_cub |= from->using_cub;
	to->kernels += from->kernels;
	to->inst += from->inst;
	to->unrolls += from->unrolls;
	g_ptr_array_extend(to->calls, from->calls, NULL, NULL);
	g_ptr_array_extend(to->bare, from->bare, NULL, NULL);
	g_ptr_array_extend(to->invokes, from->invokes, NULL, NULL);
	g_ptr_array_extend(to->applied, from->applied, NULL, NULL);
	g_ptr_array_extend(to->macros, from->macros, NULL, NULL);
}

static HeaderSet *set_new(void)
{
	HeaderSet *a = g_new0(HeaderSet, 1);
	a->calls = g_ptr_array_new();
	a->bare = g_ptr_array_new();
	a->invokes = g_ptr_array_new();
	a->applied = g_ptr_array_new();
	a->macros = g_ptr_array_new();
	return a;
}

/* The headers reached from roots (normalised paths, each with a '0' or
 * '1' before it: a system header), depth first in the order written,
 * each once, the TU (top) left out. A header is a system header when it
 * was found in one of the last nsys dirs, or beside one. */
static HeaderSet *header_set(TuScanner *s, const char *top, GPtrArray *roots, const char *const *dirs, guint ndirs,
			     guint nsys)
{
	HeaderSet *a = set_new();
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_add(seen, g_strdup(top));
	GPtrArray *todo = g_ptr_array_new_with_free_func(g_free);
	for (guint i = roots->len; i-- > 0;)
		g_ptr_array_add(todo, g_strdup(g_ptr_array_index(roots, i)));
	while (todo->len && a->files < SCAN_FILES_MAX) {
		char *e = g_ptr_array_steal_index(todo, todo->len - 1);
		const gboolean system = e[0] == '1';
		char *p = g_strdup(e + 1);
		g_free(e);
		if (!g_hash_table_add(seen, p))
			continue;
		FileScan *f = file_of(s, p, system);
		set_add(a, &f->text, system);
		for (guint i = f->incs->len; i-- > 0;) {
			int via;
			char *r = resolve(s, f, g_ptr_array_index(f->incs, i), dirs, ndirs, &via);
			if (r && !g_hash_table_contains(seen, r))
				g_ptr_array_add(todo, g_strdup_printf("%d%s", system || via >= (int)(ndirs - nsys), r));
			g_free(r);
		}
	}
	g_ptr_array_free(todo, TRUE);
	g_hash_table_destroy(seen);
	return a;
}

/* The explicit instantiations macro name expands to, the macros it
 * applies followed (each name's count made once: memo; a name being
 * expanded counts nothing again, as the preprocessor does not expand
 * it within itself). */
static double macro_inst(GHashTable *macros, GHashTable *memo, const char *name, guint depth)
{
	const Macro *m = g_hash_table_lookup(macros, name);
	if (!m)
		return 0;
	double *v = g_hash_table_lookup(memo, m->name);
	if (v)
		return *v;
	v = g_new(double, 1);
	*v = 0;
	g_hash_table_insert(memo, m->name, v); /* (0 while expanded) */
	double n = m->inst;
	for (guint i = 0; depth < 64 && i < m->uses->len; i++)
		n += macro_inst(macros, memo, g_ptr_array_index(m->uses, i), depth + 1);
	return *v = MIN(n, (double)G_MAXUINT);
}

void tuscan_tu(TuScanner *s, const char *path, const char *implicit, const char *const *dirs, guint ndirs,
	       guint nsys, TuScan *out)
{
	memset(out, 0, sizeof *out);
	char *top = cg_path_norm(path);
	FileScan *f = file_of(s, top, FALSE);
	/* its headers: what nvcc includes first, then its own #includes */
	GPtrArray *roots = g_ptr_array_new_with_free_func(g_free);
	GString *key = g_string_new(NULL);
	for (guint i = 0; i < ndirs; i++)
		g_string_append_printf(key, "%s\n", dirs[i]);
	g_string_append_c(key, '\1');
	if (implicit && is_file(s, implicit))
		g_ptr_array_add(roots, g_strdup_printf("1%s", implicit));
	for (guint i = 0; i < f->incs->len; i++) {
		int via;
		char *r = resolve(s, f, g_ptr_array_index(f->incs, i), dirs, ndirs, &via);
		if (r)
			g_ptr_array_add(roots, g_strdup_printf("%d%s", via >= (int)(ndirs - nsys), r));
		g_free(r);
	}
	for (guint i = 0; i < roots->len; i++)
		g_string_append_printf(key, "%s\n", (char *)g_ptr_array_index(roots, i));
	HeaderSet *a = g_hash_table_lookup(s->sets, key->str);
	if (!a) {
		a = header_set(s, top, roots, dirs, ndirs, MIN(nsys, ndirs));
		g_hash_table_insert(s->sets, g_string_free(key, FALSE), a);
	} else {
		g_string_free(key, TRUE);
	}
	g_ptr_array_free(roots, TRUE);
	HeaderSet *all = set_new();
	set_add(all, &f->text, FALSE);
	set_add(all, a, FALSE);
	out->files = all->files;
	out->heavy = all->heavy;
	out->kernels = all->kernels;
	out->unrolls = all->unrolls;
	out->inst = all->inst;
	GHashTable *calls = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < all->calls->len; i++)
		g_hash_table_add(calls, g_ptr_array_index(all->calls, i));
	for (guint i = 0; all->using_cub && i < all->bare->len; i++)
		g_hash_table_add(calls, g_ptr_array_index(all->bare, i));
	GHashTable *macros = g_hash_table_new(g_str_hash, g_str_equal); /* name -> Macro*, the first */
	for (guint i = 0; i < all->macros->len; i++) {
		Macro *m = g_ptr_array_index(all->macros, i);
		if (!g_hash_table_contains(macros, m->name))
			g_hash_table_insert(macros, m->name, m);
	}
	/* LIST(ARG): LIST's items times ARG's instantiations */
	for (guint i = 0; i + 1 < all->invokes->len; i += 2) {
		Macro *list = g_hash_table_lookup(macros, g_ptr_array_index(all->invokes, i));
		Macro *arg = g_hash_table_lookup(macros, g_ptr_array_index(all->invokes, i + 1));
		if (list && arg) /* (at most G_MAXUINT: a file of 4 MB can ask for more) */
			out->inst = (guint)MIN((double)out->inst + (double)list->items * arg->inst, (double)G_MAXUINT);
	}
	/* NAME(...) applied: the instantiations it expands to */
	GHashTable *memo = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	double applied = 0;
	for (guint i = 0; i < all->applied->len; i++)
		applied += macro_inst(macros, memo, g_ptr_array_index(all->applied, i), 0);
	g_hash_table_destroy(memo);
	out->inst = (guint)MIN((double)out->inst + applied, (double)G_MAXUINT);
	out->calls = g_hash_table_size(calls);
	double per_call = out->calls ? MAX(1.0, (double)out->inst / out->calls) : 1;
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, calls);
	while (g_hash_table_iter_next(&it, &k, NULL))
		out->units += call_weight(k) * per_call;
	/* its unrolls are template code, built as much as it instantiates.
	 * (A TU that declares them extern and makes none, mmq.cu, compiles
	 * little of it; but one that instantiates them implicitly, mmvq.cu,
	 * looks the same: its unrolls are left to the per-unroll slope, as
	 * a guess too high costs less than one too low.) */
	out->templated = !out->heavy && !out->calls && out->inst;
	if (out->templated)
		out->tunits = sqrt((double)out->inst) * out->unrolls;
	if (out->heavy && !out->calls) /* it includes a library and calls nothing seen: each
					* explicit instantiation (CUTLASS's kernels, a TU's own
					* templates over CuTe) a unit, at least one. Not fitted:
					* no CUTLASS project was measured */
		out->units = MAX(1, out->inst);
	g_hash_table_destroy(calls);
	g_hash_table_destroy(macros);
	set_free(all);
	g_free(top);
}

char *tuscan_describe(const TuScan *t)
{
	if (!t->heavy && t->inst)
		return g_strdup_printf("no CUB/Thrust, %u kernel%s, %u instantiation%s, %u files", t->kernels,
				       t->kernels == 1 ? "" : "s", t->inst, t->inst == 1 ? "" : "s", t->files);
	if (!t->heavy)
		return g_strdup_printf("no CUB/Thrust, %u kernel%s, %u files", t->kernels, t->kernels == 1 ? "" : "s",
				       t->files);
	return g_strdup_printf("CUB/Thrust, %u algorithm call%s, %u instantiation%s: %.4g units, %u files", t->calls,
			       t->calls == 1 ? "" : "s", t->inst, t->inst == 1 ? "" : "s", t->units, t->files);
}
