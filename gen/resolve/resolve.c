/* resolve.c -- what each target is, before any edge is made; see
 * resolve.h. */
#include "resolve.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

char *resolve_rel(const Resolved *x, const char *abs)
{
	if (x->relative && g_str_has_prefix(abs, x->c->srcdir))
		return cg_relpath(abs, x->builddir);
	return g_strdup(abs);
}

GPtrArray *resolve_prefix_maps(const Resolved *x, gboolean preprocess)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	if (x->c->module_id_absolute)
		return w;
	char *src = resolve_rel(x, x->c->srcdir);
	const char *slash = g_str_has_suffix(src, "/") ? "" : "/";
	if (preprocess) {
		g_ptr_array_add(w, g_strconcat("-fmacro-prefix-map=", src, slash, "=", NULL));
	} else {
		g_ptr_array_add(w, g_strconcat("-ffile-prefix-map=", src, slash, "=", NULL));
		g_ptr_array_add(w, g_strconcat("-fdebug-prefix-map=", x->builddir, "=.", NULL));
	}
	g_free(src);
	return w;
}

static void insert_maps(const Resolved *x, GPtrArray *argv, gboolean preprocess)
{
	GPtrArray *maps = resolve_prefix_maps(x, preprocess);
	for (guint k = maps->len; k-- > 0;)
		g_ptr_array_insert(argv, 1, g_strdup(g_ptr_array_index(maps, k)));
	g_ptr_array_free(maps, TRUE);
}

/* The passes of a CUDA TU get resolve_prefix_maps's words right
 * after the compiler, before the user's flags: its preprocess the
 * __FILE__ map alone (the build directory stays out of the front end's
 * command, which the compile cache's key holds), its compile the names
 * the line markers give debug info and the compilation directory. */
static void map_host_names(const Resolved *x, RTarget *s)
{
	insert_maps(x, s->pipe->host_pp, TRUE);
	insert_maps(x, s->pipe->host_cc, FALSE);
	/* and every device preprocess: __FILE__ in device code (assert,
	 * a project's own NO_DEVICE_CODE messages) is in the images; shards
	 * compare the map by layout-free names (relocate.c) */
	for (guint i = 0; i < s->pipe->archs->len; i++)
		insert_maps(x, ((PipeArch *)g_ptr_array_index(s->pipe->archs, i))->pp, TRUE);
}

/* ---- nvcc flag sets ---- */

static char *escape_commas(const char *s)
{
	GString *o = g_string_new(NULL);
	for (const char *p = s; *p; p++) {
		if (*p == ',')
			g_string_append_c(o, '\\');
		g_string_append_c(o, *p);
	}
	return g_string_free(o, FALSE);
}

/* An nvcc command's first words: MODE (-c, -dlink), the target
 * directory of a cross build and the host compiler. */
GPtrArray *resolve_nvcc_head(const Resolved *x, const char *mode)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(a, g_strdup(mode));
	if (*x->c->target_triple) {
		g_ptr_array_add(a, g_strdup("-target-dir"));
		g_ptr_array_add(a, g_strdup(x->tk->target));
	}
	if (x->c->ccbin && *x->c->ccbin) {
		g_ptr_array_add(a, g_strdup("-ccbin"));
		g_ptr_array_add(a, g_strdup(x->c->ccbin));
	}
	return a;
}

/* The target's nvcc flags, then its host flags (and -fPIC) for the host
 * compiler, each behind -Xcompiler. */
void resolve_target_flags(GPtrArray *a, const Target *t)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(t->cuda_flags, w, NULL);
	for (guint i = 0; i < w->len; i++)
		g_ptr_array_add(a, g_strdup(g_ptr_array_index(w, i)));
	g_ptr_array_set_size(w, 0);
	cg_split_words(t->host_flags, w, NULL);
	if (t->pic)
		g_ptr_array_add(w, g_strdup("-fPIC"));
	for (guint i = 0; i < w->len; i++) {
		g_ptr_array_add(a, g_strdup("-Xcompiler"));
		g_ptr_array_add(a, escape_commas(g_ptr_array_index(w, i)));
	}
	g_ptr_array_free(w, TRUE);
}

static gboolean nvcc_args(Resolved *x, RTarget *s, GError **err)
{
	Target *t = s->t;
	GPtrArray *a = resolve_nvcc_head(x, "-c");
	if (t->mode == MODE_RDC)
		g_ptr_array_add(a, g_strdup("-rdc=true"));
	g_ptr_array_add(a, g_strdup_printf("-std=%s", s->t->std));
	if (x->split_compile > 1)
		g_ptr_array_add(a, g_strdup_printf("--split-compile=%d", x->split_compile));
	resolve_target_flags(a, t);
	for (guint i = 0; i < s->includes->len; i++)
		g_ptr_array_add(a, g_strconcat("-I", (char *)g_ptr_array_index(s->includes, i), NULL));
	for (guint i = 0; i < s->defines->len; i++) {
		char *e = escape_commas(g_ptr_array_index(s->defines, i));
		g_ptr_array_add(a, g_strconcat("-D", e, NULL));
		g_free(e);
	}
	s->nvcc_args = a;
	return TRUE;
}

GPtrArray *resolve_with_gencode(GPtrArray *args, const ArchSet *set, GencodeKind kind)
{
	GPtrArray *a = argv_copy(args);
	GPtrArray *gc = g_ptr_array_new_with_free_func(g_free);
	archset_gencode(set, kind, gc);
	/* after -std, before the user's flags, as a user would write it */
	for (guint i = 0; i < gc->len; i++)
		g_ptr_array_insert(a, 1 + i + (a->len > 1 && g_str_has_prefix(g_ptr_array_index(a, 1), "-ccbin") ? 2 : 0),
				   g_strdup(g_ptr_array_index(gc, i)));
	g_ptr_array_free(gc, TRUE);
	return a;
}

/* ---- per-target setup ---- */

static void add_libs(GPtrArray *libs, GPtrArray *out, GHashTable *seen)
{
	for (guint i = 0; i < libs->len; i++) {
		const char *l = g_ptr_array_index(libs, i);
		if (!g_hash_table_contains(seen, l)) {
			g_hash_table_add(seen, (gpointer)l);
			g_ptr_array_add(out, (gpointer)l);
		}
	}
}

/* -l names for linking t: its libs and private_libs; of what it links
 * statically (static and object targets) the same, since their objects
 * come along; of a shared library only its public libs, transitively
 * (its private ones are linked into it already). */
/* (each target walked once per public_only: visited holds the target's
 * address with public_only in its low bit; a second walk adds nothing) */
static void collect_user_libs(Target *t, GPtrArray *out, GHashTable *seen, GHashTable *visited,
			      gboolean public_only)
{
	if (!g_hash_table_add(visited, (gpointer)((guintptr)t | (guintptr)(public_only != 0))))
		return;
	add_libs(t->libs, out, seen);
	if (!public_only)
		add_libs(t->private_libs, out, seen);
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		collect_user_libs(d, out, seen, visited, public_only || d->type == TGT_SHARED);
	}
}

/* An include directory as the commands name it: a directory beside the
 * project (a repository's shared utils/ next to the project's directory:
 * two leading components shared) is relative to the build directory too,
 * as one inside it is, so that builds in other places (shards) name it
 * alike; one elsewhere (/usr/include/x, /opt/...) stays absolute. */
static char *include_rel(Resolved *x, const char *abs)
{
	if (x->relative && !g_str_has_prefix(abs, x->c->srcdir) && cg_path_near(abs, x->c->srcdir))
		return cg_relpath(abs, x->builddir);
	return resolve_rel(x, abs);
}

static void add_includes(Resolved *x, GPtrArray *dirs, GPtrArray *out, GHashTable *seen)
{
	for (guint i = 0; i < dirs->len; i++) {
		char *r = include_rel(x, g_ptr_array_index(dirs, i));
		if (g_hash_table_contains(seen, r)) {
			g_free(r);
			continue;
		}
		g_hash_table_add(seen, r);
		g_ptr_array_add(out, g_strdup(r));
	}
}

/* -I paths for t's TUs: its own (public, then private), then the public
 * ones of what it depends on, transitively (a dependency reached twice
 * adds nothing new: walked once, in visited) */
static void collect_includes(Resolved *x, Target *t, GPtrArray *out, GHashTable *seen, GHashTable *visited,
			     gboolean own)
{
	add_includes(x, t->include, out, seen);
	if (own)
		add_includes(x, t->private_include, out, seen);
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		if (g_hash_table_add(visited, d))
			collect_includes(x, d, out, seen, visited, FALSE);
	}
}

/* -D for t's TUs: its own defines and public ones, then the public ones
 * of what it depends on, transitively (each name=value once) */
static void collect_defines(Target *t, GPtrArray *out, GHashTable *seen, GHashTable *visited, gboolean own)
{
	GPtrArray *lists[] = { own ? t->defines : NULL, t->public_defines };
	for (gsize l = 0; l < G_N_ELEMENTS(lists); l++)
		for (guint i = 0; lists[l] && i < lists[l]->len; i++) {
			char *d = g_ptr_array_index(lists[l], i);
			if (!g_hash_table_contains(seen, d)) {
				g_hash_table_add(seen, d);
				g_ptr_array_add(out, d);
			}
		}
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		if (g_hash_table_add(visited, d))
			collect_defines(d, out, seen, visited, FALSE);
	}
}

/* Whether t or what it depends on has a CUDA source (each target asked
 * once: visited). */
static gboolean uses_cuda_walk(Target *t, GHashTable *visited)
{
	if (!g_hash_table_add(visited, t))
		return FALSE; /* asked before: no, or the walk has ended */
	for (guint i = 0; i < t->sources->len; i++)
		if (((Source *)g_ptr_array_index(t->sources, i))->lang == LANG_CUDA)
			return TRUE;
	for (guint i = 0; i < t->deps->len; i++)
		if (uses_cuda_walk(g_ptr_array_index(t->deps, i), visited))
			return TRUE;
	return FALSE;
}

static gboolean uses_cuda(Target *t)
{
	GHashTable *visited = g_hash_table_new(NULL, NULL);
	gboolean yes = uses_cuda_walk(t, visited);
	g_hash_table_destroy(visited);
	return yes;
}

/* Whether the toolkit has library NAME (lib<NAME>.so or .a in its
 * library directory); asked once per name. */
static gboolean toolkit_lib(Resolved *x, const char *name)
{
	const char *known = g_hash_table_lookup(x->toolkit_libs, name);
	if (known)
		return *known != 0;
	gboolean there = FALSE;
	const char *suffix[] = { ".so", ".a" };
	for (gsize k = 0; k < G_N_ELEMENTS(suffix) && !there; k++) {
		char *f = g_strdup_printf("%s/lib%s%s", x->cudart_dir, name, suffix[k]);
		there = g_file_test(f, G_FILE_TEST_EXISTS);
		g_free(f);
	}
	g_hash_table_insert(x->toolkit_libs, (gpointer)name, there ? "1" : "");
	return there;
}

/* Whether t or what it depends on names a library of the toolkit in
 * libs (cublas, cufft_static, ...), as CMake's CUDA::cublas does. */
static gboolean uses_toolkit_libs(Resolved *x, Target *t)
{
	GPtrArray *lists[] = { t->libs, t->private_libs };
	for (gsize l = 0; l < G_N_ELEMENTS(lists); l++)
		for (guint i = 0; i < lists[l]->len; i++) {
			const char *n = g_ptr_array_index(lists[l], i);
			if (!g_path_is_absolute(n) && toolkit_lib(x, n))
				return TRUE;
		}
	/* (its dependencies were prepared first: config_target_order) */
	for (guint i = 0; i < t->deps->len; i++) {
		RTarget *ds = g_hash_table_lookup(x->targets, g_ptr_array_index(t->deps, i));
		if (ds ? ds->uses_toolkit : uses_toolkit_libs(x, g_ptr_array_index(t->deps, i)))
			return TRUE;
	}
	return FALSE;
}

/* Whether own(t) holds for t or for a target it links statically (each
 * target asked once: visited). */
static gboolean static_links_walk(Target *t, gboolean (*own)(const Target *), GHashTable *visited)
{
	if (!g_hash_table_add(visited, t))
		return FALSE; /* asked before: it said no, or the walk has ended */
	if (own(t))
		return TRUE;
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		if (d->type != TGT_SHARED && static_links_walk(d, own, visited))
			return TRUE;
	}
	return FALSE;
}

static gboolean in_static_links(Target *t, gboolean (*own)(const Target *))
{
	GHashTable *visited = g_hash_table_new(NULL, NULL);
	gboolean yes = static_links_walk(t, own, visited);
	g_hash_table_destroy(visited);
	return yes;
}

/* t's own relocatable device code: a CUDA source in mode = rdc. */
static gboolean own_rdc(const Target *t)
{
	if (t->mode != MODE_RDC)
		return FALSE;
	for (guint i = 0; i < t->sources->len; i++)
		if (((Source *)g_ptr_array_index(t->sources, i))->lang == LANG_CUDA)
			return TRUE;
	return FALSE;
}

static gboolean own_lto(const Target *t)
{
	return t->lto;
}

/* Relocatable device code, or device LTO, in t or in what it links
 * statically. */
gboolean target_has_rdc(Target *t)
{
	return in_static_links(t, own_rdc);
}

gboolean target_has_lto(Target *t)
{
	return in_static_links(t, own_lto);
}

gboolean target_needs_dlink(Target *t)
{
	return (t->type == TGT_EXECUTABLE || t->type == TGT_SHARED) && target_has_rdc(t);
}

static gboolean resolve_archs(Resolved *x, RTarget *s, GError **err)
{
	Target *t = s->t;
	const ArchToolkit at = toolkit_archs(x->tk);
	s->project = archset_resolve(&t->archs, &t->ptx, &at, err);
	if (s->project)
		s->project->ptx_first = x->c->ptx_first;
	if (!s->project)
		return FALSE;
	if (t->lto) {
		/* LTO images carry NVVM IR; nvcc embeds no PTX next to them. */
		for (guint i = 0; i < s->project->archs->len; i++) {
			Arch *a = &g_array_index(s->project->archs, Arch, i);
			if (!a->sass) {
				cg_error_at(err, t->archs.loc.file, t->archs.loc.line,
					    "target '%s': lto = yes needs sm archs, not the PTX-only 'compute_%d'",
					    t->name, a->num);
				return FALSE;
			}
			a->ptx = FALSE;
		}
	}
	s->build = archset_select(s->project, x->c->build_archs);
	return TRUE;
}

/* Module ids. cudafe++ makes a TU's id from its path and its first
 * external definition; a TU with none (only template instantiations: any
 * CUB/Thrust TU) gets a random hash and nvcc's process id instead, so no
 * two builds agree. nvcc's -frandom-seed (passed to gcc, cudafe++ and
 * cicc) replaces that hash and drops the pid, and changes no other TU's
 * id. cugen seeds every TU with its project, target and path, so the id
 * is a function of the project's name, the project-relative path and the
 * target whose flags compile it: the same in every build directory,
 * placement and run, exactly what `nvcc -frandom-seed=PROJECT/TARGET:PATH`
 * makes, and another in another project (two projects' target kern with
 * a template-only src/k.cu device-link into one program). A user's own
 * -frandom-seed is kept as it is (one seed for every TU, as nvcc's
 * --help says). */
#define SEED_MARK "cugen.module-id.seed"

static gboolean user_seeds(const GPtrArray *args)
{
	for (guint i = 0; i < args->len; i++) {
		const char *a = g_ptr_array_index(args, i);
		if (g_str_has_prefix(a, "-frandom-seed") || g_str_has_prefix(a, "--frandom-seed"))
			return TRUE;
	}
	return FALSE;
}

/* The flags the dryrun is asked with: the target's, its gencodes and
 * the seed's mark (replaced by resolve_seed). */
static GPtrArray *dryrun_args(const RTarget *s, const GPtrArray *nvcc)
{
	GPtrArray *args = resolve_with_gencode((GPtrArray *)nvcc, s->project, s->t->lto ? GENCODE_LTO : GENCODE_COMPILE);
	if (s->seeded)
		g_ptr_array_add(args, g_strdup("-frandom-seed=" SEED_MARK));
	return args;
}

char *resolve_seed(const Config *c, const Target *t, const char *file)
{
	return g_strconcat(c->name, "/", t->name, ":", file, NULL);
}

/* ph for value in every step that names the TU's source: the host
 * preprocess, cudafe++, the host compile, each device preprocess and
 * cicc. */
static void pipe_subst(Pipeline *p, const char *ph, const char *value)
{
	GPtrArray *all[] = { p->host_pp, p->cudafe, p->host_cc };
	for (gsize i = 0; i < G_N_ELEMENTS(all); i++)
		argv_subst(all[i], ph, value);
	for (guint i = 0; i < p->archs->len; i++) {
		PipeArch *pa = g_ptr_array_index(p->archs, i);
		argv_subst(pa->pp, ph, value);
		argv_subst(pa->cicc, ph, value);
	}
}

static void seed_steps(const Config *c, RTarget *s)
{
	if (!s->seeded)
		return;
	char *v = resolve_seed(c, s->t, P_F);
	pipe_subst(s->pipe, SEED_MARK, v);
	g_free(v);
}

/* Which of the target's own flags makes nvcc --dryrun's output one that
 * pipeline.c does not understand: the first whose removal makes it
 * understood, or NULL. Only asked when the split failed. */
static char *culprit_flag(Resolved *x, RTarget *s)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(s->t->cuda_flags, w, NULL);
	char *found = NULL;
	for (guint i = 0; i < w->len && !found; i++) {
		const char *f = g_ptr_array_index(w, i);
		GPtrArray *args = dryrun_args(s, s->nvcc_args);
		for (guint k = 0; k < args->len; k++)
			if (strcmp(g_ptr_array_index(args, k), f) == 0) {
				g_ptr_array_remove_index(args, k);
				break;
			}
		char *out = toolkit_dryrun(x->tk, args, FALSE, NULL);
		g_ptr_array_free(args, TRUE);
		Pipeline *p = out ? pipeline_parse(out, NULL) : NULL;
		if (p)
			found = g_strdup(f);
		pipeline_free(p);
		g_free(out);
	}
	g_ptr_array_free(w, TRUE);
	return found;
}

static gboolean prepare_target(Resolved *x, Target *t, GError **err)
{
	RTarget *s = g_new0(RTarget, 1);
	s->t = t;
	s->includes = g_ptr_array_new_with_free_func(g_free);
	g_hash_table_insert(x->targets, t, s);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *visited = g_hash_table_new(NULL, NULL);
	collect_includes(x, t, s->includes, seen, visited, TRUE);
	g_hash_table_destroy(seen);
	g_hash_table_remove_all(visited);
	s->defines = g_ptr_array_new();
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	collect_defines(t, s->defines, seen, visited, TRUE);
	g_hash_table_destroy(seen);
	g_hash_table_destroy(visited);
	s->user_libs = g_ptr_array_new();
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	visited = g_hash_table_new(NULL, NULL);
	collect_user_libs(t, s->user_libs, seen, visited, FALSE);
	g_hash_table_destroy(visited);
	g_hash_table_destroy(seen);
	for (guint i = 0; i < t->sources->len; i++)
		s->has_cuda |= ((Source *)g_ptr_array_index(t->sources, i))->lang == LANG_CUDA;
	s->uses_toolkit = uses_toolkit_libs(x, t);
	s->links_cuda = uses_cuda(t) || s->uses_toolkit;
	if (!s->has_cuda)
		return !target_needs_dlink(t) || resolve_archs(x, s, err);

	if (!resolve_archs(x, s, err))
		return FALSE;
	if (!nvcc_args(x, s, err))
		return FALSE;

	SplitMode split = x->c->profile->split;
	s->tu = split == SPLIT_TU;
	s->seeded = !user_seeds(s->nvcc_args);
	if (!s->tu) {
		GPtrArray *args = dryrun_args(s, s->nvcc_args);
		GError *e = NULL;
		char *out = toolkit_dryrun(x->tk, args, FALSE, &e);
		g_ptr_array_free(args, TRUE);
		if (!out) {
			/* nvcc refused the flags: that is the user's to fix. */
			/* Located at the flags most likely to blame. */
			char *m = g_strdup(e->message + strlen("error: "));
			g_error_free(e);
			if (t->cuda_flags_loc.file)
				cg_error_loc(err, t->cuda_flags_loc.file, t->cuda_flags_loc.line, "%s", m);
			else if (x->c->flags_loc.file)
				cg_error_loc(err, x->c->flags_loc.file, x->c->flags_loc.line, "%s", m);
			else
				cg_error_at(err, t->loc.file, t->loc.line, "target '%s': %s", t->name, m);
			g_free(m);
			return FALSE;
		}
		s->pipe = pipeline_parse(out, &e);
		g_free(out);
		if (!s->pipe) {
			if (split == SPLIT_ARCH) {
				cg_error(err, "target '%s': split = arch, but %s", t->name, e->message + strlen("error: "));
				g_error_free(e);
				return FALSE;
			}
			/* one nvcc per TU: the code plain nvcc makes; setup
			 * says so once (GraphInfo.fallbacks) */
			char *flag = culprit_flag(x, s);
			g_ptr_array_add(x->fallbacks, g_strdup(t->name));
			g_ptr_array_add(x->fallbacks, flag ? flag : g_strdup(""));
			g_ptr_array_add(x->fallbacks, g_strdup(e->message + strlen("error: ")));
			g_error_free(e);
			s->tu = TRUE;
		}
	}
	if (s->pipe) {
		seed_steps(x->c, s);
		map_host_names(x, s);
	}
	if (s->pipe && !x->c->module_id_absolute)
		pipe_subst(s->pipe, P_C, P_F); /* relative ids: one path seeds both names (one variable) */
	if (s->pipe) {
		/* The arch whose stub the host compile takes: the first of the
		 * project set if built, so a subset build agrees with a full one. */
		const Arch *first = &g_array_index(s->project->archs, Arch, 0);
		const Arch *chosen = NULL;
		for (guint i = 0; i < s->build->archs->len; i++) {
			const Arch *a = &g_array_index(s->build->archs, Arch, i);
			if (a->num == first->num && a->suffix == first->suffix)
				chosen = a;
		}
		if (!chosen && s->build->archs->len)
			chosen = &g_array_index(s->build->archs, Arch, 0);
		if (chosen)
			s->stub_arch = arch_id(chosen);
	}
	return TRUE;
}

/* A tool the graph will run must exist now, not an hour into the build. */
static gboolean check_tool(const char *cmd, const char *what, const char *key, Loc loc,
			   const char *env, GError **err)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(cmd, w, NULL);
	gboolean ok = TRUE;
	if (w->len) {
		const char *prog = g_ptr_array_index(w, 0);
		/* the steps run in the build directory: a relative path with a
		 * '/' would mean another file there than here */
		if (strchr(prog, '/') && !g_path_is_absolute(prog)) {
			if (loc.file)
				cg_error_loc(err, loc.file, loc.line,
					     "the %s '%s' is a relative path, which the build (run in the build directory) "
					     "would not find: give an absolute path or a program on PATH ([toolchain] %s)",
					     what, prog, key);
			else
				cg_error(err, "the %s '%s' is a relative path, which the build (run in the build directory) "
					      "would not find: give an absolute path or a program on PATH", what, prog);
			g_ptr_array_free(w, TRUE);
			return FALSE;
		}
		char *p = g_find_program_in_path(prog);
		ok = p != NULL;
		g_free(p);
		if (!ok && loc.file)
			cg_error_loc(err, loc.file, loc.line, "cannot run the %s '%s' ([toolchain] %s)", what, prog, key);
		else if (!ok && env && g_strcmp0(g_getenv(env), cmd) == 0)
			cg_error(err, "cannot run the %s '%s' ($%s)", what, prog, env);
		else if (!ok)
			cg_error(err, "cannot run the %s '%s' (set [toolchain] %s)", what, prog, key);
	}
	g_ptr_array_free(w, TRUE);
	return ok;
}

static gboolean check_tools(Resolved *x, GError **err)
{
	gboolean c_src = FALSE, cxx_src = FALSE, links = FALSE, archives = FALSE, embeds = FALSE;
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, x->targets);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		RTarget *s = v;
		for (guint i = 0; i < s->t->sources->len; i++) {
			Lang l = ((Source *)g_ptr_array_index(s->t->sources, i))->lang;
			c_src |= l == LANG_C;
			cxx_src |= l == LANG_CXX;
		}
		links |= s->t->type == TGT_EXECUTABLE || s->t->type == TGT_SHARED;
		archives |= s->t->type == TGT_STATIC;
		embeds |= s->has_cuda && !s->tu;
	}
	const Config *c = x->c;
	return (!*c->launcher || check_tool(c->launcher, "compiler launcher", "launcher", c->launcher_loc, NULL, err)) &&
	       (!embeds || !*c->device_launcher ||
		check_tool(c->device_launcher, "device launcher", "device_launcher", c->device_launcher_loc, NULL, err)) &&
	       (!c_src || check_tool(x->tk->cc, "C compiler", "cc", c->cc_loc, "CC", err)) &&
	       (!(cxx_src || links) || check_tool(x->tk->cxx, "C++ compiler", "cxx", c->cxx_loc, "CXX", err)) &&
	       (!archives || check_tool(x->tk->ar, "archiver", "ar", c->ar_loc, NULL, err)) &&
	       (!embeds || check_tool(x->tk->objcopy, "objcopy", "objcopy", c->objcopy_loc, NULL, err));
}

static void rtarget_free(gpointer p)
{
	RTarget *s = p;
	archset_free(s->project);
	archset_free(s->build);
	pipeline_free(s->pipe);
	if (s->nvcc_args)
		g_ptr_array_free(s->nvcc_args, TRUE);
	g_ptr_array_free(s->includes, TRUE);
	if (s->defines)
		g_ptr_array_free(s->defines, TRUE);
	if (s->user_libs)
		g_ptr_array_free(s->user_libs, TRUE);
	g_free(s->stub_arch);
	g_free(s);
}

void resolved_free(Resolved *r)
{
	if (!r)
		return;
	g_ptr_array_free(r->order, TRUE);
	g_hash_table_destroy(r->targets);
	g_ptr_array_free(r->fallbacks, TRUE);
	g_hash_table_destroy(r->toolkit_libs);
	g_free(r->cudart_dir);
	g_free(r);
}

const RTarget *resolved_target(const Resolved *r, const Target *t)
{
	return g_hash_table_lookup(r->targets, t);
}

Resolved *resolve_project(const Config *c, Toolkit *tk, const char *builddir, int split_compile, GError **err)
{
	Resolved *x = g_new0(Resolved, 1);
	x->c = c;
	x->tk = tk;
	x->builddir = builddir;
	x->split_compile = split_compile;
	x->relative = g_str_has_prefix(builddir, c->srcdir) &&
		      (builddir[strlen(c->srcdir)] == '/' || strcmp(c->srcdir, "/") == 0);
	x->cudart_dir = g_strconcat(tk->root, "/targets/", tk->target, "/lib", NULL);
	x->order = config_target_order(c);
	x->targets = g_hash_table_new_full(NULL, NULL, NULL, rtarget_free);
	x->fallbacks = g_ptr_array_new_with_free_func(g_free);
	x->toolkit_libs = g_hash_table_new(g_str_hash, g_str_equal);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < x->order->len; i++)
		ok = prepare_target(x, g_ptr_array_index(x->order, i), err);
	if (ok) {
		GPtrArray *sets = g_ptr_array_new();
		for (guint i = 0; i < x->order->len; i++) {
			RTarget *s = g_hash_table_lookup(x->targets, g_ptr_array_index(x->order, i));
			if (s->project)
				g_ptr_array_add(sets, s->project);
		}
		ok = archset_check_selection(c->build_archs, sets, err);
		g_ptr_array_free(sets, TRUE);
	}
	if (ok)
		ok = check_tools(x, err);
	if (!ok) {
		resolved_free(x);
		return NULL;
	}
	return x;
}
