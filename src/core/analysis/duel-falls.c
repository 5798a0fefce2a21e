/* duel-falls.c — the falls of a fill's write curve and its declines: the rule
 *
 * docs/analysis.md defines what a fall is; duel-falls*.c are that definition,
 * computed. The curve is IOPS over % of capacity written, read through a
 * running median of rows and on a grid of cliff_step_pct; a fall is a
 * stretch of it that drops by fall_min_drop or more within fall_max_pct
 * points, with a turn at both ends, and holds. Everything here is a pure
 * function of the series and the parameters. This file runs the rule; its
 * parts are in duel-falls-curve.c, -levels.c, -search.c, -knee.c and
 * -trends.c (duel-falls-private.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-falls-private.h"

/* Rows with fewer writes are taken together with the next (1 / sqrt (100):
 * a 10 % count noise at most), unless they already hold a point of the
 * span (the width each grid point averages over): 100 writes of 1 MiB are
 * a tenth of a 1 GiB drive, coarser than the cache they should place (the
 * sequential write); 100 writes of 4 KiB stay under a point from a 40 MiB
 * span up. */
#define DUEL_FALLS_MIN_ROW_OPS 100
/* A 2x fill on the finest grid (0.05 %). */
#define DUEL_FALLS_MAX_POINTS 4000

/* ---- The whole rule --------------------------------------------------------- */

void
duel_analysis_falls (const DuelSeries         *series,
                     guint64                   span_bytes,
                     const DuelAnalysisParams *params,
                     DuelFalls                *out)
{
  double span = (double) span_bytes, step, step_pct, per_pct;
  DuelFallsCumulative raw;
  g_autoptr(GArray) fine = NULL;
  g_autoptr(GArray) trials = NULL;
  g_autofree double *y = NULL;
  g_autofree double *ln_y = NULL;
  g_autofree double *med_back = NULL;
  g_autofree double *med_ahead = NULL;
  g_autofree double *med_half = NULL;
  g_autofree double *raw_ln = NULL;
  g_autofree double *noise_ln = NULL;
  g_autofree double *error_back = NULL;
  g_autofree double *error_ahead = NULL;
  g_autofree guint *row_at = NULL;
  g_autofree DuelFallsMoments *prefix = NULL;
  guint n, kept = 0;
  double ln_scale;
  DuelFallsRule rule;

  g_return_if_fail (series != NULL);
  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  out->falls = g_array_new (FALSE, TRUE, sizeof (DuelFall));
  out->declines = g_array_new (FALSE, TRUE, sizeof (DuelDecline));
  out->recoveries = g_array_new (FALSE, TRUE, sizeof (DuelRecovery));
  if (!(span > 0) || duel_series_get_length (series) == 0)
    return;

  /* At most DUEL_FALLS_MAX_POINTS grid points, however far past the span
   * a run wrote: the pairs tried grow with their square. */
  step = MAX (_duel_falls_grid_step_bytes (params, span), (double) duel_series_get_length (series) > 0
                                              ? _duel_falls_series_written (series) / DUEL_FALLS_MAX_POINTS : 0);
  step_pct = step / span * 100.0;
  per_pct = 1.0 / step_pct;
  /* Rows of a handful of writes are counts, not rates: a row with none
   * during a stall has no bytes, so a median over rows would drop its time.
   * Consecutive rows are taken together until they hold enough writes
   * that one more or less moves the rate by a few per cent at most. */
  _duel_falls_cumulative_init_coalesced (&raw, series, DUEL_FALLS_MIN_ROW_OPS,
                                         DUEL_FALLS_POINT_PCT / 100.0 * span);

  /* Each grid point is the throughput over the point of capacity around
   * it (half a point either side, each row's rate even within it): a
   * stall is the drive's time as much as a burst, and a point holds many
   * of garbage collection's stalls on any but the coarsest rows, so no
   * median over rows (which keeps the fast rows and drops the stalls'
   * time) comes before it. The levels are then compared in ln IOPS (a fall
   * is a ratio, and the noise is a share of the rate). */
  fine = _duel_falls_smoothed_grid (&raw, step, DUEL_FALLS_POINT_PCT / 200.0 * span);
  n = fine->len;
  y = g_new (double, MAX (n, 1));
  ln_y = g_new (double, MAX (n, 1));
  for (guint j = 0; j < n; j++)
    {
      double v = g_array_index (fine, double, j);

      if (!(v > 0))
        goto out;
      ln_y[j] = log (v);
    }
  /* A running median over fall_hold_pct (half of it either side): a dip
   * or a burst narrower than half of that is gone, while a step, a ramp
   * and the corner between a level and a ramp stay where they are (a
   * median keeps every monotone stretch). */
  {
    guint half = MAX ((guint) llround (params->fall_hold_pct * per_pct / 2), 1);

    raw_ln = g_memdup2 (ln_y, n * sizeof (double));
    /* Near the ends the window shrinks to stay centred, so that a level
     * the fill starts or ends with is not outvoted by the one next to it. */
    for (guint j = 0; j < n; j++)
      {
        guint h = MIN (half, MIN (j, n - 1 - j));

        ln_y[j] = _duel_falls_median_of (raw_ln, j - h, j + h);
      }
  }
  ln_scale = _duel_falls_median_of (ln_y, 0, n - 1);
  for (guint j = 0; j < n; j++)
    y[j] = exp (ln_y[j] - ln_scale);
  prefix = _duel_falls_moments_prefix (y, n);

  rule = (DuelFallsRule) {
    .y = y,
    .ln_y = ln_y,
    .point_ln = raw_ln,
    .prefix = prefix,
    .n = n,
    .max_width = MAX ((guint) llround (params->fall_max_pct * per_pct), 1),
    .trend = MAX ((guint) llround (params->fall_trend_pct * per_pct), 2),
    .hold = MAX ((guint) llround (params->fall_hold_pct * per_pct), 2),
    .min_depth = -log (1 - CLAMP (params->fall_min_drop, 0.01, 0.99)),
    .turn = MAX (params->fall_turn, 1),
  };
  rule.trend = MAX (rule.trend, rule.hold);
  rule.trend += rule.trend % 2;
  med_back = g_new (double, n);
  med_ahead = g_new (double, n);
  med_half = g_new (double, n);
  for (guint j = 0; j < n; j++)
    {
      med_back[j] = _duel_falls_median_of (ln_y, j >= rule.hold ? j - rule.hold : 0, j);
      med_ahead[j] = _duel_falls_median_of (ln_y, j, MIN (j + rule.hold, n - 1));
      med_half[j] = _duel_falls_median_of (ln_y, j >= rule.trend / 2 ? j - rule.trend / 2 : 0, j);
    }
  rule.med_back = med_back;
  rule.med_ahead = med_ahead;
  rule.med_half = med_half;

  /* How far each hold window's level can be off (_duel_falls_level_error()). */
  {
    g_autoptr(GArray) wide = _duel_falls_smoothed_grid (&raw, step, DUEL_FALLS_NOISE_PCT / 200.0 * span);

    noise_ln = g_new (double, n);
    for (guint j = 0; j < n; j++)
      noise_ln[j] = j < wide->len && g_array_index (wide, double, j) > 0 ? log (g_array_index (wide, double, j)) : ln_y[j];
  }
  row_at = g_new (guint, n);
  for (guint j = 0; j < n; j++)
    row_at[j] = _duel_falls_cumulative_row_passing (&raw, MIN (j * step, _duel_falls_cumulative_total (&raw)));
  rule.row_at = row_at;
  rule.noise_ln = noise_ln;
  error_back = g_new (double, n);
  error_ahead = g_new (double, n);
  for (guint j = 0; j < n; j++)
    {
      error_back[j] = _duel_falls_level_error (&rule, j >= rule.hold ? j - rule.hold : 0, j);
      error_ahead[j] = _duel_falls_level_error (&rule, j, MIN (j + rule.hold, n - 1));
    }
  rule.error_back = error_back;
  rule.error_ahead = error_ahead;
  rule.rows = &raw;
  rule.per_point = per_pct * DUEL_FALLS_POINT_PCT;
  rule.step_bytes = step;
  trials = _duel_falls_find (&rule);

  for (guint i = 0; i < trials->len; i++)
    {
      DuelFallsTrial *t = &g_array_index (trials, DuelFallsTrial, i);
      DuelFall fall = { 0 };
      double knee, resolution;

      /* The levels either side as the medians over the hold windows say
       * them, the one after a hold window past the foot: the line's values
       * at a knee or foot inside a coarse row are the row's mix. */
      knee = _duel_falls_knee_in_row (&raw, t->a * step, t->b * step, exp (rule.med_back[t->a]),
                          exp (rule.med_ahead[MIN (t->b + rule.hold, n - 1)]),
                          step, DUEL_FALLS_POINT_PCT / 100.0 * span, params->fall_hold_pct / 100.0 * span,
                          &resolution);
      fall.knee_bytes = (guint64) llround (knee);
      fall.foot_bytes = (guint64) llround (MAX (t->b * step, knee));
      /* Placed inside a coarse row, a fall can land on the one before it,
       * or the two be a row apart (one fall the grid saw in two parts, on
       * either side of the row it happened in): one fall. */
      if (out->falls->len > 0)
        {
          DuelFall *prev = &g_array_index (out->falls, DuelFall, out->falls->len - 1);

          if (fall.knee_bytes <= prev->foot_bytes ||
              _duel_falls_cumulative_row_passing (&raw, knee) <= _duel_falls_cumulative_row_passing (&raw, (double) prev->foot_bytes) + 1)
            {
              prev->foot_bytes = MAX (prev->foot_bytes, fall.foot_bytes);
              g_array_index (trials, DuelFallsTrial, kept - 1).b = MAX (g_array_index (trials, DuelFallsTrial, kept - 1).b, t->b);
              continue;
            }
        }
      fall.knee_row = _duel_falls_cumulative_row_passing (&raw, knee);
      fall.resolution_pct = resolution / span * 100.0;
      g_array_append_val (out->falls, fall);
      g_array_index (trials, DuelFallsTrial, kept++) = *t;
      /* The stretch after the fall begins at its foot, which is no
       * earlier than its knee on the rows. */
      g_array_index (trials, DuelFallsTrial, kept - 1).b = MAX (t->b, MIN ((guint) ceil (knee / step), n - 1));
    }
  g_array_set_size (trials, kept);
  for (guint i = 0; i < out->falls->len; i++)
    {
      DuelFall *fall = &g_array_index (out->falls, DuelFall, i);
      const DuelFallsTrial *t = &g_array_index (trials, DuelFallsTrial, i);
      guint at_knee = MIN ((guint) floor ((double) fall->knee_bytes / step), n - 1);
      double ops, ms, before = rule.med_back[at_knee], after = rule.med_ahead[t->b];

      /* The levels the definition holds a fall to: the medians over
       * fall_hold_pct before the knee (where the rows place it: in a band
       * the fit's breakpoint can lie a band's block before it) and after
       * the foot; where that is not a fall's depth, as the pair that
       * passed had them. */
      if (!(before - after >= rule.min_depth))
        before = MAX (before, MAX (rule.med_back[t->a], rule.med_back[t->tested_a]));
      fall->level_before_iops = exp (before);
      fall->level_after_iops = exp (after);
      fall->knee_pct = (double) fall->knee_bytes / span * 100.0;
      fall->foot_pct = (double) fall->foot_bytes / span * 100.0;
      fall->drop = 1 - fall->level_after_iops / fall->level_before_iops;
      _duel_falls_cumulative_at (&raw, (double) fall->foot_bytes, &ops, &ms);
      fall->foot_ms = (guint64) ceil (ms);
    }

  /* The stretches between falls: a recovery after each fall, and the
   * declines. */
  {
    guint from = 0;

    for (guint i = 0; i <= trials->len; i++)
      {
        guint to = i < trials->len ? g_array_index (trials, DuelFallsTrial, i).a : n - 1;

        if (i > 0)
          _duel_falls_add_recovery (out->recoveries, &rule, i - 1, from, to, step_pct);
        _duel_falls_add_decline (out->declines, &rule, from, to, step_pct);
        if (i < trials->len)
          from = g_array_index (trials, DuelFallsTrial, i).b;
      }
  }

out:
  _duel_falls_cumulative_clear (&raw);
}

void
duel_falls_clear (DuelFalls *falls)
{
  g_return_if_fail (falls != NULL);

  g_clear_pointer (&falls->falls, g_array_unref);
  g_clear_pointer (&falls->declines, g_array_unref);
  g_clear_pointer (&falls->recoveries, g_array_unref);
}
