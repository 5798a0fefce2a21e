/* duel-run-context.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sys/stat.h>

#include "engine/duel-block-node.h"
#include "device/duel-device-describe.h"
#include "device/duel-device-snapshot.h"
#include "duel-error.h"
#include "duel-run-context.h"

struct _DuelRunContext
{
  GObject                parent_instance;

  char                  *path;
  DuelTarget            *target;
  JsonObject            *device;
  DuelDeviceSnapshot    *before;
  DuelDeviceThermometer *thermometer;
  gboolean               finished;
};

G_DEFINE_FINAL_TYPE (DuelRunContext, duel_run_context, G_TYPE_OBJECT)

static void
duel_run_context_finalize (GObject *object)
{
  DuelRunContext *self = DUEL_RUN_CONTEXT (object);

  if (self->thermometer != NULL)
    duel_device_thermometer_stop (self->thermometer);
  g_clear_object (&self->thermometer);
  g_clear_pointer (&self->before, duel_device_snapshot_free);
  g_clear_pointer (&self->device, json_object_unref);
  g_clear_object (&self->target);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (duel_run_context_parent_class)->finalize (object);
}

static void
duel_run_context_class_init (DuelRunContextClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = duel_run_context_finalize;
}

static void
duel_run_context_init (DuelRunContext *self)
{
}

gboolean
duel_run_context_check (const char       *path,
                        gboolean          writes,
                        DuelSafetyFlags   safety_flags,
                        gboolean         *out_check_fd,
                        GError          **error)
{
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autoptr(GError) local_error = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (out_check_fd != NULL, FALSE);

  *out_check_fd = FALSE;
  if (!writes || duel_safety_check_write (path, safety_flags, &report, &local_error))
    return TRUE;

  /* A device this user may not open: the target comes from UDisks
   * (duel_target_open), then the same rules are checked through its
   * descriptor, which holds O_EXCL, before the first write. */
  if (duel_block_node_stat (path, &st, NULL) == 0 && S_ISBLK (st.st_mode) && report->access_denied)
    {
      *out_check_fd = TRUE;
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

DuelRunContext *
duel_run_context_open (const char           *path,
                       gboolean              writes,
                       DuelSafetyFlags       safety_flags,
                       guint64               file_size,
                       gboolean              check_fd,
                       DuelTargetCheckFunc   check,
                       gpointer              check_data,
                       GError              **error)
{
  g_autoptr(DuelTarget) target = NULL;
  /* One run at a time on a target, read or write. */
  DuelTargetOpenFlags flags = DUEL_TARGET_OPEN_READ | DUEL_TARGET_OPEN_LOCK;
  guint64 create_size = 0;
  struct stat st;
  gboolean exists;

  g_return_val_if_fail (path != NULL, NULL);

  if (check_fd)
    {
      target = duel_target_open_checked (path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_EXCLUSIVE | DUEL_TARGET_OPEN_LOCK, 0,
                                         check, check_data, error);
      if (target == NULL ||
          !duel_safety_check_write_fd (path, duel_target_get_fd (target), safety_flags, NULL, error))
        return NULL;
      return duel_run_context_new_for_target (target, NULL);
    }

  /* A device whose node this sandbox hides is a device, not a new file. */
  exists = duel_block_node_stat (path, &st, NULL) == 0;
  if (writes)
    flags |= DUEL_TARGET_OPEN_WRITE;
  if (exists && S_ISBLK (st.st_mode))
    {
      if (writes)
        flags |= DUEL_TARGET_OPEN_EXCLUSIVE;
    }
  else if (!exists || S_ISREG (st.st_mode))
    {
      flags |= DUEL_TARGET_OPEN_CREATE;
      create_size = file_size > 0 ? file_size : (exists ? 0 : DUEL_RUN_CONTEXT_DEFAULT_FILE_SIZE);
    }

  target = duel_target_open_checked (path, flags, create_size, check, check_data, error);
  if (target == NULL)
    return NULL;

  return duel_run_context_new_for_target (target, NULL);
}

DuelRunContext *
duel_run_context_new (const char       *path,
                      gboolean          writes,
                      DuelSafetyFlags   safety_flags,
                      guint64           file_size,
                      GError          **error)
{
  gboolean check_fd;

  g_return_val_if_fail (path != NULL, NULL);

  /* Every refusal happens here, before the target is opened for I/O. */
  if (!duel_run_context_check (path, writes, safety_flags, &check_fd, error))
    return NULL;
  return duel_run_context_open (path, writes, safety_flags, file_size, check_fd, NULL, NULL, error);
}

DuelRunContext *
duel_run_context_new_for_target (DuelTarget            *target,
                                 DuelDeviceThermometer *thermometer)
{
  DuelRunContext *self;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (DUEL_IS_TARGET (target), NULL);
  g_return_val_if_fail (thermometer == NULL || DUEL_IS_DEVICE_THERMOMETER (thermometer), NULL);

  self = g_object_new (DUEL_TYPE_RUN_CONTEXT, NULL);
  self->path = g_strdup (duel_target_get_path (target));
  self->target = g_object_ref (target);

  /* Identity and health are best effort: a run never fails for want of SMART. */
  self->device = duel_device_describe_with_fd (self->path, duel_target_get_fd (target), &error);
  if (self->device == NULL)
    {
      g_debug ("No device description for %s: %s", self->path, error->message);
      g_clear_error (&error);
    }
  self->before = duel_device_snapshot_take_with_fd (self->path, duel_target_get_fd (target), &error);
  if (self->before == NULL)
    g_debug ("No health snapshot for %s: %s", self->path, error->message);
  self->thermometer = thermometer != NULL ? g_object_ref (thermometer)
                                          : duel_device_thermometer_new_with_fd (self->path, duel_target_get_fd (target));

  return self;
}

DuelTarget *
duel_run_context_get_target (DuelRunContext *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_CONTEXT (self), NULL);

  return self->target;
}

JsonObject *
duel_run_context_get_device (DuelRunContext *self)
{
  g_return_val_if_fail (DUEL_IS_RUN_CONTEXT (self), NULL);

  return self->device;
}

gboolean
duel_run_context_start (DuelRunContext  *self,
                        GError         **error)
{
  g_return_val_if_fail (DUEL_IS_RUN_CONTEXT (self), FALSE);

  return duel_device_thermometer_start (self->thermometer, DUEL_DEVICE_THERMOMETER_DEFAULT_INTERVAL_MS, error);
}

void
duel_run_context_annotate (DuelRunContext *self,
                           DuelTestRecord *record)
{
  guint length;
  double celsius;

  g_return_if_fail (DUEL_IS_RUN_CONTEXT (self));
  g_return_if_fail (record != NULL);

  length = duel_series_get_length (record->series);
  if (length == 0)
    return;
  celsius = duel_device_thermometer_get_celsius (self->thermometer);
  if (!isnan (celsius))
    duel_series_set_temperature (record->series, length - 1, celsius);
}

void
duel_run_context_fill_result (DuelRunContext *self,
                              DuelResult     *result)
{
  g_return_if_fail (DUEL_IS_RUN_CONTEXT (self));
  g_return_if_fail (DUEL_IS_RESULT (result));

  duel_result_set_target_from (result, self->target);
  if (self->device != NULL && duel_result_get_device (result) == NULL)
    duel_result_set_device (result, self->device);
}

void
duel_run_context_finish (DuelRunContext *self,
                         DuelResult     *result)
{
  g_autoptr(DuelDeviceSnapshot) after = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (DUEL_IS_RUN_CONTEXT (self));
  g_return_if_fail (DUEL_IS_RESULT (result));

  duel_device_thermometer_stop (self->thermometer);
  duel_run_context_fill_result (self, result);

  if (self->finished)
    return;
  self->finished = TRUE;

  after = duel_device_snapshot_take_with_fd (self->path, duel_target_get_fd (self->target), &error);
  if (self->device != NULL && self->before != NULL && after != NULL)
    duel_device_snapshot_add_to_json (self->device, self->before, after,
                                      duel_device_thermometer_get_peak_celsius (self->thermometer));
}
