/* config.h -- the validated project model read from cugen.ini.
 *
 * Owns: reading the INI with inih (with line numbers), the list of known
 * sections and keys, `-D SECTION.KEY=VALUE` overrides, applying the chosen
 * [profile], and validating every value into the typed structs below.
 * Arch names are checked for syntax here and against the toolkit later
 * (arch.c).
 */
#ifndef CUGEN_CONFIG_H
#define CUGEN_CONFIG_H

#include <glib.h>

/* Where a value came from: a file and line, or the command line (line 0). */
typedef struct {
	const char *file; /* interned */
	int line;
} Loc;

typedef enum { LANG_CUDA, LANG_C, LANG_CXX } Lang;
typedef enum { TGT_EXECUTABLE, TGT_STATIC, TGT_SHARED, TGT_OBJECT } TargetType;
typedef enum { MODE_WHOLE, MODE_RDC } CudaMode;
typedef enum { SPLIT_AUTO, SPLIT_ARCH, SPLIT_TU } SplitMode;
typedef enum { CUDART_STATIC, CUDART_SHARED, CUDART_NONE } Cudart;

typedef struct {
	char *rel;  /* path relative to the project directory, normalised */
	char *abs;  /* absolute path */
	Lang lang;
	Loc loc;    /* the `sources` line that named it */
	char *real; /* its real path, when a symbolic link led to it */
	char *arch_if; /* arch_sources: built only where the target's arch set
			* holds one of these archs ("75", "80 90"), else NULL */
} Source;

/* Where each continuation line of a value (an indented line that goes
 * on with the key above) starts in the value, and its line number. */
typedef struct {
	gsize off;
	int line;
} ValueLine;

/* A value as written, with its location: kept for messages and for
 * resolving archs once the toolkit is known. lines: its ValueLines (a
 * reference), NULL when it is one line. */
typedef struct {
	char *value;
	Loc loc;
	GArray *lines;
} Setting;

typedef struct Target Target;
struct Target {
	char *name;
	TargetType type;
	Loc loc;             /* the [target NAME] line */
	GPtrArray *sources;  /* Source* */
	/* usage requirements: what the target needs to build (private)
	 * and what its dependents need too (public) */
	GPtrArray *include;  /* char*: absolute dirs, public */
	GPtrArray *private_include; /* char*: absolute dirs, its own TUs only */
	GPtrArray *defines;  /* char*: NAME[=VALUE], its own TUs only */
	GPtrArray *public_defines; /* char*: its TUs and its dependents' */
	GPtrArray *arch_defines; /* char*: "ARCH<tab>NAME[=VALUE]" (arch_defines),
				  * made defines by config_apply_archs() */
	GPtrArray *libs;     /* char*: NAME for -lNAME, public */
	GPtrArray *private_libs; /* char*: linked into it; dependents link
				  * them only through a static library */
	GPtrArray *data;     /* char*: project-relative files copied into
			      * BUILDDIR (data = ...) */
	GPtrArray *deps;     /* Target* (resolved) */
	Setting *dep_names;  /* as written */
	/* CUDA settings, already defaulted from [cuda] */
	Setting archs;       /* the target's project arch set */
	Setting ptx;
	CudaMode mode;
	gboolean lto;
	gboolean devrt;
	gboolean pic;
	gboolean device_link; /* an rdc static or object target's own device link */
	gboolean cuda_headers; /* its C and C++ TUs see the toolkit's headers */
	char *std;           /* c++17: [cuda] std, or -std in the flags */
	int threads;         /* the flags' --threads N (for split = tu), or -1 */
	char *cuda_flags;    /* [cuda] flags + target cuda_flags, less what
			      * cugen takes over (cudaflags.h) */
	Loc cuda_flags_loc;  /* the target's own cuda_flags, if any */
	char *host_flags;    /* [cuda] host_flags or the target's */
	char *cflags, *cxxflags, *ldflags;
	/* installing it (confinstall.c) */
	gboolean install;    /* install = yes (default for executables and libraries) */
	char *output_name;   /* the file's name part (output_name =), default name */
	char *version;       /* a shared library's version (libNAME.so.VERSION), "" for none */
	char *soversion;     /* its SONAME's (libNAME.so.SOVERSION): version's major by default */
	GPtrArray *headers;  /* char*: pairs of project-relative file, path under includedir */
	guint index;         /* position in the file */
};

typedef struct {
	char *name;
	Loc loc;
	int jobs;            /* the cores to plan for; 0: auto (the machine's) */
	guint64 memory;      /* the memory to plan for, bytes; 0: auto */
	guint64 job_memory;  /* each device compile's peak, bytes; 0: auto (measured) */
	SplitMode split;
	int threads;         /* nvcc --threads in split = tu; PROFILE_AUTO: the planner's */
	int split_compile;   /* nvcc --split-compile; PROFILE_AUTO (auto, tail): the
			      * planner's tail split */
	char *runner;        /* the runner it was written for (cugen profile), or NULL */
	double time_limit;   /* seconds a CI job may run; 0: none */
	double speed;        /* the machine's CPU seconds per reference second
			      * (speed.h); 0: auto (a probe of this machine) */
	/* the planner's alternatives a profile takes away (key = no; auto,
	 * the default, lets the planner weigh them) */
	gboolean no_ptxas_edges; /* ptxas_edges = no: cicc and ptxas in one device edge */
	gboolean no_pp_edges;    /* pp_edges = no: device preprocesses inside the device edges */
	gboolean no_syntax_stub; /* syntax_stub = no: the host stub from a device edge */
	gboolean no_host_rank;   /* host_rank = no: no stamp edges after host compiles */
} Profile;
#define PROFILE_AUTO (-1)

/* [project] install_rpath: what an installed binary's RUNPATH becomes */
typedef enum { IRPATH_NONE, IRPATH_ORIGIN } InstallRpath;

/* [project] gate: build.ninja as a gate over the full graph (gate.c) */
typedef enum { GATE_AUTO, GATE_YES, GATE_NO } GateMode;

typedef struct {
	char *ini_path;      /* as given (for messages) */
	char *ini_abs;
	char *srcdir;        /* absolute directory of the INI */
	char *name, *version;
	GateMode gate;
	/* [project] install directories (confinstall.c): prefix absolute, the
	 * others relative to it or absolute; libdir NULL: the platform's
	 * default, known with the toolkit's target (install.c) */
	char *prefix, *bindir, *libdir, *includedir, *datadir;
	InstallRpath install_rpath;
	/* [cuda] */
	Setting archs;       /* the project arch set */
	Setting ptx;
	CudaMode mode;
	gboolean lto;
	char *std;
	int threads;         /* --threads N in flags, or -1 */
	char *flags;
	char *host_flags;
	gboolean module_id_absolute;
	gboolean reproducible; /* never --split-compile: plain nvcc's code */
	gboolean ptx_first;  /* an arch's PTX before its SASS in the fatbinary
			      * (code=[compute_NN,sm_NN], CMake's order) */
	Cudart cudart;
	/* [toolchain] */
	char *cuda, *cc, *cxx, *ccbin, *ar, *objcopy, *launcher, *cache,
		*target_triple, *cflags, *cxxflags, *ldflags;
	char *device_launcher; /* before cicc and ptxas ("" for none) */
	char *cache_dir;     /* the compile cache: [toolchain] cache or $CUGEN_CACHE_DIR,
			      * absolute and checked; NULL when off */
	Loc cuda_loc, flags_loc, ccbin_loc, cc_loc, cxx_loc, ar_loc, objcopy_loc, launcher_loc, target_loc,
		device_launcher_loc;
	/* the selected subset of archs to build, NULL = all */
	Setting *build_archs;
	Profile *profile;    /* the chosen profile, or NULL */
	GPtrArray *targets;  /* Target*, in file order */
	GHashTable *by_name; /* name -> Target* */
	GPtrArray *glob_dirs;/* directories that globs read (regenerate on change) */
	GPtrArray *profiles; /* names of all profiles */
	char *profile_why;   /* why the profile was chosen without --profile, or NULL */
} Config;

typedef struct {
	const char *ini;        /* path of cugen.ini */
	const char *profile;    /* --profile, or NULL */
	const char *archs;      /* --archs, or NULL */
	char **defines;         /* -D SECTION.KEY=VALUE, NULL-terminated */
	gboolean ci_profile;    /* without --profile, on CI: use the profile named
				 * for the CI provider (github, gitlab, azure), else ci */
	const struct EnvFlags *env; /* the environment's flags (envflags.h), or NULL */
} ConfigOptions;

Config *config_load(const ConfigOptions *opt, GError **err);
/* The arch-dependent sources and defines of each target (arch_sources,
 * arch_defines) kept or dropped by its resolved arch set; once, before
 * the targets are resolved (archcond.c). */
struct ArchToolkit;
gboolean config_apply_archs(Config *c, const struct ArchToolkit *at, GError **err);
/* Where word is written in a value that starts at loc and goes on over
 * lines (ValueLine, NULL for one line): the line of its first
 * occurrence as a whole word, or with last of its last one; loc when
 * the value has one line or word is not written as such. */
Loc config_word_loc(Loc loc, const GArray *lines, const char *value, const char *word, gboolean last);
Loc setting_word_loc(const Setting *s, const char *word);
void config_free(Config *c);

const char *lang_name(Lang l);
/* A buildtype's flags (release: "-O3 -DNDEBUG" both), FALSE for no such
 * buildtype (confflags.c). */
gboolean buildtype_flags(const char *name, const char **cuda, const char **host);
/* The file a target writes (libNAME.a, libNAME.so, NAME), NULL for object
 * targets; for a shared library the name it is linked by, a symbolic link
 * when it has a version. */
char *target_output_name(const Target *t);
/* A shared library's file (libNAME.so.VERSION) and SONAME
 * (libNAME.so.SOVERSION); both libNAME.so without a version. */
char *target_real_name(const Target *t);
char *target_soname(const Target *t);
const char *target_type_name(TargetType t);
/* Topological order of targets: every target after its deps. */
GPtrArray *config_target_order(const Config *c);

/* ---- writing cugen.ini (confwrite.c): the one writer of values that
 * come from elsewhere (cugen import's CMake data, profile --append) ---- */

/* How a key's value is read back: one scalar (name = , version = ), a
 * list (sources, include, libs: cg_split_list), shell words (flags,
 * cxxflags, ldflags: cg_split_words) or defines (cg_split_defines). */
typedef enum { INI_SCALAR, INI_LIST, INI_WORDS, INI_DEFINES } IniSyntax;
/* Append " " and w to o, spelled (quoted where it must be) so that the
 * key's reader gives w back, inline comments and all; FALSE, appending
 * nothing, where no spelling can (a control character, a line break, a
 * '"' in a list item, a blank at either end of a scalar, ...). */
gboolean ini_put_word(GString *o, const char *w, IniSyntax syn);
/* A comment's text: control characters shown as '?', one line. */
char *ini_comment_text(const char *s);
/* Whether name can name a target or its output in cugen.ini: letters,
 * digits, _ . + -, and none cugen or ninja uses in the build directory
 * (all, check, shard, report, build.ninja, arch-*, .*). */
gboolean config_target_name_ok(const char *name);
/* Whether v is a shared library version cugen.ini takes (1.2.3, 1). */
gboolean config_version_ok(const char *v);

#endif
