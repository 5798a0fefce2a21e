/* check-result.c — loads a result file with the real loader and checks it
 *
 * Usage: check-result FILE [--status STATUS] [--min-rows N] [--error-contains TEXT]
 * Prints what the file holds; exits 0 when it loads and every check holds,
 * 1 otherwise. The fault tests use it on the partial results of failed runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel-result.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  const char *want_status = NULL, *want_error = NULL;
  guint64 min_rows = 0;
  GPtrArray *tests;
  gboolean ok = TRUE;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE [--status S] [--min-rows N] [--error-contains TEXT]\n", argv[0]);
      return 2;
    }
  for (int i = 2; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--status") == 0)
        want_status = argv[i + 1];
      else if (strcmp (argv[i], "--min-rows") == 0)
        min_rows = g_ascii_strtoull (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--error-contains") == 0)
        want_error = argv[i + 1];
      else
        {
          fprintf (stderr, "%s: unknown option %s\n", argv[0], argv[i]);
          return 2;
        }
    }

  result = duel_result_load (argv[1], &error);
  if (result == NULL)
    {
      printf ("%s does not load: %s\n", argv[1], error->message);
      return 1;
    }

  tests = duel_result_get_tests (result);
  if (tests->len == 0)
    {
      printf ("%s holds no test\n", argv[1]);
      return 1;
    }
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      guint rows = duel_series_get_length (record->series);
      const char *status = duel_test_status_to_string (record->status);

      printf ("%s: test %s: %s, %u rows, %" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT " writes%s%s\n",
              argv[1], record->name, status, rows,
              duel_test_record_get_ops (record, DUEL_DIRECTION_READ),
              duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE),
              record->error_message ? "; error: " : "",
              record->error_message ? record->error_message : "");
      /* The checks apply to the last test: the one a fault stopped. */
      if (i + 1 < tests->len)
        continue;
      if (want_status != NULL && strcmp (status, want_status) != 0)
        {
          printf ("  expected status %s\n", want_status);
          ok = FALSE;
        }
      if (rows < min_rows)
        {
          printf ("  expected at least %" G_GUINT64_FORMAT " rows\n", min_rows);
          ok = FALSE;
        }
      if (want_error != NULL &&
          (record->error_message == NULL || strstr (record->error_message, want_error) == NULL))
        {
          printf ("  expected the stored error to contain “%s”\n", want_error);
          ok = FALSE;
        }
    }
  return ok ? 0 : 1;
}
