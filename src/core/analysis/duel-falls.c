/* duel-falls.c — the falls of a fill's write curve, its declines, and the curve they are read on
 *
 * docs/analysis.md defines what a fall is; this file is that definition,
 * computed. The curve is IOPS over % of capacity written, read through a
 * running median of rows and on a grid of cliff_step_pct; a fall is a
 * stretch of it that drops by fall_min_drop or more within fall_max_pct
 * points, with a turn at both ends, and holds. Everything here is a pure
 * function of the series and the parameters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"

/* Sorts @n doubles: insertion sort for the short windows of the running
 * medians (called once a row and once a grid point), qsort beyond. */
static void
sort_doubles (double *v,
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
          sort_doubles (window, k);
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

/* The row (0-based) during which the writes passed @b bytes: the first row
 * that ends after it. */
static guint
cumulative_row_passing (const Cumulative *c,
                        double            b)
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

static double
series_written (const DuelSeries *series)
{
  DuelSeriesRow total;

  duel_series_sum (series, &total);
  return (double) total.bytes[DUEL_DIRECTION_WRITE];
}

/* Rows with fewer writes are taken together with the next (1 / sqrt (100):
 * a 10 % count noise at most). */
#define DUEL_FALLS_MIN_ROW_OPS 100
/* A 2x fill on the finest grid (0.05 %). */
#define DUEL_FALLS_MAX_POINTS 4000
/* The throughput the falls are read on is over a point of capacity. */
#define DUEL_FALLS_POINT_PCT 1.0
/* The noise of a level is measured on throughput over two points: a drive
 * whose garbage collection alternates fast and slow points holds a steady
 * level over two, and the spread of single points would take that
 * alternation for noise. */
#define DUEL_FALLS_NOISE_PCT 2.0

/* The next row of @iter's writes summed with the rows after it until it
 * holds at least @min_ops writes (the last may hold fewer), or FALSE past
 * the end. */
static gboolean
next_coalesced (DuelSeriesIter *iter,
                guint64         min_ops,
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
      if (ops >= min_ops)
        break;
    }
  *out_ops = ops;
  *out_bytes = bytes;
  return TRUE;
}

/* The cumulative curve of @series' writes, its rows taken together until
 * each holds at least @min_ops writes (the last may hold fewer). Then
 * Tukey's end-point rule for the first of them: its rate is held against
 * its neighbour and the line through the next two (the median of the
 * three), so that a first interval faster or slower than the run (a start
 * the device was not yet in step with) is not a level; its time changes,
 * and with it the end of every row after. Two passes over the rows and
 * nothing but the curve kept: a copy of the rows would take more memory
 * than the series itself. */
static void
cumulative_init_coalesced (Cumulative       *c,
                           const DuelSeries *series,
                           guint64           min_ops)
{
  DuelSeriesIter iter;
  guint m = 0;
  guint64 t_ms[3] = { 0 }, ops[3] = { 0 }, t = 0, o = 0, b = 0, prev_t = 0;
  gint64 shift = 0;
  gboolean shifted = FALSE;

  duel_series_iter_init (&iter, series);
  while (next_coalesced (&iter, min_ops, &t, &o, &b))
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
          sort_doubles (v, 3);
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
  for (guint r = 0; next_coalesced (&iter, min_ops, &t, &o, &b); r++)
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

static double
grid_step_bytes (const DuelAnalysisParams *params,
                 double                    span)
{
  return MAX (params->cliff_step_pct, DUEL_CLIFF_MIN_STEP_PCT) / 100.0 * span;
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
  out = smoothed_grid (&c, grid_step_bytes (params, (double) span_bytes),
                       MAX (params->cliff_smooth_pct, 0) / 200.0 * (double) span_bytes);
  cumulative_clear (&c);
  return out;
}

/* ---- Lines fitted by least squares ------------------------------------------ */

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
 * the last segment; on a segment the function is θ[i] (1 − u) + θ[i + 1] u,
 * u = (j − k[i]) / (k[i + 1] − k[i]). The normal equations are tridiagonal.
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

/* ---- Falls ------------------------------------------------------------------ */

/* The median of @y[@from … @to]. */
static double
median_of (const double *y,
           guint         from,
           guint         to)
{
  guint n = to - from + 1;
  double stack[256];
  g_autofree double *heap = n > G_N_ELEMENTS (stack) ? g_new (double, n) : NULL;
  double *v = n > G_N_ELEMENTS (stack) ? heap : stack;

  memcpy (v, y + from, n * sizeof (double));
  sort_doubles (v, n);
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
  double centre = median_of (y, from, to), stack[256];
  g_autofree double *heap = n > G_N_ELEMENTS (stack) ? g_new (double, n) : NULL;
  double *v = n > G_N_ELEMENTS (stack) ? heap : stack;

  for (guint k = 0; k < n; k++)
    v[k] = fabs (y[from + k] - centre);
  return 1.4826 * median_of (v, 0, n - 1);
}


/* The rule in grid steps, from the parameters in % of capacity. */
typedef struct
{
  const double *y;        /* IOPS on the grid, over their median: what the lines are fitted to */
  const double *ln_y;     /* ln IOPS on the grid */
  const double *point_ln; /* … before the running median: the throughput over a point */
  const double *med_back;  /* median of ln_y over the hold window ending at j */
  const double *med_ahead; /* … starting at j */
  const double *med_half;  /* … over the half trend window ending at j */
  const double *error_back;  /* the standard error of med_back[j], from the unfiltered points */
  const double *error_ahead; /* … of med_ahead[j] */
  const double *noise_ln;    /* ln IOPS over two points around each grid point */
  const guint  *row_at;      /* the row each grid point falls in */
  double        per_point;   /* grid steps a point of capacity */
  double        step_bytes;  /* bytes a grid step */
  const Cumulative *rows;    /* the rows the grid was made from */
  const Moments *prefix;
  guint  n;
  guint  max_width;       /* fall_max_pct */
  guint  trend;           /* fall_trend_pct: how far the trends on either side are fitted */
  guint  hold;            /* fall_hold_pct: the least trend after a fall (and before, but at the start) */
  double min_depth;       /* −ln (1 − fall_min_drop) */
  double turn;            /* fall_turn */
} Rule;

/* How fast ln IOPS fall over [@from, @to] (per step), from the medians of
 * its two halves: robust to blips that would tilt a line. */
static double
halves_loss_rate (const Rule *rule,
                  guint       from,
                  guint       to)
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
      first = median_of (rule->ln_y, from, mid);
      second = median_of (rule->ln_y, mid, to);
    }
  return (first - second) / ((double) (to - from) / 2);
}

/* The standard error of the median of ln IOPS over [@from, @to]: the
 * points' spread (1.4826 x their median absolute deviation, unaffected by
 * a few outliers, over four points at least) over the square root of how
 * many independent measurements the stretch holds — its points of
 * capacity (each grid point's throughput spans one), or its rows where
 * rows are wider; a median's standard error is 1.2533 times a mean's. */
static double
level_error (const Rule *rule,
             guint       from,
             guint       to)
{
  double measurements = MIN ((to - from + 1) / (rule->per_point * DUEL_FALLS_NOISE_PCT / DUEL_FALLS_POINT_PCT),
                             rule->row_at[to] - rule->row_at[from] + 1);
  guint last = MIN (MAX (to, from + 3), rule->n - 1), first = last >= 3 ? MIN (from, last - 3) : 0;

  return 1.2533 * spread_of (rule->noise_ln, first, last) / sqrt (MAX (measurements, 1));
}

/* The standard error of halves_loss_rate (@rule, @from, @to). */
static double
halves_loss_error (const Rule *rule,
                   guint       from,
                   guint       to)
{
  guint mid = from + (to - from) / 2;

  return hypot (level_error (rule, from, mid), level_error (rule, mid, to)) / ((double) (to - from) / 2);
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
rows_on_level (const Rule *rule,
               guint       a,
               guint       b,
               gboolean    before)
{
  const Cumulative *c = rule->rows;
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
static gboolean
level_in_rows (const Rule *rule,
               guint       a,
               guint       b,
               gboolean    before)
{
  guint from = before ? (a >= rule->hold ? a - rule->hold : 0) : b;
  guint to = before ? a : MIN (b + rule->hold, rule->n - 1);

  return rule->row_at[to] - rule->row_at[from] + 1 >= 6 || rows_on_level (rule, a, b, before) >= 3;
}

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
  sort_doubles (v, n);
  return v[MIN ((guint) (q * n), n - 1)];
}

/* Whether the points of @y before (@b_from … @b_to) and after (@a_from
 * … @a_to) share their levels: a fifth of those after at or above the
 * median of those before, and a fifth of those before at or below the
 * median of those after. A fall has none of either (or, where it
 * recovers, of the first alone; where a long dip came before it, of the
 * second alone); a band has most of both. */
static gboolean
overlap (const double *y,
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
static guint
runs_beyond (const double *y,
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
 *    levels (overlap(); a fall has the points after below those before,
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
static gboolean
in_band (const Rule *rule,
         guint       a,
         guint       b)
{
  double before = rule->med_back[a], after = rule->med_ahead[b];
  double near = (before - after) / 4, half_way = (before + after) / 2;
  guint reach = 4 * rule->trend, half = MAX (rule->hold / 2, 1);
  guint came_from = a > reach ? a - reach : 0, back_to = MIN (b + reach, rule->n - 1);
  guint held_came, held_back;
  gboolean touched_came, touched_back;

  if (b + half >= rule->n)
    return FALSE;
  if (a >= rule->hold && back_to >= b + rule->hold && overlap (rule->point_ln, came_from, a - 1, b + 1, back_to))
    return TRUE;
  if (a < reach / 2 && runs_beyond (rule->point_ln, b + half, back_to, half_way, TRUE) >= 2)
    return TRUE;
  if (a <= half)
    return FALSE;
  if (b + reach / 2 >= rule->n && runs_beyond (rule->point_ln, came_from, a - half, half_way, FALSE) >= 3)
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
static double
rows_width (const Rule *rule,
            guint       a,
            guint       b)
{
  const Cumulative *c = rule->rows;
  double widest = 0;

  for (guint r = rule->row_at[a]; r <= rule->row_at[b] && r + 1 < c->n; r += MAX (rule->row_at[b] - rule->row_at[a], 1))
    widest = MAX (widest, c->bytes[r + 1] - c->bytes[r]);
  return widest / rule->step_bytes;
}

/* A fall tried: knee a, foot b, and the lines on either side. */
typedef struct
{
  guint  lo, a, b, hi;    /* the fit's window [lo, hi] and its breakpoints */
  double level_a, level_b; /* ln IOPS of the fitted line at a and b */
  guint  tested_a;        /* the knee the definition was checked at (a may move from it) */
  double sse;
  gboolean sure;          /* deep beyond the noise of the levels */
} Trial;


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
trial_line (const Rule *rule,
            guint       lo,
            guint       a,
            guint       b,
            guint       hi,
            Trial      *out,
            double     *theta)
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
trial_fit (const Rule *rule,
           guint       lo,
           guint       a,
           guint       b,
           guint       hi,
           Trial      *out)
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
    width = MAX ((double) (b - a), rows_width (rule, a, b));
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
     * own, and one or two fast rows are a burst (level_in_rows()). */
    if (!level_in_rows (rule, a, b, TRUE) || !level_in_rows (rule, a, b, FALSE))
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
    /* Not inside a band (in_band()). A fall in the first point of
     * capacity: its level before is the first rows', seen as a level only
     * if the throughput over a point holds it over the first point (a
     * shorter one is below what the throughput can see). */
    if (in_band (rule, a, b))
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
      out->sure = rule->med_back[a] - median_of (rule->ln_y, b, b + rule->trend) -
                  2 * hypot (rule->error_back[a], level_error (rule, b, b + rule->trend)) >= rule->min_depth;
    if (a - from >= 4 && halves_loss_rate (rule, from, a) > fall_rate / rule->turn)
      return FALSE;
    if (halves_loss_rate (rule, b, to) > fall_rate / rule->turn)
      return FALSE;
    /* Sure also of the turns: with two standard errors of the trends
     * added, they still turn. A decline that slows down looks like a turn
     * on a short noisy stretch now and then. */
    if (out->sure)
      out->sure = (a - from < 4 ||
                   halves_loss_rate (rule, from, a) + 2 * halves_loss_error (rule, from, a) <= fall_rate / rule->turn) &&
                  halves_loss_rate (rule, b, to) + 2 * halves_loss_error (rule, b, to) <= fall_rate / rule->turn;
    return TRUE;
  }
}

/* The window a fall with knee @a and foot @b is tried on: @reach grid
 * steps either side, within the fill. */
static gboolean
trial_window (const Rule *rule,
              guint       a,
              guint       b,
              guint       reach,
              guint      *out_lo,
              guint      *out_hi)
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
  Trial trial;
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
best_of_pairs (const Rule *rule,
               const Pair *pairs,
               guint       from,
               guint       to,
               Trial      *out)
{
  double best = INFINITY, best_any = INFINITY;
  Trial seed = pairs[from].trial, any = { 0 };

  /* Windows that reach fall_trend_pct either side come first: a pair that
   * passes only on the short windows kept for falls close together may be
   * the steep end of a fall that began further back, and its short window
   * would hide where. */
  for (guint pass = 0; pass < 2 && !isfinite (best); pass++)
    for (guint i = from; i < to; i++)
      {
        const Trial *t = &pairs[i].trial;
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
          Trial t;
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
falls_of_pairs (const Rule *rule,
                const Pair *pairs,
                guint       from,
                guint       to,
                GArray     *falls)
{
  guint end = from, b_max;
  gboolean sure = FALSE;
  Trial chosen;
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

/* Every fall of the grid curve, in order (GArray of Trial): every (knee,
 * foot) pair that passes on its own window, then the falls among them. */
static GArray *
find_falls (const Rule *rule)
{
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  GArray *falls = g_array_new (FALSE, FALSE, sizeof (Trial));
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

/* The width of row @r in bytes; 0 outside the series. */
static double
row_width (const Cumulative *raw,
           guint             r)
{
  return r + 1 < raw->n ? raw->bytes[r + 1] - raw->bytes[r] : 0;
}

/* A row, or a row taken together with the next where the host counted
 * writes of the one in the other: where the knee is looked for. */
typedef struct
{
  double   from, to;        /* bytes */
  double   ops, s;
  gboolean joined;          /* a slow row and the one that caught up with it */
} Piece;

static double
piece_ln_rate (const Piece *p)
{
  return p->ops > 0 && p->s > 0 ? log (p->ops / p->s) : NAN;
}

/* The rows from the one that passes @from bytes to the one that passes
 * @to, rows narrower than @least taken together until they hold that
 * much (on fine rows, a single row's count is noise: a quarter of a grid
 * step holds enough of them). A piece off the level before (below @off,
 * in ln IOPS) followed by one faster than that level (above @level) is
 * the host reaping the writes of the first in the second, or catching up
 * after a stall: the two are one piece. */
static GArray *
pieces_of_rows (const Cumulative *raw,
                double            from,
                double            to,
                double            least,
                double            level,
                double            off)
{
  GArray *pieces = g_array_new (FALSE, TRUE, sizeof (Piece));
  guint first = cumulative_row_passing (raw, MAX (from, 0));
  guint last = cumulative_row_passing (raw, MIN (to, cumulative_total (raw)));
  Piece p = { .from = raw->bytes[first] };
  gboolean joined = FALSE;  /* the last piece is two taken together */

  for (guint r = first; r <= last && r + 1 < raw->n; r++)
    {
      p.to = raw->bytes[r + 1];
      p.ops += raw->ops[r + 1] - raw->ops[r];
      p.s += (raw->ms[r + 1] - raw->ms[r]) / 1e3;
      if (p.to - p.from < least && r < last && r + 2 < raw->n)
        continue;
      if (pieces->len > 0 && !joined)
        {
          Piece *prev = &g_array_index (pieces, Piece, pieces->len - 1);

          if (piece_ln_rate (prev) < off && piece_ln_rate (&p) > level)
            {
              prev->to = p.to;
              prev->ops += p.ops;
              prev->s += p.s;
              prev->joined = joined = TRUE;
              p = (Piece) { .from = p.to };
              continue;
            }
        }
      g_array_append_val (pieces, p);
      joined = FALSE;
      p = (Piece) { .from = p.to };
    }
  return pieces;
}

/* Whether piece @i is on the level before (at or above @off, in ln
 * IOPS), and not a burst: a piece among pieces at the level after (both
 * neighbours below @low), or one faster than the level (above @above)
 * among pieces off it. */
static gboolean
piece_back_on (const Piece *pieces,
               guint        n,
               guint        i,
               double       off,
               double       low,
               double       above)
{
  double x = piece_ln_rate (&pieces[i]), left, right;

  if (!(x >= off))
    return FALSE;
  if (i == 0 || i + 1 >= n)
    return TRUE;
  left = piece_ln_rate (&pieces[i - 1]);
  right = piece_ln_rate (&pieces[i + 1]);
  if (left <= low && right <= low)
    return FALSE;
  return !(x > above && left < off && right < off);
}

/* Whether a piece after @i that begins before @foot is above @half
 * (ln IOPS). */
static gboolean
comes_back (const Piece *pieces,
            guint        n,
            guint        i,
            double       foot,
            double       half)
{
  for (guint q = i + 1; q < n && pieces[q].from < foot; q++)
    if (piece_ln_rate (&pieces[q]) > half)
      return TRUE;
  return FALSE;
}

/* Where a fall that takes pieces began: the line (IOPS over bytes, as
 * the chart draws them) through the pieces from @k to the first at the
 * level after (below @low, in ln IOPS) meets the level before, no earlier
 * than the end of the last piece before @k at that level (within 2 %).
 * The first piece that leaves the level by a tenth of the way is already
 * some way into a ramp. @k's start where the line does not fall. */
static double
ramp_start (const Piece *pieces,
            guint        n,
            guint        k,
            double       before_iops,
            double       low,
            double       drop)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, slope, start, floor_at = 0, origin = pieces[k].from;
  guint end = k;

  while (end < n && !(piece_ln_rate (&pieces[end]) <= low))
    end++;
  if (end - k < 2)
    return pieces[k].from;
  for (guint i = k; i < end; i++)
    {
      double x = (pieces[i].from + pieces[i].to) / 2 - origin, y = pieces[i].ops / pieces[i].s;

      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      m++;
    }
  slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  if (!(slope < 0))
    return pieces[k].from;
  /* A ramp goes down beyond its noise: on two pieces, the second below
   * the first by a tenth of the way; on more, the slope three standard
   * errors from level. Else the line through them says nothing. */
  if (m < 3)
    {
      if (!(piece_ln_rate (&pieces[k + 1]) < piece_ln_rate (&pieces[k]) - 0.1 * drop))
        return pieces[k].from;
    }
  else
    {
      double mean_x = sx / m, ss = 0, spread = sxx - sx * sx / m;

      for (guint i = k; i < end; i++)
        {
          double x = (pieces[i].from + pieces[i].to) / 2 - origin, y = pieces[i].ops / pieces[i].s;
          double fit = sy / m + slope * (x - mean_x);

          ss += (y - fit) * (y - fit);
        }
      if (!(-slope >= 3 * sqrt (ss / (m - 2)) / sqrt (MAX (spread, 1e-300))))
        return pieces[k].from;
    }
  start = origin + (sx / m) + (before_iops - sy / m) / slope;
  for (guint i = 0; i < k; i++)
    if (pieces[i].ops / pieces[i].s >= 0.98 * before_iops)
      floor_at = pieces[i].to;
  return CLAMP (start, MAX (floor_at, pieces[0].from), pieces[k].from);
}

static int
compare_pieces_by_rate (gconstpointer a,
                        gconstpointer b)
{
  double x = piece_ln_rate (a), y = piece_ln_rate (b);

  return (x > y) - (x < y);
}

/* The ln IOPS below which a tenth of the bytes of the pieces from @from
 * to @to (bytes) were written (pieces taken together left out); NAN for
 * none, or where one piece alone holds that tenth. */
static double
slow_tenth (const Piece *pieces,
            guint        n,
            double       from,
            double       to)
{
  g_autoptr(GArray) within = g_array_new (FALSE, FALSE, sizeof (Piece));
  double all = 0, sum = 0;

  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].to <= to && !pieces[i].joined && !isnan (piece_ln_rate (&pieces[i])))
      {
        g_array_append_val (within, pieces[i]);
        all += pieces[i].to - pieces[i].from;
      }
  if (within->len == 0)
    return NAN;
  g_array_sort (within, compare_pieces_by_rate);
  for (guint i = 0; i < within->len; i++)
    {
      sum += g_array_index (within, Piece, i).to - g_array_index (within, Piece, i).from;
      /* A single slow piece is a host's stall, not a level. */
      if (sum >= 0.1 * all)
        return i >= 1 ? piece_ln_rate (&g_array_index (within, Piece, i)) : NAN;
    }
  return NAN;
}

/* The share of the time of the pieces from @from to @to (bytes) that
 * is spent back on the level before (piece_back_on()), with one piece of
 * @typical time on either side counted in so that a short stretch says
 * little; between 0.5 % and 99.5 %. */
static double
share_back_on (const Piece *pieces,
               guint        n,
               double       from,
               double       to,
               double       typical,
               double       off,
               double       low,
               double       above)
{
  double on = typical, all = 2 * typical;

  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].to <= to && !pieces[i].joined && !isnan (piece_ln_rate (&pieces[i])))
      {
        all += pieces[i].s;
        if (piece_back_on (pieces, n, i, off, low, above))
          on += pieces[i].s;
      }
  return CLAMP (on / all, 0.005, 0.995);
}

/* The grid spreads each row's rate evenly over its bytes and reads the
 * throughput over a point of capacity, so the fit puts a knee up to half
 * a point early, or at a row's border on rows coarser than the grid. The
 * knee is placed on the rows, where they leave the level before for good.
 * Each row (rows narrower than a quarter of a grid step taken together:
 * pieces_of_rows()) is on that level or off it (a tenth of the way, in ln
 * IOPS, down to the level after). Before the fall, most rows are on it:
 * off are those a busy host slowed down; after it, few are, or many where
 * garbage collection leaves rows between its stalls at the old rate. How
 * many of each, by their bytes, is read on either side: over the
 * fall_hold_pct before the stretch looked at and after the foot. The knee
 * is at the start of the row where the rows before it are likeliest the
 * level before's and the rows after it the level after's (each row
 * costing −ln of the share of its kind on the side it is put on, by its
 * bytes), the first such. A host's slow row, with rows back at the level
 * after it, is not where the fall began; garbage collection's stalls, with
 * rows at the old rate between them, are. It is looked for from two points
 * of capacity before the fitted knee to two after the foot, and not in a
 * stall (a row below halfway with a row back above halfway after it,
 * before the foot: a fall does not go most of the way down and then back
 * up). If the row after the knee's is at the level after (within a tenth
 * of the way), the fall is a step inside the row, and its time against
 * the levels gives the share of its ops done before the step,
 * (t − o / after) / (o / before − o / after): the knee is there, exactly
 * so for a step. Otherwise the fall takes rows, and it began where the
 * line through them meets the level before (ramp_start()).
 * Returns the knee's bytes; @out_resolution gets how far it may be off:
 * that row's width and the one's before it (a fall that takes rows may
 * have begun in the row before, at a rate its mean cannot tell from the
 * level), up to the last row before the foot as fast as the knee's (the
 * fall had gone no further by then), and no less than half the @point of
 * capacity the fit reads. */
static double
knee_in_row (const Cumulative *raw,
             double            knee,
             double            foot,
             double            before_iops,
             double            after_iops,
             double            step,
             double            point,
             double            hold,
             double           *out_resolution)
{
  double drop = log (before_iops / after_iops), total = cumulative_total (raw);
  double off = log (before_iops) - 0.1 * drop, low = log (after_iops) + 0.1 * drop;
  double half = (log (before_iops) + log (after_iops)) / 2, above = log (before_iops) + 0.1 * drop;
  double from = MAX (knee - 2 * point, 0), to = MIN (foot + 2 * point, total);
  double typical, on_before, on_after, cost = 0, best = INFINITY;
  double cost_on_before, cost_off_before, cost_on_after, cost_off_after;
  g_autoptr(GArray) array = NULL;
  const Piece *pieces;
  guint n, knee_piece = G_MAXUINT;

  *out_resolution = point / 2;
  if (!(drop > 0) || raw->n < 2)
    return knee;
  array = pieces_of_rows (raw, from - hold, MIN (MAX (to, foot + hold), total), step / 4, log (before_iops), off);
  pieces = (const Piece *) (gpointer) array->data;
  n = array->len;
  if (n == 0)
    return knee;
  typical = 0;
  for (guint i = 0; i < n; i++)
    typical += pieces[i].s / n;
  /* A band before the fall (garbage collection making whole points fast
   * or slow) is left at its slow level: where a tenth of the bytes before
   * were written at a level still above halfway, that is the level the
   * rows leave (a host's slow rows write few). */
  {
    double lowest = slow_tenth (pieces, n, from - hold, from);

    if (lowest < off && lowest > half)
      off = lowest - 0.1 * (lowest - log (after_iops));
  }
  on_before = share_back_on (pieces, n, from - hold, from, typical, off, low, above);
  on_after = share_back_on (pieces, n, foot, foot + hold, typical, off, low, above);
  cost_on_before = -log (on_before);
  cost_off_before = -log (1 - on_before);
  cost_on_after = -log (on_after);
  cost_off_after = -log (1 - on_after);
  /* The cost of a knee at the start of the first piece looked at: every
   * piece looked at on the side after. */
  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].from < to)
      if (!pieces[i].joined)
        cost += pieces[i].s * (piece_back_on (pieces, n, i, off, low, above) ? cost_on_after : cost_off_after);
  for (guint i = 0; i < n; i++)
    {
      double x = piece_ln_rate (&pieces[i]);
      gboolean on = piece_back_on (pieces, n, i, off, low, above);

      if (!(pieces[i].from >= from && pieces[i].from < to) || isnan (x))
        continue;
      /* Before this piece's start: the cost so far. The knee is in a
       * piece that is off the level, and not in a stall. A slow row and
       * the one that caught up with it cost nothing either side: the knee
       * is after them, unless the next costs more. */
      if (x < off && !(x < half && comes_back (pieces, n, i, foot, half)) &&
          (cost < best || (cost == best && knee_piece != G_MAXUINT && pieces[knee_piece].joined && knee_piece + 1 == i)))
        {
          best = cost;
          knee_piece = i;
        }
      if (!pieces[i].joined)
        cost += pieces[i].s * ((on ? cost_on_before : cost_off_before) - (on ? cost_on_after : cost_off_after));
    }
  if (knee_piece == G_MAXUINT)
    return knee;
  {
    const Piece *p = &pieces[knee_piece];
    double left = 0, width = p->to - p->from, reach = p->to, x = piece_ln_rate (p), knee_from = p->from;
    double next = knee_piece + 1 < n ? piece_ln_rate (&pieces[knee_piece + 1]) : NAN;
    double width_before = knee_piece > 0 ? pieces[knee_piece - 1].to - pieces[knee_piece - 1].from
                          : p->from > 0 ? row_width (raw, cumulative_row_passing (raw, p->from - 1)) : 0;

    if (next < low && p->ops > 0 && p->s > 0)
      left = CLAMP ((p->s - p->ops / after_iops) / (p->ops / before_iops - p->ops / after_iops), 0, 1);
    else
      {
        double start = ramp_start (pieces, n, knee_piece, before_iops, low, drop);

        if (start < p->from)
          {
            knee_from = start;
            width_before = p->from - start;
          }
      }
    /* Before the foot, a piece as fast as this one (within a tenth of the
     * way) says the fall had gone no further: this one may have been the
     * host's, and the fall may have begun as late as that piece. */
    for (guint i = knee_piece + 1; i < n && pieces[i].from < foot; i++)
      if (piece_ln_rate (&pieces[i]) >= x - 0.1 * drop)
        reach = pieces[i].to;
    *out_resolution = MAX (width_before + MAX (width, reach - p->from), point / 2);
    return knee_from + left * width;
  }
}

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
static void
add_decline (GArray     *declines,
             const Rule *rule,
             guint       from,
             guint       to,
             double      step_pct)
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
    level[j - from] = median_of (ln_y, j, j + span);
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
        overlap (rule->point_ln, before_from, top, bottom + span, after_to))
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
static void
add_recovery (GArray     *recoveries,
              const Rule *rule,
              guint       fall,
              guint       from,
              guint       to,
              double      step_pct)
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
  if (runs_beyond (rule->med_ahead, end, MIN (end + 4 * rule->trend, MIN (to, rule->n - 1)), low + 0.25 * rise, FALSE) >= 2 ||
      (start >= bottom + rule->hold && runs_beyond (rule->med_ahead, bottom, start - rule->hold, low + 0.75 * rise, TRUE) > 0))
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

/* ---- The whole rule --------------------------------------------------------- */

void
duel_analysis_falls (const DuelSeries         *series,
                     guint64                   span_bytes,
                     const DuelAnalysisParams *params,
                     DuelFalls                *out)
{
  double span = (double) span_bytes, step, step_pct, per_pct;
  Cumulative raw;
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
  g_autofree Moments *prefix = NULL;
  guint n, kept = 0;
  double ln_scale;
  Rule rule;

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
  step = MAX (grid_step_bytes (params, span), (double) duel_series_get_length (series) > 0
                                              ? series_written (series) / DUEL_FALLS_MAX_POINTS : 0);
  step_pct = step / span * 100.0;
  per_pct = 1.0 / step_pct;
  /* Rows of a handful of writes are counts, not rates: a row with none
   * during a stall has no bytes, so a median over rows would drop its time.
   * Consecutive rows are taken together until they hold enough writes
   * that one more or less moves the rate by a few per cent at most. */
  cumulative_init_coalesced (&raw, series, DUEL_FALLS_MIN_ROW_OPS);

  /* Each grid point is the throughput over the point of capacity around
   * it (half a point either side, each row's rate even within it): a
   * stall is the drive's time as much as a burst, and a point holds many
   * of garbage collection's stalls on any but the coarsest rows, so no
   * median over rows (which keeps the fast rows and drops the stalls'
   * time) comes before it. The levels are then compared in ln IOPS (a fall
   * is a ratio, and the noise is a share of the rate). */
  fine = smoothed_grid (&raw, step, DUEL_FALLS_POINT_PCT / 200.0 * span);
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

        ln_y[j] = median_of (raw_ln, j - h, j + h);
      }
  }
  ln_scale = median_of (ln_y, 0, n - 1);
  for (guint j = 0; j < n; j++)
    y[j] = exp (ln_y[j] - ln_scale);
  prefix = moments_prefix (y, n);

  rule = (Rule) {
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
      med_back[j] = median_of (ln_y, j >= rule.hold ? j - rule.hold : 0, j);
      med_ahead[j] = median_of (ln_y, j, MIN (j + rule.hold, n - 1));
      med_half[j] = median_of (ln_y, j >= rule.trend / 2 ? j - rule.trend / 2 : 0, j);
    }
  rule.med_back = med_back;
  rule.med_ahead = med_ahead;
  rule.med_half = med_half;

  /* How far each hold window's level can be off (level_error()). */
  {
    g_autoptr(GArray) wide = smoothed_grid (&raw, step, DUEL_FALLS_NOISE_PCT / 200.0 * span);

    noise_ln = g_new (double, n);
    for (guint j = 0; j < n; j++)
      noise_ln[j] = j < wide->len && g_array_index (wide, double, j) > 0 ? log (g_array_index (wide, double, j)) : ln_y[j];
  }
  row_at = g_new (guint, n);
  for (guint j = 0; j < n; j++)
    row_at[j] = cumulative_row_passing (&raw, MIN (j * step, cumulative_total (&raw)));
  rule.row_at = row_at;
  rule.noise_ln = noise_ln;
  error_back = g_new (double, n);
  error_ahead = g_new (double, n);
  for (guint j = 0; j < n; j++)
    {
      error_back[j] = level_error (&rule, j >= rule.hold ? j - rule.hold : 0, j);
      error_ahead[j] = level_error (&rule, j, MIN (j + rule.hold, n - 1));
    }
  rule.error_back = error_back;
  rule.error_ahead = error_ahead;
  rule.rows = &raw;
  rule.per_point = per_pct * DUEL_FALLS_POINT_PCT;
  rule.step_bytes = step;
  trials = find_falls (&rule);

  for (guint i = 0; i < trials->len; i++)
    {
      Trial *t = &g_array_index (trials, Trial, i);
      DuelFall fall = { 0 };
      double knee, resolution;

      /* The levels either side as the medians over the hold windows say
       * them, the one after a hold window past the foot: the line's values
       * at a knee or foot inside a coarse row are the row's mix. */
      knee = knee_in_row (&raw, t->a * step, t->b * step, exp (rule.med_back[t->a]),
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
              cumulative_row_passing (&raw, knee) <= cumulative_row_passing (&raw, (double) prev->foot_bytes) + 1)
            {
              prev->foot_bytes = MAX (prev->foot_bytes, fall.foot_bytes);
              g_array_index (trials, Trial, kept - 1).b = MAX (g_array_index (trials, Trial, kept - 1).b, t->b);
              continue;
            }
        }
      fall.knee_row = cumulative_row_passing (&raw, knee);
      fall.resolution_pct = resolution / span * 100.0;
      g_array_append_val (out->falls, fall);
      g_array_index (trials, Trial, kept++) = *t;
      /* The stretch after the fall begins at its foot, which is no
       * earlier than its knee on the rows. */
      g_array_index (trials, Trial, kept - 1).b = MAX (t->b, MIN ((guint) ceil (knee / step), n - 1));
    }
  g_array_set_size (trials, kept);
  for (guint i = 0; i < out->falls->len; i++)
    {
      DuelFall *fall = &g_array_index (out->falls, DuelFall, i);
      const Trial *t = &g_array_index (trials, Trial, i);
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
      cumulative_at (&raw, (double) fall->foot_bytes, &ops, &ms);
      fall->foot_ms = (guint64) ceil (ms);
    }

  /* The stretches between falls: a recovery after each fall, and the
   * declines. */
  {
    guint from = 0;

    for (guint i = 0; i <= trials->len; i++)
      {
        guint to = i < trials->len ? g_array_index (trials, Trial, i).a : n - 1;

        if (i > 0)
          add_recovery (out->recoveries, &rule, i - 1, from, to, step_pct);
        add_decline (out->declines, &rule, from, to, step_pct);
        if (i < trials->len)
          from = g_array_index (trials, Trial, i).b;
      }
  }

out:
  cumulative_clear (&raw);
}

void
duel_falls_clear (DuelFalls *falls)
{
  g_return_if_fail (falls != NULL);

  g_clear_pointer (&falls->falls, g_array_unref);
  g_clear_pointer (&falls->declines, g_array_unref);
  g_clear_pointer (&falls->recoveries, g_array_unref);
}
