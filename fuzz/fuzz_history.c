/* fuzz_history.c -- BUILDDIR/.cugen/edges.log (what `cugen exec` logs:
 * TAG, STEP, MAXRSS_KB, CPU_S, WALL_S per line) through the planner:
 * a fixed small project is set up with the input as its build log, so
 * odd numbers (negative, huge, nan, inf) reach the pool sizes, costs and
 * critical path. Seeds: logs of real builds (fuzz/corpus/history). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "setup.h"
#include "util.h"

static const char ini[] =
	"[project]\nname = small\n[cuda]\narchs = 75 80 90\n"
	"[target k]\ntype = static\nsources = a.cu b.cu c.cu\n"
	"[target app]\ntype = executable\nsources = main.cpp\ndeps = k\n"
	"[profile split]\nsplit = tu\n";

static char *dir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	dir = g_build_filename(fuzz_project(), "hist", NULL);
	const char *files[] = { "a.cu", "b.cu", "c.cu", "main.cpp", NULL };
	for (int i = 0; files[i]; i++) {
		char *p = g_build_filename(dir, files[i], NULL);
		fuzz_write(p, "", 0);
		g_free(p);
	}
	char *p = g_build_filename(dir, "cugen.ini", NULL);
	fuzz_write(p, ini, strlen(ini));
	g_free(p);
	return 0;
}

static void one(const uint8_t *data, size_t size, const char *profile)
{
	SetupArgs a = { 0 };
	a.srcdir = g_strdup(dir);
	a.builddir = g_build_filename(dir, "build", NULL);
	a.file = g_build_filename(dir, "cugen.ini", NULL);
	a.backend = g_strdup("ninja");
	a.profile = g_strdup(profile);
	char *log = g_build_filename(a.builddir, ".cugen", "edges.log", NULL);
	fuzz_write(log, data, size);
	g_free(log);
	Generated gen = { 0 };
	GError *err = NULL;
	gboolean ok = setup_generate(&a, &gen, &err) && setup_write(&a, &gen, &err);
	if (!ok) {
		/* nothing in a build log is the user's mistake */
		fprintf(stderr, "fuzz_history: setup failed: %s\n", err ? err->message : "(no error)");
		abort();
	}
	for (guint i = 0; i < gen.g->pools->len; i++) {
		Pool *po = g_ptr_array_index(gen.g->pools, i);
		if (po->depth < 1 || po->depth > 100000) {
			fprintf(stderr, "fuzz_history: pool %s has depth %d\n", po->name, po->depth);
			abort();
		}
	}
	setup_generated_clear(&gen);
	fuzz_rm_rf(a.builddir);
	setup_args_clear(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, NULL);
	one(data, size, "split");
	return 0;
}
