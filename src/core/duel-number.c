/* duel-number.c — numbers as the reader's locale writes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "duel-number.h"

/* Inserts @separator into the integer digits @digits (ASCII, no sign) as
 * @grouping says: each byte a group size from the right, the last one
 * repeating, CHAR_MAX or 0 ending the grouping (localeconv(3)). */
static void
append_grouped (GString    *out,
                const char *digits,
                const char *grouping,
                const char *separator)
{
  gsize n = strlen (digits);
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));   /* digits left of each separator */
  gsize left = n;
  guint size = 0;

  for (const char *g = grouping; left > 0; )
    {
      if (*g != '\0')
        {
          if (*g == CHAR_MAX || *g <= 0)
            break;
          size = (guint) *g++;
        }
      if (size == 0 || left <= size)
        break;
      left -= size;
      g_array_append_val (cuts, left);
    }
  for (gsize i = 0, next = cuts->len; i < n; i++)
    {
      if (next > 0 && i == g_array_index (cuts, gsize, next - 1))
        {
          g_string_append (out, separator);
          next--;
        }
      g_string_append_c (out, digits[i]);
    }
}

char *
duel_number_format (double value,
                    int    decimals)
{
  const struct lconv *conv = localeconv ();
  const char *separator = conv->thousands_sep;
  const char *grouping = conv->grouping;
  const char *point = conv->decimal_point != NULL && *conv->decimal_point != '\0' ? conv->decimal_point : ".";
  char buffer[G_ASCII_DTOSTR_BUF_SIZE + 32];
  g_autofree char *format = NULL;
  g_autofree char *digits = NULL;
  GString *out;
  const char *text, *dot;

  if (!isfinite (value))
    return g_strdup ("–");
  decimals = CLAMP (decimals, 0, 9);
  format = g_strdup_printf ("%%.%df", decimals);
  text = g_ascii_formatd (buffer, sizeof buffer, format, value);
  out = g_string_new (NULL);
  if (*text == '-')
    {
      /* "-0.0" is printed as 0: nothing below the last digit shown. */
      if (strspn (text + 1, "0.") != strlen (text + 1))
        g_string_append_c (out, '-');
      text++;
    }
  /* A locale without a separator of its own (C, POSIX, C.UTF-8) still
   * groups: by threes, with a comma. */
  if (separator == NULL || *separator == '\0')
    {
      separator = ",";
      grouping = "\3";
    }
  dot = strchr (text, '.');
  digits = g_strndup (text, dot != NULL ? (gsize) (dot - text) : strlen (text));
  append_grouped (out, digits, grouping != NULL ? grouping : "", separator);
  if (dot != NULL)
    {
      g_string_append (out, point);
      g_string_append (out, dot + 1);
    }
  return g_string_free (out, FALSE);
}

/* ---- rates ---- */

static const struct
{
  const char *nick;
  const char *symbol;
  const char *description;   /* translatable */
  double      bytes;         /* per unit */
  int         decimals;
} rate_units[] = {
  [DUEL_RATE_UNIT_MB_S]  = { "mb",  "MB/s",  N_("1 MB/s = 10⁶ bytes per second"), 1e6, 1 },
  [DUEL_RATE_UNIT_MIB_S] = { "mib", "MiB/s", N_("1 MiB/s = 2²⁰ (1,048,576) bytes per second"), 1048576.0, 1 },
  [DUEL_RATE_UNIT_GB_S]  = { "gb",  "GB/s",  N_("1 GB/s = 10⁹ bytes per second"), 1e9, 2 },
};

static gint rate_unit = DUEL_RATE_UNIT_MB_S;

gboolean
duel_rate_unit_from_nick (const char   *nick,
                          DuelRateUnit *out_unit)
{
  for (guint i = 0; i < G_N_ELEMENTS (rate_units); i++)
    if (g_strcmp0 (nick, rate_units[i].nick) == 0)
      {
        *out_unit = (DuelRateUnit) i;
        return TRUE;
      }
  return FALSE;
}

const char *
duel_rate_unit_to_nick (DuelRateUnit unit)
{
  g_return_val_if_fail ((guint) unit < G_N_ELEMENTS (rate_units), "mb");

  return rate_units[unit].nick;
}

const char *
duel_rate_unit_get_symbol (DuelRateUnit unit)
{
  g_return_val_if_fail ((guint) unit < G_N_ELEMENTS (rate_units), "MB/s");

  return rate_units[unit].symbol;
}

const char *
duel_rate_unit_describe (DuelRateUnit unit)
{
  g_return_val_if_fail ((guint) unit < G_N_ELEMENTS (rate_units), "");

  return _(rate_units[unit].description);
}

int
duel_rate_unit_get_decimals (DuelRateUnit unit)
{
  g_return_val_if_fail ((guint) unit < G_N_ELEMENTS (rate_units), 1);

  return rate_units[unit].decimals;
}

double
duel_rate_unit_from_mb_s (DuelRateUnit unit,
                          double       mb_s)
{
  g_return_val_if_fail ((guint) unit < G_N_ELEMENTS (rate_units), mb_s);

  return mb_s * 1e6 / rate_units[unit].bytes;
}

void
duel_set_rate_unit (DuelRateUnit unit)
{
  g_return_if_fail ((guint) unit < G_N_ELEMENTS (rate_units));

  g_atomic_int_set (&rate_unit, (gint) unit);
}

DuelRateUnit
duel_get_rate_unit (void)
{
  return (DuelRateUnit) g_atomic_int_get (&rate_unit);
}

static char *
rate_format (double mb_s,
             int    decimals)
{
  DuelRateUnit unit = duel_get_rate_unit ();
  g_autofree char *number = NULL;

  if (!isfinite (mb_s))
    return g_strdup ("–");
  number = duel_number_format (duel_rate_unit_from_mb_s (unit, mb_s),
                               decimals >= 0 ? decimals : duel_rate_unit_get_decimals (unit));
  return g_strconcat (number, " ", rate_units[unit].symbol, NULL);
}

char *
duel_rate_format (double mb_s)
{
  return rate_format (mb_s, -1);
}

char *
duel_rate_format_rounded (double mb_s)
{
  return rate_format (mb_s, duel_get_rate_unit () == DUEL_RATE_UNIT_GB_S ? 2 : 0);
}
