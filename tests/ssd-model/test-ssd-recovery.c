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
#include "ssd-shapes.h"
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

typedef struct
{
  guint  found;         /* a cache found, where the model says the write slowed */
  guint  held;          /* none found, and the model's writes never waited */
  guint  none;          /* none found, the model's writes waited (a slowing under a fall, or
                         * too few writes to tell) */
  guint  runs;          /* sequential writes after idle */
  gboolean bounded;     /* a cache found must also lie within the room (the named drives) */
} Caches;

/* The cache the sequential write after an idle found, against the model's
 * account of that write (its counters and events from the step's start):
 * the first host write that waited (on garbage collection copying valid
 * pages, on folding, on a full cache) and the room the cache had when the
 * write began (what the idle rebuilt). A cache found lies after the first
 * wait, less the resolution it states (no drive slows before anything
 * makes it wait); on the named drives also within the room (or the first
 * wait, where folding in the gaps made more room meanwhile) plus 2 % of the
 * capacity and the resolution (on the random ones a drive may run fast
 * past its cache's room on blocks its idle collected, with or without a
 * cache: the rate falls where collecting in the foreground begins to bite,
 * some way after its first wait). None
 * found: where the model's writes never waited the write held the cache's
 * pace (counted as held); else the drive slowed by less than a fall, or
 * too few 1 MiB writes (16 either side) to tell. */
static void
check_cache (const SsdConfig         *cfg,
             const char              *what,
             const SsdVirtualStepLog *log,
             DuelTestRecord          *record,
             Caches                  *caches)
{
  const gint64 events[] = { log->after.slc_full_at, log->after.slc_fold_first_at, log->after.fg_gc_first_at };
  double found = duel_test_record_get_figure_value (record, "recovery_cache_gb") * 1e9;
  double resolution = duel_test_record_get_figure_value (record, "recovery_cache_resolution_gb") * 1e9;
  double room = (double) log->before.slc_free_pages * SSD_PAGE_SIZE;
  double first_wait = NAN;

  caches->runs++;
  for (guint e = 0; e < G_N_ELEMENTS (events); e++)
    if (events[e] >= 0)
      {
        double at = (double) ((guint64) events[e] - log->before.host_pages_written) * SSD_PAGE_SIZE;

        first_wait = isnan (first_wait) ? at : MIN (first_wait, at);
      }
  g_test_message ("%s: cache after idle found %.2f MiB (± %.2f); the model's writes first waited after %.2f MiB, "
                  "its cache had room for %.2f MiB; %.2f MiB written, %.1f then %.1f MB/s", what,
                  found / 1048576.0, resolution / 1048576.0, first_wait / 1048576.0, room / 1048576.0,
                  duel_test_record_get_figure_value (record, "recovery_seq_gb") * 1e9 / 1048576.0,
                  duel_test_record_get_figure_value (record, "recovery_cache_mbps"),
                  duel_test_record_get_figure_value (record, "recovery_after_cache_mbps"));
  if (isfinite (found))
    {
      if (isnan (first_wait) || found < first_wait - resolution ||
          (caches->bounded && found > MAX (room, first_wait) + 0.02 * cfg->capacity_bytes + resolution))
        g_error ("%s: a cache after idle of %.2f MiB (± %.2f) found; the model's writes first waited after "
                 "%.2f MiB, its cache had room for %.2f MiB", what, found / 1048576.0, resolution / 1048576.0,
                 first_wait / 1048576.0, room / 1048576.0);
      caches->found++;
    }
  else if (isnan (first_wait))
    caches->held++;
  else
    caches->none++;
}

static void
test_recovery_on_model (void)
{
  const char *env = g_getenv ("DUEL_SSD_CONFIGS");
  guint n_configs = env != NULL ? (guint) atoi (env) : CONFIGS;
  double worst_share = 0, worst_dirty = 0;
  guint idle_work = 0, bursts = 0;
  Caches caches = { 0 };

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
          if (step->info->until_fall_share > 0)
            {
              check_cache (&cfg, what, log, record, &caches);
              continue;
            }

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
  g_test_message ("%u sequential writes after idle: %u found a cache where the model's writes slowed, %u held "
                  "where they never waited, %u found none though they waited", caches.runs, caches.found,
                  caches.held, caches.none);
  g_assert_cmpuint (bursts, ==, 2 * n_configs);
  g_assert_cmpuint (caches.runs, ==, 2 * n_configs);
  /* Most drives have a cache to fold or garbage to collect while idle. */
  g_assert_cmpuint (idle_work, >, n_configs);
}

/* The named drives with a pseudo-SLC cache (1 GiB, docs/ssd-model.md), all
 * their times x100: their rebuilt cache (tens of MiB, a hundredth of a
 * second at their own speed, as many GB are on a 1 TB drive's seconds)
 * then lasts a second of 100 ms rows. The recovery plan with a 200 ms
 * burst and idles of 30 s and 3 min on that scale; each sequential write
 * after an idle must find where the model's cache ran full in it. */
static void
test_named_cache (void)
{
  const char *names[] = { "slc-tlc", "slc-qlc" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const SsdShape *shape = ssd_shape_lookup (names[i]);
      SsdConfig cfg;
      DuelPresetOptions options;
      g_autoptr(DuelPreset) plan = NULL;
      g_autoptr(GError) error = NULL;
      SsdVirtualPlan out;
      SsdFtl *ftl;
      Caches caches = { .bounded = TRUE };

      g_assert_nonnull (shape);
      ssd_shape_config (shape, shape->config.capacity_bytes, &cfg);
      cfg.t_read_ns *= 100;
      cfg.t_prog_ns *= 100;
      cfg.t_prog_cache_ns *= 100;
      cfg.t_erase_ns *= 100;
      cfg.idle_ns *= 100;
      g_assert_true (ssd_config_check (&cfg, &error));

      duel_preset_options_init (&options);
      options.runtime_ms = 200;
      options.interval_ms = 100;
      options.n_idle = 2;
      options.idle_ms[0] = 30000;
      options.idle_ms[1] = 180000;
      plan = duel_preset_new ("recovery", &options, &error);
      g_assert_no_error (error);
      duel_preset_prepare_for_size (plan, cfg.capacity_bytes, SSD_PAGE_SIZE, "the model", &error);
      g_assert_no_error (error);

      ftl = ssd_ftl_new (&cfg);
      ssd_virtual_plan_run (ftl, plan, NSEC, 7, &out);
      g_assert_true (ssd_ftl_check (ftl, &error));
      ssd_ftl_free (ftl);
      for (guint k = 0; k < out.steps->len; k++)
        {
          const SsdVirtualStepLog *log = &g_array_index (out.steps, SsdVirtualStepLog, k);

          if (log->step->kind == DUEL_PRESET_STEP_TEST && log->step->info->until_fall_share > 0)
            check_cache (&cfg, names[i], log, duel_result_find_test (out.result, log->step->name), &caches);
        }
      ssd_virtual_plan_clear (&out);
      /* Each drive shows a rebuilt cache after one idle at least (after
       * the other the TLC drive folds in the gaps and holds its pace to the
       * end; the QLC drive, full, collects garbage from its first write). */
      g_assert_cmpuint (caches.runs, ==, 2);
      g_assert_cmpuint (caches.found, >=, 1);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssd/recovery/on-model", test_recovery_on_model);
  g_test_add_func ("/ssd/recovery/named-cache", test_named_cache);

  return g_test_run ();
}
