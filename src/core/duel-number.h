/* duel-number.h — numbers as the reader's locale writes them
 *
 * One rule for every text meant for people (tables, charts, reports, the
 * CLI's and the window's words): thousands are always grouped. The decimal
 * mark, the thousands separator and the grouping come from LC_NUMERIC when
 * the locale has a separator ("112,540.5" in en_US, "112.540,5" in de_DE);
 * a locale without one (C, POSIX, C.UTF-8) groups by threes with ","
 * ("112,540.5"). Files meant for programs (CSV value columns, JSON, fio
 * jobs, --json output) never use these: they print with g_ascii_formatd()
 * or "%.10g" in the C locale's terms, ungrouped with a ".".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @value with @decimals digits after the mark (0 to 9), grouped as the
 * locale groups, or by threes with "," where the locale has no separator
 * of its own ("112,540" under C.UTF-8 too). "–" when @value is not finite;
 * never "-0". For people only: never in a file a program reads. */
char *duel_number_format (double value,
                          int    decimals);

/* The unit rates are shown in: decimal megabytes (the review's and the
 * stored unit), binary mebibytes, or decimal gigabytes per second. Results
 * and CSV value columns always hold MB/s; this is how they are read. */
typedef enum
{
  DUEL_RATE_UNIT_MB_S,
  DUEL_RATE_UNIT_MIB_S,
  DUEL_RATE_UNIT_GB_S,
} DuelRateUnit;

/* "mb", "mib", "gb" (the CLI's --units and the setting's values). */
gboolean      duel_rate_unit_from_nick   (const char   *nick,
                                          DuelRateUnit *out_unit);
const char   *duel_rate_unit_to_nick     (DuelRateUnit  unit);
/* "MB/s", "MiB/s", "GB/s": symbols, the same in every language. */
const char   *duel_rate_unit_get_symbol  (DuelRateUnit  unit);
/* What the symbol means, for a note under a table ("1 MiB/s = 2^20 bytes per second"). */
const char   *duel_rate_unit_describe    (DuelRateUnit  unit);
/* The digits after the mark that keep about four significant figures
 * for a drive's rates: 1 for MB/s and MiB/s, 2 for GB/s. */
int           duel_rate_unit_get_decimals(DuelRateUnit  unit);
double        duel_rate_unit_from_mb_s   (DuelRateUnit  unit,
                                          double        mb_s);

/* The unit this process shows rates in (MB/s until set): the CLI sets it
 * from --units, the app from its setting. */
void          duel_set_rate_unit         (DuelRateUnit  unit);
DuelRateUnit  duel_get_rate_unit         (void);
/* "3,938.5 MB/s", "3,756.0 MiB/s", "3.94 GB/s" from MB/s, in the process's unit. */
char         *duel_rate_format           (double        mb_s);
/* For round figures (a vendor's rating, a link's ceiling): "3,938 MB/s",
 * "3.94 GB/s". */
char         *duel_rate_format_rounded   (double        mb_s);

G_END_DECLS
