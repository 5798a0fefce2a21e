/* duel-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "analysis/duel-analysis.h"
#include "engine/duel-engine.h"
#include "duel-probe.h"

gboolean
duel_probe_find_fall (const DuelSeries *series,
                      guint            *out_row,
                      gboolean         *out_confirmed)
{
  return duel_analysis_rate_fall (series, DUEL_PROBE_FALL_FACTOR, out_row, out_confirmed);
}

/* Write IOPS of the rows from @from on. */
static double
rows_write_iops (const DuelSeries *series,
                 guint             from)
{
  guint64 ops = 0, ms = 0;

  for (guint i = from; i < duel_series_get_length (series); i++)
    {
      ops += duel_series_get_row (series, i)->ops[DUEL_DIRECTION_WRITE];
      ms += duel_series_row_duration_ms (series, i);
    }
  return ms > 0 ? ops * 1e3 / ms : NAN;
}

void
duel_probe_summarize (const DuelSeries *series,
                      guint64           runtime_ns,
                      DuelProbeResult  *out)
{
  guint n = duel_series_get_length (series);
  guint64 ops = 0, bytes = 0;
  guint fall = 0;
  gboolean confirmed = FALSE;

  *out = (DuelProbeResult) { .runtime_ms = runtime_ns / G_GUINT64_CONSTANT (1000000), .write_iops = NAN,
                             .end_write_iops = NAN };
  for (guint i = 0; i < n; i++)
    ops += duel_series_get_row (series, i)->ops[DUEL_DIRECTION_WRITE];
  if (runtime_ns > 0)
    out->write_iops = ops * 1e9 / runtime_ns;
  if (n == 0)
    return;

  if (duel_probe_find_fall (series, &fall, &confirmed))
    {
      for (guint i = 0; i < fall; i++)
        bytes += duel_series_get_row (series, i)->bytes[DUEL_DIRECTION_WRITE];
      out->fell = TRUE;
      out->fall_bytes = bytes;
      out->end_write_iops = rows_write_iops (series, fall);
    }
  else
    {
      /* The last quarter: where a write cache smaller than what the probe
       * wrote would have run out. */
      guint64 to_ms = duel_series_get_row (series, n - 1)->t_ms;
      guint i = n - 1;

      while (i > 0 && duel_series_get_row (series, i - 1)->t_ms * 4 > to_ms * 3)
        i--;
      out->end_write_iops = rows_write_iops (series, i);
    }
}

guint64
duel_probe_longest_ms (guint64 min_ms)
{
  return MAX (min_ms, DUEL_PROBE_MAX_MS);
}

guint
duel_probe_interval_ms (guint64 min_ms)
{
  return (guint) MAX (MIN (DUEL_PROBE_INTERVAL_MS, min_ms), DUEL_WORKLOAD_MIN_INTERVAL_MS);
}

gboolean
duel_probe_should_stop (const DuelSeries *series,
                        guint64           elapsed_ns,
                        guint64           written_bytes,
                        guint64           min_ms,
                        guint64           span_bytes)
{
  gboolean confirmed = FALSE;
  gboolean fell;

  if (elapsed_ns < min_ms * G_GUINT64_CONSTANT (1000000))
    return FALSE;
  fell = duel_probe_find_fall (series, NULL, &confirmed);
  return (fell && confirmed) || (!fell && written_bytes >= (guint64) (DUEL_PROBE_SPAN_SHARE * span_bytes));
}

typedef struct
{
  guint64       min_ms;
  guint64       span_bytes;
  GCancellable *stop;
} Watch;

/* In the engine thread, at each interval's end. */
static void
watch_progress (const DuelProgress *progress,
                DuelTestRecord     *record,
                gpointer            user_data)
{
  Watch *watch = user_data;

  if (progress->interval_closed &&
      duel_probe_should_stop (record->series, progress->elapsed_ns, progress->bytes[DUEL_DIRECTION_WRITE],
                              watch->min_ms, watch->span_bytes))
    g_cancellable_cancel (watch->stop);
}

gboolean
duel_probe_run (DuelTarget       *target,
                guint64           span_bytes,
                guint64           min_ms,
                GCancellable     *cancellable,
                DuelProbeResult  *out,
                GError          **error)
{
  g_autoptr(DuelTestRecord) probe = NULL;
  GCancellable *stop;
  g_autoptr(GError) local_error = NULL;
  DuelWorkload workload;
  Watch watch;
  gboolean ok;

  g_return_val_if_fail (min_ms > 0, FALSE);

  duel_workload_init (&workload);
  workload.read_percent = 0;
  workload.span_length = span_bytes;
  workload.runtime_ms = duel_probe_longest_ms (min_ms);
  workload.interval_ms = duel_probe_interval_ms (min_ms);
  probe = duel_test_record_new ("probe", &workload);

  stop = duel_engine_own_stop_new (cancellable);
  watch = (Watch) { .min_ms = min_ms, .span_bytes = span_bytes, .stop = stop };
  ok = duel_engine_run (target, probe, stop, watch_progress, &watch, &local_error);
  duel_engine_own_stop_free (stop);

  /* Our own stop is the probe's end, not a failure. */
  if (!ok && !(g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
               !g_cancellable_is_cancelled (cancellable)))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  duel_probe_summarize (probe->series, probe->runtime_ns, out);
  return TRUE;
}
