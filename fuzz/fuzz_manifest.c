/* fuzz_manifest.c -- a shard's manifest.ini (a CI artifact from another
 * job: untrusted) through shard_manifest_load(), what `cugen combine`
 * reads before anything else. Checked: an error is one line; an accepted
 * manifest is of this format and every name it gives (image groups,
 * files, stubs) is a path below the build directory. Seeds: manifests of
 * real shard builds and the combine cases' (fuzz/corpus/manifest). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "safepath.h"
#include "shard.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	return 0;
}

static void bad(const char *what, const char *name)
{
	fprintf(stderr, "fuzz_manifest: accepted %s '%s'\n", what, name);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GKeyFile *m = g_key_file_new();
	GError *err = NULL;
	gboolean ok = shard_manifest_load(m, (const char *)data, size, "shard", &err);
	if (!ok) {
		if (!err || strchr(err->message, '\n') || !g_str_has_prefix(err->message, "error: "))
			bad("an error of another form", err ? err->message : "(none)");
		g_error_free(err);
		g_key_file_free(m);
		return 0;
	}
	char *format = g_key_file_get_string(m, "shard", "format", NULL);
	if (g_strcmp0(format, SHARD_FORMAT) != 0)
		bad("format", format ? format : "(none)");
	g_free(format);
	gsize ng = 0;
	char **groups = g_key_file_get_groups(m, &ng);
	for (gsize i = 0; i < ng; i++) {
		if (strcmp(groups[i], "shard") == 0 || g_str_has_prefix(groups[i], SHARD_RULE_GROUP))
			continue; /* (a rule's text: named by its hash, not a path) */
		if (!cg_rel_ok(groups[i]))
			bad("image", groups[i]);
		gsize nf = 0;
		char **files = g_key_file_get_string_list(m, groups[i], "files", &nf, NULL);
		for (gsize j = 0; j < nf; j++)
			if (!cg_rel_ok(files[j]))
				bad("file", files[j]);
		g_strfreev(files);
		char *stub = g_key_file_get_string(m, groups[i], "stub", NULL);
		if (stub && !cg_rel_ok(stub))
			bad("stub", stub);
		g_free(stub);
	}
	g_strfreev(groups);
	g_key_file_free(m);
	return 0;
}
