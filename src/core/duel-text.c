/* duel-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "duel-text.h"

static inline gboolean
is_control (gunichar c)
{
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) ||
         (c >= 0x202a && c <= 0x202e) ||           /* embeddings, overrides */
         (c >= 0x2066 && c <= 0x2069) ||           /* isolates */
         c == 0x200e || c == 0x200f || c == 0x061c; /* marks */
}

gboolean
duel_text_has_controls (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (g_utf8_validate (text, -1, NULL), FALSE);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      /* Plain printable ASCII, the usual case, without decoding. */
      if ((guchar) *p >= 0x20 && (guchar) *p < 0x7f)
        continue;
      if (is_control (g_utf8_get_char (p)))
        return TRUE;
    }
  return FALSE;
}

char *
duel_text_escape (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  /* A parse error's excerpt may cut a character in two. */
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  if (!duel_text_has_controls (text))
    return g_strdup (text);
  out = g_string_sized_new (strlen (text) + 16);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x80 && is_control (c))
        g_string_append_printf (out, "\\x%02x", (guint) c);
      else if (is_control (c))
        g_string_append_printf (out, "\\u%04X", (guint) c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}

char *
duel_text_bound (const char *text,
                 gsize       max_chars)
{
  g_autofree char *head = NULL;
  const char *end;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (max_chars > 0, NULL);

  if ((gsize) g_utf8_strlen (text, -1) <= max_chars)
    return g_strdup (text);
  end = g_utf8_offset_to_pointer (text, (glong) max_chars - 1);
  head = g_strndup (text, end - text);
  return g_strconcat (head, "…", NULL);
}

static void make_node_printable (JsonNode *node, gboolean is_name);

static void
make_member_printable (JsonObject  *object,
                       const char  *member_name,
                       JsonNode    *member_node,
                       gpointer     user_data)
{
  /* Ours ("name") and fio's ("jobname"). */
  make_node_printable (member_node, strcmp (member_name, "name") == 0 || strcmp (member_name, "jobname") == 0);
}

static void
make_node_printable (JsonNode *node,
                     gboolean  is_name)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      json_object_foreach_member (json_node_get_object (node), make_member_printable, NULL);
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        for (guint i = 0; i < n; i++)
          {
            JsonNode *element = json_array_get_element (array, i);

            /* Series columns are long arrays of numbers: nothing to do. */
            if (JSON_NODE_TYPE (element) != JSON_NODE_VALUE ||
                json_node_get_value_type (element) == G_TYPE_STRING)
              make_node_printable (element, FALSE);
          }
        break;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          const char *text = json_node_get_string (node);
          g_autofree char *escaped = NULL;
          g_autofree char *bounded = NULL;

          /* Invalid UTF-8 is the loaders' to refuse, with its field name. */
          if (!g_utf8_validate (text, -1, NULL))
            break;
          if (duel_text_has_controls (text))
            escaped = duel_text_escape (text);
          if (is_name && g_utf8_strlen (escaped ? escaped : text, -1) > DUEL_TEXT_NAME_MAX_CHARS)
            bounded = duel_text_bound (escaped ? escaped : text, DUEL_TEXT_NAME_MAX_CHARS);
          if (bounded != NULL)
            json_node_set_string (node, bounded);
          else if (escaped != NULL)
            json_node_set_string (node, escaped);
        }
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

void
duel_text_make_printable (JsonNode *root)
{
  g_return_if_fail (root != NULL);

  make_node_printable (root, FALSE);
}

glong
duel_text_columns (const char *text)
{
  glong columns = 0;

  g_return_val_if_fail (text != NULL, 0);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      columns += g_unichar_iswide (c) ? 2 : 1;
    }
  return columns;
}

char *
duel_text_format_time (GDateTime *time)
{
  g_autoptr(GDateTime) local = NULL;

  g_return_val_if_fail (time != NULL, NULL);

  local = g_date_time_to_local (time);
  /* TRANSLATORS: a date and time as g_date_time_format() takes it: "Dec 6, 2026 11:30".
   * Spell the month or order the fields as your language does ("%Y年%-m月%-d日 %H:%M"). */
  return g_date_time_format (local, _("%b %-d, %Y %H:%M"));
}

char *
duel_text_format_duration (double seconds)
{
  guint64 s;

  if (!isfinite (seconds) || seconds < 0)
    return g_strdup ("?");
  s = (guint64) llround (seconds);
  if (s >= 3600)
    /* TRANSLATORS: a duration, e.g. "2 h 05 min" */
    return g_strdup_printf (_("%" PRIu64 " h %02" PRIu64 " min"), s / 3600, (s % 3600) / 60);
  if (s >= 60)
    /* TRANSLATORS: a duration, e.g. "3 min 20 s" */
    return g_strdup_printf (_("%" PRIu64 " min %02" PRIu64 " s"), s / 60, s % 60);
  /* TRANSLATORS: a duration in seconds */
  return g_strdup_printf (_("%" PRIu64 " s"), s);
}
