/* fuzz-common.h — what every libFuzzer target does with a result it got
 *
 * A result that loaded (or was imported) goes through everything the CLI and
 * the app do with an opened file: saved and loaded again, every test
 * re-analysed, compared with itself, exported as a fio job file. Each of those
 * is a place a hostile file could reach.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "fio/duel-fio-export.h"
#include "result/duel-result.h"

int LLVMFuzzerInitialize   (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* DRIVEDUEL_FUZZ_NO_ROUND_TRIP=1 leaves the save-and-reload check out, to
 * look for memory errors past a known round-trip bug. */
static gboolean fuzz_round_trip = TRUE;

static void
fuzz_init (void)
{
  fuzz_round_trip = g_strcmp0 (g_getenv ("DRIVEDUEL_FUZZ_NO_ROUND_TRIP"), "1") != 0;
  /* A g_return_if_fail or a GLib warning on hostile input is a bug too. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_setenv ("LC_ALL", "C", TRUE);
}

G_GNUC_NORETURN static void
fuzz_fail (const char *what,
           const char *detail)
{
  fprintf (stderr, "fuzz invariant broken: %s%s%s\n", what,
           detail ? ": " : "", detail ? detail : "");
  abort ();
}

static char *
fuzz_result_to_text (DuelResult *result)
{
  g_autoptr(JsonNode) node = duel_result_to_json (result);

  return json_to_string (node, FALSE);
}

/* What saving writes must load again and save to the same text: a file
 * Drive Duel wrote can always be opened. */
static void
fuzz_check_round_trip (DuelResult *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) again = NULL;
  g_autofree char *text = fuzz_result_to_text (result);
  g_autofree char *text2 = NULL;

  again = duel_result_load_from_data (text, strlen (text), "saved copy", &error);
  if (again == NULL)
    {
      fprintf (stderr, "saved text:\n%s\n", text);
      fuzz_fail ("a saved result does not load again", error->message);
    }
  text2 = fuzz_result_to_text (again);
  if (strcmp (text, text2) != 0)
    {
      fprintf (stderr, "first save:\n%s\nsecond save:\n%s\n", text, text2);
      fuzz_fail ("saving a reloaded result changes it", NULL);
    }
}

static void
fuzz_exercise_result (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *job_file = NULL;

  /* As the window and the CLI do after a load. */
  duel_analysis_update_result (result);
  if (fuzz_round_trip)
    fuzz_check_round_trip (result);

  (void) duel_result_get_name (result);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind = DUEL_ANALYSIS_NONE;

      summary = duel_analysis_resummarize (record, &kind, &local_error);
      if (summary == NULL)
        continue;
      for (guint f = 0; f < duel_summary_get_n_figures (summary); f++)
        g_free (duel_figure_format (duel_summary_get_key (summary, f),
                                    duel_summary_get_value (summary, f)));
    }

  /* A duel of the result with itself walks every row. */
  comparison = duel_comparison_new (result, result, &error);
  if (comparison != NULL)
    {
      for (guint r = 0; r < duel_comparison_get_n_rows (comparison); r++)
        (void) duel_comparison_get_row (comparison, r);
      (void) duel_comparison_get_warnings (comparison);
    }

  job_file = duel_fio_export_result (result);
}
