/* duel-falls-search.c — where a fill's falls are
 *
 * Every (knee, foot) pair of the grid is fitted with three lines (the
 * trend before, the fall, the trend after) and checked against the
 * definition in docs/analysis.md; the pairs that pass and overlap are one
 * fall, or several close together, each placed where the lines fit best.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-falls-private.h"

/* ---- Lines fitted by least squares ------------------------------------------ */

DuelFallsMoments *
_duel_falls_moments_prefix (const double *y,
                            guint         n)
{
  DuelFallsMoments *prefix = g_new0 (DuelFallsMoments, n + 1);

  for (guint j = 0; j < n; j++)
    {
      prefix[j + 1] = prefix[j];
      prefix[j + 1].s0 += 1;
      prefix[j + 1].s1 += j;
      prefix[j + 1].s2 += (double) j * j;
      prefix[j + 1].y0 += y[j];
      prefix[j + 1].y1 += j * y[j];
      prefix[j + 1].y2 += y[j] * y[j];
    }
  return prefix;
}

/* Least squares of the continuous piecewise-linear function with knots
 * k[0] < … < k[m − 1] (grid indices, m <= 4) to the points k[0] … k[m − 1].
 * Each point belongs to the segment it starts or lies in, the last point to
 * the last segment; on a segment the function is θ[i] (1 − u) + θ[i + 1] u,
 * u = (j − k[i]) / (k[i + 1] − k[i]). The normal equations are tridiagonal.
 * Fills @theta (the values at the knots) and returns the residual sum of
 * squares. */
static double
fit_segments (const DuelFallsMoments *prefix,
              const guint            *k,
              guint                   m,
              double                 *theta)
{
  double diag[4] = { 0 }, off[4] = { 0 }, rhs[4] = { 0 };
  double cp[4], dp[4], sse;

  g_assert (m >= 2 && m <= 4);

  for (guint i = 0; i + 1 < m; i++)
    {
      guint a = k[i], b = k[i + 1];
      guint end = i + 2 == m ? b + 1 : b;
      double d = (double) (b - a);
      double s0 = prefix[end].s0 - prefix[a].s0;
      double s1 = prefix[end].s1 - prefix[a].s1;
      double s2 = prefix[end].s2 - prefix[a].s2;
      double y0 = prefix[end].y0 - prefix[a].y0;
      double y1 = prefix[end].y1 - prefix[a].y1;
      double su = (s1 - a * s0) / d;
      double suu = (s2 - 2.0 * a * s1 + (double) a * a * s0) / (d * d);
      double suy = (y1 - a * y0) / d;

      diag[i] += s0 - 2 * su + suu;
      off[i] += su - suu;
      diag[i + 1] += suu;
      rhs[i] += y0 - suy;
      rhs[i + 1] += suy;
    }

  /* Thomas algorithm: every knot has a point where its basis is 1 and the
   * others 0, so the matrix is positive definite. */
  cp[0] = off[0] / diag[0];
  dp[0] = rhs[0] / diag[0];
  for (guint i = 1; i < m; i++)
    {
      double denom = diag[i] - off[i - 1] * cp[i - 1];

      cp[i] = off[i] / denom;
      dp[i] = (rhs[i] - off[i - 1] * dp[i - 1]) / denom;
    }
  theta[m - 1] = dp[m - 1];
  for (guint i = m - 1; i-- > 0;)
    theta[i] = dp[i] - cp[i] * theta[i + 1];

  sse = prefix[k[m - 1] + 1].y2 - prefix[k[0]].y2;
  for (guint i = 0; i < m; i++)
    sse -= theta[i] * rhs[i];
  return sse;
}


/* ---- Falls tried against the definition ------------------------------------- */

/* The standard error of the slope of a line fitted to @n evenly spaced
 * points with residuals of @sigma: sigma / sqrt (n (n² − 1) / 12). */
static double
slope_error (double sigma,
             guint  n)
{
  return n > 1 ? sigma / sqrt ((double) n * ((double) n * n - 1) / 12) : INFINITY;
}

/* The continuous line (trend before, fall, trend after) with breakpoints
 * @a < @b fitted to the grid over [@lo, @hi]; a knee at @lo leaves no trend
 * before (a fall from the first byte). Fills @out (levels in ln IOPS, NAN
 * where the line is not above zero) and @theta (the line at its knots);
 * returns how many knots. */
static guint
trial_line (const DuelFallsRule *rule,
            guint                lo,
            guint                a,
            guint                b,
            guint                hi,
            DuelFallsTrial      *out,
            double              *theta)
{
  guint knots[4], m = 0;

  g_assert (lo <= a && a < b && b < hi && hi < rule->n);

  knots[m++] = lo;
  if (a > lo)
    knots[m++] = a;
  knots[m++] = b;
  knots[m++] = hi;
  out->sse = fit_segments (rule->prefix, knots, m, theta);
  out->lo = lo;
  out->a = a;
  out->tested_a = a;
  out->b = b;
  out->hi = hi;
  out->sure = FALSE;
  out->level_a = theta[m - 3] > 0 ? log (theta[m - 3]) : NAN;
  out->level_b = theta[m - 3] > 0 ? log (MAX (theta[m - 2], theta[m - 3] * 1e-3)) : NAN;
  return m;
}

/* Fits the continuous line (trend before, fall, trend after) with
 * breakpoints @a < @b to the grid over [@lo, @hi]; a knee at @lo leaves no
 * trend before (a fall from the first byte). Then checks the definition:
 * deep enough, a turn at both ends, still down at the end of the trend
 * after. */
static gboolean
trial_fit (const DuelFallsRule *rule,
           guint                lo,
           guint                a,
           guint                b,
           guint                hi,
           DuelFallsTrial      *out)
{
  guint m;
  double theta[4], fall, before, after, drop, width;

  /* Not deep between the levels either side: no need to fit (most pairs). */
  if (!(rule->med_back[a] - rule->med_ahead[b] >= rule->min_depth))
    return FALSE;

  m = trial_line (rule, lo, a, b, hi, out, theta);
  /* The fit is in IOPS (scaled), as the chart draws them: a fall straight
   * in IOPS has its knee where it starts, which in ln IOPS it would not.
   * The rule itself is in ratios. */
  {
    double lin_lo = theta[0], lin_a = theta[m - 3], lin_b = theta[m - 2], lin_hi = theta[m - 1];
    double floor_b = lin_a * 1e-3;

    if (!(lin_a > 0 && lin_hi > 0 && (m == 3 || lin_lo > 0)))
      return FALSE;
    drop = out->level_a - out->level_b;
    if (!(drop >= rule->min_depth))
      return FALSE;
    /* Rates of loss in ln IOPS per grid step. A turn: the trend on each
     * side loses at most 1/turn as fast as the fall, or rises. Otherwise
     * the stretch is part of a longer decline. */
    /* No sharper than the rows can show: on rows wider than the grid, a
     * step from one row to the next took the row's width, as far as
     * anyone can tell (else every stair of a fall over several coarse
     * rows would be a fall of its own). */
    width = MAX ((double) (b - a), _duel_falls_rows_width (rule, a, b));
    fall = drop / width;
    before = m == 4 ? log (lin_lo / lin_a) / (double) (a - lo) : 0;
    after = log (MAX (lin_b, floor_b) / lin_hi) / (double) (hi - b);
    /* With two standard errors of each trend's slope added: on a noisy
     * curve, of the thousands of stretches tried, some would show a turn
     * by chance. The residuals of the whole fit give the noise, so a
     * curved decline (which three lines fit badly) has to turn more
     * clearly than a straight one. */
    {
      double sigma = sqrt (MAX (out->sse, 0) / MAX ((double) (hi - lo + 1) - m, 1));

      if (m == 4)
        before += 2 * slope_error (sigma, a - lo + 1) / ((lin_lo + lin_a) / 2);
      after += 2 * slope_error (sigma, hi - b + 1) / ((MAX (lin_b, floor_b) + lin_hi) / 2);
    }
    if (!(before <= fall / rule->turn) || !(after <= fall / rule->turn))
      return FALSE;
    /* It holds: at the end of the trend after, the curve is still down by
     * the depth a fall needs. */
    if (!(out->level_a - log (lin_hi) >= rule->min_depth))
      return FALSE;
  }
  /* The same, measured on the curve itself with medians: the levels over
   * fall_hold_pct before the knee (or from the start) and after the foot
   * differ by the depth, and the trends (the medians of each half of the
   * windows either side) turn. The end of a burst, a dip that recovers,
   * a dip that bends a line: under half of the points cannot move a
   * median. */
  {
    double depth = rule->med_back[a] - rule->med_ahead[b];
    double fall_rate = depth / width;
    guint from = lo, to = hi;

    /* Each level is seen in rows: on coarse rows, a single row between two
     * levels is the row in which the fall happened, not a level of its
     * own, and one or two fast rows are a burst (_duel_falls_level_in_rows()). */
    if (!_duel_falls_level_in_rows (rule, a, b, TRUE) || !_duel_falls_level_in_rows (rule, a, b, FALSE))
      return FALSE;
    /* It holds: for twice fall_trend_pct after the foot (or to the end),
     * no level over fall_hold_pct climbs back above halfway between the
     * levels before and after, nor to within a fall's depth of the level
     * before. A dip of ten points that recovers is not a fall; a deep fall
     * that recovers part of the way (a cache run out, then its flushing
     * done) still is one. */
    {
      double ceiling = MAX ((rule->med_back[a] + rule->med_ahead[b]) / 2, rule->med_back[a] - rule->min_depth);

      for (guint k = b + rule->hold / 2; k + rule->hold < rule->n && k <= b + 2 * rule->trend; k += MAX (rule->hold / 2, 1))
        if (rule->med_ahead[k] > ceiling)
          return FALSE;
    }
    /* Not inside a band (_duel_falls_in_band()). A fall in the first point of
     * capacity: its level before is the first rows', seen as a level only
     * if the throughput over a point holds it over the first point (a
     * shorter one is below what the throughput can see). */
    if (_duel_falls_in_band (rule, a, b))
      return FALSE;
    for (guint j = 0; a < rule->per_point && j <= MIN ((guint) ceil (rule->per_point), rule->n - 1); j++)
      if (rule->point_ln[j] <= (rule->med_back[a] + rule->med_ahead[b]) / 2)
        return FALSE;
    /* Deep by more than the levels' own uncertainty (two standard errors
     * of the difference of the two medians): a fall for sure. A noisy
     * level after a fall makes only the pairs whose foot lies far into it
     * sure, and those place the knee early; so any pair of a fall locates
     * it, and one sure pair among them makes it a fall. */
    out->sure = depth - 2 * hypot (rule->error_back[a], rule->error_ahead[b]) >= rule->min_depth;
    /* … or over fall_trend_pct after the foot: a noisy level is surer
     * over more of it. */
    if (!out->sure && b + rule->trend < rule->n)
      out->sure = rule->med_back[a] - _duel_falls_median_of (rule->ln_y, b, b + rule->trend) -
                  2 * hypot (rule->error_back[a], _duel_falls_level_error (rule, b, b + rule->trend)) >= rule->min_depth;
    if (a - from >= 4 && _duel_falls_halves_loss_rate (rule, from, a) > fall_rate / rule->turn)
      return FALSE;
    if (_duel_falls_halves_loss_rate (rule, b, to) > fall_rate / rule->turn)
      return FALSE;
    /* Sure also of the turns: with two standard errors of the trends
     * added, they still turn. A decline that slows down looks like a turn
     * on a short noisy stretch now and then. */
    if (out->sure)
      out->sure = (a - from < 4 ||
                   _duel_falls_halves_loss_rate (rule, from, a) + 2 * _duel_falls_halves_loss_error (rule, from, a) <= fall_rate / rule->turn) &&
                  _duel_falls_halves_loss_rate (rule, b, to) + 2 * _duel_falls_halves_loss_error (rule, b, to) <= fall_rate / rule->turn;
    return TRUE;
  }
}

/* The window a fall with knee @a and foot @b is tried on: @reach grid
 * steps either side, within the fill. */
static gboolean
trial_window (const DuelFallsRule *rule,
              guint                a,
              guint                b,
              guint                reach,
              guint               *out_lo,
              guint               *out_hi)
{
  guint lo = a > reach ? a - reach : 0;
  guint hi = MIN (b + reach, rule->n - 1);

  /* The trend before may be short only where the fill begins; the trend
   * after must be long enough to show that the fall holds. */
  if (a - lo < rule->hold && lo > 0)
    return FALSE;
  if (b >= hi || hi - b < rule->hold)
    return FALSE;
  *out_lo = lo;
  *out_hi = hi;
  return TRUE;
}

/* A (knee, foot) pair that passed on its own window. */
typedef struct
{
  guint a, b;
  DuelFallsTrial trial;
  gboolean wide;  /* it passed on the fall_trend_pct window */
} Pair;

/* The fall among @pairs[@from … @to), which all pass the definition and
 * overlap: where is it? The pair with the least residual per point on its
 * own window gives the window (windows differ, and one that reaches
 * further into a quiet level scores better whatever its knee, so no more
 * than that). On it, every knee and foot that passes is fitted again and
 * the least squared residuals pick the fall. Its knee is then where the
 * line fits best with no test at all, if that is within fall_hold_pct of
 * it: on a fall no deeper than the definition asks, only a foot far into
 * the level after passes, and a straight line to it starts early, while
 * the line that fits best turns where the curve does. Returns FALSE when
 * no pair passes on the common window. */
static gboolean
best_of_pairs (const DuelFallsRule *rule,
               const Pair          *pairs,
               guint                from,
               guint                to,
               DuelFallsTrial      *out)
{
  double best = INFINITY, best_any = INFINITY;
  DuelFallsTrial seed = pairs[from].trial, any = { 0 };

  /* Windows that reach fall_trend_pct either side come first: a pair that
   * passes only on the short windows kept for falls close together may be
   * the steep end of a fall that began further back, and its short window
   * would hide where. */
  for (guint pass = 0; pass < 2 && !isfinite (best); pass++)
    for (guint i = from; i < to; i++)
      {
        const DuelFallsTrial *t = &pairs[i].trial;
        double score = t->sse / (t->hi - t->lo + 1);

        if (pass == 0 && !pairs[i].wide)
          continue;
        if (score < best)
          {
            best = score;
            seed = *t;
          }
      }
  best = INFINITY;
  for (guint ka = seed.lo; ka < seed.hi; ka++)
    {
      if (ka - seed.lo < rule->hold && seed.lo > 0)
        continue;
      for (guint kb = ka + 1; kb <= MIN (ka + rule->max_width, seed.hi); kb++)
        {
          DuelFallsTrial t;
          double theta[4];

          if (seed.hi - kb < rule->hold)
            break;
          trial_line (rule, seed.lo, ka, kb, seed.hi, &t, theta);
          if (t.level_a > t.level_b && t.sse < best_any)
            {
              best_any = t.sse;
              any = t;
            }
          if (t.sse < best && trial_fit (rule, seed.lo, ka, kb, seed.hi, &t))
            {
              best = t.sse;
              *out = t;
            }
        }
    }
  if (!isfinite (best))
    return FALSE;
  if (isfinite (best_any) && any.a < out->b && (any.a > out->a ? any.a - out->a : out->a - any.a) <= rule->hold)
    {
      double theta[4];
      gboolean sure = out->sure;
      guint tested = out->a;

      trial_line (rule, seed.lo, any.a, out->b, seed.hi, out, theta);
      out->sure = sure;
      out->tested_a = tested;
    }
  return TRUE;
}

/* The falls among @pairs[@from … @to), in order, into @falls. The first
 * run of overlapping pairs is one fall or more: the best of them is one;
 * the pairs that end before its knee and those that begin after its foot
 * and hold (a second fall close by) are searched again on either side. */
static void
falls_of_pairs (const DuelFallsRule *rule,
                const Pair          *pairs,
                guint                from,
                guint                to,
                GArray              *falls)
{
  guint end = from, b_max;
  gboolean sure = FALSE;
  DuelFallsTrial chosen;
  g_autoptr(GArray) before = NULL;

  if (from >= to)
    return;
  b_max = pairs[from].b;
  while (end < to && pairs[end].a <= b_max)
    {
      b_max = MAX (b_max, pairs[end].b);
      sure |= pairs[end].trial.sure;
      end++;
    }
  if (!sure)
    {
      falls_of_pairs (rule, pairs, end, to, falls);
      return;
    }
  if (!best_of_pairs (rule, pairs, from, end, &chosen))
    {
      falls_of_pairs (rule, pairs, end, to, falls);
      return;
    }

  before = g_array_new (FALSE, FALSE, sizeof (Pair));
  for (guint i = from; i < end; i++)
    {
      if (pairs[i].b + rule->hold <= chosen.a)
        g_array_append_val (before, pairs[i]);
    }
  falls_of_pairs (rule, (const Pair *) (gpointer) before->data, 0, before->len, falls);
  g_array_append_val (falls, chosen);
  /* Pairs of this run that begin past the fall and its hold go on with
   * the rest (they are sorted by knee). */
  {
    guint next = from;

    while (next < end && pairs[next].a < chosen.b + rule->hold)
      next++;
    falls_of_pairs (rule, pairs, next, to, falls);
  }
}

/* Every fall of the grid curve, in order (GArray of DuelFallsTrial): every (knee,
 * foot) pair that passes on its own window, then the falls among them. */
GArray *
_duel_falls_find (const DuelFallsRule *rule)
{
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  GArray *falls = g_array_new (FALSE, FALSE, sizeof (DuelFallsTrial));
  guint n = rule->n;

  if (n < 2 * rule->hold + 2)
    return falls;

  for (guint a = 0; a + 1 < n; a++)
    for (guint b = a + 1; b <= MIN (a + rule->max_width, n - 1); b++)
      {
        guint lo, hi;
        Pair p = { .a = a, .b = b };

        /* The trends either side over fall_trend_pct, or where another
         * fall is that close, over fall_hold_pct. */
        p.wide = trial_window (rule, a, b, rule->trend, &lo, &hi) && trial_fit (rule, lo, a, b, hi, &p.trial);
        if (p.wide || (trial_window (rule, a, b, rule->hold, &lo, &hi) && trial_fit (rule, lo, a, b, hi, &p.trial)))
          g_array_append_val (pairs, p);
      }
  falls_of_pairs (rule, (const Pair *) (gpointer) pairs->data, 0, pairs->len, falls);
  return falls;
}
