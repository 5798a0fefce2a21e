/* duel-device-describe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "duel-device-ata.h"
#include "duel-device-describe.h"
#include "duel-device-nvme.h"
#include "duel-device-private.h"
#include "duel-error.h"

static void
add_note (JsonObject *object,
          const char *note)
{
  if (!json_object_has_member (object, "notes"))
    json_object_set_array_member (object, "notes", json_array_new ());
  json_array_add_string_element (json_object_get_array_member (object, "notes"), note);
}

static void
set_string_if (JsonObject *object,
               const char *member,
               const char *value)
{
  if (value != NULL && value[0] != '\0')
    json_object_set_string_member (object, member, value);
}

static void
describe_nvme (JsonObject *object,
               DuelDevice *device,
               const char *partition,
               int         target_fd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  DuelNvmeController controller;
  DuelNvmeNamespace ns;
  DuelNvmeHealth health;
  JsonObject *nvme_object;

  nvme = _duel_device_open_nvme (device, partition, target_fd, &error);
  if (nvme == NULL)
    {
      add_note (object, error->message);
      return;
    }
  if (!duel_device_nvme_identify_controller (nvme, &controller, &error))
    {
      add_note (object, error->message);
      return;
    }
  nvme_object = json_object_new ();
  json_object_set_object_member (nvme_object, "controller", duel_nvme_controller_to_json (&controller));
  if (duel_device_nvme_identify_namespace (nvme, &ns, &error))
    json_object_set_object_member (nvme_object, "namespace", duel_nvme_namespace_to_json (&ns));
  else
    {
      add_note (object, error->message);
      g_clear_error (&error);
    }
  json_object_set_object_member (object, "nvme", nvme_object);

  /* Identify data is what the drive says of itself; sysfs may be stale after a firmware update. */
  set_string_if (object, "firmware", controller.firmware);

  if (duel_device_nvme_get_health (nvme, &health, &error))
    {
      json_object_set_object_member (object, "smart", duel_nvme_health_to_json (&health));
      if (!isnan (health.temperature_c))
        json_object_set_double_member (object, "temperature_c", round (health.temperature_c * 100) / 100);
    }
  else
    add_note (object, error->message);
}

static void
describe_ata (JsonObject *object,
              DuelDevice *device)
{
  g_autoptr(GError) error = NULL;
  DuelTransport transport = duel_device_get_transport (device);
  DuelAtaHealth health;

  set_string_if (object, "identity_source", _duel_device_get_identity_source (device));
  if (transport != DUEL_TRANSPORT_SATA && transport != DUEL_TRANSPORT_USB && transport != DUEL_TRANSPORT_SAS)
    return;
  if (!_duel_device_read_ata_health (duel_device_get_device_path (device), duel_device_get_major (device),
                                     duel_device_get_minor (device), &health, &error))
    {
      /* A USB bridge or a SAS drive that takes no ATA commands is no news;
       * missing rights are. */
      if (transport == DUEL_TRANSPORT_SATA || g_error_matches (error, DUEL_ERROR, DUEL_ERROR_TARGET))
        add_note (object, error->message);
      return;
    }
  json_object_set_object_member (object, "ata_smart", duel_ata_health_to_json (&health));
  if (!isnan (health.temperature_c))
    json_object_set_double_member (object, "temperature_c", health.temperature_c);
}

JsonObject *
duel_device_describe (const char  *path,
                      GError     **error)
{
  return duel_device_describe_with_fd (path, -1, error);
}

JsonObject *
duel_device_describe_with_fd (const char  *path,
                              int          target_fd,
                              GError     **error)
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *partition = NULL;
  gboolean is_block = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_duel_device_for_target (path, &device, &partition, &is_block, error))
    return NULL;

  object = json_object_new ();
  json_object_set_string_member (object, "target_path", path);
  json_object_set_string_member (object, "kind", is_block ? "block" : "file");
  if (partition != NULL)
    json_object_set_string_member (object, "partition", partition);

  if (!is_block)
    {
      g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load_here ("/", NULL);
      g_autofree char *real = realpath (path, NULL);
      const DuelDeviceMount *mount = NULL;

      /* A file still to be created lives in its folder's filesystem. */
      if (real == NULL)
        {
          g_autofree char *dir = g_path_get_dirname (path);
          real = realpath (dir, NULL);
        }
      if (mounts != NULL && real != NULL)
        mount = duel_device_mounts_find_for_path (mounts, real);
      if (mount != NULL)
        {
          JsonObject *fs = json_object_new ();

          json_object_set_string_member (fs, "type", mount->fstype);
          json_object_set_string_member (fs, "mount_point", mount->mount_point);
          json_object_set_string_member (fs, "source", mount->source);
          /* btrfs's compress= among them: duel_filesystem_note() reads it. */
          if (mount->options != NULL)
            json_object_set_string_member (fs, "options", mount->options);
          json_object_set_object_member (object, "filesystem", fs);
        }
    }

  if (device == NULL)
    {
      add_note (object, _("The target is not on a block device; there is no drive to describe."));
      return g_steal_pointer (&object);
    }

  {
    JsonObject *identity = duel_device_to_json (device);
    JsonNode *link = json_object_dup_member (identity, "link");

    /* The link sits at the top, the sysfs identity below it. */
    json_object_remove_member (identity, "link");
    json_object_set_string_member (object, "device_name", duel_device_get_name (device));
    set_string_if (object, "model", duel_device_get_model (device));
    set_string_if (object, "serial", duel_device_get_serial (device));
    set_string_if (object, "firmware", duel_device_get_firmware (device));
    json_object_set_string_member (object, "transport", duel_transport_to_string (duel_device_get_transport (device)));
    json_object_set_int_member (object, "capacity_bytes", (gint64) duel_device_get_size_bytes (device));
    json_object_set_member (object, "link", link);
    json_object_set_object_member (object, "block_device", identity);
  }

  switch (duel_device_get_transport (device))
    {
    case DUEL_TRANSPORT_NVME:
      describe_nvme (object, device, partition, is_block ? target_fd : -1);
      break;
    case DUEL_TRANSPORT_SATA:
    case DUEL_TRANSPORT_USB:
    case DUEL_TRANSPORT_SAS:
    case DUEL_TRANSPORT_SCSI:
      describe_ata (object, device);
      break;
    default:
      break;
    }
  if (!json_object_has_member (object, "temperature_c") &&
      duel_device_get_hwmon_temperature_path (device) != NULL)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (duel_device_get_hwmon_temperature_path (device), &text, NULL, NULL))
        json_object_set_double_member (object, "temperature_c", g_ascii_strtoll (text, NULL, 10) / 1000.0);
    }

  return g_steal_pointer (&object);
}
