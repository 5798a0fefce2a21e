/* duel-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-json.h"

gboolean
duel_json_node_is_integer (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

gboolean
duel_json_node_is_number (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static JsonNode *
get_member (JsonObject *object,
            const char *member)
{
  return object != NULL ? json_object_get_member (object, member) : NULL;
}

JsonObject *
duel_json_get_object (JsonObject *object,
                      const char *member)
{
  JsonNode *node = get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
duel_json_get_array (JsonObject *object,
                     const char *member)
{
  JsonNode *node = get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

const char *
duel_json_get_string (JsonObject *object,
                      const char *member)
{
  JsonNode *node = get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

gboolean
duel_json_get_number (JsonObject *object,
                      const char *member,
                      double     *out_value)
{
  JsonNode *node = get_member (object, member);
  double value;

  if (!duel_json_node_is_number (node))
    return FALSE;
  value = json_node_get_double (node);
  if (!isfinite (value))
    return FALSE;
  *out_value = value;
  return TRUE;
}

void
duel_json_set_double_or_null (JsonObject *object,
                              const char *member,
                              double      value)
{
  if (isfinite (value))
    json_object_set_double_member (object, member, duel_json_writable_double (value));
  else
    json_object_set_null_member (object, member);
}

double
duel_json_writable_double (double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  /* json-glib formats with g_ascii_dtostr(), as here. A step of one ulp
   * gives seventeen digits, hence a point. */
  for (guint i = 0; i < 4 && isfinite (value); i++)
    {
      g_ascii_dtostr (text, sizeof text, value);
      if (strchr (text, '.') != NULL || strpbrk (text, "eE") == NULL)
        break;
      value = nextafter (value, value < 0 ? -G_MAXDOUBLE : G_MAXDOUBLE);
    }
  return value;
}

gboolean
duel_json_error_position (const char *message,
                          guint64    *out_line,
                          guint64    *out_column)
{
  const char *p;
  char *end;
  guint64 line, column;

  g_return_val_if_fail (out_line != NULL && out_column != NULL, FALSE);

  if (message == NULL || !g_str_has_prefix (message, "<data>:"))
    return FALSE;
  p = message + strlen ("<data>:");
  line = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':' || line == 0)
    return FALSE;
  p = end + 1;
  column = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':')
    return FALSE;
  *out_line = line;
  *out_column = column;
  return TRUE;
}

/* Deeper documents are refused before json-glib's recursive parser sees them. */
#define MAX_NESTING 256

/* Four hex digits at @at, or G_MAXUINT. */
static guint
hex4 (const char *data,
      gsize       length,
      gsize       at)
{
  guint value = 0;

  if (at + 4 > length)
    return G_MAXUINT;
  for (gsize k = at; k < at + 4; k++)
    {
      int digit = g_ascii_xdigit_value (data[k]);

      if (digit < 0)
        return G_MAXUINT;
      value = value * 16 + (guint) digit;
    }
  return value;
}

/* Whether @data begins as a JSON value does: an object, an array, a
 * string, a number, or true, false or null as a whole word. */
static gboolean
starts_json_value (const char *data,
                   gsize       length)
{
  static const char * const words[] = { "true", "false", "null" };

  if (strchr ("{[\"-0123456789", data[0]) != NULL)
    return TRUE;
  for (guint w = 0; w < G_N_ELEMENTS (words); w++)
    {
      gsize n = strlen (words[w]);

      if (length >= n && strncmp (data, words[w], n) == 0 && (length == n || !g_ascii_isalnum (data[n])))
        return TRUE;
    }
  return FALSE;
}

/* What json-glib 1.6 gets wrong on hostile input, checked on the raw text:
 * nesting deep enough to overflow its recursive descent, and integers
 * outside int64, which it wraps around without an error. */
gboolean
duel_json_prescan (const char  *data,
                   gsize        length,
                   const char **out_problem)
{
  guint depth = 0;
  guint top_level_values = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\' && i + 1 < length && data[i + 1] == 'u')
            {
              guint unit = hex4 (data, length, i + 2);

              /* JSON wants four hex digits; json-glib 1.6 reads a shorter
               * escape as another code unit (swallowing the character
               * after it) and leaks the string when that unit is a
               * surrogate without its pair. */
              if (unit == G_MAXUINT)
                goto bad_escape;
              /* json-glib ends a string at a NUL: "ID\u0000x" would read
               * as "ID", another text than the file holds (a journal's id,
               * a test's name, a key). Drive Duel never writes one. */
              if (unit == 0)
                goto nul_escape;
              /* A lone surrogate becomes invalid UTF-8 in json-glib. */
              if (unit >= 0xdc00 && unit <= 0xdfff)
                goto bad_escape;
              if (unit >= 0xd800 && unit <= 0xdbff)
                {
                  guint low = (i + 7 < length && data[i + 6] == '\\' && data[i + 7] == 'u')
                              ? hex4 (data, length, i + 8) : G_MAXUINT;

                  if (low < 0xdc00 || low > 0xdfff)
                    goto bad_escape;
                  i += 6; /* the low half is part of this character */
                }
              i += 5;
            }
          else if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      /* Text that does not begin as JSON does (a note, a web page) is the
       * parser's to refuse as "not valid JSON", not more than one value
       * word by word. */
      if (depth == 0 && top_level_values == 0 && !g_ascii_isspace (c) && !starts_json_value (data + i, length - i))
        return TRUE;
      /* json-glib 1.6 leaks what it parsed when more follows the first
       * value: allow exactly one value at the top level. */
      if (depth == 0 && !g_ascii_isspace (c) && ++top_level_values > 1)
        {
          *out_problem = _("it holds more than one JSON value");
          return FALSE;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;

        case '[':
        case '{':
          if (++depth > MAX_NESTING)
            {
              *out_problem = _("it is nested too deeply");
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        case '-':
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          {
            gsize start = i, digits = 0;
            gboolean fraction = FALSE;
            char buffer[32];
            gint64 ignored;

            if (data[i] == '-')
              i++;
            while (i < length && g_ascii_isdigit (data[i]))
              i++, digits++;
            while (i < length && (data[i] == '.' || data[i] == 'e' || data[i] == 'E' ||
                                  data[i] == '+' || data[i] == '-' || g_ascii_isdigit (data[i])))
              i++, fraction = TRUE;
            if (!fraction && digits > 0)
              {
                gsize len = i - start;

                if (len >= sizeof buffer)
                  goto too_large;
                memcpy (buffer, data + start, len);
                buffer[len] = '\0';
                if (!g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &ignored, NULL))
                  goto too_large;
              }
            i--;
          }
          break;

        default:
          /* true, false, null (or a word that is none of them, which the
           * parser refuses): one value, not one per letter. */
          if (g_ascii_isalpha (c))
            while (i + 1 < length && g_ascii_isalnum (data[i + 1]))
              i++;
          break;
        }
    }
  return TRUE;

too_large:
  *out_problem = _("it holds an integer too large for 64 bits");
  return FALSE;

bad_escape:
  *out_problem = _("it holds a \\u escape that is not a valid character");
  return FALSE;

nul_escape:
  *out_problem = _("it holds a NUL character (\\u0000) in a text, which would be read cut short");
  return FALSE;
}

/* A deep copy of free-form data (device, rated, details) with non-finite
 * numbers replaced by null, so the file always parses. */
static JsonNode *
copy_writable (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *from = json_node_get_object (node);
        JsonObject *to = json_object_new ();
        JsonNode *copy = json_node_new (JSON_NODE_OBJECT);
        JsonObjectIter iter;
        const char *member;
        JsonNode *value;

        json_object_iter_init_ordered (&iter, from);
        while (json_object_iter_next_ordered (&iter, &member, &value))
          json_object_set_member (to, member, copy_writable (value));
        json_node_take_object (copy, to);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *from = json_node_get_array (node);
        guint n = json_array_get_length (from);
        JsonArray *to = json_array_sized_new (n);
        JsonNode *copy = json_node_new (JSON_NODE_ARRAY);

        for (guint i = 0; i < n; i++)
          json_array_add_element (to, copy_writable (json_array_get_element (from, i)));
        json_node_take_array (copy, to);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
          !isfinite (json_node_get_double (node)))
        return json_node_new (JSON_NODE_NULL);
      return json_node_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

JsonObject *
duel_json_object_copy_writable (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  copy = copy_writable (node);
  return json_node_dup_object (copy);
}
