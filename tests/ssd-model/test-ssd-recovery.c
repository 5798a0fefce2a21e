/* test-ssd-recovery.c — recovery after idle on the simulated SSD, the preset's own plan in virtual time
 *
 * The preset "recovery" as a run plans it (a fresh burst, the review's
 * random fill, two idle periods each followed by a burst), run on drives
 * of the model with a pseudo-SLC cache that is folded, and garbage
 * collected, in idle time (ssd_seq_random_config(): 100 drives, a quarter
 * without a cache); the records analysed as the run analyses them, with
 * the run's own bookkeeping of what each burst is measured against
 * (duel_recovery_note_idle(), duel_recovery_reference_take()). Held
 * against the model's account:
 *  - the recovered share (recovery_fresh_pct) within 5 points of the
 *    model's: the host writes it completed in the burst over the time,
 *    against the same in the fresh burst;
 *  - the dirty share the chart draws within 5 points of the model's writes
 *    over the fill's last tenth against the fresh burst's;
 *  - idle is idle: not one host write while the drive rested, and the
 *    model did its idle work then where it had any (folding or GC);
 *  - the idle the records state is the period planned.
 *
 * Fixed seeds, the model's clock: the same verdict on any host and under
 * a sanitizer. DUEL_SSD_CONFIGS=N runs N drives (a campaign).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/duel-analysis.h"
#include "ssd-virtual-plan.h"
#include "ssd-virtual-seq.h"

#define NSEC G_GUINT64_CONSTANT (1000000000)
#define CONFIGS 100

/* The model's own rate over a step: host pages it wrote, a second. */
static double
model_write_iops (const SsdVirtualStepLog *log)
{
  return (log->after.host_pages_written - log->before.host_pages_written) /
         ((log->end_ns - log->start_ns) / 1e9);
}

static void
test_recovery_on_model (void)
{
  const char *env = g_getenv ("DUEL_SSD_CONFIGS");
  guint n_configs = env != NULL ? (guint) atoi (env) : CONFIGS;
  double worst_share = 0, worst_dirty = 0;
  guint idle_work = 0, bursts = 0;

  for (guint c = 0; c < n_configs; c++)
    {
      SsdConfig cfg;
      SsdSeqPlan seq;
      char what[512];
      DuelPresetOptions options;
      g_autoptr(DuelPreset) plan = NULL;
      g_autoptr(GError) error = NULL;
      SsdVirtualPlan out;
      SsdFtl *ftl;
      const SsdVirtualStepLog *fresh = NULL;
      double fresh_iops, fill_s;

      ssd_seq_random_config (1000 + c, &cfg, &seq, what, sizeof what);
      /* The bursts as long as the sequential test's; idles of a few and of
       * many bursts' length (the model folds at a slowed drive's pace). */
      duel_preset_options_init (&options);
      options.runtime_ms = seq.burst_ms;
      options.interval_ms = 1000;
      options.n_idle = 2;
      options.idle_ms[0] = 3 * seq.burst_ms;
      options.idle_ms[1] = 30 * seq.burst_ms;
      plan = duel_preset_new ("recovery", &options, &error);
      g_assert_no_error (error);
      duel_preset_prepare_for_size (plan, cfg.capacity_bytes, SSD_PAGE_SIZE, "the model", &error);
      g_assert_no_error (error);

      ftl = ssd_ftl_new (&cfg);
      ssd_virtual_plan_run (ftl, plan, NSEC, 42 + c, &out);
      if (!ssd_ftl_check (ftl, &error))
        g_error ("%s: the model is inconsistent: %s", what, error->message);
      ssd_ftl_free (ftl);

      for (guint i = 0; i < out.steps->len; i++)
        {
          const SsdVirtualStepLog *log = &g_array_index (out.steps, SsdVirtualStepLog, i);

          if (g_strcmp0 (log->step->name, "recovery-fresh") == 0)
            fresh = log;
        }
      g_assert_nonnull (fresh);
      fresh_iops = model_write_iops (fresh);

      for (guint i = 0; i < out.steps->len; i++)
        {
          const SsdVirtualStepLog *log = &g_array_index (out.steps, SsdVirtualStepLog, i);
          const DuelPresetStep *step = log->step;
          DuelTestRecord *record;
          JsonObject *recovery;
          double share, model_share, dirty_pct;

          if (step->kind == DUEL_PRESET_STEP_IDLE)
            {
              /* Idle is idle; the drive worked meanwhile where it had work. */
              g_assert_cmpuint (log->after.host_pages_written, ==, log->before.host_pages_written);
              g_assert_cmpuint (log->end_ns - log->start_ns, ==, step->idle_ms * G_GUINT64_CONSTANT (1000000));
              idle_work += log->after.slc_fold_bg_pages + log->after.idle_gc_pages >
                           log->before.slc_fold_bg_pages + log->before.idle_gc_pages;
              continue;
            }
          if (step->kind != DUEL_PRESET_STEP_TEST)
            continue;
          record = duel_result_find_test (out.result, step->name);
          g_assert_nonnull (record);
          if (step->idle_ms == 0)
            continue;

          recovery = json_object_get_object_member (duel_test_record_get_details (record), "recovery");
          g_assert_cmpint (json_object_get_int_member (recovery, "idle_planned_ms"), ==, step->idle_ms);
          g_assert_cmpfloat (duel_test_record_get_figure_value (record, "idle_s"), ==, step->idle_ms / 1e3);
          share = duel_test_record_get_figure_value (record, "recovery_fresh_pct");
          model_share = 100 * model_write_iops (log) / fresh_iops;
          if (fabs (share - model_share) > 5)
            g_error ("%s: after %.0f s idle the analysis says %.1f %% of the fresh speed, the model %.1f %%",
                     what, step->idle_ms / 1e3, share, model_share);
          worst_share = MAX (worst_share, fabs (share - model_share));

          /* Where the fill left the drive: its plateau against the fresh burst. */
          {
            DuelTestRecord *fill = duel_result_find_test (out.result, "recovery-fill");
            guint64 pages = 0, writes_at = 0;
            double fill_iops;

            g_assert_nonnull (fill);
            fill_s = fill->runtime_ns / 1e9;
            /* The model's rate over the fill's last tenth of bytes, from the rows. */
            for (guint k = duel_series_get_length (fill->series); k > 0; k--)
              {
                const DuelSeriesRow *row = duel_series_get_row (fill->series, k - 1);

                pages += row->ops[DUEL_DIRECTION_WRITE];
                writes_at = k - 1;
                if (pages * SSD_PAGE_SIZE >= 0.1 * 2 * cfg.capacity_bytes)
                  break;
              }
            fill_iops = pages / (fill_s - (writes_at > 0 ? duel_series_get_row (fill->series, writes_at - 1)->t_ms / 1e3 : 0));
            dirty_pct = 100 * json_object_get_double_member (recovery, "dirty_iops") /
                        json_object_get_double_member (recovery, "fresh_iops");
            if (fabs (dirty_pct - 100 * fill_iops / fresh_iops) > 5)
              g_error ("%s: the fill ended at %.1f %% of the fresh speed by the analysis, %.1f %% by the model",
                       what, dirty_pct, 100 * fill_iops / fresh_iops);
            worst_dirty = MAX (worst_dirty, fabs (dirty_pct - 100 * fill_iops / fresh_iops));
          }
          bursts++;
        }
      ssd_virtual_plan_clear (&out);
    }
  g_test_message ("%u drives, %u bursts after idle: recovered share worst %.2f points from the model's, "
                  "dirty share worst %.2f; the model worked in %u idles", n_configs, bursts, worst_share,
                  worst_dirty, idle_work);
  g_assert_cmpuint (bursts, ==, 2 * n_configs);
  /* Most drives have a cache to fold or garbage to collect while idle. */
  g_assert_cmpuint (idle_work, >, n_configs);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssd/recovery/on-model", test_recovery_on_model);

  return g_test_run ();
}
