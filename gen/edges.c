/* edges.c -- the project model as build edges; see edges.h.
 *
 * File naming: every TU's outputs share a prefix O = obj/TARGET/SRC, where
 * SRC is the source's project-relative path with characters outside
 * [A-Za-z0-9._+-/] replaced (so O needs no quoting anywhere):
 *   O.cudafe1.cpp O.module_id        fe
 *   O.sm_80.cubin O.compute_90.ptx   dev, one edge per arch
 *   O.80.stub.c                      the host stub each dev edge's cicc writes
 *   O.cudafe1.stub.c                 stub: one arch's stub, written only when
 *                                    it changes (restat), so the arch it
 *                                    comes from may change freely
 *   O.host.o O.fatbin.c              host (against a placeholder fatbin)
 *   O.fatbin O.o                     fatbin: fatbinary, then objcopy puts it
 *                                    into the host object (the final object)
 * Header tracking: the fe edge records the host view's headers (deps =
 * gcc); each dev edge records only the headers its device view adds
 * (`cugen depdiff`), since it already reruns whenever fe reruns. This
 * keeps .ninja_deps at about one header list per TU.
 */
#include "edges.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pipeline.h"
#include "resolve.h"
#include "shard.h"
#include "util.h"

/* Per target, for one graph: what resolve.c found (borrowed, not
 * changed: every field from t to stub_arch), then what this graph makes. */
typedef struct {
	Target *t;
	ArchSet *project;      /* the target's pinned arch set */
	ArchSet *build;        /* the subset built */
	Pipeline *pipe;        /* NULL without CUDA sources or in tu mode */
	gboolean tu;           /* one nvcc per TU */
	gboolean has_cuda;     /* own CUDA sources */
	gboolean uses_toolkit; /* it or a dependency names a toolkit library (uses_toolkit_libs) */
	gboolean links_cuda;   /* it or a dependency has CUDA code, or links one of
			        * the toolkit's libraries (libs = cublas): its host
			        * TUs get the toolkit's headers, its link cudart */
	GPtrArray *nvcc_args;  /* flag set without gencodes (dryrun, tu, compdb) */
	GPtrArray *includes;   /* -I paths relative to the build dir (own + inherited) */
	GPtrArray *defines;    /* NAME[=VALUE] (own + inherited public ones; borrowed) */
	GPtrArray *user_libs;  /* libs to link it with (collect_user_libs; borrowed) */
	GPtrArray *objects;    /* own object files */
	GPtrArray *dl_items;   /* per own object, in order: its per-arch device-link
			        * object prefix (rdc TU), "" (host-only) or NULL (whole) */
	GHashTable *dl_archives; /* static rdc library: arch id -> per-arch archive */
	char *output;          /* library or executable, NULL for object targets */
	Edge *out_edge;        /* the edge that makes it */
	char *stub_arch;       /* id of the arch whose dev edge writes the stub */
	Dlink *dlink;          /* device link of an executable or shared library */
	GHashTable *rules;     /* "fe", "fatbin", "host", "syntax" -> Rule*: rendered once */
	char *compdb_prefix;   /* nvcc command for compile_commands.json, less the file */
	struct TArch *archs;   /* per built arch (cuda_tu_arch), made on the first TU */
	guint narchs;
} TState;

/* What every TU of a target repeats per arch: looked up once. */
typedef struct TArch {
	char *id;              /* "80" (arch_id) */
	const char *name;      /* "sm_80" or "compute_80" (interned) */
	PipeArch *pa;
	Rule *dev, *pp, *stub; /* rendered on the first TU that needs them */
	Rule *dev_split;       /* dev with the planner's tail split */
	Rule *cicc[2], *ptxas[2]; /* ptxas edges: cicc and ptxas apart (1: split) */
	GPtrArray *outs;       /* x->arch_outs' list for name */
} TArch;

typedef struct {
	const Resolved *r;
	Config *c;
	Toolkit *tk;
	const EdgeOptions *opt;
	Graph *g;
	GHashTable *state;     /* Target* -> TState* */
	GHashTable *arch_outs; /* "sm_80" -> GPtrArray* of device outputs (interned) */
	GHashTable *objnames;  /* O prefixes in use */
	char *nvvm_shim;       /* BUILDDIR-relative nvvm dir for nvlink -dlto, or NULL */
	gboolean shim_made;
	char *cache;           /* the device compile cache directory, or NULL */
	char *cugen_q;
	GraphInfo *info;
	GHashTable *data_outs;  /* data copies made (project-relative paths) */
} Ctx;

static TState *tstate_new(const RTarget *rt)
{
	TState *s = g_new0(TState, 1);
	s->t = rt->t;
	s->project = rt->project;
	s->build = rt->build;
	s->pipe = rt->pipe;
	s->tu = rt->tu;
	s->has_cuda = rt->has_cuda;
	s->uses_toolkit = rt->uses_toolkit;
	s->links_cuda = rt->links_cuda;
	s->nvcc_args = rt->nvcc_args;
	s->includes = rt->includes;
	s->defines = rt->defines;
	s->user_libs = rt->user_libs;
	s->stub_arch = g_strdup(rt->stub_arch);
	s->objects = g_ptr_array_new_with_free_func(g_free);
	s->dl_items = g_ptr_array_new_with_free_func(g_free);
	s->rules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return s;
}

static void tstate_free(gpointer p)
{
	TState *s = p;
	g_ptr_array_free(s->objects, TRUE);
	g_ptr_array_free(s->dl_items, TRUE);
	if (s->dl_archives)
		g_hash_table_destroy(s->dl_archives);
	g_free(s->output);
	g_free(s->stub_arch);
	dlink_free(s->dlink);
	g_hash_table_destroy(s->rules);
	g_free(s->compdb_prefix);
	for (guint i = 0; i < s->narchs; i++)
		g_free(s->archs[i].id);
	g_free(s->archs);
	g_free(s);
}

static char *rel(Ctx *x, const char *abs)
{
	return resolve_rel(x->r, abs);
}

static GPtrArray *nvcc_head(Ctx *x, const char *mode)
{
	return resolve_nvcc_head(x->r, mode);
}

/* ---- rendering templates into rule commands ---- */

static void append_literal(GString *out, const char *s, gsize n)
{
	if (!n)
		return;
	char *piece = g_strndup(s, n);
	char *q = cg_ninja_sh_quote(piece);
	g_string_append(out, q);
	g_free(q);
	g_free(piece);
}

/* The placeholder at p (a mark, a known name, a mark), or NULL: a mark
 * that is not one (a path may hold the byte) is a literal byte. */
static const char *placeholder(const char *p, gsize *len)
{
	static const char *const names[] = { "O", "F", "C", "IN", "OUT", "STUB", "REG", "IDENT" };
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		gsize n = strlen(names[i]);
		if (strncmp(p + 1, names[i], n) == 0 && p[1 + n] == PH) {
			*len = n + 2;
			return names[i];
		}
	}
	return NULL;
}

/* One argument of a template (pipeline.h): placeholders become ninja
 * variables, the rest is quoted. */
static void render_template_arg(GString *out, const char *arg)
{
	if (out->len && out->str[out->len - 1] != ' ')
		g_string_append_c(out, ' ');
	const char *p = arg, *lit = arg;
	/* literal text is quoted in runs, up to each placeholder */
	while ((p = strchr(p, PH))) {
		gsize len = 0;
		const char *name = placeholder(p, &len);
		if (!name) {
			p++;
			continue;
		}
		append_literal(out, lit, p - lit);
		if (strcmp(name, "IN") == 0)
			g_string_append(out, "${in}");
		else if (strcmp(name, "OUT") == 0)
			g_string_append(out, "${out}");
		else
			g_string_append_printf(out, "${%s}", name);
		p += len;
		lit = p;
	}
	append_literal(out, lit, strlen(lit));
}

/* One literal argument (a tool, a flag, a path: never a placeholder, even
 * where it holds the mark byte). */
static void render_arg(GString *out, const char *arg)
{
	if (out->len && out->str[out->len - 1] != ' ')
		g_string_append_c(out, ' ');
	append_literal(out, arg, strlen(arg));
}

static void render(GString *out, GPtrArray *argv)
{
	for (guint i = 0; i < argv->len; i++)
		render_template_arg(out, g_ptr_array_index(argv, i));
}

static void render_words(GString *out, const char *words)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(words, w, NULL);
	for (guint i = 0; i < w->len; i++)
		render_arg(out, g_ptr_array_index(w, i));
	g_ptr_array_free(w, TRUE);
}

/* ---- outputs written whole ----
 * The tools write their outputs in place (O_TRUNC on the final name):
 * killed mid-write, they leave a partial file under the output's name. ninja
 * trusts it when its log still has the output's entry (the output was
 * deleted by hand or by `ninja -t clean` and this was its rebuild), make
 * whenever it is newer than its prerequisites. So every edge has its tools
 * write each declared output (explicit and implicit) under NAME.tmp and, as
 * its last step, renames them into place: a name ninja or make sees holds a
 * whole output or nothing. Names the tools embed in their outputs stay the
 * real ones (the host stub's line markers, ar's member names). */
#define TMP ".tmp"

static void publish(GString *c, const char *path)
{
	g_string_append_printf(c, " && mv -f %s" TMP " %s", path, path);
}

/* Prefix a step with `cugen exec`, which logs its peak memory and CPU
 * time to BUILDDIR/.cugen/edges.log for the planner. */
#define EDGE_LOG ".cugen/edges.log"

/* This program, quoted for the shell (rules call it). */
static const char *cugen_q(Ctx *x)
{
	if (!x->cugen_q)
		x->cugen_q = cg_sh_quote(x->opt->cugen);
	return x->cugen_q;
}

static void measured(Ctx *x, GString *c)
{
	if (c->len && c->str[c->len - 1] != ' ')
		g_string_append_c(c, ' ');
	char *q = cg_sh_quote(x->opt->cugen);
	g_string_append_printf(c, "%s exec " EDGE_LOG " ${out} --", q);
	g_free(q);
}

/* ---- names ---- */

static char *obj_prefix(Ctx *x, Target *t, Source *s)
{
	GString *o = g_string_sized_new(16 + strlen(t->name) + strlen(s->rel));
	g_string_append(o, "obj/");
	g_string_append(o, t->name);
	g_string_append_c(o, '/');
	/* each component of the source's path: ".." as "__", other
	 * characters than [A-Za-z0-9._+-] as '_' */
	for (const char *p = s->rel; *p;) {
		const char *end = strchrnul(p, '/');
		if (end - p == 2 && p[0] == '.' && p[1] == '.')
			g_string_append(o, "__");
		else
			for (const char *c = p; c < end; c++)
				g_string_append_c(o, (g_ascii_isalnum(*c) || strchr("._+-", *c)) ? *c : '_');
		if (!*end)
			break;
		g_string_append_c(o, '/');
		p = end + 1;
	}
	/* Two sources that mangle alike: number the later one. */
	char *base = g_string_free(o, FALSE);
	char *name = g_strdup(base);
	for (int n = 2; g_hash_table_contains(x->objnames, name); n++) {
		g_free(name);
		name = g_strdup_printf("%s.%d", base, n);
	}
	g_free(base);
	g_hash_table_add(x->objnames, g_strdup(name));
	return name;
}

/* The list of arch's device outputs (x->arch_outs), made on first use. */
static GPtrArray *arch_outs(Ctx *x, const char *arch)
{
	GPtrArray *v = g_hash_table_lookup(x->arch_outs, arch);
	if (!v) {
		v = g_ptr_array_new();
		g_hash_table_insert(x->arch_outs, g_strdup(arch), v);
	}
	return v;
}

/* ---- CUDA TUs, split = arch ---- */

/* The cache's direct mode around an edge's command:
 *   { cugen cache direct-get KIND DIR FILES -- KEY VARS -- OUTS ||
 *     { COMMAND && cugen cache direct-put KIND <the same>; }; }
 * KEY hashes the command as written (its variables' values are VARS) with
 * the toolkit's and host compiler's versions; FILES (the source, ...) are
 * hashed by content; OUTS start with the depfile of the preprocess, whose
 * headers the entry records (see cache.c). */
static char *direct_wrap(Ctx *x, const char *kind, const char *command, const char *files, const char *outs)
{
	char *keytext = g_strdup_printf("direct %s\n%s\n%s %s\n%s", kind, command, x->tk->version,
					x->tk->host_version, x->tk->target);
	char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, keytext, -1);
	char *qdir = cg_sh_quote(x->cache);
	char *req = g_strdup_printf("%s %s %s -- %s ${in} ${out} ${O} ${F}%s -- %s", kind, qdir, files, key,
				    x->c->module_id_absolute ? " ${C}" : "", outs);
	char *w = g_strdup_printf("{ %s cache direct-get %s || { %s && %s cache direct-put %s; }; }", cugen_q(x), req,
				  command, cugen_q(x), req);
	g_free(req);
	g_free(qdir);
	g_free(key);
	g_free(keytext);
	return w;
}

/* One arch's device preprocess (pa->pp, its output renamed from `from`
 * to `to` when from is given) writing the depfile DEPFILE, measured. */
static void render_device_pp(Ctx *x, GString *c, PipeArch *pa, const char *from, const char *to,
			     const char *depfile)
{
	GPtrArray *pp = argv_copy(pa->pp);
	if (from)
		argv_subst(pp, from, to);
	const char *md[] = { "-MD", "-MF", depfile, "-MT", P_OUT };
	for (gsize i = 0; i < G_N_ELEMENTS(md); i++)
		g_ptr_array_add(pp, g_strdup(md[i]));
	measured(x, c);
	render(c, pp);
	g_ptr_array_free(pp, TRUE);
}

static Rule *make_cu_fe_rule(Ctx *x, TState *s)
{
	GString *c = g_string_new(NULL);
	GPtrArray *pp = argv_copy(s->pipe->host_pp);
	/* -MP: a deleted header is no error for make's -include */
	const char *md[] = { "-MD", "-MP", "-MF", P_OUT ".d", "-MT", P_OUT };
	for (gsize i = 0; i < G_N_ELEMENTS(md); i++)
		g_ptr_array_add(pp, g_strdup(md[i]));
	measured(x, c);
	render(c, pp);
	g_ptr_array_free(pp, TRUE);
	g_string_append(c, " && ");
	measured(x, c);
	GPtrArray *fe = argv_copy(s->pipe->cudafe);
	argv_subst(fe, P_O "/fe.cpp", P_O "/fe.cpp" TMP);
	render(c, fe);
	g_ptr_array_free(fe, TRUE);
	g_string_append(c, " && cp ${out}.d ${O}/hdeps && rm -f ${O}/host.ii");
	if (x->cache) {
		/* direct mode (cache.c): restore fe.cpp, the module id and the
		 * depfiles without running the host preprocess and cudafe++ */
		char *wrapped = direct_wrap(x, "fe", c->str, "${in}", "${out}.d ${O}/fe.cpp" TMP " ${O}/id ${O}/hdeps");
		g_string_assign(c, wrapped);
		g_free(wrapped);
	}
	g_string_append(c, " && mv -f ${O}/fe.cpp" TMP " ${out}");
	Rule *r = graph_rule(x->g, RULE_FE, c->str, "CUDA fe ${out}", "${out}.d", "gcc", "host");
	g_string_free(c, TRUE);
	return r;
}

/* The device view's preprocess as its own edge (EdgeOptions.pp_edges):
 * it needs no module id, so it runs while the front end does. Its depfile
 * names every header of the view; the full one stays for the shard
 * manifest, as the device edge's would. */
static Rule *cu_pp_rule(Ctx *x, PipeArch *pa)
{
	GString *c = g_string_new(NULL);
	char *ii = g_strdup_printf(P_O "/%s.ii", pa->id);
	char *tmp = g_strconcat(ii, TMP, NULL);
	char *full = g_strdup_printf(P_O "/%s.full.d", pa->id);
	render_device_pp(x, c, pa, ii, tmp, full);
	g_string_append_printf(c, " && cp ${O}/%s.full.d ${out}.d", pa->id);
	publish(c, "${out}");
	char *stem = g_strdup_printf(RULE_PP "_%s", pa->id);
	char *desc = g_strdup_printf("CUDA pp %s ${out}", pa->id);
	Rule *r = graph_rule(x->g, stem, c->str, desc, "${out}.d", "gcc", "device");
	g_free(desc);
	g_free(stem);
	g_free(full);
	g_free(tmp);
	g_free(ii);
	g_string_free(c, TRUE);
	return r;
}

static char *dev_command(Ctx *x, PipeArch *pa, const Arch *a, gboolean split, int sc);

/* The device edge's rule. With pp edges it starts at cicc; with sc > 1
 * (the planner's tail split) cicc and ptxas run with --split-compile sc.
 * Its canonical text (the shard manifest's rule hash) is still the whole
 * edge's without either, so shards agree whichever way each machine
 * split it; the manifest records a split apart (split_compile). */
static Rule *cu_dev_rule(Ctx *x, TState *s, PipeArch *pa, const Arch *a, int sc)
{
	gboolean split = x->opt->pp_edges && !x->cache;
	char *cmd = dev_command(x, pa, a, split, sc);
	char *stem = sc > 1 ? g_strdup_printf(RULE_DEV "_%s_split%d", pa->id, sc) : g_strdup_printf(RULE_DEV "_%s", pa->id);
	char *name = arch_image_name(a);
	char *desc = sc > 1 ? g_strdup_printf("CUDA %s ${out} (--split-compile %d)", name, sc)
			    : g_strdup_printf("CUDA %s ${out}", name);
	char *canon = split || sc > 1 ? dev_command(x, pa, a, FALSE, 0) : NULL;
	Rule *r = graph_rule_canon(x->g, stem, cmd, canon, desc, split ? NULL : "${out}.d", split ? NULL : "gcc",
				   "device");
	r->split_compile = sc > 1 ? sc : 0;
	g_free(canon);
	g_free(desc);
	g_free(name);
	g_free(stem);
	g_free(cmd);
	return r;
}

/* What a device edge runs before cicc without pp edges: the device
 * view's preprocess with its full depfile D/ID.full.d and, with
 * depdiff, the edge's own depfile derived from it (the headers the host
 * view lacks). */
static void render_device_view(Ctx *x, GString *c, PipeArch *pa, gboolean depdiff)
{
	char *full = g_strdup_printf(P_O "/%s.full.d", pa->id);
	render_device_pp(x, c, pa, NULL, NULL, full);
	g_free(full);
	g_string_append(c, " && ");
	if (depdiff)
		g_string_append_printf(c, "%s depdiff ${O}/hdeps ${O}/%s.full.d ${out}.d ${out} && ", cugen_q(x),
				       pa->id);
}

/* cicc's words for arch pa, writing its stub as D/ID.stub.c; with sc > 1
 * -split-compile sc, as nvcc --split-compile passes it. */
static GPtrArray *cicc_words(PipeArch *pa, int sc)
{
	GPtrArray *cicc = argv_copy(pa->cicc);
	if (sc > 1) {
		g_ptr_array_insert(cicc, 1, g_strdup("-split-compile"));
		g_ptr_array_insert(cicc, 2, g_strdup_printf("%d", sc));
	}
	char *stub = g_strdup_printf(P_O "/%s.stub.c", pa->id);
	argv_subst(cicc, P_STUB, stub);
	g_free(stub);
	return cicc;
}

/* ptxas's words for arch pa, writing D/sm_ID.cubin under its temporary
 * name; with sc > 1 -split-compile=sc. */
static GPtrArray *ptxas_words(PipeArch *pa, int sc)
{
	GPtrArray *ptxas = argv_copy(pa->ptxas);
	if (sc > 1)
		g_ptr_array_insert(ptxas, 1, g_strdup_printf("-split-compile=%d", sc));
	char *cubin = g_strdup_printf(P_O "/sm_%s.cubin", pa->id);
	char *tmp = g_strconcat(cubin, TMP, NULL);
	argv_subst(ptxas, cubin, tmp);
	g_free(tmp);
	g_free(cubin);
	return ptxas;
}

/* With ptxas edges (EdgeOptions.ptxas_edges) a device edge is two: cicc
 * alone, writing D/compute_ID.ptx (and the arch's stub), then ptxas
 * alone, reading it. Smaller edges pack tighter, above all at the end of
 * a build, and the same commands run (the PTX stays: it is the cicc
 * edge's output). cicc's edge does what the device edge did before cicc
 * (the device preprocess and its depfile, without pp edges); the ptxas
 * edge's canonical text is the whole device edge's, as the shard
 * manifest hashes it. sc > 1: the tail split, in both. */
static Rule *cu_cicc_rule(Ctx *x, PipeArch *pa, int sc)
{
	const gboolean split = x->opt->pp_edges;
	GString *c = g_string_new(NULL);
	if (!split)
		render_device_view(x, c, pa, TRUE);
	GPtrArray *cicc = cicc_words(pa, sc);
	char *ptx = g_strdup_printf(P_O "/compute_%s.ptx", pa->id);
	char *f = g_strconcat(ptx, TMP, NULL);
	argv_subst(cicc, ptx, f);
	g_free(f);
	g_free(ptx);
	measured(x, c);
	render(c, cicc);
	g_ptr_array_free(cicc, TRUE);
	g_string_append_printf(c, " && rm -f ${O}/%s.c ${O}/%s.gpu", pa->id, pa->id);
	if (!split)
		g_string_append_printf(c, " ${O}/%s.ii", pa->id);
	publish(c, "${out}");
	char *stem = sc > 1 ? g_strdup_printf(RULE_CICC "_%s_split%d", pa->id, sc) : g_strdup_printf(RULE_CICC "_%s", pa->id);
	char *desc = sc > 1 ? g_strdup_printf("CUDA cicc %s ${out} (--split-compile %d)", pa->id, sc)
			    : g_strdup_printf("CUDA cicc %s ${out}", pa->id);
	Rule *r = graph_rule(x->g, stem, c->str, desc, split ? NULL : "${out}.d", split ? NULL : "gcc", "device");
	r->split_compile = sc > 1 ? sc : 0;
	g_free(desc);
	g_free(stem);
	g_string_free(c, TRUE);
	return r;
}

static Rule *cu_ptxas_rule(Ctx *x, PipeArch *pa, const Arch *a, int sc)
{
	GString *c = g_string_new(NULL);
	GPtrArray *ptxas = ptxas_words(pa, sc);
	measured(x, c);
	render(c, ptxas);
	g_ptr_array_free(ptxas, TRUE);
	publish(c, "${out}");
	char *stem = sc > 1 ? g_strdup_printf(RULE_PTXAS "_%s_split%d", pa->id, sc) : g_strdup_printf(RULE_PTXAS "_%s", pa->id);
	char *name = arch_image_name(a);
	char *desc = sc > 1 ? g_strdup_printf("CUDA %s ${out} (--split-compile %d)", name, sc)
			    : g_strdup_printf("CUDA %s ${out}", name);
	char *canon = dev_command(x, pa, a, FALSE, 0);
	Rule *r = graph_rule_canon(x->g, stem, c->str, canon, desc, NULL, NULL, "device");
	r->split_compile = sc > 1 ? sc : 0;
	g_free(canon);
	g_free(desc);
	g_free(name);
	g_free(stem);
	g_string_free(c, TRUE);
	return r;
}

static char *dev_command(Ctx *x, PipeArch *pa, const Arch *a, gboolean split, int sc)
{
	GString *c = g_string_new(NULL);
	char *depdiff = g_strdup_printf("%s depdiff ${O}/hdeps ${O}/%s.full.d ${out}.d ${out}", cugen_q(x), pa->id);
	if (!split) /* (the cache's direct mode runs depdiff after it, below) */
		render_device_view(x, c, pa, !x->cache);
	GPtrArray *cicc = cicc_words(pa, sc);
	/* the declared outputs under temporary names (the PTX also where
	 * ptxas reads it), renamed into place at the end */
	GPtrArray *ptxas = pa->ptxas ? ptxas_words(pa, sc) : NULL;
	GPtrArray *declared = g_ptr_array_new_with_free_func(g_free);
	if (ptxas) {
		g_ptr_array_add(declared, g_strdup_printf("${O}/sm_%s.cubin", pa->id));
	}
	if (!ptxas || a->ptx) {
		const char *ext = pa->lto ? "ltoir" : "ptx";
		char *ir = g_strdup_printf(P_O "/compute_%s.%s", pa->id, ext);
		char *tmp = g_strconcat(ir, TMP, NULL);
		argv_subst(cicc, ir, tmp);
		if (ptxas)
			argv_subst(ptxas, ir, tmp);
		g_free(tmp);
		g_free(ir);
		g_ptr_array_add(declared, g_strdup_printf("${O}/compute_%s.%s", pa->id, ext));
	}
	GString *compile = g_string_new(NULL);
	measured(x, compile);
	render(compile, cicc);
	g_ptr_array_free(cicc, TRUE);
	if (ptxas) {
		g_string_append(compile, " &&");
		measured(x, compile);
		render(compile, ptxas);
		g_ptr_array_free(ptxas, TRUE);
	}
	if (x->cache) {
		/* the cache: what cicc and ptxas make, keyed by the preprocessed
		 * input, the module id and everything in the commands */
		GString *outs = g_string_new(NULL);
		for (guint i = 0; i < declared->len; i++)
			g_string_append_printf(outs, " %s" TMP, (char *)g_ptr_array_index(declared, i));
		g_string_append_printf(outs, " ${O}/%s.stub.c", pa->id);
		char *keytext = g_strdup_printf("%s\n%s\n%s %s\n%s", compile->str, pa->id,
						x->tk->version, x->tk->host_version, x->tk->target);
		char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, keytext, -1);
		char *qdir = cg_sh_quote(x->cache);
		char *req = g_strdup_printf("%s ${O}/%s.ii ${O}/id -- %s ${F} %s --%s", qdir, pa->id, key,
					    x->c->module_id_absolute ? "${C}" : "", outs->str);
		g_string_append_printf(c, "{ %s cache get %s || { %s && %s cache put %s; }; }", cugen_q(x), req,
				       compile->str, cugen_q(x), req);
		/* direct mode: the outputs and the device view's depfile (the
		 * edge's own depfile is derived from it below) without the
		 * device preprocess; depdiff runs after it, hit or miss */
		char *dout = g_strdup_printf("${O}/%s.full.d%s", pa->id, outs->str);
		char *wrapped = direct_wrap(x, "dev", c->str, "${in} ${O}/id", dout);
		g_string_assign(c, wrapped);
		g_string_append_printf(c, " && %s", depdiff);
		g_free(wrapped);
		g_free(dout);
		g_free(req);
		g_free(qdir);
		g_free(key);
		g_free(keytext);
		g_string_free(outs, TRUE);
	} else {
		g_string_append(c, compile->str);
	}
	g_free(depdiff);
	g_string_free(compile, TRUE);
	/* the device view stays when a pp edge made it (its output) */
	if (split)
		g_string_append_printf(c, " && rm -f ${O}/%s.c ${O}/%s.gpu", pa->id, pa->id);
	else
		g_string_append_printf(c, " && rm -f ${O}/%s.ii ${O}/%s.c ${O}/%s.gpu", pa->id, pa->id, pa->id);
	if (pa->ptxas && !a->ptx)
		g_string_append_printf(c, " ${O}/compute_%s.ptx", pa->id);
	for (guint i = 0; i < declared->len; i++)
		publish(c, g_ptr_array_index(declared, i));
	g_ptr_array_free(declared, TRUE);
	return g_string_free(c, FALSE);
}

static Rule *cu_stub_rule(Ctx *x, const char *id)
{
	char *cugen = cg_sh_quote(x->opt->cugen);
	char *cmd = g_strdup_printf("%s exec " EDGE_LOG " ${out} -- %s stub ${O}/%s.stub.c ${out}", cugen, cugen, id);
	char *stem = g_strdup_printf(RULE_STUB "_%s", id);
	Rule *r = graph_rule(x->g, stem, cmd, "CUDA stub ${out}", NULL, NULL, NULL);
	g_free(stem);
	r->restat = TRUE;
	r->copy = TRUE;
	g_free(cmd);
	g_free(cugen);
	return r;
}

/* Whether the syntax-only stub edge reads the stub arch's device view
 * from that arch's pp edge (D/ID.ii) instead of preprocessing it again. */
static gboolean stub_from_pp(const Ctx *x)
{
	return x->opt->syntax_stub && x->opt->pp_edges && !x->cache;
}

/* The host stub from a cheap edge: the stub arch's device preprocess and
 * cicc --device-syntax-only (as nvcc -fdevice-syntax-only runs it), so the
 * host compile need not wait for a full device compile (DESIGN.md). With
 * pp edges the view is the stub arch's pp edge's output (the same gcc -E
 * command): cicc reads it, and the edge needs no depfile, since that
 * output changes with every header of the view. */
static Rule *make_cu_syntax_stub_rule(Ctx *x, TState *s)
{
	PipeArch *pa = pipeline_arch(s->pipe, s->stub_arch);
	GString *c = g_string_new(NULL);
	char *ii = g_strdup_printf(P_O "/%s.ii", pa->id);
	const gboolean pp = stub_from_pp(x);
	if (!pp) {
		render_device_pp(x, c, pa, ii, P_O "/syntax.ii", P_O "/syntax.full.d");
		char *cugen = cg_sh_quote(x->opt->cugen);
		g_string_append_printf(c, " && %s depdiff ${O}/hdeps ${O}/syntax.full.d ${out}.d ${out} && ",
				       cugen);
		g_free(cugen);
	}
	GPtrArray *cicc = argv_copy(pa->cicc);
	/* cicc names the stub in its line markers: `cugen stub` writes it
	 * under its own name (through a temporary file and a rename) */
	argv_subst(cicc, P_STUB, P_O "/syntax.stub.c");
	if (!pp)
		argv_subst(cicc, ii, P_O "/syntax.ii");
	char *f = g_strdup_printf(P_O "/%s.c", pa->id);
	argv_subst(cicc, f, P_O "/syntax.c");
	g_free(f);
	f = g_strdup_printf(P_O "/%s.gpu", pa->id);
	argv_subst(cicc, f, P_O "/syntax.gpu");
	g_free(f);
	f = g_strdup_printf(P_O "/compute_%s.%s", pa->id, pa->lto ? "ltoir" : "ptx");
	argv_subst(cicc, f, P_O "/syntax.ptx");
	g_free(f);
	/* nvcc -fdevice-syntax-only puts it before -tused */
	for (guint i = 0; i < cicc->len; i++)
		if (strcmp(g_ptr_array_index(cicc, i), "-tused") == 0) {
			g_ptr_array_insert(cicc, i, g_strdup("--device-syntax-only"));
			break;
		}
	measured(x, c);
	render(c, cicc);
	g_ptr_array_free(cicc, TRUE);
	g_string_append_printf(c, " && rm -f %s${O}/syntax.c ${O}/syntax.gpu ${O}/syntax.ptx && ",
			       pp ? "" : "${O}/syntax.ii ");
	/* `cugen stub` leaves an unchanged stub alone. Reading the pp
	 * output the rule has no depfile and is restat, as a device edge's
	 * stub copy is: an edit that leaves the stub as it was (a device-only
	 * header) does not recompile the host side. With its own preprocess
	 * the stub gets a new time (its depfile names the stub, which make's
	 * form of restat cannot use; make.c). */
	g_string_append_printf(c, "%s stub ${O}/syntax.stub.c ${out} && rm -f ${O}/syntax.stub.c%s", cugen_q(x),
			       pp ? "" : " && touch ${out}");
	g_free(ii);
	Rule *r = graph_rule(x->g, RULE_STUB "_syntax", c->str, "CUDA stub ${out}", pp ? NULL : "${out}.d",
			     pp ? NULL : "gcc", "device");
	r->restat = pp;
	g_string_free(c, TRUE);
	return r;
}

static Rule *make_cu_fatbin_rule(Ctx *x, TState *s)
{
	GString *c = g_string_new(NULL);
	measured(x, c);
	render(c, s->pipe->fatbin);
	for (guint i = 0; i < s->pipe->images->len; i++) {
		const char *img = g_ptr_array_index(s->pipe->images, i);
		const char *id = strchr(img, ':') + 1;
		gboolean built = FALSE;
		for (guint k = 0; k < s->build->archs->len; k++) {
			char *bid = arch_id(&g_array_index(s->build->archs, Arch, k));
			built |= strcmp(bid, id) == 0;
			g_free(bid);
		}
		if (!built)
			continue;
		if (g_str_has_prefix(img, "elf:"))
			g_string_append_printf(c, " --image3=kind=elf,sm=%s,file=${O}/sm_%s.cubin", id, id);
		else if (g_str_has_prefix(img, "ptx:"))
			g_string_append_printf(c, " --image3=kind=ptx,sm=%s,file=${O}/compute_%s.ptx", id, id);
		else
			g_string_append_printf(c, " --image3=kind=nvvm,sm=%s,file=${O}/compute_%s.ltoir", id, id);
	}
	/* the fatbin goes straight into the host object: one cheap edge
	 * (fewer edges for ninja to load, and for ninja >= 1.12, which counts
	 * edges on a chain before it has timings, no extra link in the chain) */
	g_string_append(c, " --create=${O}/fatbin &&");
	measured(x, c);
	render_arg(c, x->c->objcopy);
	g_string_append_printf(c, " --update-section %s=${O}/fatbin ${O}/host.o ${out}" TMP,
			       s->pipe->rdc ? "__nv_relfatbin" : ".nv_fatbin");
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_FATBIN, c->str, "CUDA fatbin ${out}", NULL, NULL, "host");
	g_string_free(c, TRUE);
	return r;
}

static Rule *make_cu_host_rule(Ctx *x, TState *s)
{
	GString *c = g_string_new(NULL);
	render_arg(c, g_ptr_array_index(s->pipe->fatbin, 0));
	g_string_append(c, " -64");
	if (s->pipe->rdc)
		g_string_append(c, " --device-c");
	g_string_append(c, " --create=${O}/empty.fatbin --embedded-fatbin=${O}/fatbin.c &&");
	measured(x, c);
	if (*x->c->launcher)
		render_words(c, x->c->launcher);
	GPtrArray *cc = argv_copy(s->pipe->host_cc);
	argv_subst(cc, P_OUT, P_OUT TMP);
	render(c, cc);
	g_ptr_array_free(cc, TRUE);
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_HOST, c->str, "CUDA host ${out}", NULL, NULL, "host");
	g_string_free(c, TRUE);
	return r;
}

/* rdc: per TU per arch an object holding only that arch's relocatable
 * image (the host object with __nv_relfatbin replaced), so each arch's
 * nvlink reads nothing of the other archs and adding an arch does not
 * relink the others. */
static void device_link_objects(Ctx *x, TState *s, Source *src, const char *O, const char *D, const char *file)
{
	for (guint i = 0; i < s->build->archs->len; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		if (!a->sass)
			continue;
		char *id = arch_id(a);
		PipeArch *pa = pipeline_arch(s->pipe, id);
		GString *c = g_string_new(NULL);
		measured(x, c);
		render(c, s->pipe->fatbin);
		if (pa->lto)
			g_string_append_printf(c, " --image3=kind=nvvm,sm=%s,file=${O}/compute_%s.ltoir", id, id);
		else
			g_string_append_printf(c, " --image3=kind=elf,sm=%s,file=${O}/sm_%s.cubin", id, id);
		g_string_append_printf(c, " --create=${O}/sm_%s.fatbin &&", id);
		measured(x, c);
		render_arg(c, x->c->objcopy);
		g_string_append_printf(c, " --update-section __nv_relfatbin=${O}/sm_%s.fatbin ${O}/host.o ${out}" TMP, id);
		publish(c, "${out}");
		char *stem = g_strdup_printf(RULE_DLOBJ "_%s", id);
		Rule *r = graph_rule(x->g, stem, c->str, "CUDA dlink object ${out}", NULL, NULL, "host");
		g_free(stem);
		g_string_free(c, TRUE);
		Edge *e = graph_edge(x->g, EK_DLOBJ, r);
		e->target = s->t->name;
		e->source = src->rel;
		{ char *an = g_strdup_printf("sm_%s", id); edge_arch(e, an); g_free(an); }
		/* (a unique base name: the per-arch archives hold these) */
		char *out = g_strdup_printf("%s.sm_%s.dlink.o", O, id);
		char *img = pa->lto ? g_strdup_printf("%s/compute_%s.ltoir", D, id)
				    : g_strdup_printf("%s/sm_%s.cubin", D, id);
		char *host = g_strconcat(D, "/host.o", NULL);
		edge_out(e, out);
		edge_in(e, img);
		edge_in(e, host);
		edge_var(e, "O", D);
		if (argv_has(s->pipe->fatbin, P_F))
			edge_var_interned(e, graph_intern(x->g, "F"), file);
		g_free(host);
		g_free(img);
		g_free(out);
		g_free(id);
	}
}

/* What seeds the module id and the names in the device code: nvcc passes
 * the source path as given (--orig_src_file_name) and its real path
 * (--orig_src_path_name). module_id = absolute does exactly that for the
 * path in the build commands; relative uses the project-relative path for
 * both, so neither the checkout nor the build directory matters. */
static void tu_names(Ctx *x, Source *src, const char *in, char **file, char **canon)
{
	if (x->c->module_id_absolute) {
		char *r = realpath(src->abs, NULL);
		*canon = cg_sh_quote(r ? r : src->abs);
		free(r);
		*file = cg_sh_quote(in);
	} else {
		*canon = cg_sh_quote(src->rel);
		*file = cg_sh_quote(src->rel);
	}
}

/* A TU's names, interned: its directory D (O.p), file and canon
 * (tu_names) and the variables' names. */
typedef struct {
	const char *D, *file, *canon;
	const char *vO, *vF, *vC;
} TuVars;

/* O on every edge of the TU; F (and C, which only absolute module ids
 * keep apart from F) on every edge that runs cudafe++ or cicc. */
static void set_tu_vars(Ctx *x, Edge *e, const TuVars *v)
{
	edge_var_interned(e, v->vO, v->D);
	if (e->kind == EK_FE || e->kind == EK_DEV || e->kind == EK_CICC || e->kind == EK_DEVPP ||
	    e->kind == EK_STUB) {
		edge_var_interned(e, v->vF, v->file);
		if (x->c->module_id_absolute)
			edge_var_interned(e, v->vC, v->canon);
	}
}

static void compdb_nvcc(Ctx *x, TState *s, const char *in, const char *out)
{
	if (!s->compdb_prefix) {
		/* the same nvcc command for every TU of the target */
		GString *c = g_string_new(NULL);
		cg_sh_append(c, x->tk->nvcc);
		GPtrArray *args = resolve_with_gencode(s->nvcc_args, s->build, s->t->lto ? GENCODE_LTO : GENCODE_COMPILE);
		for (guint i = 0; i < args->len; i++)
			cg_sh_append(c, g_ptr_array_index(args, i));
		g_ptr_array_free(args, TRUE);
		s->compdb_prefix = g_string_free(c, FALSE);
	}
	GString *c = g_string_new(NULL);
	cg_sh_append(c, in);
	cg_sh_append(c, "-o");
	cg_sh_append(c, out);
	graph_compdb(x->g, in, out, s->compdb_prefix, c->str);
	g_string_free(c, TRUE);
}

/* Rules are the same for every TU of a target: render each once. */
static Rule *cached_rule(TState *s, const char *key)
{
	return g_hash_table_lookup(s->rules, key);
}

static Rule *keep_rule(TState *s, const char *key, Rule *r)
{
	g_hash_table_insert(s->rules, g_strdup(key), r);
	return r;
}

#define CACHED(s, key, make) (cached_rule(s, key) ? cached_rule(s, key) : keep_rule(s, key, make))

static Rule *cu_fe_rule(Ctx *x, TState *s) { return CACHED(s, "fe", make_cu_fe_rule(x, s)); }
static Rule *cu_fatbin_rule(Ctx *x, TState *s) { return CACHED(s, "fatbin", make_cu_fatbin_rule(x, s)); }
static Rule *cu_host_rule(Ctx *x, TState *s) { return CACHED(s, "host", make_cu_host_rule(x, s)); }
static Rule *cu_syntax_stub_rule(Ctx *x, TState *s) { return CACHED(s, "syntax", make_cu_syntax_stub_rule(x, s)); }


static TArch *tu_archs(Ctx *x, TState *s)
{
	if (!s->archs) {
		s->narchs = s->build->archs->len;
		s->archs = g_new0(TArch, MAX(s->narchs, 1));
		for (guint i = 0; i < s->build->archs->len; i++) {
			const Arch *a = &g_array_index(s->build->archs, Arch, i);
			TArch *ta = &s->archs[i];
			ta->id = arch_id(a);
			char *an = arch_image_name(a);
			ta->name = graph_intern(x->g, an);
			g_free(an);
			ta->pa = pipeline_arch(s->pipe, ta->id);
			ta->outs = arch_outs(x, ta->name);
		}
	}
	return s->archs;
}

/* D/NAME, interned */
static const char *tu_path(Ctx *x, GString *buf, const char *D, const char *a, const char *b, const char *c)
{
	g_string_truncate(buf, 0);
	cg_put(buf, D, graph_str(D)->len);
	cg_put(buf, "/", 1);
	cg_puts(buf, a);
	if (b)
		cg_puts(buf, b);
	if (c)
		cg_puts(buf, c);
	return graph_intern(x->g, buf->str);
}

static void cuda_tu_arch(Ctx *x, TState *s, Source *src, const char *in, const char *O)
{
	/* O.o is the object; O.p/ holds the TU's intermediate files */
	Graph *g = x->g;
	GString *buf = g_string_new(O);
	g_string_append(buf, ".p");
	TuVars v = { graph_intern(g, buf->str), NULL, NULL,
		     graph_intern(g, "O"), graph_intern(g, "F"), graph_intern(g, "C") };
	const char *D = v.D;
	{
		char *file, *canon;
		tu_names(x, src, in, &file, &canon);
		v.file = graph_intern(g, file);
		v.canon = graph_intern(g, canon);
		g_free(canon);
		g_free(file);
	}
	const char *iin = graph_intern(g, in);
	const char *fe_out = tu_path(x, buf, D, "fe.cpp", NULL, NULL);
	Edge *fe = graph_edge(g, EK_FE, cu_fe_rule(x, s));
	fe->target = s->t->name;
	fe->source = src->rel;
	edge_out_interned(fe, fe_out);
	edge_in_interned(fe, iin);
	set_tu_vars(x, fe, &v);

	Edge *fb = graph_edge(g, EK_FATBIN, cu_fatbin_rule(x, s));
	fb->target = s->t->name;
	fb->source = src->rel;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(fb, obj);
	edge_var_interned(fb, v.vO, D);
	if (argv_has(s->pipe->fatbin, P_F))
		edge_var_interned(fb, v.vF, v.file);
	const char *stub = tu_path(x, buf, D, "stub.c", NULL, NULL);

	TArch *archs = tu_archs(x, s);
	for (guint i = 0; i < s->build->archs->len; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		TArch *ta = &archs[i];
		const char *id = ta->id;
		PipeArch *pa = ta->pa;
		const char *out = pa->lto ? tu_path(x, buf, D, "compute_", id, ".ltoir")
				  : a->sass ? tu_path(x, buf, D, "sm_", id, ".cubin")
					    : tu_path(x, buf, D, "compute_", id, ".ptx");
		const gboolean tail = x->opt->tail_split > 1 && x->opt->split_edges && !pa->lto && !x->cache &&
				      g_hash_table_contains(x->opt->split_edges, out);
		/* ptxas edges: cicc (ce) then ptxas (d), which reads its PTX */
		const gboolean px = x->opt->ptxas_edges && !x->cache && !pa->lto && a->sass && pa->ptxas;
		Rule *dr;
		if (px) {
			if (!ta->ptxas[tail])
				ta->ptxas[tail] = cu_ptxas_rule(x, pa, a, tail ? x->opt->tail_split : 0);
			dr = ta->ptxas[tail];
		} else if (tail) {
			if (!ta->dev_split)
				ta->dev_split = cu_dev_rule(x, s, pa, a, x->opt->tail_split);
			dr = ta->dev_split;
		} else {
			if (!ta->dev)
				ta->dev = cu_dev_rule(x, s, pa, a, 0);
			dr = ta->dev;
		}
		Edge *d = graph_edge(g, EK_DEV, dr);
		d->target = s->t->name;
		d->source = src->rel;
		d->arch = ta->name;
		edge_out_interned(d, out);
		edge_in_interned(fb, out);
		g_ptr_array_add(ta->outs, (gpointer)out);
		Edge *ce = d; /* the edge that runs cicc */
		const char *ptx = a->sass && (a->ptx || px) ? tu_path(x, buf, D, "compute_", id, ".ptx") : NULL;
		if (px) {
			if (!ta->cicc[tail])
				ta->cicc[tail] = cu_cicc_rule(x, pa, tail ? x->opt->tail_split : 0);
			ce = graph_edge(g, EK_CICC, ta->cicc[tail]);
			ce->target = s->t->name;
			ce->source = src->rel;
			ce->arch = ta->name;
			edge_out_interned(ce, ptx);
			edge_in_interned(d, ptx);
			if (a->ptx)
				d->image_in = ptx;
		}
		if (ptx && a->ptx) {
			if (!px)
				edge_implicit_out(d, ptx);
			edge_in_interned(fb, ptx);
			g_ptr_array_add(ta->outs, (gpointer)ptx);
		}
		/* Every arch's cicc writes a stub (D/ID.stub.c, not declared:
		 * declared outputs never depend on which arch feeds the host,
		 * or a change of it would rerun device edges). The stub edge
		 * follows the chosen arch's cicc edge and copies its stub. */
		if (strcmp(id, s->stub_arch) == 0 && !x->opt->syntax_stub) {
			if (!ta->stub)
				ta->stub = cu_stub_rule(x, id);
			Edge *se = graph_edge(g, EK_STUB, ta->stub);
			se->target = s->t->name;
			se->source = src->rel;
			edge_out_interned(se, stub);
			edge_in_interned(se, EDGE_AT(ce->outs, 0));
			edge_var_interned(se, v.vO, D);
		}
		edge_in_interned(ce, iin);
		if (x->opt->pp_edges && !x->cache) {
			if (!ta->pp)
				ta->pp = cu_pp_rule(x, pa);
			Edge *pe = graph_edge(g, EK_DEVPP, ta->pp);
			pe->target = s->t->name;
			pe->source = src->rel;
			pe->arch = d->arch;
			const char *ii = tu_path(x, buf, D, id, ".ii", NULL);
			edge_out_interned(pe, ii);
			edge_in_interned(pe, iin);
			set_tu_vars(x, pe, &v);
			edge_implicit_in_interned(ce, ii);
		}
		edge_implicit_in_interned(ce, fe_out);
		set_tu_vars(x, ce, &v);
		if (ce != d)
			set_tu_vars(x, d, &v);
	}

	if (x->opt->syntax_stub && s->stub_arch) {
		Edge *se = graph_edge(g, EK_STUB, cu_syntax_stub_rule(x, s));
		se->target = s->t->name;
		se->source = src->rel;
		edge_out_interned(se, stub);
		edge_in_interned(se, iin);
		edge_implicit_in_interned(se, fe_out);
		if (stub_from_pp(x))
			edge_implicit_in_interned(se, tu_path(x, buf, D, s->stub_arch, ".ii", NULL));
		set_tu_vars(x, se, &v);
	}

	Edge *h = graph_edge(g, EK_HOST, cu_host_rule(x, s));
	h->target = s->t->name;
	h->source = src->rel;
	const char *host = tu_path(x, buf, D, "host.o", NULL, NULL);
	edge_out_interned(h, host);
	edge_in_interned(fb, host);
	edge_in_interned(h, fe_out);
	if (s->stub_arch)
		edge_implicit_in_interned(h, stub);
	set_tu_vars(x, h, &v);
	if (x->opt->host_rank) {
		/* host.o -> host.rank1 -> host.rank2 ||-> the fatbin edge: ninja
		 * (from 1.12) then counts as many edges after the host compile
		 * as after a cicc edge, and breaks the tie in file order */
		Rule *stamp = graph_rule(g, RULE_RANK, "touch ${out}", "stamp ${out}", NULL, NULL, NULL);
		const char *prev = host;
		for (int k = 1; k <= 2; k++) {
			Edge *r = graph_edge(g, EK_RANK, stamp);
			r->target = s->t->name;
			r->source = src->rel;
			const char *out = tu_path(x, buf, D, k == 1 ? "host.rank1" : "host.rank2", NULL, NULL);
			edge_out_interned(r, out);
			edge_in_interned(r, prev);
			prev = out;
		}
		edge_order_in(fb, prev);
	}

	g_ptr_array_add(s->objects, obj);
	g_ptr_array_add(s->dl_items, s->pipe->rdc ? g_strdup(O) : NULL);
	if (s->pipe->rdc)
		device_link_objects(x, s, src, O, D, v.file);
	compdb_nvcc(x, s, in, obj);
	g_string_free(buf, TRUE);
}

/* ---- CUDA TUs, split = tu ---- */

static void cuda_tu_whole(Ctx *x, TState *s, Source *src, const char *in, const char *O)
{
	GString *c = g_string_new(NULL);
	measured(x, c);
	if (*x->c->launcher)
		render_words(c, x->c->launcher);
	render_arg(c, x->tk->nvcc);
	GPtrArray *args = resolve_with_gencode(s->nvcc_args, s->build, s->t->lto ? GENCODE_LTO : GENCODE_COMPILE);
	if (!archset_equal(s->build, s->project)) {
		/* keep the pinned list when building a subset (SPEC §2) */
		GString *list = g_string_new(NULL);
		for (guint i = 0; i < s->project->archs->len; i++) {
			int n = g_array_index(s->project->archs, Arch, i).num * 10;
			char *item = g_strdup_printf("%d", n);
			if (!strstr(list->str, item))
				g_string_append_printf(list, "%s%s", list->len ? "\\," : "", item);
			g_free(item);
		}
		g_ptr_array_add(args, g_strdup("-U__CUDA_ARCH_LIST__"));
		g_ptr_array_add(args, g_strdup_printf("-D__CUDA_ARCH_LIST__=%s", list->str));
		g_string_free(list, TRUE);
	}
	if (s->t->threads >= 0)
		/* the user's own --threads (it does not change the code) */
		g_ptr_array_add(args, g_strdup_printf("--threads=%d", s->t->threads));
	else if (x->opt->threads > 1)
		g_ptr_array_add(args, g_strdup_printf("--threads=%d", x->opt->threads));
	for (guint i = 0; i < args->len; i++)
		render_arg(c, g_ptr_array_index(args, i));
	g_ptr_array_free(args, TRUE);
	g_string_append(c, " -MD -MP -MF ${out}.d -MT ${out} ${in} -o ${out}" TMP);
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_NVCC, c->str, "CUDA nvcc ${out}", "${out}.d", "gcc", "device");
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_NVCC, r);
	e->target = s->t->name;
	e->source = src->rel;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(e, obj);
	edge_in(e, in);
	g_ptr_array_add(s->objects, obj);
	/* an rdc object from one nvcc call carries every arch: no per-arch
	 * device link objects, nvlink reads the object itself */
	g_ptr_array_add(s->dl_items, s->t->mode == MODE_RDC ? g_strdup("=") : NULL);
	compdb_nvcc(x, s, in, obj);
}

/* ---- host C/C++ ---- */

static void host_tu(Ctx *x, TState *s, Source *src, const char *in, const char *O)
{
	Target *t = s->t;
	gboolean cxx = src->lang == LANG_CXX;
	GString *c = g_string_new(NULL);
	if (*x->c->launcher)
		render_words(c, x->c->launcher);
	render_words(c, cxx ? x->c->cxx : x->c->cc);
	render_words(c, cxx ? t->cxxflags : t->cflags);
	if (t->pic)
		render_arg(c, "-fPIC");
	for (guint i = 0; i < s->includes->len; i++) {
		char *f = g_strconcat("-I", (char *)g_ptr_array_index(s->includes, i), NULL);
		render_arg(c, f);
		g_free(f);
	}
	if (s->links_cuda) {
		/* host code calling the CUDA runtime needs its headers */
		char *f = g_strconcat("-I", x->tk->root, "/targets/",
				      x->tk->target,
				      "/include", NULL);
		render_arg(c, f);
		g_free(f);
	}
	for (guint i = 0; i < s->defines->len; i++) {
		char *f = g_strconcat("-D", (char *)g_ptr_array_index(s->defines, i), NULL);
		render_arg(c, f);
		g_free(f);
	}
	GString *m = g_string_new(NULL);
	measured(x, m);
	/* (-MT: the depfile names the output, not its temporary name) */
	char *rule_cmd = g_strconcat(m->str, " ", c->str, " -MD -MP -MF ${out}.d -MT ${out} -c ${in} -o ${out}" TMP
				     " && mv -f ${out}" TMP " ${out}", NULL);
	g_string_free(m, TRUE);
	g_string_append(c, " -MD -MP -MF ${out}.d -c ${in} -o ${out}");
	Rule *r = graph_rule(x->g, cxx ? RULE_CXX : RULE_CC, rule_cmd, cxx ? "CXX ${out}" : "CC ${out}",
			     "${out}.d", "gcc", "host");
	Edge *e = graph_edge(x->g, cxx ? EK_CXX : EK_CC, r);
	e->target = t->name;
	e->source = src->rel;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(e, obj);
	edge_in(e, in);
	/* compile_commands.json: the compiler command, without cugen exec */
	Rule plain = { .command = c->str };
	e->rule = &plain;
	char *full = edge_command(e);
	e->rule = r;
	graph_compdb(x->g, in, obj, full, NULL);
	g_free(full);
	g_ptr_array_add(s->objects, obj);
	g_ptr_array_add(s->dl_items, g_strdup(""));
	g_free(rule_cmd);
	g_string_free(c, TRUE);
}

/* ---- archives and links ---- */


/* Objects of t and of the object targets it depends on (transitively). */
static void link_objects(Ctx *x, Target *t, GPtrArray *out, GHashTable *seen)
{
	if (g_hash_table_contains(seen, t))
		return;
	g_hash_table_add(seen, t);
	TState *s = g_hash_table_lookup(x->state, t);
	for (guint i = 0; i < s->objects->len; i++)
		g_ptr_array_add(out, g_strdup(g_ptr_array_index(s->objects, i)));
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		if (d->type == TGT_OBJECT)
			link_objects(x, d, out, seen);
	}
}

/* nvlink inputs for one arch: t's objects and those of its object
 * dependencies, each rdc TU as its per-arch device-link object. */
static void dlink_objects(Ctx *x, Target *t, const char *id, GPtrArray *out, GHashTable *seen)
{
	if (g_hash_table_contains(seen, t))
		return;
	g_hash_table_add(seen, t);
	TState *s = g_hash_table_lookup(x->state, t);
	for (guint i = 0; i < s->objects->len; i++) {
		const char *item = g_ptr_array_index(s->dl_items, i);
		if (!item)
			continue; /* whole-program CUDA: nothing to device-link */
		if (*item && strcmp(item, "=") != 0)
			g_ptr_array_add(out, g_strdup_printf("%s.sm_%s.dlink.o", item, id));
		else
			g_ptr_array_add(out, g_strdup(g_ptr_array_index(s->objects, i)));
	}
	for (guint i = 0; i < t->deps->len; i++) {
		Target *d = g_ptr_array_index(t->deps, i);
		if (d->type == TGT_OBJECT)
			dlink_objects(x, d, id, out, seen);
	}
}

/* The static archive rule: written under a temporary name and renamed
 * (the members keep their names: ar records ${in}'s). */
static Rule *ar_rule(Ctx *x)
{
	GString *c = g_string_new("rm -f ${out}" TMP " &&");
	measured(x, c);
	render_words(c, x->c->ar);
	g_string_append(c, " crs ${out}" TMP " ${in}");
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_AR, c->str, "AR ${out}", NULL, NULL, "link");
	g_string_free(c, TRUE);
	return r;
}

/* A static library of rdc objects gets, per arch, an archive of their
 * per-arch device-link objects for nvlink (archive semantics kept). */
static void dlink_archives(Ctx *x, TState *s)
{
	if (!s->build)
		return;
	for (guint i = 0; i < s->build->archs->len; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		if (!a->sass)
			continue;
		char *id = arch_id(a);
		GPtrArray *objs = g_ptr_array_new_with_free_func(g_free);
		GHashTable *seen = g_hash_table_new(NULL, NULL);
		dlink_objects(x, s->t, id, objs, seen);
		g_hash_table_destroy(seen);
		gboolean any = FALSE;
		for (guint k = 0; k < objs->len; k++)
			any |= g_str_has_suffix(g_ptr_array_index(objs, k), ".dlink.o");
		if (any) {
			Edge *e = graph_edge(x->g, EK_AR, ar_rule(x));
			e->target = s->t->name;
			{ char *an = g_strdup_printf("sm_%s", id); edge_arch(e, an); g_free(an); }
			char *out = g_strdup_printf("obj/%s/lib%s.sm_%s.dlink.a", s->t->name, s->t->name, id);
			edge_out(e, out);
			for (guint k = 0; k < objs->len; k++)
				edge_in(e, g_ptr_array_index(objs, k));
			if (!s->dl_archives)
				s->dl_archives = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
			g_hash_table_insert(s->dl_archives, g_strdup(id), out);
		}
		g_ptr_array_free(objs, TRUE);
		g_free(id);
	}
}

/* Libraries to link, dependents before their dependencies. */
/* (a depth-first walk, the dependencies taken last to first, records
 * each library after all it depends on; the caller reverses that: each
 * library then comes before what it uses, as a static link needs, and
 * siblings keep the order deps lists them in) */
static void link_libs(Ctx *x, Target *t, GPtrArray *order, GHashTable *seen, GHashTable *visited)
{
	for (guint i = t->deps->len; i-- > 0;) {
		Target *d = g_ptr_array_index(t->deps, i);
		/* a dependency walked before added all it reaches already */
		if (!g_hash_table_add(visited, d))
			continue;
		link_libs(x, d, order, seen, visited);
		if ((d->type == TGT_STATIC || d->type == TGT_SHARED) && !g_hash_table_contains(seen, d)) {
			g_hash_table_add(seen, d);
			g_ptr_array_add(order, d);
		}
	}
}

/* A libs entry on a command line: -lNAME, or a library file's path. */
static char *lib_arg(Ctx *x, const char *lib)
{
	return g_path_is_absolute(lib) ? rel(x, lib) : g_strconcat("-l", lib, NULL);
}

/* What nvlink gets of the user's libraries: the -L directories of the
 * target's ldflags, then its libraries (as the host link gets them). */
static GPtrArray *user_link_args(Ctx *x, TState *s)
{
	Target *t = s->t;
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	cg_split_words(t->ldflags, w, NULL);
	for (guint i = 0; i < w->len; i++) {
		const char *a = g_ptr_array_index(w, i);
		if (strcmp(a, "-L") == 0 && i + 1 < w->len)
			g_ptr_array_add(out, g_strconcat("-L", (char *)g_ptr_array_index(w, ++i), NULL));
		else if (g_str_has_prefix(a, "-L") && a[2])
			g_ptr_array_add(out, g_strdup(a));
	}
	g_ptr_array_free(w, TRUE);
	for (guint i = 0; i < s->user_libs->len; i++)
		g_ptr_array_add(out, lib_arg(x, g_ptr_array_index(s->user_libs, i)));
	return out;
}

/* Library files named in libs are inputs of edge e (a changed library
 * relinks). */
static void lib_file_deps(Ctx *x, TState *s, Edge *e)
{
	for (guint i = 0; i < s->user_libs->len; i++)
		if (g_path_is_absolute(g_ptr_array_index(s->user_libs, i))) {
			char *r = rel(x, g_ptr_array_index(s->user_libs, i));
			edge_implicit_in(e, r);
			g_free(r);
		}
}

/* The directory nvlink -dlto loads lib64/libnvvm.so from. Some toolkits
 * (pip-assembled ones) keep libnvvm.so elsewhere; then a build edge makes a
 * directory of links in BUILDDIR/.cugen/nvvm. */
static char *nvvm_dir(Ctx *x, GError **err)
{
	char *std = g_build_filename(x->tk->root, "nvvm", NULL);
	char *lib = g_build_filename(std, "lib64", "libnvvm.so", NULL);
	gboolean ok = g_file_test(lib, G_FILE_TEST_EXISTS);
	g_free(lib);
	if (ok)
		return std;
	const char *places[] = { "lib64", "lib", "targets/x86_64-linux/lib", NULL };
	char *found = NULL;
	for (int i = 0; places[i] && !found; i++) {
		char *p = g_build_filename(x->tk->root, places[i], "libnvvm.so", NULL);
		if (g_file_test(p, G_FILE_TEST_EXISTS))
			found = p;
		else
			g_free(p);
	}
	if (!found) {
		cg_error(err, "lto = yes: libnvvm.so is not in this CUDA toolkit (looked in %s/nvvm/lib64, lib64, lib); "
			      "nvlink -dlto needs it", x->tk->root);
		g_free(std);
		return NULL;
	}
	const char *shim = ".cugen/nvvm";
	if (!x->shim_made) {
		/* the declared output, a link (made whole or not at all), last */
		GString *c = g_string_new("rm -rf .cugen/nvvm && mkdir -p .cugen/nvvm/lib64 && ln -s");
		char *dev = g_build_filename(std, "libdevice", NULL);
		render_arg(c, dev);
		g_free(dev);
		g_string_append(c, " .cugen/nvvm/libdevice && ln -s");
		render_arg(c, found);
		g_string_append(c, " .cugen/nvvm/lib64/libnvvm.so");
		Rule *r = graph_rule(x->g, "nvvm_dir", c->str, "CUDA libnvvm links for nvlink -dlto", NULL, NULL, NULL);
		g_string_free(c, TRUE);
		Edge *e = graph_edge(x->g, EK_DLHOST, r);
		edge_out(e, ".cugen/nvvm/lib64/libnvvm.so");
		edge_in(e, found);
		x->shim_made = TRUE;
	}
	g_free(found);
	g_free(std);
	return g_strdup(shim);
}

static GPtrArray *dlink_args(Ctx *x, TState *s, gboolean lto)
{
	GPtrArray *a = nvcc_head(x, "-dlink");
	if (lto)
		g_ptr_array_add(a, g_strdup("-dlto"));
	g_ptr_array_add(a, g_strdup_printf("-std=%s", s->t->std));
	archset_gencode(s->project, GENCODE_LINK, a);
	resolve_target_flags(a, s->t);
	return a;
}

/* nvlink per arch, fatbinary -link, and link.stub: the device link of an
 * executable or shared library (CMake's CUDA_RESOLVE_DEVICE_SYMBOLS).
 * Its inputs are the objects and static libraries the host link uses.
 * Returns the object to link, or NULL with err set. */
static char *device_link(Ctx *x, TState *s, GPtrArray *objs, GPtrArray *libs, GError **err)
{
	Target *t = s->t;
	gboolean lto = target_has_lto(t);
	GPtrArray *args = dlink_args(x, s, lto);
	GError *e = NULL;
	char *text = toolkit_dryrun(x->tk, args, TRUE, &e);
	g_ptr_array_free(args, TRUE);
	if (!text) {
		cg_error_at(err, t->loc.file, t->loc.line, "target '%s': device link: %s", t->name,
			    e->message + strlen("error: "));
		g_error_free(e);
		return NULL;
	}
	s->dlink = dlink_parse(text, &e);
	g_free(text);
	if (!s->dlink) {
		cg_error(err, "target '%s': %s", t->name, e->message + strlen("error: "));
		g_error_free(e);
		return NULL;
	}
	char *nvvm = NULL;
	if (lto && !(nvvm = nvvm_dir(x, err)))
		return NULL;
	char *O = g_strdup_printf("obj/%s/%s.dlink.p", t->name, t->name);
	char *first = NULL;
	GString *images = g_string_new(NULL);
	GPtrArray *cubins = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *ulink = user_link_args(x, s); /* the same for every arch */
	char *cugen = cg_sh_quote(x->opt->cugen);
	for (guint i = 0; i < s->build->archs->len; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		if (!a->sass)
			continue;
		char *id = arch_id(a);
		DlinkArch *da = NULL;
		for (guint k = 0; k < s->dlink->archs->len; k++) {
			DlinkArch *c = g_ptr_array_index(s->dlink->archs, k);
			if (strcmp(c->id, id) == 0)
				da = c;
		}
		g_assert(da);
		GPtrArray *argv = argv_copy(da->nvlink);
		for (guint k = argv->len; k > 0; k--) {
			char *w = g_ptr_array_index(argv, k - 1);
			if (!t->devrt && strcmp(w, "-lcudadevrt") == 0)
				g_ptr_array_remove_index(argv, k - 1);
			else if (nvvm && g_str_has_prefix(w, "-nvvmpath=")) {
				argv->pdata[k - 1] = g_strconcat("-nvvmpath=", nvvm, NULL);
				g_free(w);
			}
		}
		/* the user's libraries after the objects, as nvcc -dlink
		 * passes them: static ones with device code resolve there
		 * (nvlink passes over any it cannot find or read) */
		for (guint k = 0; k < argv->len; k++)
			if (strcmp(g_ptr_array_index(argv, k), P_IN) == 0) {
				for (guint u = 0; u < ulink->len; u++)
					g_ptr_array_insert(argv, k + 1 + u, g_strdup(g_ptr_array_index(ulink, u)));
				break;
			}
		/* nvlink keeps an existing --register-link-binaries file (seen
		 * with nvcc 13.0): a stale one names the old module ids. */
		char *cubin_p = g_strdup_printf(P_O "/sm_%s.cubin", id);
		char *reg_p = g_strdup_printf(P_O "/sm_%s.reg.c", id);
		char *cubin_t = g_strconcat(cubin_p, TMP, NULL);
		char *reg_t = g_strconcat(reg_p, TMP, NULL);
		argv_subst(argv, cubin_p, cubin_t);
		argv_subst(argv, reg_p, reg_t);
		g_free(cubin_p);
		g_free(reg_p);
		g_free(cubin_t);
		g_free(reg_t);
		GString *c = g_string_new(NULL);
		g_string_append_printf(c, "rm -f ${O}/sm_%s.reg.c" TMP " && ", id);
		if (!t->devrt)
			g_string_append_printf(c, "%s devrt-hint %s --", cugen, t->name);
		measured(x, c);
		render(c, argv);
		g_ptr_array_free(argv, TRUE);
		publish(c, "${out}");
		char *reg_out = g_strdup_printf("${O}/sm_%s.reg.c", id);
		publish(c, reg_out);
		g_free(reg_out);
		char *stem = g_strdup_printf(RULE_NVLINK "_%s", id);
		char *desc = g_strdup_printf("CUDA nvlink sm_%s ${out}", id);
		Rule *r = graph_rule(x->g, stem, c->str, desc, NULL, NULL, "link");
		g_free(desc);
		g_free(stem);
		g_string_free(c, TRUE);
		Edge *ed = graph_edge(x->g, EK_NVLINK, r);
		ed->target = t->name;
		{ char *an = g_strdup_printf("sm_%s", id); edge_arch(ed, an); g_free(an); }
		char *cubin = g_strdup_printf("%s/sm_%s.cubin", O, id);
		char *reg = g_strdup_printf("%s/sm_%s.reg.c", O, id);
		edge_out(ed, cubin);
		edge_implicit_out(ed, reg);
		GPtrArray *objs = g_ptr_array_new_with_free_func(g_free);
		GHashTable *seen = g_hash_table_new(NULL, NULL);
		dlink_objects(x, t, id, objs, seen);
		g_hash_table_destroy(seen);
		for (guint k = 0; k < objs->len; k++)
			edge_in(ed, g_ptr_array_index(objs, k));
		g_ptr_array_free(objs, TRUE);
		for (guint k = 0; k < libs->len; k++) {
			TState *ls = g_hash_table_lookup(x->state, g_ptr_array_index(libs, k));
			const char *ar = ls->dl_archives ? g_hash_table_lookup(ls->dl_archives, id) : NULL;
			if (ar)
				edge_in(ed, ar);
		}
		lib_file_deps(x, s, ed);
		if (nvvm && strcmp(nvvm, ".cugen/nvvm") == 0)
			edge_implicit_in(ed, ".cugen/nvvm/lib64/libnvvm.so");
		edge_var(ed, "O", O);
		g_string_append_printf(images, " --image3=kind=elf,sm=%s,file=${O}/sm_%s.cubin", id, id);
		g_ptr_array_add(cubins, cubin);
		if (!first)
			first = reg;
		else
			g_free(reg);
		g_free(id);
	}
	g_free(cugen);
	g_free(nvvm);
	g_ptr_array_free(ulink, TRUE);
	if (!first) {
		cg_error_at(err, t->loc.file, t->loc.line,
			    "target '%s': relocatable device code needs an sm arch to device-link, and none is built", t->name);
		g_string_free(images, TRUE);
		g_ptr_array_free(cubins, TRUE);
		g_free(O);
		return NULL;
	}
	GString *c = g_string_new(NULL);
	measured(x, c);
	render(c, s->dlink->fatbin);
	g_string_append(c, images->str);
	g_string_append(c, " --embedded-fatbin=${out}" TMP);
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_DLFATBIN, c->str, "CUDA dlink fatbin ${out}", NULL, NULL, "link");
	g_string_free(c, TRUE);
	g_string_free(images, TRUE);
	Edge *fb = graph_edge(x->g, EK_DLFATBIN, r);
	fb->target = t->name;
	char *fatbin_c = g_strconcat(O, "/fatbin.c", NULL);
	edge_out(fb, fatbin_c);
	for (guint k = 0; k < cubins->len; k++)
		edge_in(fb, g_ptr_array_index(cubins, k));
	edge_var(fb, "O", O);
	if (argv_has(s->dlink->fatbin, P_IDENT)) {
		/* what nvcc -dlink names: the objects and libraries it reads */
		GString *names = g_string_new(NULL);
		for (guint k = 0; k < objs->len; k++)
			g_string_append_printf(names, "%s ", (char *)g_ptr_array_index(objs, k));
		for (guint k = 0; k < libs->len; k++) {
			TState *ls = g_hash_table_lookup(x->state, g_ptr_array_index(libs, k));
			g_string_append_printf(names, "%s ", ls->output);
		}
		char *q = cg_sh_quote(names->str);
		edge_var(fb, "IDENT", q);
		g_free(q);
		g_string_free(names, TRUE);
	}

	GPtrArray *host = argv_copy(s->dlink->host);
	argv_subst(host, P_REG, first);
	argv_subst(host, P_OUT, P_OUT TMP);
	c = g_string_new(NULL);
	measured(x, c);
	render(c, host);
	g_ptr_array_free(host, TRUE);
	publish(c, "${out}");
	r = graph_rule(x->g, RULE_DLHOST, c->str, "CUDA dlink host ${out}", NULL, NULL, "host");
	g_string_free(c, TRUE);
	Edge *h = graph_edge(x->g, EK_DLHOST, r);
	h->target = t->name;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(h, obj);
	edge_in(h, fatbin_c);
	edge_implicit_in(h, first);
	edge_var(h, "O", O);
	g_free(fatbin_c);
	g_free(first);
	g_ptr_array_free(cubins, TRUE);
	g_free(O);
	return obj;
}

static gboolean target_output(Ctx *x, TState *s, GError **err)
{
	Target *t = s->t;
	s->output = target_output_name(t);
	if (!s->output)
		return TRUE;
	GPtrArray *objs = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	link_objects(x, t, objs, seen);
	g_hash_table_destroy(seen);
	if (t->type == TGT_STATIC) {
		Edge *e = graph_edge(x->g, EK_AR, ar_rule(x));
		e->target = t->name;
		edge_out(e, s->output);
		s->out_edge = e;
		for (guint i = 0; i < objs->len; i++)
			edge_in(e, g_ptr_array_index(objs, i));
		g_ptr_array_free(objs, TRUE);
		dlink_archives(x, s);
		return TRUE;
	}
	/* Libraries of the dependencies, in link order. */
	GPtrArray *order = g_ptr_array_new();
	seen = g_hash_table_new(NULL, NULL);
	GHashTable *walked = g_hash_table_new(NULL, NULL);
	link_libs(x, t, order, seen, walked);
	for (guint i = 0, j = order->len; j > i + 1; i++, j--) {
		gpointer tmp = order->pdata[i];
		order->pdata[i] = order->pdata[j - 1];
		order->pdata[j - 1] = tmp;
	}
	g_hash_table_destroy(walked);
	g_hash_table_destroy(seen);
	if (target_needs_dlink(t)) {
		GPtrArray *statics = g_ptr_array_new();
		for (guint i = 0; i < order->len; i++) {
			TState *ds = g_hash_table_lookup(x->state, g_ptr_array_index(order, i));
			if (ds->t->type == TGT_STATIC)
				g_ptr_array_add(statics, ds->t);
		}
		char *dl = device_link(x, s, objs, statics, err);
		g_ptr_array_free(statics, TRUE);
		if (!dl) {
			g_ptr_array_free(order, TRUE);
			g_ptr_array_free(objs, TRUE);
			return FALSE;
		}
		g_ptr_array_insert(objs, 0, dl);
	}
	GString *c = g_string_new(NULL);
	measured(x, c);
	render_words(c, x->c->cxx);
	if (t->type == TGT_SHARED) {
		g_string_append(c, " -shared");
		char *soname = g_strdup_printf("-Wl,-soname,%s", s->output);
		render_arg(c, soname);
		g_free(soname);
	}
	render_words(c, t->ldflags);
	g_string_append(c, " ${in} ${libs} -o ${out}" TMP);
	for (guint i = 0; i < s->user_libs->len; i++) {
		char *f = lib_arg(x, g_ptr_array_index(s->user_libs, i));
		render_arg(c, f);
		g_free(f);
	}
	if (s->links_cuda && x->c->cudart != CUDART_NONE) {
		char *L = g_strconcat("-L", x->r->cudart_dir, NULL);
		render_arg(c, L);
		g_free(L);
		if (t->devrt)
			g_string_append(c, " -lcudadevrt");
		if (x->c->cudart == CUDART_STATIC)
			g_string_append(c, " -lcudart_static -lrt -lpthread -ldl");
		else {
			char *rp = g_strconcat("-Wl,-rpath,", x->r->cudart_dir, NULL);
			g_string_append(c, " -lcudart");
			render_arg(c, rp);
			g_free(rp);
		}
	}
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_LINK, c->str, "LINK ${out}", NULL, NULL, "link");
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_LINK, r);
	e->target = t->name;
	edge_out(e, s->output);
	s->out_edge = e;
	lib_file_deps(x, s, e);
	for (guint i = 0; i < objs->len; i++)
		edge_in(e, g_ptr_array_index(objs, i));
	g_ptr_array_free(objs, TRUE);
	GString *libs = g_string_new(NULL);
	gboolean shared = FALSE;
	for (guint i = 0; i < order->len; i++) {
		TState *ds = g_hash_table_lookup(x->state, g_ptr_array_index(order, i));
		edge_implicit_in(e, ds->output);
		cg_sh_append(libs, ds->output);
		shared |= ds->t->type == TGT_SHARED;
	}
	if (shared)
		cg_sh_append(libs, "-Wl,-rpath,$ORIGIN");
	edge_var(e, "libs", libs->str);
	g_string_free(libs, TRUE);
	g_ptr_array_free(order, TRUE);
	return TRUE;
}

/* data = ...: each file copied to its project-relative path in BUILDDIR
 * (whole or not at all). Returns the copies, interned. */
static GPtrArray *data_copies(Ctx *x, Target *t)
{
	GPtrArray *outs = g_ptr_array_new();
	if (!t->data->len)
		return outs;
	GString *c = g_string_new("cp -f ${in} ${out}" TMP);
	publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_DATA, c->str, "DATA ${out}", NULL, NULL, NULL);
	g_string_free(c, TRUE);
	for (guint i = 0; i < t->data->len; i++) {
		const char *relp = g_ptr_array_index(t->data, i);
		if (g_hash_table_contains(x->data_outs, relp))
			continue; /* (two targets may ship the same file) */
		g_hash_table_add(x->data_outs, (gpointer)relp);
		Edge *e = graph_edge(x->g, EK_DATA, r);
		e->target = t->name;
		char *abs = g_build_filename(x->c->srcdir, relp, NULL);
		char *in = rel(x, abs);
		edge_in(e, in);
		edge_out(e, relp);
		g_ptr_array_add(outs, (gpointer)graph_intern(x->g, relp));
		g_free(in);
		g_free(abs);
	}
	return outs;
}

/* "sm_80" < "sm_90" < "sm_100" < "compute_90": by kind, then number. */
static gint cmp_arch_name(gconstpointer a, gconstpointer b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	gboolean cx = g_str_has_prefix(x, "compute_"), cy = g_str_has_prefix(y, "compute_");
	if (cx != cy)
		return cx - cy;
	int nx = atoi(strchr(x, '_') + 1), ny = atoi(strchr(y, '_') + 1);
	return nx != ny ? nx - ny : strcmp(x, y);
}

/* A phony target over ins (already interned strings when interned). */
static void phony(Ctx *x, const char *name, GPtrArray *ins, gboolean interned)
{
	Edge *e = graph_edge(x->g, EK_PHONY, NULL);
	edge_out(e, name);
	for (guint i = 0; i < ins->len; i++) {
		const char *in = g_ptr_array_index(ins, i);
		if (interned)
			edge_in_interned(e, in);
		else
			edge_in(e, in);
	}
}

static void regen_edge(Ctx *x)
{
	GString *c = g_string_new(NULL);
	render_arg(c, x->opt->cugen);
	for (guint i = 0; i < x->opt->regen_args->len; i++)
		render_arg(c, g_ptr_array_index(x->opt->regen_args, i));
	Rule *r = graph_rule(x->g, RULE_REGEN, c->str, "Regenerating build files (cugen.ini changed)", NULL, NULL, "console");
	r->generator = TRUE;
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_REGEN, r);
	edge_out(e, "build.ninja");
	char *ini = rel(x, x->c->ini_abs);
	edge_in(e, ini);
	g_free(ini);
	for (guint i = 0; i < x->c->glob_dirs->len; i++) {
		char *d = rel(x, g_ptr_array_index(x->c->glob_dirs, i));
		edge_implicit_in(e, d);
		g_free(d);
	}
	edge_implicit_in(e, x->tk->nvcc);
	edge_implicit_in(e, x->opt->cugen);
}

void graph_info_clear(GraphInfo *info)
{
	g_free(info->archs);
	if (info->fallbacks)
		g_ptr_array_free(info->fallbacks, TRUE);
	memset(info, 0, sizeof *info);
}

Graph *edges_build(const Resolved *r, const EdgeOptions *opt, GraphInfo *info, GError **err)
{
	Ctx x = { 0 };
	Config *c = r->c;
	x.r = r;
	x.c = c;
	x.tk = r->tk;
	x.opt = opt;
	x.g = graph_new();
	x.state = g_hash_table_new_full(NULL, NULL, NULL, tstate_free);
	x.arch_outs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
	x.objnames = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	x.data_outs = g_hash_table_new(g_str_hash, g_str_equal);
	x.cache = cache_dir(c->cache, c->srcdir);
	memset(info, 0, sizeof *info);
	info->fallbacks = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < r->fallbacks->len; i++)
		g_ptr_array_add(info->fallbacks, g_strdup(g_ptr_array_index(r->fallbacks, i)));
	x.info = info;
	gboolean ok = TRUE;
	const GPtrArray *order = r->order;
	for (guint i = 0; i < order->len; i++) {
		Target *t = g_ptr_array_index(order, i);
		g_hash_table_insert(x.state, t, tstate_new(resolved_target(r, t)));
	}
	for (guint i = 0; ok && i < order->len; i++) {
		Target *t = g_ptr_array_index(order, i);
		TState *s = g_hash_table_lookup(x.state, t);
		info->targets++;
		info->split_tu_targets += s->has_cuda && s->tu;
		if (s->build && s->has_cuda)
			info->device_archs = MAX(info->device_archs, s->build->archs->len);
		for (guint k = 0; k < t->sources->len; k++) {
			Source *src = g_ptr_array_index(t->sources, k);
			char *in = rel(&x, src->abs);
			char *O = obj_prefix(&x, t, src);
			if (src->lang == LANG_CUDA) {
				info->cuda_tus++;
				if (s->tu)
					cuda_tu_whole(&x, s, src, in, O);
				else
					cuda_tu_arch(&x, s, src, in, O);
			} else {
				info->host_tus++;
				host_tu(&x, s, src, in, O);
			}
			g_free(O);
			g_free(in);
		}
		ok = target_output(&x, s, err);
	}
	if (ok) {
		/* Phony targets: each target, arch-sm_XX, all. */
		GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < c->targets->len; i++) {
			Target *t = g_ptr_array_index(c->targets, i);
			TState *s = g_hash_table_lookup(x.state, t);
			GPtrArray *outs = g_ptr_array_new_with_free_func(g_free);
			if (s->output)
				g_ptr_array_add(outs, g_strdup(s->output));
			else
				for (guint k = 0; k < s->objects->len; k++)
					g_ptr_array_add(outs, g_strdup(g_ptr_array_index(s->objects, k)));
			GPtrArray *copies = data_copies(&x, t);
			for (guint k = 0; k < copies->len; k++) {
				const char *d = g_ptr_array_index(copies, k);
				/* `ninja NAME` copies them too; they never relink it */
				if (s->out_edge)
					edge_order_in(s->out_edge, d);
				g_ptr_array_add(outs, g_strdup(d));
			}
			g_ptr_array_free(copies, TRUE);
			for (guint k = 0; k < outs->len; k++)
				g_ptr_array_add(all, g_strdup(g_ptr_array_index(outs, k)));
			if (!s->output || strcmp(s->output, t->name) != 0)
				phony(&x, t->name, outs, FALSE);
			g_ptr_array_free(outs, TRUE);
		}
		GPtrArray *archs = g_ptr_array_new();
		GHashTableIter it;
		gpointer k, v;
		g_hash_table_iter_init(&it, x.arch_outs);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_ptr_array_add(archs, k);
		g_ptr_array_sort(archs, cmp_arch_name);
		GString *desc = g_string_new(NULL);
		for (guint i = 0; i < archs->len; i++) {
			const char *a = g_ptr_array_index(archs, i);
			char *name = g_strconcat("arch-", a, NULL);
			phony(&x, name, g_hash_table_lookup(x.arch_outs, a), TRUE);
			g_free(name);
			g_string_append_printf(desc, "%s%s", desc->len ? " " : "", a);
		}
		info->archs = g_string_free(desc, FALSE);
		if (archs->len) {
			/* `ninja shard`: the images of the archs built here, and a
			 * manifest, in BUILDDIR/shard (for cugen combine) */
			char *cugen = cg_sh_quote(opt->cugen);
			char *cmd = g_strdup_printf("%s manifest " SHARD_SPEC " " SHARD_DIR, cugen);
			Rule *r = graph_rule(x.g, RULE_MANIFEST, cmd, "CUDA shard manifest", NULL, NULL, NULL);
			g_free(cmd);
			g_free(cugen);
			Edge *me = graph_edge(x.g, EK_MANIFEST, r);
			edge_out(me, SHARD_DIR "/manifest.ini");
			edge_implicit_in(me, SHARD_SPEC);
			/* through the arch-sm_XX phonies (whose mtime is their
			 * newest image's), not every image again: at 10,000 TUs x
			 * 7 archs that list was 70,000 more paths for ninja to
			 * parse on every run */
			for (guint i = 0; i < archs->len; i++) {
				char *name = g_strconcat("arch-", (char *)g_ptr_array_index(archs, i), NULL);
				edge_in(me, name);
				g_free(name);
			}
			GPtrArray *sh = g_ptr_array_new();
			g_ptr_array_add(sh, (gpointer)SHARD_DIR "/manifest.ini");
			phony(&x, "shard", sh, FALSE);
			g_ptr_array_free(sh, TRUE);
		}
		g_ptr_array_free(archs, TRUE);
		phony(&x, "all", all, FALSE);
		g_ptr_array_free(all, TRUE);
		g_ptr_array_add(x.g->defaults, g_strdup("all"));
		regen_edge(&x);
		ok = graph_check_outputs(x.g, err);
	}
	g_hash_table_destroy(x.state);
	g_hash_table_destroy(x.arch_outs);
	g_hash_table_destroy(x.objnames);
	g_hash_table_destroy(x.data_outs);
	g_free(x.cache);
	g_free(x.cugen_q);
	if (!ok) {
		graph_free(x.g);
		graph_info_clear(info);
		return NULL;
	}
	return x.g;
}
