/* pkgexport.c -- what a consumer of the installed libraries reads: a
 * pkg-config file per library and the project's CMake package; see
 * install.h.
 *
 * Each says the same as the build graph: the installed headers' directory
 * and the public defines; the library, the libraries it names in libs,
 * its installed dependencies (Requires, or NAME::DEP); and, for a static
 * library with CUDA code, the CUDA runtime it needs (Libs.private, for
 * pkg-config --static; CUDA::cudart_static through CMake's
 * FindCUDAToolkit). A shared library has the runtime linked in already.
 * A library of the CUDA toolkit in libs (cublas) is CUDA::cublas through
 * find_dependency(CUDAToolkit) in the CMake package, and -lcublas after
 * -L${cuda_libdir} in pkg-config, whose cuda_root variable names the
 * toolkit (the usual /usr/local/cuda where that is the build's toolkit,
 * else the build's; pkg-config --define-variable=cuda_root=DIR moves it).
 */
#include "install.h"

#include <string.h>

/* A library of the toolkit: NAME with libNAME.so or libNAME.a in its
 * library directory. */
static gboolean toolkit_lib(const Resolved *r, const char *name)
{
	if (strchr(name, '/'))
		return FALSE;
	gboolean found = FALSE;
	for (int i = 0; i < 2 && !found; i++) {
		char *f = g_strdup_printf("%s/lib%s.%s", r->cudart_dir, name, i ? "a" : "so");
		found = g_file_test(f, G_FILE_TEST_EXISTS);
		g_free(f);
	}
	return found;
}

static gboolean has_toolkit_lib(const Resolved *r, const GPtrArray *libs)
{
	for (guint i = 0; i < libs->len; i++)
		if (toolkit_lib(r, g_ptr_array_index(libs, i)))
			return TRUE;
	return FALSE;
}

/* The CUDA runtime a library with CUDA code needs, as linker words. */
static void cudart_words(const Resolved *r, const Target *t, GString *o)
{
	const RTarget *rt = resolved_target(r, t);
	if (!rt->links_cuda || r->c->cudart == CUDART_NONE)
		return;
	g_string_append(o, " -L${cuda_libdir}");
	if (target_has_rdc((Target *)t) && t->devrt)
		g_string_append(o, " -lcudadevrt");
	g_string_append(o, r->c->cudart == CUDART_STATIC ? " -lcudart_static -lrt -lpthread -ldl" : " -lcudart");
}

/* A library word: -lNAME, or the file as given. */
static void lib_word(GString *o, const char *l)
{
	g_string_append_printf(o, strchr(l, '/') ? " %s" : " -l%s", l);
}

/* A path as a .pc variable's value: '#' as '\#' (no comment), the blank
 * and quote characters backslashed for the shell-like split of the Cflags
 * and Libs it is put into, and "${" as "$${" (no variable; a '$' before
 * anything else is itself to pkg-config and pkgconf alike). */
static void pc_path(GString *o, const char *v)
{
	for (const char *p = v; *p; p++) {
		if (*p == '$' && p[1] == '{')
			g_string_append_c(o, '$');
		else if (strchr("# \t\"'\\", *p))
			g_string_append_c(o, '\\');
		g_string_append_c(o, *p);
	}
}

/* Whether path is under prefix, an environment's of its own (conda's
 * $PREFIX, relocated when installed, its cudart in it): not a system
 * prefix (/usr holds /usr/local/cuda, which no package of it ships). */
static gboolean in_env_prefix(const char *path, const char *prefix)
{
	static const char *const system[] = { "/", "/usr", "/usr/local", "/opt", NULL };
	for (gsize i = 0; system[i]; i++)
		if (strcmp(prefix, system[i]) == 0)
			return FALSE;
	gsize n = strlen(prefix);
	return n > 1 && strncmp(path, prefix, n) == 0 && (path[n] == '/' || !path[n]);
}

/* A .pc path value: ${prefix}/REST where path is in an environment's
 * prefix, else the path itself. */
static void pc_placed(GString *o, const char *path, const char *prefix)
{
	gsize n = strlen(prefix);
	if (in_env_prefix(path, prefix)) {
		g_string_append(o, "${prefix}");
		pc_path(o, path + n);
	} else {
		pc_path(o, path);
	}
}

/* cuda_root, cuda_libdir and cuda_includedir: the toolkit's place as a
 * consumer's pkg-config can move it. */
static void toolkit_vars(const Resolved *r, GString *o)
{
	char *root = g_strdup(r->tk->root);
	char *std = realpath("/usr/local/cuda", NULL), *real = realpath(r->tk->root, NULL);
	if (std && real && strcmp(std, real) == 0) {
		g_free(root);
		root = g_strdup("/usr/local/cuda");
	}
	const char *prefix = r->c->prefix;
	/* the runtime under the prefix (a conda environment's): named from
	 * ${prefix}, not from the toolkit that compiled */
	gboolean lib_in_prefix = in_env_prefix(r->cudart_dir, prefix);
	g_string_append(o, "cuda_root=");
	pc_placed(o, root, prefix);
	g_string_append(o, "\ncuda_libdir=");
	char *lib = NULL, *dir = NULL;
	if (lib_in_prefix) {
		pc_placed(o, r->cudart_dir, prefix);
		dir = g_path_get_dirname(r->cudart_dir);
		g_string_append(o, "\ncuda_includedir=");
		pc_placed(o, dir, prefix);
	} else {
		lib = cg_relpath(r->cudart_dir, r->tk->root);
		dir = g_path_get_dirname(lib);
		g_string_append(o, "${cuda_root}/");
		pc_path(o, lib);
		g_string_append(o, "\ncuda_includedir=${cuda_root}/");
		pc_path(o, dir);
	}
	g_string_append(o, "/include\n");
	g_free(dir);
	g_free(lib);
	free(std);
	free(real);
	g_free(root);
}

GString *install_pc_file(const Resolved *r, const Target *t)
{
	const Config *c = r->c;
	const RTarget *rt = resolved_target(r, t);
	char *lib = install_libdir(c, r->tk);
	char *libdir = install_dir(c, lib), *incdir = install_dir(c, c->includedir);
	GString *o = g_string_new(NULL);
	g_string_append_printf(o, "# %s.pc -- written by cugen %s for project %s\n", t->name, CUGEN_VERSION, c->name);
	g_string_append(o, "prefix=");
	pc_path(o, c->prefix);
	g_string_append_c(o, '\n');
	/* the directories relative to ${prefix} where they are under it */
	const char *dirs[][2] = { { "libdir", libdir }, { "includedir", incdir } };
	for (gsize i = 0; i < G_N_ELEMENTS(dirs); i++) {
		const char *d = dirs[i][1];
		gsize n = strlen(c->prefix);
		g_string_append_printf(o, "%s=", dirs[i][0]);
		if (strncmp(d, c->prefix, n) == 0 && (d[n] == '/' || (n == 1 && d[0] == '/'))) {
			g_string_append_printf(o, "${prefix}%s", n == 1 ? "/" : "");
			pc_path(o, d + n);
		} else {
			pc_path(o, d);
		}
		g_string_append_c(o, '\n');
	}
	if (rt->links_cuda || has_toolkit_lib(r, t->libs) || has_toolkit_lib(r, t->private_libs))
		toolkit_vars(r, o);
	g_string_append_printf(o, "\nName: %s\nDescription: %s library %s of %s\n", t->name,
			       t->type == TGT_SHARED ? "shared" : "static", t->name, c->name);
	g_string_append_printf(o, "Version: %s\n", *c->version ? c->version : "0");
	GString *req = g_string_new(NULL);
	for (guint i = 0; i < t->deps->len; i++) {
		const Target *d = g_ptr_array_index(t->deps, i);
		if (d->install && (d->type == TGT_STATIC || d->type == TGT_SHARED))
			g_string_append_printf(req, "%s%s", req->len ? ", " : "", d->name);
	}
	if (req->len)
		g_string_append_printf(o, "Requires: %s\n", req->str);
	g_string_free(req, TRUE);
	g_string_append(o, "Cflags: -I${includedir}");
	for (guint i = 0; i < t->public_defines->len; i++) {
		/* shell quoting for pkg-config's split, then '\#' a hash (not a
		 * comment); setup refuses a '$' (a variable to pkg-config) */
		char *q = cg_sh_quote(g_ptr_array_index(t->public_defines, i));
		g_string_append(o, " -D");
		for (const char *p = q; *p; p++) {
			if (*p == '#')
				g_string_append_c(o, '\\');
			g_string_append_c(o, *p);
		}
		g_free(q);
	}
	if (rt->links_cuda)
		g_string_append(o, " -I${cuda_includedir}");
	/* -lNAME finds libNAME.so before libNAME.a: a static library named
	 * like an installed shared one is named by its file */
	gboolean shadowed = FALSE;
	for (guint i = 0; t->type == TGT_STATIC && i < c->targets->len; i++) {
		const Target *o2 = g_ptr_array_index(c->targets, i);
		shadowed |= o2->type == TGT_SHARED && o2->install && strcmp(o2->output_name, t->output_name) == 0;
	}
	if (shadowed)
		g_string_append_printf(o, "\nLibs: ${libdir}/lib%s.a", t->output_name);
	else
		g_string_append_printf(o, "\nLibs: -L${libdir} -l%s", t->output_name);
	if (has_toolkit_lib(r, t->libs))
		g_string_append(o, " -L${cuda_libdir}");
	for (guint i = 0; i < t->libs->len; i++)
		lib_word(o, g_ptr_array_index(t->libs, i));
	GString *priv = g_string_new(NULL);
	if (has_toolkit_lib(r, t->private_libs) && !has_toolkit_lib(r, t->libs))
		g_string_append(priv, " -L${cuda_libdir}");
	for (guint i = 0; i < t->private_libs->len; i++)
		lib_word(priv, g_ptr_array_index(t->private_libs, i));
	cudart_words(r, t, priv);
	g_string_append_c(o, '\n');
	if (priv->len)
		g_string_append_printf(o, "Libs.private:%s\n", priv->str);
	g_string_free(priv, TRUE);
	g_free(incdir);
	g_free(libdir);
	g_free(lib);
	return o;
}

/* The text of a CMake quoted argument: quotes, backslashes and every
 * '$' escaped (no ${VAR}, $ENV{VAR} or $CACHE{VAR} reference is read;
 * setup refuses a '$' in a public define). */
static void cmake_chars(GString *o, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '$')
			g_string_append_c(o, '\\');
		g_string_append_c(o, *p);
	}
}

/* An element of a CMake list property: as cmake_chars, and a ';' inside
 * it as $<SEMICOLON> (not a list separator). */
static void cmake_item(GString *o, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == ';')
			g_string_append(o, "$<SEMICOLON>");
		else {
			char one[2] = { *p, 0 };
			cmake_chars(o, one);
		}
	}
}

static void cmake_str(GString *o, const char *s)
{
	g_string_append_c(o, '"');
	cmake_chars(o, s);
	g_string_append_c(o, '"');
}

/* A path under the prefix as ${_cugen_prefix}/..., else as it is. */
static void cmake_path(GString *o, const Config *c, const char *abs)
{
	gsize n = strlen(c->prefix);
	if (strncmp(abs, c->prefix, n) == 0 && abs[n] == '/') {
		g_string_append(o, "\"${_cugen_prefix}");
		cmake_chars(o, abs + n);
		g_string_append_c(o, '"');
	} else {
		cmake_str(o, abs);
	}
}

GString *install_cmake_config(const Resolved *r)
{
	const Config *c = r->c;
	char *lib = install_libdir(c, r->tk);
	char *libdir = install_dir(c, lib), *incdir = install_dir(c, c->includedir);
	char *cmakedir = g_build_filename(libdir, "cmake", c->name, NULL);
	GString *o = g_string_new(NULL);
	g_string_append_printf(o, "# %sConfig.cmake -- written by cugen %s: the libraries of project %s as\n"
				  "# imported targets %s::NAME, for find_package(%s).\n\n", c->name, CUGEN_VERSION,
			       c->name, c->name, c->name);
	/* the prefix from this file's place, so a moved tree (DESTDIR, a
	 * package unpacked elsewhere) still works */
	gsize n = strlen(c->prefix);
	if (strncmp(cmakedir, c->prefix, n) == 0 && cmakedir[n] == '/') {
		char *up = cg_relpath(c->prefix, cmakedir);
		g_string_append_printf(o, "get_filename_component(_cugen_prefix \"${CMAKE_CURRENT_LIST_DIR}/%s\" ABSOLUTE)\n",
				       up);
		g_free(up);
	} else {
		g_string_append(o, "set(_cugen_prefix ");
		cmake_str(o, c->prefix);
		g_string_append(o, ")\n");
	}
	gboolean cuda = FALSE;
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		cuda |= t->install && t->type == TGT_STATIC && resolved_target(r, t)->links_cuda;
		cuda |= t->install && (t->type == TGT_STATIC || t->type == TGT_SHARED) &&
			(has_toolkit_lib(r, t->libs) || (t->type == TGT_STATIC && has_toolkit_lib(r, t->private_libs)));
	}
	if (cuda)
		g_string_append(o, "include(CMakeFindDependencyMacro)\nfind_dependency(CUDAToolkit)\n");
	gboolean headers = FALSE;
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		headers |= t->install && t->headers->len > 0;
	}
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		if (!t->install || (t->type != TGT_STATIC && t->type != TGT_SHARED))
			continue;
		const char *kind = t->type == TGT_STATIC ? "STATIC" : "SHARED";
		char *file = target_real_name(t), *so = target_soname(t);
		char *path = g_build_filename(libdir, file, NULL);
		g_string_append_printf(o, "\nif(NOT TARGET %s::%s)\n  add_library(%s::%s %s IMPORTED)\n"
					  "  set_target_properties(%s::%s PROPERTIES\n    IMPORTED_LOCATION ",
				       c->name, t->name, c->name, t->name, kind, c->name, t->name);
		cmake_path(o, c, path);
		if (t->type == TGT_SHARED)
			g_string_append_printf(o, "\n    IMPORTED_SONAME \"%s\"", so);
		g_string_append(o, "\n    IMPORTED_LINK_INTERFACE_LANGUAGES \"CXX\"");
		if (headers) { /* (CMake refuses a directory that does not exist) */
			g_string_append(o, "\n    INTERFACE_INCLUDE_DIRECTORIES ");
			cmake_path(o, c, incdir);
		}
		if (t->public_defines->len) {
			/* one list element per define, its own ';' kept inside it */
			g_string_append(o, "\n    INTERFACE_COMPILE_DEFINITIONS \"");
			for (guint k = 0; k < t->public_defines->len; k++) {
				if (k)
					g_string_append_c(o, ';');
				cmake_item(o, g_ptr_array_index(t->public_defines, k));
			}
			g_string_append_c(o, '"');
		}
		GString *links = g_string_new(NULL);
		for (guint k = 0; k < t->deps->len; k++) {
			const Target *d = g_ptr_array_index(t->deps, k);
			if (d->install && (d->type == TGT_STATIC || d->type == TGT_SHARED))
				g_string_append_printf(links, ";%s::%s", c->name, d->name);
		}
		for (guint k = 0; k < t->libs->len; k++) {
			const char *l = g_ptr_array_index(t->libs, k);
			g_string_append_printf(links, toolkit_lib(r, l) ? ";CUDA::%s" : ";%s", l);
		}
		if (t->type == TGT_STATIC) {
			for (guint k = 0; k < t->private_libs->len; k++) {
				const char *l = g_ptr_array_index(t->private_libs, k);
				g_string_append_printf(links, toolkit_lib(r, l) ? ";$<LINK_ONLY:CUDA::%s>" : ";$<LINK_ONLY:%s>", l);
			}
			if (resolved_target(r, t)->links_cuda && c->cudart != CUDART_NONE) {
				if (target_has_rdc((Target *)t) && t->devrt)
					g_string_append(links, ";$<LINK_ONLY:CUDA::cudadevrt>");
				g_string_append_printf(links, ";$<LINK_ONLY:CUDA::%s>",
						       c->cudart == CUDART_STATIC ? "cudart_static" : "cudart");
			}
		}
		if (links->len) {
			g_string_append(o, "\n    INTERFACE_LINK_LIBRARIES ");
			cmake_str(o, links->str + 1);
		}
		g_string_free(links, TRUE);
		g_string_append(o, ")\nendif()\n");
		g_free(path);
		g_free(so);
		g_free(file);
	}
	g_string_append(o, "\nunset(_cugen_prefix)\n");
	g_free(cmakedir);
	g_free(incdir);
	g_free(libdir);
	g_free(lib);
	return o;
}

GString *install_cmake_version(const Config *c)
{
	const char *v = *c->version ? c->version : "0";
	char *major = g_strndup(v, strcspn(v, "."));
	GString *o = g_string_new(NULL);
	g_string_append_printf(o, "# %sConfigVersion.cmake -- written by cugen %s: version %s, compatible\n"
				  "# with a request for an older version of the same major version.\n\n",
			       c->name, CUGEN_VERSION, v);
	g_string_append_printf(o, "set(PACKAGE_VERSION \"%s\")\n"
				  "if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)\n"
				  "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
				  "elseif(NOT \"${PACKAGE_FIND_VERSION}\" STREQUAL \"\" AND\n"
				  "       NOT \"${PACKAGE_FIND_VERSION_MAJOR}\" STREQUAL \"%s\")\n"
				  "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
				  "else()\n"
				  "  set(PACKAGE_VERSION_COMPATIBLE TRUE)\n"
				  "  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)\n"
				  "    set(PACKAGE_VERSION_EXACT TRUE)\n"
				  "  endif()\n"
				  "endif()\n"
				  "# a 64-bit build installed: not for a 32-bit project\n"
				  "if(NOT \"${CMAKE_SIZEOF_VOID_P}\" STREQUAL \"\" AND NOT CMAKE_SIZEOF_VOID_P EQUAL 8)\n"
				  "  set(PACKAGE_VERSION \"${PACKAGE_VERSION} (64bit)\")\n"
				  "  set(PACKAGE_VERSION_UNSUITABLE TRUE)\n"
				  "endif()\n", v, major);
	g_free(major);
	return o;
}
