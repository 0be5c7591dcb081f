/* units.h -- sizes ("7G", "512M"), durations ("6h", "90m") and speeds as users,
 * profiles and environment variables write them: parsed (strictly, or
 * leniently for values already checked), and written back the way a
 * profile writes them. */
#ifndef CUGEN_UNITS_H
#define CUGEN_UNITS_H

#include <glib.h>

/* Bytes from "7G", "512M", "1.5GiB", "2048" (bytes); 0 for none. */
guint64 units_size_bytes(const char *s);
/* "6h", "90m", "90min", "45s", "3600" (seconds), "1d", "1h30m"; "none"
 * and "0" give 0 (no limit). FALSE when s is none of these. */
gboolean units_parse_duration(const char *s, double *seconds);
/* "6h", "1h30m", "45m", "20s". */
char *units_format_duration(double seconds);
/* "7G", "5.5G", "512M", "64MiB", "4096": a positive size, at most 1e15;
 * FALSE for anything else (nan, inf, a sign, trailing text). */
gboolean units_parse_size(const char *s, guint64 *bytes);
/* A machine's speed (speed.h): a plain number from 0.1 to 10. */
gboolean units_parse_speed(const char *s, double *speed);
/* "7G", "5.5G", "512M": the way a profile writes a size. */
char *units_format_size(guint64 bytes);

#endif
