/* spawn.c -- bounded runs of external programs; see spawn.h. */
#include "spawn.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "units.h"
#include "util.h"

#define DEFAULT_TIMEOUT 300.0
#define DEFAULT_OUTPUT (64u << 20)

double cg_spawn_timeout(void)
{
	const char *v = g_getenv("CUGEN_TOOL_TIMEOUT");
	double s = 0;
	if (v && *v && units_parse_duration(v, &s) && s > 0)
		return s;
	return DEFAULT_TIMEOUT;
}

gsize cg_spawn_output_max(void)
{
	const char *v = g_getenv("CUGEN_TOOL_OUTPUT");
	guint64 b = 0;
	if (v && *v && units_parse_size(v, &b) && b <= G_MAXSIZE)
		return (gsize)b;
	return DEFAULT_OUTPUT;
}

/* The child leads its own process group: a timeout kills its children
 * (nvcc's cicc, a compiler's cc1) too. */
static void own_group(gpointer data)
{
	(void)data;
	setpgid(0, 0);
}

/* "nvcc --dryrun": the program's name and first argument, for messages. */
static char *what(const char *const *argv)
{
	char *base = g_path_get_basename(argv[0]);
	char *w = argv[1] ? g_strdup_printf("%s %s", base, argv[1]) : g_strdup(base);
	g_free(base);
	return w;
}

gboolean cg_spawn_bounded(const char *cwd, const char *const *argv, GSpawnFlags flags, char **out,
			  char **errout, int *wstatus, GError **err)
{
	if (out)
		*out = NULL;
	if (errout)
		*errout = NULL;
	GPid pid = 0;
	int fo = -1, fe = -1;
	GError *e = NULL;
	flags &= G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL;
	gboolean want_err = !(flags & G_SPAWN_STDERR_TO_DEV_NULL);
	if (!g_spawn_async_with_pipes(cwd, (char **)argv, NULL, flags | G_SPAWN_DO_NOT_REAP_CHILD, own_group,
				      NULL, &pid, NULL, &fo, want_err ? &fe : NULL, &e)) {
		cg_error(err, "cannot run '%s': %s", argv[0], e->message);
		g_error_free(e);
		return FALSE;
	}
	setpgid(pid, pid); /* the same from this side: no race with a kill */
	double limit = cg_spawn_timeout();
	gsize max = cg_spawn_output_max();
	gint64 deadline = g_get_monotonic_time() + (gint64)(limit * 1e6);
	GString *bufs[2] = { g_string_new(NULL), g_string_new(NULL) };
	int fds[2] = { fo, fe };
	const char *over = NULL;
	char chunk[65536];
	int status = 0;
	/* the program is waited for, not its pipes: a child it leaves in the
	 * background holding them (a daemon, a server) does not stall this;
	 * once it has ended, what it wrote is drained and reading stops */
	gboolean exited = FALSE, drained = FALSE;
	while (!over && !drained && (fds[0] >= 0 || fds[1] >= 0)) {
		struct pollfd p[2];
		int n = 0, idx[2];
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0) {
				p[n] = (struct pollfd){ fds[i], POLLIN, 0 };
				idx[n++] = i;
			}
		gint64 left = deadline - g_get_monotonic_time();
		if (left <= 0 && exited)
			break;
		if (left <= 0) {
			over = "time";
			break;
		}
		/* (an ended program's pipes: what is in them now, no wait) */
		int r = poll(p, n, exited ? 0 : (int)MIN(left / 1000 + 1, 50));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = TRUE;
			/* (a second at most for what it wrote: a child left
			 * writing could go on for ever) */
			deadline = MIN(deadline, g_get_monotonic_time() + G_USEC_PER_SEC);
			continue;
		}
		if (r == 0 && exited)
			drained = TRUE;
		if (r == 0)
			continue;
		for (int k = 0; k < n && !over; k++) {
			if (!p[k].revents)
				continue;
			int i = idx[k];
			ssize_t got = read(fds[i], chunk, sizeof chunk);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(fds[i]);
				fds[i] = -1;
				continue;
			}
			if (bufs[0]->len + bufs[1]->len + (gsize)got > max)
				over = "output";
			else
				g_string_append_len(bufs[i], chunk, got);
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (over && !exited)
		kill(-pid, SIGKILL);
	/* the output closed: the program is ending (or a child of it kept
	 * the pipe; then it still had to end within the limit) */
	for (; !exited;) {
		pid_t w = waitpid(pid, &status, over ? 0 : WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (w == 0) {
			if (g_get_monotonic_time() >= deadline) {
				over = "time";
				kill(-pid, SIGKILL);
			} else {
				g_usleep(2000);
			}
		}
	}
	g_spawn_close_pid(pid);
	if (over) {
		char *w = what(argv);
		char *lim = units_format_duration(limit);
		if (strcmp(over, "time") == 0)
			cg_error(err, "'%s' did not finish within %s: killed (the limit is CUGEN_TOOL_TIMEOUT, in seconds)",
				 w, lim);
		else
			cg_error(err, "'%s' printed more than %" G_GSIZE_FORMAT " bytes: killed (the limit is CUGEN_TOOL_OUTPUT)",
				 w, max);
		g_free(lim);
		g_free(w);
		g_string_free(bufs[0], TRUE);
		g_string_free(bufs[1], TRUE);
		return FALSE;
	}
	if (wstatus)
		*wstatus = status;
	if (out)
		*out = g_string_free(bufs[0], FALSE);
	else
		g_string_free(bufs[0], TRUE);
	if (errout && want_err)
		*errout = g_string_free(bufs[1], FALSE);
	else
		g_string_free(bufs[1], TRUE);
	return TRUE;
}
