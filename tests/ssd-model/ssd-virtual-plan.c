/* ssd-virtual-plan.c — a preset's plan run on the FTL model, in the model's own time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "analysis/duel-rounds.h"
#include "engine/duel-offsets.h"
#include "ssd-virtual-plan.h"
#include "ssd-virtual-rows.h"

#define MSEC G_GUINT64_CONSTANT (1000000)

/* One test step on @ftl from @origin: returns when its last I/O completed. */
static guint64
run_test (SsdFtl                   *ftl,
          const DuelPresetStep     *step,
          guint64                   span,
          guint64                   origin,
          guint64                   seed,
          const DuelAnalysisParams *params,
          DuelTestRecord           *record)
{
  const DuelWorkload *w = &step->workload;
  guint slots = MAX (w->queue_depth, 1) * MAX (w->numjobs, 1);
  guint interval_ms = w->interval_ms > 0 ? w->interval_ms : DUEL_WORKLOAD_DEFAULT_INTERVAL_MS;
  guint64 byte_limit = w->size_bytes > 0 ? w->size_bytes
                       : w->size_multiple > 0 ? (guint64) llround (w->size_multiple * (double) span) : 0;
  guint64 time_limit = w->runtime_ms * MSEC, issued_bytes = 0, end = origin;
  g_autofree guint64 *done = g_new (guint64, slots);
  g_autofree guint64 *issued_at = g_new (guint64, slots);
  g_autofree gboolean *is_read = g_new (gboolean, slots);
  DuelSeriesRow row = { .t_ms = interval_ms, .temperature_c = NAN };
  DuelOffsets offsets;
  guint in_flight = 0;
  /* A write until its rate falls stops issuing once the fall is confirmed
   * at a row's end, as the run's loop stops it (duel-run-steps.c). */
  gboolean until_fall = step->info != NULL && step->info->until_fall_share > 0, fell = FALSE;
  guint rows_seen = 0;

  g_assert (byte_limit > 0 || time_limit > 0);
  duel_offsets_init (&offsets, w->pattern, 0, span, w->block_size, w->read_percent, seed);

  /* Issues the next I/O of slot @i at @now, or none once the test's
   * length is reached. */
#define ISSUE(i, now) \
  G_STMT_START { \
    if (!fell && (byte_limit == 0 || issued_bytes < byte_limit) && (time_limit == 0 || (now) - origin < time_limit)) \
      { \
        guint64 offset; \
        guint64 first, last; \
        is_read[i] = duel_offsets_next_is_read (&offsets); \
        offset = duel_offsets_next (&offsets); \
        first = offset / SSD_PAGE_SIZE; \
        last = (offset + w->block_size - 1) / SSD_PAGE_SIZE; \
        issued_at[i] = (now); \
        done[i] = is_read[i] ? ssd_ftl_read (ftl, first, last - first + 1, (now)) \
                             : ssd_ftl_write (ftl, first, last - first + 1, (now)); \
        issued_bytes += w->block_size; \
        in_flight++; \
      } \
    else \
      done[i] = G_MAXUINT64; \
  } G_STMT_END

  for (guint i = 0; i < slots; i++)
    ISSUE (i, origin);
  while (in_flight > 0)
    {
      guint m = 0;
      DuelDirection d;

      for (guint i = 1; i < slots; i++)
        if (done[i] < done[m])
          m = i;
      in_flight--;
      d = is_read[m] ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
      ssd_virtual_close_rows (record->series, &row, interval_ms, done[m] - origin);
      if (until_fall && !fell && duel_series_get_length (record->series) > rows_seen)
        {
          gboolean confirmed = FALSE;

          rows_seen = duel_series_get_length (record->series);
          fell = duel_analysis_rate_fall (record->series, 1 / (1 - params->fall_min_drop), NULL, &confirmed) &&
                 confirmed;
        }
      row.ops[d]++;
      row.bytes[d] += w->block_size;
      row.lat_max_ns[d] = MAX (row.lat_max_ns[d], done[m] - issued_at[m]);
      duel_histogram_add (record->latency[d], done[m] - issued_at[m]);
      end = done[m];
      ISSUE (m, done[m]);
    }
#undef ISSUE

  /* The last row ends with the last I/O, as the engine's does. */
  row.t_ms = MAX ((end - origin + MSEC - 1) / MSEC,
                  duel_series_get_length (record->series) * (guint64) interval_ms + 1);
  duel_series_append (record->series, &row);
  record->span_offset = 0;
  record->span_length = span;
  record->byte_limit = byte_limit;
  record->runtime_ns = end - origin;
  record->status = DUEL_TEST_STATUS_COMPLETE;
  return end;
}

/* Whether the rounds of @step's test are steady by the records so far,
 * judged as the run's loop judges them: at the end of a round. */
static gboolean
rounds_steady (DuelPreset           *plan,
               guint                 index,
               DuelResult           *result)
{
  const DuelPresetStep *step = duel_preset_get_step (plan, index);
  const DuelPresetStep *next = index + 1 < duel_preset_get_n_steps (plan)
                               ? duel_preset_get_step (plan, index + 1) : NULL;
  g_autoptr(DuelRoundsReport) report = NULL;

  if (step->round == 0 || (next != NULL && next->test == step->test && next->round == step->round))
    return FALSE;
  report = duel_rounds_report_new (result, step->section);
  return report != NULL && report->steady;
}

void
ssd_virtual_plan_run (SsdFtl         *ftl,
                      DuelPreset     *plan,
                      guint64         origin_ns,
                      guint64         seed,
                      SsdVirtualPlan *out)
{
  guint64 span = duel_preset_get_span_bytes (plan), now = origin_ns;
  const DuelReviewTest *steady_test = NULL;
  DuelRecoveryReference recovery;

  g_assert (span > 0 && span <= ssd_ftl_n_pages (ftl) * SSD_PAGE_SIZE);

  memset (out, 0, sizeof *out);
  duel_recovery_reference_init (&recovery);
  out->result = duel_result_new ();
  out->steps = g_array_new (FALSE, FALSE, sizeof (SsdVirtualStepLog));
  for (guint i = 0; i < duel_preset_get_n_steps (plan); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (plan, i);
      SsdVirtualStepLog log = { .step = step, .start_ns = now };

      if (step->optional && step->test == steady_test)
        {
          out->n_skipped++;
          continue;
        }
      ssd_ftl_counters (ftl, &log.before);
      if (step->kind == DUEL_PRESET_STEP_DISCARD)
        ssd_ftl_trim (ftl, 0, span / SSD_PAGE_SIZE, now);
      /* The drive rests: the model's units do their idle work meanwhile. */
      else if (step->kind == DUEL_PRESET_STEP_IDLE)
        {
          now += step->idle_ms * MSEC;
          ssd_ftl_idle (ftl, now);
        }
      else
        {
          g_autoptr(DuelTestRecord) record = duel_test_record_new (step->name, &step->workload);
          g_autoptr(DuelSummary) summary = NULL;

          record->preset = g_strdup (duel_preset_get_name (plan));
          duel_preset_describe_record (plan, step, record);
          /* As the run's loop does (duel-run-steps.c), the idle as asked. */
          if (step->idle_ms > 0)
            duel_recovery_note_idle (record, &recovery, step->idle_ms, step->idle_ms);
          /* The cache's events (where it first ran full) counted from
           * this step on. */
          ssd_ftl_reset_events (ftl);
          ssd_ftl_counters (ftl, &log.before);
          now = run_test (ftl, step, span, now, seed + i, duel_preset_get_analysis_params (plan), record);
          summary = duel_analysis_summarize (record, step->analysis, duel_preset_get_analysis_params (plan));
          duel_analysis_apply (record, step->analysis, duel_preset_get_analysis_params (plan), summary);
          duel_result_add_test (out->result, record);
          duel_recovery_reference_take (&recovery, record);
          if (rounds_steady (plan, i, out->result))
            steady_test = step->test;
        }
      log.end_ns = now;
      ssd_ftl_counters (ftl, &log.after);
      g_array_append_val (out->steps, log);
    }
}

void
ssd_virtual_plan_clear (SsdVirtualPlan *out)
{
  g_clear_object (&out->result);
  g_clear_pointer (&out->steps, g_array_unref);
}

double
ssd_virtual_step_write_amplification (const SsdVirtualStepLog *log)
{
  guint64 host = log->after.host_pages_written - log->before.host_pages_written;

  return host > 0 ? (double) (log->after.programs - log->before.programs) / (double) host : NAN;
}
