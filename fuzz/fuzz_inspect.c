/* fuzz_inspect.c -- `cugen inspect` on arbitrary bytes: the ELF, ar and
 * fatbin readers (inspect_data) and both output formats (the command,
 * on a file holding the input, with stdout sent to /dev/null). Seeds:
 * objects, archives, cubins and fatbins nvcc made (fuzz/corpus/inspect). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "commands.h"
#include "fuzz.h"
#include "inspect.h"

static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	path = g_build_filename(fuzz_tmpdir(), "input.o", NULL);
	return 0;
}

static void run_command(gboolean json)
{
	char *argv[] = { (char *)"inspect", (char *)(json ? "--json" : path),
			 json ? path : NULL, NULL };
	int argc = json ? 3 : 2;
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2);
	int null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	dup2(null, 2);
	close(null);
	int rc = cmd_inspect(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	if (rc != 0 && rc != 1) {
		fprintf(stderr, "fuzz_inspect: exit status %d\n", rc);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes: reads past it are caught */
	guint8 *copy = g_memdup2(data, size);
	GPtrArray *images = g_ptr_array_new_with_free_func((GDestroyNotify)inspect_image_free);
	GPtrArray *errors = g_ptr_array_new_with_free_func((GDestroyNotify)g_error_free);
	gboolean ok = inspect_data(copy, size, images, errors);
	if (ok != (errors->len == 0))
		abort();
	for (guint i = 0; i < images->len; i++) {
		InspectImage *im = g_ptr_array_index(images, i);
		const FatbinImage *img = im->img;
		if (!img->arch || !img->kind_name || !img->sha256 || !im->where)
			abort();
		if (img->payload < copy || img->payload + img->size > copy + size) {
			fprintf(stderr, "fuzz_inspect: an image lies outside the input\n");
			abort();
		}
	}
	for (guint i = 0; i < errors->len; i++) {
		const GError *e = g_ptr_array_index(errors, i);
		if (!g_str_has_prefix(e->message, "error: ") || strchr(e->message, '\n')) {
			fprintf(stderr, "fuzz_inspect: bad error message '%s'\n", e->message);
			abort();
		}
	}
	g_ptr_array_free(images, TRUE);
	g_ptr_array_free(errors, TRUE);
	g_free(copy);
	/* the command: output formats, totals */
	fuzz_write(path, data, size);
	run_command(FALSE);
	run_command(TRUE);
	return 0;
}
