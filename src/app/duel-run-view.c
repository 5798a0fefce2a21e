/* duel-run-view.c — a run as it happens: live chart, progress, figures, stop
 *
 * The live chart is the exporters' chart drawn from a main-thread copy of the
 * running test: the write curve during a fill, IOPS per interval otherwise.
 * It is rebuilt from the copy at most twice a second, so even an hours-long
 * series costs little; the engine itself is never touched from here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-analysis.h"
#include "duel-chart-consistency.h"
#include "duel-chart-view.h"
#include "duel-chart-write-curve.h"
#include "duel-comparison.h"
#include "duel-number.h"
#include "duel-presets-view.h"
#include "duel-run-view.h"

#define CHART_MIN_INTERVAL_US (G_USEC_PER_SEC / 2)

typedef enum
{
  STAT_WRITTEN,
  STAT_IOPS,
  STAT_THROUGHPUT,
  STAT_TEMPERATURE,
  STAT_ELAPSED,
  STAT_LEFT,
  N_STATS
} Stat;

struct _DuelRunView
{
  AdwBin          parent_instance;

  DuelRun    *task;
  gulong          progress_id;
  DuelTestRecord *charted_record;     /* the live record the chart shows (identity) */
  guint           charted_rows;
  gint64          last_chart_us;
  guint           n_chart_updates;
  gulong          state_id;
  GtkLabel       *values[N_STATS];
  GtkLabel       *captions[N_STATS];

  /* Template children */
  GtkStack       *stack;
  GtkLabel       *title_label;
  GtkLabel       *step_label;
  GtkButton      *stop_button;
  DuelChartView  *chart_view;
  GtkProgressBar *progress_bar;
  GtkBox         *stats_box;
  GtkLabel       *status_label;
};

G_DEFINE_FINAL_TYPE (DuelRunView, duel_run_view, ADW_TYPE_BIN)

static char *
format_duration (gint64 seconds)
{
  if (seconds < 0)
    return g_strdup ("–");
  if (seconds >= 3600)
    return g_strdup_printf ("%" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT,
                            seconds / 3600, (seconds % 3600) / 60, seconds % 60);
  return g_strdup_printf ("%" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT, seconds / 60, seconds % 60);
}

static char *
format_number (double value)
{
  if (!isfinite (value))
    return g_strdup ("–");
  return duel_number_format (value, value >= 100 ? 0 : 1);
}

static void
set_stat (DuelRunView *self,
          Stat         stat,
          const char  *text)
{
  gtk_label_set_text (self->values[stat], text);
}

/* A readable name for the running step: "Fill (write saturation)". */
static char *
describe_step (const DuelRunStatus *status)
{
  const char *name = status->test_name != NULL ? status->test_name : "";

  if (status->state == DUEL_RUN_STATE_PROBING)
    return g_strdup (_("Measuring the drive’s write speed for the estimate"));
  if (g_strcmp0 (name, "discard") == 0)
    return g_strdup (_("Trimming the span so the drive starts empty"));
  return duel_review_describe_record (name);
}

static void
update_chart (DuelRunView *self,
              gboolean     force)
{
  DuelTestRecord *record = duel_run_get_live_record (self->task);
  DuelResult *live;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) chart = NULL;
  gint64 now = g_get_monotonic_time ();
  guint rows;

  if (record == NULL)
    return;

  rows = duel_series_get_length (record->series);
  /* A curve needs two points; until then the previous test's chart stays. */
  if (rows < 2 && !force)
    return;
  if (record == self->charted_record && rows == self->charted_rows)
    return;
  if (!force && record == self->charted_record && now - self->last_chart_us < CHART_MIN_INTERVAL_US)
    return;

  live = duel_run_get_live_result (self->task);
  comparison = duel_comparison_new (live, NULL, NULL);
  if (comparison == NULL)
    return;

  /* The fill is the review's curve; everything else is IOPS per interval. */
  if (duel_comparison_find_test (comparison, 0, DUEL_ANALYSIS_SATURATION) == record ||
      g_strcmp0 (record->name, DUEL_TEST_WSAT_FILL) == 0)
    chart = duel_chart_write_curve_new (comparison);
  else
    chart = duel_chart_consistency_new (comparison);

  duel_chart_view_set_chart (self->chart_view, chart);
  self->charted_record = record;
  self->charted_rows = rows;
  self->last_chart_us = now;
  self->n_chart_updates++;
}

/* The header and the progress line, from the run's state alone: what they
 * say can never outlive the state it describes. */
static void
update_header (DuelRunView *self)
{
  const DuelRunStatus *status = duel_run_get_status (self->task);
  g_autofree char *base = g_path_get_basename (duel_run_get_target_path (self->task));
  g_autofree char *title = NULL;
  g_autofree char *line = NULL;
  g_autofree char *text = NULL;
  g_autofree char *left = NULL;
  double percent = status->fraction_done * 100;

  switch (status->state)
    {
    case DUEL_RUN_STATE_READY:
    case DUEL_RUN_STATE_PREPARING:
      title = g_strdup_printf (_("Running on %s"), base);
      line = g_strdup (_("Opening the target…"));
      break;
    case DUEL_RUN_STATE_PROBING:
    case DUEL_RUN_STATE_RUNNING:
      {
        g_autofree char *step = describe_step (status);

        title = g_strdup_printf (_("Running on %s"), base);
        if (status->n_tests > 1)
          /* Translators: "Step 3 of 14 · Quality of service: randread-qd1" */
          line = g_strdup_printf (_("Step %u of %u · %s"), status->test_index + 1, status->n_tests, step);
        else
          line = g_steal_pointer (&step);
      }
      break;
    case DUEL_RUN_STATE_STOPPING:
      title = g_strdup_printf (_("Stopping the run on %s"), base);
      line = g_strdup (_("Stopping — the I/O in flight is finishing…"));
      break;
    case DUEL_RUN_STATE_FINISHED:
      title = g_strdup_printf (_("Finished on %s"), base);
      line = g_strdup (_("Every step ran; the result is in the history."));
      break;
    case DUEL_RUN_STATE_STOPPED:
      title = g_strdup_printf (_("Stopped on %s"), base);
      /* Translators: after a stop: "Stopped during step 3 of 14; …" */
      if (status->n_tests > 1)
        line = g_strdup_printf (_("Stopped during step %u of %u; what was measured is kept."),
                                status->test_index + 1, status->n_tests);
      else if (status->n_tests == 1)
        line = g_strdup (_("Stopped; what was measured is kept."));
      else
        line = g_strdup (_("Stopped before the first step."));
      break;
    case DUEL_RUN_STATE_FAILED:
    default:
      title = g_strdup_printf (_("Failed on %s"), base);
      if (status->n_tests > 1)
        line = g_strdup_printf (_("Failed during step %u of %u."), status->test_index + 1, status->n_tests);
      else if (status->n_tests == 1)
        line = g_strdup (_("The run failed."));
      else
        line = g_strdup (_("Failed before the first step."));
      break;
    }
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->step_label, line);

  /* Time left only while the steps run: a stopping or ended run has none. */
  if (status->state == DUEL_RUN_STATE_RUNNING && status->eta_seconds >= 0)
    left = duel_run_format_time_left (status->eta_low_s, status->eta_s, status->eta_high_s);
  switch (status->state)
    {
    case DUEL_RUN_STATE_RUNNING:
      if (left != NULL)
        /* Translators: progress bar text, e.g. "42 % — 12:30 left" or "42 % — 25–70 min left" */
        text = g_strdup_printf (_("%.0f %% — %s left"), percent, left);
      else
        text = g_strdup_printf ("%.0f %%", percent);
      break;
    case DUEL_RUN_STATE_FINISHED:
      text = g_strdup (_("Finished"));
      break;
    case DUEL_RUN_STATE_STOPPED:
      /* Translators: progress bar text after a stop, e.g. "Stopped at 42 %" */
      text = g_strdup_printf (_("Stopped at %.0f %%"), percent);
      break;
    case DUEL_RUN_STATE_FAILED:
      /* Translators: progress bar text after a failure, e.g. "Failed at 42 %" */
      text = g_strdup_printf (_("Failed at %.0f %%"), percent);
      break;
    case DUEL_RUN_STATE_STOPPING:
      /* Translators: progress bar text while stopping, e.g. "42 % — stopping" */
      text = g_strdup_printf (_("%.0f %% — stopping"), percent);
      break;
    default:
      text = g_strdup_printf ("%.0f %%", percent);
      break;
    }
  gtk_progress_bar_set_fraction (self->progress_bar, status->state == DUEL_RUN_STATE_FINISHED ? 1.0
                                                     : CLAMP (status->fraction_done, 0.0, 1.0));
  gtk_progress_bar_set_text (self->progress_bar, text);
  set_stat (self, STAT_LEFT, left != NULL ? left : "–");
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), duel_run_is_running (self->task));
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop_button), status->state != DUEL_RUN_STATE_STOPPING);
}

static void
state_cb (DuelRunView *self,
          GParamSpec  *pspec,
          DuelRun     *run)
{
  update_header (self);
}

static void
progress_cb (DuelRunView *self,
             DuelRun     *run)
{
  const DuelRunStatus *status = duel_run_get_status (run);
  const DuelProgress *engine = &status->engine;
  g_autofree char *elapsed = NULL;
  guint64 written = engine->bytes[DUEL_DIRECTION_WRITE];

  update_header (self);

  {
    g_autofree char *bytes = g_format_size (written);
    g_autofree char *caption = NULL;

    /* The review's axis: bytes written as a multiple of the span. */
    if (status->span_bytes > 0)
      {
        g_autofree char *multiple = g_strdup_printf ("%.2f×", (double) written / status->span_bytes);

        set_stat (self, STAT_WRITTEN, multiple);
        /* Translators: under "1.25×" (the multiple of the capacity): "1.3 GB written" */
        caption = g_strdup_printf (_("× capacity · %s"), bytes);
      }
    else
      {
        set_stat (self, STAT_WRITTEN, bytes);
        caption = g_strdup (_("Written"));
      }
    gtk_label_set_text (self->captions[STAT_WRITTEN], caption);
  }
  {
    g_autofree char *iops = format_number (engine->interval_iops);
    DuelRateUnit unit = duel_get_rate_unit ();
    g_autofree char *rate = format_number (duel_rate_unit_from_mb_s (unit, engine->interval_bytes_per_second / 1e6));

    set_stat (self, STAT_IOPS, iops);
    set_stat (self, STAT_THROUGHPUT, rate);
    /* The unit may have changed in the preferences since the last update. */
    gtk_label_set_text (self->captions[STAT_THROUGHPUT], duel_rate_unit_get_symbol (unit));
  }
  {
    g_autofree char *temperature = isfinite (status->temperature_c)
                                   ? g_strdup_printf ("%.0f °C", status->temperature_c) : g_strdup ("–");
    set_stat (self, STAT_TEMPERATURE, temperature);
  }
  elapsed = format_duration ((gint64) (engine->elapsed_ns / 1000000000));
  set_stat (self, STAT_ELAPSED, elapsed);

  update_chart (self, FALSE);
}

static GtkLabel *
add_stat (DuelRunView  *self,
          const char   *caption,
          GtkLabel    **out_caption)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *value = gtk_label_new ("–");
  GtkWidget *label = gtk_label_new (caption);

  gtk_widget_add_css_class (value, "title-3");
  gtk_widget_add_css_class (value, "numeric");
  gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "caption");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), value);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (self->stats_box, box);
  *out_caption = GTK_LABEL (label);
  return GTK_LABEL (value);
}

void
duel_run_view_set_task (DuelRunView *self,
                        DuelRun     *task)
{
  g_return_if_fail (DUEL_IS_RUN_VIEW (self));
  g_return_if_fail (task == NULL || DUEL_IS_RUN (task));

  if (self->task != NULL)
    {
      g_clear_signal_handler (&self->progress_id, self->task);
      g_clear_signal_handler (&self->state_id, self->task);
    }
  g_set_object (&self->task, task);
  self->charted_record = NULL;
  self->charted_rows = 0;
  duel_chart_view_set_chart (self->chart_view, NULL);

  if (task == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "idle");
      return;
    }

  for (guint i = 0; i < N_STATS; i++)
    set_stat (self, i, "–");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  update_header (self);
  gtk_stack_set_visible_child_name (self->stack, "run");

  self->progress_id = g_signal_connect_object (task, "progress", G_CALLBACK (progress_cb),
                                               self, G_CONNECT_SWAPPED);
  self->state_id = g_signal_connect_object (task, "notify::state", G_CALLBACK (state_cb),
                                            self, G_CONNECT_SWAPPED);
}

char *
duel_run_view_describe (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);

  return g_strdup_printf ("%s\n%s\n%s\n%s\n%s",
                          gtk_label_get_text (self->title_label),
                          gtk_label_get_text (self->step_label),
                          gtk_progress_bar_get_text (self->progress_bar),
                          gtk_label_get_text (self->values[STAT_LEFT]),
                          gtk_widget_get_visible (GTK_WIDGET (self->stop_button)) ? "stop" : "no stop");
}

DuelRun *
duel_run_view_get_task (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return self->task;
}

void
duel_run_view_show_finished (DuelRunView *self,
                             const char  *message,
                             gboolean     success)
{
  g_return_if_fail (DUEL_IS_RUN_VIEW (self));

  if (self->task != NULL)
    {
      /* The last rows came with the final snapshot. */
      update_chart (self, TRUE);
      update_header (self);
    }
  gtk_label_set_text (self->status_label, message);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), success ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), success ? "success" : "error");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  gtk_stack_set_visible_child_name (self->stack, "run");
}

guint
duel_run_view_get_n_chart_updates (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), 0);
  return self->n_chart_updates;
}

void
duel_run_view_set_settings (DuelRunView *self,
                            GSettings   *settings)
{
  g_return_if_fail (DUEL_IS_RUN_VIEW (self));
  duel_chart_view_set_settings (self->chart_view, settings);
}

static void
duel_run_view_dispose (GObject *object)
{
  DuelRunView *self = DUEL_RUN_VIEW (object);

  if (self->task != NULL)
    g_clear_signal_handler (&self->progress_id, self->task);
  g_clear_object (&self->task);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */

  G_OBJECT_CLASS (duel_run_view_parent_class)->dispose (object);
}

static void
duel_run_view_class_init (DuelRunViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_run_view_dispose;

  g_type_ensure (DUEL_TYPE_CHART_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-run-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, stack);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, title_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, step_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, stop_button);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, chart_view);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, stats_box);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, status_label);
}

static void
duel_run_view_init (DuelRunView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  static const char *captions[N_STATS] = {
    N_("Written"),
    N_("IOPS"),
    N_("MB/s"),
    N_("Temperature"),
    N_("Elapsed in this test"),
    N_("Time left"),
  };

  for (guint i = 0; i < N_STATS; i++)
    self->values[i] = add_stat (self, _(captions[i]), &self->captions[i]);
}
