/* cinvcc.c -- `cugen ci --provider P --nvcc 'BUILD COMMAND' --archs LIST`:
 * the workflow of a build cugen does not drive (doc/nvcc.md). Every job
 * runs the project's own build command with NVCC="cugen nvcc": the shard
 * jobs with CUGEN_SHARD_DIR and their share of the arch entries in
 * CUGEN_ARCHS (dealt out in turn: nothing is measured of such a build),
 * each with a compile cache of its own; the combine job with
 * CUGEN_COMBINE naming every shard, keeping --upload's path. From
 * templates/ci-PROVIDER-nvcc.yml.in, with the shard matrix entries,
 * install and toolkit scripts of `cugen ci`.
 *
 * Owns: the arch split, the command's place in the jobs, the cache key.
 */
#include <stdio.h>
#include <string.h>

#include "ci_int.h"
#include "template.h"
#include "toolkit.h"
#include "util.h"

/* An arch entry as CUGEN_ARCHS takes it: 80, 90a, 100f, sm_80,
 * compute_120. */
static gboolean arch_word(const char *w)
{
	if (g_str_has_prefix(w, "sm_"))
		w += 3;
	else if (g_str_has_prefix(w, "compute_"))
		w += 8;
	gsize n = strspn(w, "0123456789");
	return n >= 2 && (!w[n] || ((w[n] == 'a' || w[n] == 'f') && !w[n + 1]));
}

/* "cuda-toolkit-13-0" from the toolkit's nvcc --version ("release 13.0"). */
static char *toolkit_package(char **version)
{
	char *root = toolkit_default_root(NULL), *out = NULL, *pkg = NULL;
	char *nvcc = g_build_filename(root ? root : "/usr/local/cuda", "bin", "nvcc", NULL);
	char *argv[] = { nvcc, "--version", NULL };
	if (g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL, NULL) && out) {
		const char *r = strstr(out, "release ");
		int major = 0, minor = 0;
		if (r && sscanf(r, "release %d.%d", &major, &minor) == 2) {
			pkg = g_strdup_printf("cuda-toolkit-%d-%d", major, minor);
			*version = g_strdup_printf("%d.%d", major, minor);
		}
	}
	g_free(out);
	g_free(nvcc);
	g_free(root);
	return pkg;
}

char *ci_nvcc_workflow(const CiNvcc *o, GString *said, GError **err)
{
	char **words = g_strsplit_set(o->archs, " ,;\t", -1);
	GPtrArray *archs = g_ptr_array_new();
	for (guint i = 0; words[i]; i++) {
		if (!*words[i])
			continue;
		if (!arch_word(words[i])) {
			cg_usage_error(err, "--archs: '%s' is not an arch entry (80, 90a, 100f, sm_80, compute_120)",
				       words[i]);
			break;
		}
		g_ptr_array_add(archs, words[i]);
	}
	char *text = NULL;
	if (!*err && !archs->len)
		cg_usage_error(err, "--nvcc needs --archs: the arch entries the shards split (e.g. --archs \"75 80 90\")");
	else if (!*err && (guint)o->shards > archs->len)
		cg_usage_error(err, "%d shards for %u arch entries: use --shards %u or fewer", o->shards, archs->len,
			       archs->len);
	if (*err)
		goto out;
	char *version = NULL, *pkg = toolkit_package(&version);
	if (!pkg) {
		pkg = g_strdup("cuda-toolkit");
		version = g_strdup("?");
	}
	GString *jobs = g_string_new(NULL);
	char *shard_tmpl = g_strdup_printf("ci-%s-shard.yml.in", o->provider);
	for (int s = 0; s < o->shards; s++) {
		GString *mine = g_string_new(NULL);
		for (guint i = (guint)s; i < archs->len; i += (guint)o->shards)
			g_string_append_printf(mine, "%s%s", mine->len ? " " : "", (char *)g_ptr_array_index(archs, i));
		char *n = g_strdup_printf("%d", s + 1);
		const char *vars[] = { "N", n, "ARCHS", mine->str, NULL };
		char *job = template_expand(shard_tmpl, vars);
		g_string_append(jobs, job);
		g_string_append_printf(said, "cugen: ci: shard %d: arch entries %s (dealt in turn: nothing is "
				       "measured of a build cugen does not drive)\n", s + 1, mine->str);
		g_free(job);
		g_free(n);
		g_string_free(mine, TRUE);
	}
	if (jobs->len && jobs->str[jobs->len - 1] == '\n')
		g_string_truncate(jobs, jobs->len - 1);
	/* the compile cache's key: the image, the toolkit, the command */
	char *keytext = g_strdup_printf("%s\n%s\n%s", o->image, version, o->command);
	char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, keytext, -1);
	key[12] = '\0';
	/* the command as a line of the jobs' scripts (ci.c checked it is one
	 * line, without the provider's expression syntax) */
	char *command = g_strdup_printf("%*s%s", o->indent, "", o->command);
	const char *no_vars[] = { NULL };
	const char *pkg_vars[] = { "CUDA_PKG", pkg, NULL };
	char *install = ci_indented("ci-install.sh.in", no_vars, o->indent);
	char *toolkit = ci_indented("ci-toolkit.sh.in", pkg_vars, o->indent);
	char *tmpl = g_strdup_printf("ci-%s-nvcc.yml.in", o->provider);
	const char *vars[] = { "SHARD_JOBS", jobs->str, "IMAGE", o->image, "CUGEN_REPO", o->repo, "CUGEN_REF", o->ref,
			       "INSTALL", install, "TOOLKIT", toolkit, "CACHE_KEY", key, "COMMAND", command,
			       "UPLOAD", o->upload, "ARTIFACT", "cugen-nvcc-build", "CUDA_PKG", pkg, NULL };
	text = template_expand(tmpl, vars);
	g_free(tmpl);
	g_free(toolkit);
	g_free(install);
	g_free(command);
	g_free(key);
	g_free(keytext);
	g_free(shard_tmpl);
	g_string_free(jobs, TRUE);
	g_free(pkg);
	g_free(version);
out:
	g_ptr_array_free(archs, TRUE);
	g_strfreev(words);
	return text;
}
