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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	GError *e = NULL;
	Pipeline *p = pipeline_parse(text, &e);
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
