/* config.c -- cugen.ini to a validated Config; see config.h.
 *
 * Three layers: (1) raw sections and entries with their line numbers, read
 * by inih through a line-counting reader that also strips inline comments;
 * (2) the chosen [profile] and the -D overrides applied to the raw entries;
 * (3) validation into typed values. Every user mistake becomes one
 * "FILE:LINE: error: ..." message.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <ini.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "runner.h"
#include "cudaflags.h"
#include "util.h"

#define MAX_LINE (64 * 1024)

/* ---- known sections and keys ---- */

static const char *const project_keys[] = { "name", "version", "gate", NULL };
static const char *const gate_values[] = { "auto", "yes", "no", NULL };
static const char *const cuda_keys[] = {
	"archs", "ptx", "mode", "lto", "std", "flags", "host_flags",
	"module_id", "cudart", "reproducible", NULL
};
static const char *const toolchain_keys[] = {
	"cuda", "cc", "cxx", "ccbin", "ar", "objcopy", "launcher", "cache",
	"target", "cflags", "cxxflags", "ldflags", NULL
};
static const char *const target_keys[] = {
	"type", "sources", "include", "private_include", "defines", "public_defines",
	"libs", "private_libs", "deps", "cuda_flags", "data",
	"archs", "ptx", "mode", "lto", "host_flags", "cflags", "cxxflags",
	"ldflags", "devrt", "pic", NULL
};
static const char *const profile_own_keys[] = {
	"jobs", "memory", "job_memory", "archs", "split", "threads",
	"split_compile", "runner", "time_limit", NULL
};
static const char *const section_names[] = {
	"project", "cuda", "toolchain", "target", "profile", NULL
};

typedef enum { SEC_PROJECT, SEC_CUDA, SEC_TOOLCHAIN, SEC_TARGET, SEC_PROFILE } SecKind;

typedef struct {
	char *key;
	char *value;
	Loc loc;
	GArray *lines; /* ValueLine: its continuation lines, or NULL */
	gsize len, cap; /* value's length and allocation while lines join */
} Entry;

typedef struct {
	SecKind kind;
	char *name;       /* target/profile name, else NULL */
	Loc loc;
	GPtrArray *entries; /* Entry* */
} Section;

typedef struct {
	const char *file;       /* interned path for messages */
	const char *data;
	gsize len, pos;
	int line;               /* number of the line last handed to inih */
	gboolean continuation;  /* that line continues the previous value */
	gboolean had_entry;     /* an entry was seen in the current section */
	GPtrArray *sections;    /* Section* */
	GError *error;          /* first error */
	GPtrArray *lines;       /* char*: the raw lines (for inih's errors) */
	GHashTable *seen;       /* "KIND NAME" -> its Section (duplicates) */
} Reader;

static void entry_free(gpointer p)
{
	Entry *e = p;
	g_free(e->key);
	g_free(e->value);
	if (e->lines)
		g_array_unref(e->lines);
	g_free(e);
}

static void section_free(gpointer p)
{
	Section *s = p;
	g_free(s->name);
	g_ptr_array_free(s->entries, TRUE);
	g_free(s);
}

static const char *const *keys_for(SecKind k)
{
	switch (k) {
	case SEC_PROJECT: return project_keys;
	case SEC_CUDA: return cuda_keys;
	case SEC_TOOLCHAIN: return toolchain_keys;
	case SEC_TARGET: return target_keys;
	case SEC_PROFILE: return profile_own_keys;
	}
	return NULL;
}

static gboolean in_list(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(w, *list) == 0)
			return TRUE;
	return FALSE;
}

static void reader_fail(Reader *r, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void reader_fail(Reader *r, int line, const char *fmt, ...)
{
	if (r->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	cg_error_at(&r->error, r->file, line, "%s", m);
	g_free(m);
}

static gboolean valid_name(const char *s)
{
	if (!*s)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_.+-", *p))
			return FALSE;
	return TRUE;
}

/* A "[...]" line: open a new section. */
static void section_line(Reader *r, const char *text)
{
	const char *end = strchr(text, ']');
	if (!end) {
		reader_fail(r, r->line, "unterminated section header (missing ']')");
		return;
	}
	for (const char *p = end + 1; *p; p++)
		if (!g_ascii_isspace(*p)) {
			reader_fail(r, r->line, "unexpected text after ']' in section header");
			return;
		}
	char *inner = g_strstrip(g_strndup(text + 1, end - text - 1));
	char **w = g_strsplit_set(inner, " \t", -1);
	GPtrArray *words = g_ptr_array_new();
	for (char **p = w; *p; p++)
		if (**p)
			g_ptr_array_add(words, *p);
	Section *s = g_new0(Section, 1);
	s->loc = (Loc){ r->file, r->line };
	s->entries = g_ptr_array_new_with_free_func(entry_free);
	const char *kind = words->len ? g_ptr_array_index(words, 0) : "";
	gboolean ok = TRUE;
	if (strcmp(kind, "project") == 0) s->kind = SEC_PROJECT;
	else if (strcmp(kind, "cuda") == 0) s->kind = SEC_CUDA;
	else if (strcmp(kind, "toolchain") == 0) s->kind = SEC_TOOLCHAIN;
	else if (strcmp(kind, "target") == 0) s->kind = SEC_TARGET;
	else if (strcmp(kind, "profile") == 0) s->kind = SEC_PROFILE;
	else {
		const char *hint = cg_suggest(kind, section_names);
		if (hint)
			reader_fail(r, r->line, "unknown section [%s]; did you mean [%s]?", inner, hint);
		else
			reader_fail(r, r->line, "unknown section [%s] (known: project, cuda, toolchain, target NAME, profile NAME)", inner);
		ok = FALSE;
	}
	if (ok) {
		gboolean named = s->kind == SEC_TARGET || s->kind == SEC_PROFILE;
		if (named && words->len != 2) {
			reader_fail(r, r->line, "section [%s] needs exactly one name: [%s NAME]", inner, kind);
			ok = FALSE;
		} else if (!named && words->len != 1) {
			reader_fail(r, r->line, "section [%s] takes no name", kind);
			ok = FALSE;
		} else if (named) {
			s->name = g_strdup(g_ptr_array_index(words, 1));
			if (strcmp(s->name, ".") == 0 || strcmp(s->name, "..") == 0) {
				reader_fail(r, r->line, "invalid %s name '%s' (it must not be '.' or '..')", kind, s->name);
				ok = FALSE;
			} else if (!valid_name(s->name)) {
				reader_fail(r, r->line, "invalid %s name '%s' (use letters, digits, '_', '.', '+', '-')", kind, s->name);
				ok = FALSE;
			}
		}
	}
	if (ok) {
		/* Duplicate sections are mistakes. */
		char *key = g_strdup_printf("%d %s", s->kind, s->name ? s->name : "");
		Section *o = g_hash_table_lookup(r->seen, key);
		if (o) {
			reader_fail(r, r->line, "duplicate section [%s] (first at line %d)", inner, o->loc.line);
			ok = FALSE;
			g_free(key);
		} else {
			g_hash_table_insert(r->seen, key, s);
		}
	}
	if (ok)
		g_ptr_array_add(r->sections, s);
	else
		section_free(s);
	r->had_entry = FALSE;
	g_ptr_array_free(words, TRUE);
	g_strfreev(w);
	g_free(inner);
}

/* Cut an inline comment: ';' or '#' after whitespace, outside "quotes". */
static void strip_inline_comment(char *s)
{
	gboolean quoted = FALSE;
	for (char *p = s; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && (*p == ';' || *p == '#') &&
			 (p == s || g_ascii_isspace(p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

/* The first control character other than tab in s, or NULL. */
static const char *first_control(const char *s)
{
	for (; *s; s++)
		if ((guchar)*s < 0x20 && *s != '\t')
			return s;
	return NULL;
}

/* inih's reader: hands over one line at a time, so we know its number. */
static char *read_line(char *buf, int size, void *stream)
{
	Reader *r = stream;
	if (r->pos >= r->len)
		return NULL;
	const char *start = r->data + r->pos;
	const char *nl = memchr(start, '\n', r->len - r->pos);
	gsize n = nl ? (gsize)(nl - start) : r->len - r->pos;
	r->pos += n + (nl ? 1 : 0);
	r->line++;
	char *text = g_strndup(start, n);
	g_ptr_array_add(r->lines, g_strdup(text));
	if (n && text[n - 1] == '\r')
		text[n - 1] = '\0';
	if (strlen(text) != n - (n && start[n - 1] == '\r')) {
		reader_fail(r, r->line, "NUL byte in line");
		text[0] = '\0';
	}
	const char *ctl = first_control(text);
	if (ctl) {
		/* an escape in a message, or 0x1d (the command templates'
		 * placeholder mark) in a flag, would do harm downstream */
		reader_fail(r, r->line, "control character 0x%02x in line (only tab is allowed)", (guchar)*ctl);
		text[0] = '\0';
	}
	if (n + 2 >= (gsize)size || n >= MAX_LINE) {
		reader_fail(r, r->line, "line too long (%" G_GSIZE_FORMAT " bytes; at most %d)", n, MAX_LINE);
		text[0] = '\0';
	}
	const char *t = text;
	while (*t == ' ' || *t == '\t')
		t++;
	gboolean comment = *t == ';' || *t == '#';
	if (comment || !*t) {
		text[0] = '\0';
		r->continuation = FALSE;
	} else if (*t == '[') {
		if (t != text && r->had_entry) {
			r->continuation = TRUE;
		} else {
			section_line(r, t);
			r->continuation = FALSE;
			/* inih still sees the header to track its own section. */
		}
	} else {
		r->continuation = t != text && r->had_entry;
		strip_inline_comment(text);
	}
	g_strlcpy(buf, text, size);
	g_strlcat(buf, "\n", size);
	g_free(text);
	return buf;
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	Reader *r = user;
	if (r->error)
		return 1;
	if (r->sections->len == 0) {
		reader_fail(r, r->line, "'%s' before any section (start with [project])", name);
		return 1;
	}
	Section *s = g_ptr_array_index(r->sections, r->sections->len - 1);
	if (r->continuation) {
		Entry *e = g_ptr_array_index(s->entries, s->entries->len - 1);
		/* "  std = c++17" under "archs = 80": a key indented by mistake */
		const char *eq = strchr(value, '=');
		if (eq) {
			char *k = g_strstrip(g_strndup(value, eq - value));
			gboolean key = in_list(k, keys_for(s->kind));
			if (key)
				reader_fail(r, r->line, "indented line continues '%s' from line %d but looks like the key '%s'; "
					    "remove the indentation to start a new key", e->key, e->loc.line, k);
			g_free(k);
			if (key)
				return 1;
		}
		/* joined in place, the allocation doubling: linear in lines */
		if (!e->cap)
			e->len = strlen(e->value), e->cap = e->len + 1;
		gsize add = strlen(value);
		ValueLine l = { e->len + 1, r->line };
		if (!e->lines)
			e->lines = g_array_new(FALSE, FALSE, sizeof(ValueLine));
		g_array_append_val(e->lines, l);
		if (e->len + add + 2 > e->cap) {
			e->cap = MAX(e->cap * 2, e->len + add + 2);
			e->value = g_realloc(e->value, e->cap);
		}
		e->value[e->len] = ' ';
		memcpy(e->value + e->len + 1, value, add + 1);
		e->len += add + 1;
		return 1;
	}
	if (!*name) {
		reader_fail(r, r->line, "missing key name before '='");
		return 1;
	}
	const char *const *keys = keys_for(s->kind);
	gboolean known = in_list(name, keys);
	if (!known && s->kind == SEC_PROFILE)
		known = in_list(name, cuda_keys) || in_list(name, toolchain_keys);
	if (!known) {
		const char *hint = cg_suggest(name, keys);
		if (!hint && s->kind == SEC_PROFILE)
			hint = cg_suggest(name, cuda_keys);
		if (!hint && s->kind == SEC_PROFILE)
			hint = cg_suggest(name, toolchain_keys);
		const char *sec = section_names[s->kind];
		if (hint)
			reader_fail(r, r->line, "unknown key '%s' in [%s%s%s]; did you mean '%s'?",
				    name, sec, s->name ? " " : "", s->name ? s->name : "", hint);
		else
			reader_fail(r, r->line, "unknown key '%s' in [%s%s%s]", name,
				    sec, s->name ? " " : "", s->name ? s->name : "");
		return 1;
	}
	for (guint i = 0; i < s->entries->len; i++) {
		Entry *o = g_ptr_array_index(s->entries, i);
		if (strcmp(o->key, name) == 0) {
			reader_fail(r, r->line, "duplicate key '%s' (first at line %d)", name, o->loc.line);
			return 1;
		}
	}
	Entry *e = g_new0(Entry, 1);
	e->key = g_strdup(name);
	e->value = g_strdup(value);
	e->loc = (Loc){ r->file, r->line };
	g_ptr_array_add(s->entries, e);
	r->had_entry = TRUE;
	(void)section;
	return 1;
}

/* Why inih rejected a line. */
static void explain_line(Reader *r, int line)
{
	const char *raw = (line >= 1 && (guint)line <= r->lines->len)
		? g_ptr_array_index(r->lines, line - 1) : "";
	while (*raw == ' ' || *raw == '\t')
		raw++;
	if (*raw == '[')
		reader_fail(r, line, "malformed section header");
	else
		reader_fail(r, line, "expected 'key = value'");
}

static GPtrArray *read_ini(const char *path, const char *shown, GError **err)
{
	/* Opened without blocking and checked before reading: a FIFO would
	 * wait for a writer forever, /dev/zero never end. */
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &sb) != 0) {
		cg_error(err, "cannot read '%s': %s", shown, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		if (S_ISDIR(sb.st_mode))
			cg_error(err, "'%s' is a directory, not an INI file", shown);
		else
			cg_error(err, "'%s' is not a regular file", shown);
		close(fd);
		return NULL;
	}
	GString *buf = g_string_sized_new(sb.st_size + 1);
	char chunk[65536];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cg_error(err, "cannot read '%s': %s", shown, g_strerror(errno));
			g_string_free(buf, TRUE);
			close(fd);
			return NULL;
		}
		g_string_append_len(buf, chunk, n);
	}
	close(fd);
	/* a UTF-8 byte-order mark (editors on Windows write one) is no text */
	if (buf->len >= 3 && memcmp(buf->str, "\xef\xbb\xbf", 3) == 0)
		g_string_erase(buf, 0, 3);
	gsize len = buf->len;
	char *data = g_string_free(buf, FALSE);
	Reader r = { 0 };
	r.file = g_intern_string(shown);
	r.data = data;
	r.len = len;
	r.sections = g_ptr_array_new_with_free_func(section_free);
	r.lines = g_ptr_array_new_with_free_func(g_free);
	r.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	/* Bytes that are not UTF-8: name the line. */
	const char *bad = NULL;
	if (!g_utf8_validate(data, len, &bad) && bad && *bad) {
		int line = 1;
		for (const char *p = data; p < bad; p++)
			line += *p == '\n';
		cg_error_at(err, r.file, line, "invalid UTF-8 byte 0x%02x", (guchar)*bad);
		goto fail;
	}
	ini_max_line = MAX_LINE + 4;
	ini_allow_inline_comments = 0;
	ini_allow_multiline = 1;
	int rc = ini_parse_stream(read_line, &r, on_entry, &r);
	if (rc > 0 && !r.error)
		explain_line(&r, rc);
	else if (rc < 0 && !r.error)
		cg_error(&r.error, "cannot parse '%s'", shown);
	if (r.error) {
		g_propagate_error(err, r.error);
		goto fail;
	}
	g_ptr_array_free(r.lines, TRUE);
	g_hash_table_destroy(r.seen);
	g_free(data);
	return r.sections;
fail:
	g_ptr_array_free(r.lines, TRUE);
	g_hash_table_destroy(r.seen);
	g_ptr_array_free(r.sections, TRUE);
	g_free(data);
	return NULL;
}

/* ---- lookups on the raw model ---- */

static Section *find_section(GPtrArray *secs, SecKind k, const char *name)
{
	for (guint i = 0; i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind == k && g_strcmp0(s->name, name) == 0)
			return s;
	}
	return NULL;
}

static Entry *find_entry(Section *s, const char *key)
{
	if (!s)
		return NULL;
	for (guint i = 0; i < s->entries->len; i++) {
		Entry *e = g_ptr_array_index(s->entries, i);
		if (strcmp(e->key, key) == 0)
			return e;
	}
	return NULL;
}

static void set_entry(Section *s, const char *key, const char *value, Loc loc)
{
	Entry *e = find_entry(s, key);
	if (!e) {
		e = g_new0(Entry, 1);
		e->key = g_strdup(key);
		g_ptr_array_add(s->entries, e);
	}
	g_free(e->value);
	e->value = g_strdup(value);
	e->loc = loc;
	if (e->lines)
		g_array_unref(e->lines);
	e->lines = NULL;
}

static Section *ensure_section(GPtrArray *secs, SecKind k, const char *name, Loc loc)
{
	Section *s = find_section(secs, k, name);
	if (!s) {
		s = g_new0(Section, 1);
		s->kind = k;
		s->name = g_strdup(name);
		s->loc = loc;
		s->entries = g_ptr_array_new_with_free_func(entry_free);
		g_ptr_array_add(secs, s);
	}
	return s;
}

/* ---- -D SECTION.KEY=VALUE ---- */

static gboolean apply_define(GPtrArray *secs, const char *def, GError **err)
{
	const char *eq = strchr(def, '=');
	if (!eq) {
		cg_usage_error(err, "-D %s: expected SECTION.KEY=VALUE", def);
		return FALSE;
	}
	const char *ctl = first_control(def);
	if (ctl) {
		cg_error(err, "-D %s: control character 0x%02x in the value", def, (guchar)*ctl);
		return FALSE;
	}
	char *lhs = g_strndup(def, eq - def);
	const char *value = eq + 1;
	char **parts = g_strsplit(lhs, ".", 3);
	guint n = g_strv_length(parts);
	gboolean ok = FALSE;
	char *where = g_strconcat("-D ", def, NULL);
	Loc loc = { g_intern_string(where), 0 };
	g_free(where);
	const char *sec = parts[0] ? parts[0] : "";
	if ((strcmp(sec, "target") == 0 || strcmp(sec, "profile") == 0) && n == 3) {
		SecKind k = sec[0] == 't' ? SEC_TARGET : SEC_PROFILE;
		const char *const *keys = keys_for(k);
		gboolean known = in_list(parts[2], keys) ||
			(k == SEC_PROFILE && (in_list(parts[2], cuda_keys) || in_list(parts[2], toolchain_keys)));
		Section *s = find_section(secs, k, parts[1]);
		if (!known) {
			const char *hint = cg_suggest(parts[2], keys);
			cg_usage_error(err, "-D %s: unknown key '%s' in [%s]%s%s%s", def, parts[2], sec,
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		} else if (!s && k == SEC_TARGET) {
			GPtrArray *names = g_ptr_array_new();
			for (guint i = 0; i < secs->len; i++) {
				Section *x = g_ptr_array_index(secs, i);
				if (x->kind == SEC_TARGET)
					g_ptr_array_add(names, x->name);
			}
			g_ptr_array_add(names, NULL);
			const char *hint = cg_suggest(parts[1], (const char *const *)names->pdata);
			cg_usage_error(err, "-D %s: no target '%s' in the project%s%s%s", def, parts[1],
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
			g_ptr_array_free(names, TRUE);
		} else {
			if (!s)
				s = ensure_section(secs, k, parts[1], loc);
			set_entry(s, parts[2], value, loc);
			ok = TRUE;
		}
	} else if (n == 2 && (strcmp(sec, "project") == 0 || strcmp(sec, "cuda") == 0 ||
			      strcmp(sec, "toolchain") == 0)) {
		SecKind k = sec[0] == 'p' ? SEC_PROJECT : sec[0] == 'c' ? SEC_CUDA : SEC_TOOLCHAIN;
		const char *const *keys = keys_for(k);
		if (!in_list(parts[1], keys)) {
			const char *hint = cg_suggest(parts[1], keys);
			cg_usage_error(err, "-D %s: unknown key '%s' in [%s]%s%s%s", def, parts[1], sec,
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		} else {
			set_entry(ensure_section(secs, k, NULL, loc), parts[1], value, loc);
			ok = TRUE;
		}
	} else if (!in_list(sec, section_names)) {
		const char *hint = cg_suggest(sec, section_names);
		cg_usage_error(err, "-D %s: unknown section '%s'%s%s%s", def, sec,
			       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
	} else {
		cg_usage_error(err, "-D %s: expected project.KEY, cuda.KEY, toolchain.KEY, target.NAME.KEY or profile.NAME.KEY", def);
	}
	g_strfreev(parts);
	g_free(lhs);
	return ok;
}

/* An entry set by -D: its location names the whole argument. */
static gboolean from_cmdline(Loc loc)
{
	return loc.line == 0 && loc.file && g_str_has_prefix(loc.file, "-D ");
}

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
static void entry_error(GError **err, const Entry *e, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void entry_error(GError **err, const Entry *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	entry_verror(err, e, NULL, FALSE, fmt, ap);
	va_end(ap);
}

/* Error about one word of an entry's value: located at the line that
 * word is on (the first time it is written there, or with last the
 * last time). */
static void word_error(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);
static void word_error(GError **err, const Entry *e, const char *word, gboolean last, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	entry_verror(err, e, word, last, fmt, ap);
	va_end(ap);
}

static gboolean get_choice(Section *s, const char *key, const char *const *choices,
			   int def, int *out, GError **err)
{
	Entry *e = find_entry(s, key);
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
	entry_error(err, e, "invalid %s '%s' (expected one of: %s)%s%s%s", key, v, c->str,
		    hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
	g_string_free(c, TRUE);
	g_free(v);
	return FALSE;
}

static gboolean get_bool(Section *s, const char *key, gboolean def, gboolean *out, GError **err)
{
	Entry *e = find_entry(s, key);
	*out = def;
	if (!e)
		return TRUE;
	char *v = g_strstrip(g_strdup(e->value));
	gboolean ok = parse_bool(v, out);
	if (!ok)
		entry_error(err, e, "invalid %s '%s' (expected yes or no)", key, v);
	g_free(v);
	return ok;
}

static char *get_str(Section *s, const char *key, const char *def)
{
	Entry *e = find_entry(s, key);
	return g_strdup(e ? e->value : def);
}

/* A list value split by split (cg_split_list, cg_split_defines) into
 * out; its error at the entry, after "KEY: " with name_key. */
static gboolean get_split(Section *s, const char *key, GPtrArray *out,
			  gboolean (*split)(const char *, GPtrArray *, GError **), gboolean name_key, GError **err)
{
	Entry *e = find_entry(s, key);
	if (!e)
		return TRUE;
	GError *le = NULL;
	if (!split(e->value, out, &le)) {
		entry_error(err, e, "%s%s%s", name_key ? key : "", name_key ? ": " : "", le->message + strlen("error: "));
		g_error_free(le);
		return FALSE;
	}
	return TRUE;
}

static gboolean get_list(Section *s, const char *key, GPtrArray *out, GError **err)
{
	return get_split(s, key, out, cg_split_list, FALSE, err);
}

static gboolean get_defines(Section *s, const char *key, GPtrArray *out, GError **err)
{
	return get_split(s, key, out, cg_split_defines, TRUE, err);
}

/* A flag string must split into words (quotes balanced). */
static gboolean check_words(Section *s, const char *key, GError **err)
{
	Entry *e = find_entry(s, key);
	if (!e)
		return TRUE;
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = cg_split_words(e->value, w, &le);
	if (!ok) {
		entry_error(err, e, "%s: unbalanced quotes", key);
		g_error_free(le);
	}
	g_ptr_array_free(w, TRUE);
	return ok;
}

/* The user's nvcc flags in s's key (cudaflags.c): the words that choose
 * a setting set it (*std, *mode, *lto, *threads, already defaulted),
 * unless the section sets it otherwise itself; the rest go to *flags. */
static gboolean take_cuda_flags(Section *s, const char *key, const char *what, char **flags, char **std,
				CudaMode *mode, gboolean *lto, int *threads, GError **err)
{
	Entry *e = find_entry(s, key);
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
			word_error(err, e, bad, FALSE, "flag '%s' in %s is set by cugen (%s)", bad, what, why);
		else
			word_error(err, e, bad, FALSE, "flag '%s' in %s: %s", bad, what, why);
		goto out;
	}
	Entry *se = find_entry(s, "std"), *me = find_entry(s, "mode"), *le = find_entry(s, "lto");
	if (f.std && se && strcmp(*std, f.std) != 0) {
		word_error(err, e, f.std_word, FALSE, "flag '%s' in %s disagrees with std = %s (write the standard once, as std)",
			   f.std_word, what, *std);
		ok = FALSE;
	} else if (f.rdc >= 0 && me && (*mode == MODE_RDC) != (f.rdc == 1)) {
		word_error(err, e, f.rdc_word, FALSE, "flag '%s' in %s disagrees with mode = %s (write it once, as mode)",
			   f.rdc_word, what, *mode == MODE_RDC ? "rdc" : "whole");
		ok = FALSE;
	} else if (f.dlto && ((le && !*lto) || (me && *mode != MODE_RDC) || f.rdc == 0)) {
		word_error(err, e, f.dlto_word, FALSE,
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

static Loc entry_loc(Section *s, const char *key)
{
	Entry *e = find_entry(s, key);
	return e ? e->loc : (Loc){ NULL, 0 };
}

static void setting_clear(Setting *st)
{
	g_free(st->value);
	if (st->lines)
		g_array_unref(st->lines);
	memset(st, 0, sizeof *st);
}

static gboolean set_setting(Setting *st, Section *s, const char *key, const Setting *def)
{
	Entry *e = find_entry(s, key);
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
static gboolean valid_size(const char *v)
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

static gboolean valid_count(const char *v, gboolean zero_ok)
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

static const char *const std_values[] = { "c++11", "c++14", "c++17", "c++20", "c++23", NULL };
static const char *const mode_values[] = { "whole", "rdc", NULL };
static const char *const split_values[] = { "auto", "arch", "tu", NULL };
static const char *const type_values[] = { "executable", "static", "shared", "object", NULL };
static const char *const modid_values[] = { "relative", "absolute", NULL };
static const char *const cudart_values[] = { "static", "shared", "none", NULL };

static gboolean lang_of(const char *path, Lang *l)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return FALSE;
	if (strcmp(dot, ".cu") == 0) *l = LANG_CUDA;
	else if (strcmp(dot, ".c") == 0) *l = LANG_C;
	else if (strcmp(dot, ".cpp") == 0 || strcmp(dot, ".cc") == 0 ||
		 strcmp(dot, ".cxx") == 0 || strcmp(dot, ".C") == 0) *l = LANG_CXX;
	else
		return FALSE;
	return TRUE;
}

const char *lang_name(Lang l)
{
	return l == LANG_CUDA ? "cuda" : l == LANG_C ? "c" : "c++";
}

const char *target_type_name(TargetType t)
{
	return type_values[t];
}

static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static gboolean has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static gboolean path_is_dir(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static gboolean path_is_file(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static void source_free(gpointer p)
{
	Source *s = p;
	g_free(s->rel);
	g_free(s->abs);
	g_free(s->real);
	g_free(s);
}

/* The regular files glob w (relative to the project directory, whose
 * own name is taken literally) matches, sorted and normalised, appended
 * to files; its directory is watched: the graph regenerates when a file
 * appears there. Wildcards are taken in the last component only (the
 * watched directory must be one directory). */
static gboolean glob_files(Config *c, Entry *e, const char *w, GPtrArray *files, GError **err)
{
	char *wdir = g_path_get_dirname(w);
	gboolean deep = has_glob_chars(wdir) || strstr(w, "**");
	g_free(wdir);
	if (deep) {
		word_error(err, e, w, FALSE, "glob '%s': wildcards are taken in the file name only, not in "
			   "directories nor as '**' (write one glob per directory, e.g. 'src/a/*.cu src/b/*.cu')", w);
		return FALSE;
	}
	GString *pat = g_string_new(NULL);
	for (const char *p = c->srcdir; *p; p++) {
		if (strchr("*?[]\\", *p))
			g_string_append_c(pat, '\\');
		g_string_append_c(pat, *p);
	}
	g_string_append_c(pat, '/');
	g_string_append(pat, w);
	glob_t g;
	if (glob(pat->str, GLOB_NOSORT, NULL, &g) == 0) {
		for (size_t k = 0; k < g.gl_pathc; k++)
			if (path_is_file(g.gl_pathv[k]))
				g_ptr_array_add(files, cg_path_norm(g.gl_pathv[k]));
		globfree(&g);
	}
	g_string_free(pat, TRUE);
	g_ptr_array_sort(files, cmp_strp);
	char *abs = cg_path_join(c->srcdir, w);
	char *dir = g_path_get_dirname(abs);
	g_free(abs);
	if (!g_ptr_array_find_with_equal_func(c->glob_dirs, dir, g_str_equal, NULL))
		g_ptr_array_add(c->glob_dirs, dir);
	else
		g_free(dir);
	return TRUE;
}

/* Characters no source path may hold, whatever the backend: see
 * read_sources (measured with ninja 1.11 and gcc 12: tests/integration/
 * hostile_names.sh). */
#define UNTRACKABLE "|&^;'\"*?<>`"

/* sources = ...: globs expanded (sorted), each file checked. */
static gboolean read_sources(Config *c, Target *t, Entry *e, GHashTable *owner, GError **err)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = TRUE;
	if (!cg_split_list(e->value, words, &le)) {
		entry_error(err, e, "sources: %s", le->message + strlen("error: "));
		g_error_free(le);
		g_ptr_array_free(words, TRUE);
		return FALSE;
	}
	if (words->len == 0) {
		entry_error(err, e, "target '%s' has an empty 'sources' list", t->name);
		ok = FALSE;
	}
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		if (strchr(w, '\n') || strchr(w, '\r')) {
			entry_error(err, e, "source path contains a newline");
			ok = FALSE;
			break;
		}
		char *abs = cg_path_join(c->srcdir, w);
		GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
		if (has_glob_chars(w)) {
			if (!glob_files(c, e, w, files, err)) {
				ok = FALSE;
			} else if (files->len == 0) {
				word_error(err, e, w, FALSE, "glob '%s' matches no file", w);
				ok = FALSE;
			}
			for (guint k = 0; ok && k < files->len; k++)
				if (strpbrk(g_ptr_array_index(files, k), "\n\r")) {
					word_error(err, e, w, FALSE, "glob '%s' matches a file whose name contains a newline", w);
					ok = FALSE;
				} else if (first_control(g_ptr_array_index(files, k)) ||
					   strchr(g_ptr_array_index(files, k), '\t')) {
					word_error(err, e, w, FALSE, "glob '%s' matches a file whose name contains a control character", w);
					ok = FALSE;
				}
		} else {
			if (!path_is_file(abs)) {
				if (path_is_dir(abs))
					word_error(err, e, w, FALSE, "source '%s' is a directory", w);
				else if (g_file_test(abs, G_FILE_TEST_EXISTS))
					word_error(err, e, w, FALSE, "source '%s' is not a regular file", w);
				else
					word_error(err, e, w, FALSE, "source file '%s' not found", w);
				ok = FALSE;
			} else {
				g_ptr_array_add(files, g_strdup(abs));
			}
		}
		for (guint k = 0; ok && k < files->len; k++) {
			const char *f = g_ptr_array_index(files, k);
			Lang lang;
			char *rel = cg_relpath(f, c->srcdir);
			const char *odd = strpbrk(f, UNTRACKABLE "\t");
			if (odd) {
				/* ninja's build lines and make's rules have no way to say
				 * '|'; the others gcc writes into dependency files as they
				 * are, where ninja cannot read them back (it would rebuild
				 * the file on every run) */
				word_error(err, e, w, FALSE, "source '%s': a path with '%s' cannot be %s: rename it", rel,
					   *odd == '\t' ? "\\t" : (char[]){ *odd, 0 }, *odd == '|' ? "written in build.ninja nor a Makefile"
							     : "tracked (gcc's dependency files cannot say it to ninja)");
				g_free(rel);
				ok = FALSE;
				break;
			}
			char *real = realpath(f, NULL);
			if (real && strcmp(real, f) == 0)
				g_clear_pointer(&real, free);
			if (!lang_of(f, &lang)) {
				word_error(err, e, w, FALSE, "'%s' is not a source file (expected .cu, .c, .cpp, .cc, .cxx)", rel);
				ok = FALSE;
			} else if (g_hash_table_contains(owner, f) || (real && g_hash_table_contains(owner, real))) {
				Target *o = g_hash_table_lookup(owner, g_hash_table_contains(owner, f) ? f : real);
				if (o == t)
					word_error(err, e, w, TRUE, "source '%s' is listed twice in target '%s'", rel, t->name);
				else
					word_error(err, e, w, FALSE, "source '%s' is already in target '%s' (line %d)",
						    rel, o->name, o->loc.line);
				ok = FALSE;
			} else {
				Source *s = g_new0(Source, 1);
				s->abs = g_strdup(f);
				s->rel = g_strdup(rel);
				s->lang = lang;
				s->loc = config_word_loc(e->loc, e->lines, e->value, w, FALSE);
				g_ptr_array_add(t->sources, s);
				g_hash_table_insert(owner, s->abs, t);
				if (real) { /* the same file by another path is the same source */
					s->real = g_steal_pointer(&real);
					g_hash_table_insert(owner, s->real, t);
				}
			}
			g_free(real);
			g_free(rel);
		}
		g_ptr_array_free(files, TRUE);
		g_free(abs);
	}
	g_ptr_array_free(words, TRUE);
	return ok;
}

static void target_free(gpointer p)
{
	Target *t = p;
	g_free(t->name);
	g_ptr_array_free(t->sources, TRUE);
	g_ptr_array_free(t->include, TRUE);
	g_ptr_array_free(t->private_include, TRUE);
	g_ptr_array_free(t->defines, TRUE);
	g_ptr_array_free(t->public_defines, TRUE);
	g_ptr_array_free(t->libs, TRUE);
	g_ptr_array_free(t->private_libs, TRUE);
	g_ptr_array_free(t->data, TRUE);
	g_ptr_array_free(t->deps, TRUE);
	setting_clear(&t->archs);
	setting_clear(&t->ptx);
	g_free(t->cuda_flags);
	g_free(t->std);
	g_free(t->host_flags);
	g_free(t->cflags);
	g_free(t->cxxflags);
	g_free(t->ldflags);
	g_free(t);
}

static char *join_flags(const char *a, const char *b)
{
	if (!a || !*a)
		return g_strdup(b ? b : "");
	if (!b || !*b)
		return g_strdup(a);
	return g_strconcat(a, " ", b, NULL);
}

/* Every name cugen or ninja or make uses in BUILDDIR (files, directories
 * and phony targets; also arch-* and any name starting with '.', such
 * as .ninja_log, .ninja_deps and .cugen): a target of one of these names
 * would be written over them. */
static const char *const reserved_targets[] = {
	"all", "clean", "help", "install", "uninstall", "check", "test", "dist", "shard", "report",
	"build.ninja", "Makefile", "obj", "compile_commands.json", "cugen.mk", NULL
};

/* A list of include directories (absolute, each checked) */
static gboolean read_includes(Config *c, Section *s, const char *key, GPtrArray *out, GError **err)
{
	GPtrArray *inc = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = get_list(s, key, inc, err);
	for (guint i = 0; ok && i < inc->len; i++) {
		char *abs = cg_path_join(c->srcdir, g_ptr_array_index(inc, i));
		if (!path_is_dir(abs)) {
			entry_error(err, find_entry(s, key),
				    g_file_test(abs, G_FILE_TEST_EXISTS) ? "include directory '%s' is not a directory"
									 : "include directory '%s' not found",
				    (char *)g_ptr_array_index(inc, i));
			g_free(abs);
			ok = FALSE;
		} else {
			g_ptr_array_add(out, abs);
		}
	}
	g_ptr_array_free(inc, TRUE);
	return ok;
}

static gboolean check_defines(Section *s, const char *key, GPtrArray *defines, GError **err)
{
	for (guint i = 0; i < defines->len; i++) {
		const char *d = g_ptr_array_index(defines, i);
		if (!g_ascii_isalpha(d[0]) && d[0] != '_') {
			word_error(err, find_entry(s, key), d, FALSE, "invalid define '%s' (expected NAME or NAME=VALUE)", d);
			return FALSE;
		}
	}
	return TRUE;
}

/* libs: NAME (-lNAME), or a library file (a path with a '/': made
 * absolute here, and it must exist). */
static gboolean check_libs(Config *c, Section *s, const char *key, GPtrArray *libs, GError **err)
{
	for (guint i = 0; i < libs->len; i++) {
		const char *l = g_ptr_array_index(libs, i);
		if (g_str_has_prefix(l, "-l")) {
			word_error(err, find_entry(s, key), l, FALSE, "write library '%s' without '-l' (%s = %s)", l, key,
				   l + 2);
			return FALSE;
		}
		if (strchr(l, '/')) {
			char *abs = cg_path_join(c->srcdir, l);
			if (!path_is_file(abs)) {
				word_error(err, find_entry(s, key), l, FALSE, "library file '%s' not found", l);
				g_free(abs);
				return FALSE;
			}
			g_free(libs->pdata[i]);
			libs->pdata[i] = abs;
		}
	}
	return TRUE;
}

/* Names in BUILDDIR that are cugen's or ninja's own: no data file may
 * be copied over them. */
static const char *const builddir_names[] = {
	"obj", ".cugen", "shard", "build.ninja", "build.full.ninja", "compile_commands.json", "Makefile",
	".ninja_log", ".ninja_deps", NULL
};

/* data = FILES: run-time files (globs allowed), each copied into
 * BUILDDIR at its path relative to the project directory. */
static gboolean read_data(Config *c, Target *t, Section *s, GError **err)
{
	Entry *e = find_entry(s, "data");
	if (!e)
		return TRUE;
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	GError *le = NULL;
	gboolean ok = cg_split_list(e->value, words, &le);
	if (!ok) {
		entry_error(err, e, "data: %s", le->message + strlen("error: "));
		g_error_free(le);
	}
	for (guint i = 0; ok && i < words->len; i++) {
		const char *w = g_ptr_array_index(words, i);
		char *abs = cg_path_join(c->srcdir, w);
		GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
		if (has_glob_chars(w)) {
			if (!glob_files(c, e, w, files, err)) {
				ok = FALSE;
			} else if (!files->len) {
				word_error(err, e, w, FALSE, "data glob '%s' matches no file", w);
				ok = FALSE;
			}
		} else if (path_is_file(abs) || !g_str_has_prefix(abs, c->srcdir)) {
			/* (outside the project: said below, found or not) */
			g_ptr_array_add(files, cg_path_norm(abs));
		} else {
			word_error(err, e, w, FALSE,
				   path_is_dir(abs) ? "data '%s' is a directory (name its files, e.g. '%s/*')"
						    : "data file '%s' not found%s",
				   w, path_is_dir(abs) ? w : "");
			ok = FALSE;
		}
		for (guint k = 0; ok && k < files->len; k++) {
			const char *f = g_ptr_array_index(files, k);
			char *rel = cg_relpath(f, c->srcdir);
			char *first = g_strndup(rel, strcspn(rel, "/"));
			if (g_path_is_absolute(rel) || strcmp(first, "..") == 0) {
				word_error(err, e, w, FALSE, "data file '%s' is outside the project directory", w);
				ok = FALSE;
			} else if (in_list(first, builddir_names)) {
				word_error(err, e, w, FALSE, "data file '%s' would be copied over cugen's own '%s' in the build "
					   "directory", rel, first);
				ok = FALSE;
			} else if (first_control(rel)) {
				word_error(err, e, w, FALSE, "data file name '%s' contains a control character", w);
				ok = FALSE;
			} else if (!g_ptr_array_find_with_equal_func(t->data, rel, g_str_equal, NULL)) {
				g_ptr_array_add(t->data, g_strdup(rel));
				rel = NULL;
			}
			g_free(first);
			g_free(rel);
		}
		g_ptr_array_free(files, TRUE);
		g_free(abs);
	}
	g_ptr_array_free(words, TRUE);
	return ok;
}

static gboolean read_target(Config *c, Section *s, GHashTable *owner, GError **err)
{
	Target *t = g_new0(Target, 1);
	t->name = g_strdup(s->name);
	t->loc = s->loc;
	t->index = c->targets->len;
	t->sources = g_ptr_array_new_with_free_func(source_free);
	t->include = g_ptr_array_new_with_free_func(g_free);
	t->private_include = g_ptr_array_new_with_free_func(g_free);
	t->defines = g_ptr_array_new_with_free_func(g_free);
	t->public_defines = g_ptr_array_new_with_free_func(g_free);
	t->libs = g_ptr_array_new_with_free_func(g_free);
	t->private_libs = g_ptr_array_new_with_free_func(g_free);
	t->data = g_ptr_array_new_with_free_func(g_free);
	t->deps = g_ptr_array_new();
	g_ptr_array_add(c->targets, t);
	g_hash_table_insert(c->by_name, t->name, t);

	if (in_list(t->name, reserved_targets) || g_str_has_prefix(t->name, "arch-") || t->name[0] == '.') {
		char *names = g_strjoinv(", ", (char **)reserved_targets);
		cg_error_at(err, s->loc.file, s->loc.line,
			    "target name '%s' is reserved (cugen and ninja use %s, arch-* and names starting "
			    "with '.' in the build directory)", t->name, names);
		g_free(names);
		return FALSE;
	}
	int v;
	Entry *type = find_entry(s, "type");
	if (!type) {
		cg_error_at(err, s->loc.file, s->loc.line, "target '%s' has no 'type' (executable, static, shared or object)", t->name);
		return FALSE;
	}
	if (!get_choice(s, "type", type_values, 0, &v, err))
		return FALSE;
	t->type = v;
	Entry *src = find_entry(s, "sources");
	if (!src) {
		cg_error_at(err, s->loc.file, s->loc.line, "target '%s' has no 'sources'", t->name);
		return FALSE;
	}
	if (!read_sources(c, t, src, owner, err))
		return FALSE;

	if (!read_includes(c, s, "include", t->include, err) ||
	    !read_includes(c, s, "private_include", t->private_include, err))
		return FALSE;
	if (!get_defines(s, "defines", t->defines, err) || !get_defines(s, "public_defines", t->public_defines, err) ||
	    !check_defines(s, "defines", t->defines, err) || !check_defines(s, "public_defines", t->public_defines, err))
		return FALSE;
	if (!get_list(s, "libs", t->libs, err) || !get_list(s, "private_libs", t->private_libs, err) ||
	    !check_libs(c, s, "libs", t->libs, err) || !check_libs(c, s, "private_libs", t->private_libs, err))
		return FALSE;
	if (!read_data(c, t, s, err))
		return FALSE;
	Setting cuda_archs = c->archs, cuda_ptx = c->ptx;
	set_setting(&t->archs, s, "archs", &cuda_archs);
	set_setting(&t->ptx, s, "ptx", &cuda_ptx);
	if (!get_choice(s, "mode", mode_values, c->mode, &v, err))
		return FALSE;
	t->mode = v;
	if (!get_bool(s, "lto", c->lto, &t->lto, err) ||
	    !get_bool(s, "devrt", TRUE, &t->devrt, err) ||
	    !get_bool(s, "pic", t->type == TGT_SHARED, &t->pic, err))
		return FALSE;
	if (!check_words(s, "cuda_flags", err))
		return FALSE;
	char *own = NULL;
	t->std = g_strdup(c->std);
	t->threads = c->threads;
	if (!take_cuda_flags(s, "cuda_flags", "cuda_flags", &own, &t->std, &t->mode, &t->lto, &t->threads, err)) {
		g_free(own);
		return FALSE;
	}
	if (t->type == TGT_SHARED && !t->pic) {
		entry_error(err, find_entry(s, "pic"), "a shared library needs pic = yes");
		return FALSE;
	}
	if (t->lto && t->mode != MODE_RDC) {
		Entry *e = find_entry(s, "lto");
		if (e)
			entry_error(err, e, "lto = yes needs mode = rdc");
		else
			cg_error_at(err, s->loc.file, s->loc.line, "lto = yes needs mode = rdc");
		return FALSE;
	}
	/* (cuda_flags: checked before its words were read, above) */
	const char *const flag_keys[] = { "host_flags", "cflags", "cxxflags", "ldflags", NULL };
	for (int i = 0; flag_keys[i]; i++)
		if (!check_words(s, flag_keys[i], err))
			return FALSE;
	t->cuda_flags_loc = entry_loc(s, "cuda_flags");
	t->cuda_flags = join_flags(c->flags, own);
	g_free(own);
	Entry *hf = find_entry(s, "host_flags");
	t->host_flags = g_strdup(hf ? hf->value : c->host_flags);
	own = get_str(s, "cflags", "");
	t->cflags = join_flags(c->cflags, own);
	g_free(own);
	own = get_str(s, "cxxflags", "");
	t->cxxflags = join_flags(c->cxxflags, own);
	g_free(own);
	own = get_str(s, "ldflags", "");
	t->ldflags = join_flags(c->ldflags, own);
	g_free(own);
	return TRUE;
}

char *target_output_name(const Target *t)
{
	switch (t->type) {
	case TGT_EXECUTABLE: return g_strdup(t->name);
	case TGT_STATIC: return g_strdup_printf("lib%s.a", t->name);
	case TGT_SHARED: return g_strdup_printf("lib%s.so", t->name);
	case TGT_OBJECT: return NULL;
	}
	return NULL;
}

/* No two targets may write the same file, nor be named like another's. */
static gboolean check_outputs(Config *c, GError **err)
{
	GHashTable *writer = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		char *out = target_output_name(t);
		if (!out)
			continue;
		Target *o = g_hash_table_lookup(writer, out);
		if (o) {
			cg_error_at(err, t->loc.file, t->loc.line, "target '%s' writes '%s', which target '%s' (line %d) also writes",
				    t->name, out, o->name, o->loc.line);
			ok = FALSE;
			g_free(out);
		} else {
			g_hash_table_insert(writer, out, t);
		}
	}
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		Target *w = g_hash_table_lookup(writer, t->name);
		if (w && w != t) {
			Target *first = w->index < t->index ? w : t, *second = w->index < t->index ? t : w;
			if (second == w)
				cg_error_at(err, second->loc.file, second->loc.line,
					    "target '%s' writes '%s', the name of target '%s' (line %d)",
					    second->name, t->name, first->name, first->loc.line);
			else
				cg_error_at(err, second->loc.file, second->loc.line,
					    "target '%s' is named like the file '%s' that target '%s' (line %d) writes",
					    second->name, t->name, first->name, first->loc.line);
			ok = FALSE;
		}
	}
	g_hash_table_destroy(writer);
	return ok;
}

static gboolean resolve_deps(Config *c, GPtrArray *secs, GError **err)
{
	for (guint i = 0; i < c->targets->len; i++) {
		Target *t = g_ptr_array_index(c->targets, i);
		Section *s = find_section(secs, SEC_TARGET, t->name);
		Entry *e = find_entry(s, "deps");
		if (!e)
			continue;
		GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
		if (!get_list(s, "deps", names, err)) {
			g_ptr_array_free(names, TRUE);
			return FALSE;
		}
		for (guint k = 0; k < names->len; k++) {
			const char *n = g_ptr_array_index(names, k);
			Target *d = g_hash_table_lookup(c->by_name, n);
			if (!d) {
				const char **cands = g_new0(const char *, c->targets->len + 1);
				for (guint j = 0; j < c->targets->len; j++)
					cands[j] = ((Target *)g_ptr_array_index(c->targets, j))->name;
				const char *hint = cg_suggest(n, cands);
				word_error(err, e, n, FALSE, "unknown dependency '%s' of target '%s'%s%s%s", n, t->name,
					    hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
				g_free(cands);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (d == t) {
				word_error(err, e, n, FALSE, "target '%s' depends on itself", t->name);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (d->type == TGT_EXECUTABLE) {
				word_error(err, e, n, FALSE, "target '%s' cannot depend on executable '%s'", t->name, n);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			if (g_ptr_array_find(t->deps, d, NULL)) {
				word_error(err, e, n, TRUE, "dependency '%s' listed twice", n);
				g_ptr_array_free(names, TRUE);
				return FALSE;
			}
			g_ptr_array_add(t->deps, d);
		}
		g_ptr_array_free(names, TRUE);
	}
	/* Cycles: depth-first search with colours. */
	GHashTable *colour = g_hash_table_new(NULL, NULL);
	GPtrArray *stack = g_ptr_array_new();
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < c->targets->len; i++) {
		Target *root = g_ptr_array_index(c->targets, i);
		if (g_hash_table_contains(colour, root))
			continue;
		/* iterative DFS: stack of (target, next dep index) */
		GArray *idx = g_array_new(FALSE, FALSE, sizeof(guint));
		g_ptr_array_add(stack, root);
		guint zero = 0;
		g_array_append_val(idx, zero);
		g_hash_table_insert(colour, root, GINT_TO_POINTER(1));
		while (ok && stack->len) {
			Target *t = g_ptr_array_index(stack, stack->len - 1);
			guint *k = &g_array_index(idx, guint, idx->len - 1);
			if (*k >= t->deps->len) {
				g_hash_table_insert(colour, t, GINT_TO_POINTER(2));
				g_ptr_array_remove_index(stack, stack->len - 1);
				g_array_remove_index(idx, idx->len - 1);
				continue;
			}
			Target *d = g_ptr_array_index(t->deps, (*k)++);
			int col = GPOINTER_TO_INT(g_hash_table_lookup(colour, d));
			if (col == 1) {
				GString *path = g_string_new(d->name);
				for (guint j = stack->len; j > 0; j--) {
					Target *x = g_ptr_array_index(stack, j - 1);
					g_string_prepend(path, " -> ");
					g_string_prepend(path, x->name);
					if (x == d)
						break;
				}
				Section *s = find_section(secs, SEC_TARGET, t->name);
				entry_error(err, find_entry(s, "deps"), "dependency cycle: %s", path->str);
				g_string_free(path, TRUE);
				ok = FALSE;
			} else if (col == 0) {
				g_hash_table_insert(colour, d, GINT_TO_POINTER(1));
				g_ptr_array_add(stack, d);
				g_array_append_val(idx, zero);
			}
		}
		g_array_free(idx, TRUE);
		g_ptr_array_set_size(stack, 0);
	}
	g_ptr_array_free(stack, TRUE);
	g_hash_table_destroy(colour);
	return ok;
}

static void visit_order(Target *t, GHashTable *seen, GPtrArray *out)
{
	if (g_hash_table_contains(seen, t))
		return;
	g_hash_table_add(seen, t);
	for (guint i = 0; i < t->deps->len; i++)
		visit_order(g_ptr_array_index(t->deps, i), seen, out);
	g_ptr_array_add(out, t);
}

GPtrArray *config_target_order(Config *c)
{
	GPtrArray *out = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	for (guint i = 0; i < c->targets->len; i++)
		visit_order(g_ptr_array_index(c->targets, i), seen, out);
	g_hash_table_destroy(seen);
	return out;
}

/* Apply the chosen profile's [cuda]/[toolchain] keys (not over -D). */
static gboolean apply_profile(Config *c, GPtrArray *secs, const char *name, GError **err)
{
	Section *p = find_section(secs, SEC_PROFILE, name);
	if (!p) {
		GString *known = g_string_new(NULL);
		const char **cands = g_new0(const char *, secs->len + 1);
		guint n = 0;
		for (guint i = 0; i < secs->len; i++) {
			Section *s = g_ptr_array_index(secs, i);
			if (s->kind == SEC_PROFILE) {
				g_string_append_printf(known, "%s%s", known->len ? ", " : "", s->name);
				cands[n++] = s->name;
			}
		}
		const char *hint = cg_suggest(name, cands);
		if (hint)
			cg_usage_error(err, "no profile '%s' in %s; did you mean '%s'?", name, c->ini_path, hint);
		else
			cg_usage_error(err, "no profile '%s' in %s (profiles: %s)", name, c->ini_path,
				       known->len ? known->str : "none");
		g_string_free(known, TRUE);
		g_free(cands);
		return FALSE;
	}
	Profile *pr = g_new0(Profile, 1);
	c->profile = pr;
	pr->name = g_strdup(name);
	pr->loc = p->loc;
	Loc here = p->loc;
	for (guint i = 0; i < p->entries->len; i++) {
		Entry *e = g_ptr_array_index(p->entries, i);
		if (in_list(e->key, profile_own_keys))
			continue;
		SecKind k = in_list(e->key, cuda_keys) ? SEC_CUDA : SEC_TOOLCHAIN;
		Section *s = ensure_section(secs, k, NULL, here);
		Entry *cur = find_entry(s, e->key);
		if (cur && from_cmdline(cur->loc))
			continue; /* -D wins over profiles */
		set_entry(s, e->key, e->value, e->loc);
	}
	return TRUE;
}

/* On CI, without --profile: the profile named for the CI provider, else
 * one named ci, if the file has it. why says which variable chose it. */
static const char *ci_profile(GPtrArray *secs, char **why)
{
	static const struct { const char *var, *name; } providers[] = {
		{ "GITHUB_ACTIONS", "github" },
		{ "GITLAB_CI", "gitlab" },
		{ "TF_BUILD", "azure" },
	};
	const char *ci = g_getenv("CI");
	const char *because = NULL;
	if (ci && (g_ascii_strcasecmp(ci, "true") == 0 || strcmp(ci, "1") == 0))
		because = "CI";
	for (gsize i = 0; i < G_N_ELEMENTS(providers); i++) {
		const char *v = g_getenv(providers[i].var);
		if (!v || !*v || g_ascii_strcasecmp(v, "false") == 0)
			continue;
		if (find_section(secs, SEC_PROFILE, providers[i].name)) {
			*why = g_strdup_printf("%s=%s", providers[i].var, v);
			return providers[i].name;
		}
		if (!because)
			because = providers[i].var;
	}
	if (because && find_section(secs, SEC_PROFILE, "ci")) {
		*why = g_strdup_printf("%s=%s", because, g_getenv(because));
		return "ci";
	}
	return NULL;
}

static void profile_values_free(Profile *p)
{
	g_free(p->jobs);
	g_free(p->memory);
	g_free(p->job_memory);
	g_free(p->threads);
	g_free(p->split_compile);
	g_free(p->runner);
}

/* Validate a profile's own keys into pr (every profile is checked, so a
 * mistake shows before the day it is chosen). */
static gboolean read_profile_values(Section *p, Profile *pr, GError **err)
{
	/* tail: split_compile's older word for auto (plan.h) */
	struct { const char *key; char **dst; gboolean size; gboolean zero_ok; const char *word; } keys[] = {
		{ "jobs", &pr->jobs, FALSE, FALSE, NULL },
		{ "memory", &pr->memory, TRUE, FALSE, NULL },
		{ "job_memory", &pr->job_memory, TRUE, FALSE, NULL },
		{ "threads", &pr->threads, FALSE, TRUE, NULL },
		{ "split_compile", &pr->split_compile, FALSE, TRUE, "tail" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		Entry *e = find_entry(p, keys[i].key);
		char *v = g_strstrip(g_strdup(e ? e->value : "auto"));
		gboolean ok = keys[i].size ? valid_size(v)
					   : valid_count(v, keys[i].zero_ok) || g_strcmp0(v, keys[i].word) == 0;
		if (!ok) {
			entry_error(err, e, "invalid %s '%s' (expected %s)", keys[i].key, v,
				    keys[i].size ? "auto or a size such as 7G or 512M"
				    : keys[i].word ? "auto, tail or a number from 0 to 999999"
				    : keys[i].zero_ok ? "auto or a number from 0 to 999999"
						      : "auto or a number from 1 to 999999");
			g_free(v);
			return FALSE;
		}
		g_free(*keys[i].dst);
		*keys[i].dst = v;
	}
	int v;
	if (!get_choice(p, "split", split_values, SPLIT_AUTO, &v, err))
		return FALSE;
	pr->split = v;
	Entry *e = find_entry(p, "time_limit");
	pr->time_limit = 0;
	if (e) {
		char *t = g_strstrip(g_strdup(e->value));
		gboolean ok = runner_parse_duration(t, &pr->time_limit);
		if (!ok)
			entry_error(err, e, "invalid time_limit '%s' (expected a duration such as 6h, 90m or 3600s, or none)", t);
		g_free(t);
		if (!ok)
			return FALSE;
	}
	e = find_entry(p, "runner");
	g_free(pr->runner);
	pr->runner = e ? g_strstrip(g_strdup(e->value)) : NULL;
	return TRUE;
}

static gboolean read_profile(Config *c, GPtrArray *secs, GError **err)
{
	for (guint i = 0; i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind != SEC_PROFILE || g_strcmp0(s->name, c->profile->name) == 0)
			continue;
		Profile tmp = { 0 };
		gboolean ok = read_profile_values(s, &tmp, err);
		profile_values_free(&tmp);
		if (!ok)
			return FALSE;
	}
	if (!c->profile->name)
		return TRUE;
	Profile *pr = c->profile;
	Section *p = find_section(secs, SEC_PROFILE, pr->name);
	if (!read_profile_values(p, pr, err))
		return FALSE;
	Entry *a = find_entry(p, "archs");
	if (a && !c->build_archs) {
		c->build_archs = g_new0(Setting, 1);
		c->build_archs->value = g_strdup(a->value);
		c->build_archs->loc = a->loc;
		c->build_archs->lines = a->lines ? g_array_ref(a->lines) : NULL;
	}
	return TRUE;
}

static gboolean read_model(Config *c, GPtrArray *secs, const ConfigOptions *opt, GError **err)
{
	Section *proj = find_section(secs, SEC_PROJECT, NULL);
	Section *cuda = find_section(secs, SEC_CUDA, NULL);
	Section *tc = find_section(secs, SEC_TOOLCHAIN, NULL);
	if (!proj || !find_entry(proj, "name")) {
		if (proj)
			cg_error_at(err, proj->loc.file, proj->loc.line, "[project] needs 'name'");
		else
			cg_error_at(err, c->ini_path, 1, "missing [project] section (with 'name')");
		return FALSE;
	}
	Entry *ne = find_entry(proj, "name");
	c->name = g_strstrip(g_strdup(ne->value));
	if (!valid_name(c->name)) {
		entry_error(err, ne, "invalid project name '%s' (use letters, digits, '_', '.', '+', '-')", c->name);
		return FALSE;
	}
	c->version = get_str(proj, "version", "");
	int g;
	if (!get_choice(proj, "gate", gate_values, GATE_AUTO, &g, err))
		return FALSE;
	c->gate = g;

	Loc dloc = { g_intern_string(c->ini_path), 0 };
	Setting def_archs = { (char *)"75", dloc }, def_ptx = { (char *)"highest", dloc };
	set_setting(&c->archs, cuda, "archs", &def_archs);
	set_setting(&c->ptx, cuda, "ptx", &def_ptx);
	int v;
	if (!get_choice(cuda, "mode", mode_values, MODE_WHOLE, &v, err))
		return FALSE;
	c->mode = v;
	if (!get_bool(cuda, "lto", FALSE, &c->lto, err))
		return FALSE;
	if (!get_choice(cuda, "std", std_values, 2, &v, err))
		return FALSE;
	c->std = g_strdup(std_values[v]);
	if (!check_words(cuda, "flags", err) || !check_words(cuda, "host_flags", err))
		return FALSE;
	c->threads = -1;
	if (!take_cuda_flags(cuda, "flags", "[cuda] flags", &c->flags, &c->std, &c->mode, &c->lto, &c->threads, err))
		return FALSE;
	if (c->lto && c->mode != MODE_RDC) {
		entry_error(err, find_entry(cuda, "lto"), "lto = yes needs mode = rdc");
		return FALSE;
	}
	c->flags_loc = entry_loc(cuda, "flags");
	c->host_flags = get_str(cuda, "host_flags", "");
	if (!get_choice(cuda, "module_id", modid_values, 0, &v, err))
		return FALSE;
	c->module_id_absolute = v == 1;
	if (!get_choice(cuda, "cudart", cudart_values, CUDART_STATIC, &v, err))
		return FALSE;
	c->cudart = v;
	if (!get_bool(cuda, "reproducible", FALSE, &c->reproducible, err))
		return FALSE;

	Entry *ce = find_entry(tc, "cuda");
	if (ce && *ce->value) {
		c->cuda = cg_path_join(c->srcdir, ce->value);
		c->cuda_loc = ce->loc;
	}
	const char *env_cc = g_getenv("CC"), *env_cxx = g_getenv("CXX");
	c->cc = get_str(tc, "cc", env_cc && *env_cc ? env_cc : "cc");
	c->cxx = get_str(tc, "cxx", env_cxx && *env_cxx ? env_cxx : "c++");
	c->ccbin = get_str(tc, "ccbin", "");
	c->ar = get_str(tc, "ar", "ar");
	c->objcopy = get_str(tc, "objcopy", "objcopy");
	c->launcher = get_str(tc, "launcher", "");
	c->cc_loc = entry_loc(tc, "cc");
	c->cxx_loc = entry_loc(tc, "cxx");
	c->ccbin_loc = entry_loc(tc, "ccbin");
	c->ar_loc = entry_loc(tc, "ar");
	c->objcopy_loc = entry_loc(tc, "objcopy");
	c->launcher_loc = entry_loc(tc, "launcher");
	c->target_loc = entry_loc(tc, "target");
	/* a program named by nothing would run its first argument */
	const char *const programs[] = { "cc", "cxx", "ar", "objcopy" };
	for (gsize i = 0; i < G_N_ELEMENTS(programs); i++) {
		Entry *pe = find_entry(tc, programs[i]);
		if (pe && pe->value[strspn(pe->value, " \t")] == 0) {
			entry_error(err, pe, "%s is empty: name a program (or remove the line for the default)", programs[i]);
			return FALSE;
		}
	}
	c->cache = get_str(tc, "cache", "");
	Entry *cae = find_entry(tc, "cache");
	GError *cerr = NULL;
	char *cdir = cache_dir(c->cache, c->srcdir);
	const gboolean from_ini = cae && *c->cache;
	if (!cache_check(cdir, from_ini ? "cache" : "CUGEN_CACHE_DIR", from_ini ? c->cache : g_getenv("CUGEN_CACHE_DIR"),
			 &cerr)) {
		if (from_ini)
			entry_error(err, cae, "%s", cerr->message + 7);
		else
			g_propagate_error(err, g_error_copy(cerr));
		g_error_free(cerr);
		g_free(cdir);
		return FALSE;
	}
	g_free(cdir);
	c->target_triple = get_str(tc, "target", "");
	if (!check_words(tc, "cflags", err) || !check_words(tc, "cxxflags", err) ||
	    !check_words(tc, "ldflags", err) || !check_words(tc, "launcher", err))
		return FALSE;
	c->cflags = get_str(tc, "cflags", "");
	c->cxxflags = get_str(tc, "cxxflags", "");
	c->ldflags = get_str(tc, "ldflags", "");
	const char *const triples[] = { "", "x86_64-linux", "sbsa-linux", "aarch64-linux", "ppc64le-linux", NULL };
	Entry *te = find_entry(tc, "target");
	if (te && !in_list(g_strstrip(c->target_triple), triples)) {
		entry_error(err, te, "unknown target '%s' (expected x86_64-linux, sbsa-linux, aarch64-linux or ppc64le-linux)", c->target_triple);
		return FALSE;
	}

	if (!read_profile(c, secs, err))
		return FALSE;
	if (opt->archs) {
		if (c->build_archs)
			setting_clear(c->build_archs);
		g_free(c->build_archs);
		c->build_archs = g_new0(Setting, 1);
		c->build_archs->value = g_strdup(opt->archs);
		c->build_archs->loc = (Loc){ NULL, 0 };
	}

	GHashTable *owner = g_hash_table_new(g_str_hash, g_str_equal);
	gboolean ok = TRUE;
	for (guint i = 0; ok && i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind == SEC_TARGET)
			ok = read_target(c, s, owner, err);
		if (s->kind == SEC_PROFILE)
			g_ptr_array_add(c->profiles, g_strdup(s->name));
	}
	g_hash_table_destroy(owner);
	if (!ok)
		return FALSE;
	if (c->targets->len == 0) {
		cg_error_at(err, c->ini_path, proj->loc.line, "no [target NAME] section: nothing to build");
		return FALSE;
	}
	if (!check_outputs(c, err))
		return FALSE;
	return resolve_deps(c, secs, err);
}

Config *config_load(const ConfigOptions *opt, GError **err)
{
	Config *c = g_new0(Config, 1);
	c->ini_path = g_strdup(opt->ini);
	c->ini_abs = cg_abspath(opt->ini);
	c->srcdir = g_path_get_dirname(c->ini_abs);
	c->targets = g_ptr_array_new_with_free_func(target_free);
	c->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	c->glob_dirs = g_ptr_array_new_with_free_func(g_free);
	c->profiles = g_ptr_array_new_with_free_func(g_free);

	GPtrArray *secs = read_ini(c->ini_abs, c->ini_path, err);
	if (!secs) {
		config_free(c);
		return NULL;
	}
	gboolean ok = TRUE;
	for (char **d = opt->defines; ok && d && *d; d++)
		ok = apply_define(secs, *d, err);
	const char *profile = opt->profile;
	if (ok && !profile && opt->ci_profile)
		profile = ci_profile(secs, &c->profile_why);
	if (ok && profile)
		ok = apply_profile(c, secs, profile, err);
	if (ok && !c->profile) {
		/* No profile: every planner setting is "auto". */
		Profile *pr = g_new0(Profile, 1);
		pr->jobs = g_strdup("auto");
		pr->memory = g_strdup("auto");
		pr->job_memory = g_strdup("auto");
		pr->threads = g_strdup("auto");
		pr->split_compile = g_strdup("auto");
		pr->split = SPLIT_AUTO;
		c->profile = pr;
	}
	if (ok)
		ok = read_model(c, secs, opt, err);
	g_ptr_array_free(secs, TRUE);
	if (!ok) {
		config_free(c);
		return NULL;
	}
	return c;
}

void config_free(Config *c)
{
	if (!c)
		return;
	g_free(c->ini_path);
	g_free(c->ini_abs);
	g_free(c->srcdir);
	g_free(c->name);
	g_free(c->version);
	setting_clear(&c->archs);
	setting_clear(&c->ptx);
	g_free(c->std);
	g_free(c->flags);
	g_free(c->host_flags);
	g_free(c->cuda);
	g_free(c->cc);
	g_free(c->cxx);
	g_free(c->ccbin);
	g_free(c->ar);
	g_free(c->objcopy);
	g_free(c->launcher);
	g_free(c->cache);
	g_free(c->target_triple);
	g_free(c->cflags);
	g_free(c->cxxflags);
	g_free(c->ldflags);
	if (c->build_archs) {
		setting_clear(c->build_archs);
		g_free(c->build_archs);
	}
	if (c->profile) {
		g_free(c->profile->name);
		profile_values_free(c->profile);
		g_free(c->profile);
	}
	g_ptr_array_free(c->targets, TRUE);
	g_hash_table_destroy(c->by_name);
	g_ptr_array_free(c->glob_dirs, TRUE);
	g_ptr_array_free(c->profiles, TRUE);
	g_free(c->profile_why);
	g_free(c);
}
