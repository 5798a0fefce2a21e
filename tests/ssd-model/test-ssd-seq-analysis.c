/* test-ssd-seq-analysis.c — the sustained sequential write's analysis against the simulated SSD's own account
 *
 * The sequential fill of drives of the model with a pseudo-SLC cache
 * (ssd_seq_random_config(): caches of 0 to 50 % of the capacity, a quarter
 * without one, TLC and QLC, spare area 3–40 %, 1–16 units), counted into
 * the engine's rows on the model's clock (ssd-virtual-seq.c), analysed as
 * a run's record is (duel_analysis_summarize(), the same fall finder as
 * the random fill's). Held against what the model logged:
 *  - a drive with a cache: the cache found (seqw_cache_gb) within 2 % of
 *    the capacity (or within the resolution the analysis states, where
 *    that is wider) of the bytes written when the model's cache first ran
 *    out; the speed after it within 5 % of the model's own rate over the
 *    stretch after the cache (straight to the native cells, or folding);
 *    a cache that ran out within the first 5 % of the capacity (the
 *    curve a fall is judged on before it) may go unfound, never misplaced;
 *  - a drive without one: no fall invented.
 *
 * 120 drives, fixed seeds, the model's clock: the same verdict on any
 * host and under a sanitizer. DUEL_SSD_CONFIGS=N runs N (a campaign).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/duel-analysis.h"
#include "ssd-virtual-seq.h"

#define CONFIGS 120

/* The model's sequential fill as a finished record of the test. */
static DuelTestRecord *
record_of (const SsdSeqPlan  *plan,
           const SsdSeqTruth *truth,
           DuelSeries        *rows)
{
  DuelWorkload w;
  DuelTestRecord *record;

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "write", NULL));
  w.block_size = plan->block_bytes;
  w.queue_depth = plan->queue_depth;
  w.interval_ms = plan->interval_ms;
  w.size_multiple = 1;
  w.span_length = truth->capacity_bytes;
  record = duel_test_record_new ("seqw-fill", &w);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->preset = g_strdup ("sequential-write");
  record->span_length = truth->capacity_bytes;
  record->byte_limit = truth->capacity_bytes;
  record->runtime_ns = (guint64) llround (truth->fill_s * 1e9);
  duel_series_free (record->series);
  record->series = duel_series_copy (rows);
  return record;
}

static void
test_seq_analysis_on_model (void)
{
  const char *env = g_getenv ("DUEL_SSD_CONFIGS");
  guint n_configs = env != NULL ? (guint) atoi (env) : CONFIGS;
  guint with_cache = 0, without = 0;
  double worst_cache_pct = 0, worst_after = 0;
  guint failures = 0, too_small = 0, within_2 = 0;
  const char *block_env = g_getenv ("DUEL_SSD_BLOCK");
  /* Sequential writes of one 4 KiB page: the model's drives are slowed to
   * give 150–400 rows on 64–256 MiB, so a row holds about 100 of them,
   * where 64 KiB writes left 3–10, a quantisation no real drive's rows have
   * (1 MiB writes at 1 GB/s are a thousand a second). DUEL_SSD_BLOCK sets it. */
  guint block_bytes = block_env != NULL ? (guint) atoi (block_env) : 4096;

  for (guint c = 0; c < n_configs; c++)
    {
      SsdConfig cfg;
      SsdSeqPlan plan;
      SsdSeqTruth truth;
      SsdSeqRows rows = { 0 };
      char what[512];
      g_autoptr(DuelTestRecord) record = NULL;
      g_autoptr(DuelSummary) summary = NULL;
      double cache_gb, after_mbps;

      ssd_seq_random_config (c + 1, &cfg, &plan, what, sizeof what);
      plan.block_bytes = block_bytes;
      ssd_virtual_seq_run (&cfg, &plan, &truth, &rows);
      record = record_of (&plan, &truth, rows.fill);
      summary = duel_analysis_summarize (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL);
      duel_analysis_apply (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL, summary);
      cache_gb = duel_test_record_get_figure_value (record, "seqw_cache_gb");
      after_mbps = duel_test_record_get_figure_value (record, "seqw_after_cache_mbps");

      if (truth.cache_end_bytes < 0)
        {
          if (isfinite (cache_gb))
            g_error ("%s (no cache): a cache of %.3f GB was invented", what, cache_gb);
          without++;
        }
      else
        {
          double off_pct = 100 * fabs (cache_gb * 1e9 - (double) truth.cache_end_bytes) / truth.capacity_bytes;
          double stated_pct = 100 * duel_test_record_get_figure_value (record, "seqw_cache_resolution_gb") * 1e9 /
                              truth.capacity_bytes;
          double cache_pct = 100.0 * truth.cache_end_bytes / truth.capacity_bytes;
          /* The stretch right after the cache: written straight to the
           * native cells, or at once folding where no room was left. */
          double after_truth = isfinite (truth.direct_mbps) ? truth.direct_mbps : truth.fold_mbps;
          double off_after = fabs (after_mbps / after_truth - 1);

          /* A fall is judged on fall_hold_pct (5 points) of the curve before
           * it: a cache that runs out sooner is not one the analysis can
           * find, and it must not be found anywhere else. */
          if (!isfinite (cache_gb) && cache_pct < 5)
            {
              g_test_message ("%s: a cache of %.2f %% of the capacity, too small to tell from the start", what,
                              cache_pct);
              too_small++;
            }
          else if (!(off_pct <= MAX (2, stated_pct)))
            {
              g_test_message ("%s: the cache found is %.4f GB (± %.2f %% of the capacity), the model's ran out "
                              "after %.4f GB, %.2f %% of the capacity (%.2f %% of it off)", what, cache_gb,
                              stated_pct, truth.cache_end_bytes / 1e9, cache_pct, off_pct);
              failures++;
            }
          else
            {
              if (!(off_after <= 0.05))
                {
                  g_test_message ("%s: after the cache %.3f MB/s found, the model wrote %.3f MB/s", what,
                                  after_mbps, after_truth);
                  failures++;
                }
              worst_cache_pct = MAX (worst_cache_pct, off_pct);
              worst_after = MAX (worst_after, off_after);
              within_2 += off_pct <= 2;
            }
          with_cache++;
        }
      ssd_seq_rows_clear (&rows);
    }
  g_test_message ("%u drives with a cache: %u found within 2 %% of the capacity, the rest within the resolution "
                  "they state (worst %.2f %% off), the speed after it worst %.1f %% off; %u too small to tell; "
                  "%u without a cache: none invented; %u checks off", with_cache, within_2, worst_cache_pct,
                  100 * worst_after, too_small, without, failures);
  g_assert_cmpuint (failures, ==, 0);
  g_assert_cmpuint (with_cache, >=, n_configs / 2);
  g_assert_cmpuint (without, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssd/seq/analysis-on-model", test_seq_analysis_on_model);

  return g_test_run ();
}
