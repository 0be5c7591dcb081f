/* common.c -- scratch directory and project tree for the fuzz targets;
 * see fuzz.h. */
#include "fuzz.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp;
static char *project;
static pid_t owner;

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	if (remove(p) != 0 && errno != ENOENT) {
		/* a directory made unwritable by a test: make it writable */
		chmod(p, 0700);
		remove(p);
	}
	return 0;
}

void fuzz_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cleanup(void)
{
	if (tmp && getpid() == owner)
		fuzz_rm_rf(tmp);
}

const char *fuzz_tmpdir(void)
{
	if (tmp)
		return tmp;
	/* tmpfs where there is one: setup fsyncs what it writes */
	const char *base = g_getenv("FUZZ_TMPDIR");
	if (!base && g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) &&
	    access("/dev/shm", W_OK) == 0)
		base = "/dev/shm";
	if (!base)
		base = g_get_tmp_dir();
	tmp = g_build_filename(base, "cugen-fuzz-XXXXXX", NULL);
	if (!g_mkdtemp(tmp)) {
		fprintf(stderr, "fuzz: cannot create %s: %s\n", tmp, g_strerror(errno));
		abort();
	}
	owner = getpid();
	atexit(cleanup);
	return tmp;
}

void fuzz_write(const char *path, const void *data, gsize len)
{
	char *dir = g_path_get_dirname(path);
	g_mkdir_with_parents(dir, 0755);
	g_free(dir);
	/* not g_file_set_contents: it fsyncs */
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
		fprintf(stderr, "fuzz: cannot write %s: %s\n", path, g_strerror(errno));
		abort();
	}
}

const char *fuzz_project(void)
{
	if (project)
		return project;
	project = g_build_filename(fuzz_tmpdir(), "p", NULL);
	static const char *const files[] = {
		"k.cu", "a.cu", "b.cu", "c.cu", "saxpy.cu", "cdp.cu", "m.cpp",
		"m.c", "a.c", "main.cpp", "k.h", "m.h", "src/k.cu", "src/x.cpp",
		"src/y.c", "lib/kernels.cu", "lib/scan.cu", "lib/checks.cpp",
		"app/main.cpp", "shlib/api.cu", "include/multi/multi.h",
		"include/rdc/rdc.h", "inc/k.h", "conf.d/.keep", NULL
	};
	for (int i = 0; files[i]; i++) {
		char *p = g_build_filename(project, files[i], NULL);
		fuzz_write(p, "", 0);
		g_free(p);
	}
	return project;
}

void fuzz_glib_strict(void)
{
	g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING |
			       G_LOG_LEVEL_ERROR);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = g_malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
