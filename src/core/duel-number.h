/* duel-number.h — numbers as the reader's locale writes them
 *
 * The decimal mark, the thousands separator and the grouping come from
 * LC_NUMERIC ("112,540.5" in en_US, "112.540,5" in de_DE). Files meant for
 * programs (CSV, JSON, fio jobs) never use these: they print with
 * g_ascii_formatd() or "%.10g" in the C locale's terms.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @value with @decimals digits after the mark (0 to 9), grouped as the
 * locale groups; the C and POSIX locales group nothing. "–" when @value is
 * not finite; never "-0". */
char *duel_number_format      (double      value,
                               int         decimals);
/* The same, grouping by threes with @fallback_separator where the locale
 * has no separator of its own (charts: "112,540" under C too). */
char *duel_number_format_full (double      value,
                               int         decimals,
                               const char *fallback_separator);

G_END_DECLS
