/* importlink.c -- a CMake target's link items as cugen.ini says them,
 * for `cugen import` (importmap.c): project targets as deps, the
 * toolkit's libraries by name (CUDA::cublas is cublas), an interface
 * library's or an imported target's own items in its place, options as
 * ldflags, a file by its path; what it cannot say, a warning.
 */
#include <string.h>

#include "importer_int.h"
#include "util.h"

/* A link item as written in target_link_libraries: to deps (a target
 * of the project), libs (a library), ldflags (an option), or a warning.
 * An interface library's own items are taken in its place. */
static void link_item(Im *im, ImTarget *t, const char *item, gboolean public, ImLinks *l, int depth);

/* A library file in the toolkit's or the linker's own directories
 * (FindCUDA's /usr/local/cuda/lib64/libcudart_static.a, librt.a) by its
 * name: the CUDA runtime is cugen's own; FALSE for another file. */
static gboolean lib_by_name(Im *im, const char *path, gboolean public, ImLinks *l)
{
	char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path), *real = realpath(dir, NULL);
	gboolean sys = im_has(im->p->implicit_links, dir);
	for (guint i = 0; !sys && real && i < im->p->implicit_links->len; i++) {
		char *r = realpath(g_ptr_array_index(im->p->implicit_links, i), NULL);
		sys = r && !strcmp(r, real);
		free(r);
	}
	gboolean tk = im_toolkit_dir(im, dir);
	gboolean ok = (sys || tk) && g_str_has_prefix(base, "lib") && (g_str_has_suffix(base, ".a") || strstr(base, ".so"));
	if (ok) {
		char *name = g_strndup(base + 3, strcspn(base + 3, "."));
		if (strcmp(name, "cudart") && strcmp(name, "cudart_static") && strcmp(name, "cudadevrt"))
			im_add_once(public ? l->libs : l->private_libs, name);
		else if (!strcmp(name, "cudart"))
			im->cudart_shared = TRUE;
		g_free(name);
	}
	free(real);
	g_free(dir);
	g_free(base);
	return ok;
}

/* The toolkit's header-only libraries as CMake names them. */
static gboolean header_only(const char *name)
{
	static const char *const names[] = { "thrust::thrust", "Thrust::Thrust", "CUB::CUB", "libcudacxx::libcudacxx",
					     "CCCL::CCCL", "CCCL::Thrust", "CCCL::CUB", "CCCL::libcudacxx" };
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(name, names[i]))
			return TRUE;
	return FALSE;
}

/* An imported target: its file (a toolkit library by name), then its
 * own link items; one with neither (header-only, as thrust::thrust)
 * gives the link nothing: its usage requirements are in the compile
 * lines already. */
static void imported_item(Im *im, ImTarget *t, CmTarget *imp, gboolean public, ImLinks *l, int depth)
{
	const char *keys[] = { "IMPORTED_LOCATION_RELEASE", "IMPORTED_LOCATION", "IMPORTED_LOCATION_NOCONFIG" };
	const char *loc = NULL;
	for (gsize k = 0; k < G_N_ELEMENTS(keys) && !loc; k++)
		loc = cm_prop(imp, keys[k]);
	char *key = g_strdup_printf("%c %s", public ? 'P' : 'p', imp->name);
	gboolean first = g_hash_table_add(l->walked, key);
	if (!first)
		return;
	const char *alias = cm_prop(imp, "ALIASED_TARGET");
	if (alias) {
		link_item(im, t, alias, public, l, depth + 1);
		return;
	}
	if (loc) {
		char *dir = g_path_get_dirname(loc), *base = g_path_get_basename(loc);
		if (im_toolkit_dir(im, dir) && g_str_has_prefix(base, "lib") && strchr(base, '.')) {
			char *name = g_strndup(base + 3, strcspn(base + 3, "."));
			im_add_once(public ? l->libs : l->private_libs, name);
			g_free(name);
		} else {
			im_warn(im, &t->cm->where, "target '%s': imported target '%s' is the file %s, a path of this "
				"machine", t->cm->name, imp->name, loc);
			im_add_once(public ? l->libs : l->private_libs, loc);
		}
		g_free(dir);
		g_free(base);
	}
	GPtrArray *sub = im_list(cm_prop(imp, "INTERFACE_LINK_LIBRARIES"));
	for (guint i = 0; i < sub->len; i++)
		link_item(im, t, g_ptr_array_index(sub, i), public, l, depth + 1);
	g_ptr_array_unref(sub);
}

static void link_item(Im *im, ImTarget *t, const char *item, gboolean public, ImLinks *l, int depth)
{
	if (g_str_has_prefix(item, "$<LINK_ONLY:") && g_str_has_suffix(item, ">")) {
		char *in = g_strndup(item + 12, strlen(item) - 13);
		link_item(im, t, in, FALSE, l, depth);
		g_free(in);
		return;
	}
	gboolean genex = FALSE;
	char *it = im_build_item(item, &genex);
	if (genex)
		im_warn(im, &t->cm->where, "target '%s': link item '%s' is a generator expression: not imported",
			t->cm->name, item);
	if (!it)
		return;
	if (g_str_has_prefix(it, "::@")) {
		/* CMake's marks around items linked from another directory */
		g_free(it);
		return;
	}
	ImTarget *dep = g_hash_table_lookup(im->targets, it);
	const char *colons = strstr(it, "::");
	if (!dep && colons && g_hash_table_lookup(im->targets, colons + 2))
		dep = g_hash_table_lookup(im->targets, colons + 2); /* an ALIAS ns::name */
	CmTarget *iface = g_hash_table_lookup(im->interfaces, it);
	if (dep) {
		if (dep != t && !g_ptr_array_find(l->deps, dep, NULL))
			g_ptr_array_add(l->deps, dep);
	} else if (iface) {
		char *key = g_strdup_printf("%c %s", public ? 'P' : 'p', iface->name);
		if (!g_hash_table_add(l->walked, key)) {
			g_free(it);
			return;
		}
		if (g_hash_table_add(im->folded, iface->name))
			im_warn(im, &t->cm->where, "interface library '%s' (linked by '%s') has no section: its usage "
				"requirements are in the sections of the targets that use it", iface->name, t->cm->name);
		GPtrArray *sub = im_list(cm_prop(iface, "INTERFACE_LINK_LIBRARIES"));
		for (guint i = 0; i < sub->len; i++)
			link_item(im, t, g_ptr_array_index(sub, i), public, l, depth + 1);
		g_ptr_array_unref(sub);
	} else if (g_str_has_prefix(it, "CUDA::")) {
		const char *lib = it + 6;
		if (!strcmp(lib, "cudart") || !strcmp(lib, "cudart_static")) {
			/* cugen links the runtime of a target with CUDA code
			 * itself, as CUDA_RUNTIME_LIBRARY says (CMake links it
			 * besides an explicit CUDA::cudart too); a C++ target (a
			 * library calling the runtime API) names it */
			if (!t->cuda)
				im_add_once(public ? l->libs : l->private_libs, lib);
			else if (!strcmp(lib, "cudart"))
				/* a CUDA target naming the shared runtime: CMake
				 * links libcudart.so before its static runtime,
				 * whose symbols then go unused */
				im->cudart_shared = TRUE;
		} else {
			const char *name = !strcmp(lib, "cuda_driver") ? "cuda" : lib;
			im_add_once(public ? l->libs : l->private_libs, name);
		}
	} else if (!strcmp(it, "Threads::Threads")) {
		im_add_once(public ? l->libs : l->private_libs, "pthread");
	} else if (g_hash_table_lookup(im->p->imported, it)) {
		imported_item(im, t, g_hash_table_lookup(im->p->imported, it), public, l, depth);
	} else if (header_only(it)) {
		/* the toolkit's CCCL: include directories and defines only, in
		 * the compile lines already */
	} else if (colons) {
		im_warn(im, &t->cm->where, "target '%s': imported target '%s' (not visible where cugen import "
			"looks: a directory's own) is not imported: its include directories and defines are; name "
			"a library it links in libs", t->cm->name, it);
	} else if (g_str_has_prefix(it, "-l") && it[2]) {
		im_add_once(public ? l->libs : l->private_libs, it + 2);
	} else if (*it == '-') {
		im_add_once(l->ldflags, it);
	} else if (strchr(it, '/') && lib_by_name(im, it, public, l)) {
		/* the toolkit's or the system's library, by its name */
	} else if (strchr(it, '/')) {
		char *r = im_rel(im, it);
		if (g_path_is_absolute(r))
			im_warn(im, &t->cm->where, "target '%s': library %s is a path of this machine", t->cm->name, it);
		im_add_once(public ? l->libs : l->private_libs, r);
		g_free(r);
	} else {
		im_add_once(public ? l->libs : l->private_libs, it);
	}
	g_free(it);
}

ImLinks im_target_links(Im *im, ImTarget *t)
{
	ImLinks l = { g_ptr_array_new(), g_ptr_array_new_with_free_func(g_free),
		    g_ptr_array_new_with_free_func(g_free), g_ptr_array_new_with_free_func(g_free),
		    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
	GPtrArray *items = im_list(cm_prop(t->cm, "LINK_LIBRARIES"));
	GPtrArray *iface = im_list(cm_prop(t->cm, "INTERFACE_LINK_LIBRARIES"));
	gboolean exe = !strcmp(t->type, "executable");
	for (guint i = 0; i < items->len; i++) {
		const char *it = g_ptr_array_index(items, i);
		link_item(im, t, it, !exe && im_has(iface, it), &l, 0);
	}
	g_ptr_array_unref(items);
	g_ptr_array_unref(iface);
	return l;
}

