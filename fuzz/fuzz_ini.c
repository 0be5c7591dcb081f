/* fuzz_ini.c -- cugen.ini through `cugen setup`: the INI reader, -D,
 * --profile and --archs, the graph, the planner and every file setup
 * writes, against the fake toolkit (fuzz.h).
 *
 * The input is written as cugen.ini into a project directory holding the
 * small sources the seeds name. Leading comment lines choose options:
 *   #!D SECTION.KEY=VALUE    -D (repeatable)
 *   #!P NAME                 --profile NAME
 *   #!A LIST                 --archs LIST
 * (they are INI comments, so the file reads the same without them).
 *
 * Checked beyond "no crash, no sanitizer report, no GLib critical":
 *   - an error is one message "error: ..." or "FILE[:LINE]: error: ...";
 *   - on success no two edges make one file, and no output is also the
 *     directory of another;
 *   - on error the build directory is not created.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "setup.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	fuzz_project();
	return 0;
}

static void check_message(const GError *e)
{
	const char *m = e->message;
	if (!*m || strchr(m, '\n')) {
		fprintf(stderr, "fuzz_ini: bad error message: '%s'\n", m);
		abort();
	}
	if (g_str_has_prefix(m, "error: "))
		return;
	const char *at = strstr(m, ": error: ");
	if (!at || at == m) {
		fprintf(stderr, "fuzz_ini: error message without 'error: ': '%s'\n", m);
		abort();
	}
}

static void check_graph(const Graph *g)
{
	GHashTable *made = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < g->edges->len; i++) {
		const Edge *e = g_ptr_array_index(g->edges, i);
		if (e->kind == EK_PHONY)
			continue;
		const PathList *lists[] = { e->outs, e->implicit_outs };
		for (int l = 0; l < 2; l++)
			for (guint k = 0; k < EDGE_LEN(lists[l]); k++) {
				const char *o = EDGE_AT(lists[l], k);
				if (g_hash_table_contains(made, o)) {
					fprintf(stderr, "fuzz_ini: two edges make '%s'\n", o);
					abort();
				}
				g_hash_table_add(made, (gpointer)o);
			}
	}
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, made);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		char *dir = g_path_get_dirname(k);
		while (strcmp(dir, ".") != 0 && strcmp(dir, "/") != 0) {
			if (g_hash_table_contains(made, dir)) {
				fprintf(stderr, "fuzz_ini: '%s' is an output and the directory of '%s'\n",
					dir, (char *)k);
				abort();
			}
			char *up = g_path_get_dirname(dir);
			g_free(dir);
			dir = up;
		}
		g_free(dir);
	}
	g_hash_table_destroy(made);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *proj = fuzz_project();
	SetupArgs a = { 0 };
	a.srcdir = g_strdup(proj);
	a.builddir = g_build_filename(proj, "build", NULL);
	a.file = g_build_filename(proj, "cugen.ini", NULL);
	a.backend = g_strdup("ninja");
	GPtrArray *defs = g_ptr_array_new();

	/* option lines */
	const char *p = (const char *)data, *end = p + size;
	while (p < end && end - p > 4 && p[0] == '#' && p[1] == '!') {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		if (le - p < 4)
			break;
		gsize n = le - p - 4;
		if (memchr(p + 4, '\0', n)) /* a NUL: not an option */
			break;
		char *val = g_malloc(n + 1); /* not g_strndup: the input has no NUL */
		memcpy(val, p + 4, n);
		val[n] = '\0';
		if (p[2] == 'D' && p[3] == ' ')
			g_ptr_array_add(defs, val);
		else if (p[2] == 'P' && p[3] == ' ' && !a.profile)
			a.profile = val;
		else if (p[2] == 'A' && p[3] == ' ' && !a.archs)
			a.archs = val;
		else
			g_free(val);
		if (!nl)
			break;
		p = nl + 1;
	}
	if (defs->len) {
		g_ptr_array_add(defs, NULL);
		a.defines = (char **)g_ptr_array_free(defs, FALSE);
	} else {
		g_ptr_array_free(defs, TRUE);
	}

	fuzz_write(a.file, data, size);
	Generated gen = { 0 };
	GError *err = NULL;
	gboolean ok = setup_generate(&a, &gen, &err) && setup_write(&a, &gen, &err);
	if (g_getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz_ini: %s\n", ok ? "set up" : err->message);
	if (ok) {
		check_graph(gen.g);
	} else {
		if (!err) {
			fprintf(stderr, "fuzz_ini: failed without an error\n");
			abort();
		}
		check_message(err);
		if (g_file_test(a.builddir, G_FILE_TEST_EXISTS)) {
			fprintf(stderr, "fuzz_ini: failed (%s) but made the build directory\n", err->message);
			abort();
		}
	}
	g_clear_error(&err);
	setup_generated_clear(&gen);
	fuzz_rm_rf(a.builddir);
	setup_args_clear(&a);
	return 0;
}
