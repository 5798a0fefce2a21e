/* duel-chart-line.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "duel-chart-line.h"

typedef struct
{
  double first;
  double last;
  double min;
  double max;
  gboolean gap_before;    /* a NAN point lies between this column and the previous one */
} Column;

/* What a cached reduction depends on. */
typedef struct
{
  guint          n_points;
  DuelChartScale x_scale;
  double         x_min;
  double         x_max;
  DuelChartScale y_scale;     /* scatter only */
  double         y_min;
  double         y_max;
  double         dev_left;
  double         dev_right;
  double         dev_top;
  double         dev_bottom;
  double         dot;
} CacheKey;

struct _DuelChartLine
{
  GArray   *x;
  GArray   *y;

  CacheKey  line_key;
  gboolean  line_valid;
  GArray   *columns;       /* Column, one per device pixel; first == NAN when empty */

  CacheKey  scatter_key;
  gboolean  scatter_valid;
  GArray   *cells;         /* guint32 pairs: column, row of occupied cells */

  /* Built by duel_chart_line_prepare(), off the draw path: the points
   * reduced to N_BUCKETS equal slices of their x extent, so that a draw at
   * any width reduces buckets rather than every point. */
  GArray   *buckets;       /* Column */
  double    bucket_x0;
  double    bucket_x1;
};

#define N_BUCKETS 65536

DuelChartLine *
duel_chart_line_new (void)
{
  DuelChartLine *line = g_new0 (DuelChartLine, 1);

  line->x = g_array_new (FALSE, FALSE, sizeof (double));
  line->y = g_array_new (FALSE, FALSE, sizeof (double));
  line->columns = g_array_new (FALSE, FALSE, sizeof (Column));
  line->cells = g_array_new (FALSE, FALSE, sizeof (guint32));
  line->buckets = g_array_new (FALSE, FALSE, sizeof (Column));
  return line;
}

void
duel_chart_line_free (DuelChartLine *line)
{
  if (line == NULL)
    return;
  g_array_unref (line->x);
  g_array_unref (line->y);
  g_array_unref (line->columns);
  g_array_unref (line->cells);
  g_array_unref (line->buckets);
  g_free (line);
}

void
duel_chart_line_append (DuelChartLine *line,
                        double         x,
                        double         y)
{
  g_return_if_fail (line != NULL);
  g_return_if_fail (isfinite (x));

  if (line->x->len > 0 && x < g_array_index (line->x, double, line->x->len - 1))
    {
      g_critical ("%s: x must not decrease", G_STRFUNC);
      return;
    }
  g_array_append_val (line->x, x);
  g_array_append_val (line->y, y);
  line->line_valid = FALSE;
  line->scatter_valid = FALSE;
  g_array_set_size (line->buckets, 0);
}

guint
duel_chart_line_get_length (const DuelChartLine *line)
{
  g_return_val_if_fail (line != NULL, 0);
  return line->x->len;
}

const double *
duel_chart_line_get_x (const DuelChartLine *line)
{
  g_return_val_if_fail (line != NULL, NULL);
  return (const double *) (gpointer) line->x->data;
}

const double *
duel_chart_line_get_y (const DuelChartLine *line)
{
  g_return_val_if_fail (line != NULL, NULL);
  return (const double *) (gpointer) line->y->data;
}

gboolean
duel_chart_line_get_extent (const DuelChartLine *line,
                            double              *out_x_min,
                            double              *out_x_max,
                            double              *out_y_min,
                            double              *out_y_max,
                            double              *out_y_min_positive)
{
  const double *xs, *ys;
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  double y_pos = INFINITY;

  g_return_val_if_fail (line != NULL, FALSE);

  xs = duel_chart_line_get_x (line);
  ys = duel_chart_line_get_y (line);
  for (guint i = 0; i < line->x->len; i++)
    {
      if (!isfinite (ys[i]))
        continue;
      x_min = MIN (x_min, xs[i]);
      x_max = MAX (x_max, xs[i]);
      y_min = MIN (y_min, ys[i]);
      y_max = MAX (y_max, ys[i]);
      if (ys[i] > 0)
        y_pos = MIN (y_pos, ys[i]);
    }

  if (out_x_min) *out_x_min = x_min;
  if (out_x_max) *out_x_max = x_max;
  if (out_y_min) *out_y_min = y_min;
  if (out_y_max) *out_y_max = y_max;
  if (out_y_min_positive) *out_y_min_positive = y_pos;
  return isfinite (x_min);
}

/* The first index whose x is >= @x. */
static guint
lower_bound (const DuelChartLine *line,
             double               x)
{
  const double *xs = duel_chart_line_get_x (line);
  guint lo = 0, hi = line->x->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (xs[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

double
duel_chart_line_value_at (const DuelChartLine *line,
                          double               x)
{
  const double *xs, *ys;
  guint i;

  g_return_val_if_fail (line != NULL, NAN);

  if (line->x->len == 0)
    return NAN;
  xs = duel_chart_line_get_x (line);
  ys = duel_chart_line_get_y (line);
  i = lower_bound (line, x);
  if (i == line->x->len)
    return NAN;
  if (xs[i] == x || i == 0)
    return xs[i] == x ? ys[i] : NAN;
  if (xs[i] == xs[i - 1])
    return ys[i];
  return ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
}

double
duel_chart_line_mean_between (const DuelChartLine *line,
                              double               x_from,
                              double               x_to)
{
  const double *xs, *ys;
  double sum = 0;
  guint n = 0;

  g_return_val_if_fail (line != NULL, NAN);

  xs = duel_chart_line_get_x (line);
  ys = duel_chart_line_get_y (line);
  for (guint i = lower_bound (line, x_from); i < line->x->len && xs[i] <= x_to; i++)
    {
      if (isfinite (ys[i]))
        {
          sum += ys[i];
          n++;
        }
    }
  return n > 0 ? sum / n : NAN;
}

static void
device_box (cairo_t             *cr,
            const DuelChartRect *plot,
            CacheKey            *key)
{
  double x0 = plot->x, y0 = plot->y, x1 = plot->x + plot->width, y1 = plot->y + plot->height;

  cairo_user_to_device (cr, &x0, &y0);
  cairo_user_to_device (cr, &x1, &y1);
  key->dev_left = floor (MIN (x0, x1));
  key->dev_right = ceil (MAX (x0, x1));
  key->dev_top = floor (MIN (y0, y1));
  key->dev_bottom = ceil (MAX (y0, y1));
}

static void
add_to_column (DuelChartLine *line,
               guint          c,
               double         y,
               gboolean      *pending_gap)
{
  Column *col = &g_array_index (line->columns, Column, c);

  if (isnan (col->first))
    {
      col->first = col->min = col->max = y;
      col->gap_before = *pending_gap;
    }
  else
    {
      col->min = MIN (col->min, y);
      col->max = MAX (col->max, y);
    }
  col->last = y;
  *pending_gap = FALSE;
}

static void
merge_column (Column       *col,
              const Column *from)
{
  if (isnan (from->first))
    return;
  if (isnan (col->first))
    {
      *col = *from;
      return;
    }
  col->min = MIN (col->min, from->min);
  col->max = MAX (col->max, from->max);
  col->last = from->last;
}

void
duel_chart_line_prepare (DuelChartLine *line)
{
  const double *xs, *ys;
  Column empty = { NAN, NAN, NAN, NAN, FALSE };
  gboolean pending_gap = FALSE;
  double scale;
  guint n;

  g_return_if_fail (line != NULL);

  n = line->x->len;
  g_array_set_size (line->buckets, 0);
  /* Only worth it when there are many more points than buckets. */
  if (n < 4 * N_BUCKETS)
    return;

  xs = duel_chart_line_get_x (line);
  ys = duel_chart_line_get_y (line);
  line->bucket_x0 = xs[0];
  line->bucket_x1 = xs[n - 1];
  if (!(line->bucket_x1 > line->bucket_x0))
    return;

  g_array_set_size (line->buckets, N_BUCKETS);
  for (guint b = 0; b < N_BUCKETS; b++)
    g_array_index (line->buckets, Column, b) = empty;
  scale = N_BUCKETS / (line->bucket_x1 - line->bucket_x0);
  for (guint i = 0; i < n; i++)
    {
      guint b = (guint) MIN ((xs[i] - line->bucket_x0) * scale, N_BUCKETS - 1);
      Column *col = &g_array_index (line->buckets, Column, b);

      if (!isfinite (ys[i]))
        {
          pending_gap = TRUE;
          continue;
        }
      if (isnan (col->first))
        {
          col->first = col->min = col->max = ys[i];
          col->gap_before = pending_gap;
        }
      else
        {
          col->min = MIN (col->min, ys[i]);
          col->max = MAX (col->max, ys[i]);
        }
      col->last = ys[i];
      pending_gap = FALSE;
    }
}

/* From the buckets: exact to a bucket (1/65536 of the extent), far below a
 * pixel. Only when the axis shows all of the data on a linear scale. */
static gboolean
reduce_from_buckets (DuelChartLine       *line,
                     const DuelChartAxis *x,
                     guint                n_columns)
{
  double lo = MIN (x->min, x->max), hi = MAX (x->min, x->max);
  double width = (line->bucket_x1 - line->bucket_x0) / N_BUCKETS;
  double scale;

  if (line->buckets->len != N_BUCKETS || x->scale != DUEL_CHART_SCALE_LINEAR ||
      lo > line->bucket_x0 || hi < line->bucket_x1 || hi <= lo ||
      N_BUCKETS < 4 * n_columns)
    return FALSE;

  scale = n_columns / (x->max - x->min);
  for (guint b = 0; b < N_BUCKETS; b++)
    {
      const Column *bucket = &g_array_index (line->buckets, Column, b);
      gint64 c;

      if (isnan (bucket->first))
        continue;
      c = (gint64) ((line->bucket_x0 + (b + 0.5) * width - x->min) * scale);
      if (x->end < x->start)
        c = (gint64) n_columns - 1 - c;
      c = CLAMP (c, 0, (gint64) n_columns - 1);
      merge_column (&g_array_index (line->columns, Column, c), bucket);
    }
  return TRUE;
}

static void
reduce_columns (DuelChartLine       *line,
                const DuelChartAxis *x)
{
  const double *xs = duel_chart_line_get_x (line);
  const double *ys = duel_chart_line_get_y (line);
  guint n_columns = (guint) MAX (1, line->line_key.dev_right - line->line_key.dev_left);
  double lo = MIN (x->min, x->max), hi = MAX (x->min, x->max);
  gboolean pending_gap = FALSE;
  Column empty = { NAN, NAN, NAN, NAN, FALSE };
  guint first, i;
  gboolean linear;
  double scale;

  g_array_set_size (line->columns, 0);
  for (guint c = 0; c < n_columns; c++)
    g_array_append_val (line->columns, empty);

  if (reduce_from_buckets (line, x, n_columns))
    return;

  first = lower_bound (line, lo);

  /* A line leaving the visible range still reaches its edge: the value
   * where it crosses the edge goes into the edge column. */
  if (first > 0 && first < line->x->len && isfinite (ys[first - 1]) && isfinite (ys[first]) &&
      xs[first] > xs[first - 1])
    add_to_column (line, 0, ys[first - 1] + (ys[first] - ys[first - 1]) *
                   (lo - xs[first - 1]) / (xs[first] - xs[first - 1]), &pending_gap);

  /* Skip what lies outside the visible x range. A linear axis (the common
   * case, and the one with a million points) is mapped inline. */
  linear = x->scale == DUEL_CHART_SCALE_LINEAR && x->max != x->min;
  scale = linear ? n_columns / (x->max - x->min) : 0;
  for (i = first; i < line->x->len && xs[i] <= hi; i++)
    {
      gint64 c;

      if (linear)
        c = (gint64) ((xs[i] - x->min) * scale);
      else
        c = (gint64) floor (duel_chart_axis_normalize (x, xs[i]) * n_columns);
      if (x->end < x->start)
        c = (gint64) n_columns - 1 - c;
      c = CLAMP (c, 0, (gint64) n_columns - 1);

      if (!isfinite (ys[i]))
        {
          pending_gap = TRUE;
          continue;
        }
      add_to_column (line, (guint) c, ys[i], &pending_gap);
    }

  if (i > 0 && i < line->x->len && isfinite (ys[i - 1]) && isfinite (ys[i]) && xs[i] > xs[i - 1] &&
      xs[i - 1] >= lo)
    add_to_column (line, n_columns - 1, ys[i - 1] + (ys[i] - ys[i - 1]) *
                   (hi - xs[i - 1]) / (xs[i] - xs[i - 1]), &pending_gap);
}

static double
map_y_clamped (const DuelChartAxis *y,
               const DuelChartRect *plot,
               double               value)
{
  double py = duel_chart_axis_map (y, value);

  /* Keeps far-off values (0 on a log axis) within cairo's fixed-point range;
   * the clip hides the rest. */
  return CLAMP (py, plot->y - plot->height, plot->y + 2 * plot->height);
}

static void
ensure_columns (DuelChartLine       *line,
                cairo_t             *cr,
                const DuelChartAxis *x,
                const DuelChartRect *plot,
                CacheKey            *key)
{
  memset (key, 0, sizeof *key);  /* padding too: the key is compared with memcmp */
  key->n_points = line->x->len;
  key->x_scale = x->scale;
  key->x_min = x->min;
  key->x_max = x->max;
  device_box (cr, plot, key);

  if (!line->line_valid || memcmp (key, &line->line_key, sizeof *key) != 0)
    {
      line->line_key = *key;
      reduce_columns (line, x);
      line->line_valid = TRUE;
    }
}

/* The centre of device-pixel column @c, in user space. */
static double
column_x (cairo_t        *cr,
          const CacheKey *key,
          guint           c)
{
  double px = key->dev_left + c + 0.5, py = 0;

  cairo_device_to_user (cr, &px, &py);
  return px;
}

void
duel_chart_line_append_path (DuelChartLine       *line,
                             cairo_t             *cr,
                             const DuelChartAxis *x,
                             const DuelChartAxis *y,
                             const DuelChartRect *plot)
{
  CacheKey key;
  gboolean started = FALSE;

  g_return_if_fail (line != NULL && cr != NULL && x != NULL && y != NULL && plot != NULL);

  ensure_columns (line, cr, x, plot, &key);
  for (guint c = 0; c < line->columns->len; c++)
    {
      const Column *col = &g_array_index (line->columns, Column, c);
      double px;

      if (isnan (col->first))
        continue;
      px = column_x (cr, &key, c);
      if (!started || col->gap_before)
        cairo_move_to (cr, px, map_y_clamped (y, plot, col->first));
      else
        cairo_line_to (cr, px, map_y_clamped (y, plot, col->first));
      started = TRUE;

      if (col->min != col->max)
        {
          cairo_line_to (cr, px, map_y_clamped (y, plot, col->min));
          cairo_line_to (cr, px, map_y_clamped (y, plot, col->max));
        }
      if (col->last != col->first || col->min != col->max)
        cairo_line_to (cr, px, map_y_clamped (y, plot, col->last));
    }
}

void
duel_chart_line_draw (DuelChartLine       *line,
                      cairo_t             *cr,
                      const DuelChartAxis *x,
                      const DuelChartAxis *y,
                      const DuelChartRect *plot,
                      double               line_width)
{
  CacheKey key;
  guint n_columns, n_visible = 0, previous = G_MAXUINT;

  g_return_if_fail (line != NULL && cr != NULL && x != NULL && y != NULL && plot != NULL);

  ensure_columns (line, cr, x, plot, &key);
  n_columns = line->columns->len;
  for (guint c = 0; c < n_columns; c++)
    {
      const Column *col = &g_array_index (line->columns, Column, c);
      n_visible += !isnan (col->first) && (col->min != col->max || col->first != col->last);
    }

  /* Sparse: few columns hold more than one point, a plain stroke is cheap
   * and keeps joins and dashes. */
  if (n_visible * 4 < n_columns)
    {
      cairo_new_path (cr);
      duel_chart_line_append_path (line, cr, x, y, plot);
      cairo_set_line_width (cr, line_width);
      cairo_stroke (cr);
      return;
    }

  /* Dense: per device-pixel column one box from its minimum to its maximum,
   * stretched to the previous column's last value so the line stays joined.
   * Boxes on the device grid take cairo's rectangle fast path. */
  {
    cairo_matrix_t to_device;
    double dev_w = line_width, dev_h = 0;
    int box_w;

    cairo_get_matrix (cr, &to_device);
    cairo_user_to_device_distance (cr, &dev_w, &dev_h);
    box_w = MAX (1, (int) lround (fabs (dev_w)));

    cairo_save (cr);
    cairo_identity_matrix (cr);
    cairo_new_path (cr);
    for (guint c = 0; c < n_columns; c++)
      {
        const Column *col = &g_array_index (line->columns, Column, c);
        double lo, hi, ux = 0, y_hi, y_lo, top, bottom;

        if (isnan (col->first))
          continue;
        lo = col->min;
        hi = col->max;
        if (previous != G_MAXUINT && !col->gap_before)
          {
            const Column *prev = &g_array_index (line->columns, Column, previous);
            lo = MIN (lo, prev->last);
            hi = MAX (hi, prev->last);
          }

        /* The axes map to user space; the boxes live on the device grid. */
        y_hi = map_y_clamped (y, plot, hi);
        y_lo = map_y_clamped (y, plot, lo);
        cairo_matrix_transform_point (&to_device, &ux, &y_hi);
        ux = 0;
        cairo_matrix_transform_point (&to_device, &ux, &y_lo);
        top = floor (MIN (y_hi, y_lo) - (box_w - 1) / 2.0);
        bottom = ceil (MAX (y_hi, y_lo) + (box_w - 1) / 2.0);
        cairo_rectangle (cr, key.dev_left + c - (box_w - 1) / 2, top, box_w, MAX (bottom - top, 1));
        previous = c;
      }
    cairo_fill (cr);
    cairo_restore (cr);
  }
}

void
duel_chart_line_append_scatter (DuelChartLine       *line,
                                cairo_t             *cr,
                                const DuelChartAxis *x,
                                const DuelChartAxis *y,
                                const DuelChartRect *plot,
                                double               dot_size)
{
  CacheKey key;
  double dot_dev_x = dot_size, dot_dev_y = 0, dot_dev;
  guint n_cols, n_rows;

  g_return_if_fail (line != NULL && cr != NULL && x != NULL && y != NULL && plot != NULL);

  cairo_user_to_device_distance (cr, &dot_dev_x, &dot_dev_y);
  dot_dev = MAX (1.0, round (fabs (dot_dev_x)));

  memset (&key, 0, sizeof key);  /* padding too: the key is compared with memcmp */
  key.n_points = line->x->len;
  key.x_scale = x->scale;
  key.x_min = x->min;
  key.x_max = x->max;
  key.y_scale = y->scale;
  key.y_min = y->min;
  key.y_max = y->max;
  key.dot = dot_dev;
  device_box (cr, plot, &key);

  n_cols = (guint) MAX (1, ceil ((key.dev_right - key.dev_left) / dot_dev));
  n_rows = (guint) MAX (1, ceil ((key.dev_bottom - key.dev_top) / dot_dev));

  if (!line->scatter_valid || memcmp (&key, &line->scatter_key, sizeof key) != 0)
    {
      const double *xs = duel_chart_line_get_x (line);
      const double *ys = duel_chart_line_get_y (line);
      double lo = MIN (x->min, x->max), hi = MAX (x->min, x->max);
      g_autofree guint8 *occupied = g_malloc0 (((gsize) n_cols * n_rows + 7) / 8);

      g_array_set_size (line->cells, 0);
      for (guint i = lower_bound (line, lo); i < line->x->len && xs[i] <= hi; i++)
        {
          double tx, ty;
          gsize bit;
          guint32 cell[2];

          if (!isfinite (ys[i]))
            continue;
          tx = duel_chart_axis_normalize (x, xs[i]);
          ty = duel_chart_axis_normalize (y, ys[i]);
          if (ty < 0 || ty > 1 || tx < 0 || tx > 1)
            continue;
          cell[0] = (guint32) MIN (n_cols - 1, floor (tx * n_cols));
          cell[1] = (guint32) MIN (n_rows - 1, floor ((1 - ty) * n_rows));
          bit = (gsize) cell[1] * n_cols + cell[0];
          if (occupied[bit / 8] & (1u << (bit % 8)))
            continue;
          occupied[bit / 8] |= 1u << (bit % 8);
          g_array_append_vals (line->cells, cell, 2);
        }
      line->scatter_key = key;
      line->scatter_valid = TRUE;
    }

  for (guint i = 0; i + 1 < line->cells->len; i += 2)
    {
      double dx = key.dev_left + g_array_index (line->cells, guint32, i) * dot_dev;
      double dy = key.dev_top + g_array_index (line->cells, guint32, i + 1) * dot_dev;
      double w = dot_dev, h = dot_dev;

      cairo_device_to_user (cr, &dx, &dy);
      cairo_device_to_user_distance (cr, &w, &h);
      cairo_rectangle (cr, dx, dy, w, h);
    }
}
