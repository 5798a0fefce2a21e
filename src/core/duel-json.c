/* duel-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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
