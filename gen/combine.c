/* combine.c -- `cugen combine -B BUILDDIR SHARD_DIR...`.
 *
 * Owns: checking shards against this build (toolkit and host compiler,
 * every image's rule and input files, every image present exactly once
 * and intact), turning each device edge of BUILDDIR's graph into an import
 * of the shard's image, writing that graph, and running ninja for the
 * edges that remain (front ends, host compiles, fatbins, device links,
 * links). Running it twice is safe: the second run imports nothing new. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "safepath.h"
#include "setup.h"
#include "shard.h"
#include "statefile.h"
#include "util.h"

typedef struct {
	char *dir;          /* absolute shard directory */
	GKeyFile *m;        /* its manifest */
} Shard;

static void shard_free(gpointer p)
{
	Shard *s = p;
	g_free(s->dir);
	if (s->m)
		g_key_file_free(s->m);
	g_free(s);
}

static gboolean load_shard(const char *dir, GPtrArray *shards, GError **err)
{
	Shard *s = g_new0(Shard, 1);
	s->dir = cg_abspath(dir);
	g_ptr_array_add(shards, s);
	char *p = g_build_filename(s->dir, "manifest.ini", NULL);
	s->m = g_key_file_new();
	GError *e = NULL;
	gsize len = 0;
	char *text = cg_read_regular(p, (gsize)256 << 20, FALSE, &len, &e);
	g_free(p);
	if (!text) {
		cg_error(err, "shard '%s': no readable manifest.ini (%s); build the shard with 'ninja shard'", dir,
			 e->message + 7);
		g_error_free(e);
		return FALSE;
	}
	gboolean ok = shard_manifest_load(s->m, text, len, dir, err);
	g_free(text);
	return ok;
}

static gboolean same_key(GKeyFile *m, const char *key, const char *want, const char *dir,
			 const char *what, GError **err)
{
	char *v = g_key_file_get_string(m, "shard", key, NULL);
	gboolean ok = v && strcmp(v, want) == 0;
	if (!ok)
		cg_error(err, "shard '%s' was built with %s '%s', this build has '%s'", dir, what,
			 v ? v : "(none)", want);
	g_free(v);
	return ok;
}

/* The image group of a device edge's first output, in one shard only. */
static Shard *find_image(GPtrArray *shards, const char *image, const char *arch, GError **err)
{
	Shard *found = NULL;
	for (guint i = 0; i < shards->len; i++) {
		Shard *s = g_ptr_array_index(shards, i);
		if (!g_key_file_has_group(s->m, image))
			continue;
		if (found) {
			cg_error(err, "image '%s' (%s) is in two shards, '%s' and '%s': each arch must be built once",
				 image, arch, found->dir, s->dir);
			return NULL;
		}
		found = s;
	}
	if (!found)
		cg_error(err, "no shard has image '%s' (%s): every arch of this build must come from a shard", image, arch);
	return found;
}

/* Inputs: the shard hashed the files its device preprocess read; this
 * checkout's files must be the same. */
static gboolean check_inputs(Shard *s, const char *image, const Edge *e, GHashTable *cache, GError **err)
{
	gsize n = 0, nh = 0;
	char **inputs = g_key_file_get_string_list(s->m, image, "inputs", &n, NULL);
	char **hashes = g_key_file_get_string_list(s->m, image, "input_hashes", &nh, NULL);
	gboolean ok = inputs && hashes && n == nh;
	if (!ok)
		cg_error(err, "shard '%s': the manifest entry of '%s' is incomplete", s->dir, image);
	for (gsize i = 0; ok && i < n; i++) {
		const char *h = shard_file_hash(cache, inputs[i]);
		if (!h) {
			cg_error(err, "shard '%s': %s (%s) read '%s', which this checkout lacks",
				 s->dir, e->source, e->arch, inputs[i]);
			ok = FALSE;
		} else if (strcmp(h, hashes[i]) != 0) {
			cg_error(err, "shard '%s': %s (%s) was built from another '%s' than this checkout's",
				 s->dir, e->source, e->arch, inputs[i]);
			ok = FALSE;
		}
	}
	g_strfreev(inputs);
	g_strfreev(hashes);
	return ok;
}

static gint by_image(gconstpointer a, gconstpointer b)
{
	const Edge *x = *(Edge *const *)a, *y = *(Edge *const *)b;
	return strcmp(EDGE_AT(x->outs, 0), EDGE_AT(y->outs, 0));
}

/* Replace a device edge by the import of its shard's files. */
static gboolean to_import(Graph *g, Edge *e, Shard *s, const char *image, Rule *import, GError **err)
{
	gsize nf = 0, nh = 0;
	char **files = g_key_file_get_string_list(s->m, image, "files", &nf, NULL);
	char **hashes = g_key_file_get_string_list(s->m, image, "file_hashes", &nh, NULL);
	if (!files || nf != nh) {
		cg_error(err, "shard '%s': the manifest entry of '%s' lists no files", s->dir, image);
		g_strfreev(files);
		g_strfreev(hashes);
		return FALSE;
	}
	/* exactly the files this build's edge makes, nothing else */
	char **want = shard_image_files(e);
	char *want_stub = shard_image_stub(e);
	char *stub = g_key_file_get_string(s->m, image, "stub", NULL);
	gboolean same = g_strv_equal((const char *const *)want, (const char *const *)files) &&
			(!stub || strcmp(stub, want_stub) == 0);
	g_strfreev(want);
	g_free(want_stub);
	if (!same) {
		cg_error(err, "shard '%s': the manifest entry of '%s' (%s) names other files than this build's "
			      "edge makes: refused", s->dir, image, e->arch);
		g_free(stub);
		g_strfreev(files);
		g_strfreev(hashes);
		return FALSE;
	}
	GString *args = g_string_new(NULL);
	GPtrArray *srcs = g_ptr_array_new_with_free_func(g_free);
	for (gsize i = 0; i < nf; i++) {
		char *src = g_build_filename(s->dir, "images", files[i], NULL);
		/* a missing or damaged image is refused now, not half-way */
		gsize len = 0;
		char *data = cg_read_regular(src, CG_READ_MAX, TRUE, &len, NULL);
		char *sum = data ? cg_hash_hex(data, len) : NULL;
		g_free(data);
		gboolean good = sum && strcmp(sum, hashes[i]) == 0;
		if (!good)
			cg_error(err, "shard '%s': image '%s' is %s", s->dir, files[i],
				 sum ? "corrupt (its hash differs from the manifest)" : "missing");
		g_free(sum);
		if (!good) {
			g_free(src);
			g_free(stub);
			g_ptr_array_free(srcs, TRUE);
			g_string_free(args, TRUE);
			g_strfreev(files);
			g_strfreev(hashes);
			return FALSE;
		}
		cg_sh_append(args, src);
		cg_sh_append(args, files[i]);
		cg_sh_append(args, hashes[i]);
		g_ptr_array_add(srcs, src);
	}
	if (stub) {
		char *src = g_build_filename(s->dir, "images", stub, NULL);
		gsize len = 0;
		char *data = cg_read_regular(src, CG_READ_MAX, TRUE, &len, NULL);
		if (data) {
			char *sum = cg_hash_hex(data, len);
			cg_sh_append(args, src);
			cg_sh_append(args, stub);
			cg_sh_append(args, sum);
			g_free(sum);
			g_ptr_array_add(srcs, src);
			src = NULL;
		}
		g_free(data);
		g_free(src);
	}
	char *id = g_key_file_get_string(s->m, image, "module_id", NULL);
	e->rule = import;
	if (e->ins)
		e->ins->len = 0;
	/* the device view from a pp edge (plan.c) is the shard's business */
	for (guint i = EDGE_LEN(e->implicit_ins); i-- > 0;)
		if (g_str_has_suffix(EDGE_AT(e->implicit_ins, i), ".ii"))
			edge_remove_at(e->implicit_ins, i);
	for (guint i = 0; i < srcs->len; i++)
		edge_in(e, g_ptr_array_index(srcs, i));
	char *qid = cg_sh_quote(id ? id : "");
	edge_var(e, "id", qid);
	edge_var(e, "files", args->str);
	g_free(qid);
	g_free(id);
	g_free(stub);
	g_ptr_array_free(srcs, TRUE);
	g_string_free(args, TRUE);
	g_strfreev(files);
	g_strfreev(hashes);
	return TRUE;
}

int cmd_combine(int argc, char **argv)
{
	char *builddir = NULL;
	gboolean no_build = FALSE;
	GOptionEntry entries[] = {
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &builddir, "The build directory (set up with cugen setup)", "BUILDDIR" },
		{ "no-build", 0, 0, G_OPTION_ARG_NONE, &no_build, "Write the graph but do not run ninja", NULL },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new("SHARD_DIR...");
	g_option_context_set_summary(ctx, "Build the final artifacts from shards: directories that 'ninja shard'\n"
				     "left in the build directories of builds of some archs each.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_set_prgname("cugen combine");
	GError *err = NULL;
	int rc = 0;
	SetupArgs a = { 0 };
	Generated gen = { 0 };
	GPtrArray *shards = g_ptr_array_new_with_free_func(shard_free);
	GHashTable *cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GKeyFile *args = g_key_file_new();
	char *cwd = g_get_current_dir();
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		GError *u = NULL;
		cg_usage_error(&u, "%s (see 'cugen combine --help')", err->message);
		g_clear_error(&err);
		err = u;
		goto out;
	}
	if (!builddir || argc < 2) {
		cg_usage_error(&err, "give -B BUILDDIR and at least one SHARD_DIR (see 'cugen combine --help')");
		goto out;
	}
	char *babs = cg_abspath(builddir);
	char *ap = g_build_filename(babs, ".cugen", "args.ini", NULL);
	if (!state_load_keyfile(args, ap, "args")) {
		cg_error(&err, "'%s' was not set up by cugen setup (no .cugen/args.ini)", builddir);
		g_free(ap);
		g_free(babs);
		goto out;
	}
	g_free(ap);
	a.builddir = babs;
	a.file = g_key_file_get_string(args, "setup", "file", NULL);
	a.srcdir = g_path_get_dirname(a.file);
	a.profile = g_key_file_get_string(args, "setup", "profile", NULL);
	a.archs = g_key_file_get_string(args, "setup", "archs", NULL);
	a.defines = g_key_file_get_string_list(args, "setup", "defines", NULL, NULL);
	a.backend = g_strdup("ninja");
	/* the imported images replace whole device edges (no cicc edges
	 * left to compile, no PTX made twice) */
	a.whole_device = TRUE;
	/* the graph regenerates as this combine */
	GPtrArray *regen = g_ptr_array_new();
	g_ptr_array_add(regen, g_strdup("combine"));
	g_ptr_array_add(regen, g_strdup("--no-build"));
	g_ptr_array_add(regen, g_strdup("-B"));
	g_ptr_array_add(regen, g_strdup(babs));
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(regen, cg_abspath(argv[i]));
	g_ptr_array_add(regen, NULL);
	a.regen = (char **)g_ptr_array_free(regen, FALSE);

	for (int i = 1; i < argc; i++)
		if (!load_shard(argv[i], shards, &err))
			goto out;
	/* paths in the graph and in the manifests are relative to BUILDDIR */
	if (!setup_generate(&a, &gen, &err))
		goto out;
	if (chdir(babs) != 0) {
		cg_error(&err, "cannot enter '%s'", builddir);
		goto out;
	}
	for (guint i = 0; i < shards->len; i++) {
		Shard *s = g_ptr_array_index(shards, i);
		if (!same_key(s->m, "toolkit", gen.tk->version, s->dir, "CUDA", &err) ||
		    !same_key(s->m, "host_version", gen.tk->host_version, s->dir, "host compiler version", &err))
			goto out;
	}
	char *self = g_file_read_link("/proc/self/exe", NULL);
	char *q = cg_sh_quote(self ? self : "cugen");
	char *cmd = g_strdup_printf("%s import ${O}/id ${id} ${files}", q);
	Rule *import = graph_rule(gen.g, RULE_IMPORT, cmd, "CUDA import ${out}", NULL, NULL, NULL);
	g_free(cmd);
	g_free(q);
	guint n = 0;
	/* by image path, not in the planner's order: the first missing or
	 * refused image is the same whatever the order of the edges */
	GPtrArray *devs = g_ptr_array_new();
	for (guint i = 0; i < gen.g->edges->len; i++) {
		Edge *e = g_ptr_array_index(gen.g->edges, i);
		if (e->kind == EK_DEV)
			g_ptr_array_add(devs, e);
	}
	g_ptr_array_sort(devs, by_image);
	for (guint i = 0; i < devs->len; i++) {
		Edge *e = g_ptr_array_index(devs, i);
		const char *image = EDGE_AT(e->outs, 0);
		Shard *s = find_image(shards, image, e->arch, &err);
		if (!s)
			break;
		char *rule = g_key_file_get_string(s->m, image, "rule", NULL);
		char *mine = shard_rule_hash(e->rule, self ? self : "cugen");
		gboolean same = rule && strcmp(rule, mine) == 0;
		g_free(rule);
		g_free(mine);
		if (!same) {
			cg_error(&err, "shard '%s': %s (%s) was built with other flags, another arch set or another toolkit path than this build",
				 s->dir, e->source, e->arch);
			break;
		}
		if (!check_inputs(s, image, e, cache, &err) || !to_import(gen.g, e, s, image, import, &err))
			break;
		n++;
	}
	g_ptr_array_free(devs, TRUE);
	g_free(self);
	if (err)
		goto out;
	if (chdir(cwd) != 0) {
		cg_error(&err, "cannot return to '%s'", cwd);
		goto out;
	}
	if (!setup_write(&a, &gen, &err))
		goto out;
	printf("cugen: combine: %u images from %u shards checked; %s\n", n, shards->len,
	       no_build ? "graph written" : "building the rest");
	fflush(stdout);
	if (!no_build) {
		const char *ninja_argv[] = { "ninja", "-C", a.builddir, NULL };
		const char *ninja = g_getenv("NINJA");
		if (ninja && *ninja)
			ninja_argv[0] = ninja;
		int status = 0;
		GError *e = NULL;
		if (!g_spawn_sync(NULL, (char **)ninja_argv, NULL,
				  G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN,
				  NULL, NULL, NULL, NULL, &status, &e)) {
			cg_error(&err, "cannot run ninja: %s", e->message);
			g_error_free(e);
			goto out;
		}
		rc = g_spawn_check_wait_status(status, NULL) ? 0 : 1;
	}
out:
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	g_free(cwd);
	g_key_file_free(args);
	g_hash_table_destroy(cache);
	g_ptr_array_free(shards, TRUE);
	setup_generated_clear(&gen);
	setup_args_clear(&a);
	g_option_context_free(ctx);
	g_free(builddir);
	return rc;
}
