/* duel-device-thermometer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-device-nvme.h"
#include "duel-device-private.h"
#include "duel-device-thermometer.h"
#include "duel-system.h"

typedef enum
{
  SOURCE_NONE,
  SOURCE_HWMON,
  SOURCE_NVME_SMART,
} Source;

struct _DuelDeviceThermometer
{
  GObject          parent_instance;

  Source           source;
  char            *hwmon_input;
  DuelDeviceNvme  *nvme;

  /* The poll thread and the readers share these under the mutex. */
  GMutex           mutex;
  GCond            cond;
  GThread         *thread;
  gboolean         stopping;
  guint            interval_ms;
  double           latest_c;
  double           peak_c;
};

G_DEFINE_FINAL_TYPE (DuelDeviceThermometer, duel_device_thermometer, G_TYPE_OBJECT)

static void
duel_device_thermometer_dispose (GObject *object)
{
  DuelDeviceThermometer *self = DUEL_DEVICE_THERMOMETER (object);

  duel_device_thermometer_stop (self);
  g_clear_object (&self->nvme);

  G_OBJECT_CLASS (duel_device_thermometer_parent_class)->dispose (object);
}

static void
duel_device_thermometer_finalize (GObject *object)
{
  DuelDeviceThermometer *self = DUEL_DEVICE_THERMOMETER (object);

  g_free (self->hwmon_input);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (duel_device_thermometer_parent_class)->finalize (object);
}

static void
duel_device_thermometer_class_init (DuelDeviceThermometerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = duel_device_thermometer_dispose;
  object_class->finalize = duel_device_thermometer_finalize;
}

static void
duel_device_thermometer_init (DuelDeviceThermometer *self)
{
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->latest_c = NAN;
  self->peak_c = NAN;
}

DuelDeviceThermometer *
duel_device_thermometer_new (const char *path)
{
  return duel_device_thermometer_new_with_fd (path, -1);
}

DuelDeviceThermometer *
duel_device_thermometer_new_with_fd (const char *path,
                                     int         target_fd)
{
  DuelDeviceThermometer *self;
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *partition = NULL;
  gboolean is_block = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (DUEL_TYPE_DEVICE_THERMOMETER, NULL);
  if (!_duel_device_for_target (path, &device, &partition, &is_block, NULL) || device == NULL)
    return self;

  /* hwmon first: the kernel caches it and no admin command is needed. */
  if (duel_device_get_hwmon_temperature_path (device) != NULL)
    {
      self->source = SOURCE_HWMON;
      self->hwmon_input = g_strdup (duel_device_get_hwmon_temperature_path (device));
    }
  else if (duel_device_get_transport (device) == DUEL_TRANSPORT_NVME)
    {
      g_autoptr(DuelDeviceNvme) nvme = _duel_device_open_nvme (device, partition, is_block ? target_fd : -1, NULL);
      DuelNvmeHealth health;

      if (nvme != NULL && duel_device_nvme_get_health (nvme, &health, NULL) && !isnan (health.temperature_c))
        {
          self->source = SOURCE_NVME_SMART;
          self->nvme = g_steal_pointer (&nvme);
        }
    }
  return self;
}

const char *
duel_device_thermometer_get_source (DuelDeviceThermometer *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_THERMOMETER (self), NULL);

  switch (self->source)
    {
    case SOURCE_HWMON:      return "hwmon";
    case SOURCE_NVME_SMART: return "nvme-smart";
    case SOURCE_NONE:
    default:                return "none";
    }
}

double
duel_device_thermometer_read (DuelDeviceThermometer *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_THERMOMETER (self), NAN);

  switch (self->source)
    {
    case SOURCE_HWMON:
      {
        g_autofree char *contents = NULL;
        char *end = NULL;
        gint64 millidegrees;

        if (!g_file_get_contents (self->hwmon_input, &contents, NULL, NULL))
          return NAN;
        millidegrees = g_ascii_strtoll (contents, &end, 10);
        return end == contents ? NAN : millidegrees / 1000.0;
      }
    case SOURCE_NVME_SMART:
      {
        DuelNvmeHealth health;

        if (!duel_device_nvme_get_health (self->nvme, &health, NULL))
          return NAN;
        return health.temperature_c;
      }
    case SOURCE_NONE:
    default:
      return NAN;
    }
}

static void
store (DuelDeviceThermometer *self,
       double                 celsius)
{
  g_mutex_lock (&self->mutex);
  self->latest_c = celsius;
  if (!isnan (celsius) && (isnan (self->peak_c) || celsius > self->peak_c))
    self->peak_c = celsius;
  g_mutex_unlock (&self->mutex);
}

static gpointer
poll_thread (gpointer user_data)
{
  DuelDeviceThermometer *self = user_data;

  g_mutex_lock (&self->mutex);
  while (!self->stopping)
    {
      gint64 deadline;

      g_mutex_unlock (&self->mutex);
      store (self, duel_device_thermometer_read (self));
      g_mutex_lock (&self->mutex);

      deadline = g_get_monotonic_time () + self->interval_ms * G_TIME_SPAN_MILLISECOND;
      while (!self->stopping)
        {
          if (!g_cond_wait_until (&self->cond, &self->mutex, deadline))
            break;
        }
    }
  g_mutex_unlock (&self->mutex);
  return NULL;
}

gboolean
duel_device_thermometer_start (DuelDeviceThermometer  *self,
                               guint                   interval_ms,
                               GError                **error)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_THERMOMETER (self), FALSE);
  g_return_val_if_fail (interval_ms > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->thread != NULL || self->source == SOURCE_NONE)
    return TRUE;
  self->stopping = FALSE;
  self->interval_ms = interval_ms;
  g_mutex_lock (&self->mutex);
  self->peak_c = NAN;
  g_mutex_unlock (&self->mutex);
  /* The thread holds no reference: stop() (also from dispose) joins it. */
  self->thread = duel_thread_try_new ("duel-thermometer", poll_thread, self, error);
  return self->thread != NULL;
}

void
duel_device_thermometer_stop (DuelDeviceThermometer *self)
{
  g_return_if_fail (DUEL_IS_DEVICE_THERMOMETER (self));

  if (self->thread == NULL)
    return;
  g_mutex_lock (&self->mutex);
  self->stopping = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->mutex);
  g_thread_join (g_steal_pointer (&self->thread));
}

double
duel_device_thermometer_get_celsius (DuelDeviceThermometer *self)
{
  double celsius;

  g_return_val_if_fail (DUEL_IS_DEVICE_THERMOMETER (self), NAN);

  g_mutex_lock (&self->mutex);
  celsius = self->latest_c;
  g_mutex_unlock (&self->mutex);
  return celsius;
}

double
duel_device_thermometer_get_peak_celsius (DuelDeviceThermometer *self)
{
  double celsius;

  g_return_val_if_fail (DUEL_IS_DEVICE_THERMOMETER (self), NAN);

  g_mutex_lock (&self->mutex);
  celsius = self->peak_c;
  g_mutex_unlock (&self->mutex);
  return celsius;
}
