/* link.c -- archives, device links and links.
 *
 * Owns: a target's output: the static library (and in rdc mode its
 * per-arch device-link archives), the device link of an executable or
 * shared library (nvlink per arch, fatbinary -link, link.stub; the
 * libnvvm links nvlink -dlto needs), and the link itself with its
 * libraries in dependency order and the CUDA runtime.
 */
#include "edges_int.h"

#include <stdlib.h>
#include <string.h>

#include "install.h"
#include "util.h"
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
	GString *c = g_string_new(NULL);
	ed_frag(x, c, "ar-clean", NULL);
	ed_measured(x, c);
	ed_render_words(c, x->tk->ar);
	ed_frag(x, c, "ar-args", NULL);
	ed_publish(c, "${out}");
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
	return g_path_is_absolute(lib) ? ed_rel(x, lib) : g_strconcat("-l", lib, NULL);
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
			char *r = ed_rel(x, g_ptr_array_index(s->user_libs, i));
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
		char *dev = g_build_filename(std, "libdevice", NULL);
		GString *qdev = g_string_new(NULL), *qnvvm = g_string_new(NULL), *c = g_string_new(NULL);
		ed_render_arg(qdev, dev);
		ed_render_arg(qnvvm, found);
		ed_frag(x, c, "nvvm-shim", "LIBDEVICE", qdev->str, "LIBNVVM", qnvvm->str, NULL);
		g_string_free(qdev, TRUE);
		g_string_free(qnvvm, TRUE);
		g_free(dev);
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
	GPtrArray *a = ed_nvcc_head(x, "-dlink");
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
	char *cugen = cg_sh_quote(x->in->cugen);
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
		ed_frag(x, c, "nvlink-clean", "ID", id, NULL);
		if (!t->devrt)
			ed_frag(x, c, "devrt-hint", "TARGET", t->name, NULL);
		ed_measured(x, c);
		ed_render(c, argv);
		g_ptr_array_free(argv, TRUE);
		ed_publish(c, "${out}");
		char *reg_out = g_strdup_printf("${O}/sm_%s.reg.c", id);
		ed_publish(c, reg_out);
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
		ed_frag(x, images, "image-elf", "ID", id, NULL);
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
	ed_measured(x, c);
	ed_render(c, s->dlink->fatbin);
	g_string_append(c, images->str);
	ed_frag(x, c, "dlink-fatbin", NULL);
	ed_publish(c, "${out}");
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
	GPtrArray *maps = resolve_prefix_maps(x->r, FALSE);
	for (guint k = maps->len; k-- > 0;)
		g_ptr_array_insert(host, 1, g_strdup(g_ptr_array_index(maps, k)));
	g_ptr_array_free(maps, TRUE);
	argv_subst(host, P_REG, first);
	argv_subst(host, P_OUT, P_OUT TMP);
	c = g_string_new(NULL);
	ed_measured(x, c);
	ed_render(c, host);
	g_ptr_array_free(host, TRUE);
	ed_publish(c, "${out}");
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

/* A versioned shared library's links: SONAME -> REAL and NAME -> SONAME
 * (libk.so.1 -> libk.so.1.2.0, libk.so -> libk.so.1), as CMake makes them. */
static void version_links(Ctx *x, Target *t, const char *real, const char *name)
{
	char *so = target_soname(t);
	GString *c = g_string_new(NULL);
	ed_frag(x, c, strcmp(so, real) != 0 ? "version-links" : "version-link", NULL);
	Rule *r = graph_rule(x->g, RULE_SYMLINK, c->str, "SYMLINK ${out}", NULL, NULL, NULL);
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_SYMLINK, r);
	e->target = t->name;
	edge_out(e, name);
	if (strcmp(so, real) != 0)
		edge_out(e, so);
	/* order-only: a relink changes nothing a link says (ninja would
	 * otherwise rerun this after each one, its log's mtime being older) */
	edge_order_in(e, real);
	char *q[] = { cg_sh_quote(real), cg_sh_quote(so), cg_sh_quote(name) };
	edge_var(e, "real", q[0]);
	edge_var(e, "soname", q[1]);
	edge_var(e, "name", q[2]);
	for (gsize i = 0; i < G_N_ELEMENTS(q); i++)
		g_free(q[i]);
	g_free(so);
}

/* Libraries of t's dependencies, in link order. */
static GPtrArray *link_order(Ctx *x, Target *t)
{
	GPtrArray *order = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GHashTable *walked = g_hash_table_new(NULL, NULL);
	link_libs(x, t, order, seen, walked);
	for (guint i = 0, j = order->len; j > i + 1; i++, j--) {
		gpointer tmp = order->pdata[i];
		order->pdata[i] = order->pdata[j - 1];
		order->pdata[j - 1] = tmp;
	}
	g_hash_table_destroy(walked);
	g_hash_table_destroy(seen);
	return order;
}

/* The device link of t with its objects and the static libraries of
 * order: the object to link, or NULL with err set. */
static char *device_link_all(Ctx *x, TState *s, GPtrArray *objs, GPtrArray *order, GError **err)
{
	GPtrArray *statics = g_ptr_array_new();
	for (guint i = 0; i < order->len; i++) {
		TState *ds = g_hash_table_lookup(x->state, g_ptr_array_index(order, i));
		if (ds->t->type == TGT_STATIC)
			g_ptr_array_add(statics, ds->t);
	}
	char *dl = device_link(x, s, objs, statics, err);
	g_ptr_array_free(statics, TRUE);
	return dl;
}

/* device_link = yes on a static or object target: its own device link
 * (its objects, those of its object dependencies and its static
 * libraries), an object for consumers that link it outside cugen, as
 * CMake's CUDA_RESOLVE_DEVICE_SYMBOLS gives a static library. */
static gboolean own_device_link(Ctx *x, TState *s, GPtrArray *objs, GError **err)
{
	if (!s->t->device_link)
		return TRUE;
	GPtrArray *order = link_order(x, s->t);
	s->dlink_obj = device_link_all(x, s, objs, order, err);
	g_ptr_array_free(order, TRUE);
	return s->dlink_obj != NULL;
}

gboolean ed_target_output(Ctx *x, TState *s, GError **err)
{
	Target *t = s->t;
	s->output = target_output_name(t);
	GPtrArray *objs = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	link_objects(x, t, objs, seen);
	g_hash_table_destroy(seen);
	if (!s->output) {
		gboolean ok = own_device_link(x, s, objs, err);
		g_ptr_array_free(objs, TRUE);
		return ok;
	}
	if (t->type == TGT_STATIC) {
		Edge *e = graph_edge(x->g, EK_AR, ar_rule(x));
		e->target = t->name;
		edge_out(e, s->output);
		s->out_edge = e;
		for (guint i = 0; i < objs->len; i++)
			edge_in(e, g_ptr_array_index(objs, i));
		dlink_archives(x, s);
		gboolean ok = own_device_link(x, s, objs, err);
		g_ptr_array_free(objs, TRUE);
		return ok;
	}
	GPtrArray *order = link_order(x, t);
	if (target_needs_dlink(t)) {
		char *dl = device_link_all(x, s, objs, order, err);
		if (!dl) {
			g_ptr_array_free(order, TRUE);
			g_ptr_array_free(objs, TRUE);
			return FALSE;
		}
		g_ptr_array_insert(objs, 0, dl);
	}
	GString *c = g_string_new(NULL);
	ed_measured(x, c);
	ed_render_words(c, x->tk->cxx);
	char *real = target_real_name(t);
	if (t->type == TGT_SHARED) {
		g_string_append(c, " -shared");
		char *so = target_soname(t);
		char *soname = g_strdup_printf("-Wl,-soname,%s", so);
		ed_render_arg(c, soname);
		g_free(soname);
		g_free(so);
	}
	ed_render_words(c, t->ldflags);
	ed_frag(x, c, "link-out", NULL);
	for (guint i = 0; i < s->user_libs->len; i++) {
		char *f = lib_arg(x, g_ptr_array_index(s->user_libs, i));
		ed_render_arg(c, f);
		g_free(f);
	}
	if (s->links_cuda && x->c->cudart != CUDART_NONE) {
		char *L = g_strconcat("-L", x->r->cudart_dir, NULL);
		ed_render_arg(c, L);
		g_free(L);
		if (t->devrt)
			g_string_append(c, " -lcudadevrt");
		if (x->c->cudart == CUDART_STATIC)
			g_string_append(c, " -lcudart_static -lrt -lpthread -ldl");
		else {
			char *rp = g_strconcat("-Wl,-rpath,", x->r->cudart_dir, NULL);
			g_string_append(c, " -lcudart");
			ed_render_arg(c, rp);
			g_free(rp);
		}
	}
	ed_publish(c, "${out}");
	Rule *r = graph_rule(x->g, RULE_LINK, c->str, "LINK ${out}", NULL, NULL, "link");
	g_string_free(c, TRUE);
	Edge *e = graph_edge(x->g, EK_LINK, r);
	e->target = t->name;
	edge_out(e, real);
	s->out_edge = e;
	if (strcmp(real, s->output) != 0)
		version_links(x, t, real, s->output);
	g_free(real);
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
	char *irp = install_rpath(x->c, x->tk, t);
	if (irp) {
		/* room for the install tree's RUNPATH, which `cugen install`
		 * writes over this one: $ORIGIN (the build directory, where
		 * every output is) with slashes up to its length */
		GString *pad = g_string_new("-Wl,-rpath,$ORIGIN");
		for (gsize n = strlen("$ORIGIN"); n < strlen(irp); n++)
			g_string_append_c(pad, '/');
		cg_sh_append(libs, pad->str);
		g_string_free(pad, TRUE);
		g_free(irp);
	}
	edge_var(e, "libs", libs->str);
	g_string_free(libs, TRUE);
	g_ptr_array_free(order, TRUE);
	return TRUE;
}

/* data = ...: each file copied to its project-relative path in BUILDDIR
 * (whole or not at all). Returns the copies, interned. */
