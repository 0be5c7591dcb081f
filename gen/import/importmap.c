/* importmap.c -- one CMake target (cmakeapi.h) as a cugen.ini section
 * for `cugen import` (importer.c): its sources, flags per language less
 * what cugen sets itself, usage requirements split into its own public
 * and private ones (what its deps give it left to them), link items as
 * deps, libs and ldflags, output name, versions and CUDA settings, with a
 * warning for each thing cugen.ini cannot say.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cudaflags.h"
#include "importer_int.h"
#include "util.h"

void im_warn(Im *im, const CmWhere *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* (CMake's data in it: one line, whatever it holds) */
	char *m = ini_comment_text(msg);
	g_free(msg);
	msg = m;
	if (w && w->file && !g_path_is_absolute(w->file) && !strpbrk(w->file, "\n\r")) {
		char *f = g_build_filename(im->shown, w->file, NULL);
		fprintf(stderr, "%s:%d: warning: %s\n", f, w->line, msg);
		g_free(f);
	} else {
		fprintf(stderr, "%s/CMakeLists.txt: warning: %s\n", im->shown, msg);
	}
	im->warnings++;
	g_free(msg);
}

gboolean im_has(GPtrArray *a, const char *s)
{
	for (guint i = 0; a && i < a->len; i++)
		if (strcmp(g_ptr_array_index(a, i), s) == 0)
			return TRUE;
	return FALSE;
}

void im_add_once(GPtrArray *a, const char *s)
{
	if (!im_has(a, s))
		g_ptr_array_add(a, g_strdup(s));
}

/* A CMake list: split on ';' outside $<...>. */
GPtrArray *im_list(const char *v)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	if (!v)
		return out;
	int depth = 0;
	const char *start = v;
	for (const char *s = v;; s++) {
		if (s[0] == '$' && s[1] == '<')
			depth++;
		else if (*s == '>' && depth > 0)
			depth--;
		if (*s == 0 || (*s == ';' && depth == 0)) {
			if (s > start)
				g_ptr_array_add(out, g_strndup(start, (gsize)(s - start)));
			if (!*s)
				break;
			start = s + 1;
		}
	}
	return out;
}

/* An item of a usage requirement as the build sees it: $<BUILD_INTERFACE:X>
 * is X, $<INSTALL_INTERFACE:X> nothing; NULL (and *genex) for another
 * generator expression. */
char *im_build_item(const char *item, gboolean *genex)
{
	*genex = FALSE;
	if (g_str_has_prefix(item, "$<BUILD_INTERFACE:") && g_str_has_suffix(item, ">"))
		return g_strndup(item + 18, strlen(item) - 19);
	if (g_str_has_prefix(item, "$<INSTALL_INTERFACE:") || g_str_has_prefix(item, "$<BUILD_LOCAL_INTERFACE:"))
		return NULL;
	if (strstr(item, "$<")) {
		*genex = TRUE;
		return NULL;
	}
	return g_strdup(item);
}

/* ---- names, paths and values as cugen.ini reads them ---- */

/* path relative to the project directory when it is inside it */
static gboolean outside_project(Im *im, const char *path)
{
	char *r = cg_relpath(path, im->p->srcdir);
	gboolean out = !r || g_str_has_prefix(r, "../") || !strcmp(r, "..");
	g_free(r);
	return out;
}

/* A path as cugen.ini names it: relative to the file's directory where
 * it is in the project or beside it (a sibling directory of a monorepo:
 * two leading components shared); absolute elsewhere (/usr/include/x). */
char *im_rel(Im *im, const char *path)
{
	if (cg_path_near(path, im->p->srcdir))
		return cg_relpath(path, im->base);
	return g_strdup(path);
}

/* "key = WORD..." through cugen.ini's one writer (confwrite.c): each
 * word spelled for the key's reader, or left out with one warning where
 * cugen.ini cannot say it (a line break, a control character, ...). */
/* One word of key's value into v, or a warning at where. */
static gboolean put_word(Im *im, const CmWhere *where, GString *v, const char *key, const char *w, IniSyntax syn)
{
	if (ini_put_word(v, w, syn))
		return TRUE;
	char *shown = g_strescape(w, NULL);
	im_warn(im, where, "%s: '%.200s' cannot be written in cugen.ini (a line break, a control character or "
		"quotes its reader cannot hold): left out", key, shown);
	g_free(shown);
	return FALSE;
}

void im_put_key(Im *im, const CmWhere *where, GString *o, const char *key, GPtrArray *words, IniSyntax syn)
{
	if (!words || !words->len)
		return;
	GString *v = g_string_new(NULL);
	for (guint i = 0; i < words->len; i++)
		put_word(im, where, v, key, g_ptr_array_index(words, i), syn);
	if (v->len)
		g_string_append_printf(o, "%s =%s\n", key, v->str);
	g_string_free(v, TRUE);
}

/* "key = VALUE" through the same writer, or one warning */
void im_put_scalar(Im *im, const CmWhere *where, GString *o, const char *key, const char *v)
{
	if (!v || !*v)
		return;
	GString *w = g_string_new(NULL);
	if (ini_put_word(w, v, INI_SCALAR)) {
		g_string_append_printf(o, "%s =%s\n", key, w->str);
	} else {
		char *shown = g_strescape(v, NULL);
		im_warn(im, where, "%s: '%.200s' cannot be written in cugen.ini (a line break, a control character, "
			"a blank at an end or a comment mark): left out", key, shown);
		g_free(shown);
	}
	g_string_free(w, TRUE);
}

/* ---- flags ---- */

GPtrArray *im_words(const char *s)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	if (s && !cg_split_words(s, w, NULL))
		g_ptr_array_set_size(w, 0);
	return w;
}

/* The arch options of nvcc, which archs says: one word, or two when the
 * value is apart. */
static guint arch_words(GPtrArray *w, guint i)
{
	static const char *const opts[] = { "-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code",
					    "--gpu-code" };
	const char *s = g_ptr_array_index(w, i);
	for (gsize k = 0; k < G_N_ELEMENTS(opts); k++) {
		gsize n = strlen(opts[k]);
		if (strncmp(s, opts[k], n) == 0 && s[n] == '=')
			return 1;
		if (strcmp(s, opts[k]) == 0)
			return i + 1 < w->len ? 2 : 1;
	}
	return 0;
}

/* The group's flags less CMake's project-wide ones (strip, when they
 * open the list), the archs, position independence and what cugen
 * takes over; -std=X of CUDA into *std. */
GPtrArray *im_own_flags(const CmGroup *g, GPtrArray *strip, char **std)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	guint i = 0;
	if (strip && strip->len <= g->flags->len) {
		gboolean prefix = TRUE;
		for (guint k = 0; k < strip->len && prefix; k++)
			prefix = strcmp(g_ptr_array_index(strip, k), g_ptr_array_index(g->flags, k)) == 0;
		if (prefix)
			i = strip->len;
	}
	gboolean cuda = strcmp(g->lang, "CUDA") == 0;
	while (i < g->flags->len) {
		const char *w = g_ptr_array_index(g->flags, i);
		guint n = cuda ? arch_words(g->flags, i) : 0;
		if (n) {
			i += n;
			continue;
		}
		i++;
		if (!strcmp(w, "-fPIC") || !strcmp(w, "-fPIE") || !strcmp(w, "-Xcompiler=-fPIC") ||
		    !strcmp(w, "-Xcompiler=-fPIE"))
			continue;
		if (cuda && (g_str_has_prefix(w, "-std=") || g_str_has_prefix(w, "--std="))) {
			g_free(*std);
			*std = g_strdup(strchr(w, '=') + 1);
			continue;
		}
		if (cuda && (!strcmp(w, "-rdc=true") || !strcmp(w, "--relocatable-device-code=true") || !strcmp(w, "-dlto")))
			continue;
		g_ptr_array_add(out, g_strdup(w));
	}
	return out;
}

/* CMake's arch list ("80-real;90", all, native) as archs and ptx. */
gboolean im_map_archs(const char *v, char **archs, char **ptx)
{
	*archs = *ptx = NULL;
	/* OFF: no arch options, nvcc's default (a number is an arch) */
	if (!v || !*v || g_ascii_strcasecmp(v, "OFF") == 0 || g_ascii_strcasecmp(v, "FALSE") == 0 ||
	    g_ascii_strcasecmp(v, "NO") == 0 || strcmp(v, "0") == 0)
		return TRUE;
	if (!strcmp(v, "all") || !strcmp(v, "all-major") || !strcmp(v, "native")) {
		*archs = g_strdup(v);
		return TRUE;
	}
	if (strstr(v, "$<"))
		return FALSE;
	GPtrArray *items = im_list(v), *order = g_ptr_array_new_with_free_func(g_free);
	GHashTable *real = g_hash_table_new(g_str_hash, g_str_equal), *virt = g_hash_table_new(g_str_hash, g_str_equal);
	gboolean ok = TRUE;
	for (guint i = 0; i < items->len; i++) {
		char *it = g_ptr_array_index(items, i);
		char *dash = strchr(it, '-');
		char *num = g_strndup(it, dash ? (gsize)(dash - it) : strlen(it));
		if (!*num || !g_ascii_isdigit(*num) || (dash && strcmp(dash, "-real") && strcmp(dash, "-virtual")))
			ok = FALSE;
		if (!im_has(order, num))
			g_ptr_array_add(order, g_strdup(num));
		for (guint k = 0; k < order->len; k++) {
			char *key = g_ptr_array_index(order, k);
			if (strcmp(key, num) != 0)
				continue;
			if (!dash || !strcmp(dash, "-real"))
				g_hash_table_add(real, key);
			if (!dash || !strcmp(dash, "-virtual"))
				g_hash_table_add(virt, key);
		}
		g_free(num);
	}
	GString *a = g_string_new(NULL), *x = g_string_new(NULL);
	guint nreal = 0, nptx = 0;
	const char *highest = NULL;
	for (guint i = 0; i < order->len; i++) {
		const char *n = g_ptr_array_index(order, i);
		gboolean r = g_hash_table_contains(real, n), pv = g_hash_table_contains(virt, n);
		g_string_append_printf(a, "%s%s%s", a->len ? " " : "", r ? "" : "compute_", n);
		if (r) {
			nreal++;
			if (!highest || atoi(n) > atoi(highest))
				highest = n;
		}
		if (r && pv) {
			nptx++;
			g_string_append_printf(x, "%s%s", x->len ? " " : "", n);
		}
	}
	if (nptx == 0)
		*ptx = g_strdup("none");
	else if (nptx == 1 && highest && strcmp(x->str, highest) == 0)
		*ptx = g_strdup("highest");
	else if (nptx == nreal && nreal > 1)
		*ptx = g_strdup("all");
	else
		*ptx = g_strdup(x->str);
	*archs = g_string_free(a, FALSE);
	g_string_free(x, TRUE);
	g_hash_table_unref(real);
	g_hash_table_unref(virt);
	g_ptr_array_unref(items);
	g_ptr_array_unref(order);
	if (!ok) {
		g_clear_pointer(archs, g_free);
		g_clear_pointer(ptx, g_free);
	}
	return ok;
}


/* ---- targets ---- */

const char *im_type(const char *cmake)
{
	if (!strcmp(cmake, "EXECUTABLE"))
		return "executable";
	if (!strcmp(cmake, "STATIC_LIBRARY"))
		return "static";
	if (!strcmp(cmake, "SHARED_LIBRARY") || !strcmp(cmake, "MODULE_LIBRARY"))
		return "shared";
	if (!strcmp(cmake, "OBJECT_LIBRARY"))
		return "object";
	return NULL;
}

/* Its own usage requirements, as the build sees them. */
GPtrArray *im_exported(Im *im, ImTarget *t, const char *prop, gboolean paths)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free), *items = im_list(cm_prop(t->cm, prop));
	for (guint i = 0; i < items->len; i++) {
		gboolean genex = FALSE;
		char *v = im_build_item(g_ptr_array_index(items, i), &genex);
		if (genex)
			im_warn(im, &t->cm->where, "target '%s': %s item '%s' is a generator expression: "
				"taken as its dependents' compile lines give it", t->cm->name, prop,
				(char *)g_ptr_array_index(items, i));
		if (v) {
			char *n = paths ? cg_path_norm(v) : g_strdup(v);
			im_add_once(out, n);
			g_free(n);
		}
		g_free(v);
	}
	g_ptr_array_unref(items);
	return out;
}

/* What t's deps give it (transitively), each dep once: a diamond of
 * libraries is walked in linear time, a cycle ends. */
static void inherited(ImTarget *t, GPtrArray *inc, GPtrArray *def, GHashTable *seen)
{
	for (guint i = 0; i < t->deps->len; i++) {
		ImTarget *d = g_ptr_array_index(t->deps, i);
		if (!g_hash_table_add(seen, d))
			continue;
		for (guint k = 0; k < d->exported_inc->len; k++)
			im_add_once(inc, g_ptr_array_index(d->exported_inc, k));
		for (guint k = 0; k < d->exported_def->len; k++)
			im_add_once(def, g_ptr_array_index(d->exported_def, k));
		inherited(d, inc, def, seen);
	}
}

gboolean im_toolkit_dir(Im *im, const char *dir)
{
	if (im_has(im->p->implicit_includes, dir))
		return TRUE;
	if (!im->p->cuda_root)
		return FALSE;
	char *real = realpath(dir, NULL);
	gboolean in = g_str_has_prefix(real ? real : dir, im->p->cuda_root) &&
		      (real ? real : dir)[strlen(im->p->cuda_root)] == '/';
	free(real);
	return in;
}

/* The compile group of lang with the most sources (the target's flags),
 * and a warning when others differ from it (per-source settings). */
CmGroup *im_main_group(Im *im, ImTarget *t, const char *lang, gboolean warn)
{
	CmGroup *best = NULL;
	for (guint i = 0; i < t->cm->groups->len; i++) {
		CmGroup *g = g_ptr_array_index(t->cm->groups, i);
		if (g->lang && !strcmp(g->lang, lang) && (!best || g->nsources > best->nsources))
			best = g;
	}
	for (guint i = 0; best && i < t->cm->groups->len; i++) {
		CmGroup *g = g_ptr_array_index(t->cm->groups, i);
		if (g == best || !g->lang || strcmp(g->lang, lang))
			continue;
		gboolean same = g->flags->len == best->flags->len && g->defines->len == best->defines->len;
		for (guint k = 0; same && k < g->flags->len; k++)
			same = !strcmp(g_ptr_array_index(g->flags, k), g_ptr_array_index(best->flags, k));
		for (guint k = 0; same && k < g->defines->len; k++)
			same = !strcmp(g_ptr_array_index(g->defines, k), g_ptr_array_index(best->defines, k));
		if (!same && warn)
			im_warn(im, &t->cm->where, "target '%s': %u %s source%s with their own flags or defines "
				"(set_source_files_properties): built with the target's", t->cm->name, g->nsources,
				lang, g->nsources == 1 ? "" : "s");
	}
	return best;
}

static gboolean lang_ext(const char *lang, const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return FALSE;
	if (!strcmp(lang, "CUDA"))
		return !strcmp(dot, ".cu");
	if (!strcmp(lang, "CXX"))
		return !strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx");
	return !strcmp(lang, "C") && !strcmp(dot, ".c");
}

/* The arch an "ARCH<tab>ITEM" list gives item, or NULL. */
static char *arch_of(GPtrArray *list, const char *item)
{
	for (guint i = 0; i < list->len; i++) {
		const char *e = g_ptr_array_index(list, i), *tab = strchr(e, '\t');
		if (tab && !strcmp(tab + 1, item))
			return g_strndup(e, (gsize)(tab - e));
	}
	return NULL;
}

/* key = ARCH: ITEM... ARCH: ITEM... from an "ARCH<tab>ITEM" list */
static void put_arch_key(Im *im, const CmWhere *where, GString *o, const char *key, GPtrArray *list, gboolean paths)
{
	if (!list->len)
		return;
	GString *v = g_string_new(NULL);
	char *last = NULL;
	for (guint i = 0; i < list->len; i++) {
		const char *e = g_ptr_array_index(list, i), *tab = strchr(e, '\t');
		char *arch = g_strndup(e, (gsize)(tab - e));
		char *item = paths ? im_rel(im, tab + 1) : g_strdup(tab + 1);
		GString *w = g_string_new(NULL);
		if (!put_word(im, where, w, key, item, paths ? INI_LIST : INI_DEFINES)) {
			g_free(arch);
		} else {
			if (!last || strcmp(last, arch))
				g_string_append_printf(v, " %s:", arch);
			g_free(last);
			last = arch;
			g_string_append(v, w->str);
		}
		g_string_free(w, TRUE);
		g_free(item);
	}
	g_free(last);
	if (v->len)
		g_string_append_printf(o, "%s =%s\n", key, v->str);
	g_string_free(v, TRUE);
}

/* Whether a link word is one of the target's compile flags. */
static gboolean in_compile_flags(const CmTarget *c, const char *w)
{
	for (guint i = 0; i < c->groups->len; i++)
		if (im_has(((CmGroup *)g_ptr_array_index(c->groups, i))->flags, w))
			return TRUE;
	return FALSE;
}

static GPtrArray *target_sources(Im *im, ImTarget *t, GPtrArray *cuda_out)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < t->cm->sources->len; i++) {
		CmSource *s = g_ptr_array_index(t->cm->sources, i);
		char *r = im_rel(im, s->path), *arch = NULL;
		if (((s->generated || g_str_has_prefix(s->path, im->p->builddir)) && !s->lang &&
		     g_str_has_suffix(s->path, ".rule")) || (s->findcuda && s->generated)) {
			/* CMake's own record of a custom command; the object
			 * FindCUDA makes of a .cu imported as a CUDA source */
		} else if (s->generated && g_hash_table_lookup(im->objects, s->path)) {
			/* an object library's object: its objects come with it
			 * as a dep */
			ImTarget *ol = g_hash_table_lookup(im->objects, s->path);
			if (ol != t && !g_ptr_array_find(t->objects_of, ol, NULL))
				g_ptr_array_add(t->objects_of, ol);
		} else if (s->generated || g_str_has_prefix(s->path, im->p->builddir)) {
			char *b = cg_relpath(s->path, im->p->builddir);
			if (s->generated)
				im_warn(im, &s->where, "target '%s': %s is generated at build time (a custom command's "
					"output): not imported; generate it into the source tree first", t->cm->name, b);
			else
				im_warn(im, &s->where, "target '%s': %s is written into CMake's build directory at "
					"configure time (configure_file): not imported; put it in the source tree",
					t->cm->name, b);
			g_free(b);
		} else if (!s->lang) {
			/* headers and other files listed but not compiled */
		} else if (strcmp(s->lang, "CUDA") && strcmp(s->lang, "CXX") && strcmp(s->lang, "C")) {
			im_warn(im, &s->where, "target '%s': %s is %s: cugen builds CUDA, C and C++ only", t->cm->name,
				r, s->lang);
		} else if (outside_project(im, s->path)) {
			im_warn(im, &s->where, "target '%s': %s is outside the project: not imported", t->cm->name, r);
		} else if ((arch = arch_of(t->arch_src, s->path))) {
			g_free(arch); /* arch_sources */
			im->tus++;
		} else {
			GPtrArray *to = out;
			if (!lang_ext(s->lang, s->path) && !strcmp(s->lang, "CUDA") && !s->findcuda &&
			    !g_str_has_suffix(s->path, ".cu"))
				to = cuda_out; /* CMake's LANGUAGE CUDA */
			else if (!lang_ext(s->lang, s->path) && !s->findcuda)
				im_warn(im, &s->where, "target '%s': %s is compiled as %s by CMake (LANGUAGE), "
					"by its extension by cugen", t->cm->name, r, s->lang);
			if (!im_has(to, r))
				g_ptr_array_add(to, g_strdup(r));
			im->tus++;
			g_free(r);
			continue;
		}
		g_free(r);
	}
	return out;
}

/* The CUDA flags cugen accepts in cuda_flags: what it sets itself is
 * left out with a warning. */
static GPtrArray *checked_cuda_flags(Im *im, ImTarget *t, GPtrArray *words)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		char *q = cg_sh_quote(w);
		CudaFlags f = { 0 };
		const char *bad = NULL;
		char *why = NULL;
		gboolean owned = FALSE;
		if (cudaflags_read(q, &f, &bad, &why, &owned))
			g_ptr_array_add(out, g_strdup(w));
		else
			im_warn(im, &t->cm->where, "target '%s': nvcc option %s not imported: %s", t->cm->name, w,
				why ? why : "cugen sets it itself");
		cudaflags_clear(&f);
		g_free(why);
		g_free(q);
	}
	return out;
}

void im_write_target(Im *im, ImTarget *t, GString *o)
{
	CmTarget *c = t->cm;
	char *cm = g_strdup_printf("%s:%d: %s(%s)", c->where.file ? c->where.file : "?", c->where.line,
				   c->where.command ? c->where.command : "?", c->name);
	char *comment = ini_comment_text(cm);
	g_string_append_printf(o, "\n; %s\n[target %s]\ntype = %s\n", comment, t->name, t->type);
	g_free(comment);
	g_free(cm);
	if (!strcmp(c->type, "MODULE_LIBRARY"))
		im_warn(im, &c->where, "target '%s': a MODULE library is built as a shared library (with a SONAME)",
			c->name);
	GPtrArray *cuda_srcs = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *srcs = target_sources(im, t, cuda_srcs);
	im_put_key(im, &c->where, o, "sources", srcs, INI_LIST);
	im_put_key(im, &c->where, o, "cuda_sources", cuda_srcs, INI_LIST);
	put_arch_key(im, &c->where, o, "arch_sources", t->arch_src, TRUE);
	if (!srcs->len && !cuda_srcs->len)
		im_warn(im, &c->where, "target '%s' has no source cugen can build", c->name);
	g_ptr_array_unref(srcs);
	g_ptr_array_unref(cuda_srcs);
	const char *out_name = cm_prop(c, "OUTPUT_NAME");
	if (out_name && strcmp(out_name, c->name) && !strstr(out_name, "$<")) {
		if (config_target_name_ok(out_name))
			g_string_append_printf(o, "output_name = %s\n", out_name);
		else
			im_warn(im, &c->where, "target '%s': OUTPUT_NAME '%s' is no name cugen.ini can give a file "
				"(letters, digits, _ . + - only, not one cugen or ninja uses): its file is named after "
				"the target", c->name, out_name);
	}
	if ((cm_prop(c, "PREFIX") || cm_prop(c, "SUFFIX")))
		im_warn(im, &c->where, "target '%s': PREFIX and SUFFIX are not imported (cugen names files "
			"libNAME.so, libNAME.a and NAME)", c->name);
	/* usage requirements: its own public ones, then the private rest */
	GPtrArray *inc = g_ptr_array_new_with_free_func(g_free), *def = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	g_hash_table_add(seen, t);
	inherited(t, inc, def, seen);
	g_hash_table_destroy(seen);
	GPtrArray *pub_inc = g_ptr_array_new_with_free_func(g_free), *priv_inc = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *pub_def = g_ptr_array_new_with_free_func(g_free), *priv_def = g_ptr_array_new_with_free_func(g_free);
	gboolean toolkit_headers = FALSE;
	for (guint gi = 0; gi < c->groups->len; gi++) {
		CmGroup *g = g_ptr_array_index(c->groups, gi);
		for (guint i = 0; i < g->includes->len; i++) {
			const char *dir = g_ptr_array_index(g->includes, i);
			/* nvcc gives CUDA TUs the toolkit's headers; cugen gives
			 * C and C++ TUs them with cuda_headers */
			if (im_toolkit_dir(im, dir) && g->lang && strcmp(g->lang, "CUDA") && !im_has(im->p->implicit_includes, dir))
				toolkit_headers = TRUE;
			if (im_toolkit_dir(im, dir) || im_has(inc, dir))
				continue;
			if (g_str_has_prefix(dir, im->p->builddir)) {
				char *b = cg_relpath(dir, im->p->builddir);
				/* the headers configure wrote there, by name, and what
				 * to do: the first build would not find them */
				GString *names = g_string_new(NULL);
				GDir *gd = g_dir_open(dir, 0, NULL);
				guint nh = 0;
				for (const char *n; gd && (n = g_dir_read_name(gd));) {
					char *f = g_build_filename(dir, n, NULL);
					if (g_file_test(f, G_FILE_TEST_IS_REGULAR) && strchr(n, '.') &&
					    strcmp(n, "CMakeCache.txt") && !g_str_has_suffix(n, ".ninja") &&
					    !g_str_has_suffix(n, ".cmake") && nh++ < 3)
						g_string_append_printf(names, "%s%s", names->len ? ", " : "", n);
					g_free(f);
				}
				if (gd)
					g_dir_close(gd);
				if (nh > 3)
					g_string_append_printf(names, " and %u more", nh - 3);
				im_warn(im, g_ptr_array_index(g->include_where, i), "target '%s': include directory "
					"%s is in CMake's build directory (configure_file or a custom command writes "
					"headers there%s%s): not imported; copy %s into the project and name that "
					"directory in include", c->name, *b ? b : ".", nh ? ": " : "", names->str,
					nh ? "them" : "what it holds");
				g_string_free(names, TRUE);
				g_free(b);
				im_add_once(inc, dir);
				continue;
			}
			char *r = im_rel(im, dir);
			if (g_path_is_absolute(r) && !im_has(pub_inc, r) && !im_has(priv_inc, r))
				im_warn(im, g_ptr_array_index(g->include_where, i), "target '%s': include directory "
					"%s is a path of this machine", c->name, r);
			im_add_once(im_has(t->exported_inc, dir) ? pub_inc : priv_inc, r);
			g_free(r);
		}
		for (guint i = 0; i < g->defines->len; i++) {
			const char *d = g_ptr_array_index(g->defines, i);
			char *arch = arch_of(t->arch_def, d);
			g_free(arch);
			if (im_has(def, d) || arch)
				continue;
			gboolean pub = im_has(t->exported_def, d) && !strpbrk(d, "$;#");
			im_add_once(pub ? pub_def : priv_def, d);
		}
	}
	if (toolkit_headers)
		g_string_append(o, "cuda_headers = yes\n");
	im_put_key(im, &c->where, o, "include", pub_inc, INI_LIST);
	im_put_key(im, &c->where, o, "private_include", priv_inc, INI_LIST);
	im_put_key(im, &c->where, o, "public_defines", pub_def, INI_DEFINES);
	im_put_key(im, &c->where, o, "defines", priv_def, INI_DEFINES);
	put_arch_key(im, &c->where, o, "arch_defines", t->arch_def, FALSE);
	g_ptr_array_unref(inc);
	g_ptr_array_unref(def);
	g_ptr_array_unref(pub_inc);
	g_ptr_array_unref(priv_inc);
	g_ptr_array_unref(pub_def);
	g_ptr_array_unref(priv_def);
	/* flags per language */
	static const struct {
		const char *lang, *key;
	} langs[] = { { "CUDA", "cuda_flags" }, { "CXX", "cxxflags" }, { "C", "cflags" } };
	for (gsize k = 0; k < G_N_ELEMENTS(langs); k++) {
		CmGroup *g = im_main_group(im, t, langs[k].lang, TRUE);
		if (!g)
			continue;
		char *std = NULL;
		GPtrArray *strip = k == 0 ? im->cuda_strip : k == 1 ? im->cxx_strip : im->c_strip;
		GPtrArray *own = im_own_flags(g, strip, &std);
		if (k == 0) {
			GPtrArray *ok = checked_cuda_flags(im, t, own);
			g_ptr_array_unref(own);
			own = ok;
			if (t->std && g_strcmp0(t->std, im->cuda_std))
				g_ptr_array_insert(own, 0, g_strconcat("-std=", t->std, NULL));
		}
		im_put_key(im, &c->where, o, langs[k].key, own, INI_WORDS);
		g_ptr_array_unref(own);
		g_free(std);
	}
	/* links */
	ImLinks l = im_target_links(im, t);
	for (guint i = 0; i < t->objects_of->len; i++)
		if (!g_ptr_array_find(l.deps, g_ptr_array_index(t->objects_of, i), NULL))
			g_ptr_array_add(l.deps, g_ptr_array_index(t->objects_of, i));
	GString *deps = g_string_new(NULL);
	for (guint i = 0; i < l.deps->len; i++) {
		ImTarget *d = g_ptr_array_index(l.deps, i);
		if (d->placed && d->order < t->order) {
			g_string_append_printf(deps, " %s", d->name);
			continue;
		}
		/* static libraries that link each other (CMake allows the
		 * cycle, and repeats them on link lines): cugen.ini's deps
		 * cannot be circular */
		im_warn(im, &c->where, "target '%s' links '%s', which links it back (a cycle CMake allows between "
			"static libraries, cugen.ini's deps do not): the link back is left out; a program that "
			"needs both may need '%s' again in its libs", c->name, d->cm->name, d->name);
	}
	if (deps->len)
		g_string_append_printf(o, "deps =%s\n", deps->str);
	g_string_free(deps, TRUE);
	im_put_key(im, &c->where, o, "libs", l.libs, INI_LIST);
	im_put_key(im, &c->where, o, "private_libs", l.private_libs, INI_LIST);
	for (guint i = 0; i < c->links->len; i++) {
		CmLink *k = g_ptr_array_index(c->links, i);
		if (k->role && (!strcmp(k->role, "flags") || !strcmp(k->role, "libraryPath"))) {
			/* CMake's link line repeats the project-wide compile
			 * flags of the link language: not the target's */
			GPtrArray *w = im_words(k->fragment);
			guint from = 0;
			GPtrArray *strips[] = { im->cuda_strip, im->cxx_strip, im->c_strip };
			for (gsize si = 0; !from && si < G_N_ELEMENTS(strips); si++) {
				guint n = strips[si]->len;
				gboolean prefix = n && n <= w->len;
				for (guint j = 0; prefix && j < n; j++)
					prefix = !strcmp(g_ptr_array_index(w, j), g_ptr_array_index(strips[si], j));
				if (prefix)
					from = n;
			}
			for (guint j = from; j < w->len; j++) {
				const char *f = g_ptr_array_index(w, j);
				guint arch = arch_words(w, j);
				if (arch) {
					/* nvcc links with the compile's archs */
					j += arch - 1;
				} else if (in_compile_flags(c, f)) {
					/* a compile flag CMake repeats at the link */
				} else if (!g_str_has_prefix(f, "-L") || !im_toolkit_dir(im, f + 2)) {
					im_add_once(l.ldflags, f);
				}
			}
			g_ptr_array_unref(w);
		}
	}
	im_put_key(im, &c->where, o, "ldflags", l.ldflags, INI_WORDS);
	g_ptr_array_unref(l.deps);
	g_ptr_array_unref(l.libs);
	g_ptr_array_unref(l.private_libs);
	g_ptr_array_unref(l.ldflags);
	g_hash_table_destroy(l.walked);
	/* a shared library's versions: none unless CMake gives one */
	if (!strcmp(t->type, "shared")) {
		const char *v = cm_prop(c, "VERSION"), *so = cm_prop(c, "SOVERSION");
		if (!strcmp(c->type, "MODULE_LIBRARY"))
			v = so = NULL;
		/* (cugen's versions: letters, digits, . _ +; a version like
		 * 1.2.3-rc1 keeps the part cugen.ini can say, with a word) */
		const char *kv[][2] = { { "version", v ? v : so ? so : "" }, { "soversion", so && v ? so : NULL } };
		for (gsize i = 0; i < G_N_ELEMENTS(kv); i++) {
			if (!kv[i][1])
				continue;
			char *ok = g_strdup(kv[i][1]);
			if (*ok && !config_version_ok(ok)) {
				ok[strspn(ok, "0123456789.")] = 0;
				while (*ok && ok[strlen(ok) - 1] == '.')
					ok[strlen(ok) - 1] = 0;
				im_warn(im, &c->where, "target '%s': %s '%s' is not a version cugen.ini can give a "
					"library (e.g. 1.2.3): %s", c->name, i ? "SOVERSION" : "VERSION", kv[i][1],
					*ok ? ok : "none");
			}
			if (!*ok && !i) /* said: the project's version would apply */
				g_string_append(o, "; no VERSION in CMake: unversioned, as CMake builds it\n");
			g_string_append_printf(o, "%s = %s\n", kv[i][0], ok);
			g_free(ok);
		}
	}
	if (t->headers->len) {
		GPtrArray *h = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < t->headers->len; i++)
			g_ptr_array_add(h, im_rel(im, g_ptr_array_index(t->headers, i)));
		im_put_key(im, &c->where, o, "headers", h, INI_LIST);
		g_ptr_array_unref(h);
	}
	if (!t->installed && strcmp(t->type, "object"))
		g_string_append(o, "install = no\n");
	const char *pic = cm_prop(c, "POSITION_INDEPENDENT_CODE");
	if (pic && cm_true(pic) != !strcmp(t->type, "shared"))
		g_string_append_printf(o, "pic = %s\n", cm_true(pic) ? "yes" : "no");
	if (t->cuda || !strcmp(t->type, "executable") || !strcmp(t->type, "shared")) {
		if (t->archs && g_strcmp0(t->archs, im->cuda_archs))
			g_string_append_printf(o, "archs = %s\n", t->archs);
		if (t->ptx && g_strcmp0(t->ptx, im->cuda_ptx))
			g_string_append_printf(o, "ptx = %s\n", t->ptx);
		if (t->rdc != im->cuda_rdc)
			g_string_append_printf(o, "mode = %s\n", t->rdc ? "rdc" : "whole");
		if (t->lto != im->cuda_lto)
			g_string_append_printf(o, "lto = %s\n", t->lto ? "yes" : "no");
	}
	if (t->rdc && (!strcmp(t->type, "static") || !strcmp(t->type, "object")) &&
	    cm_true(cm_prop(c, "CUDA_RESOLVE_DEVICE_SYMBOLS")))
		g_string_append(o, "device_link = yes\n");
}
