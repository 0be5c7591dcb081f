/* edges.c -- the driver of the graph's making: edges_build runs each
 * target's TUs (tuedges.c) and outputs (link.c) in dependency order, then
 * the data copies, the phony targets (each target, arch-sm_XX, all) and
 * the regeneration edge; it names every TU's files; see edges.h and
 * edges_int.h (which of the files owns what).
 *
 * File naming: every TU's object is O.o, O = obj/TARGET/SRC, where SRC is
 * the source's project-relative path with characters outside
 * [A-Za-z0-9._+-/] replaced (so O needs no quoting anywhere), and its
 * intermediate files are in the directory D = O.p (tuedges.c):
 *   D/fe.cpp (D/id)                  fe
 *   D/sm_80.cubin D/compute_90.ptx   dev, one edge per arch (with ptxas
 *                                    edges, cicc writes D/compute_80.ptx)
 *   D/80.ii                          dev-pp (the planner's pp edges)
 *   D/stub.c                         stub: one arch's stub, written only
 *                                    when it changes (restat), so the arch
 *                                    it comes from may change freely
 *   D/host.o (D/host.rank1, rank2)   host (against a placeholder fatbin)
 *   O.o                              fatbin: fatbinary, then objcopy puts
 *                                    it into the host object
 * Header tracking: the fe edge records the host view's headers (deps =
 * gcc); each dev edge records only the headers its device view adds
 * (`cugen depdiff`), since it already reruns whenever fe reruns. This
 * keeps .ninja_deps at about one header list per TU.
 */
#include "edges_int.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "shard.h"
#include "util.h"

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
	s->seeded = rt->seeded;
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
	g_free(s->dlink_obj);
	g_hash_table_destroy(s->rules);
	g_free(s->compdb_prefix);
	for (guint i = 0; i < s->narchs; i++)
		g_free(s->archs[i].id);
	g_free(s->archs);
	g_free(s);
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

static GPtrArray *data_copies(Ctx *x, Target *t)
{
	GPtrArray *outs = g_ptr_array_new();
	if (!t->data->len)
		return outs;
	GString *c = g_string_new(NULL);
	ed_frag(x, c, "copy", NULL);
	ed_publish(c, "${out}");
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
		char *in = ed_rel(x, abs);
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
	ed_render_arg(c, x->in->cugen);
	for (guint i = 0; i < x->in->regen_args->len; i++)
		ed_render_arg(c, g_ptr_array_index(x->in->regen_args, i));
	Rule *r = graph_rule(x->g, RULE_REGEN, c->str, "Regenerating build files (cugen.ini changed)", NULL, NULL, "console");
	r->generator = TRUE;
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_REGEN, r);
	edge_out(e, "build.ninja");
	char *ini = ed_rel(x, x->c->ini_abs);
	edge_in(e, ini);
	g_free(ini);
	for (guint i = 0; i < x->c->glob_dirs->len; i++) {
		char *d = ed_rel(x, g_ptr_array_index(x->c->glob_dirs, i));
		edge_implicit_in(e, d);
		g_free(d);
	}
	edge_implicit_in(e, x->tk->nvcc);
	edge_implicit_in(e, x->in->cugen);
}

void graph_info_clear(GraphInfo *info)
{
	g_free(info->archs);
	if (info->fallbacks)
		g_ptr_array_free(info->fallbacks, TRUE);
	memset(info, 0, sizeof *info);
}

gboolean edges_may_group(const Resolved *r, guint limit)
{
	guint64 fewest = 0;
	gboolean cuda = FALSE;
	for (guint i = 0; i < r->order->len; i++) {
		Target *t = g_ptr_array_index(r->order, i);
		const RTarget *rt = resolved_target(r, t);
		if (rt->has_cuda && rt->tu)
			return FALSE;
		const guint archs = rt->build ? rt->build->archs->len : 0;
		for (guint k = 0; k < t->sources->len; k++)
			if (((Source *)g_ptr_array_index(t->sources, k))->lang == LANG_CUDA) {
				cuda = TRUE;
				fewest += 4 + archs; /* front end, fatbin, stub, host */
			} else {
				fewest++; /* its compile */
			}
	}
	return cuda && fewest <= limit;
}

Graph *edges_build(const Resolved *r, const EdgeInputs *in, const Grouping *gr, GraphInfo *info, GError **err)
{
	return edges_lower(r, in, gr, FALSE, info, err);
}

Graph *edges_lower(const Resolved *r, const EdgeInputs *in, const Grouping *gr, gboolean plan_only, GraphInfo *info,
		   GError **err)
{
	Ctx x = { 0 };
	x.plan_only = plan_only;
	const Config *c = r->c;
	x.r = r;
	x.c = c;
	x.tk = r->tk;
	x.in = in;
	x.opt = gr;
	x.g = graph_new();
	x.state = g_hash_table_new_full(NULL, NULL, NULL, tstate_free);
	x.arch_outs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
	x.objnames = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	x.data_outs = g_hash_table_new(g_str_hash, g_str_equal);
	x.cache = c->cache_dir;
	memset(info, 0, sizeof *info);
	info->fallbacks = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < r->fallbacks->len; i++)
		g_ptr_array_add(info->fallbacks, g_strdup(g_ptr_array_index(r->fallbacks, i)));
	x.info = info;
	gboolean ok = TRUE;
	const GPtrArray *order = r->order;
	guint strings = 0; /* about 4 per edge of a TU's arch, 4 more per TU */
	for (guint i = 0; i < order->len; i++) {
		Target *t = g_ptr_array_index(order, i);
		const RTarget *rt = resolved_target(r, t);
		g_hash_table_insert(x.state, t, tstate_new(rt));
		strings += t->sources->len * (4 + 4 * (rt->build ? rt->build->archs->len : 0));
	}
	cg_table_reserve(&x.g->strings, strings);
	for (guint i = 0; ok && i < order->len; i++) {
		Target *t = g_ptr_array_index(order, i);
		TState *s = g_hash_table_lookup(x.state, t);
		info->targets++;
		info->split_tu_targets += s->has_cuda && s->tu;
		info->seeded_ids |= s->has_cuda && s->seeded;
		if (s->build && s->has_cuda)
			info->device_archs = MAX(info->device_archs, s->build->archs->len);
		for (guint k = 0; k < t->sources->len; k++) {
			Source *src = g_ptr_array_index(t->sources, k);
			char *in = ed_rel(&x, src->abs);
			char *O = obj_prefix(&x, t, src);
			if (src->lang == LANG_CUDA) {
				info->cuda_tus++;
				if (s->tu)
					ed_cuda_tu_whole(&x, s, src, in, O);
				else
					ed_cuda_tu_arch(&x, s, src, in, O);
			} else {
				info->host_tus++;
				ed_host_tu(&x, s, src, in, O);
			}
			g_free(O);
			g_free(in);
		}
		ok = ed_target_output(&x, s, err);
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
			if (s->dlink_obj)
				g_ptr_array_add(outs, g_strdup(s->dlink_obj));
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
			GString *cmd = g_string_new(NULL);
			ed_frag(&x, cmd, "manifest", "SPEC", SHARD_SPEC, "DIR", SHARD_DIR, NULL);
			Rule *r = graph_rule(x.g, RULE_MANIFEST, cmd->str, "CUDA shard manifest", NULL, NULL, NULL);
			g_string_free(cmd, TRUE);
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
	g_free(x.cugen_q);
	if (!ok) {
		graph_free(x.g);
		graph_info_clear(info);
		return NULL;
	}
	return x.g;
}

