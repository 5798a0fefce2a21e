/* duel-saturation.c — 4K random write from empty to N x the span: points, cliff, plateau, steady state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"
#include "duel-json.h"

/* The pre-cliff trend of a knee falls at less than this share of the fall's rate. */
#define DUEL_CLIFF_TURN 0.5

/* ---- Write saturation ------------------------------------------------------ */

static guint64
series_total_bytes (const DuelSeries *series,
                    DuelDirection     direction)
{
  const DuelSeriesRow *rows = duel_series_get_rows (series);
  guint n = duel_series_get_length (series);
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    total += rows[i].bytes[direction];
  return total;
}

/* The window in bytes; duel_analysis_window_mean() converts from % of capacity. */
static void
window_mean_bytes (const DuelSeries *series,
                   DuelDirection     direction,
                   double            lo,
                   double            hi,
                   DuelWindowMean   *out)
{
  const DuelSeriesRow *rows = duel_series_get_rows (series);
  guint n = duel_series_get_length (series);
  guint64 cum = 0, prev_t = 0;
  guint64 total = series_total_bytes (series, direction);

  out->ops = 0;
  out->seconds = 0;
  out->iops = NAN;

  for (guint i = 0; i < n; i++)
    {
      guint64 bytes = rows[i].bytes[direction];
      double seconds = (rows[i].t_ms - prev_t) / 1e3;
      double start = (double) cum, end = (double) (cum + bytes);

      if (bytes > 0)
        {
          double overlap = MIN (end, hi) - MAX (start, lo);

          if (overlap > 0)
            {
              double f = overlap / (double) bytes;

              out->ops += rows[i].ops[direction] * f;
              out->seconds += seconds * f;
            }
        }
      else if (start >= lo && start <= hi)
        {
          /* A stall writes nothing: it has no width in bytes, but its time
           * belongs to the window it happened in. */
          out->seconds += seconds;
        }

      cum += bytes;
      prev_t = rows[i].t_ms;
    }

  /* Half a byte of slack absorbs the rounding of % → bytes. */
  if (hi > lo && (double) total + 0.5 >= hi && out->seconds > 0)
    out->iops = out->ops / out->seconds;
}

void
duel_analysis_window_mean (const DuelSeries *series,
                           DuelDirection     direction,
                           guint64           span_bytes,
                           double            lo_pct,
                           double            hi_pct,
                           DuelWindowMean   *out)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (direction < DUEL_N_DIRECTIONS);
  g_return_if_fail (out != NULL);

  lo_pct = MAX (lo_pct, 0);
  window_mean_bytes (series, direction,
                     lo_pct / 100.0 * (double) span_bytes,
                     hi_pct / 100.0 * (double) span_bytes, out);
  out->lo_pct = lo_pct;
  out->hi_pct = hi_pct;
  if (span_bytes == 0)
    out->iops = NAN;
}

gboolean
duel_analysis_steady_state_window (const double          *round_values,
                                   guint                  n_rounds,
                                   guint                  first,
                                   guint                  n,
                                   double                 data_limit,
                                   double                 slope_limit,
                                   DuelSteadyStateWindow *out)
{
  double sum = 0, min = INFINITY, max = -INFINITY;
  double x_mean, sxx = 0, sxy = 0;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (n >= 1 && n <= DUEL_STEADY_STATE_MAX_WINDOW, FALSE);

  memset (out, 0, sizeof *out);
  out->first_round = first + 1;
  out->n = n;
  out->mean = out->slope = out->intercept = NAN;
  out->data_excursion = out->data_limit = NAN;
  out->slope_excursion = out->slope_excursion_tkperf = out->slope_limit = NAN;

  if (round_values == NULL || first + n > n_rounds)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      double y = round_values[first + i];

      out->values[i] = y;
      sum += y;
      min = MIN (min, y);
      max = MAX (max, y);
    }
  out->complete = TRUE;
  out->mean = sum / n;

  /* Least squares over (round number, value); the round numbers are 1-based. */
  x_mean = first + 1 + (n - 1) / 2.0;
  for (guint i = 0; i < n; i++)
    {
      double dx = (first + 1 + i) - x_mean;

      sxx += dx * dx;
      sxy += dx * (out->values[i] - out->mean);
    }
  out->slope = sxx > 0 ? sxy / sxx : 0;
  out->intercept = out->mean - out->slope * x_mean;

  out->data_excursion = max - min;
  out->data_limit = data_limit * out->mean;
  out->slope_excursion = fabs (out->slope) * (n - 1);
  out->slope_excursion_tkperf = fabs (out->slope) * n;
  out->slope_limit = slope_limit * out->mean;
  out->data_ok = out->data_excursion <= out->data_limit;
  out->slope_ok = out->slope_excursion <= out->slope_limit;
  out->slope_ok_tkperf = out->slope_excursion_tkperf <= out->slope_limit;
  out->steady = out->data_ok && out->slope_ok;
  return TRUE;
}

GArray *
duel_analysis_rounds (const DuelSeries *series,
                      DuelDirection     direction,
                      guint64           round_ms)
{
  const DuelSeriesRow *rows;
  guint n, n_rounds;
  guint64 prev_t = 0;
  GArray *values;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (round_ms > 0, NULL);

  rows = duel_series_get_rows (series);
  n = duel_series_get_length (series);
  n_rounds = (guint) (_duel_analysis_series_end_ms (series) / round_ms);

  values = g_array_sized_new (FALSE, TRUE, sizeof (double), n_rounds);
  g_array_set_size (values, n_rounds);

  for (guint i = 0; i < n; i++)
    {
      guint64 start = prev_t, end = rows[i].t_ms;
      double ops = rows[i].ops[direction];

      prev_t = end;
      if (end <= start)
        continue;
      for (guint64 r = start / round_ms; r < n_rounds && r * round_ms < end; r++)
        {
          guint64 lo = MAX (start, r * round_ms);
          guint64 hi = MIN (end, (r + 1) * round_ms);

          if (hi > lo)
            g_array_index (values, double, r) += ops * (double) (hi - lo) / (double) (end - start);
        }
    }

  for (guint r = 0; r < n_rounds; r++)
    g_array_index (values, double, r) /= round_ms / 1e3;

  return values;
}

void
duel_analysis_steady_state_from (const double             *round_values,
                                 guint                     n_rounds,
                                 guint                     first_round,
                                 double                    level,
                                 const DuelAnalysisParams *params,
                                 DuelSteadyState          *out)
{
  guint n;

  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  n = CLAMP (params->ss_window_rounds, 1, DUEL_STEADY_STATE_MAX_WINDOW);

  memset (out, 0, sizeof *out);
  out->rounds = g_array_sized_new (FALSE, TRUE, sizeof (double), n_rounds);
  if (n_rounds > 0)
    g_array_append_vals (out->rounds, round_values, n_rounds);

  duel_analysis_steady_state_window (round_values, n_rounds,
                                     n_rounds >= n ? n_rounds - n : 0, n,
                                     params->ss_data_limit, params->ss_slope_limit,
                                     &out->last);

  if (first_round == G_MAXUINT)
    return;
  out->searched = TRUE;
  out->search_from_round = first_round + 1;

  /* SNIA: check from round n on, stop at the first window that passes. */
  for (guint end = MAX (n, first_round + n); end <= n_rounds; end++)
    {
      DuelSteadyStateWindow window;

      duel_analysis_steady_state_window (round_values, n_rounds, end - n, n,
                                         params->ss_data_limit, params->ss_slope_limit,
                                         &window);
      if (window.steady &&
          (!isfinite (level) || fabs (window.mean - level) <= params->ss_data_limit * level))
        {
          out->found = TRUE;
          out->first_steady_round = end;
          out->first = window;
          break;
        }
    }
}

void
duel_analysis_steady_state (const double             *round_values,
                            guint                     n_rounds,
                            const DuelAnalysisParams *params,
                            DuelSteadyState          *out)
{
  duel_analysis_steady_state_from (round_values, n_rounds, 0, NAN, params, out);
}

void
duel_steady_state_clear (DuelSteadyState *state)
{
  g_return_if_fail (state != NULL);

  g_clear_pointer (&state->rounds, g_array_unref);
}

GArray *
duel_analysis_written_pct (const DuelSeries *series,
                           DuelDirection     direction,
                           guint64           span_bytes)
{
  const DuelSeriesRow *rows;
  guint n;
  guint64 cum = 0;
  GArray *out;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (direction < DUEL_N_DIRECTIONS, NULL);

  rows = duel_series_get_rows (series);
  n = duel_series_get_length (series);
  out = g_array_sized_new (FALSE, TRUE, sizeof (double), n);
  for (guint i = 0; i < n; i++)
    {
      double pct;

      cum += rows[i].bytes[direction];
      pct = span_bytes > 0 ? (double) cum / (double) span_bytes * 100.0 : NAN;
      g_array_append_val (out, pct);
    }
  return out;
}

/* The cumulative curve of one direction: bytes, ops and time at each row's
 * end (index 0 is the start), so that any byte position can be interpolated
 * (a row's rate is taken as even within it, as in the window rule). */
typedef struct
{
  guint   n;         /* rows + 1 */
  double *bytes;
  double *ops;
  double *ms;
} Cumulative;

/* With @median_rows > 1, each row's rate is first replaced by the median
 * rate of the @median_rows rows centred on it (fewer at the ends): its bytes
 * and ops stay, its time becomes ops / median. A single interval, a burst or
 * a stall, then cannot move the curve, however many bytes it covers. */
static void
cumulative_init (Cumulative       *c,
                 const DuelSeries *series,
                 DuelDirection     direction,
                 guint             median_rows)
{
  const DuelSeriesRow *rows = duel_series_get_rows (series);
  guint n = duel_series_get_length (series);
  guint half = median_rows / 2;
  g_autofree double *rate = g_new (double, MAX (n, 1));
  g_autofree double *window = g_new (double, 2 * half + 1);
  guint64 prev_t = 0;

  for (guint i = 0; i < n; i++)
    {
      guint64 ms = rows[i].t_ms > prev_t ? rows[i].t_ms - prev_t : 0;

      rate[i] = ms > 0 ? rows[i].ops[direction] / (ms / 1e3) : NAN;
      prev_t = rows[i].t_ms;
    }

  c->n = n + 1;
  c->bytes = g_new (double, n + 1);
  c->ops = g_new (double, n + 1);
  c->ms = g_new (double, n + 1);
  c->bytes[0] = c->ops[0] = c->ms[0] = 0;
  prev_t = 0;
  for (guint i = 0; i < n; i++)
    {
      double ms = rows[i].t_ms > prev_t ? (double) (rows[i].t_ms - prev_t) : 0;
      double ops = (double) rows[i].ops[direction];

      prev_t = rows[i].t_ms;
      if (half > 0)
        {
          guint lo = i >= half ? i - half : 0, hi = MIN (i + half, n - 1), k = 0;

          for (guint j = lo; j <= hi; j++)
            {
              if (!isnan (rate[j]))
                window[k++] = rate[j];
            }
          if (k > 0)
            {
              double median;

              qsort (window, k, sizeof (double), _duel_analysis_compare_doubles);
              median = k % 2 ? window[k / 2] : (window[k / 2 - 1] + window[k / 2]) / 2;
              if (median > 0)
                ms = ops / median * 1e3;
            }
        }
      c->bytes[i + 1] = c->bytes[i] + (double) rows[i].bytes[direction];
      c->ops[i + 1] = c->ops[i] + ops;
      c->ms[i + 1] = c->ms[i] + ms;
    }
}

static void
cumulative_clear (Cumulative *c)
{
  g_clear_pointer (&c->bytes, g_free);
  g_clear_pointer (&c->ops, g_free);
  g_clear_pointer (&c->ms, g_free);
}

static double
cumulative_total (const Cumulative *c)
{
  return c->bytes[c->n - 1];
}

/* The first row end at or past @b bytes (1-based into the arrays); @b is
 * inside (0, total]. */
static guint
cumulative_lower_bound (const Cumulative *c,
                        double            b)
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
static void
cumulative_at (const Cumulative *c,
               double            b,
               double           *out_ops,
               double           *out_ms)
{
  double total = cumulative_total (c), f;
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

/* The smoothed curve on the grid x_j = j x step (bytes), j = 0 … J with
 * x_J <= the bytes written: the mean IOPS over [x_j − half, x_j + half]
 * clipped to [0, written]. NAN where that window has no time. */
static GArray *
smoothed_grid (const Cumulative *c,
               double            step,
               double            half)
{
  double total = cumulative_total (c);
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

      cumulative_at (c, MAX (x - half, 0), &ops_lo, &ms_lo);
      cumulative_at (c, MIN (x + half, total), &ops_hi, &ms_hi);
      if (ms_hi > ms_lo)
        value = (ops_hi - ops_lo) / ((ms_hi - ms_lo) / 1e3);
      g_array_index (out, double, j) = isfinite (value) ? value : NAN;
    }
  return out;
}

GArray *
duel_analysis_cliff_curve (const DuelSeries         *series,
                           guint64                   span_bytes,
                           const DuelAnalysisParams *params)
{
  Cumulative c;
  GArray *out;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (params != NULL, NULL);

  if (span_bytes == 0)
    return g_array_new (FALSE, TRUE, sizeof (double));
  cumulative_init (&c, series, DUEL_DIRECTION_WRITE, params->cliff_smooth_rows);
  out = smoothed_grid (&c, MAX (params->cliff_step_pct, DUEL_CLIFF_MIN_STEP_PCT) / 100.0 * (double) span_bytes,
                       MAX (params->cliff_smooth_pct, 0) / 200.0 * (double) span_bytes);
  cumulative_clear (&c);
  return out;
}

/* ---- The knee fit ----------------------------------------------------------- */

/* Prefix sums over grid points j < i of 1, j, j², y, j·y, y². */
typedef struct
{
  double s0, s1, s2, y0, y1, y2;
} Moments;

static Moments *
moments_prefix (const double *y,
                guint         n)
{
  Moments *prefix = g_new0 (Moments, n + 1);

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
 * the last segment; on a segment the function is θ_i (1 − u) + θ_(i+1) u,
 * u = (j − k_i) / (k_(i+1) − k_i). The normal equations are tridiagonal.
 * Fills @theta (the values at the knots) and returns the residual sum of
 * squares. */
static double
fit_segments (const Moments *prefix,
              const guint   *k,
              guint          m,
              double        *theta)
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

typedef struct
{
  guint  knee;          /* grid index of the first breakpoint */
  guint  fall_end;      /* grid index of the second */
  double knee_level;    /* the fitted values there, in the units of y */
  double fall_end_level;
} KneeFit;

/* Over the grid points @first … @last, the continuous three-segment line
 * (pre-cliff trend, fall, plateau) with the least squared residuals, its
 * knee in [@first, @anchor] and the end of its fall in (@anchor, @fall_max].
 * A knee at @first leaves no pre-cliff segment (two segments). */
static void
fit_knee (const Moments *prefix,
          guint          first,
          guint          anchor,
          guint          fall_max,
          guint          last,
          KneeFit       *out)
{
  double best = INFINITY;

  g_assert (first <= anchor && anchor < fall_max && fall_max < last);

  for (guint k1 = first; k1 <= anchor; k1++)
    for (guint k2 = anchor + 1; k2 <= fall_max; k2++)
      {
        guint knots[4];
        double theta[4], sse;
        guint m = 0;

        knots[m++] = first;
        if (k1 > first)
          knots[m++] = k1;
        knots[m++] = k2;
        knots[m++] = last;
        sse = fit_segments (prefix, knots, m, theta);
        /* A knee is a turn: before it the curve falls at less than half the
         * rate of the fall (or rises). Otherwise the breakpoint only cuts a
         * straight fall in two, wherever the noise puts it best. */
        if (m == 4)
          {
            double pre = (theta[1] - theta[0]) / (double) (k1 - first);
            double fall = (theta[2] - theta[1]) / (double) (k2 - k1);

            if (!(fall < 0 && pre > DUEL_CLIFF_TURN * fall))
              continue;
          }
        if (sse < best)
          {
            best = sse;
            out->knee = k1;
            out->fall_end = k2;
            out->knee_level = theta[m - 3];
            out->fall_end_level = theta[m - 2];
          }
      }
}

static void
find_cliff (const Cumulative         *cum,
            const Cumulative         *raw,
            double                    span,
            const DuelAnalysisParams *params,
            DuelSaturation           *out)
{
  double step = MAX (params->cliff_step_pct, DUEL_CLIFF_MIN_STEP_PCT) / 100.0 * span;
  double half = MAX (params->cliff_smooth_pct, 0) / 200.0 * span;
  double plateau = out->plateau.iops, peak = -INFINITY, level, scale;
  double min_drop = CLAMP (params->cliff_min_drop, 0, 1);
  g_autoptr(GArray) smoothed = NULL;
  g_autoptr(GArray) fine = NULL;
  g_autofree Moments *prefix = NULL;
  g_autofree double *y = NULL;
  const double *s;
  guint n, anchor = 0, reach, first, fall_max;
  gboolean crossed = FALSE;
  KneeFit fit = { 0 };

  if (!(span > 0) || !isfinite (plateau))
    return;
  smoothed = smoothed_grid (cum, step, half);
  s = (const double *) (gpointer) smoothed->data;
  n = smoothed->len;
  for (guint j = 0; j < n; j++)
    {
      if (isnan (s[j]))
        return;
      peak = MAX (peak, s[j]);
    }
  if (n < 4 || !(peak > 0))
    return;
  out->cliff_peak_iops = peak;

  /* Not a quarter above the plateau anywhere: no cliff to look for. */
  if (plateau >= (1 - min_drop) * peak)
    return;

  /* The fall: the last crossing of the level between the peak and the
   * plateau, after which the curve stays below it. A dip that recovers, a
   * drive that speeds up first, a plateau above half the start: none of
   * them moves this crossing. */
  level = peak - CLAMP (params->cliff_fraction, 0, 1) * (peak - plateau);
  for (guint j = n; j-- > 0;)
    {
      if (s[j] >= level)
        {
          anchor = j;
          crossed = TRUE;
          break;
        }
    }
  /* The run must go on below the level, with room for a plateau segment. */
  if (!crossed || anchor + 2 >= n)
    return;
  out->cliff_threshold_iops = level;

  /* The knee: where the fitted pre-cliff trend turns into the fall. A
   * least-squares fit of lines uses the whole stretch, so it finds the
   * turn of a gradual fall and of a drive that was still speeding up or
   * slowing down, where any one level would be crossed early or late. */
  reach = (guint) ceil (MAX (params->cliff_fit_pct, 0) / 100.0 * span / step);
  /* The fit starts at the highest point in reach before the crossing: what
   * came before it (a drive still speeding up) is not part of the fall, and
   * a straight pre-cliff segment would bend to follow it. */
  first = anchor > reach ? anchor - reach : 0;
  for (guint j = first + 1; j <= anchor; j++)
    {
      if (s[j] > s[first])
        first = j;
    }
  fall_max = MIN (anchor + MAX (reach, 1), n - 2);
  /* The fit reads the curve at the grid's own resolution: the median has
   * taken out single intervals, the least squares average the rest, and a
   * wider window would round a sharp knee off into an earlier breakpoint. */
  fine = smoothed_grid (cum, step, step / 2);
  g_assert (fine->len == n);
  scale = peak;
  y = g_new (double, n);
  for (guint j = 0; j < n; j++)
    {
      y[j] = g_array_index (fine, double, j) / scale;
      if (isnan (y[j]))
        return;
    }
  prefix = moments_prefix (y, n);
  fit_knee (prefix, first, anchor, fall_max, n - 1, &fit);

  out->pre_cliff_iops = fit.knee_level * scale;
  out->cliff_drop = out->pre_cliff_iops > 0 ? 1 - plateau / out->pre_cliff_iops : NAN;
  if (!(out->cliff_drop >= min_drop))
    return;

  out->cliff_found = TRUE;
  out->cliff_bytes = (guint64) llround (fit.knee * step);
  out->cliff_pct = (double) out->cliff_bytes / span * 100.0;
  out->cliff_gb = (double) out->cliff_bytes / 1e9;
  /* The interval during which the writes passed the knee: the first row
   * that ends after it. */
  {
    double b = (double) out->cliff_bytes;
    guint lo = 1, hi = cum->n - 1;

    while (lo < hi)
      {
        guint mid = lo + (hi - lo) / 2;

        if (cum->bytes[mid] > b)
          hi = mid;
        else
          lo = mid + 1;
      }
    out->cliff_row = lo - 1;
  }
  out->fall_end_bytes = (guint64) llround (fit.fall_end * step);
  out->fall_end_pct = (double) out->fall_end_bytes / span * 100.0;
  {
    double ops, ms;

    cumulative_at (raw, (double) out->fall_end_bytes, &ops, &ms);
    out->fall_end_ms = (guint64) ceil (ms);
  }
}

void
duel_analysis_saturation (const DuelSeries         *series,
                          guint64                   span_bytes,
                          const DuelAnalysisParams *params,
                          DuelSaturation           *out)
{
  guint n;
  double span = (double) span_bytes, written, edge, point;
  guint64 end_ms;
  g_autoptr(GArray) rounds = NULL;
  DuelSeriesRow total;

  g_return_if_fail (series != NULL);
  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  n = duel_series_get_length (series);

  duel_series_sum (series, &total);
  end_ms = _duel_analysis_series_end_ms (series);
  out->span_bytes = span_bytes;
  out->written_bytes = total.bytes[DUEL_DIRECTION_WRITE];
  written = (double) out->written_bytes;
  out->written_pct = span > 0 ? written / span * 100.0 : NAN;
  out->write_iops_mean = end_ms > 0 ? total.ops[DUEL_DIRECTION_WRITE] / (end_ms / 1e3) : NAN;

  edge = params->edge_window_pct / 100.0 * span;
  point = params->point_window_pct / 100.0 * span;

  window_mean_bytes (series, DUEL_DIRECTION_WRITE, 0, edge, &out->at_0);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, 0.5 * span - point, 0.5 * span + point, &out->at_50);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, span - point, span + point, &out->at_100);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, MAX (written - edge, 0), written, &out->at_end);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, written * (1.0 - params->plateau_fraction), written,
                     &out->plateau);
  if (span > 0)
    {
      out->at_0.lo_pct = 0;
      out->at_0.hi_pct = params->edge_window_pct;
      out->at_50.lo_pct = 50 - params->point_window_pct;
      out->at_50.hi_pct = 50 + params->point_window_pct;
      out->at_100.lo_pct = 100 - params->point_window_pct;
      out->at_100.hi_pct = 100 + params->point_window_pct;
      out->at_end.lo_pct = MAX (out->written_pct - params->edge_window_pct, 0);
      out->at_end.hi_pct = out->written_pct;
      out->plateau.lo_pct = out->written_pct * (1.0 - params->plateau_fraction);
      out->plateau.hi_pct = out->written_pct;
    }
  else
    {
      out->at_0.iops = out->at_50.iops = out->at_100.iops = NAN;
      out->at_end.iops = out->plateau.iops = NAN;
    }

  out->cliff_threshold_iops = out->cliff_peak_iops = NAN;
  out->cliff_pct = out->cliff_gb = NAN;
  out->pre_cliff_iops = out->cliff_drop = out->fall_end_pct = NAN;
  if (n > 0)
    {
      Cumulative cum;

      Cumulative raw;

      /* The curve the cliff rule reads is median-filtered; the time at which
       * the fall ended comes from the series as measured. */
      cumulative_init (&cum, series, DUEL_DIRECTION_WRITE, params->cliff_smooth_rows);
      cumulative_init (&raw, series, DUEL_DIRECTION_WRITE, 1);
      find_cliff (&cum, &raw, span, params, out);
      cumulative_clear (&cum);
      cumulative_clear (&raw);
    }

  rounds = duel_analysis_rounds (series, DUEL_DIRECTION_WRITE, MAX (params->round_ms, 1));
  {
    guint64 round_ms = MAX (params->round_ms, 1);
    /* After the fall: the first round that starts once the plateau began,
     * at the plateau's level (a drive with a write cache can hold a flat
     * level between the cache running out and garbage collection starting,
     * then fall again: that level is not its steady state). */
    guint first = out->cliff_found
                  ? (guint) MIN ((out->fall_end_ms + round_ms - 1) / round_ms, (guint64) G_MAXUINT - 1)
                  : G_MAXUINT;

    duel_analysis_steady_state_from ((const double *) (gpointer) rounds->data, rounds->len, first,
                                     out->plateau.iops, params, &out->steady_state);
  }
}

void
duel_saturation_clear (DuelSaturation *saturation)
{
  g_return_if_fail (saturation != NULL);

  duel_steady_state_clear (&saturation->steady_state);
}

/* ---- The summary ---------------------------------------------------------- */

static JsonArray *
doubles_to_json (const double *values,
                 guint         n)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < n; i++)
    {
      if (isfinite (values[i]))
        json_array_add_double_element (array, values[i]);
      else
        json_array_add_null_element (array);
    }
  return array;
}

static JsonObject *
window_mean_to_json (const DuelWindowMean *window)
{
  JsonObject *object = json_object_new ();

  duel_json_set_double_or_null (object, "lo_pct", window->lo_pct);
  duel_json_set_double_or_null (object, "hi_pct", window->hi_pct);
  duel_json_set_double_or_null (object, "seconds", window->seconds);
  duel_json_set_double_or_null (object, "iops", window->iops);
  return object;
}

static JsonObject *
steady_state_window_to_json (const DuelSteadyStateWindow *window)
{
  JsonObject *object = json_object_new ();

  json_object_set_boolean_member (object, "complete", window->complete);
  json_object_set_int_member (object, "first_round", window->first_round);
  json_object_set_int_member (object, "rounds", window->n);
  if (window->complete)
    json_object_set_array_member (object, "values", doubles_to_json (window->values, window->n));
  duel_json_set_double_or_null (object, "mean", window->mean);
  duel_json_set_double_or_null (object, "slope", window->slope);
  duel_json_set_double_or_null (object, "intercept", window->intercept);
  duel_json_set_double_or_null (object, "data_excursion", window->data_excursion);
  duel_json_set_double_or_null (object, "data_excursion_limit", window->data_limit);
  duel_json_set_double_or_null (object, "slope_excursion", window->slope_excursion);
  duel_json_set_double_or_null (object, "slope_excursion_tkperf", window->slope_excursion_tkperf);
  duel_json_set_double_or_null (object, "slope_excursion_limit", window->slope_limit);
  json_object_set_boolean_member (object, "data_ok", window->data_ok);
  json_object_set_boolean_member (object, "slope_ok", window->slope_ok);
  json_object_set_boolean_member (object, "slope_ok_tkperf", window->slope_ok_tkperf);
  json_object_set_boolean_member (object, "steady", window->steady);
  return object;
}

static double
pct_of (double part,
        double whole)
{
  return whole > 0 && isfinite (part) ? part / whole * 100.0 : NAN;
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelSaturation sat;
  JsonObject *details = json_object_new ();
  JsonObject *points = json_object_new ();
  JsonObject *cliff = json_object_new ();
  JsonObject *ss = json_object_new ();
  guint64 span = record->span_length > 0 ? record->span_length : record->workload.span_length;
  const DuelSteadyStateWindow *last;

  duel_analysis_saturation (record->series, span, params, &sat);
  last = &sat.steady_state.last;

  duel_summary_add (summary, "written_gb", sat.written_bytes / 1e9);
  duel_summary_add (summary, "capacity_written_pct", sat.written_pct);
  duel_summary_add (summary, "write_iops_mean", sat.write_iops_mean);
  duel_summary_add (summary, "iops_at_0pct", sat.at_0.iops);
  duel_summary_add (summary, "iops_at_50pct", sat.at_50.iops);
  duel_summary_add (summary, "iops_at_100pct", sat.at_100.iops);
  duel_summary_add (summary, "iops_at_end", sat.at_end.iops);
  duel_summary_add (summary, "plateau_iops", sat.plateau.iops);
  duel_summary_add (summary, "cliff_pct", sat.cliff_pct);
  duel_summary_add (summary, "cliff_gb", sat.cliff_gb);
  duel_summary_add (summary, "ss_rounds", sat.steady_state.rounds->len);
  duel_summary_add (summary, "ss_window_mean_iops", last->complete ? last->mean : NAN);
  duel_summary_add (summary, "ss_data_excursion_pct",
                    last->complete ? pct_of (last->data_excursion, last->mean) : NAN);
  duel_summary_add (summary, "ss_slope_excursion_pct",
                    last->complete ? pct_of (last->slope_excursion, last->mean) : NAN);
  duel_summary_add (summary, "ss_steady", last->complete ? (last->steady ? 1 : 0) : NAN);
  duel_summary_add (summary, "ss_first_steady_round",
                    sat.steady_state.found ? sat.steady_state.first_steady_round : NAN);

  json_object_set_int_member (details, "span_bytes", (gint64) sat.span_bytes);
  json_object_set_int_member (details, "written_bytes", (gint64) sat.written_bytes);
  json_object_set_object_member (points, "0pct", window_mean_to_json (&sat.at_0));
  json_object_set_object_member (points, "50pct", window_mean_to_json (&sat.at_50));
  json_object_set_object_member (points, "100pct", window_mean_to_json (&sat.at_100));
  json_object_set_object_member (points, "end", window_mean_to_json (&sat.at_end));
  json_object_set_object_member (points, "plateau", window_mean_to_json (&sat.plateau));
  json_object_set_object_member (details, "points", points);

  json_object_set_string_member (cliff, "rule", "knee");
  json_object_set_boolean_member (cliff, "found", sat.cliff_found);
  json_object_set_double_member (cliff, "fraction", params->cliff_fraction);
  duel_json_set_double_or_null (cliff, "peak_iops", sat.cliff_peak_iops);
  duel_json_set_double_or_null (cliff, "threshold_iops", sat.cliff_threshold_iops);
  duel_json_set_double_or_null (cliff, "pre_cliff_iops", sat.pre_cliff_iops);
  duel_json_set_double_or_null (cliff, "drop", sat.cliff_drop);
  if (sat.cliff_found)
    {
      json_object_set_int_member (cliff, "row", sat.cliff_row);
      json_object_set_int_member (cliff, "bytes_before", (gint64) sat.cliff_bytes);
      json_object_set_double_member (cliff, "pct", sat.cliff_pct);
      json_object_set_int_member (cliff, "fall_end_bytes", (gint64) sat.fall_end_bytes);
      json_object_set_double_member (cliff, "fall_end_pct", sat.fall_end_pct);
      json_object_set_int_member (cliff, "fall_end_ms", (gint64) sat.fall_end_ms);
    }
  json_object_set_object_member (details, "cliff", cliff);

  json_object_set_int_member (ss, "round_ms", (gint64) params->round_ms);
  json_object_set_array_member (ss, "round_iops",
                                doubles_to_json ((const double *) (gpointer) sat.steady_state.rounds->data,
                                                 sat.steady_state.rounds->len));
  json_object_set_object_member (ss, "last_window", steady_state_window_to_json (last));
  /* The first passing window is only looked for after the cliff. */
  if (sat.steady_state.searched)
    json_object_set_int_member (ss, "search_from_round", sat.steady_state.search_from_round);
  else
    json_object_set_null_member (ss, "search_from_round");
  json_object_set_boolean_member (ss, "found", sat.steady_state.found);
  if (sat.steady_state.found)
    {
      json_object_set_int_member (ss, "first_steady_round", sat.steady_state.first_steady_round);
      json_object_set_object_member (ss, "first_steady_window",
                                     steady_state_window_to_json (&sat.steady_state.first));
    }
  json_object_set_object_member (details, "steady_state", ss);

  json_object_set_object_member (duel_summary_get_details (summary), "saturation", details);
  duel_saturation_clear (&sat);
}

static const DuelFigureInfo figures[] = {
  { "written_gb",             "GB",     DUEL_BETTER_NONE,   N_("Data written") },
  { "capacity_written_pct",   "%",      DUEL_BETTER_NONE,   N_("Capacity written") },
  { "write_iops_mean",        "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write, mean over the run") },
  { "review_write_score_iops", "IOPS",  DUEL_BETTER_HIGHER, N_("The review’s 4K write score (method not stated)") },
  { "iops_at_0pct",           "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 0 % written") },
  { "iops_at_50pct",          "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 50 % written") },
  { "iops_at_100pct",         "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 100 % written") },
  { "iops_at_end",            "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at the end") },
  { "plateau_iops",           "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write plateau (last 10 % written)") },
  /* xgettext:no-c-format */
  { "cliff_pct",              "%",      DUEL_BETTER_HIGHER, N_("Write cliff, % of capacity written") },
  { "cliff_gb",               "GB",     DUEL_BETTER_HIGHER, N_("Data written before the write cliff") },
  { "ss_rounds",              "rounds", DUEL_BETTER_NONE,   N_("Steady-state rounds measured") },
  { "ss_window_mean_iops",    "IOPS",   DUEL_BETTER_HIGHER, N_("Steady-state window mean") },
  { "ss_data_excursion_pct",  "%",      DUEL_BETTER_LOWER,  N_("Steady-state data excursion") },
  { "ss_slope_excursion_pct", "%",      DUEL_BETTER_LOWER,  N_("Steady-state slope excursion") },
  { "ss_steady",              "",       DUEL_BETTER_HIGHER, N_("Steady state reached (last window)") },
  { "ss_first_steady_round",  "rounds", DUEL_BETTER_NONE,   N_("First steady-state round after the write cliff") },
};

void
duel_saturation_summary_from_record (const DuelTestRecord  *record,
                                     DuelSaturationSummary *out)
{
  static const char * const point_keys[] = { "iops_at_0pct", "iops_at_50pct", "iops_at_100pct", "iops_at_end" };
  JsonObject *plateau;

  g_return_if_fail (record != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (point_keys); i++)
    out->iops_at_pct[i] = duel_test_record_get_figure_value (record, point_keys[i]);
  out->written_pct = duel_test_record_get_figure_value (record, "capacity_written_pct");
  out->plateau_iops = duel_test_record_get_figure_value (record, "plateau_iops");
  out->cliff_pct = duel_test_record_get_figure_value (record, "cliff_pct");
  out->plateau_lo_pct = out->plateau_hi_pct = NAN;
  /* summarize() above writes details.saturation.points.plateau. */
  plateau = duel_json_get_object (duel_json_get_object (duel_json_get_object (duel_json_get_object (record->summary, "details"), "saturation"),
                                          "points"),
                           "plateau");
  if (plateau != NULL)
    {
      out->plateau_lo_pct = json_object_get_double_member_with_default (plateau, "lo_pct", NAN);
      out->plateau_hi_pct = json_object_get_double_member_with_default (plateau, "hi_pct", NAN);
    }
}

/* A random write of at least the span once: the drive fills. */
static gboolean
fits (const DuelTestRecord *record)
{
  const DuelWorkload *w = &record->workload;

  return w->pattern == DUEL_PATTERN_RANDOM && w->read_percent == 0 && duel_series_get_length (record->series) >= 2 &&
         (w->size_multiple >= 1 || (record->span_length > 0 && record->byte_limit >= record->span_length));
}

const DuelAnalysisOps _duel_analysis_saturation_ops = {
  .kind = DUEL_ANALYSIS_SATURATION,
  .name = "saturation",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
