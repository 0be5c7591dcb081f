/* importer.c -- `cugen import [-o FILE] [--force] SRCDIR [-- CMAKE_ARGS...]`:
 * a CMake project, as CMake describes it (cmakeapi.h), written as the
 * cugen.ini that builds what CMake's build builds: [project], [cuda] and
 * [toolchain] from the project-wide settings, then one section per
 * target in build order (importmap.c), each with a comment naming the
 * CMakeLists line that made it, and one warning line for each thing
 * cugen.ini cannot say. The file is put in place only once cugen reads it
 * back, and never over an existing one without --force.
 *
 * Owns: the command, the project-wide sections and the target order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archspell.h"
#include "commands.h"
#include "config.h"
#include "importer_int.h"
#include "safepath.h"
#include "util.h"

static void im_target_free(gpointer p)
{
	ImTarget *t = p;
	g_free(t->name);
	g_ptr_array_unref(t->deps);
	g_ptr_array_unref(t->objects_of);
	g_ptr_array_unref(t->exported_inc);
	g_ptr_array_unref(t->exported_def);
	g_ptr_array_unref(t->headers);
	g_ptr_array_unref(t->arch_src);
	g_ptr_array_unref(t->arch_def);
	g_free(t->archs);
	g_free(t->ptx);
	g_free(t->std);
	g_free(t);
}

static char *section_name(const char *cmake)
{
	char *n = g_strdup(cmake);
	for (char *s = n; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.+-", *s))
			*s = '_';
	return n;
}

/* CMAKE_<LANG>_FLAGS and, when the build type is not cugen's, the build
 * type's flags: what [cuda] flags or [toolchain] give every target. */
static GPtrArray *global_flags(Im *im, const char *lang, gboolean with_bt)
{
	char *k = g_strdup_printf("CMAKE_%s_FLAGS", lang);
	GPtrArray *w = im_words(cm_cache(im->p, k));
	g_free(k);
	const char *bt = cm_cache(im->p, "CMAKE_BUILD_TYPE");
	if (with_bt && *bt) {
		char *up = g_ascii_strup(bt, -1);
		k = g_strdup_printf("CMAKE_%s_FLAGS_%s", lang, up);
		GPtrArray *b = im_words(cm_cache(im->p, k));
		for (guint i = 0; i < b->len; i++)
			g_ptr_array_add(w, g_strdup(g_ptr_array_index(b, i)));
		g_ptr_array_unref(b);
		g_free(k);
		g_free(up);
	}
	return w;
}

/* CMAKE_<LANG>_FLAGS less the words the chosen build type gives
 * itself: a project appending -O3 -DNDEBUG there for its Release build
 * gets them once, from buildtype, and a --buildtype debug build lacks
 * them. */
static GPtrArray *project_flags(Im *im, const char *lang)
{
	GPtrArray *w = global_flags(im, lang, !im->buildtype);
	const char *cuda = NULL, *host = NULL;
	if (!im->buildtype || !buildtype_flags(im->buildtype, &cuda, &host))
		return w;
	GPtrArray *bt = im_words(!strcmp(lang, "CUDA") ? cuda : host);
	for (guint i = w->len; i-- > 0;)
		if (im_has(bt, g_ptr_array_index(w, i)))
			g_ptr_array_remove_index(w, i);
	g_ptr_array_unref(bt);
	return w;
}

static gboolean same_words(const char *a, const char *b)
{
	GPtrArray *x = im_words(a), *y = im_words(b);
	gboolean same = x->len == y->len;
	for (guint i = 0; same && i < x->len; i++)
		same = !strcmp(g_ptr_array_index(x, i), g_ptr_array_index(y, i));
	g_ptr_array_unref(x);
	g_ptr_array_unref(y);
	return same;
}

static gboolean uses_lang(Im *im, const char *lang)
{
	for (guint i = 0; i < im->p->targets->len; i++) {
		CmTarget *t = g_ptr_array_index(im->p->targets, i);
		for (guint k = 0; k < t->groups->len; k++)
			if (!g_strcmp0(((CmGroup *)g_ptr_array_index(t->groups, k))->lang, lang))
				return TRUE;
	}
	return FALSE;
}

/* cugen's buildtype when its flags are CMake's for CMAKE_BUILD_TYPE in
 * every language the project compiles. */
static void choose_buildtype(Im *im)
{
	const char *bt = cm_cache(im->p, "CMAKE_BUILD_TYPE"), *cuda = NULL, *host = NULL;
	if (!*bt || !buildtype_flags(bt, &cuda, &host))
		return;
	char *up = g_ascii_strup(bt, -1);
	gboolean same = TRUE;
	static const char *const langs[] = { "CUDA", "CXX", "C" };
	for (gsize i = 0; same && i < G_N_ELEMENTS(langs); i++) {
		char *k = g_strdup_printf("CMAKE_%s_FLAGS_%s", langs[i], up);
		if (uses_lang(im, langs[i]))
			same = same_words(cm_cache(im->p, k), i == 0 ? cuda : host);
		g_free(k);
	}
	g_free(up);
	if (same)
		im->buildtype = g_ascii_strdown(bt, -1);
}

/* FindCUDA's cuda_add_executable and cuda_add_library compile each .cu
 * with a custom command into TARGET_generated_NAME.cu.o, which the target
 * links as an object: the .cu is a CUDA source of the target (with
 * CUDA_NVCC_FLAGS as [cuda] flags), the object is not imported. */
static void findcuda_sources(Im *im, ImTarget *t)
{
	for (guint i = 0; i < t->cm->sources->len; i++) {
		CmSource *cu = g_ptr_array_index(t->cm->sources, i);
		if (cu->lang || !g_str_has_suffix(cu->path, ".cu"))
			continue;
		char *base = g_path_get_basename(cu->path);
		char *obj = g_strdup_printf("%s_generated_%s.o", t->cm->name, base);
		for (guint k = 0; k < t->cm->sources->len; k++) {
			CmSource *o = g_ptr_array_index(t->cm->sources, k);
			char *ob = g_path_get_basename(o->path);
			if (o->generated && !strcmp(ob, obj)) {
				o->findcuda = cu->findcuda = TRUE;
				cu->lang = g_strdup("CUDA");
				if (!im->findcuda++)
					im_warn(im, &t->cm->where, "target '%s': %s is compiled by FindCUDA's "
						"cuda_add_* (a custom command): imported as a CUDA source, with "
						"CUDA_NVCC_FLAGS as [cuda] flags (enable_language(CUDA) is CMake's way "
						"now)", t->cm->name, base);
			}
			g_free(ob);
		}
		g_free(obj);
		g_free(base);
	}
}

/* A target's CUDA settings and usage requirements, before any section is
 * written ([cuda] takes the most common settings). */
static void prepare(Im *im, ImTarget *t)
{
	findcuda_sources(im, t);
	for (guint i = 0; i < t->cm->sources->len; i++)
		t->cuda |= !g_strcmp0(((CmSource *)g_ptr_array_index(t->cm->sources, i))->lang, "CUDA");
	const char *a = cm_prop(t->cm, "CUDA_ARCHITECTURES");
	if (t->cuda && !im_map_archs(a, &t->archs, &t->ptx))
		im_warn(im, &t->cm->where, "target '%s': CUDA_ARCHITECTURES '%s' not imported (nvcc's default arch)",
			t->cm->name, a);
	t->rdc = cm_true(cm_prop(t->cm, "CUDA_SEPARABLE_COMPILATION"));
	t->lto = t->rdc && cm_true(cm_prop(t->cm, "INTERPROCEDURAL_OPTIMIZATION"));
	CmGroup *g = im_main_group(im, t, "CUDA", FALSE);
	if (g)
		g_ptr_array_unref(im_own_flags(g, im->cuda_strip, &t->std));
	t->exported_inc = im_exported(im, t, "INTERFACE_INCLUDE_DIRECTORIES", TRUE);
	t->exported_def = im_exported(im, t, "INTERFACE_COMPILE_DEFINITIONS", FALSE);
	const char *rt = cm_prop(t->cm, "CUDA_RUNTIME_LIBRARY");
	if (rt && !g_ascii_strcasecmp(rt, "Shared"))
		im->cudart_shared = TRUE;
	else if (rt && !g_ascii_strcasecmp(rt, "None"))
		im_warn(im, &t->cm->where, "target '%s': CUDA_RUNTIME_LIBRARY None is not imported (cugen links "
			"the CUDA runtime)", t->cm->name);
}

static CmTarget *find_target(CmProject *p, const char *name)
{
	for (guint i = 0; i < p->targets->len; i++) {
		CmTarget *t = g_ptr_array_index(p->targets, i);
		if (!strcmp(t->name, name))
			return t;
	}
	return NULL;
}

static GPtrArray *compiled(const CmTarget *t)
{
	GPtrArray *out = g_ptr_array_new();
	for (guint i = 0; i < t->sources->len; i++) {
		CmSource *s = g_ptr_array_index(t->sources, i);
		if (s->lang && !s->generated)
			g_ptr_array_add(out, s->path);
	}
	return out;
}

static GPtrArray *all_defines(const CmTarget *t)
{
	GPtrArray *out = g_ptr_array_new();
	for (guint i = 0; i < t->groups->len; i++) {
		CmGroup *g = g_ptr_array_index(t->groups, i);
		for (guint k = 0; k < g->defines->len; k++)
			if (!im_has(out, g_ptr_array_index(g->defines, k)))
				g_ptr_array_add(out, g_ptr_array_index(g->defines, k));
	}
	return out;
}

/* What one target has that its build without arch n lacks: n's. */
static void compare_without(Im *im, ImTarget *t, CmTarget *v, const char *n)
{
	GPtrArray *a = compiled(t->cm), *b = compiled(v);
	for (guint i = 0; i < a->len; i++)
		if (!im_has(b, g_ptr_array_index(a, i)))
			g_ptr_array_add(t->arch_src, g_strconcat(n, "\t", (char *)g_ptr_array_index(a, i), NULL));
	for (guint i = 0; i < b->len; i++)
		if (!im_has(a, g_ptr_array_index(b, i))) {
			char *r = cg_relpath(g_ptr_array_index(b, i), im->p->srcdir);
			im_warn(im, &t->cm->where, "target '%s': %s is built only where arch %s is not: not imported",
				t->cm->name, r, n);
			g_free(r);
		}
	g_ptr_array_unref(a);
	g_ptr_array_unref(b);
	a = all_defines(t->cm);
	b = all_defines(v);
	for (guint i = 0; i < a->len; i++)
		if (!im_has(b, g_ptr_array_index(a, i)))
			g_ptr_array_add(t->arch_def, g_strconcat(n, "\t", (char *)g_ptr_array_index(a, i), NULL));
	for (guint i = 0; i < b->len; i++)
		if (!im_has(a, g_ptr_array_index(b, i)))
			im_warn(im, &t->cm->where, "target '%s': define %s is given only where arch %s is not: not "
				"imported", t->cm->name, (char *)g_ptr_array_index(b, i), n);
	g_ptr_array_unref(a);
	g_ptr_array_unref(b);
}

/* Whether v reads as an arch list: "80;90", "75 80-real 90a". */
static gboolean arch_list_value(const char *v, guint *n)
{
	char **w = g_strsplit_set(v, "; ,", -1);
	gboolean ok = TRUE;
	*n = 0;
	for (guint i = 0; ok && w[i]; i++) {
		const char *x = w[i];
		if (!*x)
			continue;
		gsize d = strspn(x, "0123456789");
		x += d;
		if (*x == 'a' || *x == 'f')
			x++;
		ok = (d == 2 || d == 3) && (!*x || !strcmp(x, "-real") || !strcmp(x, "-virtual"));
		*n += ok;
	}
	g_strfreev(w);
	return ok && *n > 0;
}

/* A project's own cache variable holding an arch list (bitsandbytes'
 * COMPUTE_CAPABILITY): what the project picks from it is not seen by
 * the arch probe, which varies CMAKE_CUDA_ARCHITECTURES only. */
static void warn_arch_variables(Im *im)
{
	if (!im->any_cuda)
		return;
	GList *keys = g_list_sort(g_hash_table_get_keys(im->p->cache), (GCompareFunc)strcmp);
	for (GList *k = keys; k; k = k->next) {
		const char *name = k->data, *v = cm_cache(im->p, name);
		guint n = 0;
		if (g_str_has_prefix(name, "CMAKE_") || g_str_has_prefix(name, "_") || strstr(name, "CUDA_ARCHITECTURES") ||
		    !arch_list_value(v, &n))
			continue;
		char *up = g_ascii_strup(name, -1);
		gboolean archy = strstr(up, "ARCH") || strstr(up, "CAPAB") || strstr(up, "SM") || strstr(up, "CC");
		g_free(up);
		if (n >= 2 || archy)
			im_warn(im, NULL, "cache variable %s = '%s' reads as an arch list: sources and defines the project "
				"picks from it are imported for that list only (the arch probe varies "
				"CMAKE_CUDA_ARCHITECTURES); for other archs write arch_sources/arch_defines (80+: from 80 "
				"up), or import with -D%s=...", name, v, name);
	}
	g_list_free(keys);
}

/* Configure again without each arch of the project's list: a source or
 * define that goes with an arch is that arch's (arch_sources,
 * arch_defines), so that a build for other archs gets what CMake's
 * would. Stops where the project pins its list (the reconfigure's
 * CUDA_ARCHITECTURES is not the one asked for). */
static void probe_archs(Im *im, const char *scratch, const char *srcdir, char **args)
{
	ImTarget *first = NULL;
	for (guint i = 0; !first && i < im->order->len; i++) {
		ImTarget *t = g_ptr_array_index(im->order, i);
		if (t->cuda && t->archs && !g_strcmp0(t->archs, im->cuda_archs))
			first = t;
	}
	const char *raw = first ? cm_prop(first->cm, "CUDA_ARCHITECTURES") : NULL;
	if (!raw || strstr(raw, "$<"))
		return;
	GPtrArray *items = im_list(raw), *nums = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < items->len; i++) {
		char *it = g_ptr_array_index(items, i);
		char *n = g_strndup(it, strcspn(it, "-"));
		if (!im_has(nums, n))
			g_ptr_array_add(nums, n);
		else
			g_free(n);
	}
	for (guint k = 0; nums->len > 1 && k < nums->len; k++) {
		const char *n = g_ptr_array_index(nums, k);
		GString *variant = g_string_new(NULL);
		for (guint i = 0; i < items->len; i++) {
			char *it = g_ptr_array_index(items, i);
			if (strncmp(it, n, strlen(n)) || (it[strlen(n)] && it[strlen(n)] != '-'))
				g_string_append_printf(variant, "%s%s", variant->len ? ";" : "", it);
		}
		char *more = g_strconcat("-DCMAKE_CUDA_ARCHITECTURES=", variant->str, NULL);
		GError *e = NULL;
		CmProject *v = cmake_describe(scratch, srcdir, args, more, &e);
		g_free(more);
		CmTarget *vf = v ? find_target(v, first->cm->name) : NULL;
		gboolean took = vf && !g_strcmp0(cm_prop(vf, "CUDA_ARCHITECTURES"), variant->str);
		if (!v) {
			im_warn(im, NULL, "configured without arch %s, CMake failed: arch-dependent sources and defines "
				"not looked for (%s)", n, e->message);
			g_error_free(e);
		}
		for (guint i = 0; took && i < im->order->len; i++) {
			ImTarget *t = g_ptr_array_index(im->order, i);
			CmTarget *vt = find_target(v, t->cm->name);
			if (vt)
				compare_without(im, t, vt, n);
		}
		cm_project_free(v);
		g_string_free(variant, TRUE);
		if (!took)
			break;
	}
	g_ptr_array_unref(nums);
	g_ptr_array_unref(items);
}

static char *settings_key(const ImTarget *t)
{
	return g_strdup_printf("%s|%s|%s|%d|%d", t->archs ? t->archs : "", t->ptx ? t->ptx : "", t->std ? t->std : "",
			       t->rdc, t->lto);
}

/* [cuda]: the settings most CUDA targets share (the first of equals). */
static void choose_cuda(Im *im)
{
	GHashTable *count = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ImTarget *best = NULL;
	guint most = 0;
	for (guint i = 0; i < im->order->len; i++) {
		ImTarget *t = g_ptr_array_index(im->order, i);
		if (!t->cuda)
			continue;
		char *k = settings_key(t);
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count, k)) + 1;
		g_hash_table_replace(count, k, GUINT_TO_POINTER(n));
		if (n > most) {
			most = n;
			best = t;
		}
	}
	g_hash_table_unref(count);
	if (!best)
		return;
	im->any_cuda = TRUE;
	im->cuda_archs = g_strdup(best->archs);
	im->cuda_ptx = g_strdup(best->ptx);
	im->cuda_std = g_strdup(best->std);
	im->cuda_rdc = best->rdc;
	im->cuda_lto = best->lto;
	/* a target without CUDA sources (a C++ program device-linking its
	 * libraries) takes [cuda]'s */
	for (guint i = 0; i < im->order->len; i++) {
		ImTarget *t = g_ptr_array_index(im->order, i);
		if (!t->cuda) {
			t->rdc = im->cuda_rdc;
			t->lto = im->cuda_lto;
		}
	}
}

static void place(Im *im, ImTarget *t, int depth)
{
	if (t->placed || t->visited || depth > 256)
		return;
	t->visited = TRUE;
	for (guint i = 0; i < t->deps->len; i++)
		place(im, g_ptr_array_index(t->deps, i), depth + 1);
	t->placed = TRUE;
	t->order = im->order->len;
	g_ptr_array_add(im->order, t);
}

/* FindCUDA's CUDA_NVCC_FLAGS (and _<CONFIG>), less arch options: their
 * archs become [cuda] archs where no target names its own. */
static void findcuda_flags(Im *im, GPtrArray *w)
{
	char *up = g_ascii_strup(cm_cache(im->p, "CMAKE_BUILD_TYPE"), -1);
	char *k = g_strconcat("CUDA_NVCC_FLAGS_", up, NULL);
	char *all = g_strjoin(" ", cm_cache(im->p, "CUDA_NVCC_FLAGS"), cm_cache(im->p, k), NULL);
	for (char *c = all; *c; c++)
		if (*c == ';')
			*c = ' ';
	GPtrArray *words = im_words(all);
	GString *arch = g_string_new(NULL);
	for (guint i = 0; i < words->len; i++) {
		const char *x = g_ptr_array_index(words, i);
		if (g_str_has_prefix(x, "-gencode") || g_str_has_prefix(x, "--generate-code") || g_str_has_prefix(x, "-arch") ||
		    g_str_has_prefix(x, "--gpu-architecture")) {
			g_string_append_printf(arch, "%s%s", arch->len ? " " : "", x);
			if (!strchr(x, '=') && i + 1 < words->len)
				g_string_append_printf(arch, " %s", (char *)g_ptr_array_index(words, ++i));
		} else {
			g_ptr_array_add(w, g_strdup(x));
		}
	}
	char *archs = NULL, *ptx = NULL, *bad = NULL;
	if (arch->len && !im->cuda_archs && archspell_gencode(arch->str, &archs, &ptx, &bad)) {
		im->cuda_archs = archs;
		g_free(im->cuda_ptx);
		im->cuda_ptx = ptx;
	} else {
		g_free(archs);
		g_free(ptx);
	}
	g_free(bad);
	g_string_free(arch, TRUE);
	g_ptr_array_unref(words);
	g_free(all);
	g_free(k);
	g_free(up);
}

static GString *write_ini(Im *im, char **args)
{
	GString *targets = g_string_new(NULL);
	for (guint i = 0; i < im->order->len; i++)
		im_write_target(im, g_ptr_array_index(im->order, i), targets);
	GString *o = g_string_new(NULL), *head = g_string_new(NULL);
	g_string_append_printf(head, "; cugen.ini -- imported from CMakeLists.txt by `cugen import` (cugen %s, CMake %s",
			       CUGEN_VERSION, im->p->cmake_version ? im->p->cmake_version : "?");
	for (char **a = args; a && *a; a++) {
		char *q = cg_sh_quote(*a);
		g_string_append_printf(head, " %s", q);
		g_free(q);
	}
	char *line = ini_comment_text(head->str);
	g_string_append(o, line);
	g_free(line);
	g_string_free(head, TRUE);
	g_string_append(o, "):\n; what CMake's build builds, target for target. After CMakeLists.txt changes,\n"
			   "; run `cugen import --force` again.\n\n[project]\n");
	char *name = section_name(im->p->name && *im->p->name ? im->p->name : "project");
	g_string_append_printf(o, "name = %s\n", name);
	g_free(name);
	im_put_scalar(im, NULL, o, "version", im->p->version);
	gboolean lib_installed = FALSE;
	for (guint i = 0; i < im->order->len; i++) {
		ImTarget *t = g_ptr_array_index(im->order, i);
		lib_installed |= t->installed && (!strcmp(t->type, "static") || !strcmp(t->type, "shared"));
	}
	if (lib_installed && (!im->p->version || !*im->p->version))
		im_warn(im, NULL, "project() gives no VERSION: the installed .pc and CMake package have none "
			"(find_package(X 1.0) refuses it); set version = in [project]");
	if (im->buildtype)
		g_string_append_printf(o, "buildtype = %s\n", im->buildtype);
	else if (*cm_cache(im->p, "CMAKE_BUILD_TYPE")) {
		char *bt = ini_comment_text(cm_cache(im->p, "CMAKE_BUILD_TYPE"));
		g_string_append_printf(o, "; CMAKE_BUILD_TYPE %s: its flags are in flags, cxxflags and cflags\n", bt);
		g_free(bt);
	}
	if (im->any_cuda) {
		g_string_append(o, "\n[cuda]\n");
		if (im->cuda_archs)
			g_string_append_printf(o, "archs = %s\n", im->cuda_archs);
		if (im->cuda_ptx)
			g_string_append_printf(o, "ptx = %s\n", im->cuda_ptx);
		g_string_append_printf(o, "mode = %s\n", im->cuda_rdc ? "rdc" : "whole");
		if (im->cuda_lto)
			g_string_append(o, "lto = yes\n");
		im_put_scalar(im, NULL, o, "std", im->cuda_std);
		/* CMake writes --generate-code=arch=compute_NN,code=[compute_NN,
		 * sm_NN]: nvcc's fatbinary keeps that order (FindCUDA's own
		 * flags aside) */
		if (im->cuda_ptx && strcmp(im->cuda_ptx, "none") && im->cuda_archs &&
		    !strstr(im->cuda_archs, "all") && !strstr(im->cuda_archs, "native") &&
		    !im->findcuda)
			g_string_append(o, "ptx_first = yes\n");
		g_string_append_printf(o, "cudart = %s\n", im->cudart_shared ? "shared" : "static");
		GPtrArray *w = project_flags(im, "CUDA");
		if (im->findcuda)
			findcuda_flags(im, w);
		im_put_key(im, NULL, o, "flags", w, INI_WORDS);
		g_ptr_array_unref(w);
	}
	GString *tc = g_string_new(NULL);
	static const struct {
		const char *lang, *key;
	} host[] = { { "CXX", "cxxflags" }, { "C", "cflags" } };
	for (gsize i = 0; i < G_N_ELEMENTS(host); i++) {
		GPtrArray *w = project_flags(im, host[i].lang);
		if (uses_lang(im, host[i].lang))
			im_put_key(im, NULL, tc, host[i].key, w, INI_WORDS);
		g_ptr_array_unref(w);
	}
	const char *ccbin = cm_cache(im->p, "CMAKE_CUDA_HOST_COMPILER");
	im_put_scalar(im, NULL, tc, "ccbin", ccbin);
	if (tc->len)
		g_string_append_printf(o, "\n[toolchain]\n%s", tc->str);
	g_string_free(tc, TRUE);
	g_string_append(o, targets->str);
	g_string_free(targets, TRUE);
	return o;
}

/* Write text to path only once cugen reads it back (from a temporary
 * beside it, so that its relative paths mean what they will), with the
 * mode the user's umask gives a new file; without force, only if no
 * file appeared there meanwhile (link(2) does not replace one: a
 * cugen.ini saved while cmake ran stays). */
static gboolean put_in_place(const char *path, GString *text, gboolean force, GError **err)
{
	char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
	char *tmpl = g_strdup_printf("%s/.%s.import-XXXXXX", dir, base);
	int fd = g_mkstemp(tmpl);
	mode_t mask = umask(0);
	umask(mask);
	gboolean ok = fd >= 0 && fchmod(fd, 0666 & ~mask) == 0 && cg_write_all(fd, text->str, text->len) &&
		      fsync(fd) == 0;
	if (fd >= 0)
		close(fd);
	if (!ok) {
		cg_error(err, "cannot write %s: %s", tmpl, g_strerror(errno));
	} else {
		ConfigOptions co = { .ini = tmpl };
		GError *e = NULL;
		Config *c = config_load(&co, &e);
		if (!c) {
			GString *m = g_string_new(e->message);
			g_string_replace(m, tmpl, path, 0);
			cg_error(err, "the imported file does not load (a bug of cugen import): %s", m->str);
			g_string_free(m, TRUE);
			g_error_free(e);
			ok = FALSE;
		}
		config_free(c);
		if (ok && force && rename(tmpl, path) != 0) {
			cg_error(err, "cannot write %s: %s", path, g_strerror(errno));
			ok = FALSE;
		} else if (ok && !force) {
			if (link(tmpl, path) != 0) {
				if (errno == EEXIST)
					cg_error(err, "%s appeared while cmake ran: left as it is (--force replaces it)",
						 path);
				else
					cg_error(err, "cannot write %s: %s", path, g_strerror(errno));
				ok = FALSE;
			}
			unlink(tmpl);
		}
	}
	if (!ok && fd >= 0)
		unlink(tmpl);
	g_free(tmpl);
	g_free(dir);
	g_free(base);
	return ok;
}

static int usage(FILE *f, int status)
{
	fprintf(f, "Usage: cugen import [-o FILE] [--force] SRCDIR [-- CMAKE_CONFIGURE_ARGS...]\n"
		   "Configure the CMake project in SRCDIR in a scratch directory and write the\n"
		   "cugen.ini that builds what its build builds (default SRCDIR/cugen.ini).\n\n"
		   "  -o FILE     write FILE instead\n"
		   "  --force     replace an existing FILE\n"
		   "  -- ARGS     more arguments for cmake's configure (-DCMAKE_BUILD_TYPE=Release)\n");
	return status;
}

int cmd_import(int argc, char **argv)
{
	const char *out = NULL, *srcdir = NULL;
	gboolean force = FALSE;
	char **args = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			args = argv + i + 1;
			break;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			return usage(stdout, 0);
		} else if (!strcmp(argv[i], "--force")) {
			force = TRUE;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (g_str_has_prefix(argv[i], "-o") && argv[i][2]) {
			out = argv[i] + 2;
		} else if (argv[i][0] == '-' || srcdir) {
			fprintf(stderr, "cugen: error: import: unexpected argument '%s'\n", argv[i]);
			return usage(stderr, 2);
		} else {
			srcdir = argv[i];
		}
	}
	if (!srcdir) {
		fprintf(stderr, "cugen: error: import: no SRCDIR\n");
		return usage(stderr, 2);
	}
	for (char **a = args; a && *a; a++)
		if (!strcmp(*a, "-S") || !strcmp(*a, "-B") || g_str_has_prefix(*a, "-B") || g_str_has_prefix(*a, "-S") ||
		    strstr(*a, "CMAKE_PROJECT_INCLUDE=") || strstr(*a, "CUGEN_IMPORT_DUMP=")) {
			fprintf(stderr, "cugen: error: import: '%s': cugen import chooses the source, build "
					"directory and project include itself\n", *a);
			return 2;
		}
	char *lists = g_build_filename(srcdir, "CMakeLists.txt", NULL);
	if (!g_file_test(lists, G_FILE_TEST_IS_REGULAR)) {
		fprintf(stderr, "cugen: error: %s: no such file (cugen import reads a CMake project)\n", lists);
		g_free(lists);
		return 1;
	}
	g_free(lists);
	if (out && !*out) {
		fprintf(stderr, "cugen: error: import: -o '' names no file\n");
		return usage(stderr, 2);
	}
	char *path = out ? g_strdup(out) : g_build_filename(srcdir, "cugen.ini", NULL);
	if (!force && g_file_test(path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK)) {
		fprintf(stderr, "cugen: error: %s exists (--force replaces it)\n", path);
		g_free(path);
		return 1;
	}
	/* where it goes, before cmake runs for minutes */
	char *odir = g_path_get_dirname(path);
	gboolean dir_ok = g_file_test(odir, G_FILE_TEST_IS_DIR);
	if (!dir_ok || access(odir, W_OK) != 0 || g_file_test(path, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "cugen: error: cannot write %s: %s\n", path,
			g_file_test(path, G_FILE_TEST_IS_DIR) ? "it is a directory"
			: !dir_ok ? "its directory does not exist" : "its directory is not writable");
		g_free(odir);
		g_free(path);
		return 1;
	}
	g_free(odir);
	GError *err = NULL;
	char *scratch = cmake_scratch(&err);
	CmProject *p = scratch ? cmake_describe(scratch, srcdir, args, NULL, &err) : NULL;
	if (!p) {
		int st = cg_report(err);
		g_error_free(err);
		g_free(path);
		if (scratch)
			cg_rm_tree(scratch);
		g_free(scratch);
		return st;
	}
	char *abs = cg_abspath(path);
	Im im = { .p = p, .shown = srcdir, .base = g_path_get_dirname(abs) };
	g_free(abs);
	im.targets = g_hash_table_new(g_str_hash, g_str_equal);
	im.interfaces = g_hash_table_new(g_str_hash, g_str_equal);
	im.objects = g_hash_table_new(g_str_hash, g_str_equal);
	im.folded = g_hash_table_new(g_str_hash, g_str_equal);
	im.order = g_ptr_array_new();
	GPtrArray *all = g_ptr_array_new_with_free_func(im_target_free);
	choose_buildtype(&im);
	im.cuda_strip = global_flags(&im, "CUDA", TRUE);
	im.cxx_strip = global_flags(&im, "CXX", TRUE);
	im.c_strip = global_flags(&im, "C", TRUE);
	GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < p->targets->len; i++) {
		CmTarget *c = g_ptr_array_index(p->targets, i);
		const char *type = im_type(c->type);
		if (!strcmp(c->type, "INTERFACE_LIBRARY")) {
			g_hash_table_insert(im.interfaces, c->name, c);
			continue;
		}
		if (!type) {
			/* (a module's own, such as include(CTest)'s dashboard
			 * targets: nothing of the project's is lost) */
			if (!c->generator_provided && !c->where.in_module)
				im_warn(&im, &c->where, "target '%s' (%s: a custom target) is not imported", c->name,
					c->type);
			continue;
		}
		ImTarget *t = g_new0(ImTarget, 1);
		t->cm = c;
		t->type = type;
		t->name = section_name(c->name);
		t->deps = g_ptr_array_new();
		t->objects_of = g_ptr_array_new();
		for (guint k = 0; k < c->objects->len; k++)
			g_hash_table_insert(im.objects, g_ptr_array_index(c->objects, k), t);
		t->headers = g_ptr_array_new_with_free_func(g_free);
		t->arch_src = g_ptr_array_new_with_free_func(g_free);
		t->arch_def = g_ptr_array_new_with_free_func(g_free);
		while (g_hash_table_contains(names, t->name) || !config_target_name_ok(t->name)) {
			char *n = g_strconcat(t->name, "_", NULL);
			g_free(t->name);
			t->name = n;
		}
		if (strcmp(t->name, c->name))
			im_warn(&im, &c->where, "target '%s' is '%s' in cugen.ini (letters, digits, _ . + - only, and "
				"not a name cugen or ninja uses in the build directory)", c->name, t->name);
		g_hash_table_add(names, t->name);
		g_hash_table_insert(im.targets, c->name, t);
		g_ptr_array_add(all, t);
	}
	g_hash_table_unref(names);
	for (guint i = 0; i < all->len; i++) {
		ImTarget *t = g_ptr_array_index(all, i);
		for (guint k = 0; k < t->cm->deps->len; k++) {
			ImTarget *d = g_hash_table_lookup(im.targets, g_ptr_array_index(t->cm->deps, k));
			if (d && d != t)
				g_ptr_array_add(t->deps, d);
		}
		prepare(&im, t);
	}
	for (guint i = 0; i < all->len; i++)
		place(&im, g_ptr_array_index(all, i), 0);
	choose_cuda(&im);
	im_plan_installs(&im);
	probe_archs(&im, scratch, srcdir, args);
	warn_arch_variables(&im);
	int status = 0;
	if (!im.order->len) {
		fprintf(stderr, "cugen: error: %s: CMake builds no executable or library there\n", srcdir);
		status = 1;
	} else {
		GString *text = write_ini(&im, args);
		if (!put_in_place(path, text, force, &err)) {
			status = cg_report(err);
			g_error_free(err);
		} else {
			printf("cugen: imported %u target%s (%u TUs) from %s/CMakeLists.txt into %s; %u warning%s\n",
			       im.order->len, im.order->len == 1 ? "" : "s", im.tus, srcdir, path, im.warnings,
			       im.warnings == 1 ? "" : "s");
		}
		g_string_free(text, TRUE);
	}
	/* (after the file: its warnings name what configure wrote there) */
	cg_rm_tree(scratch);
	g_free(scratch);
	g_ptr_array_unref(all);
	g_ptr_array_unref(im.order);
	g_hash_table_unref(im.targets);
	g_hash_table_unref(im.interfaces);
	g_hash_table_unref(im.objects);
	g_hash_table_unref(im.folded);
	g_ptr_array_unref(im.cuda_strip);
	g_ptr_array_unref(im.cxx_strip);
	g_ptr_array_unref(im.c_strip);
	g_free(im.buildtype);
	g_free(im.base);
	g_free(im.cuda_archs);
	g_free(im.cuda_ptx);
	g_free(im.cuda_std);
	cm_project_free(p);
	g_free(path);
	return status;
}
