/* cachedirect.c -- the cache's direct mode: an entry keyed by the
 * command as written, the toolkit, and the content of the source and of
 * every header the entry recorded, found before any preprocessing (as
 * ccache's direct mode); see cache_int.h and cache.c. */
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
#include "util.h"

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
 * __DATE__, __TIME__ or __TIMESTAMP__.
 *
 * Shadowing. A hit must also be what the preprocessor would find now: a
 * header that appeared, since the entry was stored, in a search
 * directory the preprocess looks in before the one a recorded header came
 * from (inc1/cfg.h in front of inc2/cfg.h) would be read instead. The
 * keys carry the preprocess's search directories in order ("search=DIR",
 * recipe.c); for each recorded header, the candidates are DIR/S for each
 * directory before the one that holds it (every directory, for a header
 * under none of them: a system header, a quoted include beside its
 * includer) and each S of its last one to three path components. A
 * candidate that exists is a miss, unless it existed when the entry was
 * stored ("e PATH" lines: it was there and not chosen).
 *
 * Lookups. Every place a file's directives searched, found or not (the
 * includer's directory for a quoted name, __has_include probes), is
 * recorded too ("a PATH": no header there; "x PATH": a probe found one);
 * a hit checks them all (cachelook.c). */

static const char *const direct_env[] = {
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
	"SOURCE_DATE_EPOCH",
};

static char *direct_key(const char *kind, const Request *r)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	static const char domain[] = "cugen direct 3"; /* 3: the lookups (cachelook.c) */
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
	if (ch_hash_request(c, r, &err))
		key = g_strdup(g_checksum_get_string(c));
	else
		g_error_free(err); /* a missing input: the edge runs and says so */
	g_checksum_free(c);
	return key;
}

/* Call fn(candidate, data) for each path that would shadow header p
 * (see above); stop and return TRUE when fn does. */
static gboolean shadow_candidates(const Request *r, const char *p, gboolean (*fn)(const char *, gpointer),
				  gpointer data)
{
	/* p's last 1..3 components, and its name below the first search
	 * directory that holds it (a name a macro made: <thrust/system/...>) */
	const char *suffix[4] = { NULL, NULL, NULL, NULL };
	int ns = 0;
	for (const char *q = p + strlen(p); q > p && ns < 3; q--)
		if (q[-1] == '/')
			suffix[ns++] = q;
	for (int k = 0; k < r->nkeys; k++) {
		const char *dir = g_str_has_prefix(r->keys[k], "search=") ? r->keys[k] + strlen("search=") : NULL;
		gsize n = dir ? strlen(dir) : 0;
		if (n && strncmp(p, dir, n) == 0 && (p[n] == '/' || dir[n - 1] == '/')) {
			const char *rel = p + n + (p[n] == '/');
			if (*rel && (ns == 0 || rel < suffix[ns - 1]))
				suffix[ns++] = rel;
			break;
		}
	}
	for (int k = 0; k < r->nkeys; k++) {
		if (!g_str_has_prefix(r->keys[k], "search="))
			continue;
		const char *dir = r->keys[k] + strlen("search=");
		gsize n = strlen(dir);
		if (n && strncmp(p, dir, n) == 0 && (p[n] == '/' || dir[n - 1] == '/'))
			return FALSE; /* found here: later directories cannot shadow it */
		for (int i = 0; i < ns; i++) {
			char *c = g_build_filename(dir, suffix[i], NULL);
			gboolean stop = strcmp(c, p) != 0 && fn(c, data);
			g_free(c);
			if (stop)
				return TRUE;
		}
	}
	return FALSE;
}

static gboolean exists(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0;
}

/* a candidate that exists and did not when the entry was stored */
static gboolean appeared(const char *c, gpointer allowed)
{
	return exists(c) && !g_hash_table_contains(allowed, c);
}

static gboolean note_existing(const char *c, gpointer out)
{
	if (exists(c) && !strchr(c, '\n'))
		g_string_append_printf(out, "e %s\n", c);
	return FALSE;
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

int ch_direct_get(const char *kind, Request *rq)
{
	gboolean dev = strcmp(kind, "dev") == 0;
	if (!ch_cache_root(rq->dir, TRUE))
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
			char *text = ch_trusted_entry(entry) ? cg_read_regular(mf, 1 << 24, TRUE, NULL, NULL) : NULL;
			if (text) {
				char **lines = g_strsplit(g_strstrip(text), "\n", -1);
				gboolean intact = g_strv_length(lines) >= (guint)rq->nouts;
				gboolean match = intact;
				/* the candidates that were there at the store */
				GHashTable *allowed = g_hash_table_new(g_str_hash, g_str_equal);
				for (guint i = rq->nouts; intact && lines[i]; i++)
					if (g_str_has_prefix(lines[i], "e ") && lines[i][2])
						g_hash_table_add(allowed, lines[i] + 2);
				for (guint i = rq->nouts; match && lines[i]; i++) {
					const char *l = lines[i];
					if (g_str_has_prefix(l, "e ") && l[2])
						continue;
					if ((l[0] == 'a' || l[0] == 'x') && l[1] == ' ' && l[2]) {
						/* a place the preprocessor looked */
						match = ch_lookups_hold(l);
						continue;
					}
					intact = strlen(l) > 3 + HASH_HEX && l[0] == 'h' && l[1] == ' ' && l[2 + HASH_HEX] == ' ';
					if (!intact) {
						match = FALSE;
						break;
					}
					const char *h = file_hash(memo, l + 3 + HASH_HEX);
					match = h && strncmp(h, l + 2, HASH_HEX) == 0 &&
						!shadow_candidates(rq, l + 3 + HASH_HEX, appeared, allowed);
				}
				g_hash_table_destroy(allowed);
				if (match && ch_restore_outputs(entry, lines, rq->nouts, rq->outs)) {
					utime(entry, NULL); /* recently used */
					rc = 0;
				} else if (!intact || match) {
					ch_damaged(entry);
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
	ch_count_stats(rq->dir, s);
	g_free(key);
	g_free(stamp);
	return rc;
}

gboolean ch_changed_since(const struct stat *sb, gint64 sec, glong nsec)
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
static char *header_lines(const Request *r, const char *depfile, gint64 sec, glong nsec)
{
	char *text = NULL;
	if (!g_file_get_contents(depfile, &text, NULL, NULL))
		return NULL;
	GPtrArray *deps = depfile_parse(text);
	g_free(text);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *looked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GString *out = g_string_new(NULL), *places = g_string_new(NULL);
	gboolean ok = deps->len > 0;
	for (guint i = 0; ok && i < deps->len; i++) {
		const char *p = g_ptr_array_index(deps, i);
		if (!g_hash_table_add(seen, (gpointer)p))
			continue;
		struct stat sb;
		gsize len = 0;
		char *data = NULL;
		ok = !strchr(p, '\n') && stat(p, &sb) == 0 && !ch_changed_since(&sb, sec, nsec) &&
		     g_file_get_contents(p, &data, &len, NULL) && !names_time(data, len);
		if (ok) {
			char *h = cg_hash_hex(data, len);
			g_string_append_printf(out, "h %s %s\n", h, p);
			g_free(h);
			shadow_candidates(r, p, note_existing, out);
			/* and every place its directives looked, found or not */
			ok = ch_lookups(r, p, data, len, looked, places, sec, nsec);
		}
		g_free(data);
	}
	g_string_append_len(out, places->str, (gssize)places->len);
	g_string_free(places, TRUE);
	g_hash_table_destroy(looked);
	g_hash_table_destroy(seen);
	g_ptr_array_free(deps, TRUE);
	return g_string_free(out, !ok);
}

int ch_direct_put(const char *kind, Request *rq)
{
	if (!ch_cache_root(rq->dir, TRUE))
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
	char *hdrs = key && strcmp(key, key0) == 0 ? header_lines(rq, rq->outs[0], sec, nsec) : NULL;
	if (hdrs) {
		char *v = cg_hash_hex(hdrs, strlen(hdrs));
		v[16] = 0;
		char *name = g_strconcat(key, ".", v, NULL);
		char *entry = ch_entry_at(rq->dir, name);
		if (!g_file_test(entry, G_FILE_TEST_IS_DIR)) {
			guint64 bytes = ch_store_entry(rq->dir, entry, rq->outs, rq->nouts, hdrs);
			ch_count_stats(rq->dir, (Stats){ .bytes = bytes });
			ch_evict(rq->dir);
		}
		g_free(entry);
		g_free(name);
		g_free(v);
	}
	g_free(hdrs);
	g_free(key);
	return 0; /* a failed store costs a preprocess later, not this build */
}

