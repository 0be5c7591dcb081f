/* safepath.h -- the one rule for paths that come from files cugen reads.
 *
 * Owns: what a name handed to cugen by a manifest, a shard spec, a cache
 * entry or a state file may be (relative, no '..', no empty or control
 * characters), and the ways cugen writes, appends to, reads and removes
 * such names: below a root directory, never following a symbolic link
 * below it (a planted link is refused, or removed as a link), reading
 * regular files only and only up to a bound. */
#ifndef CUGEN_SAFEPATH_H
#define CUGEN_SAFEPATH_H

#include <glib.h>

/* Whether rel is a name below a directory: not empty, not absolute, no
 * "." or ".." component, no empty component, no control character. */
gboolean cg_rel_ok(const char *rel);

/* Write data to root/rel through a temporary file and a rename, creating
 * rel's directories; no component of rel may be a symbolic link (a link
 * at rel itself is replaced, not followed). */
gboolean cg_write_beneath(const char *root, const char *rel, const void *data, gsize len, GError **err);

/* Open root/rel for appending (created 0644), with no symbolic link on
 * the way; -1 and errno otherwise. */
int cg_append_beneath(const char *root, const char *rel);

/* The contents of a regular file (not through a final symbolic link when
 * nofollow), at most max bytes; NULL and err otherwise (a FIFO, a device,
 * a directory, a larger file). The result holds a NUL after len bytes. */
char *cg_read_regular(const char *path, gsize max, gboolean nofollow, gsize *len, GError **err);

/* Remove path and, if it is a directory (not a link to one), everything
 * below it; never follows a symbolic link. */
void cg_rm_tree(const char *path);

/* Read a whole regular file of at most CG_READ_MAX bytes (a FIFO or a
 * device is refused, not read); NULL with err set on failure. */
/* A new directory "PREFIX-PID-XXXXXX" in TMPDIR, for this process to
 * remove; those of this user's runs that were killed (an hour old, their
 * PID gone) are swept first, once a process. NULL with err on failure. */
char *cg_make_tmp_dir(const char *prefix, GError **err);

#define CG_READ_MAX ((gsize)1 << 30)
char *cg_read_file(const char *path, gsize *len, GError **err);

#endif
