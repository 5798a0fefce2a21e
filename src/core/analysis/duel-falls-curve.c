/* duel-falls-curve.c — the curve a fill's falls are read on
 *
 * A direction's rows as cumulative bytes, ops and time, any byte position
 * interpolated between them; the rows taken together until each holds
 * enough writes to be a rate; and the throughput on a grid of
 * cliff_step_pct, each point over a window of capacity around it. The
 * cliff chart's curve (duel_analysis_cliff_curve()) is the same grid over
 * a running median of rows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "duel-falls-private.h"

/* Sorts @n doubles: insertion sort for the short windows of the running
 * medians (called once a row and once a grid point), qsort beyond. */
void
_duel_falls_sort_doubles (double *v,
                          guint   n)
{
  if (n > 32)
    {
      qsort (v, n, sizeof (double), _duel_analysis_compare_doubles);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      double x = v[i];
      guint j = i;

      for (; j > 0 && v[j - 1] > x; j--)
        v[j] = v[j - 1];
      v[j] = x;
    }
}

/* ---- The cumulative curve --------------------------------------------------- */

/* With @median_rows > 1, each row's rate is first replaced by the median
 * rate of the @median_rows rows centred on it (fewer at the ends): its bytes
 * and ops stay, its time becomes ops / median. A single interval, a burst or
 * a stall, then cannot move the curve, however many bytes it covers. */
static void
cumulative_init (DuelFallsCumulative *c,
                 const DuelSeries    *series,
                 DuelDirection        direction,
                 guint                median_rows)
{
  guint n = duel_series_get_length (series);
  guint half = median_rows / 2;
  g_autofree double *rate = g_new (double, MAX (n, 1));
  g_autofree double *smooth = g_new (double, MAX (n, 1));
  g_autofree double *window = g_new (double, 2 * half + 1);
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint64 prev_t = 0;

  duel_series_iter_init (&iter, series);
  for (guint i = 0; (row = duel_series_iter_next (&iter)) != NULL; i++)
    {
      guint64 ms = row->t_ms > prev_t ? row->t_ms - prev_t : 0;

      rate[i] = ms > 0 ? row->ops[direction] / (ms / 1e3) : NAN;
      prev_t = row->t_ms;
    }

  /* The median of each row's window (rows without time left out). */
  for (guint i = 0; i < n && half > 0; i++)
    {
      guint lo = i >= half ? i - half : 0, hi = MIN (i + half, n - 1), k = 0;

      for (guint j = lo; j <= hi; j++)
        {
          if (!isnan (rate[j]))
            window[k++] = rate[j];
        }
      smooth[i] = NAN;
      if (k > 0)
        {
          _duel_falls_sort_doubles (window, k);
          smooth[i] = k % 2 ? window[k / 2] : (window[k / 2 - 1] + window[k / 2]) / 2;
        }
    }
  c->n = n + 1;
  c->bytes = g_new (double, n + 1);
  c->ops = g_new (double, n + 1);
  c->ms = g_new (double, n + 1);
  c->bytes[0] = c->ops[0] = c->ms[0] = 0;
  prev_t = 0;
  duel_series_iter_init (&iter, series);
  for (guint i = 0; (row = duel_series_iter_next (&iter)) != NULL; i++)
    {
      double ms = row->t_ms > prev_t ? (double) (row->t_ms - prev_t) : 0;
      double ops = (double) row->ops[direction];

      prev_t = row->t_ms;
      if (half > 0 && smooth[i] > 0)
        ms = ops / smooth[i] * 1e3;
      c->bytes[i + 1] = c->bytes[i] + (double) row->bytes[direction];
      c->ops[i + 1] = c->ops[i] + ops;
      c->ms[i + 1] = c->ms[i] + ms;
    }
}

void
_duel_falls_cumulative_clear (DuelFallsCumulative *c)
{
  g_clear_pointer (&c->bytes, g_free);
  g_clear_pointer (&c->ops, g_free);
  g_clear_pointer (&c->ms, g_free);
}

double
_duel_falls_cumulative_total (const DuelFallsCumulative *c)
{
  return c->bytes[c->n - 1];
}

/* The first row end at or past @b bytes (1-based into the arrays); @b is
 * inside (0, total]. */
static guint
cumulative_lower_bound (const DuelFallsCumulative *c,
                        double                     b)
{
  guint lo = 1, hi = c->n - 1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (c->bytes[mid] >= b)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Ops done and time spent when the writes first reached @b bytes. */
void
_duel_falls_cumulative_at (const DuelFallsCumulative *c,
                           double                     b,
                           double                    *out_ops,
                           double                    *out_ms)
{
  double total = _duel_falls_cumulative_total (c), f;
  guint i;

  if (b <= 0 || total <= 0)
    {
      *out_ops = 0;
      *out_ms = 0;
      return;
    }
  b = MIN (b, total);
  i = cumulative_lower_bound (c, b);
  f = (b - c->bytes[i - 1]) / (c->bytes[i] - c->bytes[i - 1]);
  *out_ops = c->ops[i - 1] + f * (c->ops[i] - c->ops[i - 1]);
  *out_ms = c->ms[i - 1] + f * (c->ms[i] - c->ms[i - 1]);
}

/* The row (0-based) during which the writes passed @b bytes: the first row
 * that ends after it. */
guint
_duel_falls_cumulative_row_passing (const DuelFallsCumulative *c,
                                    double                     b)
{
  guint lo = 1, hi = c->n - 1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (c->bytes[mid] > b)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo - 1;
}

double
_duel_falls_series_written (const DuelSeries *series)
{
  DuelSeriesRow total;

  duel_series_sum (series, &total);
  return (double) total.bytes[DUEL_DIRECTION_WRITE];
}

/* The next row of @iter's writes summed with the rows after it until it
 * holds at least @min_ops writes or @max_bytes bytes (the last may hold
 * fewer), or FALSE past the end. */
static gboolean
next_coalesced (DuelSeriesIter *iter,
                guint64         min_ops,
                double          max_bytes,
                guint64        *out_t_ms,
                guint64        *out_ops,
                guint64        *out_bytes)
{
  const DuelSeriesRow *row = duel_series_iter_next (iter);
  guint64 ops = 0, bytes = 0;

  if (row == NULL)
    return FALSE;
  for (; row != NULL; row = duel_series_iter_next (iter))
    {
      ops += row->ops[DUEL_DIRECTION_WRITE];
      bytes += row->bytes[DUEL_DIRECTION_WRITE];
      *out_t_ms = row->t_ms;
      if (ops >= min_ops || (double) bytes >= max_bytes)
        break;
    }
  *out_ops = ops;
  *out_bytes = bytes;
  return TRUE;
}

/* The cumulative curve of @series' writes, its rows taken together until
 * each holds at least @min_ops writes or @max_bytes (the last may hold
 * fewer). Then
 * Tukey's end-point rule for the first of them: its rate is held against
 * its neighbour and the line through the next two (the median of the
 * three), so that a first interval faster or slower than the run (a start
 * the device was not yet in step with) is not a level; its time changes,
 * and with it the end of every row after. Two passes over the rows and
 * nothing but the curve kept: a copy of the rows would take more memory
 * than the series itself. */
void
_duel_falls_cumulative_init_coalesced (DuelFallsCumulative *c,
                                       const DuelSeries    *series,
                                       guint64              min_ops,
                                       double               max_bytes)
{
  DuelSeriesIter iter;
  guint m = 0;
  guint64 t_ms[3] = { 0 }, ops[3] = { 0 }, t = 0, o = 0, b = 0, prev_t = 0;
  gint64 shift = 0;
  gboolean shifted = FALSE;

  duel_series_iter_init (&iter, series);
  while (next_coalesced (&iter, min_ops, max_bytes, &t, &o, &b))
    {
      if (m < 3)
        {
          t_ms[m] = t;
          ops[m] = o;
        }
      m++;
    }
  if (m >= 3)
    {
      double d[3] = { t_ms[0], t_ms[1] - t_ms[0], t_ms[2] - t_ms[1] }, v[3];
      double ops0 = ops[0];

      if (d[0] > 0 && d[1] > 0 && d[2] > 0 && ops0 > 0)
        {
          double next = ops[1] / d[1];

          v[0] = ops0 / d[0];
          v[1] = next;
          v[2] = 3 * next - 2 * (ops[2] / d[2]);
          _duel_falls_sort_doubles (v, 3);
          if (v[1] > 0)
            {
              shift = llround (ops0 / v[1]) - (gint64) t_ms[0];
              shifted = TRUE;
            }
        }
    }

  c->n = m + 1;
  c->bytes = g_new (double, m + 1);
  c->ops = g_new (double, m + 1);
  c->ms = g_new (double, m + 1);
  c->bytes[0] = c->ops[0] = c->ms[0] = 0;
  duel_series_iter_init (&iter, series);
  for (guint r = 0; next_coalesced (&iter, min_ops, max_bytes, &t, &o, &b); r++)
    {
      double ms;

      if (shifted)
        t = (guint64) MAX ((gint64) t + shift, 1);
      ms = t > prev_t ? (double) (t - prev_t) : 0;
      prev_t = t;
      c->bytes[r + 1] = c->bytes[r] + (double) b;
      c->ops[r + 1] = c->ops[r] + (double) o;
      c->ms[r + 1] = c->ms[r] + ms;
    }
}

/* The smoothed curve on the grid x_j = j x step (bytes), j = 0 … J with
 * x_J <= the bytes written: the mean IOPS over [x_j − half, x_j + half]
 * clipped to [0, written]. NAN where that window has no time. */
GArray *
_duel_falls_smoothed_grid (const DuelFallsCumulative *c,
                           double                     step,
                           double                     half)
{
  double total = _duel_falls_cumulative_total (c);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (double));
  guint n_points;

  if (!(step > 0) || !(total > 0))
    return out;
  /* A window narrower than a grid step would skip data between points. */
  half = MAX (half, step / 2);
  n_points = (guint) floor (total / step * (1 + 1e-12)) + 1;
  g_array_set_size (out, n_points);
  for (guint j = 0; j < n_points; j++)
    {
      double x = j * step, ops_lo, ms_lo, ops_hi, ms_hi, value = NAN;

      _duel_falls_cumulative_at (c, MAX (x - half, 0), &ops_lo, &ms_lo);
      _duel_falls_cumulative_at (c, MIN (x + half, total), &ops_hi, &ms_hi);
      if (ms_hi > ms_lo)
        value = (ops_hi - ops_lo) / ((ms_hi - ms_lo) / 1e3);
      g_array_index (out, double, j) = isfinite (value) ? value : NAN;
    }
  return out;
}

double
_duel_falls_grid_step_bytes (const DuelAnalysisParams *params,
                             double                    span)
{
  return MAX (params->cliff_step_pct, DUEL_CLIFF_MIN_STEP_PCT) / 100.0 * span;
}

GArray *
duel_analysis_cliff_curve (const DuelSeries         *series,
                           guint64                   span_bytes,
                           const DuelAnalysisParams *params)
{
  DuelFallsCumulative c;
  GArray *out;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (params != NULL, NULL);

  if (span_bytes == 0)
    return g_array_new (FALSE, TRUE, sizeof (double));
  cumulative_init (&c, series, DUEL_DIRECTION_WRITE, params->cliff_smooth_rows);
  out = _duel_falls_smoothed_grid (&c, _duel_falls_grid_step_bytes (params, (double) span_bytes),
                       MAX (params->cliff_smooth_pct, 0) / 200.0 * (double) span_bytes);
  _duel_falls_cumulative_clear (&c);
  return out;
}
