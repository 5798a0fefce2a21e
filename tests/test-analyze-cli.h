/* test-analyze-cli.h — `driveduel-cli analyze --json` against what a run computed
 *
 * Every figure analyze prints for a result file must equal, to the bit,
 * the one the run computed in memory (NAN for NAN), and match what the file
 * stores. Skips when the CLI is not built.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "result/duel-result.h"

static inline gboolean
test_same_value (double a,
                 double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return a == b;
}

static inline void
test_analyze_matches_run (const char *path,
                          DuelResult *result)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *argv[] = { cli, "analyze", "--json", path, NULL };
  JsonArray *tests;
  int status;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("driveduel-cli is not built: the analyze command is not checked");
      return;
    }

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  tests = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests");
  g_assert_cmpuint (json_array_get_length (tests), ==, duel_result_get_tests (result)->len);
  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      JsonObject *test = json_array_get_object_element (tests, i);
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), i);
      JsonArray *figures = json_object_get_array_member (test, "figures");

      g_assert_cmpstr (json_object_get_string_member (test, "name"), ==, record->name);
      g_assert_cmpuint (json_array_get_length (figures), >, 0);
      for (guint k = 0; k < json_array_get_length (figures); k++)
        {
          JsonObject *figure = json_array_get_object_element (figures, k);
          const char *key = json_object_get_string_member (figure, "key");
          JsonNode *node = json_object_get_member (figure, "value");
          double printed = JSON_NODE_HOLDS_NULL (node) ? NAN : json_node_get_double (node);
          double in_memory;

          g_assert_true (duel_test_record_get_figure (record, key, &in_memory));
          if (!test_same_value (printed, in_memory))
            g_error ("analyze printed %s = %.17g for %s, the run computed %.17g",
                     key, printed, record->name, in_memory);
          g_assert_true (json_object_get_boolean_member (figure, "matches_stored"));
        }
    }
}
