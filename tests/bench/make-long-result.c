/* make-long-result.c — a complete result of one test with N one-second rows
 *
 * Not a test: what tests/bench/load-bench.sh loads. The record is what a
 * long 4 KiB random mix would leave (rates that vary, a temperature in
 * four rows of five, a few latencies per row in the histograms), written by
 * duel_result_save() like any run's, so the file is the loader's usual
 * input at a size no run here reaches: 10^6 rows is an 11-day run at 1 s
 * intervals or 28 h at 100 ms, the size of a 2x fill of a large drive.
 *
 *   make-long-result ROWS OUT.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>

#include "duel-result.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GError) error = NULL;
  DuelWorkload workload;
  DuelTargetInfo target = {
    .path = (char *) "/dev/nvme0n1",
    .kind = DUEL_TARGET_KIND_BLOCK,
    .size_bytes = G_GUINT64_CONSTANT (1000204886016),
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };
  guint64 rows;

  setlocale (LC_ALL, "");
  if (argc != 3 || !g_ascii_string_to_unsigned (argv[1], 10, 1, G_MAXUINT32, &rows, NULL))
    {
      fprintf (stderr, "usage: make-long-result ROWS OUT.json\n");
      return 2;
    }

  duel_result_set_target (result, &target);
  duel_result_set_name (result, "Long run");
  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randrw", NULL);
  workload.interval_ms = 1000;
  workload.queue_depth = 32;
  workload.runtime_ms = rows * 1000;
  record = duel_test_record_new ("randrw-qd32", &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = target.size_bytes;
  record->runtime_ns = rows * G_GUINT64_CONSTANT (1000000000);
  for (guint64 i = 0; i < rows; i++)
    {
      DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = i % 5 ? 41.5 + (i % 7) * 0.5 : NAN };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = 150000 + g_rand_int_range (rand, 0, 50000);
          row.bytes[d] = row.ops[d] * 4096;
          for (guint k = 0; k < 4; k++)
            {
              guint64 lat = (guint64) (20000 * exp (g_rand_double_range (rand, 0, 5)));

              duel_histogram_add (record->latency[d], lat);
              row.lat_max_ns[d] = MAX (row.lat_max_ns[d], lat);
            }
        }
      duel_series_append (record->series, &row);
    }
  duel_result_add_test (result, record);
  if (!duel_result_save (result, argv[2], &error))
    {
      fprintf (stderr, "make-long-result: %s\n", error->message);
      return 1;
    }
  return 0;
}
