/* duel-run-task.c — one run in a GTask worker thread
 *
 * Threads: the worker owns the target, the result and the engine's records
 * while it runs. The engine's progress callback (worker thread) copies the new
 * series rows and the snapshot under a mutex and schedules at most one idle in
 * the main context; the idle moves them into main-thread copies and emits
 * "progress". The worker never touches widgets or anything the UI owns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-device-thermometer.h"
#include "duel-error.h"
#include "duel-run-context.h"
#include "duel-run-task.h"

#define CHECKPOINT_INTERVAL_US (5 * G_TIME_SPAN_SECOND)
/* A preset with a fill first times a short write probe, as the CLI does, so
 * the progress and the ETA weigh the fill by the drive's real pace. */
#define PROBE_MS               2000

typedef struct
{
  char         *name;
  DuelWorkload  workload;
} Step;

struct _DuelRunTask
{
  GObject              parent_instance;

  /* Set up before the run, read-only in the worker. */
  char                *target_path;
  char                *result_path;
  char                *name;
  DuelTargetOpenFlags  open_flags;
  guint64              create_size;
  DuelTarget          *target;
  GArray              *steps;           /* Step */
  DuelPreset          *preset;
  DuelDeviceThermometer *thermometer;   /* polls in its own thread; read anywhere */

  /* Main thread. */
  GMainContext        *context;
  GCancellable        *cancellable;
  DuelResult          *result;          /* after the run */
  DuelResult          *live_result;
  DuelTestRecord      *live_record;
  DuelRunStatus        status;
  char                *status_test_name;
  char                *status_section;
  guint                live_generation;
  gboolean             running;

  /* Shared between the worker and the main thread, under @lock. */
  GMutex               lock;
  struct {
    DuelProgress       progress;
    DuelTestRecord    *record;          /* identity only: the engine's running record */
    guint              generation;      /* bumped when a new test starts */
    guint              test_index;
    guint              n_tests;
    double             fraction_done;   /* of the whole preset; < 0 for plain runs */
    char              *test_name;
    char              *section;
    DuelWorkload       workload;
    guint64            span_length;
    guint64            byte_limit;
    guint64            target_size;
    DuelTargetKind     target_kind;
    gboolean           probing;
    GArray            *rows;            /* DuelSeriesRow not yet seen by the main thread */
    guint              rows_copied;     /* rows of @record already copied */
    GSource           *idle;            /* at most one pending */
  } shared;

  /* Worker only. */
  gint64               last_checkpoint_us;

  gint64               start_us;        /* main thread */
};

G_DEFINE_FINAL_TYPE (DuelRunTask, duel_run_task, G_TYPE_OBJECT)

enum {
  PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
step_clear (gpointer data)
{
  Step *step = data;
  g_clear_pointer (&step->name, g_free);
}

static void
duel_run_task_dispose (GObject *object)
{
  DuelRunTask *self = DUEL_RUN_TASK (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (duel_run_task_parent_class)->dispose (object);
}

static void
duel_run_task_finalize (GObject *object)
{
  DuelRunTask *self = DUEL_RUN_TASK (object);

  g_assert (self->shared.idle == NULL);

  g_clear_pointer (&self->target_path, g_free);
  g_clear_pointer (&self->result_path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_object (&self->thermometer);
  g_clear_object (&self->target);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->result);
  g_clear_object (&self->live_result);
  g_clear_pointer (&self->live_record, duel_test_record_unref);
  g_clear_object (&self->preset);
  g_clear_pointer (&self->status_test_name, g_free);
  g_clear_pointer (&self->status_section, g_free);
  g_clear_pointer (&self->shared.test_name, g_free);
  g_clear_pointer (&self->shared.section, g_free);
  g_clear_pointer (&self->shared.rows, g_array_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (duel_run_task_parent_class)->finalize (object);
}

static void
duel_run_task_class_init (DuelRunTaskClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = duel_run_task_dispose;
  object_class->finalize = duel_run_task_finalize;

  /**
   * DuelRunTask::progress:
   *
   * Emitted in the main thread, at most once per idle, when the engine
   * reported progress; read duel_run_task_get_status() and the live record.
   */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
duel_run_task_init (DuelRunTask *self)
{
  g_mutex_init (&self->lock);
  self->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  g_array_set_clear_func (self->steps, step_clear);
  self->shared.rows = g_array_new (FALSE, FALSE, sizeof (DuelSeriesRow));
  self->status.eta_seconds = -1;
  self->status.temperature_c = NAN;
  self->shared.fraction_done = -1;
}

DuelRunTask *
duel_run_task_new (const char *target_path,
                   const char *result_path)
{
  DuelRunTask *self;

  g_return_val_if_fail (target_path != NULL, NULL);
  g_return_val_if_fail (result_path != NULL, NULL);

  self = g_object_new (DUEL_TYPE_RUN_TASK, NULL);
  self->target_path = g_strdup (target_path);
  self->result_path = g_strdup (result_path);
  return self;
}

void
duel_run_task_set_open_flags (DuelRunTask         *self,
                              DuelTargetOpenFlags  flags,
                              guint64              create_size)
{
  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);

  self->open_flags = flags;
  self->create_size = create_size;
}

void
duel_run_task_set_target (DuelRunTask *self,
                          DuelTarget  *target)
{
  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);

  g_set_object (&self->target, target);
}

void
duel_run_task_set_name (DuelRunTask *self,
                        const char  *name)
{
  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);

  g_free (self->name);
  self->name = g_strdup (name);
}

void
duel_run_task_add_workload (DuelRunTask        *self,
                            const char         *test_name,
                            const DuelWorkload *workload)
{
  Step step;

  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);
  g_return_if_fail (workload != NULL);

  step.name = g_strdup (test_name != NULL ? test_name : duel_workload_get_rw_name (workload));
  step.workload = *workload;
  g_array_append_val (self->steps, step);
}

void
duel_run_task_set_preset (DuelRunTask *self,
                          DuelPreset  *preset)
{
  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);

  g_set_object (&self->preset, preset);
}

const char *
duel_run_task_get_target_path (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return self->target_path;
}

const char *
duel_run_task_get_result_path (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return self->result_path;
}

gboolean
duel_run_task_is_running (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), FALSE);
  return self->running;
}

const DuelRunStatus *
duel_run_task_get_status (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return &self->status;
}

DuelTestRecord *
duel_run_task_get_live_record (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return self->live_record;
}

DuelResult *
duel_run_task_get_live_result (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return self->result != NULL ? self->result : self->live_result;
}

DuelResult *
duel_run_task_get_result (DuelRunTask *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), NULL);
  return self->result;
}

/* --- main thread: apply the shared snapshot --------------------------------- */

static void
update_eta (DuelRunTask *self,
            double       preset_fraction)
{
  DuelRunStatus *status = &self->status;
  double elapsed_s = (g_get_monotonic_time () - self->start_us) / (double) G_USEC_PER_SEC;
  double f;

  if (preset_fraction >= 0)
    {
      /* The preset weighs its steps by their expected time. */
      f = CLAMP (preset_fraction, 0.0, 1.0);
    }
  else
    {
      guint n = MAX (status->n_tests, 1);
      double step = CLAMP (status->engine.fraction_done, 0.0, 1.0);

      /* Plain runs: later tests are assumed to take as long as this one. */
      f = CLAMP ((MIN (status->test_index, n - 1) + step) / n, 0.0, 1.0);
    }

  status->fraction_done = f;
  if (f >= 0.005 && elapsed_s >= 1.0)
    status->eta_seconds = (gint64) ceil (elapsed_s * (1.0 - f) / f);
  else
    status->eta_seconds = -1;
}

static void
apply_snapshot (DuelRunTask *self)
{
  g_autoptr(GArray) rows = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *section = NULL;
  DuelWorkload workload;
  guint generation, test_index, n_tests;
  guint64 span_length, byte_limit, target_size;
  DuelTargetKind target_kind;
  double preset_fraction;

  g_mutex_lock (&self->lock);
  self->status.engine = self->shared.progress;
  generation = self->shared.generation;
  test_index = self->shared.test_index;
  n_tests = self->shared.n_tests;
  preset_fraction = self->shared.fraction_done;
  span_length = self->shared.span_length;
  byte_limit = self->shared.byte_limit;
  workload = self->shared.workload;
  target_size = self->shared.target_size;
  target_kind = self->shared.target_kind;
  self->status.probing = self->shared.probing;
  new_name = g_strdup (self->shared.test_name);
  section = g_strdup (self->shared.section);
  rows = g_steal_pointer (&self->shared.rows);
  self->shared.rows = g_array_new (FALSE, FALSE, sizeof (DuelSeriesRow));
  g_mutex_unlock (&self->lock);

  if (generation != self->live_generation)
    {
      /* A new test started: a fresh live copy, shown alone by the live chart. */
      DuelTargetInfo info = {
        .path = self->target_path,
        .kind = target_kind,
        .size_bytes = target_size,
      };

      self->live_generation = generation;
      g_clear_pointer (&self->live_record, duel_test_record_unref);
      self->live_record = duel_test_record_new (new_name, &workload);
      self->live_record->status = DUEL_TEST_STATUS_RUNNING;
      self->live_record->started = g_date_time_new_now_utc ();
      if (self->preset != NULL)
        self->live_record->preset = g_strdup (duel_preset_get_name (self->preset));

      g_clear_object (&self->live_result);
      self->live_result = duel_result_new ();
      duel_result_set_target (self->live_result, &info);
      if (self->name != NULL)
        duel_result_set_name (self->live_result, self->name);
      duel_result_add_test (self->live_result, self->live_record);
    }

  g_free (self->status_test_name);
  self->status_test_name = g_steal_pointer (&new_name);
  g_free (self->status_section);
  self->status_section = g_steal_pointer (&section);

  self->status.test_index = test_index;
  self->status.n_tests = n_tests;
  self->status.test_name = self->status_test_name;
  self->status.section = self->status_section;
  self->status.span_bytes = span_length;

  if (self->live_record != NULL)
    {
      guint n;

      self->live_record->span_length = span_length;
      self->live_record->byte_limit = byte_limit;
      self->live_record->runtime_ns = self->status.engine.elapsed_ns;
      for (guint i = 0; i < rows->len; i++)
        duel_series_append (self->live_record->series, &g_array_index (rows, DuelSeriesRow, i));

      n = duel_series_get_length (self->live_record->series);
      if (n > 0)
        self->status.temperature_c = duel_series_get_row (self->live_record->series, n - 1)->temperature_c;
    }
  /* The thermometer's latest reading is a cheap, non-blocking read. */
  if (self->thermometer != NULL)
    self->status.temperature_c = duel_device_thermometer_get_celsius (self->thermometer);

  update_eta (self, preset_fraction);
  g_signal_emit (self, signals[PROGRESS], 0);
}

static gboolean
progress_idle_cb (gpointer user_data)
{
  DuelRunTask *self = user_data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->shared.idle, g_source_unref);
  g_mutex_unlock (&self->lock);

  apply_snapshot (self);
  return G_SOURCE_REMOVE;
}

/* --- worker thread ---------------------------------------------------------- */

typedef struct
{
  DuelRunTask    *self;
  DuelTarget     *target;
  DuelResult     *result;
  DuelRunContext *run_context;   /* identity, health, temperature */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->self);
  g_clear_object (&job->target);
  g_clear_object (&job->result);
  g_clear_object (&job->run_context);
  g_free (job);
}

static void
checkpoint (DuelRunTask *self,
            DuelResult  *result)
{
  g_autoptr(GError) error = NULL;

  self->last_checkpoint_us = g_get_monotonic_time ();
  if (!duel_result_save (result, self->result_path, &error))
    g_debug ("Could not checkpoint %s: %s", self->result_path, error->message);
}

/* Worker thread, with @lock held: a test (or a discard, @record NULL) began. */
static void
publish_step (DuelRunTask    *self,
              DuelTestRecord *record,
              guint           index,
              guint           n_steps,
              const char     *name,
              const char     *section)
{
  if (record != NULL && record != self->shared.record)
    {
      self->shared.record = record;
      self->shared.generation++;
      self->shared.workload = record->workload;
      self->shared.rows_copied = 0;
      g_array_set_size (self->shared.rows, 0);
    }
  if (g_strcmp0 (name, self->shared.test_name) != 0)
    {
      g_free (self->shared.test_name);
      self->shared.test_name = g_strdup (name);
    }
  if (g_strcmp0 (section, self->shared.section) != 0)
    {
      g_free (self->shared.section);
      self->shared.section = g_strdup (section);
    }
  self->shared.test_index = index;
  self->shared.n_tests = n_steps;
}

/* Worker thread, with @lock held: the record is consistent (the engine is
 * between batches) and only this thread changes it. */
static void
publish_progress (DuelRunTask        *self,
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
    }

  if (self->shared.idle == NULL)
    {
      self->shared.idle = g_idle_source_new ();
      g_source_set_priority (self->shared.idle, G_PRIORITY_DEFAULT);
      g_source_set_callback (self->shared.idle, progress_idle_cb,
                             g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->shared.idle, "[driveduel] run progress");
      g_source_attach (self->shared.idle, self->context);
    }
}

static void
engine_progress_cb (const DuelProgress *progress,
                    DuelTestRecord     *record,
                    gpointer            user_data)
{
  Job *job = user_data;
  DuelRunTask *self = job->self;

  if (progress->interval_closed)
    duel_run_context_annotate (job->run_context, record);

  g_mutex_lock (&self->lock);
  publish_progress (self, progress, record);
  g_mutex_unlock (&self->lock);

  /* Checkpoint after closed intervals so a crash keeps what was measured. */
  if (progress->interval_closed &&
      g_get_monotonic_time () - self->last_checkpoint_us >= CHECKPOINT_INTERVAL_US)
    checkpoint (self, job->result);
}

static void
preset_progress_cb (const DuelPresetProgress *progress,
                    DuelTestRecord           *record,
                    gpointer                  user_data)
{
  Job *job = user_data;
  DuelRunTask *self = job->self;

  if (record != NULL && progress->engine != NULL && progress->engine->interval_closed)
    duel_run_context_annotate (job->run_context, record);

  g_mutex_lock (&self->lock);
  publish_step (self, record, progress->step_index, progress->n_steps,
                progress->step->name, progress->step->section);
  self->shared.fraction_done = progress->fraction_done;
  publish_progress (self, progress->engine, record);
  g_mutex_unlock (&self->lock);
}

static void
preset_checkpoint_cb (DuelResult *result,
                      gboolean    test_finished,
                      gpointer    user_data)
{
  Job *job = user_data;
  DuelRunTask *self = job->self;

  if (test_finished ||
      g_get_monotonic_time () - self->last_checkpoint_us >= CHECKPOINT_INTERVAL_US)
    checkpoint (self, result);
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  DuelRunTask *self = job->self;
  GError *error = NULL;
  gboolean ok = TRUE;

  if (job->target == NULL)
    {
      job->target = duel_target_open (self->target_path, self->open_flags, self->create_size, &error);
      if (job->target == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_mutex_lock (&self->lock);
  self->shared.target_size = duel_target_get_size (job->target);
  self->shared.target_kind = duel_target_get_kind (job->target);
  g_mutex_unlock (&self->lock);

  job->result = duel_result_new ();
  if (self->name != NULL)
    duel_result_set_name (job->result, self->name);

  /* Who was tested, and its health before; what cannot be read is noted. */
  job->run_context = duel_run_context_new_for_target (job->target, self->thermometer);
  duel_run_context_fill_result (job->run_context, job->result);
  duel_run_context_start (job->run_context);

  self->last_checkpoint_us = g_get_monotonic_time ();

  if (self->preset != NULL)
    {
      DuelPresetEstimate estimate;
      gboolean has_fill = FALSE;

      ok = duel_preset_prepare (self->preset, job->target, &error);
      for (guint i = 0; ok && i < duel_preset_get_n_steps (self->preset); i++)
        has_fill |= g_strcmp0 (duel_preset_get_step (self->preset, i)->name, DUEL_TEST_WSAT_FILL) == 0;
      if (ok && has_fill)
        {
          g_mutex_lock (&self->lock);
          self->shared.probing = TRUE;
          publish_progress (self, NULL, NULL);
          g_mutex_unlock (&self->lock);
          ok = duel_preset_estimate (self->preset, job->target, PROBE_MS, cancellable, &estimate, &error);
          g_mutex_lock (&self->lock);
          self->shared.probing = FALSE;
          g_mutex_unlock (&self->lock);
        }

      /* The preset calls back in this thread; the job outlives the run. */
      duel_preset_set_progress_func (self->preset, preset_progress_cb, job, NULL);
      duel_preset_set_checkpoint_func (self->preset, preset_checkpoint_cb, job, NULL);
      checkpoint (self, job->result);
      if (ok)
        ok = duel_preset_run (self->preset, job->target, job->result, cancellable, &error);
      duel_preset_set_progress_func (self->preset, NULL, NULL, NULL);
      duel_preset_set_checkpoint_func (self->preset, NULL, NULL, NULL);
    }
  else
    {
      for (guint i = 0; ok && i < self->steps->len; i++)
        {
          const Step *step = &g_array_index (self->steps, Step, i);
          g_autoptr(DuelTestRecord) record = duel_test_record_new (step->name, &step->workload);

          g_mutex_lock (&self->lock);
          publish_step (self, record, i, self->steps->len, step->name, NULL);
          g_mutex_unlock (&self->lock);

          duel_result_add_test (job->result, record);
          checkpoint (self, job->result);

          ok = duel_engine_run (job->target, record, cancellable, engine_progress_cb, job, &error);
        }
    }

  /* Health after, with the deltas (data written, peak temperature, throttling). */
  duel_run_context_finish (job->run_context, job->result);

  /* The final save; a cancelled or failed run keeps what it measured. */
  {
    g_autoptr(GError) save_error = NULL;

    if (!duel_result_save (job->result, self->result_path, &save_error) && ok)
      {
        ok = FALSE;
        g_propagate_error (&error, g_steal_pointer (&save_error));
      }
  }

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
duel_run_task_run_async (DuelRunTask         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (DUEL_IS_RUN_TASK (self));
  g_return_if_fail (!self->running);
  g_return_if_fail (self->result == NULL);
  g_return_if_fail (self->steps->len > 0 || self->preset != NULL);

  self->running = TRUE;
  self->start_us = g_get_monotonic_time ();
  /* Finding the sensor reads sysfs (and maybe an NVMe log): done here, polled in its own thread. */
  if (self->thermometer == NULL)
    self->thermometer = duel_device_thermometer_new (self->target_path);
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  g_clear_object (&self->cancellable);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();

  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->target = self->target != NULL ? g_object_ref (self->target) : NULL;

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_run_task_run_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  /* The engine checks the cancellable itself and keeps the partial result. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, run_thread);
}

gboolean
duel_run_task_run_finish (DuelRunTask   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  Job *job;
  GSource *idle;

  g_return_val_if_fail (DUEL_IS_RUN_TASK (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_run_task_run_async, FALSE);

  self->running = FALSE;

  /* The worker is done: take its last snapshot now, not in a later idle. */
  g_mutex_lock (&self->lock);
  idle = g_steal_pointer (&self->shared.idle);
  g_mutex_unlock (&self->lock);
  if (idle != NULL)
    {
      g_source_destroy (idle);
      g_source_unref (idle);
    }
  apply_snapshot (self);

  job = g_task_get_task_data (G_TASK (result));
  if (job->result != NULL)
    g_set_object (&self->result, job->result);
  if (self->target == NULL && job->target != NULL)
    self->target = g_object_ref (job->target);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
duel_run_task_cancel (DuelRunTask *self)
{
  g_return_if_fail (DUEL_IS_RUN_TASK (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}
