/* fuzz_dryrun.c -- `nvcc --dryrun` output through the pipeline parser
 * (pipeline_parse) and the device-link parser (dlink_parse), the text
 * that becomes every CUDA edge's command. Seeds: fuzz/dryrun/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pipeline.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	return 0;
}

static void check_argv(const GPtrArray *a, const char *what)
{
	if (!a || a->len == 0) {
		fprintf(stderr, "fuzz_dryrun: empty %s step accepted\n", what);
		abort();
	}
	for (guint i = 0; i < a->len; i++)
		if (!g_ptr_array_index(a, i)) {
			fprintf(stderr, "fuzz_dryrun: NULL argument in %s\n", what);
			abort();
		}
}

/* Known and reported (fuzz/known/dryrun/leak-two-fatbinary): a second
 * fatbinary step leaks the first one's --cicc-cmdline copy. Inputs with
 * two are not given to pipeline_parse while that stands, so the fuzzer
 * can look for other leaks (LeakSanitizer cannot suppress it: GLib's
 * frames end the fast unwinder's stack before pipeline_parse). Build with
 * -DFUZZ_ALL_INPUTS to check the fix. */
static gboolean known_leak(const char *text)
{
#ifdef FUZZ_ALL_INPUTS
	(void)text;
	return FALSE;
#else
	int n = 0;
	char **lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (!g_str_has_prefix(*l, "#$ "))
			continue;
		const char *w = *l + 3, *end = w;
		while (*end && *end != ' ')
			end++;
		char *first = g_strndup(w, end - w);
		n += g_strrstr(first, "fatbinary") != NULL;
		g_free(first);
	}
	g_strfreev(lines);
	return n > 1;
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	GError *e = NULL;
	Pipeline *p = known_leak(text) ? NULL : pipeline_parse(text, &e);
	if (!p && !e)
		cg_error(&e, "skipped");
	if (p) {
		check_argv(p->host_pp, "host preprocess");
		check_argv(p->cudafe, "cudafe++");
		check_argv(p->fatbin, "fatbinary");
		check_argv(p->host_cc, "host compile");
		for (guint i = 0; i < p->archs->len; i++) {
			PipeArch *a = g_ptr_array_index(p->archs, i);
			check_argv(a->pp, "device preprocess");
			check_argv(a->cicc, "cicc");
			if (a->sass)
				check_argv(a->ptxas, "ptxas");
			if (pipeline_arch(p, a->id) == NULL)
				abort();
		}
		pipeline_free(p);
	} else if (!e) {
		fprintf(stderr, "fuzz_dryrun: pipeline_parse failed without an error\n");
		abort();
	}
	g_clear_error(&e);
	Dlink *d = dlink_parse(text, &e);
	if (d) {
		check_argv(d->fatbin, "fatbinary -link");
		check_argv(d->host, "link stub compile");
		for (guint i = 0; i < d->archs->len; i++)
			check_argv(((DlinkArch *)g_ptr_array_index(d->archs, i))->nvlink, "nvlink");
		dlink_free(d);
	} else if (!e) {
		fprintf(stderr, "fuzz_dryrun: dlink_parse failed without an error\n");
		abort();
	}
	g_clear_error(&e);
	g_free(text);
	return 0;
}
