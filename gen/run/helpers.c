/* helpers.c -- the small subcommands that generated build edges run.
 *
 * Owns: `cugen depdiff` (a device edge keeps only the headers its device
 * view adds to the host view; see edges.c for why) and `cugen stub` (the
 * host stub of one arch, renamed, written only when it changed, so that
 * choosing another arch to take it from does not recompile the host side)
 * `cugen devrt-hint` (runs nvlink; when it fails for want of
 * libcudadevrt, says which key to set), `cugen exec` (runs one step,
 * with address space randomisation off, and logs its peak memory and CPU
 * time for the planner; under ninja it stops the step when ninja dies) and `cugen slot`
 * (the make backend's stand-in for ninja's pools).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "depfile.h"
#include "safepath.h"
#include "util.h"

/* cugen depdiff HOST.d FULL.d OUT.d TARGET: OUT.d lists the headers of
 * FULL.d (a device view) missing from HOST.d (the host view). FULL.d stays:
 * a shard's manifest hashes the files it lists. A missing HOST.d keeps
 * every header (safe). */
int cmd_depdiff(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: cugen depdiff HOST.d FULL.d OUT.d TARGET\n");
		return 2;
	}
	GError *err = NULL;
	char *full = cg_read_file(argv[2], NULL, &err);
	if (!full)
		return cg_report(err);
	char *host = NULL;
	g_file_get_contents(argv[1], &host, NULL, NULL);
	GPtrArray *fdeps = depfile_parse(full);
	GHashTable *hset = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *hdeps = host ? depfile_parse(host) : NULL;
	for (guint i = 0; hdeps && i < hdeps->len; i++)
		g_hash_table_add(hset, g_ptr_array_index(hdeps, i));
	GPtrArray *extra = g_ptr_array_new();
	for (guint i = 0; i < fdeps->len; i++)
		if (!g_hash_table_contains(hset, g_ptr_array_index(fdeps, i)))
			g_ptr_array_add(extra, g_ptr_array_index(fdeps, i));
	GString *out = depfile_format(argv[4], extra);
	int rc = 0;
	if (!g_file_set_contents(argv[3], out->str, out->len, &err)) {
		fprintf(stderr, "cugen: error: %s\n", err->message);
		g_error_free(err);
		rc = 1;
	}
	g_string_free(out, TRUE);
	g_ptr_array_free(extra, TRUE);
	g_hash_table_destroy(hset);
	if (hdeps)
		g_ptr_array_free(hdeps, TRUE);
	g_ptr_array_free(fdeps, TRUE);
	g_free(host);
	g_free(full);
	return rc;
}

/* cugen stub IN OUT: OUT = IN with IN's own name (in cicc's line markers)
 * replaced by OUT's; OUT is left untouched when that is what it holds. */
int cmd_stub(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: cugen stub IN OUT\n");
		return 2;
	}
	GError *err = NULL;
	char *in = cg_read_file(argv[1], NULL, &err);
	if (!in)
		return cg_report(err);
	char *from = g_strdup_printf("\"%s\"", argv[1]);
	char *to = g_strdup_printf("\"%s\"", argv[2]);
	char **parts = g_strsplit(in, from, -1);
	char *text = g_strjoinv(to, parts);
	g_strfreev(parts);
	char *old = NULL;
	gsize oldlen = 0;
	int rc = 0;
	if (!g_file_get_contents(argv[2], &old, &oldlen, NULL) ||
	    oldlen != strlen(text) || memcmp(old, text, oldlen) != 0) {
		if (!g_file_set_contents(argv[2], text, -1, &err)) {
			fprintf(stderr, "cugen: error: %s\n", err->message);
			g_error_free(err);
			rc = 1;
		}
	}
	g_free(old);
	g_free(text);
	g_free(from);
	g_free(to);
	g_free(in);
	return rc;
}

/* cugen devrt-hint TARGET -- CMD...: run CMD; if it fails and its
 * messages name the device runtime's symbols, add a hint. */
int cmd_devrt_hint(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[2], "--") != 0) {
		fprintf(stderr, "usage: cugen devrt-hint TARGET -- COMMAND...\n");
		return 2;
	}
	char *err_text = NULL;
	int status = 0;
	GError *e = NULL;
	if (!g_spawn_sync(NULL, argv + 3, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN,
			  NULL, NULL, NULL, &err_text, &status, &e)) {
		fprintf(stderr, "cugen: error: cannot run '%s': %s\n", argv[3], e->message);
		g_error_free(e);
		return 1;
	}
	fputs(err_text, stderr);
	int rc = g_spawn_check_wait_status(status, NULL) ? 0 : 1;
	if (rc && g_regex_match_simple("cudaGetParameterBuffer|cudaLaunchDevice|cudaCDP|cudadevrt|"
				       "cudaStreamTailLaunch|cudaStreamFireAndForget",
				       err_text, 0, 0))
		fprintf(stderr, "cugen: hint: target '%s' uses the CUDA device runtime (dynamic parallelism): "
			"set 'devrt = yes' in [target %s]\n", argv[1], argv[1]);
	g_free(err_text);
	return rc;
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* The watched command's process group, for the signal handler. */
static volatile sig_atomic_t exec_group;

static void forward_signal(int sig)
{
	if (exec_group > 0)
		kill(-(pid_t)exec_group, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* cugen exec LOG TAG -- CMD...: run CMD, then append one line
 * "TAG<TAB>STEP<TAB>MAXRSS_KB<TAB>CPU_S<TAB>WALL_S" to LOG (one write,
 * O_APPEND: concurrent edges do not interleave). The planner learns each
 * edge's peak memory and CPU time from it. The exit status is CMD's; a
 * signal that killed CMD kills us too. */
/* The step runs with address space randomisation off (inherited by what
 * it runs: nvcc's own cicc in the one-nvcc-per-TU fallback). Measured on
 * ggml's CUDA backend: cicc's PTX of one TU numbered its registers one of
 * two ways run after run (6 of 10 runs one way with it on, 10 of 10 the
 * same with it off, and the same in another checkout and build
 * directory): NVVM's choices there follow addresses. Best effort: where a
 * seccomp filter refuses personality(2) the step runs as it is. */
static void same_addresses(void)
{
	int cur = personality(0xffffffff);
	if (cur != -1 && !(cur & ADDR_NO_RANDOMIZE))
		personality((unsigned long)cur | ADDR_NO_RANDOMIZE);
}

int cmd_exec(int argc, char **argv)
{
	if (argc < 5 || strcmp(argv[3], "--") != 0) {
		fprintf(stderr, "usage: cugen exec LOG TAG -- COMMAND...\n");
		return 2;
	}
	/* Under ninja, CMD runs in a process group of its own, which gets
	 * the signals that ours gets (ninja stops a job by signalling its
	 * group), and which is stopped when ninja itself dies (kill -9 of
	 * ninja leaves its jobs running: their late outputs would race the
	 * next build's). */
	pid_t ninja = cg_ninja_ancestor(NULL);
	int nfd = ninja > 0 ? pidfd_of(ninja) : -1;
	sigset_t fwd, old_mask;
	sigemptyset(&fwd);
	if (nfd >= 0) {
		for (guint i = 0; i < G_N_ELEMENTS(forwarded); i++) {
			struct sigaction cur;
			if (sigaction(forwarded[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
				continue; /* ignored here: CMD inherits that */
			sigaddset(&fwd, forwarded[i]);
		}
		sigprocmask(SIG_BLOCK, &fwd, &old_mask);
		struct sigaction sa = { 0 };
		sa.sa_handler = forward_signal;
		sigemptyset(&sa.sa_mask);
		for (guint i = 0; i < G_N_ELEMENTS(forwarded); i++)
			if (sigismember(&fwd, forwarded[i]))
				sigaction(forwarded[i], &sa, NULL);
	}
	gint64 t0 = g_get_monotonic_time();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cugen: error: fork: %s\n", g_strerror(errno));
		return 1;
	}
	if (pid == 0) {
		if (nfd >= 0) {
			setpgid(0, 0);
			sigprocmask(SIG_SETMASK, &old_mask, NULL); /* exec resets the handlers */
		}
		same_addresses();
		execvp(argv[4], argv + 4);
		fprintf(stderr, "cugen: error: cannot run '%s': %s\n", argv[4], g_strerror(errno));
		_exit(127);
	}
	gboolean orphaned = FALSE;
	if (nfd >= 0) {
		setpgid(pid, pid);
		exec_group = pid;
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		int cfd = pidfd_of(pid);
		while (cfd >= 0) {
			struct pollfd fds[2] = { { cfd, POLLIN, 0 }, { nfd, POLLIN, 0 } };
			int n = poll(fds, orphaned ? 1 : 2, orphaned ? 2000 : -1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || fds[0].revents)
				break;
			if (orphaned) { /* 2 s after SIGTERM */
				kill(-pid, SIGKILL);
				break;
			}
			if (fds[1].revents) {
				orphaned = TRUE;
				kill(-pid, SIGTERM);
			}
		}
		if (cfd >= 0)
			close(cfd);
		close(nfd);
	}
	int status = 0;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "cugen: error: wait: %s\n", g_strerror(errno));
			return 1;
		}
	}
	exec_group = 0;
	if (orphaned) /* ninja is gone: no log line, no further steps */
		_exit(128 + SIGTERM);
	double wall = (g_get_monotonic_time() - t0) / 1e6;
	double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		     ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	char *step = g_path_get_basename(argv[4]);
	char *line = g_strdup_printf("%s\t%s\t%ld\t%.3f\t%.3f\n", argv[2], step, ru.ru_maxrss, cpu, wall);
	/* below the build directory, through no planted link */
	int fd = cg_append_beneath(".", argv[1]);
	if (fd >= 0) {
		ssize_t n = write(fd, line, strlen(line));
		(void)n; /* the log is advice: a lost line costs a guess */
		close(fd);
	}
	g_free(line);
	g_free(step);
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* cugen slot DIR N -- CMD...: run CMD holding one of N slots (lock files
 * DIR/0 .. DIR/N-1), so that make -j runs at most N such commands at once,
 * like a ninja pool. */
int cmd_slot(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 0;
	if (argc < 5 || n < 1 || strcmp(argv[3], "--") != 0) {
		fprintf(stderr, "usage: cugen slot DIR N -- COMMAND...\n");
		return 2;
	}
	g_mkdir_with_parents(argv[1], 0777);
	int fd = -1;
	for (guint spins = 0; fd < 0; spins++) {
		for (int i = 0; i < n && fd < 0; i++) {
			char *p = g_strdup_printf("%s/%d", argv[1], i);
			int f = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
			g_free(p);
			if (f < 0) {
				fprintf(stderr, "cugen: error: slot %s/%d: %s\n", argv[1], i, g_strerror(errno));
				return 1;
			}
			if (flock(f, LOCK_EX | LOCK_NB) == 0)
				fd = f;
			else
				close(f);
		}
		if (fd < 0)
			g_usleep(MIN(20000 + spins * 5000, 200000));
	}
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cugen: error: fork: %s\n", g_strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(fd);
		execvp(argv[4], argv + 4);
		fprintf(stderr, "cugen: error: cannot run '%s': %s\n", argv[4], g_strerror(errno));
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(fd);
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
