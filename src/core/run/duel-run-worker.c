/* duel-run-worker.c — the run's worker thread: prepare, run the plan, keep the result
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "result/duel-preflight.h"
#include "duel-run-private.h"
#include "duel-system.h"
#include "engine/duel-target-lock.h"


void
_duel_run_job_free (Job *job)
{
  g_clear_object (&job->self);
  g_clear_object (&job->target);
  g_clear_object (&job->result);
  g_clear_object (&job->run_context);
  g_clear_object (&job->checkpointer);
  g_clear_pointer (&job->output_lock, duel_output_lock_release);
  g_clear_pointer (&job->output_folder, duel_folder_unref);
  g_clear_pointer (&job->output_name, g_free);
  g_clear_pointer (&job->eta, duel_run_eta_free);
  g_clear_pointer (&job->steps, duel_run_steps_free);
  g_clear_error (&job->save_error);
  if (job->stop_handler != 0)
    g_cancellable_disconnect (job->self_cancellable, job->stop_handler);
  g_clear_object (&job->self_cancellable);
  g_clear_object (&job->stop);
  g_free (job);
}

static void
publish_state (DuelRun      *self,
               DuelRunState  state)
{
  Event *event = g_new0 (Event, 1);

  event->kind = EVENT_STATE;
  event->state = state;
  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->shared.events, event);
  _duel_run_schedule_idle (self);
  g_mutex_unlock (&self->lock);
}

/* With @lock held: a test (or a discard, @record NULL) began. */
static void
publish_step (DuelRun        *self,
              DuelTestRecord *record,
              guint           index,
              guint           n_steps,
              const char     *name,
              const char     *section,
              double          fraction_done)
{
  Event *event = g_new0 (Event, 1);

  if (record != NULL && record != self->shared.record)
    {
      self->shared.record = record;
      self->shared.generation++;
      self->shared.workload = record->workload;
      self->shared.rows_copied = 0;
      g_array_set_size (self->shared.rows, 0);
      self->shared.latency_fresh = FALSE;
    }
  /* The last engine snapshot was the previous step's: the new step starts from nothing. */
  memset (&self->shared.progress, 0, sizeof self->shared.progress);
  g_free (self->shared.test_name);
  self->shared.test_name = g_strdup (name);
  g_free (self->shared.section);
  self->shared.section = g_strdup (section);
  self->shared.test_index = index;
  self->shared.n_tests = n_steps;

  event->kind = EVENT_STEP;
  event->index = index;
  event->n_steps = n_steps;
  event->fraction_done = fraction_done;
  event->name = g_strdup (name);
  g_queue_push_tail (&self->shared.events, event);
  _duel_run_schedule_idle (self);
}

/* With @lock held: the record is consistent (the engine is between
 * batches) and only this thread changes it. */
static void
publish_progress (DuelRun            *self,
                  const DuelProgress *progress,
                  DuelTestRecord     *record)
{
  if (progress != NULL)
    self->shared.progress = *progress;

  if (record != NULL && record == self->shared.record)
    {
      guint n_rows = duel_series_get_length (record->series);

      self->shared.span_length = record->span_length;
      self->shared.byte_limit = record->byte_limit;
      for (guint i = self->shared.rows_copied; i < n_rows; i++)
        g_array_append_vals (self->shared.rows, duel_series_get_row (record->series, i), 1);
      self->shared.rows_copied = n_rows;
      /* The latencies so far, for a live QoS chart: once per closed
       * interval (2 x 15 KiB), never per batch. */
      if (progress == NULL || progress->interval_closed)
        {
          for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
            self->shared.latency[d] = *record->latency[d];
          self->shared.latency_fresh = TRUE;
        }
    }
  _duel_run_schedule_idle (self);
}

/* With @lock held: the estimator's view, as of now. */
static void
publish_eta (DuelRun *self,
             Job     *job)
{
  gint64 now = g_get_monotonic_time ();

  self->shared.fraction_done = duel_run_eta_get_fraction (job->eta);
  self->shared.remaining_s = duel_run_eta_get_remaining_s (job->eta, now);
  if (!duel_run_eta_get_range (job->eta, now, &self->shared.remaining_low_s, &self->shared.remaining_high_s))
    self->shared.remaining_low_s = self->shared.remaining_high_s = NAN;
  self->shared.have_passes = duel_run_eta_get_passes (job->eta, now, &self->shared.passes);
  self->shared.remaining_at_us = now;
}

/* The estimator's plan: one entry per step, resolved against the target. */
static void
eta_add_step (Job                *job,
              const DuelWorkload *workload,
              double              expected_s)
{
  guint64 offset = 0, length = 0, byte_limit = 0;

  if (workload != NULL &&
      !duel_workload_resolve (workload, duel_target_get_size (job->target),
                              duel_target_get_logical_block_size (job->target),
                              &offset, &length, &byte_limit, NULL))
    byte_limit = 0;
  if (workload == NULL)
    length = duel_target_get_size (job->target);
  duel_run_eta_add_step (job->eta, workload, length, byte_limit, expected_s);
}

/* Engine thread, at each progress: a failed checkpoint stops the run (its
 * rows would no longer be kept), a warning of the checkpointer is passed on. */
static void
watch_checkpoints (Job *job)
{
  DuelRun *self = job->self;
  char *warning;

  if (job->checkpointer == NULL)
    return;
  if (duel_checkpointer_has_failed (job->checkpointer))
    g_cancellable_cancel (job->stop);
  /* Two syncs after the first rows were handed over, rows are on disk at
   * the result's path (the one between may have begun before): from then
   * on, should threads or memory run out, the last resort says they are kept. */
  if (job->rows_from_checkpoint > 0 && !job->rows_kept)
    {
      DuelCheckpointerStats stats;

      duel_checkpointer_get_stats (job->checkpointer, &stats);
      if (stats.checkpoints >= job->rows_from_checkpoint + 1)
        {
          duel_system_set_kept_result (job, self->result_path);
          job->rows_kept = TRUE;
        }
    }
  warning = duel_checkpointer_take_warning (job->checkpointer);
  if (warning != NULL)
    {
      Event *event = g_new0 (Event, 1);

      event->kind = EVENT_WARNING;
      event->name = warning;
      g_mutex_lock (&self->lock);
      g_queue_push_tail (&self->shared.events, event);
      _duel_run_schedule_idle (self);
      g_mutex_unlock (&self->lock);
    }
}

/* With @lock held, before the step's first I/O: until the owner's thread
 * has applied the snapshot that began it, or the run is stopped. The
 * slices only notice a stop (its handler cannot take @lock). */
static void
wait_until_step_seen (DuelRun *self,
                      Job     *job)
{
  guint step = ++self->shared.steps_published;

  while (self->shared.steps_seen < step && !g_cancellable_is_cancelled (job->stop))
    g_cond_wait_until (&self->step_seen_cond, &self->lock, g_get_monotonic_time () + 100 * G_TIME_SPAN_MILLISECOND);
}

static void
steps_progress_cb (const DuelRunStepsProgress *progress,
                   DuelTestRecord             *record,
                   gpointer                    user_data)
{
  Job *job = user_data;
  DuelRun *self = job->self;

  if (record != NULL && progress->engine != NULL && progress->engine->interval_closed)
    duel_run_context_annotate (job->run_context, record);
  /* A round that did not run: done, in no time. */
  if (progress->skipped)
    {
      duel_run_eta_step_finished (job->eta, progress->step_index, g_get_monotonic_time ());
      g_mutex_lock (&self->lock);
      if (progress->rounds != NULL)
        self->shared.rounds = *progress->rounds;
      publish_eta (self, job);
      g_mutex_unlock (&self->lock);
      return;
    }

  if (progress->engine == NULL && !progress->step_done)
    duel_run_eta_step_started (job->eta, progress->step_index, g_get_monotonic_time ());
  else if (progress->engine != NULL)
    duel_run_eta_update (job->eta, progress->step_index, progress->engine,
                         record != NULL ? record->series : NULL, g_get_monotonic_time ());
  else
    duel_run_eta_step_finished (job->eta, progress->step_index, g_get_monotonic_time ());

  g_mutex_lock (&self->lock);
  if (progress->engine == NULL && !progress->step_done)
    publish_step (self, record, progress->step_index, progress->n_steps,
                  progress->step->name, progress->step->section, duel_run_eta_get_fraction (job->eta));
  /* A round's figure and verdict, once per step's start and end. */
  if (progress->rounds != NULL && progress->engine == NULL)
    self->shared.rounds = *progress->rounds;
  publish_progress (self, progress->engine, record);
  publish_eta (self, job);
  if (self->show_every_step && progress->engine == NULL && !progress->step_done)
    wait_until_step_seen (self, job);
  g_mutex_unlock (&self->lock);
  watch_checkpoints (job);
}

static void
steps_checkpoint_cb (DuelResult *result,
                     gboolean    test_finished,
                     gpointer    user_data)
{
  Job *job = user_data;
  GPtrArray *tests = duel_result_get_tests (result);

  if (job->checkpointer == NULL)
    return;
  duel_checkpointer_update (job->checkpointer, result, test_finished);
  if (job->rows_from_checkpoint == 0 && tests->len > 0 &&
      duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (tests, tests->len - 1))->series) > 0)
    {
      DuelCheckpointerStats stats;

      duel_checkpointer_get_stats (job->checkpointer, &stats);
      job->rows_from_checkpoint = stats.checkpoints + 1;
    }
}

static gboolean
result_has_rows (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    if (duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (tests, i))->series) > 0)
      return TRUE;
  return FALSE;
}

static gboolean
plan_writes (DuelRun *self)
{
  return duel_preset_writes (self->plan);
}

/* Room for the result file: a timed plain run knows its rows; a preset or
 * a size-bounded run does not, and gets the default. */
static guint64
expected_result_room (DuelRun *self)
{
  guint64 rows = 0;

  if (duel_preset_get_name (self->plan) != NULL)
    return DUEL_PREFLIGHT_RESULT_ROOM;
  for (guint i = 0; i < duel_preset_get_n_steps (self->plan); i++)
    {
      const DuelWorkload *w = &duel_preset_get_step (self->plan, i)->workload;

      if (w->size_bytes > 0 || w->size_multiple > 0 || w->runtime_ms == 0)
        return DUEL_PREFLIGHT_RESULT_ROOM;
      rows += w->runtime_ms / MAX (w->interval_ms, 1u) + 1;
    }
  /* As rows of 1 ms intervals: the room counts rows, not time. */
  return duel_preflight_result_room (rows, 1);
}

/* Whether every step fits a target of @size bytes in @lbs-byte blocks:
 * block size, offset and span aligned, a limit of at least one block. Asked
 * when the target is open, before anything is written to it. */
static gboolean
plan_fits_cb (guint64    size,
              guint32    lbs,
              gpointer   user_data,
              GError   **error)
{
  DuelRun *self = user_data;

  return duel_preset_prepare_for_size (self->plan, size, lbs, self->target_path, error);
}

/* Everything before the first write: the result can be kept, the target
 * opens with the safety checks, the plan fits it, the first checkpoint is
 * on disk. */
static gboolean
prepare (Job     *job,
         GError **error)
{
  DuelRun *self = job->self;
  gboolean check_fd = FALSE;

  /* The target's safety first, then the result's path, which must be
   * neither the target nor on it: both write nothing. Then the lock, and
   * the probe of what the save will do beside the result; the target is
   * opened (a file created) only then. */
  if (self->open_mode == OPEN_WITH_SAFETY &&
      !duel_run_context_check (self->target_path, plan_writes (self), self->safety_flags, &check_fd, error))
    return FALSE;
  if (self->result_path != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      if (!duel_safety_check_output (self->result_path, self->target_path, plan_writes (self),
                                     self->overwrite_output, error))
        return FALSE;
      /* From here on every file of the result is named in this one folder. */
      job->output_folder = duel_folder_open_for_file (self->result_path, &job->output_name, &local_error);
      if (job->output_folder == NULL)
        {
          g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
          return FALSE;
        }
      job->output_lock = duel_output_lock_acquire (job->output_folder, job->output_name, self->result_path, error);
      if (job->output_lock == NULL ||
          !duel_preflight_output (job->output_folder, expected_result_room (self), error))
        return FALSE;
    }

  switch (self->open_mode)
    {
    case OPEN_WITH_SAFETY:
      job->run_context = duel_run_context_open (self->target_path, plan_writes (self), self->safety_flags,
                                                self->file_size, check_fd, plan_fits_cb, self, error);
      if (job->run_context == NULL)
        return FALSE;
      job->target = g_object_ref (duel_run_context_get_target (job->run_context));
      break;
    case OPEN_GIVEN:
    default:
      /* Opened by the caller, nothing written yet. */
      if (!duel_target_lock_fd (duel_target_get_fd (job->target), self->target_path, error) ||
          !plan_fits_cb (duel_target_get_size (job->target), duel_target_get_logical_block_size (job->target),
                         self, error))
        return FALSE;
      job->run_context = duel_run_context_new_for_target (job->target, self->thermometer);
      break;
    }

  job->eta = duel_run_eta_new ();
  duel_run_eta_set_flash (job->eta, duel_run_eta_device_is_flash (duel_run_context_get_device (job->run_context)));

  g_mutex_lock (&self->lock);
  self->shared.target_size = duel_target_get_size (job->target);
  self->shared.target_kind = duel_target_get_kind (job->target);
  g_mutex_unlock (&self->lock);

  if (!duel_preset_prepare (self->plan, job->target, error))
    return FALSE;
  job->steps = duel_run_steps_new (self->plan);

  job->result = duel_result_new ();
  if (self->name != NULL)
    duel_result_set_name (job->result, self->name);
  duel_run_context_fill_result (job->run_context, job->result);
  /* The first save already names the first test: a file caught by a
   * crash in the first instants says what ran. */
  duel_run_steps_begin (job->steps, job->result);

  if (self->result_path != NULL)
    {
      DuelWriteFlags flags = DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_HINT_OVERWRITE;

      if (self->overwrite_output)
        flags |= DUEL_WRITE_REPLACE_ANY;
      job->checkpointer = duel_checkpointer_new_in (job->output_folder, job->output_name, flags);
      if (!duel_checkpointer_start (job->checkpointer, job->result, error))
        return FALSE;
    }
  return TRUE;
}

/* Whether the plan fills with random writes, whose rate a probe foretells
 * (a sequential preconditioning's is not). */
static gboolean
plan_fills_randomly (DuelPreset *preset)
{
  for (guint i = 0; i < duel_preset_get_n_steps (preset); i++)
    if (duel_preset_step_is_random_fill (duel_preset_get_step (preset, i)))
      return TRUE;
  return FALSE;
}

/* One loop for every plan: a preset's steps and a plain run's workloads
 * alike run through duel_run_steps_run(), each summarised when it ends. */
static gboolean
run_plan (Job           *job,
          GCancellable  *cancellable,
          GError       **error)
{
  DuelRun *self = job->self;
  DuelPresetEstimate estimate;
  guint64 probe_ms = plan_fills_randomly (self->plan) ? self->probe_ms : 0;

  if (probe_ms > 0)
    publish_state (self, DUEL_RUN_STATE_PROBING);
  if (!duel_run_steps_estimate (job->steps, job->target, probe_ms, cancellable, &estimate, error))
    return FALSE;

  /* The plan with the weights the estimate gave, the probe, the drive's
   * kind; a size-bounded workload's time is known once it runs. */
  for (guint i = 0; i < duel_preset_get_n_steps (self->plan); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (self->plan, i);

      eta_add_step (job, step->kind == DUEL_PRESET_STEP_DISCARD ? NULL : &step->workload,
                    duel_run_steps_get_weight (job->steps, i));
      if (step->optional)
        duel_run_eta_set_optional (job->eta, i);
    }
  duel_run_eta_set_probe (job->eta, estimate.probe_write_iops, estimate.probe_end_write_iops, estimate.probe_ms,
                          estimate.probe_fall_bytes);

  /* A preset's estimate is shown before it runs; a plain run's is its own
   * durations, which the caller already knows. */
  if (duel_preset_get_name (self->plan) != NULL)
    {
      g_mutex_lock (&self->lock);
      self->shared.have_estimate = TRUE;
      self->shared.estimate = estimate;
      g_mutex_unlock (&self->lock);
    }
  publish_state (self, DUEL_RUN_STATE_RUNNING);

  /* The steps call back in this thread; the job outlives them. */
  duel_run_steps_set_callbacks (job->steps, steps_progress_cb, steps_checkpoint_cb, job);
  return duel_run_steps_run (job->steps, job->target, job->result, cancellable, error);
}

/* A run stopped short of a finished result did not replace it: where
 * this one went instead, said once. */
static void
warn_if_kept_aside (Job *job)
{
  DuelRun *self = job->self;
  const char *kept = duel_checkpointer_get_kept_name (job->checkpointer);
  Event *event;

  if (kept == NULL)
    return;
  event = g_new0 (Event, 1);
  event->kind = EVENT_WARNING;
  {
    g_autofree char *shown = duel_folder_dup_display (job->output_folder, kept);

    /* TRANSLATORS: the result file given, then the file this run was saved to */
    event->name = g_strdup_printf (_("“%s” holds a finished run with more rows than this one measured, so it was "
                                     "kept; this run was saved as “%s”."), self->result_path, shown);
  }
  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->shared.events, event);
  _duel_run_schedule_idle (self);
  g_mutex_unlock (&self->lock);
}

void
_duel_run_cancel_stop_cb (GCancellable *cancellable,
                          gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/* A run the system stopped (no thread, no memory) that saved rows says so,
 * in the same sentence. */
static void
say_kept (Job     *job,
          GError **error)
{
  DuelRun *self = job->self;
  g_autofree char *display = NULL;
  g_autofree char *cause = NULL;
  GError *kept;
  gsize length;

  if (!g_error_matches (*error, DUEL_ERROR, DUEL_ERROR_SYSTEM) || self->result_path == NULL ||
      job->result == NULL || !result_has_rows (job->result))
    return;
  display = g_filename_display_name (self->result_path);
  cause = g_strdup ((*error)->message);
  length = strlen (cause);
  if (length > 0 && cause[length - 1] == '.')
    cause[length - 1] = '\0';
  /* TRANSLATORS: a sentence without its full stop (the system ran out of
   * threads), then the result file */
  kept = g_error_new (DUEL_ERROR, DUEL_ERROR_SYSTEM, _("%s; what was measured up to then is kept in “%s”."),
                      cause, display);
  g_clear_error (error);
  *error = kept;
}

/* Objects kept to the end of the process on purpose (a target with I/O
 * the kernel still holds): held here, so that they are not lost, only
 * never released. */
static void
keep_for_good (gpointer object)
{
  static GMutex lock;
  static GPtrArray *kept;

  g_mutex_lock (&lock);
  if (kept == NULL)
    kept = g_ptr_array_new ();
  g_ptr_array_add (kept, g_object_ref (object));
  g_mutex_unlock (&lock);
}

void
_duel_run_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Job *job = task_data;
  DuelRun *self = job->self;
  GError *error = NULL;
  gboolean ok;

  publish_state (self, DUEL_RUN_STATE_PREPARING);
  if (!prepare (job, &error))
    {
      /* Nothing ran: no result to keep. */
      g_clear_object (&job->result);
      g_clear_pointer (&job->output_lock, duel_output_lock_release);
      g_task_return_error (task, error);
      return;
    }

  ok = duel_run_context_start (job->run_context, &error) &&
       run_plan (job, job->stop, &error);

  /* I/O given up on is still the kernel's: the target, which may not answer
   * anything, is not asked for its health, not marked, and not closed
   * (a FUSE file's close waits for its server): kept open for good. */
  if (duel_engine_get_abandoned (job->stop) > 0)
    {
      keep_for_good (job->run_context);
      keep_for_good (job->target);
      duel_run_context_fill_result (job->run_context, job->result);
    }
  else
    {
      /* Health after, with the deltas (data written, peak temperature, throttling). */
      duel_run_context_finish (job->run_context, job->result);
      duel_target_finish_writing (job->target);
    }

  /* The final save; a stopped or failed run keeps what it measured. */
  if (job->checkpointer != NULL)
    {
      DuelCheckpointerStats stats;

      duel_checkpointer_get_stats (job->checkpointer, &stats);
      /* G_MESSAGES_DEBUG=DriveDuel shows what checkpoints cost the engine thread. */
      g_debug ("Checkpoints: %" G_GUINT64_FORMAT " updates on the engine thread, mean %.1f µs, "
               "longest %.1f µs; %" G_GUINT64_FORMAT " journal syncs, %" G_GUINT64_FORMAT
               " compactions (longest %.1f ms, off the engine thread), %" G_GUINT64_FORMAT " errors",
               stats.updates, stats.updates ? stats.update_total_ns / 1e3 / stats.updates : 0.0,
               stats.update_max_ns / 1e3, stats.checkpoints, stats.compactions,
               stats.compaction_max_ns / 1e6, stats.errors);
      /* Unless the run failed on its own first (then both are said). */
      if (duel_checkpointer_has_failed (job->checkpointer) &&
          (ok || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
        {
          g_autoptr(GError) cause = duel_checkpointer_dup_error (job->checkpointer);
          g_autofree char *display = g_filename_display_name (self->result_path);
          GPtrArray *tests = duel_result_get_tests (job->result);

          /* Stopped for it: that, not a cancel, is why, in the file too. */
          g_clear_error (&error);
          if (duel_folder_is_removed (job->output_folder))
            {
              g_autofree char *folder = g_filename_display_name (duel_folder_get_path (job->output_folder));

              /* Nothing is kept there: no sentence may say otherwise. */
              /* TRANSLATORS: the result's folder */
              error = g_error_new (DUEL_ERROR, DUEL_ERROR_IO,
                                   _("The run stopped because the folder of its result, %s, was removed "
                                     "during the run; nothing of it could be kept there."), folder);
            }
          else
            /* TRANSLATORS: the result file, then the reason (ends without a full stop) */
            error = g_error_new (DUEL_ERROR, DUEL_ERROR_IO,
                                 _("The run stopped because a checkpoint of %s failed (%s); "
                                   "the rows up to the last checkpoint are kept."),
                                 display, cause->message);
          ok = FALSE;
          for (guint i = 0; i < tests->len; i++)
            {
              DuelTestRecord *record = g_ptr_array_index (tests, i);

              if (record->status != DUEL_TEST_STATUS_CANCELLED)
                continue;
              record->status = DUEL_TEST_STATUS_FAILED;
              g_free (record->error_message);
              record->error_message = g_strdup (error->message);
            }
          /* The final save's own failure (the same full disk) says no more. */
          duel_checkpointer_finish (job->checkpointer, job->result, NULL);
          job->save_error = g_error_copy (error);
        }
      else
        duel_checkpointer_finish (job->checkpointer, job->result, &job->save_error);
      /* Stopped or failed before the first test: a file with nothing
       * measured would only clutter the history. */
      if (duel_result_get_tests (job->result)->len == 0 && job->save_error == NULL)
        duel_checkpointer_discard (job->checkpointer);
      warn_if_kept_aside (job);
    }
  /* Here, not when the job is freed: the process may exit before that. */
  g_clear_pointer (&job->output_lock, duel_output_lock_release);
  duel_system_set_kept_result (job, NULL);

  if (ok && job->save_error != NULL)
    {
      ok = FALSE;
      error = g_error_copy (job->save_error);
    }
  else if (!ok && job->save_error == NULL)
    say_kept (job, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}
