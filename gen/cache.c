/* cache.c -- the per-arch device compile cache; see cache.h.
 *
 * Two lookups, as in ccache. The direct one (below, "direct mode") comes
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
#include "depfile.h"
#include "runner.h"
#include "safepath.h"
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
	guint64 b = 0;
	const char *l = g_getenv("CUGEN_CACHE_SIZE");
	/* setup refused a bad value (cache_check); here it is the default */
	return l && *l && runner_parse_size(l, &b) ? b : DEFAULT_LIMIT;
}

/* The tag of https://bford.info/cachedir/: backup tools skip the
 * directory, and it marks a directory as a cache cugen may clear. */
#define TAG_NAME "CACHEDIR.TAG"
#define TAG_TEXT "Signature: 8a477f597d28d172789f06886806bc55\n" \
		 "# This file is a cache directory tag created by cugen.\n" \
		 "# For information about cache directory tags, see https://bford.info/cachedir/\n"

static gboolean has_tag(const char *dir)
{
	char *p = g_build_filename(dir, TAG_NAME, NULL);
	char *t = cg_read_regular(p, 4096, TRUE, NULL, NULL);
	gboolean ok = t && g_str_has_prefix(t, "Signature: 8a477f597d28d172789f06886806bc55");
	g_free(t);
	g_free(p);
	return ok;
}

static gboolean is_empty_dir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	gboolean empty = d && !g_dir_read_name(d);
	if (d)
		g_dir_close(d);
	return empty;
}

/* Whether dir is a cugen cache (its tag); when create, a missing or
 * empty directory becomes one. Nothing else is ever written into. */
static gboolean cache_root(const char *dir, gboolean create)
{
	if (has_tag(dir))
		return TRUE;
	if (!create)
		return FALSE;
	struct stat sb;
	if (stat(dir, &sb) == 0 && (!S_ISDIR(sb.st_mode) || !is_empty_dir(dir)))
		return FALSE;
	return cg_write_beneath(dir, TAG_NAME, TAG_TEXT, strlen(TAG_TEXT), NULL);
}

gboolean cache_check(const char *dir, const char *what, const char *shown, GError **err)
{
	const char *size = g_getenv("CUGEN_CACHE_SIZE");
	guint64 b = 0;
	if (size && *size && !runner_parse_size(size, &b)) {
		cg_error(err, "CUGEN_CACHE_SIZE='%s' is not a size (e.g. 5G, 500M)", size);
		return FALSE;
	}
	if (!dir)
		return TRUE;
	struct stat sb;
	if (stat(dir, &sb) != 0)
		return TRUE; /* made by the first store */
	if (!S_ISDIR(sb.st_mode))
		cg_error(err, "%s '%s' is not a directory", what, shown);
	else if (!has_tag(dir) && !is_empty_dir(dir))
		cg_error(err, "%s '%s' is not a cugen cache (it has files but no " TAG_NAME "): "
			      "name an empty or new directory", what, shown);
	else
		return TRUE;
	return FALSE;
}

/* DIR/stats under DIR/lock, "NAME VALUE" lines: hits and misses of the
 * device compiles (a direct hit is a hit), bytes stored (approximate), and
 * the direct lookups of the device and fe edges. */
typedef struct {
	guint64 hits, misses, bytes;
	guint64 dhits, dmisses;       /* device edges, direct lookups */
	guint64 fe_dhits, fe_dmisses; /* fe edges, direct lookups */
} Stats;

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
static void count_stats(const char *dir, Stats d)
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
	count_stats(dir, (Stats){ .hits = hit > 0, .misses = hit == 0, .bytes = added });
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

/* Hash the keys and the files' contents into c. */
static gboolean hash_request(GChecksum *c, const Request *r, GError **err)
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
static char *entry_at(const char *dir, const char *name)
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
	if (!hash_request(c, r, err)) {
		g_checksum_free(c);
		return NULL;
	}
	char *p = entry_at(r->dir, g_checksum_get_string(c));
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
static gboolean restore_outputs(const char *entry, char **lines, int nouts, char **outs)
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

static void damaged(const char *entry)
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
	if (!cache_root(rq->dir, TRUE)) {
		/* not a cache: a miss, and nothing is written there */
		g_free(mf);
		g_free(entry);
		return 1;
	}
	if ((text = cg_read_regular(mf, 1 << 24, TRUE, NULL, NULL))) {
		char **lines = g_strsplit(g_strstrip(text), "\n", -1);
		if (g_strv_length(lines) == (guint)rq->nouts && restore_outputs(entry, lines, rq->nouts, rq->outs)) {
			utime(entry, NULL); /* recently used */
			rc = 0;
		} else {
			damaged(entry);
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
static GArray *entries(const char *dir)
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
static guint64 store_entry(const char *dir, const char *entry, char **outs, int nouts, const char *extra)
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
	if (!cache_root(rq->dir, TRUE) || g_file_test(entry, G_FILE_TEST_IS_DIR)) {
		g_free(entry);
		return 0; /* not a cache, or a concurrent build stored it */
	}
	guint64 bytes = store_entry(rq->dir, entry, rq->outs, rq->nouts, NULL);
	count(rq->dir, -1, bytes);
	evict(rq->dir);
	g_free(entry);
	return 0; /* a failed store costs a compile later, not this build */
}

/* ---- direct mode ----
 *
 * An edge (the fe edge, or a device edge) asks first
 *   cugen cache direct-get KIND DIR FILES... -- KEYS... -- DEPFILE OUT...
 * KIND is fe or dev. KEYS are the hash of the edge's whole command (fixed
 * at setup; it names the toolkit and host compiler versions) and the
 * values of the command's variables (${O}, ${out}, ${F}, ${C}); FILES (the
 * source, the module id) are hashed by content, and so are the environment
 * variables that steer gcc's header search: that is the edge's key0. Its
 * entries, DIR/xx/KEY0.V (V: a hash of the header list, so that several
 * versions of the headers can each have one), hold the outputs and a
 * manifest: "INDEX SHA256" per output, then "h SHA256 PATH" per file the
 * preprocess read (DEPFILE's prerequisites, as it wrote them: relative to
 * the build directory or absolute). A lookup that finds every such file
 * with the recorded bytes restores the outputs, DEPFILE first (so ninja's
 * header tracking stays exact), each checked against its hash and written
 * atomically; the edge then runs nothing else. An entry whose outputs do
 * not match their hashes is removed and the lookup goes on. On a miss the
 * edge runs as before and ends with
 *   cugen cache direct-put KIND DIR FILES... -- KEYS... -- DEPFILE OUT...
 * which hashes the files DEPFILE lists and stores the entry (through a
 * temporary directory and a rename, like the others).
 *
 * Guards, as in ccache. The lookup leaves DEPFILE.direct: key0 and the
 * time the lookup began (a file's own time stamp, so the same clock as the
 * headers'). The store is skipped when a file the preprocess read was
 * changed (mtime or ctime) after that time, since the preprocess may have
 * read another version than the one hashed now; when key0 is no longer
 * what the lookup computed; and when the source or a header names
 * __DATE__, __TIME__ or __TIMESTAMP__. Like ccache's direct mode, a hit
 * trusts that the preprocessor would find the same files again: a new
 * header that shadows a recorded one from earlier in the search path, or
 * that a __has_include would now find, is not noticed (remove the entries
 * with `cugen cache --clear`, or change the command). */

static const char *const direct_env[] = {
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
	"SOURCE_DATE_EPOCH",
};

static char *direct_key(const char *kind, const Request *r)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	static const char domain[] = "cugen direct 1";
	g_checksum_update(c, (const guchar *)domain, sizeof domain);
	g_checksum_update(c, (const guchar *)kind, strlen(kind) + 1);
	for (gsize i = 0; i < G_N_ELEMENTS(direct_env); i++) {
		const char *v = g_getenv(direct_env[i]);
		char *kv = g_strdup_printf("%s%c%s", direct_env[i], v ? '=' : '-', v ? v : "");
		g_checksum_update(c, (const guchar *)kv, strlen(kv) + 1);
		g_free(kv);
	}
	char *key = NULL;
	GError *err = NULL;
	if (hash_request(c, r, &err))
		key = g_strdup(g_checksum_get_string(c));
	else
		g_error_free(err); /* a missing input: the edge runs and says so */
	g_checksum_free(c);
	return key;
}

/* The hash of the file at path, or NULL; memo caches both. */
static const char *file_hash(GHashTable *memo, const char *path)
{
	gpointer v;
	if (g_hash_table_lookup_extended(memo, path, NULL, &v))
		return v;
	gsize len = 0;
	char *h = NULL;
	char *data = cg_read_regular(path, CG_READ_MAX, FALSE, &len, NULL);
	if (data)
		h = cg_hash_hex(data, len);
	g_free(data);
	g_hash_table_insert(memo, g_strdup(path), h);
	return h;
}

#define HASH_HEX 64

static int direct_get(const char *kind, Request *rq)
{
	gboolean dev = strcmp(kind, "dev") == 0;
	if (!cache_root(rq->dir, TRUE))
		return 1; /* not a cache: a miss, nothing written there */
	char *stamp = g_strconcat(rq->outs[0], ".direct", NULL);
	/* the stamp first: its time is earlier than anything hashed below */
	unlink(stamp);
	int fd = open(stamp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	struct stat sb;
	gboolean stamped = fd >= 0 && fstat(fd, &sb) == 0;
	char *key = direct_key(kind, rq);
	int rc = 1;
	if (key) {
		char *sub = g_strndup(key, 2);
		char *subdir = g_build_filename(rq->dir, sub, NULL);
		char *prefix = g_strconcat(key, ".", NULL);
		GPtrArray *cands = g_ptr_array_new_with_free_func(g_free);
		GDir *d = g_dir_open(subdir, 0, NULL);
		const char *n;
		while (d && (n = g_dir_read_name(d)))
			if (g_str_has_prefix(n, prefix))
				g_ptr_array_add(cands, g_build_filename(subdir, n, NULL));
		if (d)
			g_dir_close(d);
		GHashTable *memo = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
		for (guint c = 0; rc != 0 && c < cands->len; c++) {
			const char *entry = g_ptr_array_index(cands, c);
			char *mf = g_build_filename(entry, "manifest", NULL);
			char *text = cg_read_regular(mf, 1 << 24, TRUE, NULL, NULL);
			if (text) {
				char **lines = g_strsplit(g_strstrip(text), "\n", -1);
				gboolean intact = g_strv_length(lines) >= (guint)rq->nouts;
				gboolean match = intact;
				for (guint i = rq->nouts; match && lines[i]; i++) {
					const char *l = lines[i];
					intact = strlen(l) > 3 + HASH_HEX && l[0] == 'h' && l[1] == ' ' && l[2 + HASH_HEX] == ' ';
					if (!intact) {
						match = FALSE;
						break;
					}
					const char *h = file_hash(memo, l + 3 + HASH_HEX);
					match = h && strncmp(h, l + 2, HASH_HEX) == 0;
				}
				if (match && restore_outputs(entry, lines, rq->nouts, rq->outs)) {
					utime(entry, NULL); /* recently used */
					rc = 0;
				} else if (!intact || match) {
					damaged(entry);
				}
				g_strfreev(lines);
			}
			g_free(text);
			g_free(mf);
		}
		g_hash_table_destroy(memo);
		g_ptr_array_free(cands, TRUE);
		g_free(prefix);
		g_free(subdir);
		g_free(sub);
	}
	if (rc == 0 || !key || !stamped) {
		unlink(stamp);
	} else {
		char *t = g_strdup_printf("%s %lld %ld\n", key, (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec);
		if (write(fd, t, strlen(t)) != (ssize_t)strlen(t))
			unlink(stamp);
		g_free(t);
	}
	if (fd >= 0)
		close(fd);
	Stats s = { 0 };
	if (dev) {
		s.hits = rc == 0;
		s.dhits = rc == 0;
		s.dmisses = rc != 0;
	} else {
		s.fe_dhits = rc == 0;
		s.fe_dmisses = rc != 0;
	}
	count_stats(rq->dir, s);
	g_free(key);
	g_free(stamp);
	return rc;
}

static gboolean changed_since(const struct stat *sb, gint64 sec, glong nsec)
{
	const struct timespec *t[] = { &sb->st_mtim, &sb->st_ctim };
	for (gsize i = 0; i < G_N_ELEMENTS(t); i++)
		if (t[i]->tv_sec > sec || (t[i]->tv_sec == sec && t[i]->tv_nsec >= nsec))
			return TRUE;
	return FALSE;
}

static gboolean names_time(const char *data, gsize len)
{
	static const char *const macros[] = { "__DATE__", "__TIME__", "__TIMESTAMP__" };
	for (gsize i = 0; i < G_N_ELEMENTS(macros); i++)
		if (memmem(data, len, macros[i], strlen(macros[i])))
			return TRUE;
	return FALSE;
}

/* The manifest's header lines for the files depfile lists, or NULL when
 * the entry must not be stored. */
static char *header_lines(const char *depfile, gint64 sec, glong nsec)
{
	char *text = NULL;
	if (!g_file_get_contents(depfile, &text, NULL, NULL))
		return NULL;
	GPtrArray *deps = depfile_parse(text);
	g_free(text);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GString *out = g_string_new(NULL);
	gboolean ok = deps->len > 0;
	for (guint i = 0; ok && i < deps->len; i++) {
		const char *p = g_ptr_array_index(deps, i);
		if (!g_hash_table_add(seen, (gpointer)p))
			continue;
		struct stat sb;
		gsize len = 0;
		char *data = NULL;
		ok = !strchr(p, '\n') && stat(p, &sb) == 0 && !changed_since(&sb, sec, nsec) &&
		     g_file_get_contents(p, &data, &len, NULL) && !names_time(data, len);
		if (ok) {
			char *h = cg_hash_hex(data, len);
			g_string_append_printf(out, "h %s %s\n", h, p);
			g_free(h);
		}
		g_free(data);
	}
	g_hash_table_destroy(seen);
	g_ptr_array_free(deps, TRUE);
	return g_string_free(out, !ok);
}

static int direct_put(const char *kind, Request *rq)
{
	if (!cache_root(rq->dir, TRUE))
		return 0;
	char *stamp = g_strconcat(rq->outs[0], ".direct", NULL);
	char *text = NULL;
	gboolean have = g_file_get_contents(stamp, &text, NULL, NULL);
	unlink(stamp);
	g_free(stamp);
	char key0[HASH_HEX + 1] = "";
	long long sec = 0;
	long nsec = 0;
	if (!have || sscanf(text, "%64s %lld %ld", key0, &sec, &nsec) != 3) {
		g_free(text);
		return 0; /* no lookup began this run: nothing to vouch for */
	}
	g_free(text);
	char *key = direct_key(kind, rq);
	char *hdrs = key && strcmp(key, key0) == 0 ? header_lines(rq->outs[0], sec, nsec) : NULL;
	if (hdrs) {
		char *v = cg_hash_hex(hdrs, strlen(hdrs));
		v[16] = 0;
		char *name = g_strconcat(key, ".", v, NULL);
		char *entry = entry_at(rq->dir, name);
		if (!g_file_test(entry, G_FILE_TEST_IS_DIR)) {
			guint64 bytes = store_entry(rq->dir, entry, rq->outs, rq->nouts, hdrs);
			count_stats(rq->dir, (Stats){ .bytes = bytes });
			evict(rq->dir);
		}
		g_free(entry);
		g_free(name);
		g_free(v);
	}
	g_free(hdrs);
	g_free(key);
	return 0; /* a failed store costs a preprocess later, not this build */
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
		return argv[1][7] == 'g' ? direct_get(argv[2], &rq) : direct_put(argv[2], &rq);
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
		} else if (!has_tag(d)) {
			cg_error(&err, "'%s' is not a cugen cache (no " TAG_NAME "): nothing %s", d,
				 clear ? "removed" : "to show");
		} else if (clear) {
			int fd = lock_dir(d);
			GArray *v = entries(d);
			for (guint i = 0; i < v->len; i++)
				cg_rm_tree(g_array_index(v, Entry, i).path);
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
			       "hits: %" G_GUINT64_FORMAT "\nmisses: %" G_GUINT64_FORMAT "\nhit rate: %.0f%%\n"
			       "direct hits: %" G_GUINT64_FORMAT "\ndirect misses: %" G_GUINT64_FORMAT "\n"
			       "fe direct hits: %" G_GUINT64_FORMAT "\nfe direct misses: %" G_GUINT64_FORMAT "\n",
			       d, v->len, total / 1048576.0, limit_bytes() / 1048576.0, s.hits, s.misses,
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
