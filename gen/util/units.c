/* units.c -- sizes and durations as users and profiles write them; see
 * units.h. */
#include "units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GiB 1073741824.0

/* Bytes from "7G", "512M", "1.5GiB", "2048" (bytes), leniently: the
 * number and its suffix letter, the rest ignored; 0 for none. */
guint64 units_size_bytes(const char *s)
{
	char *end = NULL;
	double v = g_ascii_strtod(s, &end);
	double mult = 1;
	switch (end ? *end : 0) {
	case 'k': case 'K': mult = 1024.0; break;
	case 'm': case 'M': mult = 1024.0 * 1024; break;
	case 'g': case 'G': mult = GiB; break;
	case 't': case 'T': mult = GiB * 1024; break;
	}
	return (guint64)(v * mult);
}

gboolean units_parse_size(const char *s, guint64 *bytes)
{
	char *end = NULL;
	double v = g_ascii_strtod(s, &end);
	if (end == s || !(v > 0) || v > 1e15 || g_ascii_isspace(*s))
		return FALSE;
	if (*end && strchr("kKmMgGtT", *end)) {
		end++;
		if (*end == 'i')
			end++;
		if (*end == 'B')
			end++;
	}
	if (*end)
		return FALSE;
	*bytes = units_size_bytes(s);
	return *bytes > 0;
}

gboolean units_parse_duration(const char *s, double *seconds)
{
	if (strcmp(s, "none") == 0 || strcmp(s, "0") == 0) {
		*seconds = 0;
		return TRUE;
	}
	double total = 0;
	const char *p = s;
	gboolean any = FALSE;
	while (*p) {
		if (!g_ascii_isdigit(*p))
			return FALSE;
		char *end = NULL;
		double v = g_ascii_strtod(p, &end);
		if (end == p || v > 1e7)
			return FALSE;
		p = end;
		double unit = 1;
		if (g_str_has_prefix(p, "min")) {
			unit = 60;
			p += 3;
		} else if (*p == 'd') {
			unit = 86400;
			p++;
		} else if (*p == 'h') {
			unit = 3600;
			p++;
		} else if (*p == 'm') {
			unit = 60;
			p++;
		} else if (*p == 's') {
			p++;
		} else if (*p) {
			return FALSE;
		}
		total += v * unit;
		any = TRUE;
	}
	if (!any || total <= 0 || total > 366 * 86400.0)
		return FALSE;
	*seconds = total;
	return TRUE;
}

char *units_format_duration(double seconds)
{
	long s = lround(seconds);
	GString *o = g_string_new(NULL);
	if (s >= 3600)
		g_string_append_printf(o, "%ldh", s / 3600);
	if (s % 3600 >= 60)
		g_string_append_printf(o, "%ldm", s % 3600 / 60);
	if (s < 3600 && s % 60)
		g_string_append_printf(o, "%lds", s % 60);
	if (!o->len)
		g_string_append(o, "0s");
	return g_string_free(o, FALSE);
}

char *units_format_size(guint64 bytes)
{
	if (bytes % (guint64)GiB == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT "G", bytes / (guint64)GiB);
	if (bytes >= GiB)
		return g_strdup_printf("%.1fG", ceil(bytes / GiB * 10) / 10);
	return g_strdup_printf("%.0fM", ceil(bytes / (1024.0 * 1024)));
}

gboolean units_parse_speed(const char *s, double *speed)
{
	char *end = NULL;
	const double v = g_ascii_strtod(s, &end);
	if (!end || end == s || *end || !isfinite(v) || v < 0.1 || v > 10)
		return FALSE;
	*speed = v;
	return TRUE;
}
