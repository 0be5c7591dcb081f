/* replay.c -- main() for a fuzz target without libFuzzer: runs each input
 * once. Arguments are files or directories (every file in them, sorted);
 * with none, the target's saved inputs: FUZZ_SRCDIR/regressions/NAME and
 * FUZZ_SRCDIR/corpus/NAME (and FUZZ_SRCDIR/dryrun for the dryrun target). Prints TAP ("ok N - FILE"), so that tests/run
 * counts each input as a test; a crash or sanitizer report fails the run.
 * --tap is accepted (and implied) like a GTest binary's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#ifndef FUZZ_NAME
#error "FUZZ_NAME (ini, dryrun, ...) must be defined"
#endif

static gint cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(GPtrArray *files, const char *p, gboolean must)
{
	if (g_file_test(p, G_FILE_TEST_IS_DIR)) {
		GDir *d = g_dir_open(p, 0, NULL);
		GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
		const char *n;
		while (d && (n = g_dir_read_name(d)))
			if (n[0] != '.' && strcmp(n, "README") != 0)
				g_ptr_array_add(names, g_build_filename(p, n, NULL));
		if (d)
			g_dir_close(d);
		g_ptr_array_sort(names, cmp_str);
		for (guint i = 0; i < names->len; i++)
			add_path(files, g_ptr_array_index(names, i), TRUE);
		g_ptr_array_free(names, TRUE);
	} else if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) {
		g_ptr_array_add(files, g_strdup(p));
	} else if (must) {
		fprintf(stderr, "replay: no such input: %s\n", p);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	int given = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--tap") == 0)
			continue;
		add_path(files, argv[i], TRUE);
		given++;
	}
	if (!given) {
		add_path(files, FUZZ_SRCDIR "/regressions/" FUZZ_NAME, FALSE);
		add_path(files, FUZZ_SRCDIR "/corpus/" FUZZ_NAME, FALSE);
		/* the recorded nvcc outputs are the dry-run parser's seeds */
		if (strcmp(FUZZ_NAME, "dryrun") == 0)
			add_path(files, FUZZ_SRCDIR "/dryrun", FALSE);
	}
	LLVMFuzzerInitialize(&argc, &argv);
	printf("1..%u\n", files->len);
	fflush(stdout);
	for (guint i = 0; i < files->len; i++) {
		const char *f = g_ptr_array_index(files, i);
		char *data = NULL;
		gsize len = 0;
		if (!g_file_get_contents(f, &data, &len, NULL)) {
			printf("not ok %u - %s (unreadable)\n", i + 1, f);
			continue;
		}
		/* announce first: a crash names its input */
		fprintf(stderr, "# %s\n", f);
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		g_free(data);
		const char *rel = strstr(f, "/fuzz/");
		printf("ok %u - %s\n", i + 1, rel ? rel + 1 : f);
		fflush(stdout);
	}
	g_ptr_array_free(files, TRUE);
	return 0;
}
