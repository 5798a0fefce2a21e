/* eta-replay-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "run/duel-run-eta-private.h"
#include "eta-replay-core.h"

/* As duel-preset.c weighs a discard and a fill without a probe. */
#define DISCARD_EXPECTED_S   0.5
#define NOMINAL_FILL_RATE    (100.0 * 1e6)

void
eta_replay_options_init (EtaReplayOptions *options)
{
  options->use_probe = TRUE;
  options->flash = -1;
}

static gint64
to_us (GDateTime *time)
{
  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

static JsonObject *
get_probe (DuelTestRecord *record)
{
  JsonObject *details;

  if (record->summary == NULL)
    return NULL;
  details = duel_test_record_get_details (record);
  if (!json_object_has_member (details, "probe") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (details, "probe")))
    return NULL;
  return json_object_get_object_member (details, "probe");
}

static gboolean
was_trimmed (DuelTestRecord *record)
{
  JsonObject *details, *discard;

  if (record->summary == NULL)
    return FALSE;
  details = duel_test_record_get_details (record);
  if (!json_object_has_member (details, "discard") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (details, "discard")))
    return FALSE;
  discard = json_object_get_object_member (details, "discard");
  return json_object_get_boolean_member_with_default (discard, "done", FALSE);
}

/* When @series (a step started at @start_us) had written @bytes in all,
 * interpolated within the row that crossed it; its end when it never did. */
static gint64
crossing_us (const DuelSeries *series,
             gint64            start_us,
             double            bytes)
{
  double done = 0, t0_ms = 0;
  guint n = duel_series_get_length (series);

  for (guint r = 0; r < n; r++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, r);
      double b = row->bytes[DUEL_DIRECTION_READ] + row->bytes[DUEL_DIRECTION_WRITE];

      if (b > 0 && done + b >= bytes)
        return start_us + (gint64) llround ((t0_ms + (row->t_ms - t0_ms) * (bytes - done) / b) * 1000);
      done += b;
      t0_ms = row->t_ms;
    }
  return start_us + (gint64) llround (t0_ms * 1000);
}

/* crossing_us() of the last series and bytes asked: a step's samples all
 * ask the same. */
typedef struct
{
  const DuelSeries *series;
  double            bytes;
  gint64            start_us;
  gint64            us;
} Crossing;

/* The running step @step of @series (started at @start_us, ending at
 * @step_end_us; NULL: a discard), sampled at @now_us. */
static void
add_sample (GArray           *samples,
            Crossing         *crossing,
            DuelRunEta       *eta,
            gint              step,
            const DuelSeries *series,
            gint64            start_us,
            gint64            step_end_us,
            gint64            t0_us,
            gint64            now_us,
            gint64            end_us)
{
  EtaSample sample = {
    .at_s = (now_us - t0_us) / 1e6,
    .fraction = duel_run_eta_get_fraction (eta),
    .estimate_s = duel_run_eta_get_remaining_s (eta, now_us),
    .low_s = NAN,
    .high_s = NAN,
    .actual_s = (end_us - now_us) / 1e6,
    .step_progress = NAN,
    .range = -1,
    .step_first_s = NAN,
    .step_second_s = NAN,
    .actual_first_s = NAN,
    .actual_second_s = NAN,
    .step_actual_s = NAN,
  };
  DuelRunEtaStepView view;

  duel_run_eta_get_range (eta, now_us, &sample.low_s, &sample.high_s);
  sample.has_passes = duel_run_eta_get_passes (eta, now_us, &sample.passes);
  if (step >= 0 && series != NULL && _duel_run_eta_step_view (eta, step, &view))
    {
      gint64 first_end_us;

      if (crossing->series != series || crossing->bytes != view.first_end_bytes || crossing->start_us != start_us)
        {
          crossing->series = series;
          crossing->bytes = view.first_end_bytes;
          crossing->start_us = start_us;
          crossing->us = crossing_us (series, start_us, view.first_end_bytes);
        }
      first_end_us = crossing->us;

      sample.range = view.range;
      sample.step_progress = view.progress;
      sample.step_first_s = view.first_s;
      sample.step_second_s = view.second_s;
      sample.actual_first_s = MAX (first_end_us - now_us, 0) / 1e6;
      sample.actual_second_s = (step_end_us - MAX (first_end_us, now_us)) / 1e6;
      sample.step_actual_s = (step_end_us - now_us) / 1e6;
    }
  g_array_append_val (samples, sample);
}

GArray *
eta_replay (DuelResult             *result,
            const EtaReplayOptions *options,
            GError                **error)
{
  g_autoptr(DuelRunEta) eta = duel_run_eta_new ();
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (EtaSample));
  g_autoptr(GArray) step_of = g_array_new (FALSE, FALSE, sizeof (gint)); /* test → step */
  GPtrArray *tests = duel_result_get_tests (result);
  EtaReplayOptions defaults;
  Crossing crossing = { NULL, 0, 0, 0 };
  double probe_iops = NAN, probe_end_iops = NAN;
  guint64 probe_ms = 0, probe_fall_bytes = 0;
  gint64 t0_us = 0, end_us = 0;
  guint n_steps = 0;

  if (options == NULL)
    {
      eta_replay_options_init (&defaults);
      options = &defaults;
    }

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      JsonObject *probe = get_probe (record);

      if (record->started == NULL)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       "test %s never started: nothing to replay", record->name);
          return NULL;
        }
      if (probe != NULL && options->use_probe)
        {
          JsonNode *end = json_object_get_member (probe, "end_write_iops");

          probe_iops = json_object_get_double_member_with_default (probe, "write_iops", NAN);
          probe_end_iops = end != NULL && !json_node_is_null (end) ? json_node_get_double (end) : NAN;
          probe_ms = json_object_get_int_member_with_default (probe, "runtime_ms", 0);
          /* Older results do not say where it fell: a fall shows as an end
           * rate well under the mean (a fall to under half of the rate
           * before it, duel-probe.h, is under 3/4 of the mean over both). */
          if (json_object_has_member (probe, "fall_bytes"))
            probe_fall_bytes = json_object_get_int_member_with_default (probe, "fall_bytes", 0);
          else if (isfinite (probe_end_iops) && probe_end_iops < 0.75 * probe_iops)
            probe_fall_bytes = 1;
        }
    }

  /* The plan, as duel_preset_prepare() and duel_run_steps_estimate() make it. */
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      double expected = record->workload.runtime_ms / 1e3;
      gint index;

      if (was_trimmed (record))
        {
          duel_run_eta_add_step (eta, NULL, record->span_length, 0, DISCARD_EXPECTED_S);
          n_steps++;
        }
      if (record->byte_limit > 0)
        {
          double seconds = isfinite (probe_iops) && probe_iops > 0
            ? record->byte_limit / (probe_iops * 4096.0) : record->byte_limit / NOMINAL_FILL_RATE;

          expected = record->workload.runtime_ms > 0 ? MIN (seconds, expected) : seconds;
        }
      duel_run_eta_add_step (eta, &record->workload, record->span_length, record->byte_limit, expected);
      index = n_steps++;
      g_array_append_val (step_of, index);
    }
  duel_run_eta_set_probe (eta, probe_iops, probe_end_iops, probe_ms, probe_fall_bytes);
  duel_run_eta_set_flash (eta, options->flash >= 0 ? options->flash : duel_run_eta_device_is_flash (duel_result_get_device (result)));

  if (tests->len == 0)
    return g_steal_pointer (&samples);
  t0_us = to_us (((DuelTestRecord *) g_ptr_array_index (tests, 0))->started);
  {
    DuelTestRecord *last = g_ptr_array_index (tests, tests->len - 1);

    end_us = to_us (last->started) + (gint64) (last->runtime_ns / 1000);
  }

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(DuelSeries) rows = duel_series_new ();
      gint index = g_array_index (step_of, gint, i);
      gint64 start_us = to_us (record->started);
      gint64 step_end_us = start_us + (gint64) (record->runtime_ns / 1000);
      guint n = duel_series_get_length (record->series);
      DuelProgress progress;

      /* A discard's own time is not recorded: it ends as its test starts. */
      if (index > 0 && (i == 0 || g_array_index (step_of, gint, i - 1) != index - 1))
        {
          duel_run_eta_step_started (eta, index - 1, start_us);
          add_sample (samples, &crossing, eta, index - 1, NULL, start_us, start_us, t0_us, start_us, end_us);
          duel_run_eta_step_finished (eta, index - 1, start_us);
        }

      duel_run_eta_step_started (eta, index, start_us);
      add_sample (samples, &crossing, eta, index, record->series, start_us, step_end_us, t0_us, start_us, end_us);

      memset (&progress, 0, sizeof progress);
      progress.byte_limit = record->byte_limit;
      progress.runtime_limit_ns = record->workload.runtime_ms * G_GUINT64_CONSTANT (1000000);
      for (guint r = 0; r < n; r++)
        {
          const DuelSeriesRow *row = duel_series_get_row (record->series, r);
          gint64 now_us = start_us + (gint64) row->t_ms * 1000;
          guint64 done = 0;

          duel_series_append (rows, row);
          progress.elapsed_ns = row->t_ms * G_GUINT64_CONSTANT (1000000);
          for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
            {
              progress.ops[d] += row->ops[d];
              progress.bytes[d] += row->bytes[d];
              done += progress.bytes[d];
            }
          progress.fraction_done = 0;
          if (progress.byte_limit > 0)
            progress.fraction_done = (double) done / progress.byte_limit;
          if (progress.runtime_limit_ns > 0)
            progress.fraction_done = MAX (progress.fraction_done,
                                          (double) progress.elapsed_ns / progress.runtime_limit_ns);
          progress.fraction_done = MIN (progress.fraction_done, 1.0);
          progress.n_intervals = r + 1;
          progress.interval_closed = TRUE;
          duel_run_eta_update (eta, index, &progress, rows, now_us);
          add_sample (samples, &crossing, eta, index, record->series, start_us, step_end_us, t0_us, now_us, end_us);
        }
      duel_run_eta_step_finished (eta, index, start_us + (gint64) (record->runtime_ns / 1000));
    }

  return g_steal_pointer (&samples);
}

GArray *
eta_replay_fill (const EtaFill *fill)
{
  g_autoptr(DuelRunEta) eta = duel_run_eta_new ();
  g_autoptr(DuelSeries) rows = duel_series_new ();
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (EtaSample));
  guint n = duel_series_get_length (fill->series);
  guint64 limit = 0;
  gint64 start_us = 0, end_us;
  DuelWorkload workload;
  DuelProgress progress = { 0 };
  Crossing crossing = { NULL, 0, 0, 0 };
  guint index = 0;

  g_return_val_if_fail (n > 0, samples);

  for (guint r = 0; r < n; r++)
    limit += duel_series_get_row (fill->series, r)->bytes[DUEL_DIRECTION_WRITE];
  duel_workload_init (&workload);
  workload.pattern = DUEL_PATTERN_RANDOM;
  workload.block_size = 4096;
  workload.read_percent = 0;
  workload.queue_depth = 32;
  workload.size_multiple = fill->multiple;
  workload.interval_ms = fill->interval_ms;

  /* As duel_preset_estimate_from_probe() weighs them: the discard's fixed guess, the
   * fill at the probe's rate (or unknown). */
  if (fill->discard_s >= 0)
    duel_run_eta_add_step (eta, NULL, fill->span_bytes, 0, DISCARD_EXPECTED_S);
  duel_run_eta_add_step (eta, &workload, fill->span_bytes, limit,
                         fill->probe != NULL ? limit / (fill->probe->write_iops * 4096.0) : limit / NOMINAL_FILL_RATE);
  if (fill->probe != NULL)
    duel_run_eta_set_probe (eta, fill->probe->write_iops, fill->probe->end_write_iops, fill->probe->runtime_ms,
                            fill->probe->fell ? MAX (fill->probe->fall_bytes, 1) : 0);
  duel_run_eta_set_flash (eta, fill->flash);

  if (fill->discard_s >= 0)
    {
      start_us = (gint64) (fill->discard_s * G_USEC_PER_SEC);
      end_us = start_us + (gint64) duel_series_get_row (fill->series, n - 1)->t_ms * 1000;
      duel_run_eta_step_started (eta, 0, 0);
      add_sample (samples, &crossing, eta, 0, NULL, 0, start_us, 0, 0, end_us);
      duel_run_eta_step_finished (eta, 0, start_us);
      index = 1;
    }
  end_us = start_us + (gint64) duel_series_get_row (fill->series, n - 1)->t_ms * 1000;

  duel_run_eta_step_started (eta, index, start_us);
  add_sample (samples, &crossing, eta, index, fill->series, start_us, end_us, 0, start_us, end_us);
  progress.byte_limit = limit;
  for (guint r = 0; r < n; r++)
    {
      const DuelSeriesRow *row = duel_series_get_row (fill->series, r);
      gint64 now_us = start_us + (gint64) row->t_ms * 1000;

      duel_series_append (rows, row);
      progress.elapsed_ns = row->t_ms * G_GUINT64_CONSTANT (1000000);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          progress.ops[d] += row->ops[d];
          progress.bytes[d] += row->bytes[d];
        }
      progress.fraction_done = MIN ((double) progress.bytes[DUEL_DIRECTION_WRITE] / limit, 1.0);
      progress.n_intervals = r + 1;
      progress.interval_closed = TRUE;
      duel_run_eta_update (eta, index, &progress, rows, now_us);
      add_sample (samples, &crossing, eta, index, fill->series, start_us, end_us, 0, now_us, end_us);
    }
  return samples;
}

gboolean
eta_sample_covered (const EtaSample *sample)
{
  /* A microsecond either side: the sums of the steps' ranges round. */
  return sample->low_s <= sample->actual_s + 1e-6 && sample->actual_s <= sample->high_s + 1e-6;
}

gboolean
eta_replay_at (GArray    *samples,
               double     fraction,
               EtaSample *out)
{
  for (guint i = 0; i < samples->len; i++)
    {
      const EtaSample *sample = &g_array_index (samples, EtaSample, i);

      if (sample->fraction >= fraction)
        {
          *out = *sample;
          return TRUE;
        }
    }
  return FALSE;
}

double
eta_sample_error (const EtaSample *sample)
{
  if (!isfinite (sample->estimate_s) || !(sample->actual_s > 0))
    return NAN;
  return (sample->estimate_s - sample->actual_s) / sample->actual_s;
}

double
eta_replay_worst (GArray *samples,
                  double  from,
                  double  to)
{
  double worst = 0;

  for (guint i = 0; i < samples->len; i++)
    {
      const EtaSample *sample = &g_array_index (samples, EtaSample, i);
      double error;

      if (sample->fraction < from || sample->fraction >= to)
        continue;
      error = eta_sample_error (sample);
      if (isnan (error))
        return NAN;
      worst = MAX (worst, fabs (error));
    }
  return worst;
}

double
eta_point (guint i)
{
  return 0.10 + 0.05 * i;
}

void
eta_coverage_init (EtaCoverage *coverage)
{
  memset (coverage, 0, sizeof *coverage);
  for (guint i = 0; i < ETA_N_POINTS; i++)
    {
      coverage->errors[i] = g_array_new (FALSE, FALSE, sizeof (double));
      coverage->widths[i] = g_array_new (FALSE, FALSE, sizeof (double));
      coverage->ratios[i] = g_array_new (FALSE, FALSE, sizeof (double));
    }
  coverage->worst_miss = 1;
}

void
eta_coverage_clear (EtaCoverage *coverage)
{
  for (guint i = 0; i < ETA_N_POINTS; i++)
    {
      g_clear_pointer (&coverage->errors[i], g_array_unref);
      g_clear_pointer (&coverage->widths[i], g_array_unref);
      g_clear_pointer (&coverage->ratios[i], g_array_unref);
    }
}

void
eta_coverage_add (EtaCoverage *coverage,
                  GArray      *samples,
                  const char  *what)
{
  for (guint i = 0; i < ETA_N_POINTS; i++)
    {
      EtaSample s;
      double error, width, miss, ratio;

      if (!eta_replay_at (samples, eta_point (i), &s) || !(s.actual_s > 0))
        continue;
      coverage->n[i]++;
      error = eta_sample_error (&s);
      width = s.high_s / s.low_s;
      g_array_append_val (coverage->errors[i], error);
      g_array_append_val (coverage->widths[i], width);
      ratio = s.actual_s / s.estimate_s;
      g_array_append_val (coverage->ratios[i], ratio);
      coverage->within[i] += fabs (error) <= 0.25;
      if (s.has_passes && !s.passes.in_second && s.actual_first_s > 0)
        {
          coverage->first_n[i]++;
          coverage->first_within[i] += fabs (s.passes.first_s - s.actual_first_s) <= 0.15 * s.actual_first_s;
        }
      if (eta_sample_covered (&s))
        {
          coverage->covered[i]++;
          continue;
        }
      miss = isfinite (s.low_s) ? MAX (s.actual_s / s.high_s, s.low_s / s.actual_s) : INFINITY;
      if (miss > coverage->worst_miss)
        {
          coverage->worst_miss = miss;
          g_snprintf (coverage->worst_what, sizeof coverage->worst_what,
                      "%s at %.0f %%: %.1f s left, the range %.1f to %.1f s", what, 100 * eta_point (i),
                      s.actual_s, s.low_s, s.high_s);
        }
    }
}

double
eta_coverage_share (const EtaCoverage *coverage,
                    guint              i)
{
  return coverage->n[i] > 0 ? (double) coverage->covered[i] / coverage->n[i] : NAN;
}

double
eta_coverage_within (const EtaCoverage *coverage,
                     guint              i)
{
  return coverage->n[i] > 0 ? (double) coverage->within[i] / coverage->n[i] : NAN;
}

double
eta_coverage_first_within (const EtaCoverage *coverage,
                           guint              i)
{
  return coverage->first_n[i] > 0 ? (double) coverage->first_within[i] / coverage->first_n[i] : NAN;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
quantile_of (GArray *values,
             double  q)
{
  if (values->len == 0)
    return NAN;
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, (guint) floor (q * (values->len - 1) + 0.5));
}

double
eta_coverage_error (const EtaCoverage *coverage,
                    guint              i,
                    double             q)
{
  return quantile_of (coverage->errors[i], q);
}

double
eta_coverage_width (const EtaCoverage *coverage,
                    guint              i,
                    double             q)
{
  return quantile_of (coverage->widths[i], q);
}

void
eta_coverage_report (const char        *what,
                     const EtaCoverage *coverage)
{
  g_test_message ("%s: at P %% progress, the range (an 80 %% interval) holds the truth in C %% of N runs, its "
                  "high end is W times its low (median; the narrowest range around the middle that holds 80 %% "
                  "of them: O); the middle is within 25 %% in M %%, its error E %% (median), from L to H %% (5th "
                  "and 95th percentiles); of the F runs still in the first of two passes, the first pass's time "
                  "left is within 15 %% in P1 %%", what);
  for (guint i = 0; i < ETA_N_POINTS; i++)
    g_test_message ("%s: P %2.0f  C %5.1f  N %3u  W %4.1f  O %4.1f  M %5.1f  E %+4.0f  L %+4.0f  H %+4.0f  "
                    "F %3u  P1 %5.1f", what,
                    100 * eta_point (i), 100 * eta_coverage_share (coverage, i), coverage->n[i],
                    eta_coverage_width (coverage, i, 0.5), eta_coverage_narrowest (coverage, i, 0.8),
                    100 * eta_coverage_within (coverage, i),
                    100 * eta_coverage_error (coverage, i, 0.5), 100 * eta_coverage_error (coverage, i, 0.05),
                    100 * eta_coverage_error (coverage, i, 0.95), coverage->first_n[i],
                    100 * eta_coverage_first_within (coverage, i));
  if (coverage->worst_what[0] != '\0')
    g_test_message ("%s: the worst miss, by %.2f times: %s", what, coverage->worst_miss, coverage->worst_what);
}

double
eta_coverage_narrowest (const EtaCoverage *coverage,
                        guint              i,
                        double             share)
{
  GArray *v = coverage->ratios[i];
  guint take = (guint) ceil (share * v->len);
  double best = INFINITY;

  if (v->len == 0 || take == 0)
    return NAN;
  g_array_sort (v, compare_doubles);
  for (guint lo = 0; lo + take <= v->len; lo++)
    best = MIN (best, g_array_index (v, double, lo + take - 1) / g_array_index (v, double, lo));
  return best;
}
