/* combine.c -- `cugen combine -B BUILDDIR SHARD_DIR...`.
 *
 * Owns: checking shards against this build (toolkit, host compiler and
 * arch set, every image's rule and input files by layout-free names
 * (relocate.h), every image of this build present exactly once and
 * intact, no image it does not make), turning each device edge of BUILDDIR's graph into an import
 * of the shard's image, writing that graph, and running ninja for the
 * edges that remain (front ends, host compiles, fatbins, device links,
 * links). Running it twice is safe: the second run imports nothing new. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "safepath.h"
#include "setup.h"
#include "shard.h"
#include "statefile.h"
#include "template.h"
#include "util.h"
#include "version.h"

typedef struct {
	char *dir;          /* absolute shard directory */
	GKeyFile *m;        /* its manifest */
	char *version;      /* the cugen that made it, where another than this */
} Shard;

static void shard_free(gpointer p)
{
	Shard *s = p;
	g_free(s->dir);
	g_free(s->version);
	if (s->m)
		g_key_file_free(s->m);
	g_free(s);
}

/* --trust FILE: the sha256 digests of the shards' manifests, as the shard
 * jobs printed them (sha256sum's lines), or NULL. */
static GHashTable *trusted;

static gboolean load_trust(const char *file, GError **err)
{
	gsize len = 0;
	GError *e = NULL;
	char *text = cg_read_regular(file, (gsize)16 << 20, FALSE, &len, &e);
	if (!text) {
		cg_error(err, "--trust: cannot read '%s' (%s)", file, e->message + 7);
		g_error_free(e);
		return FALSE;
	}
	trusted = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	char **lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		gsize n = strspn(*l, "0123456789abcdef");
		if (n == 64 && (!(*l)[n] || g_ascii_isspace((*l)[n])))
			g_hash_table_add(trusted, g_strndup(*l, 64));
	}
	g_strfreev(lines);
	g_free(text);
	if (!g_hash_table_size(trusted)) {
		cg_error(err, "--trust: '%s' lists no sha256 digest (lines as sha256sum prints them)", file);
		return FALSE;
	}
	return TRUE;
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
	char *digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	gboolean ok = !trusted || g_hash_table_contains(trusted, digest);
	if (!ok)
		cg_error(err, "shard '%s': its manifest.ini (sha256 %s) is none of those --trust lists: refused", dir,
			 digest);
	g_free(digest);
	ok = ok && shard_manifest_load(s->m, text, len, dir, err);
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

/* module_id = absolute: the images hold the checkout's and the build
 * directory's paths (module ids, __FILE__ of headers named from the build
 * directory), so a shard combines only into the build it was made in. */
static gboolean same_places(Shard *s, const char *src, const char *build, GError **err)
{
	char *ts = g_key_file_get_string(s->m, "shard", "source_dir", NULL);
	char *tb = g_key_file_get_string(s->m, "shard", "build_dir", NULL);
	gboolean ok = ts && tb && strcmp(ts, src) == 0 && strcmp(tb, build) == 0;
	if (!ok)
		cg_error(err, "shard '%s' was built from '%s' in '%s', this build is '%s' in '%s': with module_id = "
			      "absolute the images hold those paths; build the shards in this checkout and build "
			      "directory, or use module_id = relative",
			 s->dir, ts ? ts : "?", tb ? tb : "?", src, build);
	g_free(ts);
	g_free(tb);
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
static gboolean check_inputs(Shard *s, const char *image, const Edge *e, GHashTable *cache, const Places *here,
			     GError **err)
{
	gsize n = 0, nh = 0;
	char **inputs = g_key_file_get_string_list(s->m, image, "inputs", &n, NULL);
	char **hashes = g_key_file_get_string_list(s->m, image, "input_hashes", &nh, NULL);
	gboolean ok = inputs && hashes && n == nh;
	if (!ok)
		cg_error(err, "shard '%s': the manifest entry of '%s' is incomplete", s->dir, image);
	for (gsize i = 0; ok && i < n; i++) {
		/* (named without the shard's layout: reloc_path) */
		char *path = reloc_local(inputs[i], here);
		const char *h = shard_file_hash(cache, path);
		g_free(path);
		char *name = h && strcmp(h, hashes[i]) == 0 ? NULL : reloc_shown(inputs[i]);
		if (!h)
			cg_error(err, "shard '%s': %s (%s) read '%s', which this checkout lacks", s->dir, e->source,
				 e->arch, name);
		else if (name)
			cg_error(err, "shard '%s': %s (%s) was built from another '%s' than this checkout's", s->dir,
				 e->source, e->arch, name);
		ok = !name;
		g_free(name);
	}
	g_strfreev(inputs);
	g_strfreev(hashes);
	return ok;
}

/* The rule: the image's in the shard's manifest must be this build's
 * edge's, as shard_rule_text writes both; else the first difference. */
static gboolean same_rule(Shard *s, const char *image, const Edge *e, const char *cugen, const Places *here,
			  GHashTable *texts, GError **err)
{
	char *rule = g_key_file_get_string(s->m, image, "rule", NULL);
	/* one text and hash per rule, as the spec has them (edges share rules) */
	char **th = g_hash_table_lookup(texts, e->rule);
	if (!th) {
		th = g_new0(char *, 3);
		th[0] = shard_rule_text(e->rule, cugen, here);
		th[1] = shard_rule_hash(th[0]);
		g_hash_table_insert(texts, e->rule, th);
	}
	const char *text = th[0], *mine = th[1];
	gboolean same = rule && strcmp(rule, mine) == 0;
	if (!same) {
		char *grp = g_strconcat(SHARD_RULE_GROUP, rule ? rule : "", NULL);
		char *theirs = g_key_file_get_string(s->m, grp, "command", NULL);
		char *diff = theirs ? reloc_first_difference(theirs, text) : NULL;
		const char *what = diff ? diff : "another command (the shard's manifest does not say which)";
		if (s->version)
			cg_error(err, "shard '%s' was made by cugen %s, this is cugen %s, and its rules differ: "
				      "%s (%s) was built with %s; build the shards with this cugen",
				 s->dir, s->version, cugen_version(), e->source, e->arch, what);
		else
			cg_error(err, "shard '%s': %s (%s) was built with %s", s->dir, e->source, e->arch, what);
		g_free(diff);
		g_free(theirs);
		g_free(grp);
	}
	g_free(rule);
	return same;
}

/* --split-compile changes the code: a shard's image built with another
 * split than this build's edge (the planner chose it on the shard's
 * machine) is not what this build would make. A reproducible build
 * refuses it, naming the choice. */
static gboolean same_split(Shard *s, const char *image, const Edge *e, gboolean reproducible, GError **err)
{
	char *sc = g_key_file_get_string(s->m, image, "split_compile", NULL);
	int theirs = sc ? atoi(sc) : 0, mine = e->rule->split_compile > 1 ? e->rule->split_compile : 0;
	g_free(sc);
	if (!reproducible || theirs == mine)
		return TRUE;
	if (theirs > 1)
		cg_error(err, "shard '%s': %s (%s) was built with --split-compile %d (a planner choice of the shard's "
			      "machine, which changes the code), and this build has reproducible = yes: set up the "
			      "shards with it too",
			 s->dir, e->source, e->arch, theirs);
	else
		cg_error(err, "shard '%s': %s (%s) was built without the --split-compile %d this build uses", s->dir,
			 e->source, e->arch, mine);
	return FALSE;
}

/* A shard's image that no device edge of this build took: refused (an
 * arch or a TU this build does not have). */
static gboolean extra_image(Shard *s, GHashTable *taken, GError **err)
{
	gsize ng = 0;
	char **groups = g_key_file_get_groups(s->m, &ng);
	gboolean ok = TRUE;
	for (gsize i = 0; ok && i < ng; i++) {
		if (strcmp(groups[i], "shard") == 0 || g_str_has_prefix(groups[i], SHARD_RULE_GROUP) ||
		    g_hash_table_contains(taken, groups[i]))
			continue;
		char *arch = g_key_file_get_string(s->m, groups[i], "arch", NULL);
		cg_error(err, "shard '%s' holds image '%s' (%s), which this build does not make: combine the shards "
			      "of this build's arch set and sources",
			 s->dir, groups[i], arch && g_utf8_validate(arch, -1, NULL) ? arch : "?");
		g_free(arch);
		ok = FALSE;
	}
	g_strfreev(groups);
	return ok;
}

/* "sm_75" before "sm_80" before "compute_80" before "sm_90a". */
static gint by_arch(gconstpointer a, gconstpointer b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	const char *nx = strchr(x, '_'), *ny = strchr(y, '_');
	long d = (nx ? strtol(nx + 1, NULL, 10) : 0) - (ny ? strtol(ny + 1, NULL, 10) : 0);
	return d ? (d < 0 ? -1 : 1) : strcmp(y, x);
}

static gint by_image(gconstpointer a, gconstpointer b)
{
	const Edge *x = *(Edge *const *)a, *y = *(Edge *const *)b;
	return strcmp(EDGE_AT(x->outs, 0), EDGE_AT(y->outs, 0));
}

/* Where combine keeps a shard's file in the build directory, relative to
 * it: the imports read that copy, so the build does not depend on the
 * downloaded shard directories once combine has run. */
#define KEPT ".cugen/imported"

/* Copy each (source, kept name, hash) of copies into builddir, checking
 * the hash again; a copy already holding those bytes is left as it is
 * (its time too: a second combine finds nothing to do). */
static gboolean keep_copies(const char *builddir, GPtrArray *copies, GError **err)
{
	for (guint i = 0; i + 2 < copies->len; i += 3) {
		const char *src = g_ptr_array_index(copies, i), *rel = g_ptr_array_index(copies, i + 1);
		const char *hash = g_ptr_array_index(copies, i + 2);
		char *dst = g_build_filename(builddir, rel, NULL);
		gsize len = 0;
		char *have = cg_read_regular(dst, CG_READ_MAX, TRUE, &len, NULL);
		char *hh = have ? cg_hash_hex(have, len) : NULL;
		gboolean same = hh && strcmp(hh, hash) == 0;
		g_free(hh);
		g_free(have);
		g_free(dst);
		if (same)
			continue;
		char *data = cg_read_regular(src, CG_READ_MAX, TRUE, &len, NULL);
		char *sum = data ? cg_hash_hex(data, len) : NULL;
		gboolean ok = sum && strcmp(sum, hash) == 0;
		if (!ok)
			cg_error(err, "'%s' changed while combine read it", src);
		else
			ok = cg_write_beneath(builddir, rel, data, len, err);
		g_free(sum);
		g_free(data);
		if (!ok)
			return FALSE;
	}
	return TRUE;
}

/* What an import takes from a shard: the place-image arguments, the
 * kept copies' paths (the edge's inputs) and copies for keep_copies
 * (source, name, hash). */
typedef struct {
	GString *args;
	GPtrArray *srcs, *copies;
	const char *builddir;
} Taken;

/* One file of the shard (name below images/, its manifest hash), read
 * without following a link and checked now, not half-way through the
 * build; what of the file it is (an image, a host stub) for the error. */
static gboolean take_file(Shard *s, const char *name, const char *hash, const char *what, Taken *t, GError **err)
{
	char *src = g_build_filename(s->dir, "images", name, NULL);
	gsize len = 0;
	char *data = cg_read_regular(src, CG_READ_MAX, TRUE, &len, NULL);
	char *sum = data ? cg_hash_hex(data, len) : NULL;
	g_free(data);
	gboolean good = sum && hash && strcmp(sum, hash) == 0;
	if (!good)
		cg_error(err, "shard '%s': %s '%s' is %s", s->dir, what, name,
			 sum ? "corrupt (its hash differs from the manifest)" : "missing or not a regular file");
	g_free(sum);
	if (!good) {
		g_free(src);
		return FALSE;
	}
	char *rel = g_build_filename(KEPT, name, NULL);
	char *kept = g_build_filename(t->builddir, rel, NULL);
	cg_sh_append(t->args, kept);
	cg_sh_append(t->args, name);
	cg_sh_append(t->args, hash);
	g_ptr_array_add(t->srcs, kept);
	g_ptr_array_add(t->copies, src);
	g_ptr_array_add(t->copies, rel);
	g_ptr_array_add(t->copies, g_strdup(hash));
	return TRUE;
}

/* Replace a device edge by the import of its shard's files (kept in the
 * build directory by keep_copies: copies gets source, name, hash). */
static gboolean to_import(Graph *g, Edge *e, Shard *s, const char *image, gboolean stub_needed, Rule *import,
			  const char *builddir, GPtrArray *copies, GError **err)
{
	gsize nf = 0, nh = 0;
	char **files = g_key_file_get_string_list(s->m, image, "files", &nf, NULL);
	char **hashes = g_key_file_get_string_list(s->m, image, "file_hashes", &nh, NULL);
	char *stub = g_key_file_get_string(s->m, image, "stub", NULL);
	char *stub_hash = g_key_file_get_string(s->m, image, "stub_hash", NULL);
	Taken t = { g_string_new(NULL), g_ptr_array_new_with_free_func(g_free), copies, builddir };
	gboolean ok = files && nf == nh;
	if (!ok)
		cg_error(err, "shard '%s': the manifest entry of '%s' lists no files", s->dir, image);
	/* exactly the files this build's edge makes, nothing else */
	char **want = ok ? shard_image_files(e) : NULL;
	char *want_stub = ok ? shard_image_stub(e) : NULL;
	ok = ok && g_strv_equal((const char *const *)want, (const char *const *)files) &&
	     (!stub || strcmp(stub, want_stub) == 0);
	if (!ok && want)
		cg_error(err, "shard '%s': the manifest entry of '%s' (%s) names other files than this build's "
			      "edge makes: refused", s->dir, image, e->arch);
	g_strfreev(want);
	g_free(want_stub);
	for (gsize i = 0; ok && i < nf; i++)
		ok = take_file(s, files[i], hashes[i], "image", &t, err);
	/* the host stub: host code the build compiles, so hashed and
	 * checked like the images; present where this build's stub edge
	 * reads it (checks and build agree) */
	if (ok && stub_needed && !stub)
		cg_error(err, "shard '%s': the manifest entry of '%s' (%s) has no host stub, which this build "
			      "compiles: refused", s->dir, image, e->arch);
	else if (ok && stub && !stub_hash)
		cg_error(err, "shard '%s': the manifest entry of '%s' (%s) names a host stub without its hash: "
			      "refused", s->dir, image, e->arch);
	else if (ok && stub)
		take_file(s, stub, stub_hash, "host stub", &t, err);
	ok = !*err;
	g_free(stub_hash);
	g_free(stub);
	g_strfreev(files);
	g_strfreev(hashes);
	if (!ok) {
		g_ptr_array_free(t.srcs, TRUE);
		g_string_free(t.args, TRUE);
		return FALSE;
	}
	char *id = g_key_file_get_string(s->m, image, "module_id", NULL);
	e->rule = import;
	if (e->ins)
		e->ins->len = 0;
	/* the device view from a pp edge (plan.c) is the shard's business */
	for (guint i = EDGE_LEN(e->implicit_ins); i-- > 0;)
		if (g_str_has_suffix(EDGE_AT(e->implicit_ins, i), ".ii"))
			edge_remove_at(e->implicit_ins, i);
	for (guint i = 0; i < t.srcs->len; i++)
		edge_in(e, g_ptr_array_index(t.srcs, i));
	char *qid = cg_sh_quote(id ? id : "");
	edge_var(e, "id", qid);
	edge_var(e, "files", t.args->str);
	g_free(qid);
	g_free(id);
	g_ptr_array_free(t.srcs, TRUE);
	g_string_free(t.args, TRUE);
	return TRUE;
}

int cmd_combine(int argc, char **argv)
{
	char *builddir = NULL, *trust = NULL;
	gboolean no_build = FALSE;
	GOptionEntry entries[] = {
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &builddir, "The build directory (set up with cugen setup)", "BUILDDIR" },
		{ "no-build", 0, 0, G_OPTION_ARG_NONE, &no_build, "Write the graph but do not run ninja", NULL },
		{ "trust", 0, 0, G_OPTION_ARG_FILENAME, &trust,
		  "Take only shards whose manifest.ini has a sha256 FILE lists (as the shard jobs printed it)", "FILE" },
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
	/* (as setup: its graph and copies are this process's alone) */
	stage_lock_dir(babs);
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
	if (trust) {
		g_ptr_array_add(regen, g_strdup("--trust"));
		g_ptr_array_add(regen, cg_abspath(trust));
	}
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(regen, cg_abspath(argv[i]));
	g_ptr_array_add(regen, NULL);
	a.regen = (char **)g_ptr_array_free(regen, FALSE);

	if (trust && !load_trust(trust, &err))
		goto out;
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
	/* the arch set: the shards' and this build's, all of it built here */
	if (a.archs) {
		cg_error(&err, "'%s' was set up with --archs %s, a part of its arch set: a combining build needs "
			       "all of it (set it up again without --archs)", builddir, a.archs);
		goto out;
	}
	char *arch_set = setup_project_archs(&gen);
	for (guint i = 0; i < shards->len && !err; i++) {
		Shard *s = g_ptr_array_index(shards, i);
		char *v = g_key_file_get_string(s->m, "shard", "cugen_version", NULL);
		if (g_strcmp0(v, cugen_version()) != 0)
			s->version = v ? v : g_strdup("(one too old to record its version)");
		else
			g_free(v);
		if (!same_key(s->m, "toolkit", gen.tk->version, s->dir, "CUDA", &err) ||
		    !same_key(s->m, "host_version", gen.tk->host_version, s->dir, "host compiler version", &err) ||
		    !same_key(s->m, "arch_set", arch_set, s->dir, "the arch set", &err))
			break;
		if (gen.c->module_id_absolute && !same_places(s, gen.c->srcdir, gen.builddir, &err))
			break;
	}
	g_free(arch_set);
	if (err)
		goto out;
	const Places here = { gen.c->srcdir, gen.builddir };
	GHashTable *taken = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *copies = g_ptr_array_new_with_free_func(g_free);
	GHashTable *texts = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_strfreev);
	GPtrArray *archs = g_ptr_array_new();
	char *self = g_file_read_link("/proc/self/exe", NULL);
	char *q = cg_sh_quote(self ? self : "cugen");
	const char *vars[] = { "CUGEN", q, NULL };
	char *cmd = template_fragment("rule-text.in", "import", vars);
	Rule *import = graph_rule(gen.g, RULE_IMPORT, cmd, "CUDA import ${out}", NULL, NULL, NULL);
	g_free(cmd);
	g_free(q);
	guint n = 0;
	/* by image path, not in the planner's order: the first missing or
	 * refused image is the same whatever the order of the edges */
	GPtrArray *devs = g_ptr_array_new();
	/* the images whose arch's host stub a stub edge of this build copies */
	GHashTable *stubbed = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < gen.g->edges->len; i++) {
		Edge *e = g_ptr_array_index(gen.g->edges, i);
		if (e->kind == EK_DEV)
			g_ptr_array_add(devs, e);
		else if (e->kind == EK_STUB && EDGE_LEN(e->ins))
			g_hash_table_add(stubbed, (gpointer)EDGE_AT(e->ins, 0));
	}
	g_ptr_array_sort(devs, by_image);
	for (guint i = 0; i < devs->len; i++) {
		Edge *e = g_ptr_array_index(devs, i);
		const char *image = EDGE_AT(e->outs, 0);
		Shard *s = find_image(shards, image, e->arch, &err);
		if (!s)
			break;
		if (!same_split(s, image, e, gen.c->reproducible, &err) ||
		    !same_rule(s, image, e, self ? self : "cugen", &here, texts, &err) ||
		    !check_inputs(s, image, e, cache, &here, &err) ||
		    !to_import(gen.g, e, s, image, g_hash_table_contains(stubbed, image), import, gen.builddir, copies,
			       &err))
			break;
		g_hash_table_add(taken, (gpointer)image);
		if (!g_ptr_array_find_with_equal_func(archs, e->arch, g_str_equal, NULL))
			g_ptr_array_add(archs, (gpointer)e->arch);
		n++;
	}
	/* and nothing this build does not make */
	for (guint i = 0; i < shards->len && !err; i++)
		extra_image(g_ptr_array_index(shards, i), taken, &err);
	g_hash_table_destroy(taken);
	g_hash_table_destroy(stubbed);
	g_hash_table_destroy(texts);
	g_ptr_array_free(devs, TRUE);
	g_free(self);
	g_ptr_array_sort(archs, by_arch);
	g_ptr_array_add(archs, NULL);
	char *built = g_strjoinv(" ", (char **)archs->pdata);
	g_ptr_array_free(archs, TRUE);
	if (err) {
		g_ptr_array_free(copies, TRUE);
		g_free(built);
		goto out;
	}
	if (chdir(cwd) != 0) {
		g_ptr_array_free(copies, TRUE);
		cg_error(&err, "cannot return to '%s'", cwd);
		g_free(built);
		goto out;
	}
	/* every check passed: the shards' files into the build directory,
	 * then the graph that imports them */
	gboolean kept = keep_copies(gen.builddir, copies, &err);
	g_ptr_array_free(copies, TRUE);
	if (!kept || !setup_write(&a, &gen, &err)) {
		g_free(built);
		goto out;
	}
	for (guint i = 0; i < shards->len; i++) {
		Shard *s = g_ptr_array_index(shards, i);
		if (s->version)
			printf("cugen: combine: shard '%s' was made by cugen %s, this is cugen %s: its rules are "
			       "this build's\n", s->dir, s->version, cugen_version());
	}
	printf("cugen: combine: %u images (%s) from %u shards checked; %s\n", n, built, shards->len,
	       no_build ? "graph written" : "building the rest");
	g_free(built);
	fflush(stdout);
	/* ninja may re-run this combine (--no-build) to regenerate */
	stage_unlock_dir();
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
	g_free(trust);
	if (trusted)
		g_hash_table_destroy(trusted);
	trusted = NULL;
	return rc;
}
