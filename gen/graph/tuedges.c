/* tuedges.c -- each translation unit's edges.
 *
 * Owns: a CUDA TU in split = arch (its fe, per-arch device edges, stub,
 * host, rank stamps and fatbin edges, and in rdc mode its per-arch
 * device-link objects), a CUDA TU in split = tu (one nvcc -c), a host
 * C/C++ TU, and their compile_commands.json entries. The rules are
 * recipe.c's.
 */
#include "edges_int.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
static void device_link_objects(Ctx *x, TState *s, Source *src, const char *O, const char *D, const char *file)
{
	for (guint i = 0; i < s->build->archs->len; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		if (!a->sass)
			continue;
		char *id = arch_id(a);
		PipeArch *pa = pipeline_arch(s->pipe, id);
		GString *c = g_string_new(NULL);
		ed_measured(x, c);
		ed_render(c, s->pipe->fatbin);
		char *fatbin = g_strdup_printf("sm_%s.fatbin", id);
		ed_frag(x, c, pa->lto ? "image-nvvm" : "image-elf", "ID", id, NULL);
		ed_frag(x, c, "fatbin-create", "FATBIN", fatbin, NULL);
		ed_frag(x, c, "and", NULL);
		ed_measured(x, c);
		ed_render_arg(c, x->tk->objcopy);
		ed_frag(x, c, "fatbin-embed", "SECTION", "__nv_relfatbin", "FATBIN", fatbin, NULL);
		g_free(fatbin);
		ed_publish(c, "${out}");
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
 * keep apart from F) on every edge that runs cudafe++ or cicc, and on
 * the host compile, whose -frandom-seed names the TU as nvcc's does (it
 * was TARGET: with an empty path). */
static void set_tu_vars(Ctx *x, Edge *e, const TuVars *v)
{
	edge_var_interned(e, v->vO, v->D);
	gboolean host_seed = e->kind == EK_HOST && e->rule && e->rule->command && strstr(e->rule->command, "${F}");
	if (e->kind == EK_FE || e->kind == EK_DEV || e->kind == EK_CICC || e->kind == EK_DEVPP ||
	    e->kind == EK_STUB || host_seed) {
		edge_var_interned(e, v->vF, v->file);
		if (x->c->module_id_absolute)
			edge_var_interned(e, v->vC, v->canon);
	}
}

static void compdb_nvcc(Ctx *x, TState *s, const char *in, const char *out)
{
	if (x->plan_only) /* (a candidate: nothing writes its entries) */
		return;
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
	if (!g_str_has_suffix(in, ".cu")) { /* cuda_sources: C/C++ files compiled as CUDA */
		cg_sh_append(c, "-x");
		cg_sh_append(c, "cu");
	}
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

static Rule *cu_fe_rule(Ctx *x, TState *s) { return CACHED(s, "fe", ed_make_cu_fe_rule(x, s)); }
static Rule *cu_fatbin_rule(Ctx *x, TState *s) { return CACHED(s, "fatbin", ed_make_cu_fatbin_rule(x, s)); }
static Rule *cu_host_rule(Ctx *x, TState *s) { return CACHED(s, "host", ed_make_cu_host_rule(x, s)); }
static Rule *cu_syntax_stub_rule(Ctx *x, TState *s) { return CACHED(s, "syntax", ed_make_cu_syntax_stub_rule(x, s)); }


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

/* D/ABC (a, b, c: NULL for nothing; D NULL: a alone) appended to names,
 * NUL-ended, its offset to at */
static void tu_name(GString *names, GArray *at, const char *D, const char *a, const char *b, const char *c)
{
	gsize off = names->len;
	g_array_append_val(at, off);
	if (D) {
		cg_put(names, D, graph_str(D)->len);
		cg_put(names, "/", 1);
	}
	cg_puts(names, a);
	if (b)
		cg_puts(names, b);
	if (c)
		cg_puts(names, c);
	cg_put(names, "", 1);
}

void ed_cuda_tu_arch(Ctx *x, TState *s, Source *src, const char *in, const char *O)
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
	/* the TU's own paths, interned side by side (graph_intern_many):
	 * its input, fe.cpp, stub.c, host.o, and each arch's image, PTX and
	 * preprocessed source */
	TArch *archs = tu_archs(x, s);
	const guint na = s->build->archs->len;
	GString *names = g_string_new(NULL);
	GArray *at = g_array_sized_new(FALSE, FALSE, sizeof(gsize), 4 + 3 * na);
	tu_name(names, at, NULL, in, NULL, NULL);
	tu_name(names, at, D, "fe.cpp", NULL, NULL);
	tu_name(names, at, D, "stub.c", NULL, NULL);
	tu_name(names, at, D, "host.o", NULL, NULL);
	for (guint i = 0; i < na; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		const char *id = archs[i].id;
		if (archs[i].pa->lto)
			tu_name(names, at, D, "compute_", id, ".ltoir");
		else
			tu_name(names, at, D, a->sass ? "sm_" : "compute_", id, a->sass ? ".cubin" : ".ptx");
		tu_name(names, at, D, "compute_", id, ".ptx");
		tu_name(names, at, D, id, ".ii", NULL);
	}
	const char **named = g_new(const char *, at->len);
	for (guint i = 0; i < at->len; i++)
		named[i] = names->str + g_array_index(at, gsize, i);
	graph_intern_many(g, at->len, named, named);
	g_string_free(names, TRUE);
	g_array_free(at, TRUE);
	const char *iin = named[0];
	const char *fe_out = named[1];
	Edge *fe = graph_edge(g, EK_FE, cu_fe_rule(x, s));
	fe->target = s->t->name;
	fe->source = src->rel;
	edge_out_interned(fe, fe_out);
	edge_in_interned(fe, iin);
	set_tu_vars(x, fe, &v);
	/* with a device launcher (sccache-dist ships what an edge names) the
	 * module id file cicc reads is declared: the front end's output, the
	 * cicc edge's input */
	const char *idf = *x->c->device_launcher ? tu_path(x, buf, D, "id", NULL, NULL) : NULL;
	if (idf)
		edge_implicit_out(fe, idf);

	Edge *fb = graph_edge(g, EK_FATBIN, cu_fatbin_rule(x, s));
	fb->target = s->t->name;
	fb->source = src->rel;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(fb, obj);
	edge_var_interned(fb, v.vO, D);
	if (argv_has(s->pipe->fatbin, P_F))
		edge_var_interned(fb, v.vF, v.file);
	const char *stub = named[2];

	for (guint i = 0; i < na; i++) {
		const Arch *a = &g_array_index(s->build->archs, Arch, i);
		TArch *ta = &archs[i];
		const char *id = ta->id;
		PipeArch *pa = ta->pa;
		const char *out = named[4 + 3 * i];
		const gboolean tail = x->opt->tail_split > 1 && x->opt->split_edges && !pa->lto && !x->cache &&
				      g_hash_table_contains(x->opt->split_edges, out);
		/* ptxas edges: cicc (ce) then ptxas (d), which reads its PTX */
		const gboolean px = x->opt->ptxas_edges && !x->cache && !pa->lto && a->sass && pa->ptxas;
		Rule *dr;
		if (px) {
			if (!ta->ptxas[tail])
				ta->ptxas[tail] = ed_cu_ptxas_rule(x, pa, a, tail ? x->opt->tail_split : 0);
			dr = ta->ptxas[tail];
		} else if (tail) {
			if (!ta->dev_split)
				ta->dev_split = ed_cu_dev_rule(x, s, pa, a, x->opt->tail_split);
			dr = ta->dev_split;
		} else {
			if (!ta->dev)
				ta->dev = ed_cu_dev_rule(x, s, pa, a, 0);
			dr = ta->dev;
		}
		Edge *d = graph_edge(g, EK_DEV, dr);
		d->target = s->t->name;
		d->source = src->rel;
		d->arch = ta->name;
		edge_out_interned(d, out);
		/* what this compile is known by, however it is grouped, and
		 * the steps each edge runs: the preprocess runs in the edge
		 * that runs cicc unless it is an edge of its own */
		DevUnit *u = graph_dev_unit(g);
		u->image = out;
		u->cubin = !pa->lto && a->sass ? out : NULL;
		u->ptx = named[4 + 3 * i + 1];
		u->ii = named[4 + 3 * i + 2];
		const guint pre = x->opt->pp_edges && !x->cache ? 0 : TOOL_PP;
		d->unit = u;
		d->tools = px ? TOOL_PTXAS : pre | TOOL_CICC | (pa->lto ? TOOL_LTO : a->sass ? TOOL_PTXAS : 0);
		edge_in_interned(fb, out);
		g_ptr_array_add(ta->outs, (gpointer)out);
		Edge *ce = d; /* the edge that runs cicc */
		const char *ptx = a->sass && (a->ptx || px) ? u->ptx : NULL;
		if (px) {
			if (!ta->cicc[tail])
				ta->cicc[tail] = ed_cu_cicc_rule(x, pa, tail ? x->opt->tail_split : 0);
			ce = graph_edge(g, EK_CICC, ta->cicc[tail]);
			ce->target = s->t->name;
			ce->source = src->rel;
			ce->arch = ta->name;
			ce->unit = u;
			ce->tools = pre | TOOL_CICC;
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
				ta->stub = ed_cu_stub_rule(x, id);
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
				ta->pp = ed_cu_pp_rule(x, pa);
			Edge *pe = graph_edge(g, EK_DEVPP, ta->pp);
			pe->target = s->t->name;
			pe->source = src->rel;
			pe->arch = d->arch;
			pe->unit = u;
			pe->tools = TOOL_PP;
			edge_out_interned(pe, u->ii);
			edge_in_interned(pe, iin);
			set_tu_vars(x, pe, &v);
			edge_implicit_in_interned(ce, u->ii);
		}
		edge_implicit_in_interned(ce, fe_out);
		if (idf)
			edge_implicit_in_interned(ce, idf);
		set_tu_vars(x, ce, &v);
		if (ce != d)
			set_tu_vars(x, d, &v);
	}

	if (x->opt->syntax_stub && s->stub_arch) {
		Edge *se = graph_edge(g, EK_STUB, cu_syntax_stub_rule(x, s));
		se->target = s->t->name;
		se->source = src->rel;
		se->tools = TOOL_CICC | (ed_stub_from_pp(x) ? 0 : TOOL_PP);
		edge_out_interned(se, stub);
		edge_in_interned(se, iin);
		edge_implicit_in_interned(se, fe_out);
		if (ed_stub_from_pp(x))
			edge_implicit_in_interned(se, tu_path(x, buf, D, s->stub_arch, ".ii", NULL));
		set_tu_vars(x, se, &v);
	}

	Edge *h = graph_edge(g, EK_HOST, cu_host_rule(x, s));
	h->target = s->t->name;
	h->source = src->rel;
	const char *host = named[3];
	g_free(named);
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
		GString *touch = g_string_new(NULL);
		ed_frag(x, touch, "stamp", NULL);
		Rule *stamp = graph_rule(g, RULE_RANK, touch->str, "stamp ${out}", NULL, NULL, NULL);
		g_string_free(touch, TRUE);
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

void ed_cuda_tu_whole(Ctx *x, TState *s, Source *src, const char *in, const char *O)
{
	GString *c = g_string_new(NULL);
	ed_measured(x, c);
	if (*x->c->launcher)
		ed_render_words(c, x->c->launcher);
	ed_render_arg(c, x->tk->nvcc);
	GPtrArray *args = resolve_with_gencode(s->nvcc_args, s->build, s->t->lto ? GENCODE_LTO : GENCODE_COMPILE);
	if (!archset_equal(s->build, s->project)) {
		/* keep the pinned list when building a subset (--archs, cugen(1)) */
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
		ed_render_arg(c, g_ptr_array_index(args, i));
	g_ptr_array_free(args, TRUE);
	if (s->seeded) {
		/* the module id, as reproducible as the split's (resolve_seed) */
		char *seed = resolve_seed(x->c, s->t, P_F);
		char *opt = g_strconcat("-frandom-seed=", seed, NULL);
		GPtrArray *one = g_ptr_array_new();
		g_ptr_array_add(one, opt);
		ed_render(c, one);
		g_ptr_array_free(one, TRUE);
		g_free(opt);
		g_free(seed);
	}
	/* a C or C++ file of cuda_sources: CUDA, as the per-arch graph
	 * compiles it (nvcc goes by the extension) */
	if (!g_str_has_suffix(src->rel, ".cu"))
		g_string_append(c, " -x cu");
	ed_frag(x, c, "nvcc-tu-out", NULL);
	ed_publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_NVCC, c->str, "CUDA nvcc ${out}", "${out}.d", "gcc", "device");
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_NVCC, r);
	e->target = s->t->name;
	e->source = src->rel;
	char *obj = g_strconcat(O, ".o", NULL);
	edge_out(e, obj);
	edge_in(e, in);
	if (s->seeded) {
		char *f = cg_sh_quote(src->rel);
		edge_var(e, "F", f);
		g_free(f);
	}
	g_ptr_array_add(s->objects, obj);
	/* an rdc object from one nvcc call carries every arch: no per-arch
	 * device link objects, nvlink reads the object itself */
	g_ptr_array_add(s->dl_items, s->t->mode == MODE_RDC ? g_strdup("=") : NULL);
	compdb_nvcc(x, s, in, obj);
}

/* ---- host C/C++ ---- */

void ed_host_tu(Ctx *x, TState *s, Source *src, const char *in, const char *O)
{
	Target *t = s->t;
	gboolean cxx = src->lang == LANG_CXX;
	GString *c = g_string_new(NULL);
	if (*x->c->launcher)
		ed_render_words(c, x->c->launcher);
	ed_render_words(c, cxx ? x->tk->cxx : x->tk->cc);
	GPtrArray *maps = resolve_prefix_maps(x->r, FALSE);
	for (guint i = 0; i < maps->len; i++)
		ed_render_arg(c, g_ptr_array_index(maps, i));
	g_ptr_array_free(maps, TRUE);
	ed_render_words(c, cxx ? t->cxxflags : t->cflags);
	if (t->pic)
		ed_render_arg(c, "-fPIC");
	for (guint i = 0; i < s->includes->len; i++) {
		char *f = g_strconcat("-I", (char *)g_ptr_array_index(s->includes, i), NULL);
		ed_render_arg(c, f);
		g_free(f);
	}
	if (t->cuda_headers) {
		/* the toolkit's headers as CMake's CUDA::toolkit gives them:
		 * CCCL's (Thrust, CUB: include/cccl from CUDA 13) first */
		char *inc = g_strconcat(x->tk->root, "/targets/", x->tk->target, "/include", NULL);
		char *cccl = g_strconcat(inc, "/cccl", NULL);
		if (g_file_test(cccl, G_FILE_TEST_IS_DIR)) {
			ed_render_arg(c, "-isystem");
			ed_render_arg(c, cccl);
		}
		ed_render_arg(c, "-isystem");
		ed_render_arg(c, inc);
		g_free(cccl);
		g_free(inc);
	} else if (s->links_cuda) {
		/* host code calling the CUDA runtime needs its headers */
		char *f = g_strconcat("-I", x->tk->root, "/targets/",
				      x->tk->target,
				      "/include", NULL);
		ed_render_arg(c, f);
		g_free(f);
	}
	for (guint i = 0; i < s->defines->len; i++) {
		char *f = g_strconcat("-D", (char *)g_ptr_array_index(s->defines, i), NULL);
		ed_render_arg(c, f);
		g_free(f);
	}
	GString *m = g_string_new(NULL);
	ed_measured(x, m);
	/* (-MT: the depfile names the output, not its temporary name) */
	g_string_append_printf(m, " %s", c->str);
	ed_frag(x, m, "cc-out", NULL);
	ed_publish(m, "${out}");
	char *rule_cmd = g_string_free(m, FALSE);
	ed_frag(x, c, "cc-compdb-out", NULL);
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

