/* gaterun.c -- `cugen gate`, the gate's edge (gate.c writes it): runs
 * ninja on the full graph, then writes the gate's depfile from the full
 * graph's deps log and the stamp, dated from the start of the run; a
 * failed or interrupted build, or a file edited while it ran, leaves the
 * gate open.
 *
 * The outer ninja's -j, -k, -l and -v reach the inner one: `cugen gate`
 * finds the ninja that runs it among its ancestors (/proc) and passes its
 * flags on, and runs that same ninja binary.
 */
#include "gate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "spawn.h"
#include "util.h"

/* The ninja running this command: its binary and the flags to pass on
 * (-j, -k, -l with their values, -v). FALSE when none is found. */
static gboolean find_ninja(char **exe, GPtrArray *flags)
{
	char **argv = NULL;
	pid_t pid = cg_ninja_ancestor(&argv);
	if (!pid)
		return FALSE;
	char link[64];
	snprintf(link, sizeof link, "/proc/%ld/exe", (long)pid);
	*exe = g_file_read_link(link, NULL);
	if (!*exe)
		*exe = g_strdup(argv[0]);
	for (int i = 1; argv[i]; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			g_ptr_array_add(flags, g_strdup("-v"));
		} else if (a[0] == '-' && a[1] && strchr("jkl", a[1])) {
			if (a[2])
				g_ptr_array_add(flags, g_strdup(a));
			else if (argv[i + 1]) {
				g_ptr_array_add(flags, g_strconcat(a, argv[i + 1], NULL));
				i++;
			}
		} else if (a[0] == '-' && a[1] && a[1] != '-' && strchr("Cfdtw", a[1]) && !a[2] && argv[i + 1]) {
			i++; /* an option with a separate value, not passed on */
		}
	}
	g_strfreev(argv);
	return TRUE;
}

/* The same from `ninja -t deps` (a deps log of another version). */
static gboolean deps_tool_inputs(const char *ninja, GPtrArray *out, GError **err)
{
	const char *argv[] = { ninja, "-f", GATE_FULL, "-t", "deps", NULL };
	char *text = NULL;
	int status = 0;
	GError *e = NULL;
	if (!cg_spawn_bounded(NULL, argv, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, &text, NULL, &status, &e) ||
	    !g_spawn_check_wait_status(status, &e)) {
		if (e->domain == CUGEN_ERROR)
			g_propagate_error(err, e);
		else
			cg_error(err, "%s -t deps: %s", ninja, e->message);
		if (e->domain != CUGEN_ERROR)
			g_error_free(e);
		g_free(text);
		return FALSE;
	}
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	char **lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "    ") && (*l)[4] && g_hash_table_add(seen, *l + 4))
			g_ptr_array_add(out, g_strdup(*l + 4));
	g_hash_table_destroy(seen);
	g_strfreev(lines);
	g_free(text);
	return TRUE;
}

/* ninja's deps log (.ninja_deps, version 4): the paths of the inputs in
 * the latest record of each output; other versions through `ninja -t
 * deps`. FALSE (and err) when unreadable. */
static gboolean deps_log_inputs(const char *path, const char *ninja, GPtrArray *out, GError **err)
{
	gchar *buf = NULL;
	gsize len = 0;
	GError *e = NULL;
	if (!g_file_get_contents(path, &buf, &len, &e)) {
		if (g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_error_free(e);
			return TRUE; /* no edge with a depfile ran yet */
		}
		cg_error(err, "%s", e->message);
		g_error_free(e);
		return FALSE;
	}
	static const char magic[] = "# ninjadeps\n";
	gsize at = sizeof magic - 1 + 4;
	guint32 version = 0;
	if (len < at || memcmp(buf, magic, sizeof magic - 1) != 0 ||
	    (memcpy(&version, buf + sizeof magic - 1, 4), version != 4)) {
		g_free(buf);
		return deps_tool_inputs(ninja, out, err);
	}
	GPtrArray *names = g_ptr_array_new();              /* id -> path (into buf) */
	GPtrArray *latest = g_ptr_array_new();             /* id -> record (into buf) or NULL */
	GArray *sizes = g_array_new(FALSE, TRUE, sizeof(guint32));
	while (at + 4 <= len) {
		guint32 size;
		memcpy(&size, buf + at, 4);
		gboolean deps = size >> 31;
		size &= 0x7fffffff;
		if (size < 4 || at + 4 + size > len || size % 4)
			break; /* a truncated tail: ninja ignores it too */
		char *rec = buf + at + 4;
		if (deps) {
			gint32 id;
			memcpy(&id, rec, 4);
			if (size < 12 || id < 0 || (guint)id >= names->len)
				break;
			g_ptr_array_index(latest, id) = rec;
			g_array_index(sizes, guint32, id) = size;
		} else {
			guint32 sum;
			memcpy(&sum, rec + size - 4, 4);
			if ((guint32)~sum != names->len)
				break;
			rec[size - 4] = '\0'; /* the padding NULs end the name */
			g_ptr_array_add(names, rec);
			g_ptr_array_add(latest, NULL);
			g_array_set_size(sizes, names->len);
		}
		at += 4 + size;
	}
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < latest->len; i++) {
		const char *rec = g_ptr_array_index(latest, i);
		if (!rec)
			continue;
		guint32 n = (g_array_index(sizes, guint32, i) - 12) / 4;
		for (guint32 k = 0; k < n; k++) {
			gint32 id;
			memcpy(&id, rec + 12 + 4 * k, 4);
			if (id < 0 || (guint)id >= names->len ||
			    !g_hash_table_add(seen, GINT_TO_POINTER(id + 1)))
				continue;
			g_ptr_array_add(out, g_strdup(g_ptr_array_index(names, id)));
		}
	}
	g_hash_table_destroy(seen);
	g_array_free(sizes, TRUE);
	g_ptr_array_free(latest, TRUE);
	g_ptr_array_free(names, TRUE);
	g_free(buf);
	return TRUE;
}

/* a path in a depfile: ninja's depfile parser reads '\ ', '\#' and '$$' */
static void depfile_path(GString *o, const char *p)
{
	g_string_append(o, " \\\n  ");
	for (; *p; p++) {
		if (*p == ' ' || *p == '#')
			g_string_append_c(o, '\\');
		else if (*p == '$')
			g_string_append_c(o, '$');
		g_string_append_c(o, *p);
	}
}

/* .cugen/gate.d: the headers (and sources) the full graph's last build
 * read, from its deps log, leaving out what the build itself makes. */
static gboolean write_depfile(const char *ninja, GError **err)
{
	GPtrArray *ins = g_ptr_array_new_with_free_func(g_free);
	if (!deps_log_inputs(GATE_FULL_DIR "/.ninja_deps", ninja, ins, err)) {
		g_ptr_array_free(ins, TRUE);
		return FALSE;
	}
	GString *o = g_string_new(GATE_STAMP ":");
	for (guint i = 0; i < ins->len; i++) {
		const char *p = g_ptr_array_index(ins, i);
		if (g_str_has_prefix(p, "obj/") || g_str_has_prefix(p, ".cugen/") || g_str_has_prefix(p, "shard/"))
			continue;
		depfile_path(o, p);
	}
	g_string_append_c(o, '\n');
	g_ptr_array_free(ins, TRUE);
	GError *e = NULL;
	gboolean ok = g_file_set_contents(GATE_DEPFILE, o->str, o->len, &e);
	if (!ok) {
		cg_error(err, "%s: %s", GATE_DEPFILE, e->message);
		g_error_free(e);
	}
	g_string_free(o, TRUE);
	return ok;
}

/* cugen gate [TARGET...]: run in the build directory by build.ninja. */
int cmd_gate(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("Usage: cugen gate [TARGET]...\n"
		       "Run by a gated build.ninja ([project] gate): build TARGETs (by default\n"
		       "everything) of the full graph, " GATE_FULL ", with the ninja and the\n"
		       "-j, -k, -l and -v flags that run this command; after a complete build,\n"
		       "record the inputs the gate watches in " GATE_DEPFILE ".\n");
		return 0;
	}
	gboolean whole = argc == 1;
	struct timespec start;
	clock_gettime(CLOCK_REALTIME, &start);
	if (whole && unlink(GATE_STAMP) != 0 && errno != ENOENT) {
		fprintf(stderr, "cugen: error: cannot remove %s: %s\n", GATE_STAMP, g_strerror(errno));
		return 1;
	}
	char *exe = NULL;
	GPtrArray *av = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *flags = g_ptr_array_new_with_free_func(g_free);
	if (!find_ninja(&exe, flags)) {
		const char *env = g_getenv("NINJA");
		exe = g_strdup(env && *env ? env : "ninja");
	}
	g_ptr_array_add(av, exe);
	g_ptr_array_add(av, g_strdup("-f"));
	g_ptr_array_add(av, g_strdup(GATE_FULL));
	for (guint i = 0; i < flags->len; i++)
		g_ptr_array_add(av, g_strdup(g_ptr_array_index(flags, i)));
	g_ptr_array_free(flags, TRUE);
	if (!whole)
		g_ptr_array_add(av, g_strdup("--"));
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(av, g_strdup(argv[i]));
	g_ptr_array_add(av, NULL);
	GError *err = NULL;
	int status = 0;
	int rc = 1;
	if (!g_spawn_sync(NULL, (char **)av->pdata, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL, &status, &err)) {
		fprintf(stderr, "cugen: error: %s\n", err->message);
		g_error_free(err);
		goto out;
	}
	if (!g_spawn_check_wait_status(status, NULL)) {
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		if (!rc)
			rc = 1;
		goto out;
	}
	rc = 0;
	if (whole) {
		if (!write_depfile(g_ptr_array_index(av, 0), &err)) {
			rc = cg_report(err);
			g_error_free(err);
			goto out;
		}
		/* the stamp, dated from the start: a file edited since opens the gate */
		int fd = open(GATE_STAMP, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
		struct timespec times[2] = { start, start };
		if (fd < 0 || futimens(fd, times) != 0) {
			fprintf(stderr, "cugen: error: cannot write %s: %s\n", GATE_STAMP, g_strerror(errno));
			rc = 1;
		}
		if (fd >= 0)
			close(fd);
	}
out:
	g_ptr_array_free(av, TRUE);
	return rc;
}
