/* duel-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "duel-error.h"

G_DEFINE_QUARK (duel-error-quark, duel_error)

/* @text with every control character written as an escape (\n, \t, \r,
 * \x1b...): a message quoting a file's contents (a job name, a parse error's
 * excerpt) stays one line and cannot drive the terminal it is printed on. */
char *
duel_error_escape_controls (const char *text)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text));
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '\n': g_string_append (out, "\\n"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\x%02x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  return g_string_free (out, FALSE);
}
