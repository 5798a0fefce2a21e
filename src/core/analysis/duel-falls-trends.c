/* duel-falls-trends.c — what a fill's curve does between its falls
 *
 * A decline: a stretch that loses fall_min_drop or more without a fall.
 * A recovery: the curve climbing back after a fall by as much as a fall
 * is deep, for good.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-falls-private.h"

/* ---- Declines and recoveries ----------------------------------------------- */

/* Between falls (and before the first, after the last) the curve follows a
 * trend. Where it loses fall_min_drop or more and stays down, it is a
 * decline: from its top to its bottom, each a level over fall_trend_pct
 * (the median of the running median @ln_y ahead of a point: slower to
 * move than a fall's levels, as a decline is), the largest loss from a
 * level to one after which the curve never holds a higher one, over
 * [@from, @to]; mostly between where the running median has gone 10 %
 * and 90 % of the way. A curve that rises before it declines declines
 * from where it stops rising, not from where the stretch begins; a dip
 * that comes back is not a decline, nor is a stretch of a band whose
 * points before the top and after the bottom share their levels. */
void
_duel_falls_add_decline (GArray              *declines,
                         const DuelFallsRule *rule,
                         guint                from,
                         guint                to,
                         double               step_pct)
{
  const double *ln_y = rule->ln_y;
  double start, end, first_ln, last_ln, worst = 0;
  guint top = from, bottom = from, peak = from, last, lo_j, hi_j, top_j, bottom_j, span = rule->trend;
  g_autofree double *level = NULL;
  g_autofree double *highest_after = NULL;

  /* Levels whose window lies within the stretch. */
  if (to < from + 2 * span)
    return;
  last = to - span;
  level = g_new (double, last - from + 1);
  for (guint j = from; j <= last; j++)
    level[j - from] = _duel_falls_median_of (ln_y, j, j + span);
  highest_after = g_new (double, last - from + 1);
  highest_after[last - from] = level[last - from];
  for (guint j = last; j-- > from;)
    highest_after[j - from] = MAX (level[j - from], highest_after[j - from + 1]);
  for (guint j = from; j <= last; j++)
    {
      if (level[j - from] > level[peak - from])
        peak = j;
      if (level[peak - from] - highest_after[j - from] > worst)
        {
          worst = level[peak - from] - highest_after[j - from];
          top = peak;
          bottom = j;
        }
    }
  if (!(worst >= rule->min_depth))
    return;
  {
    guint before_from = top > from + 2 * span ? top - 2 * span : from;
    guint after_to = MIN (bottom + span + 2 * span, to);

    if (top > before_from + rule->hold && after_to > bottom + span + rule->hold &&
        _duel_falls_overlap (rule->point_ln, before_from, top, bottom + span, after_to))
      return;
  }
  /* … nor is a stretch whose throughput goes back and forth between the
   * top's level and the bottom's (a quarter of the way either side) three
   * times or more: a band whose mix of fast and slow blocks drifts. */
  {
    double near = (level[top - from] - level[bottom - from]) / 4;

    if (_duel_falls_returns_to_high (rule, from, to, level[top - from] - near,
                                     level[bottom - from] + near, FALSE) >= DUEL_FALLS_BAND_RETURNS)
      return;
  }
  start = level[top - from];
  end = level[bottom - from];
  first_ln = start - 0.1 * (start - end);
  last_ln = start - 0.9 * (start - end);
  lo_j = top;
  while (lo_j < bottom + span && ln_y[lo_j] > first_ln)
    lo_j++;
  hi_j = bottom + span;
  while (hi_j > lo_j && ln_y[hi_j] < last_ln)
    hi_j--;
  /* Where it starts to lose speed: the last point at the top's level
   * (within a hundredth of the way) before the tenth of the way (a level
   * is read over the window ahead of a point, so the top's window starts
   * before the curve turns); where it stops: the first at the bottom's
   * after nine tenths. */
  top_j = lo_j;
  while (top_j > top && ln_y[top_j] < start - 0.01 * (start - end))
    top_j--;
  bottom_j = MAX (hi_j, lo_j);
  while (bottom_j < bottom + span && ln_y[bottom_j] > end + 0.01 * (start - end))
    bottom_j++;
  {
    DuelDecline d = {
      .from_pct = lo_j * step_pct,
      .to_pct = MAX (hi_j, lo_j) * step_pct,
      .from_iops = exp (start),
      .to_iops = exp (end),
      .top_pct = top_j * step_pct,
      .bottom_pct = bottom_j * step_pct,
    };

    g_array_append_val (declines, d);
  }
}

/* After fall @fall, whose foot is at @from, the curve may climb back
 * before the next fall's knee at @to: where the highest level over
 * fall_hold_pct (the median ahead) is above the lowest before it by as
 * much as a fall is deep, and above the fall's level after by half that
 * (not a dip that came back to it), it recovers, from that lowest level
 * (where a fall's foot comes early, the curve goes on down a little
 * first) to the highest. The recovery ends where the curve is nine
 * tenths of the way up, and begins where it last left the lowest level
 * (a tenth of the way up) before that. */
void
_duel_falls_add_recovery (GArray              *recoveries,
                          const DuelFallsRule *rule,
                          guint                fall,
                          guint                from,
                          guint                to,
                          double               step_pct)
{
  double after = rule->med_ahead[from], rise, low;
  guint top = from, bottom = from, start, end, begins;

  for (guint j = from; j + rule->hold <= to && j + rule->hold < rule->n; j++)
    if (rule->med_ahead[j] > rule->med_ahead[top])
      top = j;
  for (guint j = from; j <= top; j++)
    if (rule->med_ahead[j] < rule->med_ahead[bottom])
      bottom = j;
  low = rule->med_ahead[bottom];
  rise = rule->med_ahead[top] - low;
  if (!(rise >= rule->min_depth) || !(rule->med_ahead[top] - after >= rule->min_depth / 2))
    return;
  start = top;
  while (start > bottom && rule->ln_y[start] > low + 0.1 * rise)
    start--;
  end = start;
  while (end < top + rule->hold && end + 1 < rule->n && rule->ln_y[end] < low + 0.9 * rise)
    end++;
  /* The top's level is read over the window ahead of it, so that the
   * climb can come after it: where it begins, said, is where the curve
   * last left the lowest level before nine tenths. */
  begins = end;
  while (begins > start && rule->ln_y[begins] > low + 0.1 * rise)
    begins--;
  /* It holds: the faster blocks of a band of two levels are no recovery,
   * as within fall_trend_pct after them the curve is back below halfway,
   * or within 4 x fall_trend_pct its levels go back near the lowest and
   * leave again, or they were near the highest already since the lowest.
   * A recovery the curve then loses slowly (once) stays one; one too
   * close to the next fall or the fill's end to tell (fall_trend_pct) is
   * none, and so is one as quick as a fall (within fall_max_pct) too close
   * to the fill's end to see it hold for good (below) that long. */
  if (end + (to + 1 >= rule->n && end <= begins + rule->max_width ? MAX (rule->trend, rule->max_width) : rule->trend) >
      MIN (to, rule->n - 1))
    return;
  for (guint j = end; j <= end + rule->trend; j++)
    if (rule->ln_y[j] < low + 0.5 * rise)
      return;
  if (_duel_falls_runs_beyond (rule->med_ahead, end, MIN (end + 4 * rule->trend, MIN (to, rule->n - 1)), low + 0.25 * rise, FALSE) >= 2 ||
      (start >= bottom + rule->hold && _duel_falls_runs_beyond (rule->med_ahead, bottom, start - rule->hold, low + 0.75 * rise, TRUE) > 0))
    return;
  /* And for good: a level, not a run of a band's faster blocks, however
   * long the band goes on. Up to the next fall or the fill's end (where
   * the running median still has its whole window), the curve never goes
   * back from near the highest to near the lowest (a quarter of the rise)
   * as quickly as a fall, within fall_max_pct (at the fill's end, it was
   * seen that long), nor below halfway and up near the highest again; and
   * since the fall (a hold window past its foot) it had not been near the
   * highest and back near the lowest. A slow loss after it is a decline. */
  {
    guint last = to + 1 < rule->n ? (to > rule->hold ? to - rule->hold : 0) : rule->n - 1 - rule->hold / 2, high = end;
    gboolean below_half = FALSE, was_high = FALSE;

    for (guint j = end; j <= last; j++)
      {
        if (rule->ln_y[j] >= low + 0.75 * rise)
          {
            if (below_half)
              return;
            high = j;
          }
        else if (rule->ln_y[j] < low + 0.25 * rise && j - high <= rule->max_width)
          return;
        below_half |= rule->ln_y[j] < low + 0.5 * rise;
      }
    for (guint j = from + rule->hold; j < begins; j++)
      {
        if (rule->ln_y[j] >= low + 0.75 * rise)
          was_high = TRUE;
        else if (was_high && rule->ln_y[j] < low + 0.25 * rise)
          return;
      }
  }
  {
    DuelRecovery r = {
      .fall = fall,
      .from_pct = begins * step_pct,
      .to_pct = end * step_pct,
      .from_iops = exp (low),
      .to_iops = exp (rule->med_ahead[top]),
    };

    g_array_append_val (recoveries, r);
  }
}
