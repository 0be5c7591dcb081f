/* ini.c -- cugen.ini's raw model: sections and entries with their line
 * numbers, read by inih through a line-counting reader that joins
 * continuation lines and strips inline comments; the known sections and
 * keys (an unknown one is an error with a hint); lookups; and the -D
 * SECTION.KEY=VALUE overrides. See config_int.h. */
#include "config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <ini.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archspell.h"
#include "cache.h"
#include "cudaflags.h"
#include "util.h"

#define MAX_LINE (64 * 1024)

/* inih reads through it: it counts lines, joins continuation lines and
 * collects the sections. */
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

/* ---- known sections and keys ---- */

static const char *const project_keys[] = {
	"name", "version", "gate", "profile", "buildtype", "prefix", "bindir", "libdir", "includedir", "datadir", "install_rpath",
	"source_dir", NULL
};
const char *const cf_gate_values[] = { "auto", "yes", "no", NULL };
const char *const cf_cuda_keys[] = {
	"archs", "ptx", "mode", "lto", "std", "flags", "host_flags",
	"module_id", "cudart", "reproducible", "ptx_first", NULL
};
static const char *const toolchain_keys[] = {
	"cuda", "cc", "cxx", "ccbin", "ar", "objcopy", "launcher", "device_launcher", "cache",
	"target", "cflags", "cxxflags", "ldflags", NULL
};
static const char *const target_keys[] = {
	"type", "sources", "include", "private_include", "defines", "public_defines",
	"libs", "private_libs", "deps", "cuda_flags", "data",
	"archs", "ptx", "mode", "lto", "host_flags", "cflags", "cxxflags",
	"ldflags", "devrt", "pic", "device_link", "install", "version", "soversion", "headers", "output_name", "arch_sources", "arch_defines", "cuda_headers", "cuda_sources", NULL
};
const char *const cf_profile_own_keys[] = {
	"jobs", "memory", "job_memory", "archs", "split", "threads",
	"split_compile", "runner", "time_limit", "speed", "ptxas_edges", "pp_edges", "syntax_stub", "host_rank", NULL
};
static const char *const section_names[] = {
	"project", "cuda", "toolchain", "target", "profile", NULL
};


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
	case SEC_CUDA: return cf_cuda_keys;
	case SEC_TOOLCHAIN: return toolchain_keys;
	case SEC_TARGET: return target_keys;
	case SEC_PROFILE: return cf_profile_own_keys;
	}
	return NULL;
}

gboolean cf_in_list(const char *w, const char *const *list)
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

gboolean cf_valid_name(const char *s)
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
			} else if (!cf_valid_name(s->name)) {
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
void cf_strip_inline_comment(char *s)
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
const char *cf_first_control(const char *s)
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
	const char *ctl = cf_first_control(text);
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
		cf_strip_inline_comment(text);
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
			gboolean key = cf_in_list(k, keys_for(s->kind));
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
	gboolean known = cf_in_list(name, keys);
	if (!known && s->kind == SEC_PROFILE)
		known = cf_in_list(name, cf_cuda_keys) || cf_in_list(name, toolchain_keys);
	if (!known) {
		const char *hint = cg_suggest(name, keys);
		if (!hint && s->kind == SEC_PROFILE)
			hint = cg_suggest(name, cf_cuda_keys);
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

GPtrArray *cf_read_ini(const char *path, const char *shown, GError **err)
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

Section *cf_find_section(GPtrArray *secs, SecKind k, const char *name)
{
	for (guint i = 0; i < secs->len; i++) {
		Section *s = g_ptr_array_index(secs, i);
		if (s->kind == k && g_strcmp0(s->name, name) == 0)
			return s;
	}
	return NULL;
}

Entry *cf_find_entry(Section *s, const char *key)
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

void cf_set_entry(Section *s, const char *key, const char *value, Loc loc)
{
	Entry *e = cf_find_entry(s, key);
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

Section *cf_ensure_section(GPtrArray *secs, SecKind k, const char *name, Loc loc)
{
	Section *s = cf_find_section(secs, k, name);
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

/* Set key of s from the command line; archs in CMake's spelling
 * ("75;80;90-real", what a packager's CUDAARCHS holds) is read as the
 * environment's CUDAARCHS is: archs and ptx both. */
static void set_from_cmdline(Section *s, const char *key, const char *value, Loc loc)
{
	char *archs = NULL, *ptx = NULL;
	if (strcmp(key, "archs") == 0 && (strchr(value, ';') || strstr(value, "-real") || strstr(value, "-virtual")) &&
	    archspell_cmake(value, &archs, &ptx)) {
		cf_set_entry(s, "archs", archs, loc);
		cf_set_entry(s, "ptx", ptx, loc);
		/* (and CMake's code=[compute_NN,sm_NN] order) */
		if (s->kind == SEC_CUDA)
			cf_set_entry(s, "ptx_first", "yes", loc);
	} else {
		cf_set_entry(s, key, value, loc);
	}
	g_free(archs);
	g_free(ptx);
}

gboolean cf_apply_define(GPtrArray *secs, const char *def, GError **err)
{
	const char *eq = strchr(def, '=');
	if (!eq) {
		cg_usage_error(err, "-D %s: expected SECTION.KEY=VALUE", def);
		return FALSE;
	}
	const char *ctl = cf_first_control(def);
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
		gboolean known = cf_in_list(parts[2], keys) ||
			(k == SEC_PROFILE && (cf_in_list(parts[2], cf_cuda_keys) || cf_in_list(parts[2], toolchain_keys)));
		Section *s = cf_find_section(secs, k, parts[1]);
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
				s = cf_ensure_section(secs, k, parts[1], loc);
			set_from_cmdline(s, parts[2], value, loc);
			ok = TRUE;
		}
	} else if (n == 2 && (strcmp(sec, "project") == 0 || strcmp(sec, "cuda") == 0 ||
			      strcmp(sec, "toolchain") == 0)) {
		SecKind k = sec[0] == 'p' ? SEC_PROJECT : sec[0] == 'c' ? SEC_CUDA : SEC_TOOLCHAIN;
		const char *const *keys = keys_for(k);
		if (!cf_in_list(parts[1], keys)) {
			const char *hint = cg_suggest(parts[1], keys);
			cg_usage_error(err, "-D %s: unknown key '%s' in [%s]%s%s%s", def, parts[1], sec,
				       hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
		} else {
			set_from_cmdline(cf_ensure_section(secs, k, NULL, loc), parts[1], value, loc);
			ok = TRUE;
		}
	} else if (!cf_in_list(sec, section_names)) {
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
gboolean cf_from_cmdline(Loc loc)
{
	return loc.line == 0 && loc.file && g_str_has_prefix(loc.file, "-D ");
}

