/* fuzz_cacheentry.c -- a cache entry's manifest (a shared cache directory
 * is untrusted) through `cugen cache get`: a tagged cache holds one entry
 * whose manifest is the input, beside a file "0" and a file "1" that is a
 * symbolic link to a file outside the cache. Checked: the lookup hits only
 * when what it restores has the manifest's hash for every output; the
 * file outside is never written or removed; nothing is written outside
 * the cache and the output paths. Seeds: manifests of real entries and
 * damaged ones (fuzz/corpus/cacheentry). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "commands.h"
#include "fuzz.h"
#include "util.h"

static char *root, *cache, *outside, *in, *out0, *out1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	root = g_build_filename(fuzz_tmpdir(), "ce", NULL);
	cache = g_build_filename(root, "cache", NULL);
	outside = g_build_filename(root, "outside", NULL);
	in = g_build_filename(root, "k.ii", NULL);
	out0 = g_build_filename(root, "o0", NULL);
	out1 = g_build_filename(root, "o1", NULL);
	return 0;
}

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_cacheentry: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_rm_rf(root);
	g_mkdir_with_parents(cache, 0777);
	fuzz_write(in, "int x;", 6);
	fuzz_write(outside, "keep", 4);
	/* the tag makes the directory a cache */
	char *tag = g_build_filename(cache, "CACHEDIR.TAG", NULL);
	const char *tagtext = "Signature: 8a477f597d28d172789f06886806bc55\n";
	fuzz_write(tag, tagtext, strlen(tagtext));
	g_free(tag);
	char *files[] = { in }, *keys[] = { "key" };
	char *entry = cache_entry_of(cache, files, 1, keys, 1);
	if (!entry)
		fail("no entry path");
	g_mkdir_with_parents(entry, 0777);
	char *mf = g_build_filename(entry, "manifest", NULL), *f0 = g_build_filename(entry, "0", NULL),
	     *f1 = g_build_filename(entry, "1", NULL);
	fuzz_write(mf, data, size);
	fuzz_write(f0, "data", 4);
	if (symlink(outside, f1) != 0)
		fail("symlink");
	char *argv[] = { "cache", "get", cache, in, "--", "key", "--", out0, out1, NULL };
	int rc = cmd_cache(9, argv);
	char *t = NULL;
	gsize len = 0;
	if (!g_file_get_contents(outside, &t, &len, NULL) || len != 4 || memcmp(t, "keep", 4) != 0)
		fail("the file outside the cache changed");
	g_free(t);
	struct stat sb;
	if (lstat(outside, &sb) != 0 || !S_ISREG(sb.st_mode))
		fail("the file outside the cache was replaced");
	if (rc == 0) {
		/* a hit restored both outputs, each with its recorded hash */
		char *text = fuzz_text(data, size);
		char **lines = g_strsplit(g_strstrip(text), "\n", -1);
		for (int i = 0; i < 2; i++) {
			char *o = NULL;
			gsize ol = 0;
			if (!g_file_get_contents(i ? out1 : out0, &o, &ol, NULL))
				fail("a hit without its output");
			char *h = cg_hash_hex(o, ol);
			if (!lines[i] || !strstr(lines[i], h))
				fail("a hit restored an output its manifest does not vouch for");
			g_free(h);
			g_free(o);
		}
		g_strfreev(lines);
		g_free(text);
	}
	g_free(mf);
	g_free(f0);
	g_free(f1);
	g_free(entry);
	return 0;
}
