/* cudaflags.c -- the user's nvcc flags; see cudaflags.h. */
#include "cudaflags.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Options cugen writes itself, with what to use instead. A name matches
 * the word, NAME=VALUE, and for -arch any word it starts. */
static const struct {
	const char *name, *why;
} owned[] = {
	{ "-arch", "use archs (and ptx) instead" },
	{ "--gpu-architecture", "use archs (and ptx) instead" },
	{ "-gencode", "use archs (and ptx) instead" },
	{ "--generate-code", "use archs (and ptx) instead" },
	{ "-code", "use archs (and ptx) instead" },
	{ "--gpu-code", "use archs (and ptx) instead" },
	{ "-ccbin", "use [toolchain] ccbin instead" },
	{ "--compiler-bindir", "use [toolchain] ccbin instead" },
	{ "-c", "cugen compiles each TU itself" },
	{ "--compile", "cugen compiles each TU itself" },
	{ "-o", "cugen names the outputs in the build directory" },
	{ "--output-file", "cugen names the outputs in the build directory" },
	{ "-dlink", "cugen device-links rdc targets itself (mode = rdc)" },
	{ "--device-link", "cugen device-links rdc targets itself (mode = rdc)" },
	{ "-M", "cugen tracks headers itself" },
	{ "-MD", "cugen tracks headers itself" },
	{ "-MMD", "cugen tracks headers itself" },
	{ "-MF", "cugen tracks headers itself" },
	{ "--dryrun", "cugen runs nvcc --dryrun itself" },
	{ "-E", "cugen preprocesses as part of each compile" },
	{ "-x", "cugen picks the language by file extension" },
};

static const char *const std_values[] = { "c++11", "c++14", "c++17", "c++20", "c++23", NULL };

/* word is OPT or OPT=VALUE: the value (after '=', or the next word,
 * consumed through *i), or NULL when word is not OPT. *missing is set
 * when OPT ends the list without a value. */
static const char *opt_value(GPtrArray *w, guint *i, const char *opt, gboolean *missing)
{
	const char *a = g_ptr_array_index(w, *i);
	gsize n = strlen(opt);
	if (strncmp(a, opt, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= w->len) {
		*missing = TRUE;
		return NULL;
	}
	return g_ptr_array_index(w, ++*i);
}

static gboolean owned_word(const char *a, const char **why)
{
	for (gsize k = 0; k < G_N_ELEMENTS(owned); k++) {
		const char *o = owned[k].name;
		gsize n = strlen(o);
		if (strcmp(a, o) == 0 || (strncmp(a, o, n) == 0 && a[n] == '=') ||
		    (strcmp(o, "-arch") == 0 && g_str_has_prefix(a, "-arch"))) {
			*why = owned[k].why;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean cudaflags_read(const char *value, CudaFlags *f, const char **bad, char **why, gboolean *owned)
{
	*owned = FALSE;
	memset(f, 0, sizeof *f);
	f->rdc = -1;
	f->threads = -1;
	f->words = g_ptr_array_new_with_free_func(g_free);
	*bad = NULL;
	*why = NULL;
	if (value && !cg_split_words(value, f->words, NULL)) {
		f->rest = g_strdup(value);
		return TRUE; /* (the caller reports unbalanced quotes) */
	}
	GString *rest = g_string_new(NULL);
	gboolean taken = FALSE;
	for (guint i = 0; i < f->words->len; i++) {
		const char *a = g_ptr_array_index(f->words, i);
		const char *v, *reason;
		gboolean missing = FALSE;
		if ((v = opt_value(f->words, &i, "-std", &missing)) || (v = opt_value(f->words, &i, "--std", &missing))) {
			if (!g_strv_contains(std_values, v)) {
				*bad = a;
				*why = g_strdup_printf("cugen's std is one of c++11, c++14, c++17, c++20, c++23, not '%s'", v);
				break;
			}
			g_free(f->std);
			f->std = g_strdup(v);
			f->std_word = a;
		} else if ((v = opt_value(f->words, &i, "-rdc", &missing)) ||
			   (v = opt_value(f->words, &i, "--relocatable-device-code", &missing))) {
			if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
				*bad = a;
				*why = g_strdup_printf("expected true or false, not '%s'", v);
				break;
			}
			f->rdc = strcmp(v, "true") == 0;
			f->rdc_word = a;
		} else if (strcmp(a, "-dc") == 0 || strcmp(a, "--device-c") == 0) {
			f->rdc = 1;
			f->rdc_word = a;
		} else if (strcmp(a, "-dlto") == 0 || strcmp(a, "--dlink-time-opt") == 0) {
			f->dlto = TRUE;
			f->dlto_word = a;
		} else if ((v = opt_value(f->words, &i, "--threads", &missing)) ||
			   (v = opt_value(f->words, &i, "-t", &missing)) ||
			   (g_str_has_prefix(a, "-t") && g_ascii_isdigit(a[2]) && (v = a + 2))) {
			/* (-t2: nvcc takes the number attached too) */
			char *end = NULL;
			long n = strtol(v, &end, 10);
			if (!*v || *end || n < 0 || n > 1024) {
				*bad = a;
				*why = g_strdup_printf("expected a number of threads, not '%s'", v);
				break;
			}
			f->threads = (int)n;
		} else if (missing) {
			*bad = a;
			*why = g_strdup("it needs a value");
			break;
		} else if (owned_word(a, &reason)) {
			*bad = a;
			*why = g_strdup(reason);
			*owned = TRUE;
			break;
		} else {
			cg_sh_append(rest, a);
			continue;
		}
		taken = TRUE;
	}
	f->rest = taken ? g_strdup(rest->str) : g_strdup(value ? value : "");
	g_string_free(rest, TRUE);
	return *bad == NULL;
}

void cudaflags_clear(CudaFlags *f)
{
	g_free(f->std);
	g_free(f->rest);
	if (f->words)
		g_ptr_array_free(f->words, TRUE);
	memset(f, 0, sizeof *f);
}
