/* confval.c -- typed values from raw entries (choices, booleans, lists,
 * defines, sizes, counts, nvcc flag sets), each bad word reported at its
 * FILE:LINE. See config_int.h. */
#include "config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <ini.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cudaflags.h"
#include "util.h"

/* ---- typed values ---- */

static gboolean parse_bool(const char *v, gboolean *out)
{
	const char *yes[] = { "yes", "true", "on", "1", NULL };
	const char *no[] = { "no", "false", "off", "0", NULL };
	for (int i = 0; yes[i]; i++)
		if (g_ascii_strcasecmp(v, yes[i]) == 0)
			return *out = TRUE, TRUE;
	for (int i = 0; no[i]; i++)
		if (g_ascii_strcasecmp(v, no[i]) == 0)
			return *out = FALSE, TRUE;
	return FALSE;
}

static gboolean word_edge(char c)
{
	return !c || c == ',' || c == '"' || c == '\'' || g_ascii_isspace(c);
}

Loc config_word_loc(Loc loc, const GArray *lines, const char *value, const char *word, gboolean last)
{
	if (!lines || !value || !word || !*word)
		return loc;
	const gsize n = strlen(word);
	const char *at = NULL;
	for (const char *p = value; (p = strstr(p, word)); p++)
		if ((p == value || word_edge(p[-1])) && word_edge(p[n])) {
			at = p;
			if (!last)
				break;
		}
	if (!at)
		return loc;
	/* the last line starting at or before the word (offsets ascend) */
	guint lo = 0, hi = lines->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		if (g_array_index(lines, ValueLine, mid).off <= (gsize)(at - value))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		loc.line = g_array_index(lines, ValueLine, lo - 1).line;
	return loc;
}

Loc setting_word_loc(const Setting *s, const char *word)
{
	return config_word_loc(s->loc, s->lines, s->value, word, FALSE);
}

static void entry_verror(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt,
			 va_list ap) G_GNUC_PRINTF(5, 0);
static void entry_verror(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt, va_list ap)
{
	char *m = g_strdup_vprintf(fmt, ap);
	Loc at = config_word_loc(e->loc, e->lines, e->value, word, last);
	cg_error_loc(err, at.file, at.line, "%s", m);
	g_free(m);
}

/* Error located at an entry (or the command line). */
void cf_entry_error(GError **err, const Entry *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	entry_verror(err, e, NULL, FALSE, fmt, ap);
	va_end(ap);
}

/* Error about one word of an entry's value: located at the line that
 * word is on (the first time it is written there, or with last the
 * last time). */
void cf_word_error(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	entry_verror(err, e, word, last, fmt, ap);
	va_end(ap);
}

gboolean cf_get_choice(Section *s, const char *key, const char *const *choices,
			   int def, int *out, GError **err)
{
	Entry *e = cf_find_entry(s, key);
	*out = def;
	if (!e)
		return TRUE;
	char *v = g_strstrip(g_strdup(e->value));
	for (int i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0) {
			*out = i;
			g_free(v);
			return TRUE;
		}
	GString *c = g_string_new(NULL);
	for (int i = 0; choices[i]; i++)
		g_string_append_printf(c, "%s%s", i ? ", " : "", choices[i]);
	const char *hint = cg_suggest(v, choices);
	cf_entry_error(err, e, "invalid %s '%s' (expected one of: %s)%s%s%s", key, v, c->str,
		    hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
	g_string_free(c, TRUE);
	g_free(v);
	return FALSE;
}

gboolean cf_get_bool(Section *s, const char *key, gboolean def, gboolean *out, GError **err)
{
	Entry *e = cf_find_entry(s, key);
	*out = def;
	if (!e)
		return TRUE;
	char *v = g_strstrip(g_strdup(e->value));
	gboolean ok = parse_bool(v, out);
	if (!ok)
		cf_entry_error(err, e, "invalid %s '%s' (expected yes or no)", key, v);
	g_free(v);
	return ok;
}

char *cf_get_str(Section *s, const char *key, const char *def)
{
	Entry *e = cf_find_entry(s, key);
	return g_strdup(e ? e->value : def);
}

/* A list value split by split (cg_split_list, cg_split_defines) into
 * out; its error at the entry, after "KEY: " with name_key. */
static gboolean get_split(Section *s, const char *key, GPtrArray *out,
			  gboolean (*split)(const char *, GPtrArray *, GError **), gboolean name_key, GError **err)
{
	Entry *e = cf_find_entry(s, key);
	if (!e)
		return TRUE;
	GError *le = NULL;
	if (!split(e->value, out, &le)) {
		cf_entry_error(err, e, "%s%s%s", name_key ? key : "", name_key ? ": " : "", le->message + strlen("error: "));
		g_error_free(le);
		return FALSE;
	}
	return TRUE;
}

gboolean cf_get_list(Section *s, const char *key, GPtrArray *out, GError **err)
{
	return get_split(s, key, out, cg_split_list, FALSE, err);
}

gboolean cf_get_named_list(Section *s, const char *key, GPtrArray *out, GError **err)
{
	return get_split(s, key, out, cg_split_list, TRUE, err);
}

gboolean cf_get_defines(Section *s, const char *key, GPtrArray *out, GError **err)
{
	return get_split(s, key, out, cg_split_defines, TRUE, err);
}

/* A flag string must split into words (quotes balanced). */
gboolean cf_check_words(Section *s, const char *key, GError **err)
{
	Entry *e = cf_find_entry(s, key);
	if (!e)
		return TRUE;
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = cg_split_words(e->value, w, &le);
	if (!ok) {
		cf_entry_error(err, e, "%s: unbalanced quotes", key);
		g_error_free(le);
	}
	g_ptr_array_free(w, TRUE);
	return ok;
}

/* The user's nvcc flags in s's key (cudaflags.c): the words that choose
 * a setting set it (*std, *mode, *lto, *threads, already defaulted),
 * unless the section sets it otherwise itself; the rest go to *flags. */
gboolean cf_take_cuda_flags(Section *s, const char *key, const char *what, char **flags, char **std,
				CudaMode *mode, gboolean *lto, int *threads, GError **err)
{
	Entry *e = cf_find_entry(s, key);
	if (!e) {
		*flags = g_strdup("");
		return TRUE;
	}
	CudaFlags f;
	const char *bad = NULL;
	char *why = NULL;
	gboolean owned = FALSE;
	gboolean ok = cudaflags_read(e->value, &f, &bad, &why, &owned);
	if (!ok) {
		if (owned)
			cf_word_error(err, e, bad, FALSE, "flag '%s' in %s is set by cugen (%s)", bad, what, why);
		else
			cf_word_error(err, e, bad, FALSE, "flag '%s' in %s: %s", bad, what, why);
		goto out;
	}
	Entry *se = cf_find_entry(s, "std"), *me = cf_find_entry(s, "mode"), *le = cf_find_entry(s, "lto");
	if (f.std && se && strcmp(*std, f.std) != 0) {
		cf_word_error(err, e, f.std_word, FALSE, "flag '%s' in %s disagrees with std = %s (write the standard once, as std)",
			   f.std_word, what, *std);
		ok = FALSE;
	} else if (f.rdc >= 0 && me && (*mode == MODE_RDC) != (f.rdc == 1)) {
		cf_word_error(err, e, f.rdc_word, FALSE, "flag '%s' in %s disagrees with mode = %s (write it once, as mode)",
			   f.rdc_word, what, *mode == MODE_RDC ? "rdc" : "whole");
		ok = FALSE;
	} else if (f.dlto && ((le && !*lto) || (me && *mode != MODE_RDC) || f.rdc == 0)) {
		cf_word_error(err, e, f.dlto_word, FALSE,
			   "flag '%s' in %s needs lto = yes and mode = rdc (write it once, as lto = yes)", f.dlto_word, what);
		ok = FALSE;
	}
	if (!ok)
		goto out;
	if (f.std) {
		g_free(*std);
		*std = g_strdup(f.std);
	}
	if (f.rdc >= 0)
		*mode = f.rdc ? MODE_RDC : MODE_WHOLE;
	if (f.dlto) {
		*lto = TRUE;
		*mode = MODE_RDC; /* (nvcc -dlto -c compiles relocatable code) */
	}
	if (f.threads >= 0)
		*threads = f.threads;
	*flags = g_steal_pointer(&f.rest);
out:
	g_free(why);
	cudaflags_clear(&f);
	return ok;
}

Loc cf_entry_loc(Section *s, const char *key)
{
	Entry *e = cf_find_entry(s, key);
	return e ? e->loc : (Loc){ NULL, 0 };
}

void cf_setting_clear(Setting *st)
{
	g_free(st->value);
	if (st->lines)
		g_array_unref(st->lines);
	memset(st, 0, sizeof *st);
}

gboolean cf_set_setting(Setting *st, Section *s, const char *key, const Setting *def)
{
	Entry *e = cf_find_entry(s, key);
	if (e) {
		st->value = g_strdup(e->value);
		st->loc = e->loc;
		st->lines = e->lines ? g_array_ref(e->lines) : NULL;
	} else {
		st->value = g_strdup(def->value);
		st->loc = def->loc;
		st->lines = def->lines ? g_array_ref(def->lines) : NULL;
	}
	return TRUE;
}

/* Size like 7G, 512M, 1.5G, 2GiB, 2048 (bytes), or "auto". */
gboolean cf_valid_size(const char *v)
{
	if (strcmp(v, "auto") == 0)
		return TRUE;
	const char *p = v;
	gboolean digits = FALSE, nonzero = FALSE;
	while (g_ascii_isdigit(*p)) {
		digits = TRUE;
		nonzero |= *p != '0';
		p++;
	}
	if (*p == '.') {
		p++;
		while (g_ascii_isdigit(*p)) {
			digits = TRUE;
			nonzero |= *p != '0';
			p++;
		}
	}
	if (!digits || !nonzero || p - v > 12)
		return FALSE;
	if (*p && strchr("kKmMgGtT", *p)) {
		p++;
		if (*p == 'i')
			p++;
	}
	if (*p == 'B' || *p == 'b')
		p++;
	return *p == '\0';
}

gboolean cf_valid_count(const char *v, gboolean zero_ok)
{
	if (strcmp(v, "auto") == 0)
		return TRUE;
	if (!*v)
		return FALSE;
	for (const char *p = v; *p; p++)
		if (!g_ascii_isdigit(*p))
			return FALSE;
	if (strlen(v) > 6)
		return FALSE;
	return zero_ok || atoi(v) > 0;
}

