/* fuzz_depfile.c -- depfiles as gcc writes them (depfile_parse) and as
 * `cugen depdiff` writes them (depfile_format). Checked: formatting the
 * parsed paths and parsing them again gives the same paths, for every
 * path the format can carry (no tab, newline or carriage return). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depfile.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_glib_strict();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	GPtrArray *deps = depfile_parse(text);
	GPtrArray *keep = g_ptr_array_new();
	for (guint i = 0; i < deps->len; i++) {
		const char *d = g_ptr_array_index(deps, i);
		if (!*d)
			abort(); /* an empty path is never a prerequisite */
		if (!strpbrk(d, "\t\n\r"))
			g_ptr_array_add(keep, (gpointer)d);
	}
	GString *f = depfile_format("out.o", keep);
	GPtrArray *again = depfile_parse(f->str);
	if (again->len != keep->len) {
		fprintf(stderr, "fuzz_depfile: %u paths, %u after a round trip:\n%s\n",
			keep->len, again->len, f->str);
		abort();
	}
	for (guint i = 0; i < keep->len; i++)
		if (strcmp(g_ptr_array_index(keep, i), g_ptr_array_index(again, i)) != 0) {
			fprintf(stderr, "fuzz_depfile: '%s' came back as '%s'\n",
				(char *)g_ptr_array_index(keep, i), (char *)g_ptr_array_index(again, i));
			abort();
		}
	g_ptr_array_free(again, TRUE);
	g_string_free(f, TRUE);
	g_ptr_array_free(keep, TRUE);
	g_ptr_array_free(deps, TRUE);
	g_free(text);
	return 0;
}
