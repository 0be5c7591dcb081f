/* setup.c -- `cugen setup` and `cugen plan`.
 *
 * Owns: their command-line options, the order of work (read the INI,
 * probe the toolkit and machine, build the graph, plan it, emit it) and
 * writing BUILDDIR/build.ninja, compile_commands.json, the probe cache,
 * the shard spec and the setup arguments all-or-nothing: on any error
 * nothing in BUILDDIR changes. At scale the independent parts run on
 * threads: the last build's measurements while the graph is built, the
 * gate, the shard spec and compile_commands.json while the build file is
 * written; each reads the graph, none changes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "commands.h"
#include "setup.h"
#include "shard.h"
#include "config.h"
#include "edges.h"
#include "envflags.h"
#include "explain.h"
#include "graph.h"
#include "history.h"
#include "install.h"
#include "jsonout.h"
#include "machine.h"
#include "automake.h"
#include "gate.h"
#include "make.h"
#include "ninja.h"
#include "options.h"
#include "plan.h"
#include "template.h"
#include "toolkit.h"
#include "statefile.h"
#include "units.h"
#include "util.h"

void setup_args_clear(SetupArgs *a)
{
	g_free(a->srcdir);
	g_free(a->builddir);
	g_free(a->file);
	g_free(a->profile);
	g_free(a->backend);
	g_free(a->archs);
	g_free(a->prefix);
	g_free(a->buildtype);
	g_strfreev(a->defines);
	g_strfreev(a->kept);
	g_strfreev(a->undefines);
	g_strfreev(a->debug);
	g_free(a->trace);
	g_free(a->costs);
	g_strfreev(a->regen);
}

/* -d MODE, as ninja's -d: ways to look inside that change nothing a
 * build depends on (timing), or that leave out one of the planner's
 * alternatives, to compare with it (those are kept for regeneration). */
static const struct {
	const char *name, *what;
} debug_table[] = {
	{ "timing", "print the milliseconds each phase took, on standard error" },
	{ "explain", "say which commands this setup changes in the build file, and how, on standard error" },
	{ "list", "list these modes" },
};

/* What the -d modes that changed the graph became: profile keys. */
static const char *const moved_modes[][2] = {
	{ "no-ptxas-edges", "ptxas_edges" }, { "no-host-rank", "host_rank" },
	{ "no-syntax-stub", "syntax_stub" }, { "no-pp-edges", "pp_edges" },
};

static gboolean debug_modes(SetupArgs *a, const char *cmd, GError **err)
{
	for (char **d = a->debug; d && *d; d++) {
		guint i = 0;
		while (i < G_N_ELEMENTS(debug_table) && strcmp(*d, debug_table[i].name) != 0)
			i++;
		for (gsize k = 0; i == G_N_ELEMENTS(debug_table) && k < G_N_ELEMENTS(moved_modes); k++)
			if (strcmp(*d, moved_modes[k][0]) == 0) {
				cg_usage_error(err, "-d %s changed the build graph: it is the profile key %s = no now "
					       "(-D profile.NAME.%s=no --profile NAME; cugen.ini(5))", *d,
					       moved_modes[k][1], moved_modes[k][1]);
				return FALSE;
			}
		if (i == G_N_ELEMENTS(debug_table)) {
			cg_usage_error(err, "unknown debugging mode '%s' (see 'cugen %s -d list')", *d, cmd);
			return FALSE;
		}
		if (strcmp(*d, "list") == 0) {
			printf("debugging modes (-d MODE, repeatable):\n");
			for (guint k = 0; k < G_N_ELEMENTS(debug_table); k++)
				printf("  %-16s %s\n", debug_table[k].name, debug_table[k].what);
			exit(0);
		}
		if (strcmp(*d, "timing") == 0)
			cg_timing_enable();
		if (strcmp(*d, "explain") == 0)
			a->explain = TRUE;
	}
	return TRUE;
}

gboolean setup_parse_args(int *argc, char ***argv, SetupArgs *a, const char *cmd,
			   gboolean plan, GError **err)
{
	GOptionEntry entries[] = {
		{ "source-dir", 'S', 0, G_OPTION_ARG_FILENAME, &a->srcdir, "Project directory (default: .)", "SRCDIR" },
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &a->builddir, "Build directory (default: build)", "BUILDDIR" },
		{ "file", 'f', 0, G_OPTION_ARG_FILENAME, &a->file, "Project file (default: SRCDIR/cugen.ini)", "FILE" },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, &a->profile, "Use [profile NAME]", "NAME" },
		{ "backend", 0, 0, G_OPTION_ARG_STRING, &a->backend, "ninja (default), make or automake", "BACKEND" },
		{ "archs", 0, 0, G_OPTION_ARG_STRING, &a->archs, "Build only these archs of the project set", "LIST" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &a->defines, "Override an INI key", "SECTION.KEY=VALUE" },
		{ "undefine", 'U', 0, G_OPTION_ARG_STRING_ARRAY, &a->undefines, "Drop a kept -D", "SECTION.KEY" },
		{ "reset", 0, 0, G_OPTION_ARG_NONE, &a->reset, "Drop every kept -D", NULL },
		{ "list-options", 0, 0, G_OPTION_ARG_NONE, &a->list_options, "List the kept options and exit", NULL },
		{ "prefix", 0, 0, G_OPTION_ARG_FILENAME, &a->prefix, "Install under PREFIX (-D project.prefix=PREFIX)", "PREFIX" },
		{ "buildtype", 0, 0, G_OPTION_ARG_STRING, &a->buildtype,
		  "none, debug, release, relwithdebinfo or minsizerel (-D project.buildtype=TYPE)", "TYPE" },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &a->verbose, "Say more", NULL },
		{ "json", 0, plan ? 0 : G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &a->json, "Machine-readable output (plan)", NULL },
		{ "debug", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &a->debug, "Debugging mode (-d list lists them)", "MODE" },
		{ "trace", 0, plan ? 0 : G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &a->trace,
		  "Write the simulated build of the chosen graph to FILE", "FILE" },
		{ "costs", 0, plan ? 0 : G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &a->costs,
		  "With --trace: simulate with the costs measured in BUILDDIR", "BUILDDIR" },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, plan
		? "Print the build plan: edges per kind, pools, and why."
		: "Write BUILDDIR/build.ninja for the project in SRCDIR/cugen.ini.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	char *prg = g_strdup_printf("cugen %s", cmd);
	g_set_prgname(prg);
	g_free(prg);
	GError *e = NULL;
	options_split_attached(argc, argv, "DBSfdU");
	gboolean ok = g_option_context_parse(ctx, argc, argv, &e);
	g_option_context_free(ctx);
	if (!ok) {
		cg_usage_error(err, "%s (see 'cugen %s --help')", e->message, cmd);
		g_error_free(e);
		return FALSE;
	}
	if (*argc > 1) {
		cg_usage_error(err, "unexpected argument '%s' (see 'cugen %s --help')", (*argv)[1], cmd);
		return FALSE;
	}
	if (!debug_modes(a, cmd, err))
		return FALSE;
	if (a->costs && !a->trace) {
		cg_usage_error(err, "--costs needs --trace FILE (see 'cugen %s --help')", cmd);
		return FALSE;
	}
	if (!a->srcdir)
		a->srcdir = g_strdup(".");
	if (!a->builddir)
		a->builddir = g_strdup("build");
	if (!a->file)
		a->file = strcmp(a->srcdir, ".") == 0 ? g_strdup("cugen.ini")
			: g_build_filename(a->srcdir, "cugen.ini", NULL);
	if (!a->backend)
		a->backend = g_strdup("ninja");
	const char *const backends[] = { "ninja", "make", "automake", NULL };
	if (!g_strv_contains(backends, a->backend)) {
		const char *hint = cg_suggest(a->backend, backends);
		cg_usage_error(err, "unknown backend '%s' (expected ninja, make or automake)%s%s%s", a->backend,
			       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		return FALSE;
	}
	return TRUE;
}

static char *self_path(void)
{
	char *p = g_file_read_link("/proc/self/exe", NULL);
	return p ? p : g_strdup("cugen");
}

static void early_spec_drop(Generated *gen);

void setup_generated_clear(Generated *gen)
{
	early_spec_drop(gen);
	graph_free(gen->g);
	resolved_free(gen->resolved);
	toolkit_free(gen->tk);
	config_free(gen->c);
	graph_info_clear(&gen->info);
	history_free(gen->history);
	envflags_free(gen->env);
	plan_clear(&gen->plan);
	g_free(gen->builddir);
	if (gen->in.regen_args)
		g_ptr_array_free(gen->in.regen_args, TRUE);
	g_free((char *)gen->in.cugen);
}

/* The build directory is neither the project directory nor one a glob
 * watches: each build would write there, and ninja regenerate the graph
 * on every run (and --backend make would replace the project's own
 * Makefile). */
static gboolean outside_sources(Generated *gen, const char *shown, GError **err)
{
	char *b = realpath(gen->builddir, NULL);
	const char *bd = b ? b : gen->builddir;
	GPtrArray *dirs = gen->c->glob_dirs;
	gboolean ok = TRUE;
	for (guint i = 0; ok && i <= dirs->len; i++) {
		const char *d = i < dirs->len ? g_ptr_array_index(dirs, i) : gen->c->srcdir;
		char *r = realpath(d, NULL);
		if (strcmp(r ? r : d, bd) == 0) {
			cg_error(err, "the build directory '%s' is %s: give another one (e.g. -B build)", shown,
				 i < dirs->len ? "a directory a sources or data glob reads" : "the project directory");
			ok = FALSE;
		}
		free(r);
	}
	free(b);
	return ok;
}

/* The shard spec of a large graph, made and sealed on a thread of its
 * own from the moment its edges are final (Plan.made) while the plan
 * orders them: 13 MB and its SHA-256 at 10,000 TUs, otherwise made
 * in the last phase, when the build file and the others are. */
struct EarlySpec {
	const Generated *gen;
	GPtrArray *edges;      /* the graph's, in the order they were made */
	char *archs;           /* the project's arch set (setup_project_archs) */
	GThread *thread;
	GString *spec;         /* sealed */
};

static gpointer early_spec(gpointer data)
{
	struct EarlySpec *x = data;
	const ShardBuild sb = { { x->gen->c->srcdir, x->gen->builddir }, x->archs };
	x->spec = state_seal("shard-spec", shard_spec_part(x->edges, x->gen->tk, &sb, 0, x->edges->len, TRUE));
	return NULL;
}

static void spec_made(Graph *g, gpointer data)
{
	Generated *gen = data;
	struct EarlySpec *x = g_new0(struct EarlySpec, 1);
	x->gen = gen;
	x->edges = g_ptr_array_copy(g->edges, NULL, NULL);
	x->archs = setup_project_archs(gen);
	x->thread = g_thread_new("cugen-spec", early_spec, x);
	gen->early = x;
}

/* The early spec, once made (NULL: none was started); joined either way. */
static GString *early_spec_join(Generated *gen)
{
	struct EarlySpec *x = gen->early;
	if (!x)
		return NULL;
	g_thread_join(x->thread);
	GString *spec = x->spec;
	g_ptr_array_free(x->edges, TRUE);
	g_free(x->archs);
	g_free(x);
	gen->early = NULL;
	return spec;
}

/* An early spec not written (a failed setup's): joined and freed. */
static void early_spec_drop(Generated *gen)
{
	GString *spec = early_spec_join(gen);
	if (spec)
		g_string_free(spec, TRUE);
}


static gboolean generate(SetupArgs *a, Generated *gen, GError **err);

gboolean setup_generate(SetupArgs *a, Generated *gen, GError **err)
{
	GError *e = NULL;
	gboolean ok = generate(a, gen, &e);
	/* never a silent failure (setup, plan and combine exited 0 with no
	 * word where a reader returned FALSE and said nothing) */
	if (!ok && !e)
		cg_error(&e, "internal error: setup failed without saying why (a bug of cugen)");
	if (e)
		g_propagate_error(err, e);
	return ok;
}

static gboolean generate(SetupArgs *a, Generated *gen, GError **err)
{
	memset(gen, 0, sizeof *gen);
	cg_timing("start");
	const char *const named[][2] = { { "-B", a->builddir }, { "-S", a->srcdir }, { "-f", a->file } };
	for (gsize i = 0; i < G_N_ELEMENTS(named); i++)
		if (named[i][1] && !*named[i][1]) {
			cg_usage_error(err, "%s '' names no directory or file", named[i][0]);
			return FALSE;
		}
	gen->builddir = cg_abspath(a->builddir);
	if (!a->regen && !options_merge(a, gen->builddir, err))
		return FALSE;
	/* Paths go into every command line: a control character there
	 * (a newline, the byte edges.c marks its templates with) cannot be
	 * carried through ninja's and make's files and the shell. */
	char *ini_abs = cg_abspath(a->file);
	const char *const paths[][2] = { { "build directory", gen->builddir }, { "project file", ini_abs } };
	for (gsize i = 0; i < G_N_ELEMENTS(paths); i++)
		for (const char *p = paths[i][1]; *p; p++)
			if (((guchar)*p < 0x20 && *p != '\t') || *p == 0x7f) {
				cg_error(err, "%s '%s': control character 0x%02x in the path", paths[i][0], paths[i][1],
					 (guchar)*p);
				g_free(ini_abs);
				return FALSE;
			}
	g_free(ini_abs);
	struct stat sb;
	if (stat(gen->builddir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		cg_error(err, "build directory '%s' exists and is not a directory", a->builddir);
		return FALSE;
	}
	if (!g_file_test(a->file, G_FILE_TEST_EXISTS)) {
		if (g_file_test(a->srcdir, G_FILE_TEST_EXISTS) && !g_file_test(a->srcdir, G_FILE_TEST_IS_DIR))
			cg_error(err, "source directory '%s' is not a directory (give the project file with -f)",
				 a->srcdir);
		else if (!g_file_test(a->srcdir, G_FILE_TEST_IS_DIR))
			cg_error(err, "source directory '%s' not found", a->srcdir);
		else
			cg_error(err, "no project file '%s' (write a cugen.ini, or give -f FILE)", a->file);
		return FALSE;
	}
	gen->env = envflags_read(gen->builddir);
	ConfigOptions co = { a->file, a->profile, a->archs, a->defines, !a->machine, gen->env };
	gen->c = config_load(&co, err);
	if (!gen->c) {
		/* a -D kept from an earlier setup: say where it came from */
		for (char **d = a->kept; err && *err && d && *d; d++) {
			char *said = g_strconcat("-D ", *d, ":", NULL);
			if (strstr((*err)->message, said)) {
				char *key = g_strndup(*d, strcspn(*d, "="));
				char *m = g_strdup_printf("%s (kept from an earlier setup of %s: drop it with -U %s, or "
							  "all of them with --reset)", (*err)->message, a->builddir, key);
				g_free((*err)->message);
				(*err)->message = m;
				g_free(key);
			}
			g_free(said);
		}
		return FALSE;
	}
	cg_timing("config");
	if (!outside_sources(gen, a->builddir, err))
		return FALSE;
	gen->tk = toolkit_probe(gen->c, gen->builddir, err);
	if (!gen->tk)
		return FALSE;
	const ArchToolkit at = toolkit_archs(gen->tk);
	if (!config_apply_archs(gen->c, &at, err))
		return FALSE;
	cg_timing("toolkit");

	gen->in.cugen = self_path();
	gen->in.regen_args = options_regen_args(a, gen->c->ini_abs, gen->builddir);
	/* what each target is: once, for every graph the planner weighs */
	gen->resolved = resolve_project(gen->c, gen->tk, gen->builddir, plan_profile_split_compile(gen->c), err);
	if (!gen->resolved)
		return FALSE;
	cg_timing("resolve");
	if (a->machine)
		gen->m = *a->machine;
	else
		machine_probe(&gen->m);
	/* the last build's measurements: read while the graph is lowered */
	if (!a->no_history)
		gen->history = history_read_async(gen->builddir);
	cg_timing("machine");
	const Profile *prof = gen->c->profile;
	gen->plan.whole_device = a->whole_device || prof->no_ptxas_edges;
	gen->plan.no_syntax_stub = prof->no_syntax_stub;
	gen->plan.no_pp_edges = prof->no_pp_edges;
	gen->plan.no_rank = strcmp(a->backend, "ninja") != 0 || prof->no_host_rank;
	gen->plan.may_group = edges_may_group(gen->resolved, PLAN_GROUP_EDGES);
	/* what a guessed second is here: the profile's speed, a runner's
	 * (the reference machine's: it is not this one), CUGEN_SPEED, else
	 * the plan probes this machine once a cost is guessed */
	const char *env_speed = g_getenv("CUGEN_SPEED");
	if (prof->speed > 0) {
		gen->plan.speed = (Speed){ .speed = prof->speed, .from = "the profile's speed" };
	} else if (a->machine) {
		gen->plan.speed = (Speed){ .speed = 1, .from = "the reference machine's (a runner is not probed)" };
	} else if (env_speed && *env_speed) {
		if (!units_parse_speed(env_speed, &gen->plan.speed.speed)) {
			cg_error(err, "CUGEN_SPEED '%s': expected a number from 0.1 to 10 (this machine's "
				      "CPU seconds per second of the reference machine)", env_speed);
			return FALSE;
		}
		gen->plan.speed.from = "CUGEN_SPEED";
	}
	gen->plan.trace = a->trace;
	gen->plan.trace_costs = a->costs;
	if (a->writes && strcmp(a->backend, "automake") != 0) { /* (automake writes no spec) */
		gen->plan.made = spec_made;
		gen->plan.made_data = gen;
	}
	gen->g = plan_make(gen->c, &gen->m, gen->history, gen->resolved, &gen->in, &gen->info, &gen->plan, err);
	cg_timing("plan");
	if (gen->g && gen->info.fallbacks)
		for (guint i = 0; i + 2 < gen->info.fallbacks->len; i += 3) {
			const char *flag = g_ptr_array_index(gen->info.fallbacks, i + 1);
			char *f = *flag ? g_strdup_printf(" (flag '%s')", flag) : g_strdup("");
			cg_warn("target '%s'%s is built with one nvcc per TU (split = tu), the code plain nvcc makes: %s",
				(char *)g_ptr_array_index(gen->info.fallbacks, i), f,
				(char *)g_ptr_array_index(gen->info.fallbacks, i + 2));
			g_free(f);
		}
	return gen->g != NULL;
}


static guint real_edges(Graph *g)
{
	guint n = 0;
	for (guint i = 0; i < g->edges->len; i++) {
		EdgeKind k = ((Edge *)g_ptr_array_index(g->edges, i))->kind;
		n += k != EK_PHONY && k != EK_REGEN;
	}
	return n;
}

/* The setup arguments, for `cugen combine` to generate the same graph. */
static GString *args_text(const SetupArgs *a, const Generated *gen)
{
	GKeyFile *k = g_key_file_new();
	g_key_file_set_string(k, "setup", "file", gen->c->ini_abs);
	if (a->profile)
		g_key_file_set_string(k, "setup", "profile", a->profile);
	if (a->archs)
		g_key_file_set_string(k, "setup", "archs", a->archs);
	if (a->defines)
		g_key_file_set_string_list(k, "setup", "defines", (const char *const *)a->defines,
					   g_strv_length(a->defines));
	gsize len = 0;
	char *data = g_key_file_to_data(k, &len, NULL);
	GString *s = g_string_new_len(data, len);
	g_free(data);
	g_key_file_free(k);
	return s;
}

/* The second half of the shard spec, handed from the thread that makes
 * it to the one that makes the first, which appends and seals it. */
typedef struct {
	GMutex lock;
	GCond ready;
	GString *part;         /* NULL until made */
} SpecHandoff;

/* The files besides the build file, read-only over the graph: made on
 * threads of their own while the build file is written (the shard spec
 * in two halves, unless it was made early: EarlySpec). The spec's seal
 * is made on the first half's thread too, not after the joins: the first
 * half summed while the second is made. */
typedef struct {
	const Generated *gen;
	const ShardBuild *sb;
	const GPtrArray *edges; /* the spec's, in the order they were made; NULL: no spec here */
	guint from, to;        /* the shard spec's part */
	gboolean first;        /* the first part (the spec's header), else also: */
	SpecHandoff *handoff;
	GString *spec;         /* the first: the whole spec, sealed */
	GString *history, *compdb;
} SideFiles;

/* The first half of the spec sealed with the second (the thread that
 * made it hands it over), or the second handed over; TRUE for the first. */
static gboolean spec_half(SideFiles *f)
{
	GString *part = shard_spec_part(f->edges, f->gen->tk, f->sb, f->from, f->to, f->first);
	SpecHandoff *h = f->handoff;
	if (!f->first) {
		g_mutex_lock(&h->lock);
		h->part = part;
		g_cond_signal(&h->ready);
		g_mutex_unlock(&h->lock);
		return FALSE;
	}
	/* the seal's SHA-256 of the first half is made while the other
	 * thread makes the second */
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(sum, (const guchar *)part->str, (gssize)part->len);
	g_mutex_lock(&h->lock);
	while (!h->part)
		g_cond_wait(&h->ready, &h->lock);
	g_mutex_unlock(&h->lock);
	g_checksum_update(sum, (const guchar *)h->part->str, (gssize)h->part->len);
	g_string_append_len(part, h->part->str, (gssize)h->part->len);
	g_string_free(g_steal_pointer(&h->part), TRUE);
	f->spec = state_seal_summed("shard-spec", part, sum);
	g_checksum_free(sum);
	return TRUE;
}

static gpointer side_files(gpointer data)
{
	SideFiles *f = data;
	if (f->edges && spec_half(f))
		return NULL;
	if (!f->history) /* (no history read: --no-history) */
		f->history = history_compact(f->gen->builddir);
	f->compdb = compdb_write(f->gen->g, f->gen->builddir);
	return NULL;
}

/* The gate's build file (gate_outer), on a thread of its own too. */
typedef struct {
	const Generated *gen;
	char *header;
	GString *text;
	GError *err;
} GateFile;

static gpointer gate_file(gpointer data)
{
	GateFile *f = data;
	f->text = gate_outer(f->gen->g, f->header, f->gen->in.cugen, &f->err);
	return NULL;
}

char *setup_project_archs(const Generated *gen)
{
	GError *e = NULL;
	const ArchToolkit at = toolkit_archs(gen->tk);
	ArchSet *ps = archset_resolve(&gen->c->archs, &gen->c->ptx, &at, &e);
	char *r = ps ? archset_describe(ps) : g_strdup(gen->c->archs.value);
	archset_free(ps);
	g_clear_error(&e);
	return r;
}

gboolean setup_write(SetupArgs *a, Generated *gen, GError **err)
{
	char *project_archs = setup_project_archs(gen);
	char *ini_rel = cg_relpath(gen->c->ini_abs, gen->builddir);
	gboolean make = strcmp(a->backend, "make") == 0;
	if (strcmp(a->backend, "automake") == 0) {
		g_free(ini_rel);
		g_free(project_archs);
		return automake_write(gen->c, gen->resolved, gen->g, err);
	}
	char *jobs = g_strdup_printf("%d", gen->plan.recommended_j);
	const char *vars[] = {
		"PROJECT", gen->c->name, "VERSION", CUGEN_VERSION, "INI", ini_rel,
		"PROJECT_ARCHS", project_archs, "BUILD_ARCHS", gen->info.archs, "JOBS", jobs, NULL
	};
	char *header = template_expand(make ? "make-header.in" : "ninja-header.in", vars);
	g_free(jobs);
	g_free(ini_rel);
	gen->gated = !make && gate_wanted(gen->c, real_edges(gen->g));
	/* the compacted edge log comes with the history, when it was read */
	GString *log = gen->history ? g_steal_pointer(&gen->history->compact) : NULL;
	const ShardBuild sb = { { gen->c->srcdir, gen->builddir }, project_archs };
	SpecHandoff handoff = { 0 };
	g_mutex_init(&handoff.lock);
	g_cond_init(&handoff.ready);
	/* the spec's edges in the order they were made (the plan ordered
	 * gen->g's), unless it was made already */
	GPtrArray *made = NULL;
	if (!gen->early) {
		made = g_ptr_array_sized_new(gen->g->edges->len);
		g_ptr_array_set_size(made, gen->g->edges->len);
		for (guint i = 0; i < gen->g->edges->len; i++) {
			Edge *e = g_ptr_array_index(gen->g->edges, i);
			g_assert(e->serial < made->len && !made->pdata[e->serial]);
			made->pdata[e->serial] = e;
		}
	}
	const guint n = gen->g->edges->len, half = made ? n / 2 : 0;
	SideFiles side[2] = { { gen, &sb, made, 0, half, TRUE, &handoff, NULL, NULL, NULL },
			      { gen, &sb, made, half, n, FALSE, &handoff, NULL, log, NULL } };
	GThread *threads[2] = { made ? g_thread_new("cugen-spec", side_files, &side[0]) : NULL,
				g_thread_new("cugen-files", side_files, &side[1]) };
	GString *full = NULL, *text;
	if (gen->gated) {
		GateFile gf = { gen, g_strconcat(header, "#\n# A gate ([project] gate): the full graph is " GATE_FULL
						 " (its logs in " GATE_FULL_DIR ").\n"
						 "# A build with nothing to do checks this file's one edge.\n\n", NULL),
				NULL, NULL };
		GThread *gt = g_thread_new("cugen-gate", gate_file, &gf);
		full = ninja_write(gen->g, header, GATE_FULL_DIR, err);
		g_thread_join(gt);
		g_free(gf.header);
		text = gf.text;
		if (full && !text)
			g_propagate_error(err, gf.err);
		else
			g_clear_error(&gf.err);
		if (!full && text) {
			g_string_free(text, TRUE);
			text = NULL;
		}
		if (!text && full)
			g_string_free(full, TRUE);
	} else {
		text = make ? make_write(gen->g, header, gen->in.cugen, err) : ninja_write(gen->g, header, NULL, err);
	}
	g_free(header);
	if (text) {
		char *more = install_targets(gen->c, gen->in.cugen, gen->info.archs, make, gen->gated);
		g_string_append(text, more);
		g_free(more);
	}
	cg_timing("build file");
	if (threads[0])
		g_thread_join(threads[0]);
	g_thread_join(threads[1]);
	if (made)
		g_ptr_array_free(made, TRUE);
	else
		side[0].spec = early_spec_join(gen);
	g_free(project_archs);
	cg_timing("the other files");
	g_mutex_clear(&handoff.lock);
	g_cond_clear(&handoff.ready);
	GString *spec = side[0].spec; /* (sealed) */
	if (!text) {
		g_string_free(side[1].history, TRUE);
		g_string_free(side[1].compdb, TRUE);
		g_string_free(spec, TRUE);
		return FALSE;
	}
	Stage *st = stage_new();
	if (full) {
		char *fp = g_build_filename(gen->builddir, GATE_FULL, NULL);
		stage_add(st, fp, full);
		g_free(fp);
	}
	/* the build file is always rewritten: ninja regenerates build.ninja
	 * when cugen.ini is newer, and would loop if its mtime stayed old */
	char *p = g_build_filename(gen->builddir, make ? "Makefile" : "build.ninja", NULL);
	stage_add_always(st, p, text);
	g_free(p);
	p = g_build_filename(gen->builddir, ".cugen", "edges.log", NULL);
	stage_add(st, p, side[1].history);
	g_free(p);
	p = g_build_filename(gen->builddir, ".cugen", "plan.ini", NULL);
	const Grouping *ch = &gen->plan.chosen;
	stage_add(st, p, state_seal("plan", history_choices(ch->syntax_stub, ch->pp_edges, ch->ptxas_edges,
							     gen->plan.rank_considered ? ch->host_rank : -1,
							     gen->plan.tail_considered ? ch->tail_split : -1,
							     ch->split_edges, gen->plan.tail_guessed, &gen->plan.speed)));
	g_free(p);
	p = g_build_filename(gen->builddir, "compile_commands.json", NULL);
	stage_add(st, p, side[1].compdb);
	g_free(p);
	p = toolkit_cache_path(gen->builddir);
	stage_add(st, p, state_seal("probe", toolkit_cache_text(gen->tk)));
	g_free(p);
	p = g_build_filename(gen->builddir, ".cugen", "shard.spec", NULL);
	stage_add(st, p, spec);
	g_free(p);
	if (!install_stage(st, gen->resolved, gen->builddir, err)) {
		stage_free(st);
		return FALSE;
	}
	p = g_build_filename(gen->builddir, ENV_RECORD, NULL);
	stage_add(st, p, envflags_record(gen->env));
	g_free(p);
	if (!a->regen) {
		p = g_build_filename(gen->builddir, ".cugen", "args.ini", NULL);
		stage_add(st, p, state_seal("args", args_text(a, gen)));
		g_free(p);
	}
	gboolean ok = stage_commit(st, err);
	stage_free(st);
	cg_timing("write");
	if (ok && !gen->gated && !make) {
		/* no longer gated: the full graph's manifest goes (its logs stay) */
		char *fp = g_build_filename(gen->builddir, GATE_FULL, NULL);
		g_unlink(fp);
		g_free(fp);
	}
	return ok;
}

/* cmd_setup leaves what it made to the process's exit: freeing 100,000
 * edges one by one took a tenth of setup at 10,000 TUs, and the project's
 * sources, their resolution and the planner's graph 7% more. This keeps
 * them reachable, so leak checkers do not count them as lost. */
static Generated *volatile left_to_exit;

int cmd_setup(int argc, char **argv)
{
	SetupArgs a = { 0 };
	GError *err = NULL;
	Generated gen = { 0 };
	int rc = 0;
	if (!setup_parse_args(&argc, &argv, &a, "setup", FALSE, &err))
		goto out;
	a.writes = TRUE;
	if (a.list_options) {
		char *b = cg_abspath(a.builddir);
		if (options_merge(&a, b, &err))
			options_list(&a, a.builddir);
		g_free(b);
		goto out;
	}
	if (a.builddir && *a.builddir) {
		/* one setup of a build directory at a time: from the state it
		 * reads to the files it writes */
		char *b = cg_abspath(a.builddir);
		stage_lock_dir(b);
		g_free(b);
	}
	if (!setup_generate(&a, &gen, &err))
		goto out;
	if (a.explain && strcmp(a.backend, "ninja") == 0) {
		char *file = NULL;
		Graph *old = explain_read(a.builddir, &file);
		explain_print(old, file, gen.g, gen.history, &gen.plan.chosen, &a);
		if (old)
			graph_free(old);
		g_free(file);
	} else if (a.explain) {
		cg_warn("-d explain reads the ninja backend's build file; the %s backend's is not read", a.backend);
	}
	if (!setup_write(&a, &gen, &err))
		goto out;
	char *written = strcmp(a.backend, "automake") == 0 ? g_build_filename(gen.c->srcdir, "cugen.mk", NULL)
			: g_build_filename(a.builddir, strcmp(a.backend, "make") == 0 ? "Makefile"
					   : gen.gated ? "build.ninja (a gate over " GATE_FULL ")" : "build.ninja", NULL);
	char *prof = gen.c->profile_why ? g_strdup_printf("profile %s (%s), ", gen.c->profile->name, gen.c->profile_why)
			: gen.c->profile->name ? g_strdup_printf("profile %s, ", gen.c->profile->name)
					       : g_strdup("no profile, ");
	char *pools = gen.plan.shared ? g_strdup_printf("compile=%d link=%d", gen.plan.device, gen.plan.link)
			: g_strdup_printf("device=%d host=%d link=%d", gen.plan.device, gen.plan.host, gen.plan.link);
	char *notes = setup_summary_notes(&gen);
	printf("cugen: %s: %s%u targets, %u TUs (%u CUDA, %u C/C++), archs %s%s, %u edges, pools %s -> %s\n",
	       gen.c->name, prof, gen.info.targets, gen.info.cuda_tus + gen.info.host_tus,
	       gen.info.cuda_tus, gen.info.host_tus,
	       *gen.info.archs ? gen.info.archs : "none", notes, real_edges(gen.g), pools, written);
	g_free(notes);
	g_free(pools);
	g_free(written);
	g_free(prof);
	if (a.verbose)
		for (guint i = 0; i < gen.plan.why->len; i++)
			printf("  %s\n", (char *)g_ptr_array_index(gen.plan.why, i));
out:
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	plan_settle(&gen.plan);
	early_spec_drop(&gen);
	left_to_exit = g_memdup2(&gen, sizeof gen);
	setup_args_clear(&a);
	return rc;
}
