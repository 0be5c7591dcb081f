/* importer_int.h -- what importer.c (the command, the project's
 * sections), importmap.c (a target's section), importlink.c (its link
 * items) and importinst.c (what is installed) share while `cugen import`
 * writes cugen.ini. */
#ifndef CUGEN_IMPORTER_INT_H
#define CUGEN_IMPORTER_INT_H

#include <glib.h>

#include "cmakeapi.h"
#include "config.h"

typedef struct Im Im;

/* A target as it will be written. */
typedef struct {
	CmTarget *cm;
	char *name;          /* its section's name */
	const char *type;    /* cugen's: executable, static, shared, object */
	GPtrArray *deps;     /* ImTarget* */
	GPtrArray *objects_of; /* ImTarget*: the object libraries whose objects
				* are its sources ($<TARGET_OBJECTS:X>, or X linked) */
	GPtrArray *exported_inc, *exported_def; /* its own usage requirements */
	gboolean visited, placed;
	guint order;         /* its place in Im.order, once placed */
	gboolean installed;  /* an install(TARGETS) names it */
	GPtrArray *headers;  /* char*: its headers = (absolute) */
	GPtrArray *arch_src, *arch_def; /* char*: "ARCH<tab>path|define": what
					 * CMake builds only with that arch */
	/* its CUDA settings, compared with [cuda]'s */
	char *archs, *ptx, *std;
	gboolean rdc, lto, cuda;
} ImTarget;

struct Im {
	CmProject *p;
	const char *shown;   /* SRCDIR as the user wrote it */
	char *base;          /* the absolute directory of the file written */
	GHashTable *targets; /* CMake name -> ImTarget* (built ones) */
	GHashTable *interfaces; /* CMake name -> CmTarget* (INTERFACE_LIBRARY) */
	GHashTable *objects; /* an object library's object file -> its ImTarget* */
	GHashTable *folded;  /* the interface libraries already warned of */
	GPtrArray *order;    /* ImTarget*, every one after its deps */
	char *buildtype;     /* cugen's name for CMAKE_BUILD_TYPE's flags, or NULL */
	GPtrArray *cuda_strip, *cxx_strip, *c_strip; /* CMAKE_<LANG>_FLAGS (+ _<CONFIG>) */
	char *cuda_archs, *cuda_ptx, *cuda_std;
	gboolean cuda_rdc, cuda_lto, any_cuda, cudart_shared;
	guint warnings, tus;
	guint findcuda;      /* .cu sources FindCUDA compiles */
};

/* "FILE:LINE: warning: ..." for what CMake said at w (the project's
 * CMakeLists.txt when w names no project file). */
void im_warn(Im *im, const CmWhere *w, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* CMake's list (';' outside $<...>), and membership of string arrays. */
GPtrArray *im_list(const char *v);
gboolean im_has(GPtrArray *a, const char *s);
/* The words of s (a command-line-like string). */
GPtrArray *im_words(const char *s);
/* cugen.ini's lines, through its one writer (config.h: ini_put_word):
 * "key = WORD..." (a word it cannot say left out with a warning at
 * where), and "key = VALUE". */
void im_put_key(Im *im, const CmWhere *where, GString *o, const char *key, GPtrArray *words, IniSyntax syn);
void im_put_scalar(Im *im, const CmWhere *where, GString *o, const char *key, const char *v);
/* CMake's arch list ("80-real;90", all, native) as archs and ptx (both
 * NULL for OFF); FALSE for a list it cannot read. */
gboolean im_map_archs(const char *v, char **archs, char **ptx);
/* The flags of a target's compile group of CUDA less the archs, PIC and
 * CMake's project-wide flags (strip), its -std=X in *std. */
GPtrArray *im_own_flags(const CmGroup *g, GPtrArray *strip, char **std);
/* The compile group of lang with the most sources, or NULL. */
CmGroup *im_main_group(Im *im, ImTarget *t, const char *lang, gboolean warn);
/* cugen's type for CMake's, NULL for none. */
const char *im_type(const char *cmake);
/* t's own usage requirements (INTERFACE_INCLUDE_DIRECTORIES ...). */
GPtrArray *im_exported(Im *im, ImTarget *t, const char *prop, gboolean paths);
/* t's section. */
void im_write_target(Im *im, ImTarget *t, GString *o);
/* The helpers importlink.c shares: add s unless a has it; $<BUILD_INTERFACE:X>
 * as X (NULL for another generator expression, *genex set); a path as
 * cugen.ini names it; whether dir is the toolkit's. */
void im_add_once(GPtrArray *a, const char *s);
char *im_build_item(const char *item, gboolean *genex);
char *im_rel(Im *im, const char *path);
gboolean im_toolkit_dir(Im *im, const char *dir);

/* importinst.c: install = yes/no and the headers of each library. */
void im_plan_installs(Im *im);

/* A target's link items (importlink.c), sorted by what they become. */
typedef struct {
	GPtrArray *deps;     /* ImTarget* */
	GPtrArray *libs, *private_libs, *ldflags; /* char* */
	GHashTable *walked;  /* "P name" / "p name": the interface, imported
			      * and alias items walked, each once per
			      * visibility (a diamond is linear, a cycle ends) */
} ImLinks;
ImLinks im_target_links(Im *im, ImTarget *t);

#endif
