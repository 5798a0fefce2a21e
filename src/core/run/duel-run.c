/* duel-run.c — one run, from plan to saved result: its owner's side
 *
 * This file is the owner's: the API, the state, the front half (the check,
 * the consent, the estimate) and what the owner's thread applies of the
 * worker's copies. The worker, which prepares, runs the plan's steps and
 * saves, is in duel-run-worker.c; what both share, in duel-run-private.h.
 *
 * Threads: the worker owns the target, the result and the engine's records
 * while it runs. Whatever the owner's thread must see (state changes, step
 * starts, the engine's snapshot, new series rows) is copied under @lock:
 * events into an ordered queue, the rest into one snapshot. At most one idle
 * is pending in the owner's main context; it applies the snapshot, then the
 * events in order, then emits "progress". The worker never touches anything
 * the owner's thread reads unlocked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-run-private.h"
#include "duel-run.h"
#include "duel-system.h"
#include "engine/duel-udisks.h"

G_DEFINE_ENUM_TYPE (DuelRunState, duel_run_state,
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_PREPARING, "preparing"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_PROBING, "probing"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_STOPPING, "stopping"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_FINISHED, "finished"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_STOPPED, "stopped"),
  G_DEFINE_ENUM_VALUE (DUEL_RUN_STATE_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (DuelRun, duel_run, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum {
  PROGRESS,
  STEP_STARTED,
  WARNING,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
event_free (gpointer data)
{
  Event *event = data;

  g_free (event->name);
  g_free (event);
}

const char *
duel_run_state_to_string (DuelRunState state)
{
  GEnumClass *klass = g_type_class_ref (DUEL_TYPE_RUN_STATE);
  GEnumValue *value = g_enum_get_value (klass, state);

  g_type_class_unref (klass);
  return value != NULL ? value->value_nick : "unknown";
}

static void
duel_run_dispose (GObject *object)
{
  DuelRun *self = DUEL_RUN (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (duel_run_parent_class)->dispose (object);
}

static void
duel_run_finalize (GObject *object)
{
  DuelRun *self = DUEL_RUN (object);

  g_assert (self->shared.idle == NULL);

  g_clear_pointer (&self->target_path, g_free);
  g_clear_pointer (&self->result_path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_object (&self->thermometer);
  g_clear_object (&self->target);
  g_clear_object (&self->plan);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->stop);
  g_clear_object (&self->result);
  g_clear_object (&self->live_result);
  g_clear_pointer (&self->live_record, duel_test_record_unref);
  g_clear_pointer (&self->status_test_name, g_free);
  g_clear_pointer (&self->status_section, g_free);
  g_clear_error (&self->save_error);
  g_queue_clear_full (&self->shared.events, event_free);
  g_clear_pointer (&self->shared.test_name, g_free);
  g_clear_pointer (&self->shared.section, g_free);
  g_clear_pointer (&self->shared.rows, g_array_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->step_seen_cond);

  G_OBJECT_CLASS (duel_run_parent_class)->finalize (object);
}

static void
duel_run_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  DuelRun *self = DUEL_RUN (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_run_class_init (DuelRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = duel_run_dispose;
  object_class->finalize = duel_run_finalize;
  object_class->get_property = duel_run_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, DUEL_TYPE_RUN_STATE, DUEL_RUN_STATE_READY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DuelRun::progress:
   *
   * Emitted in the owner's thread, at most once per idle, after the state
   * and step events of that idle; read duel_run_get_status() and the live
   * record.
   */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * DuelRun::step-started:
   * @index: 0-based
   * @n_steps: the plan's steps
   * @name: the test's name, or "discard"
   * @fraction_done: of the whole run when the step started, 0..1
   *
   * Emitted in the owner's thread for every step, in order.
   */
  signals[STEP_STARTED] =
    g_signal_new ("step-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_DOUBLE);
  /**
   * DuelRun::warning:
   * @message: one sentence, e.g. the result's disk is nearly full
   *
   * Emitted in the owner's thread, in order with the other events; the run
   * goes on.
   */
  signals[WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
duel_run_init (DuelRun *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->step_seen_cond);
  g_queue_init (&self->shared.events);
  self->shared.rows = g_array_new (FALSE, FALSE, sizeof (DuelSeriesRow));
  self->shared.fraction_done = -1;
  self->shared.remaining_s = NAN;
  self->shared.remaining_low_s = NAN;
  self->shared.remaining_high_s = NAN;
  self->status.eta_seconds = -1;
  self->status.eta_s = self->status.eta_low_s = self->status.eta_high_s = NAN;
  self->status.has_passes = FALSE;
  self->status.temperature_c = NAN;
  self->open_mode = OPEN_WITH_SAFETY;
  self->probe_ms = DUEL_RUN_DEFAULT_PROBE_MS;
}

DuelRun *
duel_run_new (const char *target_path)
{
  DuelRun *self;

  g_return_val_if_fail (target_path != NULL, NULL);

  self = g_object_new (DUEL_TYPE_RUN, NULL);
  self->target_path = g_strdup (target_path);
  return self;
}

void
duel_run_set_output (DuelRun    *self,
                     const char *result_path)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  g_free (self->result_path);
  self->result_path = g_strdup (result_path);
}

void
duel_run_set_output_overwrite (DuelRun  *self,
                               gboolean  overwrite)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  self->overwrite_output = overwrite;
}

void
duel_run_set_name (DuelRun    *self,
                   const char *name)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  g_free (self->name);
  self->name = g_strdup (name);
}

void
duel_run_set_safety (DuelRun         *self,
                     DuelSafetyFlags  flags,
                     guint64          file_size)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  self->open_mode = OPEN_WITH_SAFETY;
  self->safety_flags = flags;
  self->file_size = file_size;
}

void
duel_run_set_target (DuelRun    *self,
                     DuelTarget *target)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  g_set_object (&self->target, target);
  if (target != NULL)
    self->open_mode = OPEN_GIVEN;
}

void
duel_run_add_workload (DuelRun            *self,
                       const char         *test_name,
                       const DuelWorkload *workload)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);
  g_return_if_fail (workload != NULL);
  g_return_if_fail (self->plan == NULL || duel_preset_get_name (self->plan) == NULL);

  if (self->plan == NULL)
    self->plan = duel_preset_new_plain ();
  duel_preset_add_workload (self->plan, test_name, workload);
}

void
duel_run_set_preset (DuelRun    *self,
                     DuelPreset *preset)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);
  g_return_if_fail (self->plan == NULL || duel_preset_get_name (self->plan) != NULL);

  g_set_object (&self->plan, preset);
}

void
duel_run_set_probe_ms (DuelRun *self,
                       guint64  probe_ms)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  self->probe_ms = probe_ms;
}

void
duel_run_set_show_every_step (DuelRun  *self,
                              gboolean  show_every_step)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  self->show_every_step = !!show_every_step;
}

/* --- before the run: the rules, then the person's consent -------------------- */

typedef struct
{
  char            *path;
  DuelSafetyFlags  consent;
  DuelTarget      *target;         /* UDisks's descriptor, checked through */
  gboolean         writes;
} Check;

static void
check_free (Check *check)
{
  g_free (check->path);
  g_clear_object (&check->target);
  g_free (check);
}

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Check *check = task_data;
  DuelSafetyReport *report = NULL;

  if (!check->writes)
    {
      /* Reading harms nothing the rules guard. */
      report = g_new0 (DuelSafetyReport, 1);
      report->path = g_strdup (check->path);
      report->verdict = DUEL_SAFETY_ALLOWED;
      g_task_return_pointer (task, report, (GDestroyNotify) duel_safety_report_free);
      return;
    }
  if (check->target != NULL)
    duel_safety_check_write_fd (check->path, duel_target_get_fd (check->target), check->consent, &report, NULL);
  else
    duel_safety_check_write (check->path, check->consent, &report, NULL);
  g_assert (report != NULL);
  g_task_return_pointer (task, report, (GDestroyNotify) duel_safety_report_free);
}

static void check_done_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data);

static void
check_in_thread (GTask *outer)
{
  DuelRun *self = g_task_get_source_object (outer);
  Check *check = g_new0 (Check, 1);
  GTask *inner = duel_task_new (self, g_task_get_cancellable (outer), check_done_cb, outer);

  check->path = g_strdup (self->target_path);
  check->consent = self->safety_flags;
  check->target = self->target != NULL ? g_object_ref (self->target) : NULL;
  check->writes = self->plan == NULL || duel_preset_writes (self->plan);
  g_task_set_task_data (inner, check, (GDestroyNotify) check_free);
  duel_task_run_in_thread (inner, check_thread);
  g_object_unref (inner);
}

static void
udisks_opened_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *outer = user_data;
  DuelRun *self = g_task_get_source_object (outer);
  g_autoptr(DuelTarget) target = NULL;
  GError *error = NULL;
  int fd;

  fd = duel_udisks_open_device_finish (result, &error);
  /* UDisks opened it O_DIRECT | O_EXCL for writing: the target adopts the
   * descriptor and holds it, exclusively, until the run ends. */
  if (fd >= 0)
    target = duel_target_new_for_fd (fd, self->target_path, TRUE, &error);
  if (target == NULL)
    {
      g_task_return_error (outer, error);
      g_object_unref (outer);
      return;
    }
  duel_run_set_target (self, target);
  /* Nothing is written yet: the rules again, through the descriptor. */
  check_in_thread (outer);
}

static void
check_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *outer = user_data;
  DuelRun *self = g_task_get_source_object (outer);
  GError *error = NULL;
  DuelSafetyReport *report = g_task_propagate_pointer (G_TASK (result), &error);

  /* No thread for the check. */
  if (report == NULL)
    {
      g_task_return_error (outer, error);
      g_object_unref (outer);
      return;
    }

  /* A device this process may not open, whose mounts and holders passed:
   * UDisks opens it once the person consents. */
  if (report->verdict == DUEL_SAFETY_UNREADABLE && report->access_denied && report->is_block &&
      self->target == NULL)
    {
      if ((self->safety_flags & DUEL_SAFETY_DESTRUCTIVE) == 0)
        {
          report->verdict = DUEL_SAFETY_NEEDS_DESTRUCTIVE;
          g_free (report->reason);
          if (report->node_hidden)
            report->reason = g_strdup_printf (_("Writing to “%s” destroys everything on it; in this sandbox it can be "
                                                "opened only through UDisks, once that is allowed. "
                                                "Give --destructive to allow it."), self->target_path);
          else
            report->reason = g_strdup_printf (_("Writing to “%s” destroys everything on it; this user may open it "
                                                "only through UDisks, once that is allowed. "
                                                "Give --destructive to allow it."), self->target_path);
          g_task_return_pointer (outer, report, (GDestroyNotify) duel_safety_report_free);
          g_object_unref (outer);
          return;
        }
      duel_safety_report_free (report);
      duel_udisks_open_device_async (self->target_path, TRUE, O_DIRECT | O_EXCL | O_CLOEXEC,
                                     g_task_get_cancellable (outer), udisks_opened_cb, outer);
      return;
    }
  g_task_return_pointer (outer, report, (GDestroyNotify) duel_safety_report_free);
  g_object_unref (outer);
}

void
duel_run_check_async (DuelRun             *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  GTask *outer;

  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, duel_run_check_async);
  check_in_thread (outer);
}

DuelSafetyReport *
duel_run_check_finish (DuelRun       *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_run_check_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
duel_run_set_consent (DuelRun         *self,
                      DuelSafetyFlags  consent)
{
  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);

  self->safety_flags |= consent;
}

/* --- before the run: how long it takes ---------------------------------------- */

typedef struct
{
  DuelPreset      *plan;
  char            *path;
  DuelSafetyFlags  consent;
  guint64          file_size;
  guint64          probe_ms;
} Estimate;

static void
estimate_free (Estimate *estimate)
{
  g_clear_object (&estimate->plan);
  g_free (estimate->path);
  g_free (estimate);
}

static void
estimate_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Estimate *data = task_data;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autofree DuelPresetEstimate *estimate = g_new0 (DuelPresetEstimate, 1);
  /* The probe writes; a run meanwhile would measure it: locked as a run. */
  DuelTargetOpenFlags flags = DUEL_TARGET_OPEN_READ | DUEL_TARGET_OPEN_LOCK;
  guint64 create_size = 0;
  GError *error = NULL;

  /* The probe writes: the rules first, as for the run itself. */
  if (data->probe_ms > 0)
    {
      if (!duel_safety_check_write (data->path, data->consent, NULL, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      flags |= DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE;
      create_size = data->file_size;
    }
  target = duel_target_open (data->path, flags, create_size, &error);
  steps = duel_run_steps_new (data->plan);
  if (target == NULL ||
      !duel_run_steps_estimate (steps, target, data->probe_ms, cancellable, estimate, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&estimate), g_free);
}

void
duel_run_estimate_async (DuelRun             *self,
                         guint64              probe_ms,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Estimate *data;

  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);
  g_return_if_fail (self->plan != NULL);

  data = g_new0 (Estimate, 1);
  /* The worker's until it ends; duel-run.h says not to run meanwhile. */
  data->plan = g_object_ref (self->plan);
  data->path = g_strdup (self->target_path);
  data->consent = self->safety_flags;
  data->file_size = self->file_size;
  data->probe_ms = probe_ms;
  task = duel_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_run_estimate_async);
  g_task_set_task_data (task, data, (GDestroyNotify) estimate_free);
  duel_task_run_in_thread (task, estimate_thread);
}

gboolean
duel_run_estimate_finish (DuelRun             *self,
                          GAsyncResult        *result,
                          DuelPresetEstimate  *out,
                          GError             **error)
{
  g_autofree DuelPresetEstimate *estimate = NULL;

  g_return_val_if_fail (DUEL_IS_RUN (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_run_estimate_async, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  estimate = g_task_propagate_pointer (G_TASK (result), error);
  if (estimate == NULL)
    return FALSE;
  *out = *estimate;
  return TRUE;
}

DuelRunState
duel_run_get_state (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), DUEL_RUN_STATE_READY);
  return self->state;
}

gboolean
duel_run_is_running (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), FALSE);
  return self->state >= DUEL_RUN_STATE_PREPARING && self->state <= DUEL_RUN_STATE_STOPPING;
}

const char *
duel_run_get_target_path (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->target_path;
}

const char *
duel_run_get_result_path (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->result_path;
}

DuelPreset *
duel_run_get_preset (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  /* A plain run's plan is no preset. */
  if (self->plan == NULL || duel_preset_get_name (self->plan) == NULL)
    return NULL;
  return self->plan;
}

const DuelRunStatus *
duel_run_get_status (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return &self->status;
}

gboolean
duel_run_get_estimate (DuelRun            *self,
                       DuelPresetEstimate *out)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!self->have_estimate)
    return FALSE;
  *out = self->estimate;
  return TRUE;
}

DuelTestRecord *
duel_run_get_live_record (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->live_record;
}

DuelResult *
duel_run_get_live_result (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->result != NULL ? self->result : self->live_result;
}

DuelResult *
duel_run_get_result (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->result;
}

const GError *
duel_run_get_save_error (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), NULL);
  return self->save_error;
}

/* --- owner's thread: apply what the worker published -------------------------- */

static void
set_state (DuelRun      *self,
           DuelRunState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  self->status.state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* A fill's passes counted down by @passed seconds: the first pass's time
 * left first, then the second's. */
static void
passes_count_down (DuelRunEtaPasses *passes,
                   double            passed)
{
  double past_first = MAX (passed - passes->first_s, 0);

  passes->first_s = MAX (passes->first_s - passed, 0);
  passes->first_low_s = MAX (passes->first_low_s - passed, 0);
  passes->first_high_s = MAX (passes->first_high_s - passed, 0);
  passes->second_s = MAX (passes->second_s - past_first, 0);
  passes->second_low_s = MAX (passes->second_low_s - past_first, 0);
  passes->second_high_s = MAX (passes->second_high_s - past_first, 0);
}

/* The worker's estimate (DuelRunEta) counted down to now: between two
 * engine snapshots the time left keeps moving. */
static void
update_eta (DuelRun                *self,
            double                  fraction,
            double                  remaining_s,
            double                  low_s,
            double                  high_s,
            const DuelRunEtaPasses *passes,
            gint64                  remaining_at_us)
{
  DuelRunStatus *status = &self->status;

  if (fraction >= 0)
    status->fraction_done = CLAMP (fraction, 0.0, 1.0);
  status->has_passes = FALSE;
  if (self->state == DUEL_RUN_STATE_RUNNING && isfinite (remaining_s))
    {
      double passed = (g_get_monotonic_time () - remaining_at_us) / (double) G_USEC_PER_SEC;

      status->eta_s = MAX (remaining_s - passed, 0.0);
      status->eta_low_s = isfinite (low_s) ? MAX (low_s - passed, 0.0) : NAN;
      status->eta_high_s = isfinite (high_s) ? MAX (high_s - passed, 0.0) : NAN;
      status->eta_seconds = (gint64) llround (status->eta_s);
      if (passes != NULL)
        {
          status->has_passes = TRUE;
          status->passes = *passes;
          passes_count_down (&status->passes, MAX (passed, 0));
        }
    }
  else
    {
      status->eta_seconds = -1;
      status->eta_s = status->eta_low_s = status->eta_high_s = NAN;
    }

  /* G_MESSAGES_DEBUG=DriveDuel logs the time left at each tenth of the run,
   * to set against the run's real end (tests/bench/eta-campaign.sh). */
  if (status->eta_seconds >= 0 && (int) floor (status->fraction_done * 10) > self->logged_tenth)
    {
      self->logged_tenth = (int) floor (status->fraction_done * 10);
      g_debug ("Time left at %.1f %% (%.1f s in): %.1f s, %.1f to %.1f s",
               status->fraction_done * 100,
               (g_get_monotonic_time () - self->start_us) / (double) G_USEC_PER_SEC, status->eta_s,
               status->eta_low_s, status->eta_high_s);
    }
}

static void
apply_snapshot (DuelRun *self)
{
  g_autoptr(GArray) rows = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *section = NULL;
  GQueue events = G_QUEUE_INIT;
  DuelWorkload workload;
  /* 2 x 15 KiB, on the heap, and only when the worker copied new ones. */
  g_autofree DuelHistogram *latency = NULL;
  guint generation, test_index, n_tests, steps_published;
  guint64 span_length, byte_limit;
  DuelTargetKind target_kind;
  double fraction, remaining_s, low_s, high_s;
  gboolean have_passes;
  DuelRunEtaPasses passes;
  gint64 remaining_at_us;
  Event *event;

  g_mutex_lock (&self->lock);
  self->status.engine = self->shared.progress;
  generation = self->shared.generation;
  test_index = self->shared.test_index;
  n_tests = self->shared.n_tests;
  fraction = self->shared.fraction_done;
  remaining_s = self->shared.remaining_s;
  low_s = self->shared.remaining_low_s;
  high_s = self->shared.remaining_high_s;
  have_passes = self->shared.have_passes;
  passes = self->shared.passes;
  remaining_at_us = self->shared.remaining_at_us;
  span_length = self->shared.span_length;
  byte_limit = self->shared.byte_limit;
  workload = self->shared.workload;
  self->status.target_size = self->shared.target_size;
  target_kind = self->shared.target_kind;
  if (self->shared.have_estimate)
    {
      self->have_estimate = TRUE;
      self->estimate = self->shared.estimate;
    }
  new_name = g_strdup (self->shared.test_name);
  section = g_strdup (self->shared.section);
  rows = g_steal_pointer (&self->shared.rows);
  self->shared.rows = g_array_new (FALSE, FALSE, sizeof (DuelSeriesRow));
  if (self->shared.latency_fresh && generation == self->shared.generation)
    {
      latency = g_memdup2 (self->shared.latency, sizeof self->shared.latency);
      self->shared.latency_fresh = FALSE;
    }
  events = self->shared.events;
  g_queue_init (&self->shared.events);
  steps_published = self->shared.steps_published;
  self->status.rounds = self->shared.rounds;
  g_mutex_unlock (&self->lock);

  if (generation != self->live_generation)
    {
      /* A new test started: a fresh live copy, shown alone by a live chart. */
      DuelTargetInfo info = {
        .path = self->target_path,
        .kind = target_kind,
        .size_bytes = self->status.target_size,
      };

      self->live_generation = generation;
      g_clear_pointer (&self->live_record, duel_test_record_unref);
      self->live_record = duel_test_record_new (new_name, &workload);
      self->live_record->status = DUEL_TEST_STATUS_RUNNING;
      self->live_record->started = g_date_time_new_now_utc ();
      if (self->plan != NULL)
        self->live_record->preset = g_strdup (duel_preset_get_name (self->plan));

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
      self->live_record->span_length = span_length;
      self->live_record->byte_limit = byte_limit;
      self->live_record->runtime_ns = self->status.engine.elapsed_ns;
      for (guint i = 0; i < rows->len; i++)
        duel_series_append (self->live_record->series, &g_array_index (rows, DuelSeriesRow, i));
      if (latency != NULL)
        for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
          *self->live_record->latency[d] = latency[d];
    }
  /* The thermometer's latest reading is a cheap, non-blocking read. */
  if (self->thermometer != NULL)
    self->status.temperature_c = duel_device_thermometer_get_celsius (self->thermometer);
  else if (self->live_record != NULL && duel_series_get_length (self->live_record->series) > 0)
    {
      const DuelSeries *series = self->live_record->series;

      self->status.temperature_c = duel_series_get_row (series, duel_series_get_length (series) - 1)->temperature_c;
    }

  /* In order, so that no state and no step is skipped. Once stopping, a
   * state the worker published before it saw the cancel is old news. */
  while ((event = g_queue_pop_head (&events)) != NULL)
    {
      if (event->kind == EVENT_STATE && self->state != DUEL_RUN_STATE_STOPPING)
        set_state (self, event->state);
      else if (event->kind == EVENT_STEP)
        g_signal_emit (self, signals[STEP_STARTED], 0, event->index, event->n_steps, event->name,
                       event->fraction_done);
      else if (event->kind == EVENT_WARNING)
        g_signal_emit (self, signals[WARNING], 0, event->name);
      event_free (event);
    }
  update_eta (self, fraction, remaining_s, low_s, high_s, have_passes ? &passes : NULL, remaining_at_us);

  g_signal_emit (self, signals[PROGRESS], 0);

  /* The steps in this snapshot were shown: a worker waiting on one goes on. */
  if (self->show_every_step)
    {
      g_mutex_lock (&self->lock);
      self->shared.steps_seen = MAX (self->shared.steps_seen, steps_published);
      g_cond_broadcast (&self->step_seen_cond);
      g_mutex_unlock (&self->lock);
    }
}

static gboolean
progress_idle_cb (gpointer user_data)
{
  DuelRun *self = user_data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->shared.idle, g_source_unref);
  g_mutex_unlock (&self->lock);

  apply_snapshot (self);
  return G_SOURCE_REMOVE;
}

/* With @lock held. */
void
_duel_run_schedule_idle (DuelRun *self)
{
  if (self->shared.idle != NULL)
    return;
  self->shared.idle = g_idle_source_new ();
  g_source_set_priority (self->shared.idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->shared.idle, progress_idle_cb, g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->shared.idle, "[driveduel] run progress");
  g_source_attach (self->shared.idle, self->context);
}

/* --- the run, from the owner's thread ------------------------------------------ */

static void
run_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  DuelRun *self = g_task_get_source_object (outer);
  Job *job = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;
  GSource *idle;
  gboolean ok;

  /* The worker is done: take its last snapshot now, not in a later idle. */
  g_mutex_lock (&self->lock);
  idle = g_steal_pointer (&self->shared.idle);
  g_mutex_unlock (&self->lock);
  if (idle != NULL)
    {
      g_source_destroy (idle);
      g_source_unref (idle);
    }

  ok = g_task_propagate_boolean (G_TASK (result), &error);
  if (job->result != NULL && duel_result_get_tests (job->result)->len > 0)
    g_set_object (&self->result, job->result);
  g_clear_error (&self->save_error);
  self->save_error = g_steal_pointer (&job->save_error);

  apply_snapshot (self);
  if (ok)
    set_state (self, DUEL_RUN_STATE_FINISHED);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_state (self, DUEL_RUN_STATE_STOPPED);
  else
    set_state (self, DUEL_RUN_STATE_FAILED);
  self->status.eta_seconds = ok ? 0 : -1;
  self->status.eta_s = self->status.eta_low_s = self->status.eta_high_s = ok ? 0 : NAN;
  self->status.has_passes = FALSE;
  if (ok)
    self->status.fraction_done = 1.0;
  g_signal_emit (self, signals[PROGRESS], 0);

  if (ok)
    g_task_return_boolean (outer, TRUE);
  else
    g_task_return_error (outer, error);
}

void
duel_run_run_async (DuelRun             *self,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  GTask *outer;
  g_autoptr(GTask) inner = NULL;
  Job *job;

  g_return_if_fail (DUEL_IS_RUN (self));
  g_return_if_fail (self->state == DUEL_RUN_STATE_READY);
  g_return_if_fail (self->plan != NULL);

  self->start_us = g_get_monotonic_time ();
  /* Finding the sensor reads sysfs (and maybe an NVMe log): done here, polled in its own thread. */
  if (self->thermometer == NULL && self->open_mode != OPEN_WITH_SAFETY)
    self->thermometer = duel_device_thermometer_new_with_fd (self->target_path,
                                                             self->target != NULL ? duel_target_get_fd (self->target) : -1);
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  g_clear_object (&self->cancellable);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  set_state (self, DUEL_RUN_STATE_PREPARING);

  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->target = self->target != NULL ? g_object_ref (self->target) : NULL;
  job->stop = g_cancellable_new ();
  g_set_object (&self->stop, job->stop);
  job->self_cancellable = g_object_ref (self->cancellable);
  job->stop_handler = g_cancellable_connect (self->cancellable, G_CALLBACK (_duel_run_cancel_stop_cb), job->stop, NULL);

  outer = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (outer, duel_run_run_async);
  /* The engine checks the cancellable itself and keeps the partial result. */
  g_task_set_check_cancellable (outer, FALSE);

  inner = duel_task_new (self, self->cancellable, run_done_cb, outer);
  g_task_set_task_data (inner, job, (GDestroyNotify) _duel_run_job_free);
  g_task_set_return_on_cancel (inner, FALSE);
  g_task_set_check_cancellable (inner, FALSE);
  duel_task_run_in_thread (inner, _duel_run_thread);
}

gboolean
duel_run_run_finish (DuelRun       *self,
                     GAsyncResult  *result,
                     GError       **error)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_run_run_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
duel_run_get_drain (DuelRun *self,
                    guint   *out_in_flight,
                    double  *out_unanswered_s)
{
  guint64 unanswered_ns = 0;

  g_return_val_if_fail (DUEL_IS_RUN (self), FALSE);

  if (self->stop == NULL || !duel_engine_get_drain (self->stop, out_in_flight, &unanswered_ns))
    return FALSE;
  if (out_unanswered_s != NULL)
    *out_unanswered_s = unanswered_ns / 1e9;
  return TRUE;
}

guint
duel_run_get_abandoned (DuelRun *self)
{
  g_return_val_if_fail (DUEL_IS_RUN (self), 0);

  return self->stop != NULL ? duel_engine_get_abandoned (self->stop) : 0;
}

void
duel_run_give_up (DuelRun *self)
{
  g_return_if_fail (DUEL_IS_RUN (self));

  if (!duel_run_is_running (self))
    return;
  duel_run_cancel (self);
  duel_engine_give_up (self->stop);
}

void
duel_run_cancel (DuelRun *self)
{
  g_return_if_fail (DUEL_IS_RUN (self));

  if (!duel_run_is_running (self))
    return;
  self->status.eta_seconds = -1;
  self->status.eta_s = self->status.eta_low_s = self->status.eta_high_s = NAN;
  self->status.has_passes = FALSE;
  set_state (self, DUEL_RUN_STATE_STOPPING);
  g_cancellable_cancel (self->cancellable);
}
