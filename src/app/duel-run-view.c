/* duel-run-view.c — a run as it happens: live chart, progress, figures, stop
 *
 * The live chart is the exporters' chart drawn from a main-thread copy of the
 * running test, the one its step's descriptor names (DuelLiveView): the
 * write curve during a fill, IOPS per interval of the running record, the
 * QoS chart at the step's queue depth, the standard set's bars of the steps
 * done so far. It is rebuilt from the copy at most twice a second once it
 * shows data, so even an hours-long series costs little; the engine itself
 * is never touched from here. After the run, the headline figures and the
 * way on: Compare and Run Again (the window's win.compare-run and
 * win.run-again).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-cdm-view.h"
#include "analysis/duel-analysis.h"
#include "duel-chart-consistency.h"
#include "duel-chart-sequential-write.h"
#include "duel-chart-qos.h"
#include "duel-chart-standard.h"
#include "duel-chart-view.h"
#include "duel-chart-write-curve.h"
#include "analysis/duel-comparison.h"
#include "duel-number.h"
#include "duel-size.h"
#include "duel-presets-view.h"
#include "review/duel-review-test.h"
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

static const char * const stat_captions[N_STATS] = {
  N_("Written"),
  N_("IOPS"),
  N_("MB/s"),
  N_("Temperature"),
  N_("Elapsed in this test"),
  N_("Time left"),
};

struct _DuelRunView
{
  AdwBin          parent_instance;

  DuelRun        *task;
  gulong          progress_id;
  gboolean        in_step;            /* a step of the run began (step_index is valid) */
  guint           step_index;
  DuelLiveView    step_view;
  DuelTestRecord *step_record;        /* the live record of the running step (a ref) */
  GPtrArray      *bars_done;          /* DuelTestRecord: the bar steps done so far */
  DuelTestRecord *charted_record;     /* the live record the chart shows (identity) */
  guint           charted_rows;
  gboolean        charted_data;       /* the chart shown has data */
  gint64          last_chart_us;
  guint           n_chart_updates;
  gulong          state_id;
  guint           drain_watch;        /* while stopping: the header looked at again each second */
  guint           tick;               /* while running: the elapsed time moves between progress */
  gint64          phase_began_us;     /* the step (or the set-up before the first) began */
  gint64          last_engine_us;     /* the last progress with the engine's own clock */
  double          shown_fraction;     /* the bar as the run last showed it; < 0 before */
  GtkLabel       *values[N_STATS];
  GtkLabel       *captions[N_STATS];

  /* Template children */
  GtkStack       *stack;
  GtkLabel       *title_label;
  GtkLabel       *step_label;
  GtkButton      *stop_button;
  GtkStack       *chart_stack;
  DuelChartView  *chart_view;
  GtkLabel       *waiting_label;
  GtkProgressBar *progress_bar;
  GtkLabel       *passes_label;
  GtkLabel       *note_label;
  GtkLabel       *stats_title_label;
  GtkBox         *stats_box;
  GtkLabel       *status_label;
  GtkBox         *rounds_box;
  GtkLabel       *rounds_label;
  GtkLabel       *rounds_figures_label;
  GtkLabel       *rounds_verdict_label;
  GtkBox         *summary_box;
  GtkWidget      *summary_cdm;   /* the CrystalDiskMark grid of a run of its set, or NULL */
  GtkGrid        *summary_grid;
  GtkButton      *compare_button;
  GtkButton      *run_again_button;
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

static gboolean
step_is (DuelRunView         *self,
         const DuelRunStatus *status,
         DuelPresetStepKind   kind)
{
  DuelPreset *preset = duel_run_get_preset (self->task);

  return preset != NULL && status->test_index < duel_preset_get_n_steps (preset) &&
         duel_preset_get_step (preset, status->test_index)->kind == kind;
}

static gboolean
is_trim (DuelRunView         *self,
         const DuelRunStatus *status)
{
  return step_is (self, status, DUEL_PRESET_STEP_DISCARD);
}

/* A readable name for the running step: "Write saturation: fill". */
static char *
describe_step (DuelRunView         *self,
               const DuelRunStatus *status)
{
  if (status->state == DUEL_RUN_STATE_PROBING)
    return g_strdup (_("Measuring the drive’s write speed for the estimate"));
  if (is_trim (self, status))
    return g_strdup (_("Trimming the span so the drive starts empty"));
  /* Recovery after idle: the countdown of the rest. */
  if (step_is (self, status, DUEL_PRESET_STEP_IDLE) && status->engine.runtime_limit_ns > 0)
    {
      /* Whole seconds up: "0:01" until the rest is over, never "0:00" while it lasts. */
      gint64 left = (gint64) (status->engine.runtime_limit_ns - MIN (status->engine.elapsed_ns,
                                                                     status->engine.runtime_limit_ns) +
                              999999999) / 1000000000;
      g_autofree char *text = format_duration (left);

      /* TRANSLATORS: %s is the time left of the idle period, "4:12" */
      return g_strdup_printf (_("Idle, %s left: no I/O while the drive recovers"), text);
    }
  return duel_review_describe_record (status->test_name != NULL ? status->test_name : "");
}

/* What the Run page draws for step @index: its descriptor's live view; a
 * trim measures nothing. */
static DuelLiveView
step_live_view (DuelRunView         *self,
                const DuelRunStatus *status)
{
  if (is_trim (self, status) || status->test_name == NULL)
    return DUEL_LIVE_VIEW_NONE;
  return duel_review_live_view_for_record (status->test_name);
}

/* The run's own result once it ended, else a result of its own holding the
 * bar steps done so far and the running one: the standard chart reads each
 * record's throughput from its series (duel_analysis_throughput()), so a
 * running step's bar grows with its intervals. */
static DuelResult *
dup_bars_result (DuelRunView    *self,
                 DuelTestRecord *running)
{
  DuelResult *live = duel_run_get_live_result (self->task);
  DuelResult *bars;

  if (duel_run_get_result (self->task) != NULL)
    return g_object_ref (live);

  bars = duel_result_new ();
  duel_result_set_target (bars, duel_result_get_target (live));
  if (duel_result_get_name (live) != NULL)
    duel_result_set_name (bars, duel_result_get_name (live));
  for (guint i = 0; i < self->bars_done->len; i++)
    duel_result_add_test (bars, g_ptr_array_index (self->bars_done, i));
  if (running != NULL)
    duel_result_add_test (bars, running);
  return bars;
}

static DuelChart *
new_chart (DuelRunView    *self,
           DuelTestRecord *record)
{
  g_autoptr(DuelResult) bars = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  DuelResult *live = duel_run_get_live_result (self->task);
  DuelResult *final = duel_run_get_result (self->task);
  DuelChart *chart = NULL;

  if (self->step_view == DUEL_LIVE_VIEW_BARS)
    {
      bars = dup_bars_result (self, record);
      comparison = duel_comparison_new (bars, NULL, NULL);
    }
  else
    comparison = duel_comparison_new (live, NULL, NULL);
  if (comparison == NULL)
    return NULL;

  /* Once the run ended, the record lives on in its result: the live copy is not in it. */
  if (final != NULL && record != NULL)
    record = duel_result_find_test (final, record->name);

  switch (self->step_view)
    {
    case DUEL_LIVE_VIEW_WRITE_CURVE:
      chart = duel_chart_write_curve_new (comparison);
      break;

    case DUEL_LIVE_VIEW_LATENCY:
      chart = duel_chart_qos_new (comparison);
      if (record != NULL)
        {
          duel_chart_qos_set_queue_depth (DUEL_CHART_QOS (chart), record->workload.queue_depth);
          duel_chart_qos_set_mixed (DUEL_CHART_QOS (chart), duel_workload_is_mixed (&record->workload));
        }
      break;

    case DUEL_LIVE_VIEW_BARS:
      chart = duel_chart_standard_new (comparison);
      break;

    case DUEL_LIVE_VIEW_INTERVALS:
      if (record != NULL)
        chart = duel_chart_consistency_new_for_test (comparison, record);
      break;

    case DUEL_LIVE_VIEW_SEQUENTIAL:
      if (record != NULL)
        chart = duel_chart_sequential_write_new_for_test (comparison, record);
      break;

    case DUEL_LIVE_VIEW_NONE:
    default:
      break;
    }
  return chart;
}

/* Instead of a chart that would say it has no data: what the step does. */
static const char *
waiting_text (DuelLiveView view)
{
  switch (view)
    {
    case DUEL_LIVE_VIEW_NONE:
      return _("Nothing is measured while the span is trimmed.");
    case DUEL_LIVE_VIEW_LATENCY:
      return _("Measuring this step’s latency distribution…");
    case DUEL_LIVE_VIEW_WRITE_CURVE:
    case DUEL_LIVE_VIEW_INTERVALS:
    case DUEL_LIVE_VIEW_BARS:
    case DUEL_LIVE_VIEW_SEQUENTIAL:
    default:
      return _("Waiting for this step’s first intervals…");
    }
}

static void
show_chart (DuelRunView *self,
            DuelChart   *chart)
{
  self->charted_data = chart != NULL && duel_chart_has_data (chart);
  duel_chart_view_set_chart (self->chart_view, chart);
  gtk_label_set_text (self->waiting_label, self->in_step ? waiting_text (self->step_view)
                                                         : _("Waiting for the first step…"));
  gtk_stack_set_visible_child_name (self->chart_stack, self->charted_data ? "chart" : "waiting");
}

static void
update_chart (DuelRunView *self,
              gboolean     force)
{
  DuelTestRecord *record = self->step_record;
  g_autoptr(DuelChart) chart = NULL;
  gint64 now = g_get_monotonic_time ();
  guint rows;

  /* A trim keeps the chart of the step before it, if there was one. */
  if (!self->in_step || self->step_view == DUEL_LIVE_VIEW_NONE)
    return;

  rows = record != NULL ? duel_series_get_length (record->series) : 0;
  if (record == self->charted_record && rows == self->charted_rows && !force)
    return;
  /* Until it shows data the chart follows every interval; then twice a second. */
  if (!force && self->charted_data && record == self->charted_record &&
      now - self->last_chart_us < CHART_MIN_INTERVAL_US)
    return;

  chart = new_chart (self, record);
  show_chart (self, chart);
  self->charted_record = record;
  self->charted_rows = rows;
  self->last_chart_us = now;
  self->n_chart_updates++;
}

static void
reset_tiles (DuelRunView *self)
{
  for (guint i = 0; i < N_STATS; i++)
    if (i != STAT_LEFT && i != STAT_TEMPERATURE)
      set_stat (self, i, "–");
  /* A step's own caption ("× capacity · 115.5 MB") is not the next one's. */
  gtk_label_set_text (self->captions[STAT_WRITTEN], _(stat_captions[STAT_WRITTEN]));
}

/* A step began: the chart it names, the tiles under its title, from nothing. */
static void
begin_step (DuelRunView         *self,
            const DuelRunStatus *status)
{
  g_autofree char *title = describe_step (self, status);
  DuelTestRecord *record = duel_run_get_live_record (self->task);

  if (self->in_step && self->step_view == DUEL_LIVE_VIEW_BARS && self->step_record != NULL)
    g_ptr_array_add (self->bars_done, duel_test_record_ref (self->step_record));

  self->in_step = TRUE;
  self->step_index = status->test_index;
  self->phase_began_us = g_get_monotonic_time ();
  self->step_view = step_live_view (self, status);
  g_clear_pointer (&self->step_record, duel_test_record_unref);
  /* A trim has no record: the live one is still the step's before it. */
  if (self->step_view != DUEL_LIVE_VIEW_NONE && record != NULL)
    self->step_record = duel_test_record_ref (record);
  self->charted_record = NULL;
  self->charted_rows = 0;

  gtk_label_set_text (self->stats_title_label, title);
  reset_tiles (self);
  if (self->step_view == DUEL_LIVE_VIEW_NONE)
    {
      if (!self->charted_data)
        show_chart (self, NULL);
    }
  else
    update_chart (self, TRUE);
}

static gboolean
has_measurements (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    if (duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (tests, i))->series) > 0)
      return TRUE;
  return FALSE;
}

static void
clear_summary (DuelRunView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->summary_grid))) != NULL)
    gtk_grid_remove (self->summary_grid, child);
  if (self->summary_cdm != NULL)
    gtk_box_remove (self->summary_box, self->summary_cdm);
  self->summary_cdm = NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->summary_box), FALSE);
}

/* After a run that measured something: its headline figures, as the
 * comparison's table prints them, two to a line. */
static void
show_summary (DuelRunView *self)
{
  DuelRunState state = duel_run_get_state (self->task);
  DuelResult *result = duel_run_get_result (self->task);
  g_autoptr(DuelComparison) comparison = NULL;
  const guint *headline;
  guint n_headline = 0;

  clear_summary (self);
  if ((state != DUEL_RUN_STATE_FINISHED && state != DUEL_RUN_STATE_STOPPED) ||
      result == NULL || !has_measurements (result))
    return;
  comparison = duel_comparison_new (result, NULL, NULL);
  if (comparison == NULL)
    return;

  headline = duel_comparison_get_headline (comparison, &n_headline);
  for (guint k = 0; k < n_headline; k++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, headline[k]);
      GtkWidget *label = gtk_label_new (row->label);
      GtkWidget *value = gtk_label_new (row->text[0] != NULL ? row->text[0] : "–");
      int column = (k % 2) * 2;

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 1);
      gtk_widget_add_css_class (value, "numeric");
      gtk_grid_attach (self->summary_grid, label, column, k / 2, 1, 1);
      gtk_grid_attach (self->summary_grid, value, column + 1, k / 2, 1, 1);
    }
  if (n_headline == 0)
    {
      GtkWidget *none = gtk_label_new (_("This run has no headline figures; Compare shows all it measured."));

      gtk_label_set_wrap (GTK_LABEL (none), TRUE);
      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_grid_attach (self->summary_grid, none, 0, 0, 4, 1);
    }
  /* A test during which the process was paused (SIGSTOP, a suspend), in
   * the sentence the CLI and the comparison use, under the figures. */
  {
    GPtrArray *tests = duel_result_get_tests (result);
    int line = MAX ((int) (n_headline + 1) / 2, 1);

    for (guint i = 0; i < tests->len; i++)
      {
        g_autofree char *paused = duel_test_record_dup_pause_note (g_ptr_array_index (tests, i));
        GtkWidget *note;

        if (paused == NULL)
          continue;
        note = gtk_label_new (paused);
        gtk_label_set_wrap (GTK_LABEL (note), TRUE);
        gtk_label_set_xalign (GTK_LABEL (note), 0);
        gtk_widget_add_css_class (note, "warning");
        gtk_grid_attach (self->summary_grid, note, 0, line++, 4, 1);
      }
  }
  /* A run of CrystalDiskMark's set: its grid under the figures, as
   * CrystalDiskMark shows it at the end of a run (Compare's first tab). */
  self->summary_cdm = duel_cdm_view_new (comparison);
  if (self->summary_cdm != NULL)
    gtk_box_append (self->summary_box, self->summary_cdm);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_box), TRUE);
}

/* --- a test in rounds (SNIA PTS) ------------------------------------------------ */

/* "4 KiB random, 65 % reads, 35 % writes": a cell of a test matrix. */
static char *
describe_cell (DuelPattern pattern,
               guint32     block_size,
               guint       read_percent)
{
  g_autofree char *size = duel_format_size_as_given (block_size);
  g_autofree char *mix = duel_preset_mix_text (read_percent);

  if (pattern == DUEL_PATTERN_SEQUENTIAL)
    /* Translators: a block size and a read/write mix: "128 KiB sequential, 0 % reads, 100 % writes" */
    return g_strdup_printf (_("%s sequential, %s"), size, mix);
  /* Translators: a block size and a read/write mix: "4 KiB random, 65 % reads, 35 % writes" */
  return g_strdup_printf (_("%s random, %s"), size, mix);
}

/* A tracked figure with its unit, as the tiles show it. */
static char *
format_tracked (const char *key,
                double      value)
{
  const DuelFigureInfo *info = duel_figure_lookup (key);
  g_autofree char *number = NULL;

  if (!isfinite (value))
    return g_strdup ("–");
  if (info != NULL && g_strcmp0 (info->unit, "MB/s") == 0)
    {
      DuelRateUnit unit = duel_get_rate_unit ();
      g_autofree char *rate = format_number (duel_rate_unit_from_mb_s (unit, value));

      return g_strdup_printf ("%s %s", rate, duel_rate_unit_get_symbol (unit));
    }
  number = format_number (value);
  if (info != NULL && g_strcmp0 (info->unit, "us") == 0)
    /* Translators: a latency in microseconds */
    return g_strdup_printf (_("%s µs"), number);
  return g_steal_pointer (&number);
}

/* The round running and its cell, each finished round's tracked figure
 * and the verdict on the last window of rounds: all as the run judged
 * them (DuelRunStatus.rounds, duel-run-steps.c); the page judges nothing. */
static void
update_rounds (DuelRunView *self)
{
  const DuelRunStatus *status = duel_run_get_status (self->task);
  const DuelRunRounds *seen = &status->rounds;
  DuelPreset *preset = duel_run_get_preset (self->task);
  const DuelPresetStep *step = NULL;
  const DuelReviewTest *test;
  const DuelReviewRounds *rules;
  const DuelReviewStep *tracked_step = NULL;
  gboolean running = duel_run_is_running (self->task);
  g_autofree char *line = NULL;
  g_autoptr(GString) figures = NULL;
  g_autofree char *verdict = NULL;

  if (preset != NULL && status->n_tests > 0 && status->test_index < duel_preset_get_n_steps (preset))
    step = duel_preset_get_step (preset, status->test_index);
  /* The test of the step running, if it runs in rounds; else the last one that did. */
  test = step != NULL && step->test != NULL && step->test->rounds != NULL ? step->test : seen->test;
  rules = test != NULL ? duel_preset_get_rounds (preset, test) : NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->rounds_box), rules != NULL);
  if (rules == NULL)
    return;
  duel_review_test_find_step (rules->tracked_step, NULL, &tracked_step);

  if (running && step != NULL && step->test == test && step->round > 0)
    {
      g_autofree char *cell = describe_cell (step->workload.pattern, step->workload.block_size,
                                             step->workload.read_percent);

      /* Translators: "Round 3 of at most 25 · 4 KiB random, 65 % reads, 35 % writes" */
      line = g_strdup_printf (_("Round %u of at most %u · %s"), step->round, step->max_rounds, cell);
    }
  else if (running && step != NULL && step->test == test)
    line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Before the rounds: at most %u round follows.",
                                         "Before the rounds: at most %u rounds follow.", rules->max_rounds),
                            rules->max_rounds);
  else
    line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: rounds that ran, the most the test may run */
                                         "%u round of at most %u ran.",
                                         "%u rounds of at most %u ran.", seen->test == test ? seen->n_rounds : 0),
                            seen->test == test ? seen->n_rounds : 0, rules->max_rounds);

  figures = g_string_new (NULL);
  {
    g_autofree char *cell = tracked_step != NULL ? describe_cell (tracked_step->pattern, tracked_step->block_size,
                                                                  tracked_step->read_percent)
                                                 : g_strdup ("");

    /* Translators: the tracked figure and its cell: "Mean latency of 4 KiB random, 0 % reads, 100 % writes, by round:" */
    g_string_append_printf (figures, _("%s of %s, by round:"), duel_figure_get_label (rules->tracked_key), cell);
  }
  if (seen->test != test || seen->n_rounds == 0)
    g_string_append_printf (figures, " %s", _("none finished yet"));
  for (guint r = 0; seen->test == test && r < seen->n_rounds; r++)
    {
      g_autofree char *value = format_tracked (rules->tracked_key, seen->tracked[r]);

      /* Translators: a round's number and its figure, in a list: "3: 51,200" */
      g_string_append (figures, r == 0 ? " " : " · ");
      g_string_append_printf (figures, _("%u: %s"), r + 1, value);
    }

  if (seen->test != test || !seen->judged)
    verdict = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Steady state is judged once %u round has run.",
                                            "Steady state is judged once %u rounds have run.", rules->window),
                               rules->window);
  else if (seen->steady && seen->window_last < rules->max_rounds)
    verdict = g_strdup_printf (running
                               /* Translators: the first and last round of the window that passed */
                               ? _("Steady from round %u to %u: the remaining rounds are skipped.")
                               : _("Steady from round %u to %u: the remaining rounds were skipped."),
                               seen->window_first, seen->window_last);
  else if (seen->steady)
    verdict = g_strdup_printf (_("Steady from round %u to %u."), seen->window_first, seen->window_last);
  else if (seen->window_last >= rules->max_rounds)
    /* Translators: the first and last round of the last window, the last the test may run */
    verdict = g_strdup_printf (_("Not steady: rounds %u to %u, the last ones the test may run, vary beyond "
                                 "the limits."), seen->window_first, seen->window_last);
  else
    verdict = g_strdup_printf (_("Not steady yet: rounds %u to %u vary beyond the limits."),
                               seen->window_first, seen->window_last);

  gtk_label_set_text (self->rounds_label, line);
  gtk_label_set_text (self->rounds_figures_label, figures->str);
  gtk_label_set_text (self->rounds_verdict_label, verdict);
}

/* Seconds without an answer from the device after which the Run page says
 * what a stop waits for: a device that answers drains within a second. */
#define DUEL_RUN_VIEW_DRAIN_SAY_AFTER_S 2.0

static gboolean drain_watch_cb (gpointer user_data);

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
  g_autofree char *passes = NULL;
  gboolean ranged = FALSE;
  double percent;
  double unanswered_s = 0;
  guint in_flight = 0;
  /* What a stop waits for, once the device has kept it waiting. */
  gboolean waiting = status->state == DUEL_RUN_STATE_STOPPING &&
                     duel_run_get_drain (self->task, &in_flight, &unanswered_s) &&
                     unanswered_s >= DUEL_RUN_VIEW_DRAIN_SAY_AFTER_S;

  /* A stopped or failed run stays where its bar was: the estimate of the
   * whole, asked again at the stop, jumped from 9 % to "Stopped at 34 %". */
  if (status->state == DUEL_RUN_STATE_RUNNING || status->state == DUEL_RUN_STATE_PROBING ||
      self->shown_fraction < 0)
    self->shown_fraction = CLAMP (status->fraction_done, 0.0, 1.0);
  percent = self->shown_fraction * 100;

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
        g_autofree char *step = describe_step (self, status);

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
      if (waiting)
        line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             /* Translators: I/Os in flight, seconds without an answer */
                                             "The device has not answered %u I/O for %.0f s. Stop again to stop "
                                             "without waiting for it; what was measured is kept.",
                                             "The device has not answered %u I/Os for %.0f s. Stop again to stop "
                                             "without waiting for them; what was measured is kept.", in_flight),
                                in_flight, floor (unanswered_s));
      else
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

  /* Time left only while the steps run: a stopping or ended run has none.
   * A fill's two passes under the bar, and what a range means, in the
   * CLI's words (duel_run_format_passes()). */
  if (status->state == DUEL_RUN_STATE_RUNNING && status->eta_seconds >= 0)
    {
      left = duel_run_format_time_left (status->eta_low_s, status->eta_s, status->eta_high_s);
      if (status->has_passes)
        passes = duel_run_format_passes (&status->passes);
      ranged = isfinite (status->eta_low_s) && isfinite (status->eta_high_s) &&
               status->eta_high_s >= DUEL_RUN_ETA_NARROW * MAX (status->eta_low_s, 0.05);
    }
  gtk_label_set_text (self->passes_label, passes != NULL ? passes : "");
  gtk_widget_set_visible (GTK_WIDGET (self->passes_label), passes != NULL);
  gtk_label_set_text (self->note_label, duel_run_time_left_note ());
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), passes != NULL || ranged);
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
                                                     : self->shown_fraction);
  gtk_progress_bar_set_text (self->progress_bar, text);
  set_stat (self, STAT_LEFT, left != NULL ? left : "–");
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), duel_run_is_running (self->task));
  /* Stopping, Stop is pressed again only to stop waiting for a device
   * that does not answer. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop_button), status->state != DUEL_RUN_STATE_STOPPING || waiting);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button),
                               waiting ? _("Stop without waiting for the device and keep what the run measured")
                                       : _("Stop the run and keep what it measured"));
  update_rounds (self);
  /* A device that does not answer sends no progress: looked at again. */
  if (status->state == DUEL_RUN_STATE_STOPPING && self->drain_watch == 0)
    self->drain_watch = g_timeout_add_seconds (1, drain_watch_cb, self);
}

/* Between progress: a step that measures nothing (a trim, the probe, the
 * set-up) still shows its time going, where it showed 0:00 for minutes. */
static gboolean
tick_cb (gpointer user_data)
{
  DuelRunView *self = user_data;
  gint64 now = g_get_monotonic_time ();

  if (self->task == NULL || !duel_run_is_running (self->task))
    {
      self->tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (now - self->last_engine_us > G_USEC_PER_SEC && self->phase_began_us > 0)
    {
      g_autofree char *elapsed = format_duration ((now - self->phase_began_us) / G_USEC_PER_SEC);

      set_stat (self, STAT_ELAPSED, elapsed);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
drain_watch_cb (gpointer user_data)
{
  DuelRunView *self = user_data;

  if (self->task == NULL || duel_run_get_state (self->task) != DUEL_RUN_STATE_STOPPING)
    {
      self->drain_watch = 0;
      return G_SOURCE_REMOVE;
    }
  update_header (self);
  return G_SOURCE_CONTINUE;
}

static void
state_cb (DuelRunView *self,
          GParamSpec  *pspec,
          DuelRun     *run)
{
  update_header (self);
  if (!duel_run_is_running (run))
    {
      /* The run's result, once there, holds every row of the last step. */
      if (duel_run_get_result (run) != NULL)
        update_chart (self, TRUE);
      show_summary (self);
    }
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
  /* The step follows the run's own index: a trim has no record of its own.
   * Not before the step is named: a step begun without its name gets no
   * live view, and the same index would not begin it again. */
  if (status->state == DUEL_RUN_STATE_RUNNING && status->test_name != NULL &&
      (!self->in_step || status->test_index != self->step_index))
    begin_step (self, status);
  if (!self->in_step)
    return;

  {
    g_autofree char *bytes = g_format_size (written);
    g_autofree char *caption = NULL;

    /* The review's axis, bytes written as a multiple of the span, for a
     * step bounded by its bytes (a fill); a timed step's multiple ("52×"
     * in 4 s on a small file) says nothing: its bytes are what it wrote. */
    if (status->span_bytes > 0 && engine->byte_limit > 0)
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
  if (engine->elapsed_ns > 0)
    {
      self->last_engine_us = g_get_monotonic_time ();
      elapsed = format_duration ((gint64) (engine->elapsed_ns / 1000000000));
      set_stat (self, STAT_ELAPSED, elapsed);
    }

  /* The idle's countdown in the step's title. */
  if (step_is (self, status, DUEL_PRESET_STEP_IDLE))
    {
      g_autofree char *title = describe_step (self, status);

      gtk_label_set_text (self->stats_title_label, title);
    }
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
  /* Six tiles share the width: in a narrow window a caption takes a
   * second line rather than losing its end ("Elapsed in th…"). */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (label), 2);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
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
  self->in_step = FALSE;
  self->step_view = DUEL_LIVE_VIEW_NONE;
  g_clear_pointer (&self->step_record, duel_test_record_unref);
  g_ptr_array_set_size (self->bars_done, 0);
  self->charted_record = NULL;
  self->charted_rows = 0;
  show_chart (self, NULL);
  clear_summary (self);
  gtk_label_set_text (self->stats_title_label, "");

  gtk_widget_set_visible (GTK_WIDGET (self->rounds_box), FALSE);
  if (task == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "idle");
      return;
    }

  for (guint i = 0; i < N_STATS; i++)
    set_stat (self, i, "–");
  reset_tiles (self);
  self->phase_began_us = g_get_monotonic_time ();
  self->last_engine_us = 0;
  self->shown_fraction = -1;
  if (self->tick == 0)
    self->tick = g_timeout_add_seconds (1, tick_cb, self);
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

  return g_strdup_printf ("%s\n%s\n%s\n%s\n%s\n%s",
                          gtk_label_get_text (self->title_label),
                          gtk_label_get_text (self->step_label),
                          gtk_progress_bar_get_text (self->progress_bar),
                          gtk_label_get_text (self->values[STAT_LEFT]),
                          gtk_widget_get_visible (GTK_WIDGET (self->passes_label))
                            ? gtk_label_get_text (self->passes_label) : "",
                          gtk_widget_get_visible (GTK_WIDGET (self->stop_button)) ? "stop" : "no stop");
}

char *
duel_run_view_describe_rounds (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->rounds_box)))
    return NULL;
  return g_strdup_printf ("%s\n%s\n%s", gtk_label_get_text (self->rounds_label),
                          gtk_label_get_text (self->rounds_figures_label),
                          gtk_label_get_text (self->rounds_verdict_label));
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
      show_summary (self);
    }
  gtk_label_set_text (self->status_label, message);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), success ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), success ? "success" : "error");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  gtk_stack_set_visible_child_name (self->stack, "run");
}

DuelChart *
duel_run_view_get_chart (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return duel_chart_view_get_chart (self->chart_view);
}

gboolean
duel_run_view_get_chart_shown (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->chart_stack), "chart") == 0;
}

const char *
duel_run_view_get_stats_title (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return gtk_label_get_text (self->stats_title_label);
}

DuelCdmView *
duel_run_view_get_summary_cdm (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return self->summary_cdm != NULL ? DUEL_CDM_VIEW (self->summary_cdm) : NULL;
}

char *
duel_run_view_describe_summary (DuelRunView *self)
{
  g_autoptr(GString) text = NULL;
  GtkWidget *child;
  guint n = 0;

  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->summary_box)))
    return NULL;
  text = g_string_new (NULL);
  for (int row = 0; ; row++)
    {
      gboolean any = FALSE;

      for (int column = 0; column < 4; column += 2)
        {
          GtkWidget *label = gtk_grid_get_child_at (self->summary_grid, column, row);
          GtkWidget *value = gtk_grid_get_child_at (self->summary_grid, column + 1, row);

          if (label == NULL || value == NULL)
            continue;
          g_string_append_printf (text, "%s\t%s\n", gtk_label_get_text (GTK_LABEL (label)),
                                  gtk_label_get_text (GTK_LABEL (value)));
          any = TRUE;
          n++;
        }
      if (!any)
        break;
    }
  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->summary_grid)); n == 0 && child != NULL;
       child = gtk_widget_get_next_sibling (child))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (child)));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

GtkWidget *
duel_run_view_get_compare_button (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return GTK_WIDGET (self->compare_button);
}

GtkWidget *
duel_run_view_get_stats_box (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return GTK_WIDGET (self->stats_box);
}

GtkWidget *
duel_run_view_get_run_again_button (DuelRunView *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_VIEW (self), NULL);
  return GTK_WIDGET (self->run_again_button);
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
    {
      g_clear_signal_handler (&self->progress_id, self->task);
      g_clear_signal_handler (&self->state_id, self->task);
    }
  g_clear_handle_id (&self->drain_watch, g_source_remove);
  g_clear_handle_id (&self->tick, g_source_remove);
  g_clear_object (&self->task);
  g_clear_pointer (&self->step_record, duel_test_record_unref);
  g_clear_pointer (&self->bars_done, g_ptr_array_unref);

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
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, chart_stack);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, chart_view);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, passes_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, note_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, stats_title_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, stats_box);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, status_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, rounds_box);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, rounds_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, rounds_figures_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, rounds_verdict_label);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, summary_box);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, summary_grid);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, compare_button);
  gtk_widget_class_bind_template_child (widget_class, DuelRunView, run_again_button);
}

static void
duel_run_view_init (DuelRunView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->bars_done = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_test_record_unref);

  for (guint i = 0; i < N_STATS; i++)
    self->values[i] = add_stat (self, _(stat_captions[i]), &self->captions[i]);
}
