/* duel-device-snapshot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-device-private.h"
#include "duel-device-snapshot.h"

void
duel_device_snapshot_free (DuelDeviceSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_free (snapshot->device_name);
  g_free (snapshot->health_error);
  g_free (snapshot);
}

static double
read_hwmon (const char *input)
{
  g_autofree char *contents = NULL;
  char *end = NULL;
  gint64 millidegrees;

  if (input == NULL || !g_file_get_contents (input, &contents, NULL, NULL))
    return NAN;
  millidegrees = g_ascii_strtoll (contents, &end, 10);
  if (end == contents)
    return NAN;
  return millidegrees / 1000.0;
}

/* /sys/block/NAME/stat: reads, merges, sectors, ticks, writes, merges, sectors, … */
static gboolean
read_io_stats (DuelDevice *device,
               guint64    *out_read_bytes,
               guint64    *out_written_bytes)
{
  g_autofree char *text = _duel_device_sysfs_read (_duel_device_get_block_dir (device), "stat");
  guint64 fields[7];
  char *p = text;

  if (text == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      char *end = NULL;

      fields[i] = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        return FALSE;
      p = end;
    }
  /* Sectors are 512 bytes here whatever the device's block size. */
  *out_read_bytes = fields[2] * 512;
  *out_written_bytes = fields[6] * 512;
  return TRUE;
}

DuelDeviceSnapshot *
duel_device_snapshot_take (const char  *path,
                           GError     **error)
{
  return duel_device_snapshot_take_with_fd (path, -1, error);
}

DuelDeviceSnapshot *
duel_device_snapshot_take_with_fd (const char  *path,
                                   int          target_fd,
                                   GError     **error)
{
  g_autoptr(DuelDeviceSnapshot) snapshot = NULL;
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *partition = NULL;
  gboolean is_block = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_duel_device_for_target (path, &device, &partition, &is_block, error))
    return NULL;

  snapshot = g_new0 (DuelDeviceSnapshot, 1);
  snapshot->wall_time_us = g_get_real_time ();
  snapshot->temperature_c = NAN;
  if (device == NULL)
    {
      snapshot->health_error = g_strdup (_("The target is not on a block device."));
      return g_steal_pointer (&snapshot);
    }

  snapshot->device_name = g_strdup (duel_device_get_name (device));
  snapshot->has_io_stats = read_io_stats (device, &snapshot->kernel_read_bytes,
                                          &snapshot->kernel_written_bytes);

  if (duel_device_get_transport (device) == DUEL_TRANSPORT_NVME)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(DuelDeviceNvme) nvme = _duel_device_open_nvme (device, partition, is_block ? target_fd : -1,
                                                                &local_error);

      if (nvme != NULL && duel_device_nvme_get_health (nvme, &snapshot->health, &local_error))
        {
          snapshot->has_health = TRUE;
          snapshot->temperature_c = snapshot->health.temperature_c;
        }
      else
        snapshot->health_error = g_strdup (local_error->message);
    }
  else if (duel_device_get_transport (device) == DUEL_TRANSPORT_SATA ||
           duel_device_get_transport (device) == DUEL_TRANSPORT_USB ||
           duel_device_get_transport (device) == DUEL_TRANSPORT_SAS)
    {
      g_autoptr(GError) local_error = NULL;
      if (_duel_device_read_ata_health (duel_device_get_device_path (device), duel_device_get_major (device),
                                        duel_device_get_minor (device), &snapshot->ata_health, &local_error))
        {
          snapshot->has_ata_health = TRUE;
          snapshot->temperature_c = snapshot->ata_health.temperature_c;
        }
      else
        snapshot->health_error = g_strdup (local_error->message);
    }
  else
    snapshot->health_error = g_strdup_printf (_("No health log for a %s device."),
                                              duel_transport_to_string (duel_device_get_transport (device)));

  if (isnan (snapshot->temperature_c))
    snapshot->temperature_c = read_hwmon (duel_device_get_hwmon_temperature_path (device));

  return g_steal_pointer (&snapshot);
}

static void
set_celsius (JsonObject *object,
             const char *member,
             double      celsius)
{
  if (isnan (celsius))
    json_object_set_null_member (object, member);
  else
    json_object_set_double_member (object, member, round (celsius * 100) / 100);
}

JsonObject *
duel_device_snapshot_to_json (const DuelDeviceSnapshot *snapshot)
{
  JsonObject *object;
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *iso = NULL;

  g_return_val_if_fail (snapshot != NULL, NULL);

  object = json_object_new ();
  time = g_date_time_new_from_unix_utc (snapshot->wall_time_us / G_USEC_PER_SEC);
  iso = g_date_time_format_iso8601 (time);
  json_object_set_string_member (object, "time", iso);
  if (snapshot->device_name != NULL)
    json_object_set_string_member (object, "device", snapshot->device_name);
  set_celsius (object, "temperature_c", snapshot->temperature_c);
  if (snapshot->has_io_stats)
    {
      json_object_set_int_member (object, "kernel_read_bytes", (gint64) snapshot->kernel_read_bytes);
      json_object_set_int_member (object, "kernel_written_bytes", (gint64) snapshot->kernel_written_bytes);
    }
  if (snapshot->has_health)
    json_object_set_object_member (object, "smart", duel_nvme_health_to_json (&snapshot->health));
  if (snapshot->has_ata_health)
    json_object_set_object_member (object, "ata_smart", duel_ata_health_to_json (&snapshot->ata_health));
  if (snapshot->health_error != NULL)
    json_object_set_string_member (object, "smart_unavailable", snapshot->health_error);
  return object;
}

static gint64
delta_u64 (guint64 before,
           guint64 after)
{
  /* Counters only grow; a drop means a reset (or another drive) and is not a delta. */
  return after >= before ? (gint64) MIN (after - before, (guint64) G_MAXINT64) : -1;
}

static double
max_known (double a,
           double b)
{
  if (isnan (a))
    return b;
  if (isnan (b))
    return a;
  return MAX (a, b);
}

JsonObject *
duel_device_snapshot_delta_to_json (const DuelDeviceSnapshot *before,
                                    const DuelDeviceSnapshot *after,
                                    double                    peak_temperature_c)
{
  JsonObject *object;
  double peak;

  g_return_val_if_fail (before != NULL, NULL);
  g_return_val_if_fail (after != NULL, NULL);

  object = json_object_new ();
  json_object_set_double_member (object, "duration_s",
                                 (after->wall_time_us - before->wall_time_us) / (double) G_USEC_PER_SEC);
  peak = max_known (max_known (before->temperature_c, after->temperature_c), peak_temperature_c);
  set_celsius (object, "peak_temperature_c", peak);
  if (before->has_io_stats && after->has_io_stats &&
      g_strcmp0 (before->device_name, after->device_name) == 0)
    {
      json_object_set_int_member (object, "kernel_read_bytes",
                                  delta_u64 (before->kernel_read_bytes, after->kernel_read_bytes));
      json_object_set_int_member (object, "kernel_written_bytes",
                                  delta_u64 (before->kernel_written_bytes, after->kernel_written_bytes));
    }
  if (before->has_health && after->has_health)
    {
      const DuelNvmeHealth *a = &before->health;
      const DuelNvmeHealth *b = &after->health;
      gint64 units_written = delta_u64 (a->data_units_written, b->data_units_written);
      gint64 units_read = delta_u64 (a->data_units_read, b->data_units_read);

      /* The drive counts in units of 512 000 bytes, rounded up. */
      json_object_set_int_member (object, "data_written_bytes",
                                  units_written < 0 ? -1 : units_written * DUEL_NVME_DATA_UNIT_BYTES);
      json_object_set_int_member (object, "data_read_bytes",
                                  units_read < 0 ? -1 : units_read * DUEL_NVME_DATA_UNIT_BYTES);
      json_object_set_int_member (object, "host_write_commands",
                                  delta_u64 (a->host_write_commands, b->host_write_commands));
      json_object_set_int_member (object, "host_read_commands",
                                  delta_u64 (a->host_read_commands, b->host_read_commands));
      json_object_set_int_member (object, "thermal_transitions_1",
                                  delta_u64 (a->thermal_transitions[0], b->thermal_transitions[0]));
      json_object_set_int_member (object, "thermal_transitions_2",
                                  delta_u64 (a->thermal_transitions[1], b->thermal_transitions[1]));
      json_object_set_int_member (object, "thermal_seconds_1",
                                  delta_u64 (a->thermal_seconds[0], b->thermal_seconds[0]));
      json_object_set_int_member (object, "thermal_seconds_2",
                                  delta_u64 (a->thermal_seconds[1], b->thermal_seconds[1]));
      json_object_set_int_member (object, "warning_temperature_minutes",
                                  delta_u64 (a->warning_temperature_minutes, b->warning_temperature_minutes));
      json_object_set_int_member (object, "critical_temperature_minutes",
                                  delta_u64 (a->critical_temperature_minutes, b->critical_temperature_minutes));
      json_object_set_int_member (object, "media_errors", delta_u64 (a->media_errors, b->media_errors));
      json_object_set_int_member (object, "percentage_used", (gint64) b->percentage_used - a->percentage_used);
      json_object_set_int_member (object, "available_spare_percent",
                                  (gint64) b->available_spare_percent - a->available_spare_percent);
      json_object_set_int_member (object, "critical_warning_after", b->critical_warning);
      /* Throttling: any new transition or time spent above a threshold. */
      json_object_set_boolean_member (object, "throttled",
                                      b->thermal_transitions[0] != a->thermal_transitions[0] ||
                                      b->thermal_transitions[1] != a->thermal_transitions[1] ||
                                      b->warning_temperature_minutes != a->warning_temperature_minutes ||
                                      b->critical_temperature_minutes != a->critical_temperature_minutes);
    }
  return object;
}

void
duel_device_snapshot_add_to_json (JsonObject               *device,
                                  const DuelDeviceSnapshot *before,
                                  const DuelDeviceSnapshot *after,
                                  double                    peak_temperature_c)
{
  g_return_if_fail (device != NULL);
  g_return_if_fail (before != NULL);
  g_return_if_fail (after != NULL);

  json_object_set_object_member (device, "health_before", duel_device_snapshot_to_json (before));
  json_object_set_object_member (device, "health_after", duel_device_snapshot_to_json (after));
  json_object_set_object_member (device, "health_delta",
                                 duel_device_snapshot_delta_to_json (before, after, peak_temperature_c));
}
