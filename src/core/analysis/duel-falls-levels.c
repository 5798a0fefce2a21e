/* duel-falls-levels.c — levels on a fill's curve, and a fall told from a band
 *
 * Medians and their standard errors over the hold windows either side of
 * a knee and a foot, whether the rows show those levels, how fast the
 * trends lose, and whether a drop is a step inside a band of two levels
 * (garbage collection making whole points fast or slow) rather than a
 * fall.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-falls-private.h"

/* The median of @y[@from … @to]. */
double
_duel_falls_median_of (const double *y,
                       guint         from,
                       guint         to)
{
  guint n = to - from + 1;
  double stack[256];
  g_autofree double *heap = n > G_N_ELEMENTS (stack) ? g_new (double, n) : NULL;
  double *v = n > G_N_ELEMENTS (stack) ? heap : stack;

  memcpy (v, y + from, n * sizeof (double));
  _duel_falls_sort_doubles (v, n);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A robust standard deviation of @y[@from … @to]: 1.4826 times the median
 * absolute deviation from their median. */
static double
spread_of (const double *y,
           guint         from,
           guint         to)
{
  guint n = to - from + 1;
  double centre = _duel_falls_median_of (y, from, to), stack[256];
  g_autofree double *heap = n > G_N_ELEMENTS (stack) ? g_new (double, n) : NULL;
  double *v = n > G_N_ELEMENTS (stack) ? heap : stack;

  for (guint k = 0; k < n; k++)
    v[k] = fabs (y[from + k] - centre);
  return 1.4826 * _duel_falls_median_of (v, 0, n - 1);
}


/* ---- Levels either side ----------------------------------------------------- */

/* How fast ln IOPS fall over [@from, @to] (per step), from the medians of
 * its two halves: robust to blips that would tilt a line. */
double
_duel_falls_halves_loss_rate (const DuelFallsRule *rule,
                              guint                from,
                              guint                to)
{
  guint mid = from + (to - from) / 2;
  double first, second;

  if (to - from == rule->trend)
    {
      first = rule->med_half[mid];
      second = rule->med_half[to];
    }
  else
    {
      first = _duel_falls_median_of (rule->ln_y, from, mid);
      second = _duel_falls_median_of (rule->ln_y, mid, to);
    }
  return (first - second) / ((double) (to - from) / 2);
}

/* The standard error of the median of ln IOPS over [@from, @to]: the
 * points' spread (1.4826 x their median absolute deviation, unaffected by
 * a few outliers, over four points at least) over the square root of how
 * many independent measurements the stretch holds — its points of
 * capacity (each grid point's throughput spans one), or its rows where
 * rows are wider; a median's standard error is 1.2533 times a mean's. */
double
_duel_falls_level_error (const DuelFallsRule *rule,
                         guint                from,
                         guint                to)
{
  double measurements = MIN ((to - from + 1) / (rule->per_point * DUEL_FALLS_NOISE_PCT / DUEL_FALLS_POINT_PCT),
                             rule->row_at[to] - rule->row_at[from] + 1);
  guint last = MIN (MAX (to, from + 3), rule->n - 1), first = last >= 3 ? MIN (from, last - 3) : 0;

  return 1.2533 * spread_of (rule->noise_ln, first, last) / sqrt (MAX (measurements, 1));
}

/* The standard error of _duel_falls_halves_loss_rate (@rule, @from, @to). */
double
_duel_falls_halves_loss_error (const DuelFallsRule *rule,
                               guint                from,
                               guint                to)
{
  guint mid = from + (to - from) / 2;

  return hypot (_duel_falls_level_error (rule, from, mid), _duel_falls_level_error (rule, mid, to)) / ((double) (to - from) / 2);
}

/* How many of the five rows next to the knee (@before: back from the
 * row it is in) or the foot (on from its row) hold that level: a rate on
 * its side of halfway, in ln IOPS, between the medians over
 * fall_hold_pct before the knee and after the foot. The knee's and the
 * foot's own rows are left out (the fall may begin or end in them); for a
 * fall from the first byte, the run's first five rows are its level
 * before. Most of five, not five in a row: after garbage collection
 * starts, rows that caught no stall run at the old rate now and then. */
static guint
rows_on_level (const DuelFallsRule *rule,
               guint                a,
               guint                b,
               gboolean             before)
{
  const DuelFallsCumulative *c = rule->rows;
  double half = (rule->med_back[a] + rule->med_ahead[b]) / 2;
  guint row = rule->row_at[before ? a : b], count = 0;
  /* A fall from the first byte: its level before is the run's first rows. */
  gboolean from_start = before && a == 0;

  for (guint k = 1; k <= 5; k++)
    {
      guint r;
      double ms, ops;

      if (before && !from_start && k > row)
        break;
      r = from_start ? k - 1 : before ? row - k : row + k;
      if (r + 1 >= c->n)
        break;
      ms = c->ms[r + 1] - c->ms[r];
      ops = c->ops[r + 1] - c->ops[r];
      if (ms > 0 && ops > 0 && (before ? log (ops / ms * 1e3) > half : log (ops / ms * 1e3) < half))
        count++;
    }
  return count;
}

/* Whether the rows show the level before the fall (@before) or after it:
 * its fall_hold_pct window holds six rows or more (then its median is a
 * level, however garbage collection spreads its stalls over them), or
 * three of the five rows next to the knee (the foot) are on its side of
 * halfway. */
gboolean
_duel_falls_level_in_rows (const DuelFallsRule *rule,
                           guint                a,
                           guint                b,
                           gboolean             before)
{
  guint from = before ? (a >= rule->hold ? a - rule->hold : 0) : b;
  guint to = before ? a : MIN (b + rule->hold, rule->n - 1);

  return rule->row_at[to] - rule->row_at[from] + 1 >= 6 || rows_on_level (rule, a, b, before) >= 3;
}

/* ---- Bands ------------------------------------------------------------------ */

/* How many times @y[@from … @to] comes within @near of @level (or
 * beyond it, @beyond < 0 below, > 0 above) and stays there for @least
 * points or more. */
static guint
visits (const double *y,
        guint         from,
        guint         to,
        double        level,
        double        near,
        int           beyond,
        guint         least)
{
  guint count = 0, run = 0;

  for (guint j = from; j <= to; j++)
    {
      gboolean there = fabs (y[j] - level) <= near || (beyond < 0 && y[j] < level) || (beyond > 0 && y[j] > level);

      run = there ? run + 1 : 0;
      count += run == MAX (least, 1);
    }
  return count;
}

/* The @q quantile of @y[@from … @to]. */
static double
quantile_of (const double *y,
             guint         from,
             guint         to,
             double        q)
{
  guint n = to - from + 1;
  double stack[256];
  g_autofree double *heap = n > G_N_ELEMENTS (stack) ? g_new (double, n) : NULL;
  double *v = n > G_N_ELEMENTS (stack) ? heap : stack;

  memcpy (v, y + from, n * sizeof (double));
  _duel_falls_sort_doubles (v, n);
  return v[MIN ((guint) (q * n), n - 1)];
}

/* Whether the points of @y before (@b_from … @b_to) and after (@a_from
 * … @a_to) share their levels: a fifth of those after at or above the
 * median of those before, and a fifth of those before at or below the
 * median of those after. A fall has none of either (or, where it
 * recovers, of the first alone; where a long dip came before it, of the
 * second alone); a band has most of both. */
gboolean
_duel_falls_overlap (const double *y,
                     guint         b_from,
                     guint         b_to,
                     guint         a_from,
                     guint         a_to)
{
  double low_before = quantile_of (y, b_from, b_to, 0.5), high_after = quantile_of (y, a_from, a_to, 0.5);
  guint up = 0, down = 0;

  for (guint j = a_from; j <= a_to; j++)
    up += y[j] >= low_before;
  for (guint j = b_from; j <= b_to; j++)
    down += y[j] <= high_after;
  return up >= 0.2 * (a_to - a_from + 1) && down >= 0.2 * (b_to - b_from + 1);
}

/* How many separate stretches of @y[@from … @to] lie above @level
 * (@above) or below it. */
guint
_duel_falls_runs_beyond (const double *y,
                         guint         from,
                         guint         to,
                         double        level,
                         gboolean      above)
{
  guint count = 0;
  gboolean in = FALSE;

  for (guint j = from; j <= to; j++)
    {
      gboolean beyond = above ? y[j] > level : y[j] < level;

      count += beyond && !in;
      in = beyond;
    }
  return count;
}

/* How many times the throughput over a point comes back to @high (at or
 * above it) over [@from, @to] after it was at @low (at or below it) over
 * a point or two rows, whichever is wider, @low < @high; @start_low when
 * it counts as having been at @low before @from. With the gap between the
 * two as hysteresis, noise around one level, a recovery part of the way or
 * a level between the two counts once at most; a stall of a row or two
 * (which the throughput over a point shows for a point) and a single slow
 * row of a busy host (on coarse rows a point or more) are no visit; a band
 * of two levels counts each of its returns. */
guint
_duel_falls_returns_to_high (const DuelFallsRule *rule,
                             guint                from,
                             guint                to,
                             double               high,
                             double               low,
                             gboolean             start_low)
{
  const double *y = rule->point_ln;
  guint count = 0, low_from = 0;
  gboolean been_low = start_low, in_low = FALSE;

  for (guint j = from; j <= to; j++)
    {
      if (y[j] <= low)
        {
          if (!in_low)
            low_from = j;
          in_low = TRUE;
          if (!been_low && j + 1 - low_from >= MAX (rule->per_point, 2 * _duel_falls_rows_width (rule, low_from, j)))
            been_low = TRUE;
          continue;
        }
      in_low = FALSE;
      if (y[j] >= high && been_low)
        {
          count++;
          been_low = FALSE;
        }
    }
  return count;
}

/* Whether a fall from knee @a to foot @b is a step inside a band, where
 * garbage collection makes whole points of capacity fast or slow at
 * random: the curve goes between two levels, and has been at the level
 * after before the knee and is back at the level before after the foot,
 * within four times fall_trend_pct (40 points) either side. Read on the
 * throughput over a point (where a band whose blocks are mostly slow
 * shows its fast ones, and mostly fast its slow ones) and on the running
 * median, each level matched within a quarter of the fall's depth (or
 * beyond it, where the running median holds it); any of these says so:
 *  - the points before the knee and those after the foot share their
 *    levels (_duel_falls_overlap(); a fall has the points after below those before,
 *    but for a recovery);
 *  - the running median held one of the levels for half of fall_hold_pct
 *    on its wrong side twice, and was mostly below halfway before the
 *    knee, or another fall ends the band on the other side within the 40
 *    points (so that it has no other side);
 *  - or held it once (or went beyond it), and the throughput touched the
 *    other (or went beyond it) on its wrong side anywhere in the fill;
 *  - the throughput touched both on their wrong sides;
 *  - within 20 points of the fill's start, where the running median reads
 *    the level before over fewer points, the throughput is back above
 *    halfway twice after the foot; within 20 points of its end, below
 *    halfway three times before the knee.
 * A cache running out, or garbage collection starting, falls to a level
 * the drive has not held; it may come back, higher or part of the way or
 * even all of it once (a fall and a recovery). A host that stalls for a
 * few rows before the fall makes a dip, not a level, and after a real
 * fall it does not make rows faster; rows that caught no stall after
 * garbage collection began run at the old rate, but the curve was not at
 * the level after before. */
gboolean
_duel_falls_in_band (const DuelFallsRule *rule,
                     guint                a,
                     guint                b)
{
  double before = rule->med_back[a], after = rule->med_ahead[b];
  double near = (before - after) / 4, half_way = (before + after) / 2;
  guint reach = 4 * rule->trend, half = MAX (rule->hold / 2, 1);
  guint came_from = a > reach ? a - reach : 0, back_to = MIN (b + reach, rule->n - 1);
  guint held_came, held_back;
  gboolean touched_came, touched_back;

  if (b + half >= rule->n)
    return FALSE;
  /* Back and forth between the two levels three times or more before the
   * knee, anywhere in the fill: a band's blocks are independent, so a run
   * of its slow ones near its end looks like a fall within 40 points.
   * After the foot only where the level before is no longer than a band's
   * block can be (the knee within fall_hold_pct of the start: a fast block
   * first, then a band mostly slow). After a level held longer, the
   * drive's old speed coming back now and then for a point is a band the
   * fall led into (garbage collection resting), and the fall stands: on
   * the model's drives, reading it as a band put the fall late or in the
   * wrong place (16 in 1000 drives, against 7). Read on the throughput over
   * a point, a quarter of the depth from either level. */
  if (a > 0 && _duel_falls_returns_to_high (rule, 0, a - 1, before - near, after + near, FALSE) >= DUEL_FALLS_BAND_RETURNS)
    return TRUE;
  if (a < rule->hold && _duel_falls_returns_to_high (rule, b + 1, rule->n - 1, before - near, after + near, TRUE) >= DUEL_FALLS_BAND_RETURNS)
    return TRUE;
  if (a < reach / 2 && _duel_falls_runs_beyond (rule->point_ln, b + half, back_to, half_way, TRUE) >= 2)
    return TRUE;
  if (a <= half)
    return FALSE;
  if (b + reach / 2 >= rule->n && _duel_falls_runs_beyond (rule->point_ln, came_from, a - half, half_way, FALSE) >= 3)
    return TRUE;
  held_came = visits (rule->ln_y, came_from, a - half, after, near, -1, half);
  held_back = visits (rule->ln_y, b + half, back_to, before, near, 1, half);
  touched_came = visits (rule->point_ln, came_from, a - half, after, near, 0, 1) > 0;
  touched_back = visits (rule->point_ln, b + half, back_to, before, near, 0, 1) > 0;
  /* Held twice: a band where the curve was mostly below halfway before
   * the knee (it left its slow level for a burst), or one ended by another
   * fall close by (so that it has no other side: the curve held a fall's
   * depth below the level after soon after the foot, or above the level
   * before soon before the knee). */
  if (visits (rule->ln_y, came_from, a - half, after, near, 0, half) >= 2)
    {
      guint up = 0;

      for (guint j = came_from; j < a; j++)
        up += rule->ln_y[j] > half_way;
      if (2 * up < a - came_from || visits (rule->ln_y, b + half, back_to, after - rule->min_depth, 0, -1, half) > 0)
        return TRUE;
    }
  if (visits (rule->ln_y, b + half, back_to, before, near, 0, half) >= 2 &&
      visits (rule->ln_y, came_from, a - half, before + rule->min_depth, 0, 1, half) > 0)
    return TRUE;
  return (held_came > 0 && visits (rule->point_ln, b + 1, rule->n - 1, before, near, 1, 1) > 0) ||
         (held_back > 0 && visits (rule->point_ln, 0, a - 1, after, near, -1, 1) > 0) ||
         (touched_came && touched_back);
}

/* The width, in grid steps, of the widest of the rows the knee @a and the
 * foot @b lie in. */
double
_duel_falls_rows_width (const DuelFallsRule *rule,
                        guint                a,
                        guint                b)
{
  const DuelFallsCumulative *c = rule->rows;
  double widest = 0;

  for (guint r = rule->row_at[a]; r <= rule->row_at[b] && r + 1 < c->n; r += MAX (rule->row_at[b] - rule->row_at[a], 1))
    widest = MAX (widest, c->bytes[r + 1] - c->bytes[r]);
  return widest / rule->step_bytes;
}
