/* duel-size.c — sizes as people and fio write them: "4k", "8 GiB", "2x"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-size.h"

static gboolean
parse_scaled (const char  *text,
              gboolean     allow_fraction,
              double      *out_value,
              guint64     *out_scale,
              const char **out_rest)
{
  char *end = NULL;
  double value;
  guint64 scale = 1;

  /* strtod would also take leading blanks, signs, "inf" and hex. */
  if ((!g_ascii_isdigit (text[0]) && !(text[0] == '.' && g_ascii_isdigit (text[1]))) ||
      strpbrk (text, "xX") != NULL)
    return FALSE;

  errno = 0;
  value = g_ascii_strtod (text, &end);
  if (end == text || errno != 0 || !isfinite (value) || value < 0)
    return FALSE;
  if (!allow_fraction && value != floor (value))
    return FALSE;

  switch (g_ascii_tolower (*end))
    {
    case 'k': scale = G_GUINT64_CONSTANT (1) << 10; end++; break;
    case 'm': scale = G_GUINT64_CONSTANT (1) << 20; end++; break;
    case 'g': scale = G_GUINT64_CONSTANT (1) << 30; end++; break;
    case 't': scale = G_GUINT64_CONSTANT (1) << 40; end++; break;
    case 'p': scale = G_GUINT64_CONSTANT (1) << 50; end++; break;
    default: break;
    }
  if (scale > 1)
    {
      /* Accept "4k", "4K", "4KiB", "4kb" alike. */
      if (g_ascii_tolower (end[0]) == 'i' && g_ascii_tolower (end[1]) == 'b')
        end += 2;
      else if (g_ascii_tolower (end[0]) == 'b')
        end++;
    }

  *out_value = value;
  *out_scale = scale;
  *out_rest = end;
  return TRUE;
}

gboolean
duel_parse_size (const char  *text,
                 guint64     *out_bytes,
                 GError     **error)
{
  double value;
  guint64 scale;
  const char *rest;
  double bytes;
  gsize digits;

  g_return_val_if_fail (out_bytes != NULL, FALSE);

  if (text == NULL || !parse_scaled (text, TRUE, &value, &scale, &rest) || *rest != '\0')
    goto bad;

  /* Whole numbers exactly: a double loses bytes above 2^53. */
  digits = strspn (text, "0123456789");
  if (digits > 0 && (text[digits] == '\0' || strchr ("kmgtpKMGTP", text[digits]) != NULL))
    {
      g_autofree char *number = g_strndup (text, digits);
      guint64 whole;

      if (!g_ascii_string_to_unsigned (number, 10, 0, G_MAXUINT64, &whole, NULL) ||
          (whole != 0 && scale > G_MAXUINT64 / whole))
        goto bad;
      *out_bytes = whole * scale;
      return TRUE;
    }

  bytes = value * (double) scale;
  if (bytes != floor (bytes) || bytes >= 18446744073709551616.0)
    goto bad;
  *out_bytes = (guint64) bytes;
  return TRUE;

bad:
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
               _("“%s” is not a size: use bytes or a number with k, m, g or t (powers of 1024)."),
               text ? text : "");
  return FALSE;
}

gboolean
duel_parse_size_or_multiple (const char  *text,
                             guint64     *out_bytes,
                             double      *out_multiple,
                             GError     **error)
{
  gsize len;

  g_return_val_if_fail (out_bytes != NULL, FALSE);
  g_return_val_if_fail (out_multiple != NULL, FALSE);

  len = text ? strlen (text) : 0;
  if (len > 1 && g_ascii_tolower (text[len - 1]) == 'x')
    {
      g_autofree char *number = g_strndup (text, len - 1);
      char *end = NULL;
      double multiple = g_ascii_strtod (number, &end);

      if (!(g_ascii_isdigit (number[0]) || number[0] == '.') ||
          end == number || *end != '\0' || !isfinite (multiple) || multiple <= 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a multiple of the span: use a positive number followed by x, such as 2x."),
                       text);
          return FALSE;
        }
      *out_bytes = 0;
      *out_multiple = multiple;
      return TRUE;
    }

  *out_multiple = 0;
  return duel_parse_size (text, out_bytes, error);
}

char *
duel_format_size (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

char *
duel_format_size_as_given (guint64 bytes)
{
  static const struct { guint64 unit; const char *name; } binary[] = {
    { G_GUINT64_CONSTANT (1) << 40, "TiB" },
    { G_GUINT64_CONSTANT (1) << 30, "GiB" },
    { G_GUINT64_CONSTANT (1) << 20, "MiB" },
    { G_GUINT64_CONSTANT (1) << 10, "KiB" },
  };
  static const char * const decimal[] = { "kB", "MB", "GB", "TB", "PB" };
  guint64 unit = 1000;
  guint i;

  /* A span of 256 MiB was asked as such; a whole device's odd size reads
   * better as its maker writes it than as 488386584 KiB. */
  for (i = 0; i < G_N_ELEMENTS (binary); i++)
    if (bytes >= binary[i].unit && bytes % binary[i].unit == 0 && bytes / binary[i].unit < 10000)
      return g_strdup_printf ("%" G_GUINT64_FORMAT "\u00a0%s", bytes / binary[i].unit, binary[i].name);
  if (bytes < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "\u00a0B", bytes);
  for (i = 0; bytes / (double) unit >= 999.95 && i + 1 < G_N_ELEMENTS (decimal); i++)
    unit *= 1000;
  /* "512 GB" as sold, "268.4 MB" otherwise. */
  if (bytes % unit == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "\u00a0%s", bytes / unit, decimal[i]);
  return g_strdup_printf ("%.1f\u00a0%s", bytes / (double) unit, decimal[i]);
}
