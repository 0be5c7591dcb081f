/* ci.c -- `cugen ci --provider P [--shards N] [-o FILE]`.
 *
 * Owns: splitting the archs built into N shards balanced by their compile
 * cost (measured in BUILDDIR's last build, else the planner's estimates),
 * and writing a CI workflow from templates/ci-PROVIDER.yml.in (the
 * workflow) and templates/ci-PROVIDER-shard.yml.in (one shard job). A
 * provider is added by adding those two templates. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "setup.h"
#include "template.h"
#include "util.h"

int cmd_ci(int argc, char **argv)
{
	char *provider = NULL, *output = NULL, *image = NULL;
	int nshards = 2;
	SetupArgs a = { 0 };
	GOptionEntry entries[] = {
		{ "provider", 0, 0, G_OPTION_ARG_STRING, &provider, "CI service: see the list in the error for an unknown one", "PROVIDER" },
		{ "shards", 0, 0, G_OPTION_ARG_INT, &nshards, "Number of shard jobs (default 2)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the workflow to FILE (default: stdout)", "FILE" },
		{ "image", 0, 0, G_OPTION_ARG_STRING, &image, "Container image of the jobs", "IMAGE" },
		{ "source-dir", 'S', 0, G_OPTION_ARG_FILENAME, &a.srcdir, "Project directory (default: .)", "SRCDIR" },
		{ "build-dir", 'B', 0, G_OPTION_ARG_FILENAME, &a.builddir, "Build directory whose last build measured the arch costs", "BUILDDIR" },
		{ "file", 'f', 0, G_OPTION_ARG_FILENAME, &a.file, "Project file", "FILE" },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, &a.profile, "Profile the jobs set up with", "NAME" },
		{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &a.defines, "Override an INI key", "SECTION.KEY=VALUE" },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, "Write a CI workflow: one job per shard of GPU archs, and a job that\n"
				     "combines the shards (cugen combine) into the final binaries.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_set_prgname("cugen ci");
	GError *err = NULL, *e = NULL;
	Generated gen = { 0 };
	GPtrArray *providers = template_names("ci-", ".yml.in");
	for (guint i = providers->len; i > 0; i--)
		if (g_str_has_suffix(g_ptr_array_index(providers, i - 1), "-shard"))
			g_ptr_array_remove_index(providers, i - 1);
	g_ptr_array_add(providers, NULL);
	char *known = g_strjoinv(", ", (char **)providers->pdata);
	int rc = 0;
	GString *jobs = g_string_new(NULL), *needs = g_string_new(NULL);
	GArray *costs = NULL;
	if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
		cg_usage_error(&err, "%s (see 'cugen ci --help')", e->message);
		g_error_free(e);
		goto out;
	}
	if (argc > 1) {
		cg_usage_error(&err, "unexpected argument '%s' (see 'cugen ci --help')", argv[1]);
		goto out;
	}
	if (!provider || !g_strv_contains((const char *const *)providers->pdata, provider)) {
		if (provider) {
			const char *hint = cg_suggest(provider, (const char *const *)providers->pdata);
			cg_usage_error(&err, "unknown provider '%s' (known: %s)%s%s%s", provider, known,
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		} else {
			cg_usage_error(&err, "give --provider (one of: %s)", known);
		}
		goto out;
	}
	/* the one escape for YAML here: an image reference is written as a
	 * plain scalar, so it may hold only what image references hold */
	if (image && (!*image || image[strspn(image, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						   "0123456789._/:@-")] || *image == '-')) {
		char *shown = g_strescape(image, NULL);
		cg_usage_error(&err, "--image '%s' is not a container image reference (letters, digits and ._/:@-)", shown);
		g_free(shown);
		goto out;
	}
	if (nshards < 1) {
		cg_usage_error(&err, "--shards must be at least 1");
		goto out;
	}
	if (!a.srcdir)
		a.srcdir = g_strdup(".");
	if (!a.file)
		a.file = strcmp(a.srcdir, ".") == 0 ? g_strdup("cugen.ini") : g_build_filename(a.srcdir, "cugen.ini", NULL);
	if (!a.builddir)
		a.builddir = g_strdup("build");
	a.backend = g_strdup("ninja");
	if (!setup_generate(&a, &gen, &err))
		goto out;
	/* compile cost of each arch, summed over its device edges */
	costs = plan_arch_costs(gen.g);
	/* a PTX-only arch rides with its SASS arch: --archs names arch ids */
	if ((guint)nshards > costs->len) {
		cg_usage_error(&err, "%d shards for %u archs: use --shards %u or fewer", nshards, costs->len, costs->len);
		goto out;
	}
	char **shard_archs = g_new0(char *, nshards + 1);
	double *load = g_new0(double, nshards);
	plan_balance(costs, nshards, shard_archs, load);
	char *setup_args = g_strdup(a.profile ? a.profile : "");
	if (a.profile) {
		g_free(setup_args);
		setup_args = g_strdup_printf("--profile %s", a.profile);
	}
	const char *img = image ? image : "nvidia/cuda:13.0.0-devel-ubuntu24.04";
	char *shard_tmpl = g_strdup_printf("ci-%s-shard.yml.in", provider);
	for (int i = 0; i < nshards; i++) {
		char *n = g_strdup_printf("%d", i + 1);
		const char *vars[] = { "N", n, "ARCHS", shard_archs[i], "IMAGE", img, NULL };
		char *job = template_expand(shard_tmpl, vars);
		g_string_append(jobs, job);
		g_string_append_printf(needs, "%sshard-%s", i ? ", " : "", n);
		g_free(job);
		g_free(n);
	}
	g_free(shard_tmpl);
	char *tmpl = g_strdup_printf("ci-%s.yml.in", provider);
	if (jobs->len && jobs->str[jobs->len - 1] == '\n')
		g_string_truncate(jobs, jobs->len - 1);
	const char *vars[] = { "PROJECT", gen.c->name, "SHARD_JOBS", jobs->str, "SHARD_NEEDS", needs->str,
			       "IMAGE", img, "SETUP_ARGS", setup_args, NULL };
	char *text = template_expand(tmpl, vars);
	g_free(tmpl);
	if (output) {
		/* (.github/workflows/ may not exist yet) */
		char *dir = g_path_get_dirname(output);
		g_mkdir_with_parents(dir, 0755);
		g_free(dir);
		if (!g_file_set_contents(output, text, -1, &e)) {
			cg_error(&err, "cannot write '%s': %s", output, e->message);
			g_error_free(e);
		}
	} else {
		fputs(text, stdout);
	}
	for (int i = 0; i < nshards; i++)
		fprintf(stderr, "cugen: ci: shard %d: archs %s (cost %.0f s)\n", i + 1,
			shard_archs[i], load[i]);
	g_free(text);
	g_free(setup_args);
	g_free(load);
	g_strfreev(shard_archs);
out:
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	if (costs)
		plan_arch_costs_free(costs);
	g_string_free(jobs, TRUE);
	g_string_free(needs, TRUE);
	g_free(known);
	g_ptr_array_free(providers, TRUE);
	setup_generated_clear(&gen);
	setup_args_clear(&a);
	g_free(provider);
	g_free(output);
	g_free(image);
	g_option_context_free(ctx);
	return rc;
}
