/* cache.c -- the per-arch device compile cache; see cache.h.
 *
 * Two lookups, as in ccache. The direct one (cachedirect.c) comes
 * first and needs no preprocessor; on a miss the edge preprocesses and
 * falls back to the preprocessed one:
 *
 * Preprocessed mode. A device edge runs its preprocess, then
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
#include "cache_int.h"

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
#include "depfile.h"
#include "safepath.h"
#include "template.h"
#include "util.h"


static const struct {
	const char *name;
	gsize off;
} stat_fields[] = {
	{ "hits", G_STRUCT_OFFSET(Stats, hits) },
	{ "misses", G_STRUCT_OFFSET(Stats, misses) },
	{ "bytes", G_STRUCT_OFFSET(Stats, bytes) },
	{ "direct_hits", G_STRUCT_OFFSET(Stats, dhits) },
	{ "direct_misses", G_STRUCT_OFFSET(Stats, dmisses) },
	{ "fe_direct_hits", G_STRUCT_OFFSET(Stats, fe_dhits) },
	{ "fe_direct_misses", G_STRUCT_OFFSET(Stats, fe_dmisses) },
};

#define STAT(s, i) G_STRUCT_MEMBER(guint64, (s), stat_fields[i].off)

static int lock_dir(const char *dir)
{
	g_mkdir_with_parents(dir, 0777);
	char *p = g_build_filename(dir, "lock", NULL);
	int fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
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
	if (g_file_get_contents(p, &t, NULL, NULL)) {
		char **lines = g_strsplit(t, "\n", -1);
		for (char **l = lines; *l; l++) {
			char *sp = strchr(*l, ' ');
			if (!sp)
				continue;
			*sp = 0;
			for (gsize i = 0; i < G_N_ELEMENTS(stat_fields); i++)
				if (strcmp(*l, stat_fields[i].name) == 0)
					STAT(&s, i) = g_ascii_strtoull(sp + 1, NULL, 10);
		}
		g_strfreev(lines);
	}
	g_free(t);
	g_free(p);
	return s;
}

static void write_stats(const char *dir, Stats s)
{
	char *p = g_build_filename(dir, "stats", NULL);
	GString *t = g_string_new(NULL);
	for (gsize i = 0; i < G_N_ELEMENTS(stat_fields); i++)
		g_string_append_printf(t, "%s %" G_GUINT64_FORMAT "\n", stat_fields[i].name, STAT(&s, i));
	g_file_set_contents(p, t->str, t->len, NULL);
	g_string_free(t, TRUE);
	g_free(p);
}

/* Add d's counters to DIR/stats. */
void ch_count_stats(const char *dir, Stats d)
{
	int fd = lock_dir(dir);
	Stats s = read_stats(dir);
	for (gsize i = 0; i < G_N_ELEMENTS(stat_fields); i++)
		STAT(&s, i) += STAT(&d, i);
	write_stats(dir, s);
	unlock_dir(fd);
}

static void count(const char *dir, int hit, guint64 added)
{
	ch_count_stats(dir, (Stats){ .hits = hit > 0, .misses = hit == 0, .bytes = added });
}


char *cache_request(const char *kind, const char *dir, const char *files, const char *keys, const char *outs)
{
	return g_strdup_printf("%s%s%s %s -- %s -- %s", kind ? kind : "", kind ? " " : "", dir, files, keys, outs);
}

char *cache_wrap(const char *cugen, gboolean direct, const char *request, const char *command)
{
	const char *vars[] = {
		"CUGEN", cugen,
		"GET", direct ? "direct-get" : "get",
		"PUT", direct ? "direct-put" : "put",
		"REQUEST", request,
		"COMMAND", command,
		NULL,
	};
	char *w = template_expand("cache-wrap.in", vars);
	return g_strchomp(w);
}

/* The words of cache_request(), after its KIND. */
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

/* Hash the keys and the files' contents into c. */
gboolean ch_hash_request(GChecksum *c, const Request *r, GError **err)
{
	for (int i = 0; i < r->nkeys; i++)
		g_checksum_update(c, (const guchar *)r->keys[i], strlen(r->keys[i]) + 1);
	for (int i = 0; i < r->nfiles; i++) {
		gsize len = 0;
		char *data = NULL;
		GError *e = NULL;
		if (!g_file_get_contents(r->files[i], &data, &len, &e)) {
			cg_error(err, "cache: %s", e->message);
			g_error_free(e);
			return FALSE;
		}
		char *lenstr = g_strdup_printf("%" G_GSIZE_FORMAT ":", len);
		g_checksum_update(c, (const guchar *)lenstr, strlen(lenstr));
		g_checksum_update(c, (const guchar *)data, len);
		g_free(lenstr);
		g_free(data);
	}
	return TRUE;
}

/* A directory itself, not a link to one. */
static gboolean real_dir(const char *p)
{
	struct stat sb;
	return lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* DIR/xx/NAME, xx the name's first two characters. */
char *ch_entry_at(const char *dir, const char *name)
{
	char *sub = g_strndup(name, 2);
	char *p = g_build_filename(dir, sub, name, NULL);
	g_free(sub);
	return p;
}

/* The entry: a hash of the keys and of the files' contents. */
static char *entry_path(const Request *r, GError **err)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	if (!ch_hash_request(c, r, err)) {
		g_checksum_free(c);
		return NULL;
	}
	char *p = ch_entry_at(r->dir, g_checksum_get_string(c));
	g_checksum_free(c);
	return p;
}

char *cache_entry_of(const char *dir, char **files, int nfiles, char **keys, int nkeys)
{
	Request r = { dir, files, keys, NULL, nfiles, nkeys, 0 };
	return entry_path(&r, NULL);
}

/* Copy to dst through a temporary name and a rename. */
static gboolean put_file(const char *dst, const char *data, gsize len)
{
	return g_file_set_contents(dst, data, len, NULL);
}

/* Check entry's files 0..nouts-1 against lines[0..nouts-1] ("INDEX
 * SHA256") and, when all are intact, write them to outs (each through a
 * temporary name and a rename). FALSE: the entry is damaged (or the
 * outputs could not be written). */
gboolean ch_restore_outputs(const char *entry, char **lines, int nouts, char **outs)
{
	char **datas = g_new0(char *, nouts + 1);
	gsize *lens = g_new0(gsize, nouts + 1);
	gboolean good = TRUE;
	for (int i = 0; good && i < nouts; i++) {
		char **f = g_strsplit(lines[i], " ", 2);
		char *want = g_strdup_printf("%d", i);
		good = f[0] && f[1] && strcmp(f[0], want) == 0;
		g_free(want);
		if (good) {
			char *p = g_build_filename(entry, f[0], NULL);
			datas[i] = cg_read_regular(p, CG_READ_MAX, TRUE, &lens[i], NULL);
			good = datas[i] != NULL;
			g_free(p);
		}
		if (good) {
			char *h = cg_hash_hex(datas[i], lens[i]);
			good = strcmp(h, f[1]) == 0;
			g_free(h);
		}
		g_strfreev(f);
	}
	for (int i = 0; good && i < nouts; i++)
		good = put_file(outs[i], datas[i], lens[i]);
	for (int i = 0; i < nouts; i++)
		g_free(datas[i]);
	g_free(datas);
	g_free(lens);
	return good;
}

void ch_damaged(const char *entry)
{
	/* damaged (or half-written by hand): never used again. Its xx/
	 * directory must be a real one; a link in its place is removed as
	 * a link (cg_rm_tree follows none). */
	char *parent = g_path_get_dirname(entry);
	gboolean inside = real_dir(parent);
	g_free(parent);
	fprintf(stderr, "cugen: cache: entry %s is damaged: %s, compiling\n", entry, inside ? "removed" : "ignored");
	if (inside)
		cg_rm_tree(entry);
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
	if (!ch_cache_root(rq->dir, TRUE)) {
		/* not a cache: a miss, and nothing is written there */
		g_free(mf);
		g_free(entry);
		return 1;
	}
	if (ch_trusted_entry(entry) && (text = cg_read_regular(mf, 1 << 24, TRUE, NULL, NULL))) {
		char **lines = g_strsplit(g_strstrip(text), "\n", -1);
		if (g_strv_length(lines) == (guint)rq->nouts && ch_restore_outputs(entry, lines, rq->nouts, rq->outs)) {
			utime(entry, NULL); /* recently used */
			rc = 0;
		} else {
			ch_damaged(entry);
		}
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
		if (lstat(p, &sb) == 0)
			n += (guint64)sb.st_size;
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	return n;
}

/* Every entry, oldest first. */
GArray *ch_entries(const char *dir)
{
	GArray *v = g_array_new(FALSE, FALSE, sizeof(Entry));
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *sub;
	while (d && (sub = g_dir_read_name(d))) {
		if (strlen(sub) != 2 || !g_ascii_isxdigit(sub[0]) || !g_ascii_isxdigit(sub[1]))
			continue;
		char *sp = g_build_filename(dir, sub, NULL);
		GDir *d2 = real_dir(sp) ? g_dir_open(sp, 0, NULL) : NULL;
		const char *e;
		while (d2 && (e = g_dir_read_name(d2))) {
			Entry x = { g_build_filename(sp, e, NULL), 0, 0 };
			struct stat sb;
			if (lstat(x.path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
				g_free(x.path); /* not an entry: left alone */
				continue;
			}
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
void ch_evict(const char *dir)
{
	int fd = lock_dir(dir);
	Stats s = read_stats(dir);
	guint64 limit = ch_limit_bytes();
	if (s.bytes > limit) {
		GArray *v = ch_entries(dir);
		guint64 total = 0;
		for (guint i = 0; i < v->len; i++)
			total += g_array_index(v, Entry, i).size;
		for (guint i = 0; i < v->len && total > limit / 10 * 9; i++) {
			Entry *x = &g_array_index(v, Entry, i);
			cg_rm_tree(x->path);
			total -= x->size;
		}
		s.bytes = total;
		write_stats(dir, s);
		free_entries(v);
	}
	unlock_dir(fd);
}

/* Store the outputs as entry: files 0, 1, ... and a manifest of "INDEX
 * SHA256" lines, then extra (more manifest lines), written in DIR/tmp and
 * renamed into place. The bytes stored, 0 when nothing was. */
guint64 ch_store_entry(const char *dir, const char *entry, char **outs, int nouts, const char *extra)
{
	char *tmpdir = g_build_filename(dir, "tmp", NULL);
	g_mkdir_with_parents(tmpdir, 0777);
	char *tmpl = g_build_filename(tmpdir, "put-XXXXXX", NULL);
	char *tmp = g_mkdtemp(tmpl);
	GString *manifest = g_string_new(NULL);
	guint64 bytes = 0;
	gboolean ok = tmp != NULL;
	for (int i = 0; ok && i < nouts; i++) {
		gsize len = 0;
		char *data = NULL;
		ok = g_file_get_contents(outs[i], &data, &len, NULL);
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
	if (ok && extra)
		g_string_append(manifest, extra);
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
			cg_rm_tree(tmp); /* another build stored the same entry first */
			bytes = 0;
		}
	} else {
		if (tmp)
			cg_rm_tree(tmp);
		bytes = 0;
	}
	g_string_free(manifest, TRUE);
	g_free(tmpl);
	g_free(tmpdir);
	return bytes;
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
	if (!ch_cache_root(rq->dir, TRUE) || g_file_test(entry, G_FILE_TEST_IS_DIR)) {
		g_free(entry);
		return 0; /* not a cache, or a concurrent build stored it */
	}
	guint64 bytes = ch_store_entry(rq->dir, entry, rq->outs, rq->nouts, NULL);
	count(rq->dir, -1, bytes);
	ch_evict(rq->dir);
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
	if (argc >= 2 && (strcmp(argv[1], "direct-get") == 0 || strcmp(argv[1], "direct-put") == 0)) {
		if (argc < 3 || (strcmp(argv[2], "fe") != 0 && strcmp(argv[2], "dev") != 0) ||
		    !parse_request(argc - 3, argv + 3, &rq)) {
			fprintf(stderr, "usage: cugen cache direct-get|direct-put fe|dev DIR FILE... -- KEY... -- DEPFILE OUTPUT...\n");
			return 2;
		}
		return argv[1][7] == 'g' ? ch_direct_get(argv[2], &rq) : ch_direct_put(argv[2], &rq);
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
		} else if (stats && !cache_check(NULL, NULL, NULL, &err)) {
			/* (a bad CUGEN_CACHE_SIZE: the limit it would show is not it) */
		} else if (!ch_has_tag(d)) {
			cg_error(&err, "'%s' is not a cugen cache (no " TAG_NAME " of cugen's): nothing %s", d,
				 clear ? "removed" : "to show");
		} else if (clear) {
			int fd = lock_dir(d);
			GArray *v = ch_entries(d);
			for (guint i = 0; i < v->len; i++)
				cg_rm_tree(g_array_index(v, Entry, i).path);
			printf("cugen: cache %s: removed %u entries\n", d, v->len);
			free_entries(v);
			write_stats(d, (Stats){ 0 });
			unlock_dir(fd);
		} else {
			GArray *v = ch_entries(d);
			guint64 total = 0;
			for (guint i = 0; i < v->len; i++)
				total += g_array_index(v, Entry, i).size;
			Stats s = read_stats(d);
			guint64 lookups = s.hits + s.misses;
			printf("cache directory: %s\nentries: %u\nsize: %.1f MiB of %.1f MiB\n"
			       "hits: %" G_GUINT64_FORMAT "\nmisses: %" G_GUINT64_FORMAT "\nhit rate: %.0f%%\n"
			       "direct hits: %" G_GUINT64_FORMAT "\ndirect misses: %" G_GUINT64_FORMAT "\n"
			       "fe direct hits: %" G_GUINT64_FORMAT "\nfe direct misses: %" G_GUINT64_FORMAT "\n",
			       d, v->len, total / 1048576.0, ch_limit_bytes() / 1048576.0, s.hits, s.misses,
			       lookups ? 100.0 * s.hits / lookups : 0.0, s.dhits, s.dmisses, s.fe_dhits,
			       s.fe_dmisses);
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

