/* guess.c -- what a CUDA TU's edges are expected to cost before anything
 * is measured: its text scanned once (tuscan.h) through its target's
 * include directories, and planknobs.h's SCAN_COSTS applied; see
 * plan_int.h (pl_guess). */
#include "plan_int.h"

#include <stdlib.h>
#include <string.h>

#include "resolve.h"
#include "tuscan.h"
#include "util.h"

#define SROW(row, b, kf, u, k, un, g, gkf, gu, t, gt) row,
enum { SCAN_COSTS(SROW) S_COUNT };
#undef SROW
static const struct {
	double base, per_kfile, per_unit, per_kernel, per_unroll, gib, gib_per_kfile, gib_per_unit, per_tunit,
		gib_per_tunit;
} steps[S_COUNT] = {
#define SROW(row, b, kf, u, k, un, g, gkf, gu, t, gt) [row] = { b, kf, u, k, un, g, gkf, gu, t, gt },
	SCAN_COSTS(SROW)
#undef SROW
};

/* The thousands of files t reaches beyond cuda_runtime.h's. */
static double kfiles(const TuScan *t)
{
	return t->files > SCAN_BASE_FILES ? (t->files - SCAN_BASE_FILES) / 1000.0 : 0;
}

static double step_cpu(const TuScan *t, int k)
{
	/* (a TU's unrolls are in its template units when it has them) */
	return steps[k].base + steps[k].per_kfile * kfiles(t) + steps[k].per_unit * t->units +
	       steps[k].per_kernel * t->kernels + steps[k].per_unroll * (t->templated ? 0 : t->unrolls) +
	       steps[k].per_tunit * t->tunits;
}

static double step_gib(const TuScan *t, int k)
{
	return steps[k].gib + steps[k].gib_per_kfile * kfiles(t) + steps[k].gib_per_unit * t->units +
	       steps[k].gib_per_tunit * t->tunits;
}

/* -I DIR and -IDIR, -isystem DIR of flags (absolute, or relative to the
 * project), into dirs. */
static void flag_dirs(const Config *c, const char *flags, GPtrArray *dirs)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	if (flags && cg_split_words(flags, w, NULL))
		for (guint i = 0; i < w->len; i++) {
			const char *a = g_ptr_array_index(w, i), *d = NULL;
			if ((strcmp(a, "-I") == 0 || strcmp(a, "-isystem") == 0) && i + 1 < w->len)
				d = g_ptr_array_index(w, ++i);
			else if (g_str_has_prefix(a, "-I"))
				d = a + 2;
			if (d && *d)
				g_ptr_array_add(dirs, g_path_is_absolute(d) ? g_strdup(d) : g_build_filename(c->srcdir, d, NULL));
		}
	g_ptr_array_free(w, TRUE);
}

/* A CUDA TU: its target and source. */
typedef struct {
	const Target *t;
	const Source *src;
} TuRef;

/* Every CUDA TU of the project by its project-relative path (each is in
 * one target). */
static GHashTable *cuda_tus(const Config *c)
{
	GHashTable *tus = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	for (guint i = 0; i < c->targets->len; i++) {
		const Target *t = g_ptr_array_index(c->targets, i);
		for (guint k = 0; k < t->sources->len; k++) {
			const Source *src = g_ptr_array_index(t->sources, k);
			if (src->lang != LANG_CUDA)
				continue;
			TuRef *r = g_new(TuRef, 1);
			*r = (TuRef){ t, src };
			g_hash_table_insert(tus, src->rel, r);
		}
	}
	return tus;
}

static void add_dir(GPtrArray *dirs, char *d)
{
	if (g_file_test(d, G_FILE_TEST_IS_DIR))
		g_ptr_array_add(dirs, d);
	else
		g_free(d);
}

/* The first of version's directories under dir that exists: the full
 * version (Arch's, conda's "13.2.1") or its major (Debian's "12"). */
static char *version_dir(const char *dir, const char *full, const char *major)
{
	const char *const v[] = { full, major };
	for (guint i = 0; i < G_N_ELEMENTS(v); i++) {
		char *d = g_build_filename(dir, v[i], NULL);
		if (g_file_test(d, G_FILE_TEST_IS_DIR))
			return d;
		g_free(d);
	}
	return NULL;
}

/* The host compiler's own include directories, as GCC lays them out
 * under its prefix (the directory above its bin/): C++'s, the target's,
 * GCC's, then the system's (or a conda toolchain's sysroot). A compiler
 * laid out otherwise gives fewer (its TUs then look lighter than they
 * are). */
static void host_dirs(const Toolkit *tk, GPtrArray *dirs)
{
	if (!tk->host_cc || !*tk->host_cc || !tk->host_version || !g_ascii_isdigit(*tk->host_version))
		return;
	char *cc = g_path_is_absolute(tk->host_cc) ? g_strdup(tk->host_cc) : g_find_program_in_path(tk->host_cc);
	char *real = cc ? realpath(cc, NULL) : NULL;
	g_free(cc);
	if (!real)
		return;
	char *bin = g_path_get_dirname(real), *prefix = g_path_get_dirname(bin);
	free(real);
	g_free(bin);
	const char *full = tk->host_version;
	char *major = g_strndup(full, strspn(full, "0123456789"));
	char *gcc = g_build_filename(prefix, "lib", "gcc", NULL), *triplet = NULL, *gccver = NULL;
	GDir *d = g_dir_open(gcc, 0, NULL);
	for (const char *n; d && !triplet && (n = g_dir_read_name(d));) {
		char *t = g_build_filename(gcc, n, NULL);
		if ((gccver = version_dir(t, full, major)))
			triplet = g_strdup(n);
		g_free(t);
	}
	if (d)
		g_dir_close(d);
	char *inc = g_build_filename(prefix, "include", NULL);
	char *cxx = g_build_filename(inc, "c++", NULL), *cxxver = version_dir(cxx, full, major);
	if (!cxxver && triplet) { /* a conda toolchain: PREFIX/TRIPLET/include/c++/VERSION */
		char *t = g_build_filename(prefix, triplet, "include", "c++", NULL);
		cxxver = version_dir(t, full, major);
		g_free(t);
	}
	if (cxxver) {
		char *ver = g_path_get_basename(cxxver);
		add_dir(dirs, g_strdup(cxxver));
		if (triplet) {
			add_dir(dirs, g_build_filename(inc, triplet, "c++", ver, NULL));
			add_dir(dirs, g_build_filename(cxxver, triplet, NULL));
		}
		add_dir(dirs, g_build_filename(cxxver, "backward", NULL));
		g_free(ver);
	}
	if (gccver)
		add_dir(dirs, g_build_filename(gccver, "include", NULL));
	if (strcmp(prefix, "/usr") == 0)
		add_dir(dirs, g_strdup("/usr/local/include"));
	if (triplet) {
		add_dir(dirs, g_build_filename(inc, triplet, NULL));
		add_dir(dirs, g_build_filename(prefix, triplet, "sysroot", "usr", "include", NULL));
	}
	add_dir(dirs, g_strdup(inc));
	g_free(cxxver);
	g_free(cxx);
	g_free(inc);
	g_free(gccver);
	g_free(triplet);
	g_free(gcc);
	g_free(major);
	g_free(prefix);
}

void pl_guess_init(Plan *p, const Resolved *r)
{
	const Toolkit *tk = r->tk;
	p->scan_resolved = r;
	if (p->scan_dirs || !tk)
		return;
	p->scan_dirs = g_ptr_array_new_with_free_func(g_free);
	char *inc = g_build_filename(tk->root, "targets", tk->target ? tk->target : "", "include", NULL);
	if (!g_file_test(inc, G_FILE_TEST_IS_DIR)) {
		g_free(inc);
		inc = g_build_filename(tk->root, "include", NULL);
	}
	p->scan_implicit = g_build_filename(inc, "cuda_runtime.h", NULL);
	add_dir(p->scan_dirs, g_build_filename(inc, "cccl", NULL));
	g_ptr_array_insert(p->scan_dirs, 0, inc);
	host_dirs(tk, p->scan_dirs);
}

static void dirs_free(gpointer d)
{
	g_ptr_array_free(d, TRUE);
}

/* The tables of a plan's scans, made once (Plan.scans, scan_tus). */
static void scan_tables(Plan *p, const Config *c)
{
	if (p->scans)
		return;
	p->scans = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	p->scanner = tuscan_new();
	p->scan_tus = cuda_tus(c);
	p->scan_target_dirs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, dirs_free);
}

/* Where t's TUs' #includes are looked for: its -I directories as its
 * compiles get them (RTarget.includes: its own, then its dependencies'),
 * its flags' -I, then the system's (Plan.scan_dirs); made once per
 * target (Plan.scan_target_dirs). */
static const GPtrArray *target_dirs(Plan *p, const Config *c, const Target *t)
{
	GPtrArray *dirs = g_hash_table_lookup(p->scan_target_dirs, t);
	if (dirs)
		return dirs;
	dirs = g_ptr_array_new_with_free_func(g_free);
	const Resolved *r = p->scan_resolved;
	const RTarget *rt = r ? g_hash_table_lookup(r->targets, t) : NULL;
	for (guint i = 0; rt && i < rt->includes->len; i++) {
		const char *d = g_ptr_array_index(rt->includes, i); /* (relative to the build directory) */
		char *abs = g_path_is_absolute(d) ? g_strdup(d) : g_build_filename(r->builddir, d, NULL);
		g_ptr_array_add(dirs, cg_path_norm(abs));
		g_free(abs);
	}
	flag_dirs(c, t->cuda_flags, dirs);
	for (guint i = 0; p->scan_dirs && i < p->scan_dirs->len; i++)
		g_ptr_array_add(dirs, g_strdup(g_ptr_array_index(p->scan_dirs, i)));
	g_hash_table_insert(p->scan_target_dirs, (gpointer)t, dirs);
	return dirs;
}

/* ref's TU scanned, into Plan.scans. */
static const TuScan *scan_ref(Plan *p, const Config *c, const TuRef *ref)
{
	const GPtrArray *dirs = target_dirs(p, c, ref->t);
	TuScan *s = g_new(TuScan, 1);
	tuscan_tu(p->scanner, ref->src->abs, p->scan_implicit, (const char *const *)dirs->pdata, dirs->len,
		  p->scan_dirs ? p->scan_dirs->len : 0, s);
	g_hash_table_insert(p->scans, ref->src->rel, s);
	return s;
}

typedef struct {
	Plan *p;
	const Config *c;
} Prefetch;

static gpointer prefetch(gpointer data)
{
	Prefetch *w = data;
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, w->p->scan_tus);
	while (g_hash_table_iter_next(&it, NULL, &v))
		scan_ref(w->p, w->c, v);
	g_free(w);
	return NULL;
}

void pl_guess_prefetch(Plan *p, const Config *c)
{
	if (p->scan_thread || !p->scan_dirs)
		return;
	scan_tables(p, c);
	Prefetch *w = g_new(Prefetch, 1);
	*w = (Prefetch){ p, c };
	p->scan_thread = g_thread_new("cugen-scan", prefetch, w);
}

void pl_guess_join(Plan *p)
{
	if (p->scan_thread)
		g_thread_join(g_steal_pointer(&p->scan_thread));
}

/* The scan of e's CUDA TU, made once per plan, or NULL. */
static const TuScan *scan_of(Plan *p, const Config *c, const Edge *e)
{
	if (!e->source || !e->target)
		return NULL;
	pl_guess_join(p);
	scan_tables(p, c);
	const TuRef *ref = g_hash_table_lookup(p->scan_tus, e->source);
	if (!ref || strcmp(ref->t->name, e->target) != 0)
		return NULL;
	const TuScan *t = g_hash_table_lookup(p->scans, e->source);
	return t ? t : scan_ref(p, c, ref);
}

gboolean pl_guess(Plan *p, const Config *c, const Edge *e, int archs, int threads, double *cpu, double *rss,
		  double *pre)
{
	switch (e->kind) {
	case EK_DEV: case EK_CICC: case EK_DEVPP: case EK_STUB: case EK_FE: case EK_HOST: case EK_NVCC:
		break;
	default:
		return FALSE;
	}
	if (e->kind == EK_STUB && e->rule && e->rule->copy)
		return FALSE;
	const TuScan *t = scan_of(p, c, e);
	if (!t)
		return FALSE;
	double ptxas = step_cpu(t, S_PTXAS) * (e->arch && strcmp(e->arch, "sm_75") == 0 ? SCAN_PTXAS_SM75 : 1);
	double dev = step_cpu(t, S_PP) + step_cpu(t, S_CICC) + step_cpu(t, S_PTXAS);
	*pre = step_cpu(t, S_PP);
	*cpu = 0;
	*rss = step_gib(t, S_CICC);
	switch (e->kind) {
	case EK_DEVPP:
		*cpu = *pre;
		*rss = step_gib(t, S_PP);
		break;
	case EK_DEV:
		if (e->tools & TOOL_CICC)
			*cpu += step_cpu(t, S_CICC);
		if (e->tools & TOOL_PTXAS)
			*cpu += ptxas;
		if (!(e->tools & TOOL_CICC))
			*rss = step_gib(t, S_PTXAS);
		break;
	case EK_CICC:
		*cpu = step_cpu(t, S_CICC);
		break;
	case EK_STUB:
		*cpu = step_cpu(t, S_CICC) * SCAN_STUB_CICC;
		break;
	case EK_FE:
		*cpu = step_cpu(t, S_FE);
		*rss = step_gib(t, S_FE);
		break;
	case EK_HOST:
		*cpu = step_cpu(t, S_HOST);
		*rss = step_gib(t, S_HOST);
		break;
	default: /* EK_NVCC: every arch's device compile, the front end, the host compile */
		*cpu = dev * MAX(archs, 1) + step_cpu(t, S_FE) + step_cpu(t, S_HOST);
		*rss *= MAX(threads, 1);
		break;
	}
	*rss *= GiB;
	p->scanned++;
	return TRUE;
}

guint pl_scans_heavy(const Plan *p, guint *tus)
{
	guint heavy = 0;
	*tus = 0;
	if (!p->scans || p->scan_thread)
		return 0;
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, p->scans);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		(*tus)++;
		heavy += ((const TuScan *)v)->heavy;
	}
	return heavy;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *plan_scans(const Plan *p)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	if (!p->scans || p->scan_thread)
		return out;
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, p->scans);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		char *d = tuscan_describe(v);
		g_ptr_array_add(out, g_strdup_printf("%s: %s", (const char *)k, d));
		g_free(d);
	}
	g_ptr_array_sort(out, cmp_str);
	return out;
}
