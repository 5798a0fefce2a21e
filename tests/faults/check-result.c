/* check-result.c — loads a result file with the real loader and checks it
 *
 * Usage: check-result FILE [--status STATUS] [--min-rows N] [--error-contains TEXT]
 *                          [--pauses N] [--min-pause-ms MS] [--min-empty-rows N]
 * Prints what the file holds; exits 0 when it loads and every check holds,
 * 1 otherwise. The fault tests use it on the partial results of failed runs;
 * test-ssd-stall.sh on runs across a stall of the device: the pauses
 * recorded (how many, their total length) and the longest run of rows
 * without an I/O.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/duel-result.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  const char *want_status = NULL, *want_error = NULL;
  guint64 min_rows = 0, min_pause_ms = 0, min_empty = 0;
  gint64 want_pauses = -1;
  GPtrArray *tests;
  gboolean ok = TRUE;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE [--status S] [--min-rows N] [--error-contains TEXT] [--pauses N] [--min-pause-ms MS] [--min-empty-rows N]\n", argv[0]);
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
      else if (strcmp (argv[i], "--pauses") == 0)
        want_pauses = (gint64) g_ascii_strtoull (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--min-pause-ms") == 0)
        min_pause_ms = g_ascii_strtoull (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--min-empty-rows") == 0)
        min_empty = g_ascii_strtoull (argv[i + 1], NULL, 10);
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
      guint n_pauses = duel_test_record_get_n_pauses (record);
      guint64 paused_ns = 0;
      guint empty = 0, longest_empty = 0;

      printf ("%s: test %s: %s, %u rows, %" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT " writes%s%s\n",
              argv[1], record->name, status, rows,
              duel_test_record_get_ops (record, DUEL_DIRECTION_READ),
              duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE),
              record->error_message ? "; error: " : "",
              record->error_message ? record->error_message : "");
      for (guint p = 0; p < n_pauses; p++)
        {
          const DuelPause *pause = duel_test_record_get_pause (record, p);

          printf ("  pause %u: at %" G_GUINT64_FORMAT " ms, row %u (+%u), %.3f s, %" G_GUINT64_FORMAT " latencies left out\n",
                  p + 1, pause->at_ms, pause->row, pause->rows, pause->length_ns / 1e9,
                  pause->latencies_left_out);
          paused_ns += pause->length_ns;
        }
      for (guint r = 0; r < rows; r++)
        {
          const DuelSeriesRow *row = duel_series_get_row (record->series, r);

          empty = row->ops[0] + row->ops[1] == 0 ? empty + 1 : 0;
          longest_empty = MAX (longest_empty, empty);
        }
      printf ("  %u pauses, the longest run of rows without an I/O: %u\n", n_pauses, longest_empty);
      /* The checks apply to the last test: the one a fault stopped. */
      if (i + 1 < tests->len)
        continue;
      if (want_pauses >= 0 && n_pauses != (guint64) want_pauses)
        {
          printf ("  expected %" G_GINT64_FORMAT " pauses\n", want_pauses);
          ok = FALSE;
        }
      if (paused_ns < min_pause_ms * G_GUINT64_CONSTANT (1000000))
        {
          printf ("  expected pauses of at least %" G_GUINT64_FORMAT " ms in all\n", min_pause_ms);
          ok = FALSE;
        }
      if (longest_empty < min_empty)
        {
          printf ("  expected a run of at least %" G_GUINT64_FORMAT " rows without an I/O\n", min_empty);
          ok = FALSE;
        }
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
