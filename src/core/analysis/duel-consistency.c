/* duel-consistency.c — random 50/50 QD32: the 99.9 % slowest interval against the mean
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"
#include "duel-number.h"


guint
duel_analysis_complete_intervals (const DuelSeries *series,
                                  guint             interval_ms)
{
  guint n;

  g_return_val_if_fail (series != NULL, 0);

  n = duel_series_get_length (series);
  /* Only the last row can be short: the run stopped inside it. */
  if (n > 0 && duel_series_row_duration_ms (series, n - 1) < interval_ms)
    n--;
  return n;
}

/* Milliseconds as seconds in the reader's locale, with the digits they
 * need and no more: "1", "0.4", "0.037". */
static char *
format_seconds (guint64 ms)
{
  int decimals = ms % 1000 == 0 ? 0 : ms % 100 == 0 ? 1 : ms % 10 == 0 ? 2 : 3;

  return duel_number_format (ms / 1e3, decimals);
}

char *
duel_analysis_consistency_dup_partial_note (const DuelTestRecord *record)
{
  guint n;
  g_autofree char *last = NULL;
  g_autofree char *whole = NULL;

  g_return_val_if_fail (record != NULL, NULL);

  n = duel_series_get_length (record->series);
  /* The rule duel_analysis_consistency() applies. */
  if (n == 0 || duel_analysis_complete_intervals (record->series, record->workload.interval_ms) == n)
    return NULL;
  last = format_seconds (duel_series_row_duration_ms (record->series, n - 1));
  whole = format_seconds (record->workload.interval_ms);
  /* TRANSLATORS: the performance consistency test's last interval, cut
   * short when the run stopped, and the length of a whole interval, in
   * seconds ("The last interval (0.4 s) was shorter than 1 s …") */
  return g_strdup_printf (_("The last interval (%s s) was shorter than %s s and is not counted "
                            "in the consistency figures."), last, whole);
}

double
duel_analysis_worst_case_iops (const DuelSeriesRow *row,
                               guint                queue_depth)
{
  guint64 max_ns;

  g_return_val_if_fail (row != NULL, NAN);

  max_ns = MAX (row->lat_max_ns[DUEL_DIRECTION_READ], row->lat_max_ns[DUEL_DIRECTION_WRITE]);
  if (max_ns == 0)
    return NAN;
  return queue_depth / (max_ns / 1e9);
}

/* The IOPS of @row, which starts at @prev_t; FALSE for a row without time. */
static gboolean
interval_iops (const DuelSeriesRow *row,
               guint64              prev_t,
               double              *out_iops)
{
  double seconds = (row->t_ms - prev_t) / 1e3;
  double r = row->ops[DUEL_DIRECTION_READ], w = row->ops[DUEL_DIRECTION_WRITE];

  /* As the first pass computes it, so that the values are the same. */
  if (seconds <= 0)
    return FALSE;
  *out_iops = (r + w) / seconds;
  return TRUE;
}

/* Keeps the @size smallest values seen in @heap, the largest of them on
 * top (a max-heap of @n_used values). */
static void
smallest_push (double *heap,
               guint  *n_used,
               guint   size,
               double  value)
{
  guint i;

  if (*n_used == size)
    {
      if (!(value < heap[0]))
        return;
      /* The top goes; @value sinks from there to its place. */
      i = 0;
      for (;;)
        {
          guint child = 2 * i + 1;

          if (child >= size)
            break;
          if (child + 1 < size && heap[child + 1] > heap[child])
            child++;
          if (!(heap[child] > value))
            break;
          heap[i] = heap[child];
          i = child;
        }
      heap[i] = value;
      return;
    }
  /* Append and sift up. */
  i = (*n_used)++;
  while (i > 0 && heap[(i - 1) / 2] < value)
    {
      heap[i] = heap[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  heap[i] = value;
}

void
duel_analysis_consistency (const DuelSeries *series,
                           guint             interval_ms,
                           guint             queue_depth,
                           DuelConsistency  *out)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint n_rows, n = 0, n_heap = 0;
  g_autofree double *slowest = NULL;
  double sum = 0, sum_read = 0, sum_write = 0, var = 0;
  double ops_read = 0, ops_all = 0;
  double worst = INFINITY;
  guint64 prev_t = 0;

  g_return_if_fail (series != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  n_rows = duel_analysis_complete_intervals (series, interval_ms);
  out->partial_excluded = n_rows < duel_series_get_length (series);

  duel_series_iter_init (&iter, series);
  for (guint i = 0; i < n_rows && (row = duel_series_iter_next (&iter)) != NULL; i++)
    {
      double seconds = (row->t_ms - prev_t) / 1e3;
      double r = row->ops[DUEL_DIRECTION_READ], w = row->ops[DUEL_DIRECTION_WRITE];
      double wc;

      prev_t = row->t_ms;
      if (seconds <= 0)
        continue;
      n++;
      sum += (r + w) / seconds;
      sum_read += r / seconds;
      sum_write += w / seconds;
      ops_read += r;
      ops_all += r + w;
      wc = duel_analysis_worst_case_iops (row, queue_depth);
      if (!isnan (wc))
        worst = MIN (worst, wc);
    }

  out->n_intervals = n;
  out->few_intervals = n < DUEL_CONSISTENCY_MIN_INTERVALS;
  out->worst_case_iops_min = isfinite (worst) ? worst : NAN;
  out->read_share = ops_all > 0 ? ops_read / ops_all : NAN;
  if (n == 0)
    {
      out->mean_iops = out->mean_read_iops = out->mean_write_iops = NAN;
      out->stddev_iops = out->mean_over_stddev = NAN;
      out->slowest_iops = out->ratio = NAN;
      return;
    }

  out->mean_iops = sum / n;
  out->mean_read_iops = sum_read / n;
  out->mean_write_iops = sum_write / n;

  /* The 99.9 % slowest interval: ascending order, rank ceil(0.001 N), 1-based.
   * The epsilon keeps N = 1000 at rank 1 despite rounding. A second pass
   * keeps the rank's smallest values alone, not a copy of every
   * interval's: a long run's series is all the memory it takes. */
  out->slowest_rank = MAX ((guint) ceil (n / 1000.0 - 1e-9), 1);
  slowest = g_new (double, out->slowest_rank);
  prev_t = 0;
  duel_series_iter_init (&iter, series);
  for (guint i = 0; i < n_rows && (row = duel_series_iter_next (&iter)) != NULL; i++)
    {
      double iops;
      gboolean timed = interval_iops (row, prev_t, &iops);

      prev_t = row->t_ms;
      if (!timed)
        continue;
      var += (iops - out->mean_iops) * (iops - out->mean_iops);
      smallest_push (slowest, &n_heap, out->slowest_rank, iops);
    }
  out->stddev_iops = sqrt (var / n);
  out->mean_over_stddev = out->stddev_iops > 0 ? out->mean_iops / out->stddev_iops : NAN;
  out->slowest_iops = slowest[0];
  out->ratio = out->mean_iops > 0 ? out->slowest_iops / out->mean_iops : NAN;
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelConsistency c;
  JsonObject *details = json_object_new ();
  g_autoptr(DuelSeries) unpaused = NULL;
  /* Rows a pause of the process touched are not the drive's. */
  const DuelSeries *series = duel_test_record_get_figure_series (record, &unpaused);

  /* Every job's queue is in flight. */
  duel_analysis_consistency (series, record->workload.interval_ms,
                             record->workload.queue_depth * record->workload.numjobs, &c);

  duel_summary_add (summary, "consistency_mean_iops", c.mean_iops);
  duel_summary_add (summary, "consistency_read_iops", c.mean_read_iops);
  duel_summary_add (summary, "consistency_write_iops", c.mean_write_iops);
  duel_summary_add (summary, "consistency_slowest_iops", c.slowest_iops);
  duel_summary_add (summary, "consistency_ratio", isfinite (c.ratio) ? c.ratio * 100.0 : NAN);
  duel_summary_add (summary, "mean_over_stddev", c.mean_over_stddev);
  duel_summary_add (summary, "worst_case_iops_min", c.worst_case_iops_min);
  duel_summary_add (summary, "consistency_intervals", c.n_intervals);
  duel_summary_add (summary, "read_share_pct", isfinite (c.read_share) ? c.read_share * 100.0 : NAN);

  json_object_set_int_member (details, "intervals", c.n_intervals);
  json_object_set_int_member (details, "interval_ms", record->workload.interval_ms);
  json_object_set_boolean_member (details, "partial_interval_excluded", c.partial_excluded);
  json_object_set_boolean_member (details, "few_intervals", c.few_intervals);
  if (c.few_intervals)
    json_object_set_string_member (details, "note",
                                   "fewer than 1000 intervals: the 99.9 % slowest interval is a single sample");
  json_object_set_int_member (details, "slowest_rank", c.slowest_rank);
  duel_json_set_double_or_null (details, "stddev_iops", c.stddev_iops);
  json_object_set_int_member (details, "queue_depth", record->workload.queue_depth);
  json_object_set_object_member (duel_summary_get_details (summary), "consistency", details);
}

static const DuelFigureInfo figures[] = {
  { "consistency_mean_iops",    "IOPS",      DUEL_BETTER_HIGHER, N_("Mixed 50/50, mean IOPS") },
  { "consistency_read_iops",    "IOPS",      DUEL_BETTER_HIGHER, N_("Mixed 50/50, mean read IOPS") },
  { "consistency_write_iops",   "IOPS",      DUEL_BETTER_HIGHER, N_("Mixed 50/50, mean write IOPS") },
  /* xgettext:no-c-format */
  { "consistency_slowest_iops", "IOPS",      DUEL_BETTER_HIGHER, N_("Mixed 50/50, 99.9 % slowest interval") },
  { "consistency_ratio",        "%",         DUEL_BETTER_HIGHER, N_("Performance consistency (slowest / mean)") },
  { "mean_over_stddev",         "ratio",     DUEL_BETTER_HIGHER, N_("Mean / standard deviation") },
  { "worst_case_iops_min",      "IOPS",      DUEL_BETTER_HIGHER, N_("Worst-case IOPS (queue depth / max latency)") },
  { "consistency_intervals",    "intervals", DUEL_BETTER_NONE,   N_("Intervals measured") },
  { "read_share_pct",           "%",         DUEL_BETTER_NONE,   N_("Read share") },
};

/* A mix with a per-interval profile. */
static gboolean
fits (const DuelTestRecord *record)
{
  return duel_workload_is_mixed (&record->workload) &&
         duel_series_get_length (record->series) >= 2;
}

const DuelAnalysisOps _duel_analysis_consistency_ops = {
  .kind = DUEL_ANALYSIS_CONSISTENCY,
  .name = "consistency",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
