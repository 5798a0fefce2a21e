/* duel-run-steps.c — the loop that runs a plan's steps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <linux/fs.h>
#include <math.h>
#include <string.h>
#include <sys/ioctl.h>

#include "device/duel-device-nvme.h"
#include "duel-error.h"
#include "duel-json.h"
#include "duel-probe.h"
#include "duel-run-steps.h"

struct _DuelRunSteps
{
  DuelPreset               *plan;
  DuelPresetEstimate        estimate;     /* the probe's figures stay NAN until estimated */
  DuelTestRecord           *first_record; /* begin()'s, until its step runs */
  DuelRunStepsProgressFunc  progress_func;
  DuelRunStepsCheckpointFunc checkpoint_func;
  gpointer                  user_data;
};

DuelRunSteps *
duel_run_steps_new (DuelPreset *plan)
{
  DuelRunSteps *self;

  g_return_val_if_fail (DUEL_IS_PRESET (plan), NULL);

  self = g_new0 (DuelRunSteps, 1);
  self->plan = g_object_ref (plan);
  self->estimate.probe_write_iops = NAN;
  self->estimate.probe_end_write_iops = NAN;
  return self;
}

void
duel_run_steps_free (DuelRunSteps *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->first_record, duel_test_record_unref);
  g_clear_object (&self->plan);
  g_free (self);
}

void
duel_run_steps_set_callbacks (DuelRunSteps               *self,
                              DuelRunStepsProgressFunc    progress,
                              DuelRunStepsCheckpointFunc  checkpoint,
                              gpointer                    user_data)
{
  g_return_if_fail (self != NULL);

  self->progress_func = progress;
  self->checkpoint_func = checkpoint;
  self->user_data = user_data;
}

gboolean
duel_run_steps_estimate (DuelRunSteps        *self,
                         DuelTarget          *target,
                         guint64              probe_ms,
                         GCancellable        *cancellable,
                         DuelPresetEstimate  *out,
                         GError             **error)
{
  DuelPresetEstimate empty;
  DuelProbeResult probe;
  gboolean random_fill = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (DUEL_IS_TARGET (target), FALSE);

  if (!duel_preset_prepare (self->plan, target, error))
    return FALSE;
  duel_preset_estimate_from_probe (self->plan, NULL, &empty);
  /* Only a fill with random writes is foretold by the probe's. */
  for (guint i = 0; i < duel_preset_get_n_steps (self->plan); i++)
    random_fill |= duel_preset_step_is_random_fill (duel_preset_get_step (self->plan, i));
  if (random_fill && probe_ms > 0)
    {
      if (!duel_probe_run (target, empty.span_bytes, probe_ms, cancellable, &probe, error))
        return FALSE;
      duel_preset_estimate_from_probe (self->plan, &probe, &self->estimate);
    }
  else
    self->estimate = empty;
  if (out != NULL)
    *out = self->estimate;
  return TRUE;
}

double
duel_run_steps_get_weight (DuelRunSteps *self,
                           guint         index)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (index < duel_preset_get_n_steps (self->plan), 0);

  return duel_preset_step_weight (self->plan, duel_preset_get_step (self->plan, index), &self->estimate);
}

typedef struct
{
  DuelRunSteps *self;
  DuelResult   *result;
  guint         index;
  double      weight_before;   /* of the steps already done */
  double      weight_total;
  /* A step whose record decides its analysis (a plain run, a chosen
   * workload): the kind its record names now. */
  gboolean    guessing;
  DuelAnalysisKind guessed;
  /* A test in rounds: the tracked figure of each round so far, and the
   * test whose rounds were found steady (its optional rounds are skipped). */
  DuelRunRounds         rounds;
  const DuelReviewTest *steady_test;
  /* Recovery after idle: what its bursts are measured against, and how
   * long the last idle lasted. */
  DuelRecoveryReference recovery;
  guint64     idle_done_ms;
  /* A write until its rate falls (DuelReviewStep.until_fall_share): the ratio
   * that is a fall, and the step's own stop, cancelled once one is
   * confirmed; NULL for any other step. */
  double        fall_factor;
  GCancellable *fall_stop;
  gboolean      fell;
} RunState;

static void
emit_progress (RunState           *state,
               const DuelProgress *engine,
               gboolean            step_done,
               DuelTestRecord     *record)
{
  DuelRunSteps *self = state->self;
  const DuelPresetStep *step = duel_preset_get_step (self->plan, state->index);
  DuelRunStepsProgress progress = {
    .step_index = state->index,
    .n_steps = duel_preset_get_n_steps (self->plan),
    .step = step,
    .engine = engine,
    .step_done = step_done,
    .rounds = step->round > 0 ? &state->rounds : NULL,
  };
  double within = step_done ? 1.0 : engine != NULL ? CLAMP (engine->fraction_done, 0, 1) : 0;

  if (self->progress_func == NULL)
    return;
  progress.fraction_done = state->weight_total > 0
    ? CLAMP ((state->weight_before + within * duel_run_steps_get_weight (self, state->index)) / state->weight_total, 0, 1)
    : 0;
  self->progress_func (&progress, record, self->user_data);
}

/* No I/O for the step's idle_ms: the drive rests (recovery after idle).
 * A countdown once a second; a stop is heard at once. */
static gboolean
rest (RunState      *state,
      guint64        idle_ms,
      GCancellable  *cancellable,
      GError       **error)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + (gint64) idle_ms * 1000;
  GPollFD poll_fd = { .fd = -1 };
  gboolean can_poll = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &poll_fd);

  for (gint64 now = start; now < end; now = g_get_monotonic_time ())
    {
      DuelProgress countdown = {
        .elapsed_ns = (guint64) (now - start) * 1000,
        .runtime_limit_ns = idle_ms * 1000000,
        .fraction_done = (double) (now - start) / (double) (end - start),
      };
      gint64 wait_us = MIN (end - now, G_USEC_PER_SEC);

      emit_progress (state, &countdown, FALSE, NULL);
      if (can_poll)
        g_poll (&poll_fd, 1, (int) ((wait_us + 999) / 1000));
      else
        g_usleep ((gulong) wait_us);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          if (can_poll)
            g_cancellable_release_fd (cancellable);
          return FALSE;
        }
    }
  if (can_poll)
    g_cancellable_release_fd (cancellable);
  state->idle_done_ms = (guint64) (g_get_monotonic_time () - start) / 1000;
  return TRUE;
}

/* The span discarded a piece at a time, so that a stop is heard between
 * two: one discard of a whole drive (or of a file on some filesystems) can
 * take minutes, and a stop during it waited for all of it. */
#define DISCARD_PIECE_BYTES (G_GUINT64_CONSTANT (256) << 20)

static gboolean
discard_in_pieces (DuelTarget    *target,
                   guint64        offset,
                   guint64        length,
                   GCancellable  *cancellable,
                   GError       **error)
{
  guint64 block = MAX (duel_target_get_logical_block_size (target), 1);
  guint64 piece = DISCARD_PIECE_BYTES - DISCARD_PIECE_BYTES % block;

  if (length == 0)
    return duel_target_discard (target, offset, 0, error);
  for (guint64 done = 0; done < length; done += MIN (piece, length - done))
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!duel_target_discard (target, offset + done, MIN (piece, length - done), error))
        return FALSE;
    }
  return TRUE;
}

/* SNIA's purge of a whole NVMe namespace: Format NVM with user data erase.
 * FALSE where it does not apply (a file, a part of the drive, not NVMe)
 * or the drive refused it, @out_refused then saying why (NULL: it did
 * not apply); the caller trims instead. */
static gboolean
purge_by_format (DuelTarget  *target,
                 guint64      span,
                 char       **out_refused)
{
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  g_autoptr(GError) local_error = NULL;

  *out_refused = NULL;
  if (duel_target_get_kind (target) != DUEL_TARGET_KIND_BLOCK || span != duel_target_get_size (target))
    return FALSE;
  nvme = duel_device_nvme_open_fd (duel_target_get_path (target), duel_target_get_fd (target), NULL);
  if (nvme == NULL || duel_device_nvme_get_nsid (nvme) == 0)
    return FALSE;
  if (!duel_device_nvme_format_erase (nvme, &local_error))
    {
      *out_refused = g_strdup (local_error->message);
      return FALSE;
    }
  /* The page cache still holds what the format erased. */
  if (ioctl (duel_target_get_fd (target), BLKFLSBUF, 0) != 0)
    g_debug ("Flushing the buffers of %s after its format failed: %s", duel_target_get_path (target),
             g_strerror (errno));
  return TRUE;
}

/* A step whose finished record decides its analysis names, at every
 * checkpoint, the one the record fits so far: a run killed after its
 * second row is read as what it was (a mix with rows over time is a
 * consistency run), not as the guess made before it had rows (issue 34:
 * a killed 50/50 mix was analysed as QoS). A new summary object, not the
 * old one changed: the checkpointer notices a change by its pointer. */
static void
follow_guess (RunState       *state,
              DuelTestRecord *record)
{
  DuelAnalysisKind kind = duel_analysis_guess (record);
  JsonObject *old;

  if (kind == state->guessed)
    return;
  state->guessed = kind;
  old = g_steal_pointer (&record->summary);
  if (old != NULL)
    record->summary = duel_json_object_copy_writable (old);
  json_object_set_string_member (duel_test_record_get_details (record), "analysis",
                                 duel_analysis_kind_to_string (kind));
  g_clear_pointer (&old, json_object_unref);
}

static void
engine_progress_cb (const DuelProgress *progress,
                    DuelTestRecord     *record,
                    gpointer            user_data)
{
  RunState *state = user_data;

  emit_progress (state, progress, FALSE, record);
  if (progress->interval_closed && state->guessing)
    follow_guess (state, record);
  /* In the engine's thread, as the probe's watch: the rows are its own. */
  if (progress->interval_closed && state->fall_stop != NULL && !state->fell)
    {
      gboolean confirmed = FALSE;

      if (duel_analysis_rate_fall (record->series, state->fall_factor, NULL, &confirmed) && confirmed)
        {
          state->fell = TRUE;
          g_cancellable_cancel (state->fall_stop);
        }
    }
  if (progress->interval_closed && state->self->checkpoint_func != NULL)
    state->self->checkpoint_func (state->result, FALSE, state->self->user_data);
}

/* @record's write until its rate falls by a fall (fall_min_drop), or its
 * share of the span or its time runs out. Ended by its own rule it is
 * complete, as a write that reached its size is; the person's stop still
 * cancels it. */
static gboolean
run_until_fall (RunState                 *state,
                DuelTarget               *target,
                DuelTestRecord           *record,
                GCancellable             *cancellable,
                const DuelAnalysisParams *params,
                GError                  **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  state->fall_factor = 1 / (1 - params->fall_min_drop);
  state->fall_stop = duel_engine_own_stop_new (cancellable);
  state->fell = FALSE;
  ok = duel_engine_run (target, record, state->fall_stop, engine_progress_cb, state, &local_error);
  g_clear_pointer (&state->fall_stop, duel_engine_own_stop_free);

  if (!ok && state->fell && !g_cancellable_is_cancelled (cancellable) &&
      g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      record->status = DUEL_TEST_STATUS_COMPLETE;
      return TRUE;
    }
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}

/* Step @state->index does not run: the rounds before it were steady. */
static void
skip_step (RunState *state)
{
  DuelRunSteps *self = state->self;
  DuelRunStepsProgress progress = {
    .step_index = state->index,
    .n_steps = duel_preset_get_n_steps (self->plan),
    .step = duel_preset_get_step (self->plan, state->index),
    .step_done = TRUE,
    .skipped = TRUE,
    .rounds = &state->rounds,
  };

  if (self->progress_func == NULL)
    return;
  progress.fraction_done = state->weight_total > 0
    ? CLAMP ((state->weight_before + duel_run_steps_get_weight (self, state->index)) / state->weight_total, 0, 1)
    : 0;
  self->progress_func (&progress, NULL, self->user_data);
}

/* After each step of a test in rounds: the tracked cell's figure is kept,
 * and at the end of each round from the window's length on, the last
 * window of rounds is held to SNIA's limits; once it passes, the test's
 * optional rounds are skipped. */
static void
follow_rounds (RunState             *state,
               const DuelPresetStep *step,
               DuelTestRecord       *record)
{
  const DuelReviewRounds *rounds = duel_preset_get_rounds (state->self->plan, step->test);
  DuelRunRounds *seen = &state->rounds;
  const DuelPresetStep *next = NULL;
  DuelSteadyStateWindow window;
  double value;

  if (g_strcmp0 (step->name, rounds->tracked_step) == 0 && seen->n_rounds < G_N_ELEMENTS (seen->tracked))
    {
      /* A cell that measured nothing is no steady state: NAN fails the window. */
      if (!duel_test_record_get_figure (record, rounds->tracked_key, &value))
        value = NAN;
      seen->tracked[seen->n_rounds++] = value;
    }
  if (state->index + 1 < duel_preset_get_n_steps (state->self->plan))
    next = duel_preset_get_step (state->self->plan, state->index + 1);
  /* Not the round's last cell yet. */
  if (next != NULL && next->test == step->test && next->round == step->round)
    return;
  if (seen->n_rounds < rounds->window)
    return;
  duel_analysis_steady_state_window (seen->tracked, seen->n_rounds, seen->n_rounds - rounds->window,
                                     rounds->window, rounds->data_limit, rounds->slope_limit, &window);
  seen->judged = TRUE;
  seen->steady = window.steady;
  seen->window_first = seen->n_rounds - rounds->window + 1;
  seen->window_last = seen->n_rounds;
  if (window.steady)
    state->steady_test = step->test;
}

/* A new record of @step, in @result. */
static DuelTestRecord *
add_step_record (DuelRunSteps         *self,
                 DuelResult           *result,
                 const DuelPresetStep *step)
{
  DuelTestRecord *record = duel_test_record_new (step->name, &step->workload);

  record->preset = g_strdup (duel_preset_get_name (self->plan));
  duel_result_add_test (result, record);
  return record;
}

/* The record of @step: the one duel_run_steps_begin() already put in the
 * result, or a new one. */
static DuelTestRecord *
take_step_record (DuelRunSteps         *self,
                  DuelResult           *result,
                  const DuelPresetStep *step)
{
  if (self->first_record != NULL && g_strcmp0 (self->first_record->name, step->name) == 0)
    return g_steal_pointer (&self->first_record);
  return add_step_record (self, result, step);
}

void
duel_run_steps_begin (DuelRunSteps *self,
                      DuelResult   *result)
{
  const DuelPresetStep *step;

  g_return_if_fail (self != NULL);
  g_return_if_fail (DUEL_IS_RESULT (result));

  g_clear_pointer (&self->first_record, duel_test_record_unref);
  if (duel_preset_get_n_steps (self->plan) == 0)
    return;
  step = duel_preset_get_step (self->plan, 0);
  if (step->kind != DUEL_PRESET_STEP_TEST)
    return;
  self->first_record = add_step_record (self, result, step);
}

gboolean
duel_run_steps_run (DuelRunSteps  *self,
                    DuelTarget    *target,
                    DuelResult    *result,
                    GCancellable  *cancellable,
                    GError       **error)
{
  const DuelAnalysisParams *params;
  const char *preset_name;
  RunState state = { 0 };
  gboolean trimmed = FALSE;
  const char *purge_method = NULL;
  g_autofree char *purge_refused = NULL;
  guint64 span;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (DUEL_IS_TARGET (target), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!duel_preset_prepare (self->plan, target, error))
    return FALSE;
  preset_name = duel_preset_get_name (self->plan);
  params = duel_preset_get_analysis_params (self->plan);
  span = duel_preset_get_span_bytes (self->plan);
  /* A plain plan's writes are refused by the engine, in its words. */
  if (preset_name != NULL && !duel_target_is_writable (target))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” was opened read-only, but the preset “%s” writes."),
                   duel_target_get_path (target), preset_name);
      return FALSE;
    }

  state.self = self;
  state.result = result;
  duel_recovery_reference_init (&state.recovery);
  for (guint i = 0; i < duel_preset_get_n_steps (self->plan); i++)
    state.weight_total += duel_run_steps_get_weight (self, i);

  for (guint i = 0; i < duel_preset_get_n_steps (self->plan); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (self->plan, i);
      g_autoptr(DuelTestRecord) record = NULL;
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind;
      g_autoptr(GError) local_error = NULL;
      gboolean ok;

      state.index = i;
      /* A test in rounds starts from no round. */
      if (step->round > 0 && step->test != state.rounds.test)
        {
          memset (&state.rounds, 0, sizeof state.rounds);
          state.rounds.test = step->test;
        }
      /* The rounds were steady: the rest of them do not run. */
      if (step->optional && step->test == state.steady_test)
        {
          skip_step (&state);
          state.weight_before += duel_run_steps_get_weight (self, i);
          continue;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (step->kind == DUEL_PRESET_STEP_DISCARD)
        {
          emit_progress (&state, NULL, FALSE, NULL);
          g_clear_pointer (&purge_refused, g_free);
          if (step->test != NULL && step->test->purge_first && purge_by_format (target, span, &purge_refused))
            purge_method = "nvme-format";
          else if (!discard_in_pieces (target, 0, span, cancellable, error))
            return FALSE;
          else
            purge_method = duel_target_get_kind (target) == DUEL_TARGET_KIND_BLOCK ? "BLKDISCARD" : "punch-hole";
          trimmed = TRUE;
          emit_progress (&state, NULL, TRUE, NULL);
          state.weight_before += duel_run_steps_get_weight (self, i);
          continue;
        }

      if (step->kind == DUEL_PRESET_STEP_IDLE)
        {
          emit_progress (&state, NULL, FALSE, NULL);
          if (!rest (&state, step->idle_ms, cancellable, error))
            return FALSE;
          emit_progress (&state, NULL, TRUE, NULL);
          state.weight_before += duel_run_steps_get_weight (self, i);
          continue;
        }

      record = take_step_record (self, result, step);
      duel_preset_describe_record (self->plan, step, record);
      if (step->idle_ms > 0)
        duel_recovery_note_idle (record, &state.recovery, step->idle_ms, state.idle_done_ms);
      state.guessing = step->info == NULL || step->info->chosen;
      state.guessed = step->analysis;
      if (duel_preset_step_is_fill (step))
        {
          JsonObject *details = duel_test_record_get_details (record);
          JsonObject *discard = json_object_new ();

          record->trimmed = trimmed;
          json_object_set_boolean_member (discard, "done", trimmed);
          json_object_set_string_member (discard, "method", !trimmed ? "none" : purge_method);
          /* A purge the drive refused, and the trim that stood in for it. */
          if (trimmed && purge_refused != NULL)
            json_object_set_string_member (discard, "format_refused", purge_refused);
          json_object_set_int_member (discard, "offset", 0);
          json_object_set_int_member (discard, "length", (gint64) span);
          json_object_set_object_member (details, "discard", discard);
          /* What the time left was estimated from, so a replay sees it too. */
          if (isfinite (self->estimate.probe_write_iops))
            {
              JsonObject *probe = json_object_new ();

              json_object_set_int_member (probe, "runtime_ms", (gint64) self->estimate.probe_ms);
              json_object_set_double_member (probe, "write_iops", self->estimate.probe_write_iops);
              if (isfinite (self->estimate.probe_end_write_iops))
                json_object_set_double_member (probe, "end_write_iops", self->estimate.probe_end_write_iops);
              else
                json_object_set_null_member (probe, "end_write_iops");
              /* Where its rate fell (a write cache ran out), null: it did not. */
              if (self->estimate.probe_fell)
                json_object_set_int_member (probe, "fall_bytes", (gint64) self->estimate.probe_fall_bytes);
              else
                json_object_set_null_member (probe, "fall_bytes");
              json_object_set_object_member (details, "probe", probe);
            }
        }
      /* Saved before it runs: a file caught by a crash names its test. */
      if (self->checkpoint_func != NULL)
        self->checkpoint_func (result, TRUE, self->user_data);

      emit_progress (&state, NULL, FALSE, record);
      if (step->info != NULL && step->info->until_fall_share > 0)
        ok = run_until_fall (&state, target, record, cancellable, params, &local_error);
      else
        ok = duel_engine_run (target, record, cancellable, engine_progress_cb, &state, &local_error);

      /* What was measured is summarised even when the run stopped early; a
       * chosen workload by the analysis the finished record fits (a mix
       * with rows over time is a consistency run, as an import's is). */
      kind = step->info == NULL || step->info->chosen ? duel_analysis_guess (record) : step->analysis;
      summary = duel_analysis_summarize (record, kind, params);
      duel_analysis_apply (record, kind, params, summary);
      if (self->checkpoint_func != NULL)
        self->checkpoint_func (result, TRUE, self->user_data);
      /* The round's figure and verdict go with the step's end: the
       * last round's too, after which no step begins. */
      if (ok && step->round > 0)
        follow_rounds (&state, step, record);
      if (ok)
        duel_recovery_reference_take (&state.recovery, record);
      emit_progress (&state, NULL, TRUE, record);

      if (!ok)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      state.weight_before += duel_run_steps_get_weight (self, i);
    }

  return TRUE;
}
