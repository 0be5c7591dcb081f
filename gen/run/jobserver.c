/* jobserver.c -- a client of GNU make's jobserver (MAKEFLAGS'
 * --jobserver-auth=R,W, --jobserver-fds=R,W or fifo:PATH, as make and
 * ninja 1.13 pass it): the slots a `cugen nvcc` may use beside the one
 * its caller gave it, taken without waiting and given back once done.
 *
 * Owns: reading MAKEFLAGS, taking and returning tokens.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jobserver.h"

/* The last --jobserver-auth= (or --jobserver-fds=) word of MAKEFLAGS. */
static char *auth_of(const char *makeflags)
{
	char *found = NULL;
	char **w = g_strsplit_set(makeflags, " \t", -1);
	for (guint i = 0; w[i]; i++) {
		const char *v = NULL;
		if (g_str_has_prefix(w[i], "--jobserver-auth="))
			v = w[i] + strlen("--jobserver-auth=");
		else if (g_str_has_prefix(w[i], "--jobserver-fds="))
			v = w[i] + strlen("--jobserver-fds=");
		if (v && *v) {
			g_free(found);
			found = g_strdup(v);
		}
	}
	g_strfreev(w);
	return found;
}

gboolean jobserver_present(void)
{
	const char *mf = g_getenv("MAKEFLAGS");
	char *a = mf ? auth_of(mf) : NULL;
	gboolean yes = a != NULL;
	g_free(a);
	return yes;
}

void jobserver_take(Jobserver *js, guint want)
{
	memset(js, 0, sizeof *js);
	js->rfd = js->wfd = -1;
	const char *mf = g_getenv("MAKEFLAGS");
	char *a = mf ? auth_of(mf) : NULL;
	if (!a)
		return;
	js->present = TRUE;
	if (g_str_has_prefix(a, "fifo:")) {
		/* our own open of the fifo: O_NONBLOCK is ours alone */
		js->rfd = open(a + 5, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		js->wfd = js->rfd >= 0 ? dup(js->rfd) : -1;
	} else {
		int r = -1, w = -1;
		if (sscanf(a, "%d,%d", &r, &w) == 2 && r >= 0 && w >= 0 && fcntl(r, F_GETFD) >= 0 &&
		    fcntl(w, F_GETFD) >= 0) {
			/* the pipe reopened (a description of our own, so that
			 * O_NONBLOCK does not reach make's reads) */
			char *p = g_strdup_printf("/proc/self/fd/%d", r);
			js->rfd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			g_free(p);
			js->wfd = dup(w);
		}
	}
	g_free(a);
	if (js->rfd < 0 || js->wfd < 0) {
		/* make said there is one, but we cannot reach it ('+' missing
		 * on the rule): the one slot we were given */
		if (js->rfd >= 0)
			close(js->rfd);
		if (js->wfd >= 0)
			close(js->wfd);
		js->rfd = js->wfd = -1;
		return;
	}
	js->tokens = g_byte_array_new();
	while (js->tokens->len + 1 < want) {
		guint8 c;
		ssize_t n = read(js->rfd, &c, 1);
		if (n == 1)
			g_byte_array_append(js->tokens, &c, 1);
		else if (n < 0 && errno == EINTR)
			continue;
		else
			break; /* none free now (EAGAIN), or make went away */
	}
}

guint jobserver_slots(const Jobserver *js)
{
	return 1 + (js->tokens ? js->tokens->len : 0);
}

void jobserver_give_back(Jobserver *js)
{
	for (guint i = 0; js->tokens && i < js->tokens->len;) {
		ssize_t n = write(js->wfd, js->tokens->data + i, 1);
		if (n == 1)
			i++;
		else if (n < 0 && errno != EINTR && errno != EAGAIN)
			break;
	}
	if (js->tokens)
		g_byte_array_unref(js->tokens);
	js->tokens = NULL;
	if (js->rfd >= 0)
		close(js->rfd);
	if (js->wfd >= 0)
		close(js->wfd);
	js->rfd = js->wfd = -1;
}
