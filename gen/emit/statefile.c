/* statefile.c -- sealed state files; see statefile.h. */
#include "statefile.h"

#include <string.h>

#include "safepath.h"
#include "util.h"

#define SEAL_PREFIX "# cugen STATE "
#define STATE_MAX ((gsize)256 << 20)

GString *state_seal(const char *kind, GString *body)
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(ck, (const guchar *)body->str, (gssize)body->len);
	body = state_seal_summed(kind, body, ck);
	g_checksum_free(ck);
	return body;
}

GString *state_seal_summed(const char *kind, GString *body, GChecksum *sum)
{
	char *h = g_strdup(g_checksum_get_string(sum));
	char *line = g_strdup_printf(SEAL_PREFIX "%s 1 sha256=%s\n", kind, h);
	g_string_prepend(body, line);
	g_free(line);
	g_free(h);
	return body;
}

char *state_read(const char *path, const char *kind, gsize *len)
{
	gsize n = 0;
	char *text = cg_read_regular(path, STATE_MAX, FALSE, &n, NULL);
	if (!text)
		return NULL;
	char *want = g_strdup_printf(SEAL_PREFIX "%s 1 sha256=", kind);
	gsize wl = strlen(want);
	gboolean sealed = n >= strlen(SEAL_PREFIX) && memcmp(text, SEAL_PREFIX, strlen(SEAL_PREFIX)) == 0;
	const char *nl = memchr(text, '\n', n);
	gboolean ok = sealed && nl && (gsize)(nl - text) == wl + 64 && memcmp(text, want, wl) == 0;
	if (ok) {
		const char *body = nl + 1;
		gsize bl = n - (gsize)(body - text);
		char *h = cg_hash_hex(body, bl);
		ok = memcmp(h, text + wl, 64) == 0 && strlen(body) == bl; /* no NUL inside */
		g_free(h);
		if (ok) {
			memmove(text, body, bl + 1);
			if (len)
				*len = bl;
		}
	}
	if (!ok && sealed)
		cg_warn("%s is damaged (its checksum does not match): ignored, made again", path);
	g_free(want);
	if (!ok) {
		g_free(text);
		return NULL;
	}
	return text;
}

gboolean state_load_keyfile(GKeyFile *k, const char *path, const char *kind)
{
	gsize len = 0;
	char *body = state_read(path, kind, &len);
	gboolean ok = body && g_key_file_load_from_data(k, body, len, G_KEY_FILE_NONE, NULL);
	g_free(body);
	return ok;
}
