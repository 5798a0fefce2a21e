/* duel-chart-axes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "duel-chart-axes.h"
#include "duel-number.h"

#define NINES_MAX 99.99999  /* beyond this a percentile axis would run to infinity */

static double
nines_transform (double percentile)
{
  percentile = CLAMP (percentile, 0.0, NINES_MAX);
  return -log10 (1.0 - percentile / 100.0);
}

static double
scale_transform (DuelChartScale scale,
                 double         value)
{
  switch (scale)
    {
    case DUEL_CHART_SCALE_LOG:
      return value > 0 ? log10 (value) : -1e6;
    case DUEL_CHART_SCALE_NINES:
      return nines_transform (value);
    case DUEL_CHART_SCALE_LINEAR:
    default:
      return value;
    }
}

void
duel_chart_axis_init (DuelChartAxis   *axis,
                      DuelChartScale   scale,
                      DuelChartFormat  format,
                      double           min,
                      double           max)
{
  g_return_if_fail (axis != NULL);

  axis->scale = scale;
  axis->format = format;
  axis->min = min;
  axis->max = max;
  axis->start = 0;
  axis->end = 1;
}

/* The smallest of 1, 2, 2.5, 5 × 10^k that is at least @value. */
static double
nice_step (double value)
{
  static const double steps[] = { 1, 2, 2.5, 5, 10 };
  double magnitude;

  if (!(value > 0) || !isfinite (value))
    return 1;
  magnitude = pow (10, floor (log10 (value)));
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      if (steps[i] * magnitude >= value * (1 - 1e-9))
        return steps[i] * magnitude;
    }
  return 10 * magnitude;
}

void
duel_chart_axis_fit (DuelChartAxis *axis,
                     double         data_min,
                     double         data_max,
                     gboolean       include_zero)
{
  double step;

  g_return_if_fail (axis != NULL);

  if (!isfinite (data_min) || !isfinite (data_max) || data_min > data_max)
    {
      data_min = axis->scale == DUEL_CHART_SCALE_LOG ? 1 : 0;
      data_max = axis->scale == DUEL_CHART_SCALE_LOG ? 10 : 1;
    }

  switch (axis->scale)
    {
    case DUEL_CHART_SCALE_LOG:
      if (data_min <= 0)
        data_min = data_max > 0 ? data_max / 1000 : 1;
      if (data_max <= 0)
        data_max = data_min * 10;
      axis->min = pow (10, floor (log10 (data_min) + 1e-9));
      axis->max = pow (10, ceil (log10 (data_max) - 1e-9));
      if (axis->max <= axis->min)
        axis->max = axis->min * 10;
      break;

    case DUEL_CHART_SCALE_NINES:
      {
        static const double nines[] = { 90, 99, 99.9, 99.99, 99.999, 99.9999 };

        axis->min = data_min >= 90 ? 90 : 0;
        axis->max = nines[G_N_ELEMENTS (nines) - 1];
        for (guint i = 0; i < G_N_ELEMENTS (nines); i++)
          {
            if (nines[i] >= data_max - 1e-9)
              {
                axis->max = nines[i];
                break;
              }
          }
      }
      break;

    case DUEL_CHART_SCALE_LINEAR:
    default:
      if (include_zero)
        {
          data_min = MIN (data_min, 0);
          data_max = MAX (data_max, 0);
        }
      if (data_max - data_min <= 0)
        {
          double pad = fabs (data_max) > 0 ? fabs (data_max) * 0.1 : 1;
          data_max += pad;
          if (!include_zero || data_min != 0)
            data_min -= pad;
        }
      step = nice_step ((data_max - data_min) / 5);
      axis->min = floor (data_min / step + 1e-9) * step;
      axis->max = ceil (data_max / step - 1e-9) * step;
      break;
    }
}

double
duel_chart_axis_normalize (const DuelChartAxis *axis,
                           double               value)
{
  double lo = scale_transform (axis->scale, axis->min);
  double hi = scale_transform (axis->scale, axis->max);

  if (hi == lo)
    return 0.5;
  return (scale_transform (axis->scale, value) - lo) / (hi - lo);
}

double
duel_chart_axis_map (const DuelChartAxis *axis,
                     double               value)
{
  return axis->start + (axis->end - axis->start) * duel_chart_axis_normalize (axis, value);
}

GArray *
duel_chart_axis_get_ticks (const DuelChartAxis *axis)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));

  g_return_val_if_fail (axis != NULL, ticks);

  switch (axis->scale)
    {
    case DUEL_CHART_SCALE_LOG:
      {
        int lo = (int) floor (log10 (axis->min) + 1e-9);
        int hi = (int) ceil (log10 (axis->max) - 1e-9);
        gboolean fine = hi - lo <= 2;

        for (int e = lo; e <= hi; e++)
          {
            static const double fine_steps[] = { 1, 2, 5 };
            for (guint i = 0; i < (fine ? G_N_ELEMENTS (fine_steps) : 1); i++)
              {
                double v = fine_steps[i] * pow (10, e);
                if (v >= axis->min * (1 - 1e-9) && v <= axis->max * (1 + 1e-9))
                  g_array_append_val (ticks, v);
              }
          }
      }
      break;

    case DUEL_CHART_SCALE_NINES:
      {
        static const double nines[] = { 0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999 };

        for (guint i = 0; i < G_N_ELEMENTS (nines); i++)
          {
            if (nines[i] >= axis->min - 1e-9 && nines[i] <= axis->max + 1e-9)
              g_array_append_val (ticks, nines[i]);
          }
      }
      break;

    case DUEL_CHART_SCALE_LINEAR:
    default:
      {
        double step = nice_step ((axis->max - axis->min) / 5);
        double first = ceil (axis->min / step - 1e-9) * step;

        for (guint i = 0; i <= 20; i++)
          {
            double v = first + i * step;
            if (v > axis->max + step * 1e-6)
              break;
            if (fabs (v) < step * 1e-9)
              v = 0;
            g_array_append_val (ticks, v);
          }
      }
      break;
    }

  return ticks;
}

char *
duel_chart_format_number (double value,
                          int    decimals)
{
  /* As every text for people groups it (duel_number_format()): a chart
   * and the table beside it print a figure the same way. */
  return duel_number_format (value, decimals);
}

char *
duel_chart_format_compact (double value)
{
  static const struct { double limit; const char *suffix; } units[] = {
    { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
  };
  double magnitude = fabs (value);

  if (!isfinite (value))
    return g_strdup ("–");
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (magnitude >= units[i].limit)
        return g_strdup_printf ("%.3g%s", value / units[i].limit, units[i].suffix);
    }
  if (magnitude < 1e-12)
    return g_strdup ("0");
  return g_strdup_printf ("%.3g", value);
}

char *
duel_chart_format_duration_ns (double value_ns)
{
  double magnitude = fabs (value_ns);

  if (!isfinite (value_ns))
    return g_strdup ("–");
  if (magnitude >= 1e9)
    return g_strdup_printf ("%.3g s", value_ns / 1e9);
  if (magnitude >= 1e6)
    return g_strdup_printf ("%.3g ms", value_ns / 1e6);
  if (magnitude >= 1e3)
    return g_strdup_printf ("%.3g µs", value_ns / 1e3);
  return g_strdup_printf ("%.3g ns", value_ns);
}

char *
duel_chart_axis_format (const DuelChartAxis *axis,
                        double               value)
{
  g_autofree char *number = NULL;

  switch (axis->format)
    {
    case DUEL_CHART_FORMAT_PERCENT:
      number = duel_chart_format_compact (value);
      return g_strdup_printf ("%s%%", number);
    case DUEL_CHART_FORMAT_NINES:
      return g_strdup_printf ("%.7g%%", value);
    case DUEL_CHART_FORMAT_DURATION_NS:
      return duel_chart_format_duration_ns (value);
    case DUEL_CHART_FORMAT_NUMBER:
    default:
      return duel_chart_format_compact (value);
    }
}

double
duel_chart_snap_x (cairo_t *cr,
                   double   x)
{
  double y = 0;

  cairo_user_to_device (cr, &x, &y);
  x = floor (x) + 0.5;
  cairo_device_to_user (cr, &x, &y);
  return x;
}

double
duel_chart_snap_y (cairo_t *cr,
                   double   y)
{
  double x = 0;

  cairo_user_to_device (cr, &x, &y);
  y = floor (y) + 0.5;
  cairo_device_to_user (cr, &x, &y);
  return y;
}

double
duel_chart_draw_text_in (cairo_t              *cr,
                         const DuelChartStyle *style,
                         DuelChartTextRole     role,
                         const DuelChartColor *color,
                         const char           *text,
                         const DuelChartRect  *box,
                         double                xalign,
                         double                yalign)
{
  return duel_chart_draw_lines_in (cr, style, role, color, text, box, xalign, yalign, 1);
}

double
duel_chart_draw_lines_in (cairo_t              *cr,
                          const DuelChartStyle *style,
                          DuelChartTextRole     role,
                          const DuelChartColor *color,
                          const char           *text,
                          const DuelChartRect  *box,
                          double                xalign,
                          double                yalign,
                          guint                 max_lines)
{
  g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (style, cr, role, text);
  PangoRectangle logical;
  double h;

  pango_layout_set_width (layout, (int) (MAX (box->width, 1) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  if (max_lines > 1)
    {
      /* Wrapped at words, "…" only on the last line allowed (a negative
       * height counts lines). */
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_height (layout, -(int) max_lines);
    }
  pango_layout_set_alignment (layout, xalign >= 0.75 ? PANGO_ALIGN_RIGHT
                                      : xalign >= 0.25 ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
  pango_layout_get_extents (layout, NULL, &logical);
  h = (double) logical.height / PANGO_SCALE;
  cairo_save (cr);
  duel_chart_set_source_color (cr, color);
  cairo_move_to (cr, box->x, box->y + yalign * (box->height - h));
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
  return h;
}

void
duel_chart_measure_text (cairo_t              *cr,
                         const DuelChartStyle *style,
                         DuelChartTextRole     role,
                         const char           *text,
                         double               *out_width,
                         double               *out_height)
{
  g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (style, cr, role, text);
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  if (out_width)
    *out_width = (double) logical.width / PANGO_SCALE;
  if (out_height)
    *out_height = (double) logical.height / PANGO_SCALE;
}

void
duel_chart_draw_text (cairo_t              *cr,
                      const DuelChartStyle *style,
                      DuelChartTextRole     role,
                      const DuelChartColor *color,
                      const char           *text,
                      double                x,
                      double                y,
                      double                xalign,
                      double                yalign)
{
  g_autoptr(PangoLayout) layout = NULL;
  PangoRectangle logical;

  if (text == NULL || *text == '\0')
    return;

  layout = duel_chart_style_create_layout (style, cr, role, text);
  pango_layout_get_extents (layout, NULL, &logical);
  cairo_save (cr);
  duel_chart_set_source_color (cr, color);
  cairo_move_to (cr,
                 x - xalign * logical.width / PANGO_SCALE - (double) logical.x / PANGO_SCALE,
                 y - yalign * logical.height / PANGO_SCALE - (double) logical.y / PANGO_SCALE);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
}

static double
device_pixel (cairo_t *cr)
{
  double dx = 1, dy = 1;

  cairo_device_to_user_distance (cr, &dx, &dy);
  return fabs (dx);
}

#define GAP 6.0

void
duel_chart_axes_layout (cairo_t              *cr,
                        const DuelChartStyle *style,
                        DuelChartAxis        *x,
                        DuelChartAxis        *y,
                        const char           *x_title,
                        const char           *y_title,
                        const DuelChartRect  *area,
                        DuelChartRect        *out_plot)
{
  g_autoptr(GArray) y_ticks = NULL;
  double tick_w = 0, tick_h = 0, title_h = 0, right_pad = GAP, w, h;
  double left, top, bottom;

  g_return_if_fail (y != NULL && area != NULL && out_plot != NULL);

  y_ticks = duel_chart_axis_get_ticks (y);
  for (guint i = 0; i < y_ticks->len; i++)
    {
      g_autofree char *label = duel_chart_axis_format (y, g_array_index (y_ticks, double, i));
      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, label, &w, &h);
      tick_w = MAX (tick_w, w);
      tick_h = MAX (tick_h, h);
    }
  if (tick_h == 0)
    duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, "0", NULL, &tick_h);

  if (y_title && *y_title)
    duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, y_title, NULL, &title_h);

  left = area->x + (title_h > 0 ? title_h + GAP : 0) + tick_w + GAP;
  top = area->y + tick_h / 2;
  bottom = area->y + area->height - tick_h - GAP;

  if (x != NULL)
    {
      g_autoptr(GArray) x_ticks = duel_chart_axis_get_ticks (x);

      if (x_ticks->len > 0)
        {
          g_autofree char *last = duel_chart_axis_format (x, g_array_index (x_ticks, double, x_ticks->len - 1));
          duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, last, &w, NULL);
          right_pad = MAX (right_pad, w / 2 + 2);
        }
      if (x_title && *x_title)
        {
          duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, x_title, NULL, &h);
          bottom -= h + GAP / 2;
        }
    }

  out_plot->x = left;
  out_plot->y = top;
  out_plot->width = MAX (area->x + area->width - right_pad - left, 10);
  out_plot->height = MAX (bottom - top, 10);

  if (x != NULL)
    {
      x->start = out_plot->x;
      x->end = out_plot->x + out_plot->width;
    }
  y->start = out_plot->y + out_plot->height;
  y->end = out_plot->y;
}

void
duel_chart_axes_draw_grid (cairo_t              *cr,
                           const DuelChartStyle *style,
                           const DuelChartAxis  *x,
                           const DuelChartAxis  *y,
                           const DuelChartRect  *plot)
{
  g_autoptr(GArray) y_ticks = duel_chart_axis_get_ticks (y);

  cairo_save (cr);
  cairo_set_line_width (cr, device_pixel (cr));
  duel_chart_set_source_color (cr, &style->grid);

  for (guint i = 0; i < y_ticks->len; i++)
    {
      double py = duel_chart_snap_y (cr, duel_chart_axis_map (y, g_array_index (y_ticks, double, i)));
      cairo_move_to (cr, plot->x, py);
      cairo_line_to (cr, plot->x + plot->width, py);
    }

  if (x != NULL)
    {
      g_autoptr(GArray) x_ticks = duel_chart_axis_get_ticks (x);

      for (guint i = 0; i < x_ticks->len; i++)
        {
          double px = duel_chart_snap_x (cr, duel_chart_axis_map (x, g_array_index (x_ticks, double, i)));
          cairo_move_to (cr, px, plot->y);
          cairo_line_to (cr, px, plot->y + plot->height);
        }
    }

  cairo_stroke (cr);
  cairo_restore (cr);
}

void
duel_chart_axes_draw (cairo_t              *cr,
                      const DuelChartStyle *style,
                      const DuelChartAxis  *x,
                      const DuelChartAxis  *y,
                      const char           *x_title,
                      const char           *y_title,
                      const DuelChartRect  *plot)
{
  g_autoptr(GArray) y_ticks = duel_chart_axis_get_ticks (y);
  double px_left = duel_chart_snap_x (cr, plot->x);
  double py_bottom = duel_chart_snap_y (cr, plot->y + plot->height);
  double tick_w = 0, h = 0;

  cairo_save (cr);
  cairo_set_line_width (cr, device_pixel (cr));
  duel_chart_set_source_color (cr, &style->axis);
  cairo_move_to (cr, px_left, plot->y);
  cairo_line_to (cr, px_left, py_bottom);
  cairo_line_to (cr, plot->x + plot->width, py_bottom);
  cairo_stroke (cr);
  cairo_restore (cr);

  for (guint i = 0; i < y_ticks->len; i++)
    {
      double v = g_array_index (y_ticks, double, i);
      g_autofree char *label = duel_chart_axis_format (y, v);
      double w;

      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, label, &w, NULL);
      tick_w = MAX (tick_w, w);
      duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_TICK, &style->muted, label,
                            plot->x - GAP, duel_chart_axis_map (y, v), 1.0, 0.5);
    }

  if (y_title && *y_title)
    {
      cairo_save (cr);
      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, y_title, NULL, &h);
      cairo_translate (cr, plot->x - GAP - tick_w - GAP - h, plot->y + plot->height / 2);
      cairo_rotate (cr, -G_PI / 2);
      duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, &style->foreground, y_title,
                            0, 0, 0.5, 0.0);
      cairo_restore (cr);
    }

  if (x != NULL)
    {
      g_autoptr(GArray) x_ticks = duel_chart_axis_get_ticks (x);
      double tick_h = 0;

      for (guint i = 0; i < x_ticks->len; i++)
        {
          double v = g_array_index (x_ticks, double, i);
          g_autofree char *label = duel_chart_axis_format (x, v);

          duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, label, NULL, &h);
          tick_h = MAX (tick_h, h);
          duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_TICK, &style->muted, label,
                                duel_chart_axis_map (x, v), plot->y + plot->height + GAP, 0.5, 0.0);
        }

      if (x_title && *x_title)
        duel_chart_draw_text (cr, style, DUEL_CHART_TEXT_AXIS_TITLE, &style->foreground, x_title,
                              plot->x + plot->width / 2,
                              plot->y + plot->height + GAP + tick_h + GAP / 2, 0.5, 0.0);
    }
}
