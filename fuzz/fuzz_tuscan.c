/* fuzz_tuscan.c -- the first plan's scan of a TU's text (tuscan.c) on
 * hostile text: the input is up to four files, split at lines "----"
 * (t.cu, then a.h, b.h, c.h beside it and in a directory searched), and
 * t.cu is scanned. Checked: the scan ends (includes that loop, include
 * themselves or name missing files), it reaches at most the files there
 * are, its units and template units are finite and not negative, and a
 * second scan by the same scanner (its files and header sets read once)
 * gives the same. Macros that apply each other, themselves or nothing
 * must expand in bounded time (fuzz/corpus/tuscan/macros.cu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tuscan.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "t.cu", "a.h", "b.h", "sub/c.h" };
	char *dir = g_build_filename(fuzz_tmpdir(), "tuscan", NULL);
	fuzz_rm_rf(dir);
	char *sub = g_build_filename(dir, "sub", NULL);
	g_mkdir_with_parents(sub, 0700);
	gsize start = 0, n = 0;
	for (gsize i = 0; n < G_N_ELEMENTS(names) && i <= size; i++) {
		gboolean cut = i + 5 <= size && memcmp(data + i, "----\n", 5) == 0 && (i == 0 || data[i - 1] == '\n');
		if (!cut && i < size)
			continue;
		char *p = g_build_filename(dir, names[n++], NULL);
		fuzz_write(p, data + start, i - start);
		g_free(p);
		start = i + 5;
		i += 4;
	}
	char *tu = g_build_filename(dir, "t.cu", NULL);
	const char *dirs[] = { dir, sub };
	TuScanner *s = tuscan_new();
	TuScan a, b;
	tuscan_tu(s, tu, NULL, dirs, 2, 1, &a);
	tuscan_tu(s, tu, NULL, dirs, 2, 1, &b);
	if (a.files < 1 || a.files > n || !isfinite(a.units) || a.units < 0 || !isfinite(a.tunits) || a.tunits < 0 ||
	    memcmp(&a, &b, sizeof a) != 0) {
		fprintf(stderr, "fuzz_tuscan: %u files of %" G_GSIZE_FORMAT ", %g units; again %u, %g\n", a.files, n,
			a.units, b.files, b.units);
		abort();
	}
	char *d = tuscan_describe(&a);
	g_free(d);
	tuscan_free(s);
	g_free(tu);
	g_free(sub);
	fuzz_rm_rf(dir);
	g_free(dir);
	return 0;
}
