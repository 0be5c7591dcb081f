/* archspell.c -- arch lists as other tools spell them, in cugen's words
 * (archs and ptx): CMake's (CMAKE_CUDA_ARCHITECTURES, CUDAARCHS) and
 * nvcc's -gencode options; see archspell.h. */
#include "archspell.h"

#include <string.h>

static void add_word(GString *s, const char *w)
{
	g_string_append_printf(s, "%s%s", s->len ? " " : "", w);
}

gboolean archspell_cmake(const char *spec, char **archs, char **ptx)
{
	char **w = g_strsplit_set(spec, "; \t", -1);
	GString *a = g_string_new(NULL), *p = g_string_new(NULL);
	gboolean ok = TRUE, any = FALSE, special = FALSE;
	for (char **x = w; *x; x++) {
		if (!**x)
			continue;
		any = TRUE;
		const char *dash = strchr(*x, '-');
		char *num = dash ? g_strndup(*x, (gsize)(dash - *x)) : g_strdup(*x);
		const char *how = dash ? dash + 1 : "";
		if (!dash && (strcmp(*x, "all") == 0 || strcmp(*x, "native") == 0)) {
			special = TRUE;
			add_word(a, *x);
		} else if (strcmp(*x, "all-major") == 0) {
			special = TRUE;
			add_word(a, *x);
		} else if (!*num || !g_ascii_isdigit(*num) ||
			   strspn(num, "0123456789") < strlen(num) - (strchr("af", num[strlen(num) - 1]) ? 1 : 0)) {
			ok = FALSE;
		} else if (!*how) {
			add_word(a, num);
			add_word(p, num);
		} else if (strcmp(how, "real") == 0) {
			add_word(a, num);
		} else if (strcmp(how, "virtual") == 0) {
			g_string_append_printf(a, "%scompute_%s", a->len ? " " : "", num);
		} else {
			ok = FALSE;
		}
		g_free(num);
	}
	g_strfreev(w);
	ok = ok && any;
	*archs = ok ? g_string_free(a, FALSE) : (g_string_free(a, TRUE), NULL);
	*ptx = ok ? (special ? g_strdup("highest") : p->len ? g_strdup(p->str) : g_strdup("none")) : NULL;
	g_string_free(p, TRUE);
	return ok;
}

/* n (taken) into the table of numbers with kind bits (1 SASS, 2 PTX),
 * order keeping the first time each was named. */
static void note_arch(GHashTable *kinds, GPtrArray *order, char *n, int bits)
{
	gpointer old = g_hash_table_lookup(kinds, n);
	if (!old)
		g_ptr_array_add(order, g_strdup(n));
	g_hash_table_insert(kinds, n, GINT_TO_POINTER(GPOINTER_TO_INT(old) | bits));
}

/* "sm_80" or "compute_80" (with a or f after the number): its number
 * part ("80", "90a") and whether it is a compute (PTX) arch. */
static char *code_num(const char *w, gboolean *compute)
{
	*compute = g_str_has_prefix(w, "compute_");
	const char *n = *compute ? w + 8 : g_str_has_prefix(w, "sm_") ? w + 3 : NULL;
	if (!n || !g_ascii_isdigit(*n))
		return NULL;
	gsize d = strspn(n, "0123456789");
	if (n[d] && !(strchr("af", n[d]) && !n[d + 1]))
		return NULL;
	return g_strdup(n);
}

/* One arch=compute_NN,code=LIST (LIST: one code or [a,b]) into the
 * table of numbers: 1 SASS, 2 PTX. */
static gboolean one_gencode(const char *spec, GHashTable *kinds, GPtrArray *order, char **bad)
{
	if (!g_str_has_prefix(spec, "arch="))
		return FALSE;
	const char *comma = strchr(spec, ',');
	if (!comma || !g_str_has_prefix(comma + 1, "code="))
		return FALSE;
	char *virt = g_strndup(spec + 5, (gsize)(comma - spec - 5));
	gboolean vc;
	char *vn = code_num(virt, &vc);
	g_free(virt);
	if (!vn || !vc) {
		g_free(vn);
		return FALSE;
	}
	char *codes = g_strdup(comma + 6);
	gsize len = strlen(codes);
	if (len >= 2 && (codes[0] == '"' || codes[0] == '\'') && codes[len - 1] == codes[0]) {
		memmove(codes, codes + 1, len - 2);
		codes[len -= 2] = '\0';
	}
	if (len >= 2 && codes[0] == '[' && codes[len - 1] == ']') {
		memmove(codes, codes + 1, len - 2);
		codes[len - 2] = '\0';
	}
	char **c = g_strsplit(codes, ",", -1);
	gboolean ok = c[0] != NULL;
	for (char **x = c; ok && *x; x++) {
		gboolean compute;
		char *n = code_num(*x, &compute);
		gsize d = n ? strspn(n, "0123456789") : 0;
		if (n && !compute && !n[d] && g_str_has_suffix(vn, "f") && strncmp(n, vn, d) == 0 && vn[d] == 'f' &&
		    !vn[d + 1]) {
			/* arch=compute_100f,code=sm_100: nvcc builds sm_100f */
			g_free(n);
			n = g_strdup(vn);
		}
		if (!n || strcmp(n, vn) != 0) {
			/* cugen compiles sm_NN from compute_NN */
			if (n && !*bad)
				*bad = g_strdup(spec);
			ok = FALSE;
			g_free(n);
			break;
		}
		note_arch(kinds, order, n, compute ? 2 : 1);
	}
	g_strfreev(c);
	g_free(codes);
	g_free(vn);
	return ok;
}

gboolean archspell_gencode(const char *spec, char **archs, char **ptx, char **bad)
{
	*archs = *ptx = *bad = NULL;
	GHashTable *kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *order = g_ptr_array_new_with_free_func(g_free);
	char **w = g_strsplit_set(spec, " \t\n", -1);
	gboolean ok = TRUE, any = FALSE, want = FALSE;
	for (char **x = w; ok && *x; x++) {
		char *t = *x;
		gsize len = strlen(t);
		if (!len)
			continue;
		if (len >= 2 && (t[0] == '"' || t[0] == '\'') && t[len - 1] == t[0]) {
			memmove(t, t + 1, len - 2);
			t[len - 2] = '\0';
		}
		const char *opts[] = { "-gencode=", "--generate-code=", "-arch=", "--gpu-architecture=" };
		const char *val = NULL;
		gboolean arch_opt = FALSE;
		for (gsize i = 0; i < G_N_ELEMENTS(opts) && !val; i++)
			if (g_str_has_prefix(t, opts[i]))
				val = t + strlen(opts[i]), arch_opt = i >= 2;
		if (!val && (strcmp(t, "-gencode") == 0 || strcmp(t, "--generate-code") == 0)) {
			want = TRUE;
			continue;
		}
		if (!val && (strcmp(t, "-arch") == 0 || strcmp(t, "--gpu-architecture") == 0)) {
			ok = x[1] != NULL;
			if (ok)
				val = *++x, arch_opt = TRUE;
		}
		if (!val && (want || g_str_has_prefix(t, "arch=")))
			val = t;
		want = FALSE;
		if (arch_opt) {
			/* -arch=sm_80: SASS and PTX for 80, as nvcc takes it */
			gboolean compute;
			char *n = code_num(val, &compute);
			ok = n != NULL;
			if (ok)
				note_arch(kinds, order, n, compute ? 2 : 3);
		} else {
			ok = val && one_gencode(val, kinds, order, bad);
		}
		any |= ok;
	}
	g_strfreev(w);
	ok = ok && any;
	if (ok) {
		GString *a = g_string_new(NULL), *p = g_string_new(NULL);
		for (guint i = 0; i < order->len; i++) {
			const char *n = g_ptr_array_index(order, i);
			int k = GPOINTER_TO_INT(g_hash_table_lookup(kinds, n));
			if (k & 1) {
				add_word(a, n);
				if (k & 2)
					add_word(p, n);
			} else {
				char *c = g_strconcat("compute_", n, NULL);
				add_word(a, c);
				g_free(c);
			}
		}
		*archs = g_string_free(a, FALSE);
		*ptx = p->len ? g_string_free(p, FALSE) : (g_string_free(p, TRUE), g_strdup("none"));
	}
	g_ptr_array_free(order, TRUE);
	g_hash_table_destroy(kinds);
	return ok;
}

gboolean archspell_is_gencode(const char *spec)
{
	return strstr(spec, "arch=") || strstr(spec, "-arch") || strstr(spec, "--gpu-architecture") ||
	       strstr(spec, "-gencode") || strstr(spec, "--generate-code");
}

gboolean archspell_gencode_ptx_first(const char *spec)
{
	gboolean first = FALSE;
	for (const char *c = strstr(spec, "code=["); c && !first; c = strstr(c + 1, "code=[")) {
		const char *end = strchr(c, ']');
		if (!end)
			break;
		char *list = g_strndup(c + 6, (gsize)(end - c - 6));
		char **w = g_strsplit(list, ",", -1);
		/* a compute_NN before the sm_NN of its number */
		for (guint i = 0; w[i] && !first; i++)
			for (guint k = i + 1; g_str_has_prefix(w[i], "compute_") && w[k] && !first; k++)
				first = g_str_has_prefix(w[k], "sm_") && strcmp(w[k] + 3, w[i] + 8) == 0;
		g_strfreev(w);
		g_free(list);
	}
	return first;
}
