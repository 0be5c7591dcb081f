/* recipe.c -- the rules of the per-arch CUDA recipe (edges.h): the
 * front end (host preprocess + cudafe++), the device preprocess, the
 * device compile per arch (whole, or cicc and ptxas apart, with the
 * planner's tail split), the host stub (from an arch's cicc or a
 * syntax-only pass), the fatbinary and the host compile, each rendered
 * once from nvcc's dryrun steps into a rule command (with the compile
 * cache's wrappers where it is on). Which edges use them: tuedges.c.
 */
#include "edges_int.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "relocate.h"
#include "util.h"
/* ---- CUDA TUs, split = arch ---- */

/* The cache's direct mode around an edge's command:
 *   { cugen cache direct-get KIND DIR FILES -- KEY VARS -- OUTS ||
 *     { COMMAND && cugen cache direct-put KIND <the same>; }; }
 * KEY hashes the command as written (its variables' values are VARS) with
 * the toolkit's and host compiler's versions; FILES (the source, ...) are
 * hashed by content; OUTS start with the depfile of the preprocess, whose
 * headers the entry records (see cache.c). */
static char *direct_wrap(Ctx *x, const char *kind, const char *command, const char *files, const char *outs,
			 const GPtrArray *pp)
{
	char *keytext = g_strdup_printf("direct %s\n%s\n%s %s\n%s", kind, command, x->tk->version,
					x->tk->host_version, x->tk->target);
	char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, keytext, -1);
	char *qdir = cg_sh_quote(x->cache);
	/* the preprocess's header search directories, in order, as keys
	 * "search=DIR": a hit checks that no header appeared in one of them
	 * that the preprocess would now find first (cachedirect.c) */
	GString *search = g_string_new(NULL);
	static const char *const opts[] = { "-iquote", "-I", "-isystem", "-idirafter" };
	for (guint i = 0; pp && i < pp->len; i++) {
		const char *a = g_ptr_array_index(pp, i), *dir = NULL;
		for (gsize k = 0; k < G_N_ELEMENTS(opts) && !dir; k++) {
			gsize n = strlen(opts[k]);
			if (strncmp(a, opts[k], n) == 0)
				dir = a[n] ? a + n : i + 1 < pp->len ? g_ptr_array_index(pp, ++i) : NULL;
		}
		if (dir && *dir && !strchr(dir, PH)) {
			char *w = g_strconcat("search=", dir, NULL);
			g_string_append_c(search, ' ');
			cg_sh_append(search, w);
			g_free(w);
		}
	}
	char *keys = g_strdup_printf("%s ${in} ${out} ${O} ${F}%s%s", key, x->c->module_id_absolute ? " ${C}" : "",
				     search->str);
	g_string_free(search, TRUE);
	char *req = cache_request(kind, qdir, files, keys, outs);
	char *w = cache_wrap(ed_cugen_q(x), TRUE, req, command);
	g_free(keys);
	g_free(req);
	g_free(qdir);
	g_free(key);
	g_free(keytext);
	return w;
}

/* Whether arch pa's device code records source names that cugen makes
 * project-relative (relocate.h): with -lineinfo or -G and relative module
 * ids, the device preprocess's line markers and cicc's PTX names, so that
 * the images do not depend on where the checkout and the build are. */
static gboolean renames_sources(Ctx *x, PipeArch *pa)
{
	gboolean r = !x->c->module_id_absolute && reloc_can_rename(pa->cicc);
	if (r && x->info)
		x->info->relative_names = TRUE;
	return r;
}

/* [toolchain] device_launcher before cicc and ptxas (sccache: it caches
 * and distributes those two by name); not in the canonical text, which
 * must not depend on whether a machine used one. */
static void render_device_launcher(Ctx *x, GString *c)
{
	if (*x->c->device_launcher && !x->canon)
		ed_render_words(c, x->c->device_launcher);
}

/* cicc's command, measured. Where renames_sources, it runs with PWD set
 * to /proc/self/cwd: NVVM takes the compilation directory it records
 * (-G's DW_AT_comp_dir, the directory of LTO-IR's file entries) from
 * $PWD where that names the current directory, so the images hold the
 * same text in every layout and a debugger run from the project
 * directory finds the project-relative names below it (Bazel's way). */
static void render_cicc(Ctx *x, GString *c, PipeArch *pa, GPtrArray *cicc)
{
	if (renames_sources(x, pa)) {
		if (c->len && c->str[c->len - 1] != ' ')
			g_string_append_c(c, ' ');
		ed_frag(x, c, "cicc-pwd", NULL);
	}
	ed_measured(x, c);
	render_device_launcher(x, c);
	ed_render(c, cicc);
}

/* " && cugen srcnames --ptx FILE" after cicc where renames_sources. */
static void render_ptx_names(Ctx *x, GString *c, PipeArch *pa, const char *ptx)
{
	if (renames_sources(x, pa) && !pa->lto) {
		GPtrArray *w = g_ptr_array_new();
		g_ptr_array_add(w, (char *)ptx);
		ed_frag(x, c, "srcnames-ptx", NULL);
		ed_render(c, w);
		g_ptr_array_free(w, TRUE);
	}
}

/* One arch's device preprocess (pa->pp, its output renamed from `from`
 * to `to` when from is given) writing the depfile DEPFILE, measured; its
 * line markers then named as renames_sources says. */
static void render_device_pp(Ctx *x, GString *c, PipeArch *pa, const char *from, const char *to,
			     const char *depfile)
{
	GPtrArray *pp = argv_copy(pa->pp);
	if (from)
		argv_subst(pp, from, to);
	const char *md[] = { "-MD", "-MF", depfile, "-MT", P_OUT };
	for (gsize i = 0; i < G_N_ELEMENTS(md); i++)
		g_ptr_array_add(pp, g_strdup(md[i]));
	ed_measured(x, c);
	ed_render(c, pp);
	g_ptr_array_free(pp, TRUE);
	if (renames_sources(x, pa)) {
		char *src = ed_rel(x, x->c->srcdir);
		GPtrArray *ii = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(ii, to ? g_strdup(to) : g_strdup_printf(P_O "/%s.ii", pa->id));
		ed_frag(x, c, "srcnames", NULL);
		ed_render_arg(c, src);
		ed_render(c, ii);
		g_ptr_array_free(ii, TRUE);
		g_free(src);
	}
}

/* A per-arch rule's stem: RULE_ID, or RULE_ID_splitSC with the tail
 * split's --split-compile sc > 1. */
static char *arch_stem(const char *rule, const char *id, int sc)
{
	return sc > 1 ? g_strdup_printf("%s_%s_split%d", rule, id, sc) : g_strdup_printf("%s_%s", rule, id);
}

/* A rule of a candidate the planner weighs (Ctx.plan_only): its stem
 * (consumed), and what the planner reads of a rule (its pool kind, a
 * tail split's --split-compile, whether it copies a file), without
 * rendering the command (the stem stands for it, so rules of other
 * stems stay apart). */
static Rule *plan_rule(Ctx *x, char *stem, const char *pool, int sc, gboolean copy)
{
	Rule *r = graph_rule(x->g, stem, stem, NULL, NULL, NULL, pool);
	r->split_compile = sc > 1 ? sc : 0;
	r->copy = copy;
	g_free(stem);
	return r;
}

Rule *ed_make_cu_fe_rule(Ctx *x, TState *s)
{
	if (x->plan_only)
		return plan_rule(x, g_strdup(RULE_FE), "host", 0, FALSE);
	GString *c = g_string_new(NULL);
	GPtrArray *pp = argv_copy(s->pipe->host_pp);
	/* -MP: a deleted header is no error for make's -include */
	const char *md[] = { "-MD", "-MP", "-MF", P_OUT ".d", "-MT", P_OUT };
	for (gsize i = 0; i < G_N_ELEMENTS(md); i++)
		g_ptr_array_add(pp, g_strdup(md[i]));
	ed_measured(x, c);
	ed_render(c, pp);
	g_ptr_array_free(pp, TRUE);
	ed_frag(x, c, "and", NULL);
	ed_measured(x, c);
	GPtrArray *fe = argv_copy(s->pipe->cudafe);
	argv_subst(fe, P_O "/fe.cpp", P_O "/fe.cpp" TMP);
	ed_render(c, fe);
	g_ptr_array_free(fe, TRUE);
	ed_frag(x, c, "fe-hdeps", NULL);
	if (x->cache) {
		/* direct mode (cache.c): restore fe.cpp, the module id and the
		 * depfiles without running the host preprocess and cudafe++ */
		char *wrapped = direct_wrap(x, "fe", c->str, "${in}", "${out}.d ${O}/fe.cpp" TMP " ${O}/id ${O}/hdeps",
					    s->pipe->host_pp);
		g_string_assign(c, wrapped);
		g_free(wrapped);
	}
	ed_frag(x, c, "fe-publish", NULL);
	Rule *r = graph_rule(x->g, RULE_FE, c->str, "CUDA fe ${out}", "${out}.d", "gcc", "host");
	g_string_free(c, TRUE);
	return r;
}

/* The device view's preprocess as its own edge (Grouping.pp_edges):
 * it needs no module id, so it runs while the front end does. Its depfile
 * names every header of the view; the full one stays for the shard
 * manifest, as the device edge's would. */
Rule *ed_cu_pp_rule(Ctx *x, PipeArch *pa)
{
	char *stem = arch_stem(RULE_PP, pa->id, 0);
	if (x->plan_only)
		return plan_rule(x, stem, "device", 0, FALSE);
	GString *c = g_string_new(NULL);
	char *ii = g_strdup_printf(P_O "/%s.ii", pa->id);
	char *tmp = g_strconcat(ii, TMP, NULL);
	char *full = g_strdup_printf(P_O "/%s.full.d", pa->id);
	render_device_pp(x, c, pa, ii, tmp, full);
	ed_frag(x, c, "pp-depfile", "ID", pa->id, NULL);
	ed_publish(c, "${out}");
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

/* The canonical text of a device edge (what shards compare): the whole
 * edge's command, without the planner's splits and without the compile
 * cache's wrappers (which give the same bytes), so that shards agree
 * whichever way each machine built them. */
static char *canon_command(Ctx *x, PipeArch *pa, const Arch *a)
{
	const char *cache = x->cache;
	x->cache = NULL;
	x->canon = TRUE;
	char *c = dev_command(x, pa, a, FALSE, 0);
	x->canon = FALSE;
	x->cache = cache;
	return c;
}

/* The device edge's rule. With pp edges it starts at cicc; with sc > 1
 * (the planner's tail split) cicc and ptxas run with --split-compile sc.
 * Its canonical text (the shard manifest's rule hash) is still the whole
 * edge's without either (canon_command), so shards agree whichever way
 * each machine split it; the manifest records a split apart
 * (split_compile). */
Rule *ed_cu_dev_rule(Ctx *x, TState *s, PipeArch *pa, const Arch *a, int sc)
{
	gboolean split = x->opt->pp_edges && !x->cache;
	char *stem = arch_stem(RULE_DEV, pa->id, sc);
	if (x->plan_only)
		return plan_rule(x, stem, "device", sc, FALSE);
	char *cmd = dev_command(x, pa, a, split, sc);
	char *name = arch_image_name(a);
	char *desc = sc > 1 ? g_strdup_printf("CUDA %s ${out} (--split-compile %d)", name, sc)
			    : g_strdup_printf("CUDA %s ${out}", name);
	char *canon = split || sc > 1 || x->cache || *x->c->device_launcher ? canon_command(x, pa, a) : NULL;
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
	if (depdiff)
		ed_frag(x, c, "depdiff", "VIEW", pa->id, NULL);
	ed_frag(x, c, "and", NULL);
	g_string_append_c(c, ' '); /* (the caller may append a command rendered apart) */
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

/* With ptxas edges (Grouping.ptxas_edges) a device edge is two: cicc
 * alone, writing D/compute_ID.ptx (and the arch's stub), then ptxas
 * alone, reading it. Smaller edges pack tighter, above all at the end of
 * a build, and the same commands run (the PTX stays: it is the cicc
 * edge's output). cicc's edge does what the device edge did before cicc
 * (the device preprocess and its depfile, without pp edges); the ptxas
 * edge's canonical text is the whole device edge's, as the shard
 * manifest hashes it. sc > 1: the tail split, in both. */
Rule *ed_cu_cicc_rule(Ctx *x, PipeArch *pa, int sc)
{
	const gboolean split = x->opt->pp_edges;
	char *stem = arch_stem(RULE_CICC, pa->id, sc);
	if (x->plan_only)
		return plan_rule(x, stem, "device", sc, FALSE);
	GString *c = g_string_new(NULL);
	if (!split)
		render_device_view(x, c, pa, TRUE);
	GPtrArray *cicc = cicc_words(pa, sc);
	char *ptx = g_strdup_printf(P_O "/compute_%s.ptx", pa->id);
	char *f = g_strconcat(ptx, TMP, NULL);
	argv_subst(cicc, ptx, f);
	g_free(f);
	g_free(ptx);
	render_cicc(x, c, pa, cicc);
	g_ptr_array_free(cicc, TRUE);
	char *ptxtmp = g_strdup_printf(P_O "/compute_%s.ptx" TMP, pa->id);
	render_ptx_names(x, c, pa, ptxtmp);
	g_free(ptxtmp);
	ed_frag(x, c, "dev-clean", "ID", pa->id, NULL);
	if (!split)
		ed_frag(x, c, "clean-view", "ID", pa->id, NULL);
	ed_publish(c, "${out}");
	char *desc = sc > 1 ? g_strdup_printf("CUDA cicc %s ${out} (--split-compile %d)", pa->id, sc)
			    : g_strdup_printf("CUDA cicc %s ${out}", pa->id);
	Rule *r = graph_rule(x->g, stem, c->str, desc, split ? NULL : "${out}.d", split ? NULL : "gcc", "device");
	r->split_compile = sc > 1 ? sc : 0;
	g_free(desc);
	g_free(stem);
	g_string_free(c, TRUE);
	return r;
}

Rule *ed_cu_ptxas_rule(Ctx *x, PipeArch *pa, const Arch *a, int sc)
{
	char *stem = arch_stem(RULE_PTXAS, pa->id, sc);
	if (x->plan_only)
		return plan_rule(x, stem, "device", sc, FALSE);
	GString *c = g_string_new(NULL);
	GPtrArray *ptxas = ptxas_words(pa, sc);
	ed_measured(x, c);
	render_device_launcher(x, c);
	ed_render(c, ptxas);
	g_ptr_array_free(ptxas, TRUE);
	ed_publish(c, "${out}");
	char *name = arch_image_name(a);
	char *desc = sc > 1 ? g_strdup_printf("CUDA %s ${out} (--split-compile %d)", name, sc)
			    : g_strdup_printf("CUDA %s ${out}", name);
	char *canon = canon_command(x, pa, a);
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
	if (!split) /* (the cache's direct mode runs depdiff after it, below) */
		render_device_view(x, c, pa, !x->cache);
	GPtrArray *cicc = cicc_words(pa, sc);
	/* the declared outputs under temporary names (the PTX also where
	 * ptxas reads it), renamed into place at the end */
	GPtrArray *ptxas = pa->ptxas ? ptxas_words(pa, sc) : NULL;
	GPtrArray *declared = g_ptr_array_new_with_free_func(g_free);
	char *ptx = g_strdup_printf(P_O "/compute_%s.ptx", pa->id);
	if (ptxas) {
		g_ptr_array_add(declared, g_strdup_printf("${O}/sm_%s.cubin", pa->id));
	}
	GPtrArray *check = !ptxas && pa->ptxcheck ? argv_copy(pa->ptxcheck) : NULL;
	if (!ptxas || a->ptx) {
		const char *ext = pa->lto ? "ltoir" : "ptx";
		char *ir = g_strdup_printf(P_O "/compute_%s.%s", pa->id, ext);
		char *tmp = g_strconcat(ir, TMP, NULL);
		argv_subst(cicc, ir, tmp);
		if (ptxas)
			argv_subst(ptxas, ir, tmp);
		if (check)
			argv_subst(check, ir, tmp);
		g_free(ptx);
		ptx = tmp;
		g_free(ir);
		g_ptr_array_add(declared, g_strdup_printf("${O}/compute_%s.%s", pa->id, ext));
	}
	GString *compile = g_string_new(NULL);
	render_cicc(x, compile, pa, cicc);
	g_ptr_array_free(cicc, TRUE);
	render_ptx_names(x, compile, pa, ptx);
	g_free(ptx);
	if (ptxas) {
		ed_frag(x, compile, "and", NULL);
		ed_measured(x, compile);
		render_device_launcher(x, compile);
		ed_render(compile, ptxas);
		g_ptr_array_free(ptxas, TRUE);
	}
	if (check) { /* nvcc's check of a PTX-only arch's PTX, as it runs it */
		ed_frag(x, compile, "and", NULL);
		ed_measured(x, compile);
		ed_render(compile, check);
		g_ptr_array_free(check, TRUE);
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
		char *files = g_strdup_printf("${O}/%s.ii ${O}/id", pa->id);
		/* (two spaces before the "--" with relative module ids, as
		 * build files have always had it: the same commands) */
		char *keys = g_strdup_printf("%s ${F} %s", key, x->c->module_id_absolute ? "${C}" : "");
		char *req = cache_request(NULL, qdir, files, keys, outs->str + 1);
		char *w = cache_wrap(ed_cugen_q(x), FALSE, req, compile->str);
		g_string_append(c, w);
		g_free(w);
		g_free(keys);
		g_free(files);
		/* direct mode: the outputs and the device view's depfile (the
		 * edge's own depfile is derived from it below) without the
		 * device preprocess; depdiff runs after it, hit or miss */
		char *dout = g_strdup_printf("${O}/%s.full.d%s", pa->id, outs->str);
		char *wrapped = direct_wrap(x, "dev", c->str, "${in} ${O}/id", dout, pa->pp);
		g_string_assign(c, wrapped);
		ed_frag(x, c, "depdiff", "VIEW", pa->id, NULL);
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
	g_string_free(compile, TRUE);
	/* the device view stays when a pp edge made it (its output) */
	ed_frag(x, c, split ? "dev-clean" : "dev-clean-view", "ID", pa->id, NULL);
	if (pa->ptxas && !a->ptx)
		ed_frag(x, c, "clean-ptx", "ID", pa->id, NULL);
	for (guint i = 0; i < declared->len; i++)
		ed_publish(c, g_ptr_array_index(declared, i));
	g_ptr_array_free(declared, TRUE);
	return g_string_free(c, FALSE);
}

Rule *ed_cu_stub_rule(Ctx *x, const char *id)
{
	char *stem = arch_stem(RULE_STUB, id, 0);
	if (x->plan_only)
		return plan_rule(x, stem, NULL, 0, TRUE);
	GString *cmd = g_string_new(NULL);
	ed_frag(x, cmd, "stub-copy", "ID", id, NULL);
	Rule *r = graph_rule(x->g, stem, cmd->str, "CUDA stub ${out}", NULL, NULL, NULL);
	g_free(stem);
	r->restat = TRUE;
	r->copy = TRUE;
	g_string_free(cmd, TRUE);
	return r;
}

/* Whether the syntax-only stub edge reads the stub arch's device view
 * from that arch's pp edge (D/ID.ii) instead of preprocessing it again. */
gboolean ed_stub_from_pp(const Ctx *x)
{
	return x->opt->syntax_stub && x->opt->pp_edges && !x->cache;
}

/* The host stub from a cheap edge: the stub arch's device preprocess and
 * cicc --device-syntax-only (as nvcc -fdevice-syntax-only runs it), so the
 * host compile need not wait for a full device compile. With
 * pp edges the view is the stub arch's pp edge's output (the same gcc -E
 * command): cicc reads it, and the edge needs no depfile, since that
 * output changes with every header of the view. */
Rule *ed_make_cu_syntax_stub_rule(Ctx *x, TState *s)
{
	if (x->plan_only)
		return plan_rule(x, g_strdup(RULE_STUB "_syntax"), "device", 0, FALSE);
	PipeArch *pa = pipeline_arch(s->pipe, s->stub_arch);
	GString *c = g_string_new(NULL);
	char *ii = g_strdup_printf(P_O "/%s.ii", pa->id);
	const gboolean pp = ed_stub_from_pp(x);
	if (!pp) {
		render_device_pp(x, c, pa, ii, P_O "/syntax.ii", P_O "/syntax.full.d");
		ed_frag(x, c, "depdiff", "VIEW", "syntax", NULL);
		ed_frag(x, c, "and", NULL);
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
	ed_measured(x, c);
	ed_render(c, cicc);
	g_ptr_array_free(cicc, TRUE);
	ed_frag(x, c, pp ? "syntax-clean" : "syntax-clean-view", NULL);
	/* `cugen stub` leaves an unchanged stub alone. Reading the pp
	 * output the rule has no depfile and is restat, as a device edge's
	 * stub copy is: an edit that leaves the stub as it was (a device-only
	 * header) does not recompile the host side. With its own preprocess
	 * the stub gets a new time (its depfile names the stub, which make's
	 * form of restat cannot use; make.c). */
	ed_frag(x, c, "syntax-stub", NULL);
	if (!pp)
		ed_frag(x, c, "touch-out", NULL);
	g_free(ii);
	Rule *r = graph_rule(x->g, RULE_STUB "_syntax", c->str, "CUDA stub ${out}", pp ? NULL : "${out}.d",
			     pp ? NULL : "gcc", "device");
	r->restat = pp;
	g_string_free(c, TRUE);
	return r;
}

Rule *ed_make_cu_fatbin_rule(Ctx *x, TState *s)
{
	if (x->plan_only)
		return plan_rule(x, g_strdup(RULE_FATBIN), "host", 0, FALSE);
	GString *c = g_string_new(NULL);
	ed_measured(x, c);
	ed_render(c, s->pipe->fatbin);
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
		ed_frag(x, c, g_str_has_prefix(img, "elf:") ? "image-elf" : g_str_has_prefix(img, "ptx:") ? "image-ptx" : "image-nvvm",
			"ID", id, NULL);
	}
	/* the fatbin goes straight into the host object: one cheap edge
	 * (fewer edges for ninja to load, and for ninja >= 1.12, which counts
	 * edges on a chain before it has timings, no extra link in the chain) */
	ed_frag(x, c, "fatbin-create", "FATBIN", "fatbin", NULL);
	ed_frag(x, c, "and", NULL);
	ed_measured(x, c);
	ed_render_arg(c, x->tk->objcopy);
	ed_frag(x, c, "fatbin-embed", "SECTION", s->pipe->rdc ? "__nv_relfatbin" : ".nv_fatbin", "FATBIN", "fatbin", NULL);
	ed_publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_FATBIN, c->str, "CUDA fatbin ${out}", NULL, NULL, "host");
	g_string_free(c, TRUE);
	return r;
}

Rule *ed_make_cu_host_rule(Ctx *x, TState *s)
{
	if (x->plan_only)
		return plan_rule(x, g_strdup(RULE_HOST), "host", 0, FALSE);
	GString *c = g_string_new(NULL);
	ed_render_arg(c, g_ptr_array_index(s->pipe->fatbin, 0));
	ed_frag(x, c, "empty-fatbin", "RDC", s->pipe->rdc ? " --device-c" : "", NULL);
	ed_frag(x, c, "and", NULL);
	ed_measured(x, c);
	if (*x->c->launcher)
		ed_render_words(c, x->c->launcher);
	GPtrArray *cc = argv_copy(s->pipe->host_cc);
	argv_subst(cc, P_OUT, P_OUT TMP);
	ed_render(c, cc);
	g_ptr_array_free(cc, TRUE);
	ed_publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_HOST, c->str, "CUDA host ${out}", NULL, NULL, "host");
	g_string_free(c, TRUE);
	return r;
}

/* rdc: per TU per arch an object holding only that arch's relocatable
 * image (the host object with __nv_relfatbin replaced), so each arch's
 * nvlink reads nothing of the other archs and adding an arch does not
 * relink the others. */
