/* stage.c -- staged (atomic) output: a setup's files are written to
 * temporaries beside their final names and renamed into place only when
 * all of them were written, so a failed or interrupted setup leaves the
 * build directory as it was; unchanged files keep their times; see
 * util.h. */
#include "util.h"

#include "safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- staged output ---- */

typedef struct {
	char *path;
	char *tmp;
	int fd;                /* tmp's, locked until it is renamed (remove_if_stale) */
	GString *contents;
	gboolean always;
	int same;              /* same_content's answer: -1 not asked yet */
} StagedFile;

struct Stage {
	GPtrArray *files;
};

static void staged_free(gpointer p)
{
	StagedFile *f = p;
	g_free(f->path);
	g_free(f->tmp);
	if (f->contents)
		g_string_free(f->contents, TRUE);
	g_free(f);
}

Stage *stage_new(void)
{
	Stage *st = g_new0(Stage, 1);
	st->files = g_ptr_array_new_with_free_func(staged_free);
	return st;
}

void stage_add(Stage *st, const char *path, GString *contents)
{
	StagedFile *f = g_new0(StagedFile, 1);
	f->fd = -1;
	f->path = g_strdup(path);
	f->contents = contents;
	f->same = -1;
	g_ptr_array_add(st->files, f);
}

void stage_add_always(Stage *st, const char *path, GString *contents)
{
	stage_add(st, path, contents);
	((StagedFile *)g_ptr_array_index(st->files, st->files->len - 1))->always = TRUE;
}

/* mkdir -p, remembering the directories created so they can be removed. */
static gboolean make_dirs(const char *dir, GPtrArray *created, GError **err)
{
	struct stat sb;
	if (stat(dir, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			return TRUE;
		cg_error(err, "'%s' exists and is not a directory", dir);
		return FALSE;
	}
	char *parent = g_path_get_dirname(dir);
	gboolean ok = strcmp(parent, dir) == 0 || make_dirs(parent, created, err);
	g_free(parent);
	if (!ok)
		return FALSE;
	if (mkdir(dir, 0777) != 0) {
		int e = errno;
		/* another setup made it meanwhile: not ours to remove */
		if (e == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
			return TRUE;
		/* stat() failed but the name exists: a link to nowhere */
		char *to = e == EEXIST ? g_file_read_link(dir, NULL) : NULL;
		if (to)
			cg_error(err, "cannot create directory '%s': it is a symbolic link to '%s', which does not exist",
				 dir, to);
		else
			cg_error(err, "cannot create directory '%s': %s", dir, g_strerror(e));
		g_free(to);
		return FALSE;
	}
	g_ptr_array_add(created, g_strdup(dir));
	return TRUE;
}

guint32 cg_hash32(const char *s, gsize n)
{
	guint64 h = 0x9E3779B97F4A7C15u ^ n;
	for (; n >= 8; s += 8, n -= 8) {
		guint64 w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDu;
		h ^= h >> 29;
	}
	guint64 w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
	return (guint32)(h ^ (h >> 32));
}

/* slots of a table with mask, zeroed by writing, not calloc'ed: a read
 * of a fresh mapping maps the shared zero page that each later write
 * then copies, with a TLB shootdown of every thread (the rehash of
 * cg_table_fill reads empty slots first: a tenth of setup at 10,000
 * TUs) */
static CgSlot *new_slots(guint mask)
{
	CgSlot *s = g_new(CgSlot, (gsize)mask + 1);
	memset(s, 0, sizeof(CgSlot) * ((gsize)mask + 1));
	return s;
}

void cg_table_init(CgTable *t)
{
	t->mask = 1023;
	t->used = 0;
	t->slots = new_slots(t->mask);
}

void cg_table_reserve(CgTable *t, guint n)
{
	if (t->used || n <= (t->mask + 1) / 2 || n > (1u << 30))
		return;
	guint mask = t->mask;
	while ((mask + 1) / 2 < n)
		mask = mask * 2 + 1;
	g_free(t->slots);
	t->mask = mask;
	t->slots = new_slots(mask);
}

void cg_table_clear(CgTable *t)
{
	g_clear_pointer(&t->slots, g_free);
	t->mask = t->used = 0;
}

CgSlot *cg_table_slot(const CgTable *t, guint32 hash, gboolean (*same)(gconstpointer value, gconstpointer key),
		      gconstpointer key)
{
	guint k = hash & t->mask;
	for (; t->slots[k].value; k = (k + 1) & t->mask)
		if (t->slots[k].hash == hash && same(t->slots[k].value, key))
			break;
	return &t->slots[k];
}

void cg_table_fill(CgTable *t, CgSlot *s, guint32 hash, gpointer value)
{
	s->hash = hash;
	s->value = value;
	if (++t->used * 2 <= t->mask + 1)
		return;
	CgSlot *old = t->slots;
	guint old_mask = t->mask;
	t->mask = t->mask * 2 + 1;
	t->slots = new_slots(t->mask);
	for (guint i = 0; i <= old_mask; i++)
		if (old[i].value) {
			guint k = old[i].hash & t->mask;
			while (t->slots[k].value)
				k = (k + 1) & t->mask;
			t->slots[k] = old[i];
		}
	g_free(old);
}

/* Whether path holds exactly these bytes: the size first, then the
 * bytes, mapped (the full graph is some 20 MB at 10,000 TUs). */
static gboolean same_content(const char *path, const GString *s)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return FALSE;
	struct stat sb;
	gboolean same = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (gsize)sb.st_size == s->len;
	if (same && s->len) {
		void *m = mmap(NULL, s->len, PROT_READ, MAP_PRIVATE, fd, 0);
		same = m != MAP_FAILED && memcmp(m, s->str, s->len) == 0;
		if (m != MAP_FAILED)
			munmap(m, s->len);
	}
	close(fd);
	return same;
}

gboolean cg_write_all(int fd, const char *p, gsize n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return FALSE;
		}
		p += w;
		n -= (gsize)w;
	}
	return TRUE;
}

static gpointer compare_file(gpointer data)
{
	StagedFile *f = data;
	f->same = same_content(f->path, f->contents);
	return NULL;
}

/* A temporary is stale when its writer is gone: every setup holds an
 * exclusive lock on its temporaries until it has renamed them, so one
 * that can be locked was left by a run that was killed (another setup
 * writing the same build directory at the same time keeps its own).
 * It is removed while our lock is held: a writer that had just created
 * it and not yet locked it waits for the lock, then finds its name gone
 * (open_tmp) and makes another. Unlinking after the lock was let go
 * removed such a writer's temporary under it. */
static void remove_if_stale(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	struct stat a, b;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &a) == 0 && lstat(path, &b) == 0 &&
	    a.st_ino == b.st_ino && a.st_dev == b.st_dev && S_ISREG(b.st_mode))
		unlink(path);
	close(fd);
}

/* A new temporary beside f->path, open and locked in f->fd; retried when
 * another run's sweep removed it between its creation and the lock. */
static gboolean open_tmp(StagedFile *f)
{
	for (int tries = 0; tries < 100; tries++) {
		g_free(f->tmp);
		f->tmp = g_strdup_printf("%s.tmp.XXXXXX", f->path);
		int fd = g_mkstemp(f->tmp);
		if (fd < 0)
			return FALSE;
		struct stat a, b;
		if (flock(fd, LOCK_EX) == 0 && fstat(fd, &a) == 0 && lstat(f->tmp, &b) == 0 && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev) {
			f->fd = fd;
			return TRUE;
		}
		close(fd);
	}
	errno = EAGAIN;
	return FALSE;
}

/* The temporaries "FILE.tmp.XXXXXX" an earlier, killed run left beside
 * the staged files (remove_if_stale): removed once this run's files are in
 * place. */
static void remove_stale(Stage *st)
{
	GHashTable *dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *bases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < st->files->len; i++) {
		StagedFile *f = g_ptr_array_index(st->files, i);
		g_hash_table_add(dirs, g_path_get_dirname(f->path));
		g_hash_table_add(bases, g_path_get_basename(f->path));
	}
	GHashTableIter it;
	gpointer dir;
	g_hash_table_iter_init(&it, dirs);
	while (g_hash_table_iter_next(&it, &dir, NULL)) {
		GDir *d = g_dir_open(dir, 0, NULL);
		const char *n;
		while (d && (n = g_dir_read_name(d))) {
			const char *t = strstr(n, ".tmp.");
			if (!t || strlen(t) != 11)
				continue;
			char *base = g_strndup(n, (gsize)(t - n));
			if (g_hash_table_contains(bases, base)) {
				char *p = g_build_filename(dir, n, NULL);
				remove_if_stale(p);
				g_free(p);
			}
			g_free(base);
		}
		if (d)
			g_dir_close(d);
	}
	g_hash_table_destroy(bases);
	g_hash_table_destroy(dirs);
}

gboolean stage_commit(Stage *st, GError **err)
{
	/* large files (the full graph, the shard spec: 20 MB each at 10,000
	 * TUs) are compared with the old ones on threads, side by side */
	GPtrArray *comparing = g_ptr_array_new();
	for (guint i = 0; i < st->files->len; i++) {
		StagedFile *f = g_ptr_array_index(st->files, i);
		if (!f->always && f->contents->len >= (1u << 20))
			g_ptr_array_add(comparing, g_thread_new("cugen-compare", compare_file, f));
	}
	for (guint i = 0; i < comparing->len; i++)
		g_thread_join(g_ptr_array_index(comparing, i));
	g_ptr_array_free(comparing, TRUE);

	/* A file size limit (ulimit -f) makes write() fail with EFBIG, not
	 * kill us with temporaries left behind; an interrupt (Ctrl-C, ninja
	 * stopping a regeneration) waits until every file is renamed into
	 * place or every temporary is removed. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_xfsz;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGXFSZ, &ign, &old_xfsz);
	sigset_t stop, old_mask;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_BLOCK, &stop, &old_mask);

	GPtrArray *created = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < st->files->len; i++) {
		StagedFile *f = g_ptr_array_index(st->files, i);
		char *dir = g_path_get_dirname(f->path);
		ok = make_dirs(dir, created, err);
		g_free(dir);
		if (!ok)
			break;
		/* Unchanged content: leave the file (and its mtime) alone. */
		if (!f->always && (f->same >= 0 ? f->same : same_content(f->path, f->contents)))
			continue;
		if (!open_tmp(f)) {
			cg_error(err, "cannot write '%s': %s", f->path,
				 g_strerror(errno));
			g_clear_pointer(&f->tmp, g_free);
			ok = FALSE;
			break;
		}
		if (!cg_write_all(f->fd, f->contents->str, f->contents->len) ||
		    fsync(f->fd) != 0) {
			cg_error(err, "cannot write '%s': %s", f->path,
				 g_strerror(errno));
			ok = FALSE;
		}
	}
	if (ok) {
		for (guint i = 0; i < st->files->len; i++) {
			StagedFile *f = g_ptr_array_index(st->files, i);
			if (!f->tmp)
				continue;
			/* what a plain creat(0666) would give under the umask */
			mode_t mask = umask(0);
			umask(mask);
			chmod(f->tmp, 0666 & ~mask);
			if (rename(f->tmp, f->path) != 0) {
				cg_error(err, "cannot rename '%s': %s", f->tmp,
					 g_strerror(errno));
				ok = FALSE;
				break;
			}
			g_clear_pointer(&f->tmp, g_free);
		}
	}
	/* (closing a temporary's descriptor ends its lock: renamed by now,
	 * or removed just below) */
	for (guint i = 0; i < st->files->len; i++) {
		StagedFile *f = g_ptr_array_index(st->files, i);
		if (f->tmp && !ok)
			unlink(f->tmp);
		if (f->fd >= 0 && close(f->fd) != 0 && ok) {
			cg_error(err, "cannot write '%s': %s", f->path, g_strerror(errno));
			ok = FALSE;
		}
		f->fd = -1;
	}
	if (!ok) {
		for (guint i = created->len; i > 0; i--)
			rmdir(g_ptr_array_index(created, i - 1));
	}
	if (ok)
		remove_stale(st);
	g_ptr_array_free(created, TRUE);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return ok;
}

void stage_free(Stage *st)
{
	if (!st)
		return;
	g_ptr_array_free(st->files, TRUE);
	g_free(st);
}


/* ---- one process per build directory ---- */

static int held_fds[2] = { -1, -1 };

/* flock fd, waiting while another process holds it (saying so once to
 * a terminal: logs of concurrent runs stay as one run's) */
static void lock_waiting(int fd, const char *builddir)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return;
	if (errno == EWOULDBLOCK && isatty(2)) {
		fprintf(stderr, "cugen: waiting for another cugen that is writing '%s'\n", builddir);
		fflush(stderr);
	}
	while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
		;
}

void stage_lock_dir(const char *builddir)
{
	stage_unlock_dir();
	char *parent = g_path_get_dirname(builddir);
	struct stat sb;
	while (stat(parent, &sb) != 0 && strcmp(parent, "/") != 0 && strcmp(parent, ".") != 0) {
		char *up = g_path_get_dirname(parent);
		g_free(parent);
		parent = up;
	}
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	g_free(parent);
	if (pfd < 0)
		return; /* (setup says what is wrong with the place) */
	lock_waiting(pfd, builddir);
	int dfd = open(builddir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		/* not made yet: its parent stays held while this one makes it */
		held_fds[0] = pfd;
		return;
	}
	/* made: it alone is held (setups of its siblings go on) */
	close(pfd);
	lock_waiting(dfd, builddir);
	held_fds[1] = dfd;
}

void stage_unlock_dir(void)
{
	for (gsize i = 0; i < G_N_ELEMENTS(held_fds); i++)
		if (held_fds[i] >= 0) {
			close(held_fds[i]);
			held_fds[i] = -1;
		}
}
