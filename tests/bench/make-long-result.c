/* make-long-result.c — a complete result with N rows a test
 *
 * Not a test: what tests/bench/load-bench.sh and tests/bench/analysis-memory.sh
 * load. The records (tests/long-records.h) are what long runs would leave,
 * written by duel_result_save() like any run's, so the file is the
 * loader's usual input at a size no run here reaches: a mix (the default,
 * no preset and no summary; 10^6 rows is an 11-day run at 1 s intervals or
 * 28 h at 100 ms), a fill of the write-saturation preset at 100 ms rows
 * (10^7 rows: a 2x fill of a 16 TB drive) or a consistency run at 1 s rows,
 * the last two summarised as the run would, so analyze checks every
 * figure again.
 *
 *   make-long-result [--kind mix|fill|consistency] [--tests T] [--pause ROW:ROWS…] ROWS OUT.json
 *
 * --tests makes T records of ROWS rows each (a file of many tests).
 * --pause (any number, in row order) records a pause of the process that
 * touched ROWS rows from ROW on, as a SIGSTOP or a suspend would leave it,
 * before the record is summarised: its figures leave those rows out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "long-records.h"

typedef enum
{
  KIND_MIX,
  KIND_FILL,
  KIND_CONSISTENCY,
} Kind;

int
main (int    argc,
      char **argv)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *kind_name = NULL;
  g_auto(GStrv) pauses = NULL;
  gint64 n_tests = 1;
  GOptionEntry entries[] = {
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_name, "mix, fill or consistency", "KIND" },
    { "tests", 0, 0, G_OPTION_ARG_INT64, &n_tests, "how many tests", "T" },
    { "pause", 0, 0, G_OPTION_ARG_STRING_ARRAY, &pauses, "a pause that touched ROWS rows from ROW on", "ROW:ROWS" },
    { NULL }
  };
  Kind kind = KIND_MIX;
  DuelTargetInfo target = {
    .path = (char *) "/dev/nvme0n1",
    .kind = DUEL_TARGET_KIND_BLOCK,
    .size_bytes = LONG_RECORD_TARGET_BYTES,
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };
  guint64 rows;

  setlocale (LC_ALL, "");
  context = g_option_context_new ("ROWS OUT.json");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 3 ||
      !g_ascii_string_to_unsigned (argv[1], 10, 1, G_MAXUINT32, &rows, NULL) || n_tests < 1)
    {
      fprintf (stderr, "usage: make-long-result [--kind mix|fill|consistency] [--tests T] [--pause ROW:ROWS…] ROWS OUT.json\n");
      return 2;
    }
  if (g_strcmp0 (kind_name, "fill") == 0)
    kind = KIND_FILL;
  else if (g_strcmp0 (kind_name, "consistency") == 0)
    kind = KIND_CONSISTENCY;
  else if (kind_name != NULL && strcmp (kind_name, "mix") != 0)
    {
      fprintf (stderr, "make-long-result: unknown kind %s\n", kind_name);
      return 2;
    }

  duel_result_set_name (result, "Long run");
  for (gint64 t = 0; t < n_tests; t++)
    {
      g_autoptr(DuelTestRecord) record = NULL;

      switch (kind)
        {
        case KIND_FILL:        record = long_record_fill (rows, rand); break;
        case KIND_CONSISTENCY: record = long_record_consistency (rows, rand); break;
        case KIND_MIX:
        default:               record = long_record_mix (rows, rand); break;
        }
      for (guint p = 0; pauses != NULL && pauses[p] != NULL; p++)
        {
          g_auto(GStrv) parts = g_strsplit (pauses[p], ":", 2);
          guint64 row, n;
          DuelPause pause = { .length_ns = 60 * G_GUINT64_CONSTANT (1000000000) };

          if (g_strv_length (parts) != 2 ||
              !g_ascii_string_to_unsigned (parts[0], 10, 0, rows - 1, &row, NULL) ||
              !g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT32, &n, NULL))
            {
              fprintf (stderr, "make-long-result: --pause %s: ROW:ROWS, ROW below %" G_GUINT64_FORMAT "\n",
                       pauses[p], rows);
              return 2;
            }
          pause.row = (guint) row;
          pause.rows = (guint) n;
          pause.at_ms = row > 0 ? duel_series_get_row (record->series, (guint) row - 1)->t_ms : 0;
          pause.fraction = (double) row / (double) rows;
          duel_test_record_add_pause (record, &pause);
        }
      /* Summarised as the run summarises each step. */
      if (kind != KIND_MIX)
        {
          DuelAnalysisKind analysis = duel_analysis_kind_for_test_name (record->name);
          g_autoptr(DuelSummary) summary = duel_analysis_summarize (record, analysis, NULL);

          duel_analysis_apply (record, analysis, NULL, summary);
        }
      /* The drive is as large as the span (a 16 TB drive for a fill of 10^7 rows). */
      target.size_bytes = MAX (target.size_bytes, record->span_length);
      duel_result_add_test (result, record);
    }
  duel_result_set_target (result, &target);
  if (!duel_result_save (result, argv[2], &error))
    {
      fprintf (stderr, "make-long-result: %s\n", error->message);
      return 1;
    }
  return 0;
}
