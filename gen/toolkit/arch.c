/* arch.c -- arch names, `ptx`, supported-arch checks; see arch.h. */
#include "arch.h"

#include <stdio.h>
#include <string.h>

#include "archspell.h"
#include "spawn.h"
#include "util.h"

char *arch_id(const Arch *a)
{
	if (a->suffix)
		return g_strdup_printf("%d%c", a->num, a->suffix);
	return g_strdup_printf("%d", a->num);
}

char *arch_image_name(const Arch *a)
{
	char *id = arch_id(a);
	char *n = g_strconcat(a->sass ? "sm_" : "compute_", id, NULL);
	g_free(id);
	return n;
}

static gint arch_cmp(gconstpointer x, gconstpointer y)
{
	const Arch *a = x, *b = y;
	if (a->num != b->num)
		return a->num - b->num;
	return a->suffix - b->suffix;
}

/* Parse one arch word: [sm_|compute_]NN[a|f]. kind: 's' sass, 'c' compute. */
/* Whether ptx names only the highest arch of archs (then ptx = highest
 * says it and stays right when -D cuda.archs changes the set). */
static gboolean highest_only(const char *archs, const char *ptx)
{
	if (!ptx || !*ptx || strchr(ptx, ' ') || !g_ascii_isdigit(*ptx))
		return FALSE;
	int top = -1;
	char **w = g_strsplit(archs, " ", -1);
	for (char **p = w; *p; p++)
		if (g_ascii_isdigit(**p) && atoi(*p) > top)
			top = atoi(*p);
	g_strfreev(w);
	return atoi(ptx) == top;
}

static gboolean parse_word(const char *w, Arch *out, char *kind)
{
	*kind = 's';
	if (g_str_has_prefix(w, "sm_"))
		w += 3;
	else if (g_str_has_prefix(w, "compute_"))
		w += 8, *kind = 'c';
	if (!g_ascii_isdigit(w[0]))
		return FALSE;
	char *end = NULL;
	long n = strtol(w, &end, 10);
	if (n < 10 || n > 999)
		return FALSE;
	out->num = (int)n;
	out->suffix = 0;
	if (*end == 'a' || *end == 'f')
		out->suffix = *end++;
	return *end == '\0';
}

static Arch *find_arch(GArray *v, int num, char suffix)
{
	for (guint i = 0; i < v->len; i++) {
		Arch *a = &g_array_index(v, Arch, i);
		if (a->num == num && a->suffix == suffix)
			return a;
	}
	return NULL;
}

static void add_arch(GArray *v, int num, char suffix, gboolean sass, gboolean ptx)
{
	Arch *a = find_arch(v, num, suffix);
	if (!a) {
		Arch n = { num, suffix, FALSE, FALSE };
		g_array_append_val(v, n);
		a = &g_array_index(v, Arch, v->len - 1);
	}
	a->sass |= sass;
	a->ptx |= ptx;
}

static void loc_verror(GError **err, const Setting *s, const char *word, const char *fmt, va_list ap)
	G_GNUC_PRINTF(4, 0);
static void loc_verror(GError **err, const Setting *s, const char *word, const char *fmt, va_list ap)
{
	char *m = g_strdup_vprintf(fmt, ap);
	Loc at = setting_word_loc(s, word);
	if (at.file)
		cg_error_loc(err, at.file, at.line, "%s", m);
	else
		cg_usage_error(err, "%s", m); /* --archs: the command line */
	g_free(m);
}

static void loc_error(GError **err, const Setting *s, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void loc_error(GError **err, const Setting *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	loc_verror(err, s, NULL, fmt, ap);
	va_end(ap);
}

/* An error about one word of the value: at the line it is written on. */
static void word_error(GError **err, const Setting *s, const char *word, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void word_error(GError **err, const Setting *s, const char *word, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	loc_verror(err, s, word, fmt, ap);
	va_end(ap);
}

static gboolean supported_num(GPtrArray *supported, int num)
{
	char *n = g_strdup_printf("sm_%d", num);
	gboolean ok = g_ptr_array_find_with_equal_func(supported, n, g_str_equal, NULL);
	g_free(n);
	return ok;
}

static char *supported_list(GPtrArray *supported)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < supported->len; i++) {
		const char *c = g_ptr_array_index(supported, i);
		g_string_append_printf(s, "%s%s", i ? " " : "", c + 3);
	}
	return g_string_free(s, FALSE);
}

gboolean arch_supported(const ArchToolkit *tk, const char *id, char **list)
{
	gsize d = strspn(id, "0123456789");
	gboolean ok = d > 0 && (!id[d] || ((id[d] == 'a' || id[d] == 'f') && !id[d + 1])) &&
		      supported_num(tk->supported, atoi(id));
	if (!ok && list)
		*list = supported_list(tk->supported);
	return ok;
}

GPtrArray *arch_query_native(const ArchToolkit *tk, GError **err)
{
	if (tk->cross_target) {
		cg_error(err, "archs = native names the GPUs of this machine, but the build is for %s: "
			      "name the archs (e.g. archs = 80 90)", tk->cross_target);
		return NULL;
	}
	/* nvidia-smi first; __nvcc_device_query is what nvcc itself uses. */
	char *out = NULL;
	int status = 0;
	const char *argv[] = { "nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader", NULL };
	GPtrArray *res = g_ptr_array_new_with_free_func(g_free);
	GError *e = NULL;
	char *smi = g_find_program_in_path(argv[0]);
	if (smi && !cg_spawn_bounded(NULL, argv, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, &out, NULL, &status, &e)) {
		g_propagate_error(err, e);
		g_free(smi);
		g_ptr_array_free(res, TRUE);
		return NULL;
	}
	gboolean ran = smi != NULL;
	g_free(smi);
	if (ran && g_spawn_check_wait_status(status, NULL)) {
		char **lines = g_strsplit(out, "\n", -1);
		for (char **l = lines; *l; l++) {
			char *t = g_strstrip(*l);
			int maj = 0, min = 0;
			if (sscanf(t, "%d.%d", &maj, &min) == 2) {
				char *id = g_strdup_printf("%d", maj * 10 + min);
				if (!g_ptr_array_find_with_equal_func(res, id, g_str_equal, NULL))
					g_ptr_array_add(res, id);
				else
					g_free(id);
			}
		}
		g_strfreev(lines);
	}
	g_free(out);
	out = NULL;
	if (!res->len && tk->root) {
		/* what nvcc -arch=native asks; it prints e.g. "90 90" */
		char *q = g_build_filename(tk->root, "bin", "__nvcc_device_query", NULL);
		const char *qargv[] = { q, NULL };
		gboolean exists = g_file_test(q, G_FILE_TEST_IS_EXECUTABLE);
		if (exists && !cg_spawn_bounded(NULL, qargv, G_SPAWN_STDERR_TO_DEV_NULL, &out, NULL, &status, err)) {
			g_free(q);
			g_ptr_array_free(res, TRUE);
			return NULL;
		}
		if (exists && g_spawn_check_wait_status(status, NULL)) {
			char **w = g_strsplit_set(out, " \t\n,", -1);
			for (char **p = w; *p; p++)
				if (g_ascii_isdigit(**p) && !g_ptr_array_find_with_equal_func(res, *p, g_str_equal, NULL))
					g_ptr_array_add(res, g_strdup(*p));
			g_strfreev(w);
		}
		g_free(out);
		g_free(q);
	}
	if (res->len)
		return res;
	g_ptr_array_free(res, TRUE);
	cg_error(err, "archs = native, but this machine has no NVIDIA GPU (nvidia-smi and __nvcc_device_query "
		      "found none); name the archs instead (e.g. archs = 80 90) or use a profile without native");
	return NULL;
}

ArchSet *archset_resolve(const Setting *archs, const Setting *ptx,
			 const ArchToolkit *tk, GError **err)
{
	GPtrArray *supported = tk->supported;
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GArray *v = g_array_new(FALSE, FALSE, sizeof(Arch));
	GError *le = NULL;
	gboolean ok = TRUE;
	gboolean explicit_ptx_only = FALSE;
	if (!cg_split_list(archs->value, words, &le)) {
		loc_error(err, archs, "archs: %s", le->message + 7);
		g_error_free(le);
		ok = FALSE;
	} else if (words->len == 0) {
		loc_error(err, archs, "empty arch list (write e.g. archs = 80 90)");
		ok = FALSE;
	}
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		if (strcmp(w, "all") == 0 || strcmp(w, "all-major") == 0) {
			gboolean major = w[3] == '-';
			int lowest = 0;
			for (guint k = 0; k < supported->len; k++) {
				int n = atoi((char *)g_ptr_array_index(supported, k) + 3);
				if (!lowest || n < lowest)
					lowest = n;
			}
			for (guint k = 0; k < supported->len; k++) {
				int n = atoi((char *)g_ptr_array_index(supported, k) + 3);
				if (!major || n % 10 == 0 || n == lowest)
					add_arch(v, n, 0, TRUE, FALSE);
			}
			continue;
		}
		if (strcmp(w, "native") == 0) {
			GError *ne = NULL;
			GPtrArray *nat = arch_query_native(tk, &ne);
			if (!nat) {
				word_error(err, archs, w, "%s", ne->message + 7);
				g_error_free(ne);
				ok = FALSE;
				break;
			}
			for (guint k = 0; k < nat->len; k++)
				add_arch(v, atoi(g_ptr_array_index(nat, k)), 0, TRUE, FALSE);
			g_ptr_array_free(nat, TRUE);
			continue;
		}
		Arch a;
		char kind;
		if (!parse_word(w, &a, &kind)) {
			/* CMake's spelling (CMAKE_CUDA_ARCHITECTURES): the whole
			 * value in cugen's */
			char *ca = NULL, *cp = NULL;
			gboolean cmake = (strchr(w, ';') || strstr(w, "-real") || strstr(w, "-virtual")) &&
					 archspell_cmake(w, &ca, &cp);
			g_free(ca);
			g_free(cp);
			ca = cp = NULL;
			if (cmake && archspell_cmake(archs->value, &ca, &cp))
				word_error(err, archs, w, "invalid arch '%s': that is CMake's spelling; write archs = %s with "
					   "ptx = %s", w, ca, highest_only(ca, cp) ? "highest" : cp);
			else
				word_error(err, archs, w, "invalid arch '%s' (expected e.g. 90, sm_90, 90a, compute_90, all, "
					   "all-major, native)", w);
			g_free(ca);
			g_free(cp);
			ok = FALSE;
			break;
		}
		if (!supported_num(supported, a.num)) {
			char *list = supported_list(supported);
			word_error(err, archs, w, "arch '%s' is not supported by this CUDA toolkit (supported: %s)", w, list);
			g_free(list);
			ok = FALSE;
			break;
		}
		add_arch(v, a.num, a.suffix, kind == 's', kind == 'c');
		explicit_ptx_only |= kind == 'c';
	}
	g_ptr_array_set_size(words, 0);
	if (ok) {
		g_array_sort(v, arch_cmp);
		/* ptx = highest | none | all | LIST */
		char *p = g_strstrip(g_strdup(ptx->value));
		if (strcmp(p, "highest") == 0) {
			g_array_index(v, Arch, v->len - 1).ptx = TRUE;
		} else if (strcmp(p, "all") == 0) {
			for (guint i = 0; i < v->len; i++)
				g_array_index(v, Arch, i).ptx = TRUE;
		} else if (strcmp(p, "none") != 0) {
			if (!cg_split_list(p, words, &le)) {
				loc_error(err, ptx, "ptx: %s", le->message + 7);
				g_error_free(le);
				ok = FALSE;
			} else if (words->len == 0) {
				loc_error(err, ptx, "empty ptx value (expected highest, none, all or a list of archs)");
				ok = FALSE;
			}
			for (guint i = 0; ok && i < words->len; i++) {
				const char *w = g_ptr_array_index(words, i);
				Arch a;
				char kind;
				if (!parse_word(w, &a, &kind)) {
					const char *const choices[] = { "highest", "none", "all", NULL };
					const char *hint = cg_suggest(w, choices);
					word_error(err, ptx, w, "invalid ptx value '%s' (expected highest, none, all or a list of archs)%s%s%s",
						  w, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
					ok = FALSE;
				} else {
					Arch *x = find_arch(v, a.num, a.suffix);
					if (!x) {
						char *d = archset_describe(&(ArchSet){ v });
						word_error(err, ptx, w, "ptx arch '%s' is not in archs (%s)", w, d);
						g_free(d);
						ok = FALSE;
					} else {
						x->ptx = TRUE;
					}
				}
			}
		}
		g_free(p);
	}
	(void)explicit_ptx_only;
	g_ptr_array_free(words, TRUE);
	if (!ok) {
		g_array_free(v, TRUE);
		return NULL;
	}
	ArchSet *s = g_new0(ArchSet, 1);
	s->archs = v;
	return s;
}

/* The arch ids a selection names (syntax already known to be fine). */
static GPtrArray *selection_ids(const Setting *sel, GError **err)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	if (!cg_split_list(sel->value, words, &le)) {
		loc_error(err, sel, "archs: %s", le->message + 7);
		g_error_free(le);
		goto fail;
	}
	if (words->len == 0) {
		loc_error(err, sel, "empty arch selection");
		goto fail;
	}
	for (guint i = 0; i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		Arch a;
		char kind;
		if (!parse_word(w, &a, &kind)) {
			word_error(err, sel, w, "invalid arch '%s' in the arch selection (expected e.g. 80, sm_90, 90a)", w);
			goto fail;
		}
		g_ptr_array_add(ids, arch_id(&a));
	}
	g_ptr_array_free(words, TRUE);
	return ids;
fail:
	g_ptr_array_free(words, TRUE);
	g_ptr_array_free(ids, TRUE);
	return NULL;
}

gboolean archset_check_selection(const Setting *sel, GPtrArray *sets, GError **err)
{
	if (!sel)
		return TRUE;
	GPtrArray *ids = selection_ids(sel, err);
	if (!ids)
		return FALSE;
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < ids->len; i++) {
		const char *id = g_ptr_array_index(ids, i);
		gboolean found = FALSE;
		for (guint k = 0; !found && k < sets->len; k++) {
			ArchSet *s = g_ptr_array_index(sets, k);
			for (guint j = 0; !found && j < s->archs->len; j++) {
				char *x = arch_id(&g_array_index(s->archs, Arch, j));
				found = strcmp(x, id) == 0;
				g_free(x);
			}
		}
		if (!found) {
			char *d = sets->len ? archset_describe(g_ptr_array_index(sets, 0)) : g_strdup("");
			word_error(err, sel, id, "arch '%s' is not in the project's arch set (%s); "
				  "a build may select only archs of [cuda] archs", id, d);
			g_free(d);
			ok = FALSE;
		}
	}
	g_ptr_array_free(ids, TRUE);
	return ok;
}

ArchSet *archset_select(const ArchSet *set, const Setting *sel)
{
	ArchSet *s = g_new0(ArchSet, 1);
	s->ptx_first = set->ptx_first;
	s->archs = g_array_new(FALSE, FALSE, sizeof(Arch));
	GPtrArray *ids = sel ? selection_ids(sel, NULL) : NULL;
	for (guint i = 0; i < set->archs->len; i++) {
		const Arch *a = &g_array_index(set->archs, Arch, i);
		char *id = arch_id(a);
		if (!ids || g_ptr_array_find_with_equal_func(ids, id, g_str_equal, NULL))
			g_array_append_val(s->archs, *a);
		g_free(id);
	}
	if (ids)
		g_ptr_array_free(ids, TRUE);
	return s;
}

gboolean archset_equal(const ArchSet *a, const ArchSet *b)
{
	if (a->archs->len != b->archs->len)
		return FALSE;
	/* field by field: memcmp would read the struct's padding */
	for (guint i = 0; i < a->archs->len; i++) {
		const Arch *x = &g_array_index(a->archs, Arch, i), *y = &g_array_index(b->archs, Arch, i);
		if (x->num != y->num || x->suffix != y->suffix || !x->sass != !y->sass || !x->ptx != !y->ptx)
			return FALSE;
	}
	return TRUE;
}

void archset_free(ArchSet *s)
{
	if (!s)
		return;
	g_array_free(s->archs, TRUE);
	g_free(s);
}

void archset_gencode(const ArchSet *s, GencodeKind kind, GPtrArray *argv)
{
	for (guint i = 0; i < s->archs->len; i++) {
		const Arch *a = &g_array_index(s->archs, Arch, i);
		if (kind != GENCODE_COMPILE && !a->sass)
			continue;
		char *id = arch_id(a);
		char *code;
		if (kind == GENCODE_LTO)
			code = g_strdup_printf("lto_%s", id);
		else if (kind == GENCODE_LINK)
			code = g_strdup_printf("sm_%s", id);
		else if (a->sass && a->ptx)
			/* (nvcc's fatbinary keeps the list's order) */
			code = s->ptx_first ? g_strdup_printf("[compute_%s,sm_%s]", id, id)
					    : g_strdup_printf("[sm_%s,compute_%s]", id, id);
		else if (a->sass)
			code = g_strdup_printf("sm_%s", id);
		else
			code = g_strdup_printf("compute_%s", id);
		g_ptr_array_add(argv, g_strdup("-gencode"));
		g_ptr_array_add(argv, g_strdup_printf("arch=compute_%s,code=%s", id, code));
		g_free(code);
		g_free(id);
	}
}

char *archset_describe(const ArchSet *s)
{
	GString *o = g_string_new(NULL);
	for (guint i = 0; i < s->archs->len; i++) {
		const Arch *a = &g_array_index(s->archs, Arch, i);
		char *id = arch_id(a);
		g_string_append_printf(o, "%s%s%s", i ? " " : "", a->sass ? "" : "compute_", id);
		g_free(id);
	}
	return g_string_free(o, FALSE);
}
