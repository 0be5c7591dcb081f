/* importinst.c -- what cugen import installs: the targets an
 * install(TARGETS) rule names (install = yes, the others install = no,
 * with a warning where there is no such rule at all), and each header an
 * install(FILES|DIRECTORY) rule installs, given to the installed library
 * whose include directory holds it, so that cugen puts it where CMake
 * does; what cugen.ini cannot say is one warning. */
#include <string.h>

#include "importer_int.h"
#include "util.h"

/* The include directory of t that holds path deepest, or NULL. */
static const char *holding_dir(const ImTarget *t, const char *path)
{
	const char *best = NULL;
	for (guint i = 0; i < t->exported_inc->len; i++) {
		const char *d = g_ptr_array_index(t->exported_inc, i);
		gsize n = strlen(d);
		if ((!strcmp(path, d) || (!strncmp(path, d, n) && path[n] == '/')) && (!best || n > strlen(best)))
			best = d;
	}
	return best;
}

/* Where cugen installs a header or header directory of t, relative to
 * the prefix: below the deepest include directory that holds it. */
static char *cugen_place(const ImTarget *t, const char *path, gboolean dir)
{
	const char *d = holding_dir(t, path);
	if (!d) {
		char *b = g_path_get_basename(path);
		char *r = dir ? g_strdup("include") : g_build_filename("include", b, NULL);
		g_free(b);
		return r;
	}
	char *r = cg_relpath(path, d);
	char *out = strcmp(r, ".") ? g_build_filename("include", r, NULL) : g_strdup("include");
	g_free(r);
	return out;
}

/* install(TARGETS) marks what is installed; install(FILES|DIRECTORY) of
 * headers become the headers of the library whose include directory
 * holds them, where cugen puts them where CMake does; anything else is a
 * warning. */
void im_plan_installs(Im *im)
{
	gboolean export_warned = FALSE;
	/* what is installed first: a header goes to an installed library
	 * where one's include directory holds it (ggml's went to the first
	 * library in build order, one not installed: none was installed) */
	gboolean any = FALSE;
	for (guint i = 0; i < im->p->installs->len; i++) {
		CmInstall *in = g_ptr_array_index(im->p->installs, i);
		ImTarget *t = !strcmp(in->type, "target") && in->target ? g_hash_table_lookup(im->targets, in->target)
									: NULL;
		if (t)
			t->installed = any = TRUE;
	}
	if (!any && im->order->len)
		im_warn(im, NULL, "no install(TARGETS) rule: every target is imported with install = no (ninja "
			"install installs nothing; set install = yes where it should)");
	for (guint i = 0; i < im->p->installs->len; i++) {
		CmInstall *in = g_ptr_array_index(im->p->installs, i);
		if (!strcmp(in->type, "target"))
			continue;
		if (!strcmp(in->type, "export") || !strcmp(in->type, "cxxModuleBmi")) {
			if (!export_warned)
				im_warn(im, &in->where, "install(EXPORT) is not imported: cugen installs its own CMake "
					"package (NAME::TARGET, find_package(NAME))");
			export_warned = TRUE;
			continue;
		}
		gboolean dir = !strcmp(in->type, "directory");
		gboolean files = dir || !strcmp(in->type, "file") || !strcmp(in->type, "fileSet");
		guint missed = 0;
		char *example = NULL, *example_to = NULL;
		for (guint k = 0; k < in->paths->len; k++) {
			const char *path = g_ptr_array_index(in->paths, k), *to = g_ptr_array_index(in->to, k);
			char *b = g_path_get_basename(path);
			char *want = strcmp(to, ".") ? g_build_filename(in->destination, to, NULL)
				     : dir ? g_strdup(in->destination) : g_build_filename(in->destination, b, NULL);
			char *norm = cg_path_norm(want);
			ImTarget *owner = NULL;
			/* a file CMake writes: not the project's */
			gboolean built = g_str_has_prefix(path, im->p->builddir);
			for (guint j = 0; j < im->order->len && files && !built; j++) {
				ImTarget *t = g_ptr_array_index(im->order, j);
				if (strcmp(t->type, "static") && strcmp(t->type, "shared"))
					continue;
				char *place = cugen_place(t, path, dir);
				if ((!owner || (!owner->installed && t->installed)) && !strcmp(place, norm))
					owner = t;
				g_free(place);
			}
			if (owner) {
				if (!im_has(owner->headers, path))
					g_ptr_array_add(owner->headers, g_strdup(path));
			} else if (!missed++) {
				example = g_str_has_prefix(path, im->p->builddir) ? cg_relpath(path, im->p->builddir)
										 : cg_relpath(path, im->p->srcdir);
				example_to = g_strdup(norm);
			}
			g_free(norm);
			g_free(want);
			g_free(b);
		}
		if (missed) {
			char *more = missed > 1 ? g_strdup_printf(" and %u more", missed - 1) : g_strdup("");
			im_warn(im, &in->where, "install(%s) of %s to %s%s is not imported (cugen installs headers "
				"below a library's include directory to includedir, and its own programs, libraries, "
				".pc and CMake files)", in->type, example, example_to, more);
			g_free(more);
		}
		g_free(example);
		g_free(example_to);
	}
}
