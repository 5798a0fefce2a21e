/* duel-chart-recovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-recovery.h"
#include "duel-json.h"

/* One burst (after one idle period) of every drive. */
typedef struct
{
  char   *test;                                   /* its record name, the same on every drive */
  double  idle_s[DUEL_COMPARISON_MAX_DRIVES];     /* as asked */
  double  iops[DUEL_COMPARISON_MAX_DRIVES];
  double  share[DUEL_COMPARISON_MAX_DRIVES];      /* of the fresh speed, % */
  double  dirty[DUEL_COMPARISON_MAX_DRIVES];      /* the dirty speed's share of the fresh, % */
} Burst;

struct _DuelChartRecovery
{
  DuelChart parent_instance;

  GArray *bursts;                                 /* Burst, in file order */
  guint   n_drives;
};

struct _DuelChartRecoveryClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartRecovery, duel_chart_recovery, DUEL_TYPE_CHART)

static void
burst_clear (gpointer data)
{
  g_free (((Burst *) data)->test);
}

static Burst *
find_burst (DuelChartRecovery *self,
            const char        *test)
{
  Burst fresh = { 0 };

  for (guint i = 0; i < self->bursts->len; i++)
    if (g_strcmp0 (g_array_index (self->bursts, Burst, i).test, test) == 0)
      return &g_array_index (self->bursts, Burst, i);
  fresh.test = g_strdup (test);
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    fresh.idle_s[d] = fresh.iops[d] = fresh.share[d] = fresh.dirty[d] = NAN;
  g_array_append_val (self->bursts, fresh);
  return &g_array_index (self->bursts, Burst, self->bursts->len - 1);
}

static void
duel_chart_recovery_rebuild (DuelChart *chart)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_array_set_size (self->bursts, 0);
  self->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autoptr(GPtrArray) tests = duel_comparison_find_tests (comparison, d, DUEL_ANALYSIS_RECOVERY);

      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          JsonObject *recovery = duel_json_get_object (duel_test_record_get_details (record), "recovery");
          Burst *burst;
          double planned_ms, fresh, dirty;

          /* The burst on the fresh drive is the reference, not a group;
           * the sequential write after an idle is no burst. */
          if (recovery == NULL || record->workload.pattern == DUEL_PATTERN_SEQUENTIAL)
            continue;
          burst = find_burst (self, record->name);

          burst->iops[d] = duel_test_record_get_figure_value (record, "recovery_iops");
          burst->share[d] = duel_test_record_get_figure_value (record, "recovery_fresh_pct");
          if (duel_json_get_number (recovery, "idle_planned_ms", &planned_ms))
            burst->idle_s[d] = planned_ms / 1e3;
          if (duel_json_get_number (recovery, "fresh_iops", &fresh) && fresh > 0 &&
              duel_json_get_number (recovery, "dirty_iops", &dirty))
            burst->dirty[d] = 100 * dirty / fresh;
        }
    }
}

static gboolean
duel_chart_recovery_has_data (DuelChart *chart)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (chart);

  for (guint i = 0; i < self->bursts->len; i++)
    for (guint d = 0; d < self->n_drives; d++)
      if (isfinite (g_array_index (self->bursts, Burst, i).share[d]))
        return TRUE;
  return FALSE;
}

static char *
duel_chart_recovery_get_title (DuelChart *chart)
{
  return g_strdup (_("Recovery after idle: 4K random write as a share of the fresh speed"));
}

static char *
duel_chart_recovery_get_subtitle (DuelChart *chart)
{
  /* xgettext:no-c-format */
  return g_strdup (_("After each idle period, a 4K random write QD32 burst; 100 %: as fast as the empty "
                     "drive, ticks: where the fill left it"));
}

static void
duel_chart_recovery_fill_legend (DuelChart       *chart,
                                 DuelChartLegend *legend)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *label = duel_chart_dup_drive_label (chart, d);

      duel_chart_legend_add (legend, DUEL_CHART_MARK_BOX,
                             duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), label);
    }
  duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("fresh speed"));
  duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &style->foreground, _("after the fill, before the idle"));
}

/* "After 5 min idle", from the first drive that ran the burst; the drives
 * that rested otherwise are named by the comparison's fairness note. */
static char *
burst_label (const Burst *burst,
             guint        n_drives,
             guint        index)
{
  for (guint d = 0; d < n_drives; d++)
    {
      double s = burst->idle_s[d];

      if (!isfinite (s))
        continue;
      if (s >= 3600 && fmod (s, 3600) == 0)
        /* TRANSLATORS: a group of bars: the burst after an idle of this many hours */
        return g_strdup_printf (_("After %.0f h idle"), s / 3600);
      if (s >= 60 && fmod (s, 60) == 0)
        /* TRANSLATORS: a group of bars: the burst after an idle of this many minutes */
        return g_strdup_printf (_("After %.0f min idle"), s / 60);
      /* TRANSLATORS: a group of bars: the burst after an idle of this many seconds */
      return g_strdup_printf (_("After %.3g s idle"), s);
    }
  /* TRANSLATORS: a group of bars: the burst after the idle period of this number */
  return g_strdup_printf (_("After idle %u"), index + 1);
}

static void
duel_chart_recovery_draw_content (DuelChart           *chart,
                                  cairo_t             *cr,
                                  const DuelChartRect *area)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  guint n = self->bursts->len;
  DuelChartAxis y_axis;
  DuelChartRect plot, inner = *area;
  double y_max = 100, slot, bar_w, label_h = 0, dashes[] = { 6, 4 };
  g_autoptr(DuelChartLabels) labels = NULL;

  if (!duel_chart_recovery_has_data (chart))
    {
      duel_chart_draw_message (chart, cr, area, _("No test of recovery after idle in these results."));
      return;
    }
  for (guint i = 0; i < n; i++)
    for (guint d = 0; d < self->n_drives; d++)
      {
        const Burst *b = &g_array_index (self->bursts, Burst, i);

        if (isfinite (b->share[d]))
          y_max = MAX (y_max, b->share[d]);
        if (isfinite (b->dirty[d]))
          y_max = MAX (y_max, b->dirty[d]);
      }
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, y_max * 1.1, TRUE);
  /* Room for the groups' names below the bars: one line of tick text. */
  duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_TICK, "Ag", NULL, &label_h);
  inner.height = MAX (area->height - label_h - 6, 20);
  /* xgettext:no-c-format */
  duel_chart_axes_layout (cr, style, NULL, &y_axis, NULL, _("% of the fresh speed"), &inner, &plot);
  duel_chart_axes_draw_grid (cr, style, NULL, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);

  /* As fast as the empty drive. */
  cairo_save (cr);
  duel_chart_set_source_color (cr, &style->guide);
  cairo_set_line_width (cr, style->line_width);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, plot.x, duel_chart_snap_y (cr, duel_chart_axis_map (&y_axis, 100)));
  cairo_line_to (cr, plot.x + plot.width, duel_chart_snap_y (cr, duel_chart_axis_map (&y_axis, 100)));
  cairo_stroke (cr);
  cairo_restore (cr);

  slot = plot.width / n;
  bar_w = MIN (slot * 0.7 / MAX (self->n_drives, 1), style->font_size * 5);
  for (guint i = 0; i < n; i++)
    {
      const Burst *b = &g_array_index (self->bursts, Burst, i);
      double center = plot.x + slot * (i + 0.5), group_left = center - bar_w * self->n_drives / 2;
      g_autofree char *label = burst_label (b, self->n_drives, i);

      for (guint d = 0; d < self->n_drives; d++)
        {
          double x = group_left + d * bar_w;

          if (isfinite (b->share[d]))
            {
              double top = duel_chart_axis_map (&y_axis, b->share[d]);
              double bottom = duel_chart_axis_map (&y_axis, 0);
              DuelChartRect bar = { x + 1, top, bar_w - 2, bottom - top };
              g_autofree char *text = g_strdup_printf ("%.0f %%", b->share[d]);

              duel_chart_set_source_color (cr, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
              cairo_rectangle (cr, bar.x, bar.y, bar.width, bar.height);
              cairo_fill (cr);
              duel_chart_labels_avoid (labels, &bar);
              duel_chart_labels_add (labels, text, &style->foreground, x + bar_w / 2, top, DUEL_CHART_LABEL_ABOVE);
            }
          /* Where the fill left the drive: the level the idle started from. */
          if (isfinite (b->dirty[d]))
            {
              double py = duel_chart_snap_y (cr, duel_chart_axis_map (&y_axis, b->dirty[d]));

              cairo_save (cr);
              duel_chart_set_source_color (cr, &style->foreground);
              cairo_set_line_width (cr, style->line_width * 2);
              cairo_move_to (cr, x - 2, py);
              cairo_line_to (cr, x + bar_w + 2, py);
              cairo_stroke (cr);
              cairo_restore (cr);
              duel_chart_labels_avoid (labels, &(DuelChartRect) { x - 2, py - 2, bar_w + 4, 4 });
            }
        }
      duel_chart_draw_text_in (cr, style, DUEL_CHART_TEXT_TICK, &style->muted, label,
                               &(DuelChartRect) { center - slot / 2 + 3, plot.y + plot.height + 4, slot - 6, 0 },
                               0.5, 0);
    }
  /* xgettext:no-c-format */
  duel_chart_axes_draw (cr, style, NULL, &y_axis, NULL, _("% of the fresh speed"), &plot);
  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);
}

static void
duel_chart_recovery_write_csv (DuelChart *chart,
                               GString   *csv)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,test,idle_s,write_iops,fresh_pct,dirty_pct\n");
  for (guint i = 0; i < self->bursts->len; i++)
    {
      const Burst *b = &g_array_index (self->bursts, Burst, i);

      for (guint d = 0; d < self->n_drives; d++)
        {
          const double values[] = { b->idle_s[d], b->iops[d], b->share[d], b->dirty[d] };

          if (!isfinite (b->iops[d]))
            continue;
          duel_chart_csv_append_field (csv, duel_comparison_get_drive_name (comparison, d));
          g_string_append_c (csv, ',');
          duel_chart_csv_append_field (csv, b->test);
          for (guint v = 0; v < G_N_ELEMENTS (values); v++)
            {
              g_string_append_c (csv, ',');
              if (isfinite (values[v]))
                duel_chart_csv_append_number (csv, "%.6g", values[v]);
            }
          g_string_append_c (csv, '\n');
        }
    }
}

static void
duel_chart_recovery_finalize (GObject *object)
{
  DuelChartRecovery *self = DUEL_CHART_RECOVERY (object);

  g_clear_pointer (&self->bursts, g_array_unref);

  G_OBJECT_CLASS (duel_chart_recovery_parent_class)->finalize (object);
}

static void
duel_chart_recovery_class_init (DuelChartRecoveryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_recovery_finalize;

  chart_class->id = "recovery";
  chart_class->tab_title = N_("Recovery");
  /* Few results hold the test: its tab only when one does. */
  chart_class->only_with_data = TRUE;
  chart_class->rebuild = duel_chart_recovery_rebuild;
  chart_class->get_title = duel_chart_recovery_get_title;
  chart_class->get_subtitle = duel_chart_recovery_get_subtitle;
  chart_class->has_data = duel_chart_recovery_has_data;
  chart_class->fill_legend = duel_chart_recovery_fill_legend;
  chart_class->draw_content = duel_chart_recovery_draw_content;
  chart_class->write_csv = duel_chart_recovery_write_csv;
}

static void
duel_chart_recovery_init (DuelChartRecovery *self)
{
  self->bursts = g_array_new (FALSE, TRUE, sizeof (Burst));
  g_array_set_clear_func (self->bursts, burst_clear);
}
