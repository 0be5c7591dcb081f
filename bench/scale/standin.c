/* standin.c -- a stand-in for every compiler step, for bench-scale only:
 * it writes the files a real step would write (small, with realistic
 * depfiles listing the headers in $STANDIN_HEADERS) and runs nothing, so
 * a graph of 70,000 edges can be "built" in minutes and its no-op build
 * timed. Installed under the name of each tool it replaces. Invocations it
 * does not recognise (the host compiler asked for its version by nvcc or
 * cugen) go to the real tool: $STANDIN_REAL_<NAME> or /usr/bin/NAME. */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void depfile(const char *path, const char *target, const char *src)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%s: %s", target, src ? src : "");
	const char *list = getenv("STANDIN_HEADERS");
	FILE *h = list ? fopen(list, "r") : NULL;
	char line[4096];
	while (h && fgets(line, sizeof line, h)) {
		line[strcspn(line, "\n")] = 0;
		if (*line)
			fprintf(f, " \\\n %s", line);
	}
	if (h)
		fclose(h);
	fputc('\n', f);
	fclose(f);
}

static const char *opt(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], name) == 0 && i + 1 < argc)
			return argv[i + 1];
		if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
			return argv[i] + n + 1;
	}
	return NULL;
}

static int has(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

/* the source: the last argument ending in .cu/.cpp/.c */
static const char *source(int argc, char **argv)
{
	const char *s = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "-MT") || !strcmp(argv[i], "-MF") ||
		    !strcmp(argv[i], "-include")) {
			i++;
			continue;
		}
		const char *d = strrchr(argv[i], '.');
		if (d && (!strcmp(d, ".cu") || !strcmp(d, ".cpp") || !strcmp(d, ".c")) && argv[i][0] != '-')
			s = argv[i];
	}
	return s;
}

int main(int argc, char **argv)
{
	char *me = basename(strdup(argv[0]));
	if (strcmp(me, "standin-launch") == 0) {
		/* CMake's compiler launcher: drop the real compiler */
		argv++;
		argc--;
		me = basename(strdup(argv[0]));
	}
	const char *o = opt(argc, argv, "-o");
	if (!strcmp(me, "cudafe++")) {
		put(opt(argc, argv, "--gen_c_file_name"), "// fe\n");
		put(opt(argc, argv, "--module_id_file_name"), "_id\n");
	} else if (!strcmp(me, "cicc")) {
		put(o, "// ptx\n");
		const char *s = opt(argc, argv, "--stub_file_name");
		if (s)
			put(s, "// stub\n");
		if ((s = opt(argc, argv, "--gen_c_file_name")))
			put(s, "\n");
		if ((s = opt(argc, argv, "--gen_device_file_name")))
			put(s, "\n");
	} else if (!strcmp(me, "ptxas") || !strcmp(me, "nvlink")) {
		if (o)
			put(o, "cubin\n");
		const char *r = opt(argc, argv, "--register-link-binaries");
		if (r)
			put(r, "#define NUM_PRELINKED_OBJECTS 0\n");
	} else if (!strcmp(me, "fatbinary")) {
		const char *c = opt(argc, argv, "--create");
		if (c)
			put(c, "fatbin\n");
		if ((c = opt(argc, argv, "--embedded-fatbin")))
			put(c, "\n");
	} else if (!strcmp(me, "objcopy")) {
		put(argv[argc - 1], "object\n");
	} else if (o && (has(argc, argv, "-c") || has(argc, argv, "-E") || !strcmp(me, "nvcc") ||
			 !strcmp(me, "c++") || !strcmp(me, "g++") || !strcmp(me, "gcc") || !strcmp(me, "cc"))) {
		put(o, "object\n");
		const char *mf = opt(argc, argv, "-MF");
		if (mf) {
			const char *mt = opt(argc, argv, "-MT");
			depfile(mf, mt ? mt : o, source(argc, argv));
		}
	} else {
		/* not a build step: the real tool answers */
		char var[256], *real;
		snprintf(var, sizeof var, "STANDIN_REAL_%s", me);
		for (char *p = var; *p; p++)
			if (*p == '+' || *p == '-')
				*p = 'X';
		real = getenv(var);
		char path[4096];
		if (!real) {
			snprintf(path, sizeof path, "/usr/bin/%s", me);
			real = path;
		}
		argv[0] = real;
		execv(real, argv);
		perror(real);
		return 127;
	}
	return 0;
}
