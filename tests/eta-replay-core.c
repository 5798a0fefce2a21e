/* eta-replay-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-run-eta.h"
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

static void
add_sample (GArray     *samples,
            DuelRunEta *eta,
            gint64      t0_us,
            gint64      now_us,
            gint64      end_us)
{
  EtaSample sample = {
    .at_s = (now_us - t0_us) / 1e6,
    .fraction = duel_run_eta_get_fraction (eta),
    .estimate_s = duel_run_eta_get_remaining_s (eta, now_us),
    .actual_s = (end_us - now_us) / 1e6,
  };

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
  double probe_iops = NAN, probe_end_iops = NAN;
  guint64 probe_ms = 0;
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
        }
    }

  /* The plan, as duel_preset_prepare() and duel_preset_estimate() make it. */
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
  duel_run_eta_set_probe (eta, probe_iops, probe_end_iops, probe_ms);
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
      guint n = duel_series_get_length (record->series);
      DuelProgress progress;

      /* A discard's own time is not recorded: it ends as its test starts. */
      if (index > 0 && (i == 0 || g_array_index (step_of, gint, i - 1) != index - 1))
        {
          duel_run_eta_step_started (eta, index - 1, start_us);
          add_sample (samples, eta, t0_us, start_us, end_us);
          duel_run_eta_step_finished (eta, index - 1, start_us);
        }

      duel_run_eta_step_started (eta, index, start_us);
      add_sample (samples, eta, t0_us, start_us, end_us);

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
          add_sample (samples, eta, t0_us, now_us, end_us);
        }
      duel_run_eta_step_finished (eta, index, start_us + (gint64) (record->runtime_ns / 1000));
    }

  return g_steal_pointer (&samples);
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
