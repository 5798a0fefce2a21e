/* duel-engine.c — one workload on one target: the engine's entry
 *
 * duel_engine_run() checks the workload against the target, resolves its
 * span and byte limit, resets the record and runs it: as one job's loop in
 * the caller's thread (duel-engine-ring.c), or with numjobs > 1 as a loop
 * per job in threads of their own, merged into the one record
 * (duel-engine-jobs.c). It then sets the record's status. A watchdog
 * thread runs beside them for the run (duel-engine-watchdog.c), so that a
 * pause of the process is told from a loop held by its device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-engine.h"
#include "duel-engine-private.h"
#include "duel-error.h"

static void
fail_record (DuelTestRecord *record,
             const GError   *error)
{
  record->status = DUEL_TEST_STATUS_FAILED;
  g_free (record->error_message);
  record->error_message = g_strdup (error->message);
}

static void
reset_record (DuelTestRecord *record)
{
  if (record->series == NULL || duel_series_get_length (record->series) > 0)
    {
      g_clear_pointer (&record->series, duel_series_free);
      record->series = duel_series_new ();
    }
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      if (record->latency[d] == NULL)
        record->latency[d] = g_new0 (DuelHistogram, 1);
      duel_histogram_init (record->latency[d]);
    }
  g_clear_pointer (&record->error_message, g_free);
  g_clear_pointer (&record->started, g_date_time_unref);
  record->runtime_ns = 0;
}

gboolean
duel_engine_run (DuelTarget         *target,
                 DuelTestRecord     *record,
                 GCancellable       *cancellable,
                 DuelProgressFunc    progress_func,
                 gpointer            progress_data,
                 GError            **error)
{
  g_autoptr(GError) local_error = NULL;
  const DuelWorkload *workload;
  DuelEngineWatchdog *watchdog;
  gboolean reads, writes;
  gboolean cancelled = FALSE;
  gboolean ok = FALSE;

  g_return_val_if_fail (DUEL_IS_TARGET (target), FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  workload = &record->workload;
  reset_record (record);
  record->status = DUEL_TEST_STATUS_RUNNING;

  if (!duel_workload_resolve (workload,
                              duel_target_get_size (target),
                              duel_target_get_logical_block_size (target),
                              &record->span_offset, &record->span_length,
                              &record->byte_limit, &local_error))
    goto out;

  reads = duel_workload_reads (workload);
  writes = duel_workload_writes (workload);
  if (writes && !duel_target_is_writable (target))
    {
      g_set_error (&local_error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” was opened read-only, but the workload writes."),
                   duel_target_get_path (target));
      goto out;
    }

  /* Each sets record->started: one job once its ring is set up, several
   * (a thread per job, each with a loop of its own) before their threads
   * start. All share one watchdog. */
  watchdog = _duel_engine_watchdog_start ();
  if (workload->numjobs > 1)
    _duel_engine_jobs_run (target, record, reads, writes, watchdog, cancellable,
                           progress_func, progress_data, &cancelled, &local_error);
  else
    _duel_engine_ring_run (target, record, reads, writes, watchdog, cancellable,
                           progress_func, progress_data, &cancelled, &local_error);
  _duel_engine_watchdog_stop (watchdog);

  if (local_error == NULL && cancelled)
    {
      record->status = DUEL_TEST_STATUS_CANCELLED;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   _("The run was cancelled."));
    }
  else if (local_error == NULL)
    {
      record->status = DUEL_TEST_STATUS_COMPLETE;
      ok = TRUE;
    }

out:
  if (local_error != NULL)
    {
      fail_record (record, local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
  return ok;
}
