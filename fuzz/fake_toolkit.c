/* fake_toolkit.c -- a CUDA toolkit for the fuzz targets, linked in with
 * -Wl,--wrap=toolkit_probe,--wrap=toolkit_dryrun (see fuzz.h).
 *
 * toolkit_probe() gives a Toolkit with CUDA 13.0's codes (sm_75 ...
 * sm_121) rooted at $CUDA_PATH or /usr/local/cuda, without running
 * anything. toolkit_dryrun() answers from recorded `nvcc --dryrun`
 * outputs. An output depends on the arch set, -rdc, -dlink, -dlto, -std
 * and --split-compile, but hardly on the user's flags, so the key is the
 * arguments with everything else dropped; the file is
 * fuzz/dryrun/SHA256(key).txt (first line "# args: KEY").
 *
 * Without a recording the dry run fails as if nvcc refused the flags. With
 * CUGEN_FUZZ_NVCC=CUDA_ROOT a missing one is made by the real nvcc (about
 * 20 ms) and kept in memory, and also written to $CUGEN_FUZZ_RECORD/ when
 * that is set: run the seeds that way to record what they need.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "toolkit.h"
#include "util.h"

Toolkit *__wrap_toolkit_probe(const Config *c, const char *builddir, GError **err);
char *__wrap_toolkit_dryrun(Toolkit *tk, GPtrArray *args, gboolean dlink, GError **err);
char *__real_toolkit_dryrun(Toolkit *tk, GPtrArray *args, gboolean dlink, GError **err);

static const char *const codes[] = {
	"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90",
	"sm_100", "sm_103", "sm_110", "sm_120", "sm_121", NULL
};

static GHashTable *recorded; /* key hash -> output */

static const char *dryrun_dir(void)
{
	const char *d = g_getenv("CUGEN_FUZZ_DRYRUN");
	return d ? d : FUZZ_SRCDIR "/dryrun";
}

static void load_recorded(void)
{
	if (recorded)
		return;
	recorded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GDir *dir = g_dir_open(dryrun_dir(), 0, NULL);
	const char *name;
	while (dir && (name = g_dir_read_name(dir))) {
		if (!g_str_has_suffix(name, ".txt"))
			continue;
		char *p = g_build_filename(dryrun_dir(), name, NULL);
		char *text = NULL;
		if (g_file_get_contents(p, &text, NULL, NULL))
			g_hash_table_insert(recorded, g_strndup(name, strlen(name) - 4), text);
		g_free(p);
	}
	if (dir)
		g_dir_close(dir);
}

Toolkit *__wrap_toolkit_probe(const Config *c, const char *builddir, GError **err)
{
	(void)builddir;
	(void)err;
	const char *root = g_getenv("CUDA_PATH");
	Toolkit *tk = g_new0(Toolkit, 1);
	tk->root = g_strdup(root && *root ? root : "/usr/local/cuda");
	tk->nvcc = g_build_filename(tk->root, "bin", "nvcc", NULL);
	tk->version = g_strdup("13.0.88");
	tk->codes = g_ptr_array_new_with_free_func(g_free);
	for (int i = 0; codes[i]; i++)
		g_ptr_array_add(tk->codes, g_strdup(codes[i]));
	tk->ccbin = g_strdup(c->ccbin ? c->ccbin : "");
	tk->cc = g_strdup(c->cc);
	tk->cxx = g_strdup(c->cxx);
	tk->ar = g_strdup(c->ar);
	tk->objcopy = g_strdup(c->objcopy);
	tk->host_cc = g_strdup(*tk->ccbin ? tk->ccbin : "gcc");
	tk->host_version = g_strdup("12.2.0");
	tk->fingerprint = g_strdup("fuzz");
	tk->cache = g_key_file_new();
	tk->out = g_key_file_new();
	g_key_file_set_string(tk->out, "toolkit", "fingerprint", tk->fingerprint);
	return tk;
}

/* The arguments an output depends on, space-separated. */
static char *dryrun_key(GPtrArray *args, gboolean dlink)
{
	GString *k = g_string_new(dlink ? "dlink" : "compile");
	for (guint i = 0; i < args->len; i++) {
		const char *a = g_ptr_array_index(args, i);
		if (strcmp(a, "-gencode") == 0 && i + 1 < args->len) {
			g_string_append_printf(k, " -gencode %s", (char *)g_ptr_array_index(args, i + 1));
			i++;
		} else if (strcmp(a, "-c") == 0 || strcmp(a, "-dlink") == 0 ||
			   strcmp(a, "-dlto") == 0 || strcmp(a, "-rdc=true") == 0 ||
			   g_str_has_prefix(a, "-std=") || g_str_has_prefix(a, "--split-compile=")) {
			g_string_append_printf(k, " %s", a);
		}
	}
	return g_string_free(k, FALSE);
}

/* The real nvcc's answer for the key's arguments. */
static char *live_dryrun(const char *root, const char *key, gboolean dlink, GError **err)
{
	Toolkit real = { 0 };
	real.root = (char *)root;
	real.nvcc = g_build_filename(root, "bin", "nvcc", NULL);
	real.cache = g_key_file_new();
	real.out = g_key_file_new();
	GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
	char **w = g_strsplit(key, " ", -1);
	for (char **p = w + 1; *p; p++)
		g_ptr_array_add(args, g_strdup(*p));
	g_strfreev(w);
	char *out = __real_toolkit_dryrun(&real, args, dlink, err);
	g_ptr_array_free(args, TRUE);
	g_key_file_free(real.cache);
	g_key_file_free(real.out);
	g_free(real.nvcc);
	return out;
}

char *__wrap_toolkit_dryrun(Toolkit *tk, GPtrArray *args, gboolean dlink, GError **err)
{
	load_recorded();
	char *key = dryrun_key(args, dlink);
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	const char *text = g_hash_table_lookup(recorded, sum);
	const char *live = g_getenv("CUGEN_FUZZ_NVCC");
	if (!text && live && *live) {
		char *out = live_dryrun(live, key, dlink, err);
		if (!out) {
			g_free(key);
			g_free(sum);
			return NULL;
		}
		char *rec = g_strdup_printf("# args: %s\n%s", key, out);
		g_free(out);
		const char *dir = g_getenv("CUGEN_FUZZ_RECORD");
		if (dir && *dir) {
			char *name = g_strconcat(sum, ".txt", NULL);
			char *p = g_build_filename(dir, name, NULL);
			fuzz_write(p, rec, strlen(rec));
			g_free(p);
			g_free(name);
		}
		g_hash_table_insert(recorded, g_strdup(sum), rec);
		text = rec;
	}
	char *result = NULL;
	if (text) {
		result = g_strdup(text);
		char *group = g_strconcat("dryrun ", sum, NULL);
		g_key_file_set_string(tk->out, group, "output", result);
		g_free(group);
	} else {
		cg_error(err, "nvcc rejected the flags: no recorded dry run for '%s' (fuzz)", key);
	}
	tk->dryruns++;
	g_free(key);
	g_free(sum);
	return result;
}
