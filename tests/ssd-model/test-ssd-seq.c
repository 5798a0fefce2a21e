/* test-ssd-seq.c — the pseudo-SLC cache and recovery after idle on the simulated SSD, in virtual time
 *
 * The model's own account, checked against the rows the sustained
 * sequential write and the recovery after idle give on its clock
 * (ssd-virtual-seq.c), so the tests that analyse those rows can take the
 * account as their truth:
 *
 *  - the rows' bytes add up to the capacity the fill wrote;
 *  - every row inside a stretch (cache, direct, folding, after it) is at
 *    the stretch's speed the model logged, within one row's
 *    quantisation; a drive without a cache has no drop beyond that;
 *  - the stretches come in their order and at their speeds: the cache the
 *    fastest, folding the slowest, each near its nominal speed;
 *  - after idles of growing length the recovered share of the fresh
 *    speed and the rebuilt cache never shrink;
 *  - two named drives at real drives' speeds (1 MiB writes at QD8); a
 *    drive without a cache has no cache end, no folding, no idle work.
 *
 * 120 random configurations (ssd_seq_random_config()), fixed seeds. No
 * FUSE, no threads, no wall clock: the same rows, bit for bit, on any host
 * and under a sanitizer. DUEL_SSD_ONLY=K runs configuration K alone and
 * prints its truth and rows; DUEL_SSD_CONFIGS=N runs N (a campaign).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ssd-shapes.h"
#include "ssd-virtual-seq.h"

#define RANDOM_CONFIGS 120
#define N_IDLES        5

/* Each row of @series from @t0_ms to @t1_ms (wholly inside) against
 * @mbps: off by more than @tol_bytes fails. Returns the rows checked. */
static guint
check_rows (const DuelSeries *series,
            guint             interval_ms,
            double            t0_ms,
            double            t1_ms,
            double            mbps,
            double            tol_bytes,
            const char       *what,
            const char       *config)
{
  guint n = duel_series_get_length (series), checked = 0;

  for (guint i = 0; i < n; i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);
      double start = row->t_ms - (double) interval_ms, expect, got;

      if (start < t0_ms || row->t_ms > t1_ms || i + 1 == n)
        continue;
      expect = mbps * 1e3 * interval_ms;   /* MB/s x ms = 10^3 B */
      got = row->bytes[DUEL_DIRECTION_WRITE];
      if (fabs (got - expect) > tol_bytes)
        g_error ("%s: row %u (%.0f-%" G_GUINT64_FORMAT " ms) wrote %.0f bytes in the %s, "
                 "the model's %.1f MB/s gives %.0f (+- %.0f)",
                 config, i, start, row->t_ms, got, what, mbps, expect, tol_bytes);
      checked++;
    }
  return checked;
}

/* When the completions reached @bytes of the fill, read off its rows:
 * the end of the first row whose running sum reaches it. */
static double
row_time_of (const DuelSeries *series,
             guint64           bytes)
{
  guint64 sum = 0;

  for (guint i = 0; i < duel_series_get_length (series); i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);

      sum += row->bytes[DUEL_DIRECTION_WRITE];
      if (sum >= bytes)
        return row->t_ms;
    }
  return INFINITY;
}

/* The checks of one drive; returns the rows checked against a speed. */
static guint
check_drive (const SsdConfig  *cfg,
             const SsdSeqPlan *plan,
             const char       *what)
{
  SsdSeqTruth truth;
  SsdSeqRows rows;
  DuelSeriesRow sum;
  guint checked = 0;
  double I = plan->interval_ms, tol;
  double t_end, t_cache, t_fold0, t_fold1;
  gint64 ce, f0, f1;
  guint64 cap;

  ssd_virtual_seq_run (cfg, plan, &truth, &rows);
  /* The stretches' order, nominally. */
  if (cfg->slc_bits != 0)
    {
      g_assert_cmpfloat (truth.nominal_fold_mbps, <, truth.nominal_direct_mbps);
      g_assert_cmpfloat (truth.nominal_direct_mbps, <, truth.nominal_cache_mbps);
    }
  cap = truth.capacity_bytes;
  ce = truth.cache_end_bytes;
  f0 = truth.fold_start_bytes;
  f1 = truth.fold_end_bytes;

  /* The account adds up. */
  duel_series_sum (rows.fill, &sum);
  g_assert_cmpuint (sum.bytes[DUEL_DIRECTION_WRITE], ==, cap);
  g_assert_cmpuint (sum.ops[DUEL_DIRECTION_WRITE], ==, (cap + plan->block_bytes - 1) / plan->block_bytes);

  /* A row holds whole writes: one more or less at either edge (found: up
   * to 1.46 writes over the 120 drives). */
  tol = 2.0 * plan->block_bytes;
  /* A stretch's rows start a queue's worth of writes after its event. */
  t_end = row_time_of (rows.fill, cap);
  if (ce < 0)
    {
      /* No cache: no stretch, no drop. */
      g_assert_cmpint (f0, <, 0);
      g_assert_true (isnan (truth.cache_mbps));
      checked += check_rows (rows.fill, plan->interval_ms, I, t_end - I, truth.direct_mbps, tol, "write without a cache", what);
      g_assert_cmpfloat (fabs (truth.direct_mbps / truth.nominal_direct_mbps - 1), <, 0.05);
    }
  else
    {
      guint64 q = (guint64) plan->queue_depth * plan->block_bytes;

      g_assert_cmpint (ce, >, 0);
      g_assert_cmpuint (ce, <=, truth.slc_max_bytes + SSD_PAGE_SIZE);
      t_cache = row_time_of (rows.fill, ce > (gint64) q ? (guint64) ce - q : 0);
      t_fold0 = f0 >= 0 ? row_time_of (rows.fill, (guint64) f0 - MIN ((guint64) f0, q)) : t_end;
      t_fold1 = f1 >= 0 ? row_time_of (rows.fill, (guint64) f1 - MIN ((guint64) f1, q)) : t_end;
      if (!isnan (truth.cache_mbps))
        {
          checked += check_rows (rows.fill, plan->interval_ms, I, t_cache - I, truth.cache_mbps, tol, "cache", what);
          g_assert_cmpfloat (fabs (truth.cache_mbps / truth.nominal_cache_mbps - 1), <, 0.05);
        }
      if (!isnan (truth.direct_mbps))
        {
          checked += check_rows (rows.fill, plan->interval_ms, row_time_of (rows.fill, ce + q) + I,
                                 t_fold0 - I, truth.direct_mbps, tol, "stretch after the cache", what);
          g_assert_cmpfloat (fabs (truth.direct_mbps / truth.nominal_direct_mbps - 1), <, 0.05);
        }
      if (!isnan (truth.fold_mbps))
        {
          checked += check_rows (rows.fill, plan->interval_ms, row_time_of (rows.fill, f0 + q) + I,
                                 t_fold1 - I, truth.fold_mbps, tol, "folding stretch", what);
          g_assert_cmpfloat (fabs (truth.fold_mbps / truth.nominal_fold_mbps - 1), <, 0.05);
        }
    }

  /* Recovery: the longest idle folds the whole cache (it has time for
   * half the capacity), and gives back more than none did where there
   * was something to give; and never less after a longer idle. */
  if (truth.n_idles > 1 && truth.idle[0].idle_s == 0)   /* plan_idles() */
    {
      const SsdSeqIdle *none = &truth.idle[0], *last = &truth.idle[truth.n_idles - 1];

      g_assert_cmpuint (last->cache_left_bytes, ==, 0);
      if (none->recovered_share < 0.95 && last->recovered_share <= none->recovered_share)
        g_error ("%s: %.3f of the fresh speed after %.1f s idle, as much as without (%.3f)",
                 what, last->recovered_share, last->idle_s, none->recovered_share);
    }
  /* Recovery: never less after a longer idle. */
  for (guint k = 1; k < truth.n_idles; k++)
    {
      const SsdSeqIdle *a = &truth.idle[k - 1], *b = &truth.idle[k];

      if (b->recovered_share < a->recovered_share - 1e-9 || b->cache_free_bytes < a->cache_free_bytes)
        g_error ("%s: after %.1f s idle %.3f of the fresh speed and %" G_GUINT64_FORMAT " bytes of cache, "
                 "after %.1f s %.3f and %" G_GUINT64_FORMAT,
                 what, a->idle_s, a->recovered_share, a->cache_free_bytes,
                 b->idle_s, b->recovered_share, b->cache_free_bytes);
    }
  ssd_seq_rows_clear (&rows);
  return checked;
}

static void
print_drive (const SsdConfig  *cfg,
             const SsdSeqPlan *plan,
             const char       *what)
{
  SsdSeqTruth t;
  SsdSeqRows rows;
  guint64 sum = 0;

  ssd_virtual_seq_run (cfg, plan, &t, &rows);
  g_print ("%s\n", what);
  if (plan->random_fill > 0)
    g_print ("random fill %.1fx: its last tenth %.0f IOPS\n", plan->random_fill, t.random_iops);
  g_print ("capacity %.1f MiB, cache max %.1f MiB; cache end %.2f %%, fold %.2f-%.2f %%; "
           "MB/s cache %.1f (%.1f) direct %.1f (%.1f) fold %.1f (%.1f) tail %.1f, mean %.1f, %.1f s; fresh %.0f IOPS\n",
           t.capacity_bytes / 1048576.0, t.slc_max_bytes / 1048576.0,
           100.0 * t.cache_end_bytes / t.capacity_bytes, 100.0 * t.fold_start_bytes / t.capacity_bytes,
           100.0 * t.fold_end_bytes / t.capacity_bytes, t.cache_mbps, t.nominal_cache_mbps,
           t.direct_mbps, t.nominal_direct_mbps, t.fold_mbps, t.nominal_fold_mbps, t.tail_mbps,
           t.mean_mbps, t.fill_s, t.fresh_iops);
  for (guint k = 0; k < t.n_idles; k++)
    g_print ("idle %.2f s: folded %.1f MiB, GC %.1f MiB / %" G_GUINT64_FORMAT " blocks, cache free %.1f MiB, "
             "burst %.0f IOPS (%.3f), seq cache %.1f MiB at %.1f MB/s, then %.1f\n",
             t.idle[k].idle_s, t.idle[k].folded_bytes / 1048576.0, t.idle[k].gc_bytes / 1048576.0,
             t.idle[k].gc_blocks, t.idle[k].cache_free_bytes / 1048576.0, t.idle[k].burst_iops,
             t.idle[k].recovered_share, t.idle[k].seq_cache_bytes / 1048576.0, t.idle[k].seq_cache_mbps,
             t.idle[k].seq_after_mbps);
  for (guint i = 0; i < duel_series_get_length (rows.fill); i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (rows.fill, i);

      sum += row->bytes[DUEL_DIRECTION_WRITE];
      g_print ("  %6" G_GUINT64_FORMAT " ms %6.2f %% %8.1f MB/s\n", row->t_ms, 100.0 * sum / t.capacity_bytes,
               row->bytes[DUEL_DIRECTION_WRITE] / 1e3 / duel_series_row_duration_ms (rows.fill, i));
    }
  ssd_seq_rows_clear (&rows);
}

/* Idles of 0 to 3x the time the drive needs to fold its whole cache. */
static void
plan_idles (const SsdConfig *cfg,
            SsdSeqPlan      *plan)
{
  double fold_all_s = (double) cfg->capacity_bytes / SSD_PAGE_SIZE * 0.5 *
                      (cfg->t_read_ns + cfg->t_prog_ns) / cfg->units / 1e9;
  static const double share[N_IDLES] = { 0, 0.03, 0.1, 0.3, 1 };

  plan->n_idles = N_IDLES;
  plan->idles_apart = TRUE;
  for (guint k = 0; k < N_IDLES; k++)
    plan->idle_s[k] = share[k] * fold_all_s;
}

static void
test_random (void)
{
  const char *only = g_getenv ("DUEL_SSD_ONLY");
  const char *configs = g_getenv ("DUEL_SSD_CONFIGS");
  guint n = configs != NULL ? (guint) atoi (configs) : RANDOM_CONFIGS, checked = 0, with_cache = 0;

  for (guint k = 0; k < n; k++)
    {
      SsdConfig cfg;
      SsdSeqPlan plan;
      char what[400], line[480];
      g_autoptr(GError) error = NULL;

      if (only != NULL && (guint) atoi (only) != k)
        continue;
      ssd_seq_random_config (k, &cfg, &plan, what, sizeof what);
      if (!ssd_config_check (&cfg, &error))
        g_error ("configuration %u (%s): %s", k, what, error->message);
      plan_idles (&cfg, &plan);
      /* Every other drive takes the review's random fill before its idles:
       * GC in idle time then has invalid pages to gather. */
      plan.random_fill = k % 2 == 1 ? 1.0 : 0;
      g_snprintf (line, sizeof line, "configuration %u: %s", k, what);
      if (only != NULL)
        print_drive (&cfg, &plan, line);
      checked += check_drive (&cfg, &plan, line);
      with_cache += cfg.slc_bits != 0;
    }
  g_test_message ("%u configurations (%u with a cache), %u rows checked against the model's speeds",
                  n, with_cache, checked);
}

/* The named drives at real drives' speeds: 1 MiB writes at QD8 on 1 GiB
 * in rows of 1 ms, the resolution of a 1 TB drive's 1 s rows; idles of
 * 0.3 and 1.8 s (5 and 30 minutes on that scale). */
static void
test_named (void)
{
  static const struct
  {
    const char *name;
    double      cache_lo, cache_hi, direct_lo, direct_hi;   /* MB/s */
  } named[] = {
    { "slc-tlc", 3000, 3500, 1200, 1400 },
    { "slc-qlc", 1700, 1900, 120, 140 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    {
      const SsdShape *shape = ssd_shape_lookup (named[i].name);
      SsdConfig cfg;
      SsdSeqPlan plan;
      SsdSeqTruth t;
      g_autoptr(GError) error = NULL;

      g_assert_nonnull (shape);
      ssd_shape_config (shape, shape->config.capacity_bytes, &cfg);
      g_assert_true (ssd_config_check (&cfg, &error));
      ssd_seq_plan_init (&plan);
      plan.interval_ms = 1;
      plan.burst_ms = 10;
      plan.idle_s[0] = 0.3;
      plan.idle_s[1] = 1.8;
      if (g_getenv ("DUEL_SSD_ONLY") != NULL)
        print_drive (&cfg, &plan, named[i].name);
      check_drive (&cfg, &plan, named[i].name);
      ssd_virtual_seq_run (&cfg, &plan, &t, NULL);
      g_test_message ("%s: cache %.1f GiB at %.0f MB/s, then %.0f MB/s, folding from %.1f GiB at %.0f MB/s; "
                      "%.2f s at %.0f MB/s; after 0.3 / 1.8 s idle %.0f / %.0f MiB cache, %.0f / %.0f %% of %.0f IOPS",
                      named[i].name, t.cache_end_bytes / 1073741824.0, t.cache_mbps, t.direct_mbps,
                      t.fold_start_bytes / 1073741824.0, t.fold_mbps, t.fill_s, t.mean_mbps,
                      t.idle[0].cache_free_bytes / 1048576.0, t.idle[1].cache_free_bytes / 1048576.0,
                      100 * t.idle[0].recovered_share, 100 * t.idle[1].recovered_share, t.fresh_iops);
      g_assert_cmpfloat (t.cache_mbps, >=, named[i].cache_lo);
      g_assert_cmpfloat (t.cache_mbps, <=, named[i].cache_hi);
      g_assert_cmpfloat (t.direct_mbps, >=, named[i].direct_lo);
      g_assert_cmpfloat (t.direct_mbps, <=, named[i].direct_hi);
      g_assert_cmpfloat (t.fold_mbps, <, t.direct_mbps);
      /* The cache: its dynamic cap and the static part, as the empty drive
       * has room for both. */
      g_assert_cmpuint (t.slc_max_bytes, ==, cfg.slc_static_bytes + cfg.slc_dynamic_bytes);
      g_assert_cmpint (t.cache_end_bytes, ==, (gint64) t.slc_max_bytes);
    }
}

/* No cache: nothing of the new parts shows. */
static void
test_no_cache (void)
{
  const SsdShape *shape = ssd_shape_lookup ("falls");
  SsdConfig cfg;
  SsdSeqPlan plan;
  SsdSeqTruth t;

  ssd_shape_config (shape, 64u << 20, &cfg);
  cfg.cache_bytes = 0;
  ssd_seq_plan_init (&plan);
  plan.block_bytes = 64 << 10;
  plan.interval_ms = 100;
  plan.burst_ms = 1000;
  plan.n_idles = 1;
  plan.idle_s[0] = 10;
  ssd_virtual_seq_run (&cfg, &plan, &t, NULL);
  g_assert_cmpint (t.cache_end_bytes, <, 0);
  g_assert_cmpint (t.fold_start_bytes, <, 0);
  g_assert_cmpuint (t.slc_max_bytes, ==, 0);
  g_assert_cmpuint (t.idle[0].folded_bytes + t.idle[0].gc_bytes, ==, 0);
  g_assert_cmpfloat (fabs (t.direct_mbps / t.nominal_direct_mbps - 1), <, 0.01);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ssd-seq/named", test_named);
  g_test_add_func ("/ssd-seq/no-cache", test_no_cache);
  g_test_add_func ("/ssd-seq/random-configurations", test_random);
  return g_test_run ();
}
