/* cmakeapi.h -- a CMake project as CMake itself describes it: configured
 * in a scratch directory with a File API query (codemodel-v2, cache-v2,
 * toolchains-v1) and templates/import-props.cmake, the reply read with
 * json-glib into the model below. Owns running cmake for `cugen import`
 * and the reading of its reply; importer.c maps the model to cugen.ini.
 */
#ifndef CUGEN_CMAKEAPI_H
#define CUGEN_CMAKEAPI_H

#include <glib.h>

/* Where CMake says something came from: the first frame of the backtrace
 * in the project (a file relative to the top source directory), else
 * the innermost one; file NULL when the reply gives none. */
typedef struct {
	char *file;
	int line;
	char *command;
	gboolean in_module;  /* the innermost frame is a file outside the project
			      * (FindCUDAToolkit.cmake adding cublasLt for cublas) */
} CmWhere;

typedef struct {
	char *path;          /* absolute */
	char *lang;          /* CUDA, CXX, C, ...; NULL when not compiled */
	int group;           /* its compile group, -1 for none */
	gboolean generated;  /* a custom command's output */
	gboolean findcuda;   /* a .cu FindCUDA's cuda_add_* compiles with a custom
			      * command (lang set to CUDA by the importer), or
			      * the object that command makes */
	CmWhere where;
} CmSource;

typedef struct {
	char *lang;
	GPtrArray *flags;    /* char*: the compile fragments' words */
	GPtrArray *includes; /* char*: absolute directories, in order */
	GPtrArray *include_where; /* CmWhere*, one per include */
	GPtrArray *defines;  /* char*: NAME or NAME=VALUE, exactly */
	char *std;           /* the language standard ("17"), or NULL */
	guint nsources;
} CmGroup;

typedef struct {
	char *fragment;
	char *role;          /* flags, libraries, libraryPath, frameworkPath */
	CmWhere where;
} CmLink;

typedef struct {
	char *name, *id, *type; /* type as CMake spells it: EXECUTABLE, ... */
	CmWhere where;       /* the command that made it */
	char *name_on_disk;
	gboolean generator_provided;
	GPtrArray *sources;  /* CmSource* */
	GPtrArray *groups;   /* CmGroup* */
	GPtrArray *links;    /* CmLink*, the link line in order */
	GPtrArray *deps;     /* char*: names of the targets it depends on */
	GPtrArray *objects;  /* char*: an object library's object files
			      * (absolute), what $<TARGET_OBJECTS> gives */
	GHashTable *props;   /* property -> value, as set (import-props.cmake) */
} CmTarget;

/* An install() rule of the project. */
typedef struct {
	char *type;          /* target, file, directory, export, ... */
	char *destination;   /* relative to the prefix, as written */
	GPtrArray *paths;    /* char*: absolute sources (a file, a directory) */
	GPtrArray *to;       /* char*: each one's name under the destination
			      * ("." for a directory's contents) */
	char *target;        /* the target's name for type target */
	CmWhere where;
} CmInstall;

typedef struct {
	char *srcdir;        /* absolute */
	char *builddir;      /* the scratch build directory (gone after import) */
	char *name, *version;
	char *cmake_version;
	GHashTable *cache;   /* cache entry -> value */
	GPtrArray *targets;  /* CmTarget*, in the codemodel's order */
	GPtrArray *installs; /* CmInstall*, in the directories' order */
	GHashTable *imported; /* name -> CmTarget* (props only): the imported
			       * targets the project's targets link */
	char *cuda_root;     /* the CUDA compiler's toolkit, or NULL */
	GPtrArray *implicit_includes; /* char*: the compilers' own directories */
	GPtrArray *implicit_links; /* char*: the linkers' own directories */
} CmProject;

/* A new scratch directory (the caller removes it), or NULL with err. */
char *cmake_scratch(GError **err);
/* Configure srcdir with cmake (args: more configure arguments, NULL-
 * terminated, may be NULL; then more, if not NULL) in scratch's build
 * directory (again: a reconfigure), and read what it says. NULL with err
 * (cmake's last lines in it) when cmake fails or its reply cannot be
 * read. */
CmProject *cmake_describe(const char *scratch, const char *srcdir, char **args, const char *more, GError **err);
void cm_project_free(CmProject *p);

/* A target's property as import-props.cmake recorded it, or NULL. */
const char *cm_prop(const CmTarget *t, const char *name);
/* A cache entry's value, or "" */
const char *cm_cache(const CmProject *p, const char *name);
/* CMake's boolean reading of a value (ON, YES, TRUE, Y, a non-zero number). */
gboolean cm_true(const char *v);

#endif
