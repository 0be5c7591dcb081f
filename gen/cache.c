/* cache.c -- the per-arch device compile cache; see cache.h.
 *
 * A device edge runs its preprocess, then
 *   cugen cache get DIR II ID -- KEY F C -- OUT... ||
 *     { cicc && ptxas && cugen cache put DIR II ID -- KEY F C -- OUT...; }
 * KEY (fixed at setup) hashes the rule's cicc and ptxas commands, the arch,
 * the toolkit and the host compiler; F and C are the names that seed the
 * module id; II (the preprocessed input) and ID (the TU's module id) are
 * hashed by content. A hit copies the outputs
 * out after checking each against the manifest's hash; a damaged entry is
 * removed and counts as a miss, so the compile runs. Stores are written in
 * a temporary directory and renamed into place, so concurrent builds that
 * share DIR never see half an entry. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "commands.h"
#include "util.h"

#define DEFAULT_LIMIT (5ULL << 30)

char *cache_dir(const char *configured, const char *srcdir)
{
	const char *d = configured && *configured ? configured : g_getenv("CUGEN_CACHE_DIR");
	if (!d || !*d)
		return NULL;
	return g_path_is_absolute(d) ? cg_path_norm(d) : cg_path_join(srcdir, d);
}

static guint64 limit_bytes(void)
{
	const char *l = g_getenv("CUGEN_CACHE_SIZE");
	if (!l || !*l)
		return DEFAULT_LIMIT;
	char *end = NULL;
	double v = g_ascii_strtod(l, &end);
	double m = 1;
	switch (end ? *end : 0) {
	case 'k': case 'K': m = 1024.0; break;
	case 'm': case 'M': m = 1048576.0; break;
	case 'g': case 'G': m = 1073741824.0; break;
	}
	return v > 0 ? (guint64)(v * m) : DEFAULT_LIMIT;
}

/* DIR/stats under DIR/lock: hits, misses, bytes stored (approximate). */
typedef struct {
	guint64 hits, misses, bytes;
} Stats;

static int lock_dir(const char *dir)
{
	g_mkdir_with_parents(dir, 0777);
	char *p = g_build_filename(dir, "lock", NULL);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	g_free(p);
	if (fd >= 0)
		flock(fd, LOCK_EX);
	return fd;
}

static void unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd);
}

static Stats read_stats(const char *dir)
{
	Stats s = { 0 };
	char *p = g_build_filename(dir, "stats", NULL);
	char *t = NULL;
	if (g_file_get_contents(p, &t, NULL, NULL))
		sscanf(t, "hits %" G_GUINT64_FORMAT "\nmisses %" G_GUINT64_FORMAT "\nbytes %" G_GUINT64_FORMAT,
		       &s.hits, &s.misses, &s.bytes);
	g_free(t);
	g_free(p);
	return s;
}

static void write_stats(const char *dir, Stats s)
{
	char *p = g_build_filename(dir, "stats", NULL);
	char *t = g_strdup_printf("hits %" G_GUINT64_FORMAT "\nmisses %" G_GUINT64_FORMAT "\nbytes %" G_GUINT64_FORMAT "\n",
				  s.hits, s.misses, s.bytes);
	g_file_set_contents(p, t, -1, NULL);
	g_free(t);
	g_free(p);
}

static void count(const char *dir, int hit, guint64 added)
{
	int fd = lock_dir(dir);
	Stats s = read_stats(dir);
	if (hit > 0)
		s.hits++;
	else if (hit == 0)
		s.misses++;
	s.bytes += added;
	write_stats(dir, s);
	unlock_dir(fd);
}

/* An edge's request: DIR FILES... -- KEYS... -- OUTS... */
typedef struct {
	const char *dir;
	char **files, **keys, **outs;
	int nfiles, nkeys, nouts;
} Request;

static gboolean parse_request(int argc, char **argv, Request *r)
{
	int s1 = -1, s2 = -1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			if (s1 < 0)
				s1 = i;
			else if (s2 < 0)
				s2 = i;
		}
	if (argc < 1 || s1 < 2 || s2 < 0 || s2 == argc - 1)
		return FALSE;
	r->dir = argv[0];
	r->files = argv + 1;
	r->nfiles = s1 - 1;
	r->keys = argv + s1 + 1;
	r->nkeys = s2 - s1 - 1;
	r->outs = argv + s2 + 1;
	r->nouts = argc - s2 - 1;
	return TRUE;
}

/* The entry: a hash of the keys and of the files' contents. */
static char *entry_path(const Request *r, GError **err)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	for (int i = 0; i < r->nkeys; i++)
		g_checksum_update(c, (const guchar *)r->keys[i], strlen(r->keys[i]) + 1);
	for (int i = 0; i < r->nfiles; i++) {
		gsize len = 0;
		char *data = NULL;
		GError *e = NULL;
		if (!g_file_get_contents(r->files[i], &data, &len, &e)) {
			cg_error(err, "cache: %s", e->message);
			g_error_free(e);
			g_checksum_free(c);
			return NULL;
		}
		char *lenstr = g_strdup_printf("%" G_GSIZE_FORMAT ":", len);
		g_checksum_update(c, (const guchar *)lenstr, strlen(lenstr));
		g_checksum_update(c, (const guchar *)data, len);
		g_free(lenstr);
		g_free(data);
	}
	char *h = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	const char *dir = r->dir;
	char *sub = g_strndup(h, 2);
	char *p = g_build_filename(dir, sub, h, NULL);
	g_free(sub);
	g_free(h);
	return p;
}

static void rm_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	if (d) {
		const char *n;
		while ((n = g_dir_read_name(d))) {
			char *p = g_build_filename(path, n, NULL);
			if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
				rm_tree(p);
			else
				unlink(p);
			g_free(p);
		}
		g_dir_close(d);
	}
	rmdir(path);
}

/* Copy to dst through a temporary name and a rename. */
static gboolean put_file(const char *dst, const char *data, gsize len)
{
	return g_file_set_contents(dst, data, len, NULL);
}

/* cugen cache get DIR FILES... -- KEYS... -- OUTS...: 0, and the outputs
 * written, on a hit. */
static int cache_get(Request *rq)
{
	GError *err = NULL;
	char *entry = entry_path(rq, &err);
	if (!entry) {
		cg_report(err);
		g_error_free(err);
		return 1;
	}
	char *mf = g_build_filename(entry, "manifest", NULL);
	char *text = NULL;
	int rc = 1;
	if (g_file_get_contents(mf, &text, NULL, NULL)) {
		char **lines = g_strsplit(g_strstrip(text), "\n", -1);
		guint n = g_strv_length(lines);
		gboolean good = n == (guint)rq->nouts;
		char **datas = g_new0(char *, n + 1);
		gsize *lens = g_new0(gsize, n + 1);
		for (guint i = 0; good && i < n; i++) {
			/* "INDEX SHA256" */
			char **f = g_strsplit(lines[i], " ", 2);
			char *p = g_build_filename(entry, f[0], NULL);
			good = f[1] && g_file_get_contents(p, &datas[i], &lens[i], NULL);
			if (good) {
				char *h = cg_hash_hex(datas[i], lens[i]);
				good = strcmp(h, f[1]) == 0;
				g_free(h);
			}
			g_free(p);
			g_strfreev(f);
		}
		for (guint i = 0; good && i < n; i++)
			good = put_file(rq->outs[i], datas[i], lens[i]);
		if (good) {
			utime(entry, NULL); /* recently used */
			rc = 0;
		} else {
			/* damaged (or half-written by hand): never used again */
			fprintf(stderr, "cugen: cache: entry %s is damaged: removed, compiling\n", entry);
			rm_tree(entry);
		}
		for (guint i = 0; i < n; i++)
			g_free(datas[i]);
		g_free(datas);
		g_free(lens);
		g_strfreev(lines);
	}
	count(rq->dir, rc == 0, 0);
	g_free(text);
	g_free(mf);
	g_free(entry);
	return rc;
}

typedef struct {
	char *path;
	time_t mtime;
	guint64 size;
} Entry;

static gint older(gconstpointer a, gconstpointer b)
{
	const Entry *x = a, *y = b;
	return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

static guint64 dir_size(const char *path)
{
	guint64 n = 0;
	GDir *d = g_dir_open(path, 0, NULL);
	const char *f;
	while (d && (f = g_dir_read_name(d))) {
		char *p = g_build_filename(path, f, NULL);
		struct stat sb;
		if (stat(p, &sb) == 0)
			n += (guint64)sb.st_size;
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	return n;
}

/* Every entry, oldest first. */
static GArray *entries(const char *dir)
{
	GArray *v = g_array_new(FALSE, FALSE, sizeof(Entry));
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *sub;
	while (d && (sub = g_dir_read_name(d))) {
		if (strlen(sub) != 2)
			continue;
		char *sp = g_build_filename(dir, sub, NULL);
		GDir *d2 = g_dir_open(sp, 0, NULL);
		const char *e;
		while (d2 && (e = g_dir_read_name(d2))) {
			Entry x = { g_build_filename(sp, e, NULL), 0, 0 };
			struct stat sb;
			if (stat(x.path, &sb) == 0)
				x.mtime = sb.st_mtime;
			x.size = dir_size(x.path);
			g_array_append_val(v, x);
		}
		if (d2)
			g_dir_close(d2);
		g_free(sp);
	}
	if (d)
		g_dir_close(d);
	g_array_sort(v, older);
	return v;
}

static void free_entries(GArray *v)
{
	for (guint i = 0; i < v->len; i++)
		g_free(g_array_index(v, Entry, i).path);
	g_array_free(v, TRUE);
}

/* Over the limit: remove the least recently used entries down to 90%. */
static void evict(const char *dir)
{
	int fd = lock_dir(dir);
	Stats s = read_stats(dir);
	guint64 limit = limit_bytes();
	if (s.bytes > limit) {
		GArray *v = entries(dir);
		guint64 total = 0;
		for (guint i = 0; i < v->len; i++)
			total += g_array_index(v, Entry, i).size;
		for (guint i = 0; i < v->len && total > limit / 10 * 9; i++) {
			Entry *x = &g_array_index(v, Entry, i);
			rm_tree(x->path);
			total -= x->size;
		}
		s.bytes = total;
		write_stats(dir, s);
		free_entries(v);
	}
	unlock_dir(fd);
}

/* cugen cache put DIR FILES... -- KEYS... -- OUTS...: store the outputs. */
static int cache_put(Request *rq)
{
	GError *err = NULL;
	char *entry = entry_path(rq, &err);
	if (!entry) {
		cg_report(err);
		g_error_free(err);
		return 1;
	}
	if (g_file_test(entry, G_FILE_TEST_IS_DIR)) {
		g_free(entry);
		return 0; /* a concurrent build stored it */
	}
	char *tmpdir = g_build_filename(rq->dir, "tmp", NULL);
	g_mkdir_with_parents(tmpdir, 0777);
	char *tmpl = g_build_filename(tmpdir, "put-XXXXXX", NULL);
	char *tmp = g_mkdtemp(tmpl);
	GString *manifest = g_string_new(NULL);
	guint64 bytes = 0;
	gboolean ok = tmp != NULL;
	for (int i = 0; ok && i < rq->nouts; i++) {
		gsize len = 0;
		char *data = NULL;
		ok = g_file_get_contents(rq->outs[i], &data, &len, NULL);
		if (ok) {
			char *name = g_strdup_printf("%d", i);
			char *p = g_build_filename(tmp, name, NULL);
			ok = g_file_set_contents(p, data, len, NULL);
			char *h = cg_hash_hex(data, len);
			g_string_append_printf(manifest, "%s %s\n", name, h);
			bytes += len;
			g_free(h);
			g_free(p);
			g_free(name);
		}
		g_free(data);
	}
	if (ok) {
		char *p = g_build_filename(tmp, "manifest", NULL);
		ok = g_file_set_contents(p, manifest->str, manifest->len, NULL);
		g_free(p);
	}
	if (ok) {
		char *parent = g_path_get_dirname(entry);
		g_mkdir_with_parents(parent, 0777);
		g_free(parent);
		if (rename(tmp, entry) != 0) {
			rm_tree(tmp); /* another build stored the same entry first */
			bytes = 0;
		}
	} else if (tmp) {
		rm_tree(tmp);
	}
	count(rq->dir, -1, bytes);
	evict(rq->dir);
	g_string_free(manifest, TRUE);
	g_free(tmpl);
	g_free(tmpdir);
	g_free(entry);
	return 0; /* a failed store costs a compile later, not this build */
}

int cmd_cache(int argc, char **argv)
{
	Request rq;
	if (argc >= 2 && (strcmp(argv[1], "get") == 0 || strcmp(argv[1], "put") == 0)) {
		if (!parse_request(argc - 2, argv + 2, &rq)) {
			fprintf(stderr, "usage: cugen cache get|put DIR FILE... -- KEY... -- OUTPUT...\n");
			return 2;
		}
		return argv[1][0] == 'g' ? cache_get(&rq) : cache_put(&rq);
	}
	gboolean stats = FALSE, clear = FALSE;
	char *dir = NULL;
	GOptionEntry opts[] = {
		{ "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Print the cache's entries, size, hits and misses", NULL },
		{ "clear", 0, 0, G_OPTION_ARG_NONE, &clear, "Remove every entry", NULL },
		{ "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "The cache directory (default: $CUGEN_CACHE_DIR)", "DIR" },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, "The per-arch compile cache of device code ([toolchain] cache or\n"
				     "$CUGEN_CACHE_DIR; size limit $CUGEN_CACHE_SIZE, default 5G).");
	g_option_context_add_main_entries(ctx, opts, NULL);
	g_set_prgname("cugen cache");
	GError *e = NULL, *err = NULL;
	int rc = 0;
	if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
		cg_usage_error(&err, "%s (see 'cugen cache --help')", e->message);
		g_error_free(e);
	} else if (stats == clear) {
		cg_usage_error(&err, "give --stats or --clear (see 'cugen cache --help')");
	} else {
		char *d = dir ? g_strdup(dir) : cache_dir(NULL, ".");
		if (!d) {
			cg_usage_error(&err, "no cache directory: give --dir DIR or set CUGEN_CACHE_DIR");
		} else if (clear) {
			int fd = lock_dir(d);
			GArray *v = entries(d);
			for (guint i = 0; i < v->len; i++)
				rm_tree(g_array_index(v, Entry, i).path);
			printf("cugen: cache %s: removed %u entries\n", d, v->len);
			free_entries(v);
			write_stats(d, (Stats){ 0 });
			unlock_dir(fd);
		} else {
			GArray *v = entries(d);
			guint64 total = 0;
			for (guint i = 0; i < v->len; i++)
				total += g_array_index(v, Entry, i).size;
			Stats s = read_stats(d);
			guint64 lookups = s.hits + s.misses;
			printf("cache directory: %s\nentries: %u\nsize: %.1f MiB of %.1f MiB\n"
			       "hits: %" G_GUINT64_FORMAT "\nmisses: %" G_GUINT64_FORMAT "\nhit rate: %.0f%%\n",
			       d, v->len, total / 1048576.0, limit_bytes() / 1048576.0, s.hits, s.misses,
			       lookups ? 100.0 * s.hits / lookups : 0.0);
			free_entries(v);
		}
		g_free(d);
	}
	if (err)
		rc = cg_report(err);
	g_clear_error(&err);
	g_option_context_free(ctx);
	g_free(dir);
	return rc;
}
