/* duel-chart-rounds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-rounds.h"
#include "analysis/duel-rounds.h"
#include "review/duel-review-test.h"

typedef struct
{
  DuelRoundsReport *report;   /* NULL: this drive ran no such test */
  DuelChartLine    *values;   /* x: round number */
} Drive;

struct _DuelChartRounds
{
  DuelChart parent_instance;

  char     *section;          /* the test; NULL: the first the drives ran */
  gboolean  window_only;      /* SNIA's window plot: only the window's rounds, its bands and fitted line */
  char     *shown;            /* the one shown */
  Drive     drives[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
};

struct _DuelChartRoundsClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartRounds, duel_chart_rounds, DUEL_TYPE_CHART)

enum {
  PROP_0,
  PROP_SECTION,
  PROP_WINDOW_ONLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
drive_clear (Drive *drive)
{
  g_clear_pointer (&drive->report, duel_rounds_report_free);
  g_clear_pointer (&drive->values, duel_chart_line_free);
}

static void
duel_chart_rounds_rebuild (DuelChart *chart)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  g_clear_pointer (&self->shown, g_free);
  self->shown = g_strdup (self->section);
  self->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < self->n_drives; d++)
    {
      Drive *drive = &self->drives[d];

      /* The first drive with a test in rounds names the one shown. */
      drive->report = duel_rounds_report_new (duel_comparison_get_result (comparison, d), self->shown);
      drive->values = duel_chart_line_new ();
      if (drive->report == NULL)
        continue;
      if (self->shown == NULL)
        self->shown = g_strdup (drive->report->section);
      for (guint r = 0; r < drive->report->tracked->len; r++)
        {
          double value = g_array_index (drive->report->tracked, double, r);

          if (isfinite (value))
            duel_chart_line_append (drive->values, r + 1, value);
        }
    }
}

static gboolean
duel_chart_rounds_has_data (DuelChart *chart)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (chart);

  for (guint d = 0; d < self->n_drives; d++)
    if (self->drives[d].report != NULL && duel_chart_line_get_length (self->drives[d].values) > 0)
      return TRUE;
  return FALSE;
}

static const DuelRoundsReport *
first_report (DuelChartRounds *self)
{
  for (guint d = 0; d < self->n_drives; d++)
    if (self->drives[d].report != NULL)
      return self->drives[d].report;
  return NULL;
}

static char *
duel_chart_rounds_get_title (DuelChart *chart)
{
  const DuelRoundsReport *report = first_report (DUEL_CHART_ROUNDS (chart));
  const DuelReviewTest *test = report != NULL ? duel_review_test_find (report->section) : NULL;

  if (DUEL_CHART_ROUNDS (chart)->window_only)
    {
      if (test == NULL)
        return g_strdup (_("Steady-state window"));
      /* TRANSLATORS: a test in rounds: "SNIA IOPS: steady-state window" */
      return g_strdup_printf (_("%s: steady-state window"), duel_review_test_get_title (test));
    }
  if (test == NULL)
    return g_strdup (_("Steady state by round"));
  /* TRANSLATORS: a test in rounds: "SNIA IOPS: steady state by round" */
  return g_strdup_printf (_("%s: steady state by round"), duel_review_test_get_title (test));
}

static char *
duel_chart_rounds_get_subtitle (DuelChart *chart)
{
  const DuelRoundsReport *report = first_report (DUEL_CHART_ROUNDS (chart));
  g_autofree char *tracked = NULL;

  if (report == NULL || report->tracked_step == NULL)
    return NULL;
  tracked = duel_review_describe_record (report->tracked_step);
  if (DUEL_CHART_ROUNDS (chart)->window_only && report->measured.complete)
    {
      const DuelSteadyStateWindow *w = &report->measured;
      g_autofree char *mean = duel_chart_format_number (w->mean, w->mean < 100 ? 1 : 0);

      /* TRANSLATORS: the tracked cell, the window's rounds, its mean, the fitted line's change per round */
      return g_strdup_printf (_("%s; rounds %u–%u: mean %s, the bands ±10 %% and ±20 %% of it, "
                                "the fitted line's slope %.4g a round"),
                              tracked, w->first_round, w->first_round + w->n - 1, mean, w->slope);
    }
  /* TRANSLATORS: the tracked cell, the window's length in rounds, its two limits in % */
  return g_strdup_printf (_("%s; steady when %u rounds lie within %.0f %% of their mean and their fitted line "
                            "moves by at most %.0f %%"),
                          tracked, report->window, report->data_limit * 100, report->slope_limit * 100);
}

static const char *
unit_title (const DuelRoundsReport *report)
{
  if (report == NULL)
    return "";
  if (g_strcmp0 (report->tracked_key, "mbps") == 0)
    return _("MB/s");
  if (g_str_has_prefix (report->tracked_key, "latency_"))
    return _("Mean latency (µs)");
  return _("IOPS");
}

static void
duel_chart_rounds_fill_legend (DuelChart       *chart,
                               DuelChartLegend *legend)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);

  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      g_autofree char *name = duel_chart_dup_drive_label (chart, d);
      g_autofree char *label = NULL;

      if (drive->report == NULL)
        continue;
      if (drive->report->steady)
        /* TRANSLATORS: a drive, the round its test was steady in */
        label = g_strdup_printf (_("%s, steady in round %u"), name, drive->report->steady_round);
      else
        /* TRANSLATORS: a drive, the rounds it ran without a steady state */
        label = g_strdup_printf (_("%s, not steady after %u rounds"), name, drive->report->n_rounds);
      duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE,
                             duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), label);
    }
  if (self->window_only)
    {
      duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->foreground, _("window mean"));
      /* xgettext:no-c-format */
      duel_chart_legend_add (legend, DUEL_CHART_MARK_BOX, &style->guide, _("±10 % and ±20 % of the mean"));
      duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &style->guide, _("fitted line (slope)"));
      return;
    }
  duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("window mean and its limits"));
}

static void
draw_window (cairo_t                *cr,
             const DuelChartStyle   *style,
             const DuelChartColor   *color,
             const DuelChartAxis    *x_axis,
             const DuelChartAxis    *y_axis,
             const DuelRoundsReport *report)
{
  const DuelSteadyStateWindow *w = &report->measured;
  double dashes[] = { 6, 4 };
  double x0, x1, mean, low, high;

  if (!w->complete || !isfinite (w->mean))
    return;
  x0 = duel_chart_axis_map (x_axis, w->first_round);
  x1 = duel_chart_axis_map (x_axis, w->first_round + w->n - 1);
  mean = duel_chart_axis_map (y_axis, w->mean);
  low = duel_chart_axis_map (y_axis, w->mean * (1 - report->data_limit / 2));
  high = duel_chart_axis_map (y_axis, w->mean * (1 + report->data_limit / 2));

  /* The band: a window whose range fits in it can pass the data limit. */
  cairo_save (cr);
  duel_chart_set_source_color (cr, color);
  cairo_rectangle (cr, x0, MIN (low, high), MAX (x1 - x0, 1), fabs (low - high));
  cairo_clip_preserve (cr);
  cairo_paint_with_alpha (cr, 0.12);
  cairo_new_path (cr);
  cairo_reset_clip (cr);
  cairo_set_line_width (cr, style->line_width);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, x0, mean);
  cairo_line_to (cr, x1, mean);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* SNIA's window plot: the window's rounds, their mean, the ±10 % and ±20 %
 * bands around it and the least-squares line the slope limit is read from. */
static void
draw_window_plot (DuelChartRounds     *self,
                  cairo_t             *cr,
                  const DuelChartRect *area)
{
  DuelChart *chart = DUEL_CHART (self);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  const char *y_title = unit_title (first_report (self));
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot;
  double x_min = G_MAXUINT, x_max = 0, y_max = 0, dashes[] = { 6, 4 };

  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelRoundsReport *report = self->drives[d].report;
      const DuelSteadyStateWindow *w = report != NULL ? &report->measured : NULL;

      if (w == NULL || w->n == 0 || !isfinite (w->mean))
        continue;
      x_min = MIN (x_min, w->first_round);
      x_max = MAX (x_max, w->first_round + w->n - 1);
      y_max = MAX (y_max, w->mean * 1.2);
      for (guint i = 0; i < w->n; i++)
        if (isfinite (w->values[i]))
          y_max = MAX (y_max, w->values[i]);
    }
  if (x_max < x_min)
    {
      duel_chart_draw_message (chart, cr, area, _("These results hold no data for this chart."));
      return;
    }

  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&x_axis, x_min, MAX (x_max, x_min + 1), FALSE);
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.05, 1), TRUE);
  duel_chart_axes_layout (cr, style, &x_axis, &y_axis, _("Round"), y_title, area, &plot);
  duel_chart_axes_draw_grid (cr, style, &x_axis, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelRoundsReport *report = self->drives[d].report;
      const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);
      const DuelSteadyStateWindow *w;
      g_autoptr(DuelChartLine) values = NULL;
      double x0, x1, last;

      if (report == NULL || report->measured.n == 0 || !isfinite (report->measured.mean))
        continue;
      w = &report->measured;
      last = w->first_round + w->n - 1;
      x0 = duel_chart_axis_map (&x_axis, w->first_round);
      x1 = duel_chart_axis_map (&x_axis, last);

      /* The bands: ±20 % lighter, ±10 % inside it darker. */
      for (guint b = 0; b < 2; b++)
        {
          double share = b == 0 ? 0.2 : 0.1;
          double top = duel_chart_axis_map (&y_axis, w->mean * (1 + share));
          double bottom = duel_chart_axis_map (&y_axis, w->mean * (1 - share));

          cairo_save (cr);
          duel_chart_set_source_color (cr, &style->guide);
          cairo_rectangle (cr, x0, top, MAX (x1 - x0, 1), bottom - top);
          cairo_clip (cr);
          cairo_paint_with_alpha (cr, 0.12);
          cairo_restore (cr);
        }
      cairo_save (cr);
      cairo_set_line_width (cr, style->line_width);
      duel_chart_set_source_color (cr, &style->foreground);
      cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
      cairo_move_to (cr, x0, duel_chart_axis_map (&y_axis, w->mean));
      cairo_line_to (cr, x1, duel_chart_axis_map (&y_axis, w->mean));
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      /* The fitted line y = slope · round + intercept over the window. */
      duel_chart_set_source_color (cr, &style->guide);
      cairo_set_line_width (cr, style->line_width * 1.5);
      cairo_move_to (cr, x0, duel_chart_axis_map (&y_axis, w->slope * w->first_round + w->intercept));
      cairo_line_to (cr, x1, duel_chart_axis_map (&y_axis, w->slope * last + w->intercept));
      cairo_stroke (cr);
      cairo_restore (cr);

      values = duel_chart_line_new ();
      for (guint i = 0; i < w->n; i++)
        duel_chart_line_append (values, w->first_round + i, w->values[i]);
      duel_chart_set_source_color (cr, color);
      duel_chart_line_draw (values, cr, &x_axis, &y_axis, &plot, style->line_width * 1.5);
      for (guint i = 0; i < w->n; i++)
        if (isfinite (w->values[i]))
          duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_DOT, color,
                                duel_chart_axis_map (&x_axis, w->first_round + i),
                                duel_chart_axis_map (&y_axis, w->values[i]), 14);
    }
  cairo_restore (cr);
  duel_chart_axes_draw (cr, style, &x_axis, &y_axis, _("Round"), y_title, &plot);
}

static void
duel_chart_rounds_draw_content (DuelChart           *chart,
                                cairo_t             *cr,
                                const DuelChartRect *area)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (chart);

  if (self->window_only)
    {
      draw_window_plot (self, cr, area);
      return;
    }
  {
  const DuelChartStyle *style = duel_chart_get_style (chart);
  const char *y_title = unit_title (first_report (self));
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot;
  double x_max = 1, y_max = 0;

  for (guint d = 0; d < self->n_drives; d++)
    {
      double x0, x1, y0, y1;

      if (self->drives[d].report == NULL)
        continue;
      if (duel_chart_line_get_extent (self->drives[d].values, &x0, &x1, &y0, &y1, NULL))
        {
          x_max = MAX (x_max, x1);
          y_max = MAX (y_max, y1);
        }
      if (isfinite (self->drives[d].report->measured.mean))
        y_max = MAX (y_max, self->drives[d].report->measured.mean * (1 + self->drives[d].report->data_limit / 2));
    }

  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&x_axis, 1, MAX (x_max, 2), FALSE);
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.05, 1), TRUE);

  duel_chart_axes_layout (cr, style, &x_axis, &y_axis, _("Round"), y_title, area, &plot);
  duel_chart_axes_draw_grid (cr, style, &x_axis, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);

      if (drive->report == NULL || duel_chart_line_get_length (drive->values) == 0)
        continue;
      draw_window (cr, style, color, &x_axis, &y_axis, drive->report);
      duel_chart_set_source_color (cr, color);
      duel_chart_line_draw (drive->values, cr, &x_axis, &y_axis, &plot, style->line_width * 1.5);
      /* A dot per round: rounds are few, and each is a measurement. */
      duel_chart_line_append_scatter (drive->values, cr, &x_axis, &y_axis, &plot, 5.0);
      cairo_fill (cr);
    }
  cairo_restore (cr);
  duel_chart_axes_draw (cr, style, &x_axis, &y_axis, _("Round"), y_title, &plot);
  }
}

static void
duel_chart_rounds_write_csv (DuelChart *chart,
                             GString   *csv)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,test,round,tracked_step,tracked_key,value,in_window,steady\n");
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const DuelSteadyStateWindow *w;

      if (drive->report == NULL)
        continue;
      w = &drive->report->measured;
      for (guint r = 0; r < drive->report->tracked->len; r++)
        {
          guint round = r + 1;

          duel_chart_csv_append_field (csv, duel_comparison_get_drive_name (comparison, d));
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, drive->report->section);
          g_string_append_printf (csv, ",%u,", round);
          duel_chart_csv_append_field (csv, drive->report->tracked_step);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, drive->report->tracked_key);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", g_array_index (drive->report->tracked, double, r));
          g_string_append_printf (csv, ",%s,%s\n",
                                  w->complete && round >= w->first_round && round < w->first_round + w->n
                                  ? "true" : "false",
                                  drive->report->steady ? "true" : "false");
        }
    }
}

static void
duel_chart_rounds_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (object);

  switch (prop_id)
    {
    case PROP_SECTION:
      g_value_set_string (value, self->section);
      break;

    case PROP_WINDOW_ONLY:
      g_value_set_boolean (value, self->window_only);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_rounds_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (object);

  switch (prop_id)
    {
    case PROP_SECTION:
      g_free (self->section);
      self->section = g_value_dup_string (value);
      break;

    case PROP_WINDOW_ONLY:
      self->window_only = g_value_get_boolean (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_rounds_finalize (GObject *object)
{
  DuelChartRounds *self = DUEL_CHART_ROUNDS (object);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  g_free (self->section);
  g_free (self->shown);

  G_OBJECT_CLASS (duel_chart_rounds_parent_class)->finalize (object);
}

static void
duel_chart_rounds_class_init (DuelChartRoundsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_rounds_finalize;
  object_class->get_property = duel_chart_rounds_get_property;
  object_class->set_property = duel_chart_rounds_set_property;

  chart_class->id = "steady-state";
  chart_class->tab_title = N_("Steady State");
  chart_class->only_with_data = TRUE;
  chart_class->rebuild = duel_chart_rounds_rebuild;
  chart_class->get_title = duel_chart_rounds_get_title;
  chart_class->get_subtitle = duel_chart_rounds_get_subtitle;
  chart_class->has_data = duel_chart_rounds_has_data;
  chart_class->fill_legend = duel_chart_rounds_fill_legend;
  chart_class->draw_content = duel_chart_rounds_draw_content;
  chart_class->write_csv = duel_chart_rounds_write_csv;

  properties[PROP_SECTION] =
    g_param_spec_string ("section", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_WINDOW_ONLY] =
    g_param_spec_boolean ("window-only", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_rounds_init (DuelChartRounds *self)
{
}

DuelChart *
duel_chart_rounds_new (DuelComparison *comparison,
                       const char     *section)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_ROUNDS, "section", section, "comparison", comparison, NULL);
}
