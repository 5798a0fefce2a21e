/* duel-device.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/duel-block-node.h"
#include "duel-device.h"
#include "duel-device-mounts.h"
#include "duel-device-nvme.h"
#include "duel-device-private.h"
#include "duel-error.h"

struct _DuelDevice
{
  GObject          parent_instance;

  char            *root_real;
  char            *name;
  char            *device_path;
  char            *block_dir;        /* canonical, inside root_real */
  char            *sysfs_path;       /* block_dir as seen from the root */
  char            *controller_dir;   /* NVMe only, canonical */
  char            *controller;
  guint            major;
  guint            minor;
  DuelTransport    transport;
  char            *vendor;
  char            *model;
  char            *serial;
  char            *firmware;
  char            *wwid;
  char            *backing_file;
  char            *zram_algorithm;
  char            *write_cache;
  guint64          size_bytes;
  guint64          discard_max_bytes;
  guint32          logical_block_size;
  guint32          physical_block_size;
  guint32          nsid;
  gboolean         rotational;
  gboolean         removable;
  gboolean         read_only;
  gboolean         swap;
  GStrv            mount_points;
  GStrv            holders;
  GPtrArray       *partitions;
  DuelDeviceLink  *link;
  char            *hwmon_temperature_path;
  const char      *identity_source;  /* static: "ata-identify", "libata-sysfs", "udev", "scsi-sysfs" */
};

G_DEFINE_FINAL_TYPE (DuelDevice, duel_device, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_MODEL,
  PROP_SERIAL,
  PROP_FIRMWARE,
  PROP_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
duel_transport_to_string (DuelTransport transport)
{
  switch (transport)
    {
    case DUEL_TRANSPORT_NVME:   return "nvme";
    case DUEL_TRANSPORT_SATA:   return "sata";
    case DUEL_TRANSPORT_SAS:    return "sas";
    case DUEL_TRANSPORT_SCSI:   return "scsi";
    case DUEL_TRANSPORT_USB:    return "usb";
    case DUEL_TRANSPORT_VIRTIO: return "virtio";
    case DUEL_TRANSPORT_MMC:    return "mmc";
    case DUEL_TRANSPORT_LOOP:   return "loop";
    case DUEL_TRANSPORT_ZRAM:   return "zram";
    case DUEL_TRANSPORT_DM:     return "dm";
    case DUEL_TRANSPORT_MD:     return "md";
    case DUEL_TRANSPORT_UNKNOWN:
    default:                    return "unknown";
    }
}

void
duel_device_partition_free (DuelDevicePartition *partition)
{
  if (partition == NULL)
    return;
  g_free (partition->name);
  g_strfreev (partition->mount_points);
  g_strfreev (partition->holders);
  g_free (partition);
}

static void
duel_device_finalize (GObject *object)
{
  DuelDevice *self = DUEL_DEVICE (object);

  g_free (self->root_real);
  g_free (self->name);
  g_free (self->device_path);
  g_free (self->block_dir);
  g_free (self->sysfs_path);
  g_free (self->controller_dir);
  g_free (self->controller);
  g_free (self->vendor);
  g_free (self->model);
  g_free (self->serial);
  g_free (self->firmware);
  g_free (self->wwid);
  g_free (self->backing_file);
  g_free (self->zram_algorithm);
  g_free (self->write_cache);
  g_strfreev (self->mount_points);
  g_strfreev (self->holders);
  g_clear_pointer (&self->partitions, g_ptr_array_unref);
  g_clear_pointer (&self->link, duel_device_link_free);
  g_free (self->hwmon_temperature_path);

  G_OBJECT_CLASS (duel_device_parent_class)->finalize (object);
}

static void
duel_device_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  DuelDevice *self = DUEL_DEVICE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_SERIAL:
      g_value_set_string (value, self->serial);
      break;
    case PROP_FIRMWARE:
      g_value_set_string (value, self->firmware);
      break;
    case PROP_SIZE:
      g_value_set_uint64 (value, self->size_bytes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_device_class_init (DuelDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_device_finalize;
  object_class->get_property = duel_device_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERIAL] =
    g_param_spec_string ("serial", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FIRMWARE] =
    g_param_spec_string ("firmware", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIZE] =
    g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_device_init (DuelDevice *self)
{
  self->partitions = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_device_partition_free);
}

/* ------------------------------------------------------------------ reading */

static gboolean
parse_devnum (const char *text,
              guint      *out_major,
              guint      *out_minor)
{
  return text != NULL && sscanf (text, "%u:%u", out_major, out_minor) == 2;
}

static gboolean
name_has_number_suffix (const char *name,
                        const char *prefix)
{
  gsize len = strlen (prefix);

  return g_str_has_prefix (name, prefix) && name[len] != '\0' &&
         strspn (name + len, "0123456789") == strlen (name + len);
}

/* The sysfs directory of the NVMe controller behind a namespace: the
 * parent ("…/nvme/nvme0/nvme0n1"), or with native multipath
 * ("…/nvme-subsystem/nvme-subsys0/nvme0n1") the subsystem's first controller. */
static char *
find_nvme_controller (const char *root_real,
                      const char *block_dir)
{
  g_autofree char *parent = g_path_get_dirname (block_dir);
  g_autofree char *parent_name = g_path_get_basename (parent);
  g_autoptr(GPtrArray) entries = NULL;

  if (name_has_number_suffix (parent_name, "nvme"))
    return g_steal_pointer (&parent);
  if (!g_str_has_prefix (parent_name, "nvme-subsys"))
    return NULL;

  entries = _duel_device_list_dir (parent);
  for (guint i = 0; i < entries->len; i++)
    {
      const char *entry = g_ptr_array_index (entries, i);

      if (name_has_number_suffix (entry, "nvme"))
        {
          g_autofree char *path = g_build_filename (parent, entry, NULL);

          return _duel_device_resolve (root_real, path);
        }
    }
  return NULL;
}

/* VPD page 0x80: a 4-byte header, byte 3 the length, then the serial. */
static char *
read_vpd_serial (const char *device_dir)
{
  g_autofree char *path = g_build_filename (device_dir, "vpd_pg80", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  gsize serial_len;

  if (!g_file_get_contents (path, &contents, &length, NULL) || length < 4)
    return NULL;
  serial_len = MIN ((gsize) (guint8) contents[3], length - 4);
  if (serial_len == 0)
    return NULL;
  return g_strstrip (g_strndup (contents + 4, serial_len));
}

static char *
read_selected_choice (const char *dir,
                      const char *attr)
{
  g_autofree char *text = _duel_device_sysfs_read (dir, attr);
  const char *open;
  const char *close;

  /* "[lzo-rle] lzo lz4": the bracketed word is the one in use. */
  if (text == NULL)
    return NULL;
  open = strchr (text, '[');
  close = open != NULL ? strchr (open, ']') : NULL;
  if (open == NULL || close == NULL)
    return g_steal_pointer (&text);
  return g_strndup (open + 1, close - open - 1);
}

static GStrv
list_holders (const char *dir)
{
  g_autofree char *holders_dir = g_build_filename (dir, "holders", NULL);
  g_autoptr(GPtrArray) names = _duel_device_list_dir (holders_dir);

  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

static DuelTransport
classify (const char *name,
          const char *block_path)
{
  if (g_str_has_prefix (name, "nvme") || strstr (block_path, "/nvme/") != NULL)
    return DUEL_TRANSPORT_NVME;
  if (g_str_has_prefix (name, "loop"))
    return DUEL_TRANSPORT_LOOP;
  if (g_str_has_prefix (name, "zram"))
    return DUEL_TRANSPORT_ZRAM;
  if (g_str_has_prefix (name, "dm-"))
    return DUEL_TRANSPORT_DM;
  if (g_str_has_prefix (name, "md"))
    return DUEL_TRANSPORT_MD;
  if (g_str_has_prefix (name, "mmcblk"))
    return DUEL_TRANSPORT_MMC;
  if (g_str_has_prefix (name, "vd"))
    return DUEL_TRANSPORT_VIRTIO;
  /* SCSI disks: the path says which bus they came from. */
  if (strstr (block_path, "/usb") != NULL)
    return DUEL_TRANSPORT_USB;
  if (strstr (block_path, "/ata") != NULL)
    return DUEL_TRANSPORT_SATA;
  if (strstr (block_path, "/end_device-") != NULL)
    return DUEL_TRANSPORT_SAS;
  if (strstr (block_path, "/virtio") != NULL)
    return DUEL_TRANSPORT_VIRTIO;
  if (g_str_has_prefix (name, "sd") || g_str_has_prefix (name, "sr"))
    return DUEL_TRANSPORT_SCSI;
  return DUEL_TRANSPORT_UNKNOWN;
}

static void
read_identity (DuelDevice *self)
{
  g_autofree char *device_link = g_build_filename (self->block_dir, "device", NULL);
  g_autofree char *device_dir = NULL;

  switch (self->transport)
    {
    case DUEL_TRANSPORT_NVME:
      self->controller_dir = find_nvme_controller (self->root_real, self->block_dir);
      if (self->controller_dir != NULL)
        {
          self->controller = g_path_get_basename (self->controller_dir);
          self->model = _duel_device_sysfs_read (self->controller_dir, "model");
          self->serial = _duel_device_sysfs_read (self->controller_dir, "serial");
          self->firmware = _duel_device_sysfs_read (self->controller_dir, "firmware_rev");
        }
      {
        guint64 nsid = 0;

        if (_duel_device_sysfs_read_u64 (self->block_dir, "nsid", &nsid))
          self->nsid = (guint32) nsid;
      }
      self->wwid = _duel_device_sysfs_read (self->block_dir, "wwid");
      break;

    case DUEL_TRANSPORT_SATA:
    case DUEL_TRANSPORT_SAS:
    case DUEL_TRANSPORT_SCSI:
    case DUEL_TRANSPORT_USB:
      device_dir = _duel_device_resolve (self->root_real, device_link);
      /* SCSI's model and rev keep 16 and 4 characters of an ATA drive's:
       * the drive's own identity first, SCSI's for what is still missing. */
      self->identity_source = _duel_device_ata_fill_identity (self->root_real, self->device_path, device_dir,
                                                              self->major, self->minor,
                                                              self->transport != DUEL_TRANSPORT_SCSI,
                                                              &self->model, &self->serial, &self->firmware);
      if (device_dir != NULL)
        {
          self->vendor = _duel_device_sysfs_read (device_dir, "vendor");
          if (self->model == NULL)
            self->model = _duel_device_sysfs_read (device_dir, "model");
          if (self->firmware == NULL)
            self->firmware = _duel_device_sysfs_read (device_dir, "rev");
          if (self->serial == NULL)
            self->serial = read_vpd_serial (device_dir);
          self->wwid = _duel_device_sysfs_read (device_dir, "wwid");
          if (self->identity_source == NULL && self->model != NULL)
            self->identity_source = "scsi-sysfs";
        }
      break;

    case DUEL_TRANSPORT_MMC:
      device_dir = _duel_device_resolve (self->root_real, device_link);
      if (device_dir != NULL)
        {
          self->vendor = _duel_device_sysfs_read (device_dir, "type");
          self->model = _duel_device_sysfs_read (device_dir, "name");
          self->serial = _duel_device_sysfs_read (device_dir, "serial");
          self->firmware = _duel_device_sysfs_read (device_dir, "fwrev");
        }
      break;

    case DUEL_TRANSPORT_VIRTIO:
      self->serial = _duel_device_sysfs_read (self->block_dir, "serial");
      break;

    case DUEL_TRANSPORT_LOOP:
      {
        g_autofree char *loop_dir = g_build_filename (self->block_dir, "loop", NULL);

        self->backing_file = _duel_device_sysfs_read (loop_dir, "backing_file");
      }
      break;

    case DUEL_TRANSPORT_ZRAM:
      self->zram_algorithm = read_selected_choice (self->block_dir, "comp_algorithm");
      break;

    case DUEL_TRANSPORT_DM:
    case DUEL_TRANSPORT_MD:
    case DUEL_TRANSPORT_UNKNOWN:
    default:
      break;
    }
}

static char *
find_hwmon_input (const char *root_real,
                  const char *parent)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autofree char *hwmon_class = g_build_filename (parent, "hwmon", NULL);

  if (parent == NULL)
    return NULL;
  /* hwmonN sits in the parent itself (nvme) or in a "hwmon" class directory (drivetemp). */
  for (guint pass = 0; pass < 2; pass++)
    {
      const char *dir = pass == 0 ? parent : hwmon_class;

      entries = _duel_device_list_dir (dir);
      for (guint i = 0; i < entries->len; i++)
        {
          const char *entry = g_ptr_array_index (entries, i);
          g_autofree char *input = NULL;

          if (!name_has_number_suffix (entry, "hwmon"))
            continue;
          input = g_build_filename (dir, entry, "temp1_input", NULL);
          if (g_file_test (input, G_FILE_TEST_EXISTS))
            return g_steal_pointer (&input);
        }
      g_clear_pointer (&entries, g_ptr_array_unref);
    }
  return NULL;
}

static int
compare_partitions (gconstpointer a,
                    gconstpointer b)
{
  const DuelDevicePartition *pa = *(DuelDevicePartition * const *) a;
  const DuelDevicePartition *pb = *(DuelDevicePartition * const *) b;

  return (pa->number > pb->number) - (pa->number < pb->number);
}

static void
read_partitions (DuelDevice       *self,
                 DuelDeviceMounts *mounts)
{
  g_autoptr(GPtrArray) entries = _duel_device_list_dir (self->block_dir);

  for (guint i = 0; i < entries->len; i++)
    {
      const char *entry = g_ptr_array_index (entries, i);
      g_autofree char *dir = g_build_filename (self->block_dir, entry, NULL);
      g_autofree char *dev = NULL;
      DuelDevicePartition *partition;
      guint64 number = 0, start = 0, size = 0, ro = 0;

      if (!_duel_device_sysfs_read_u64 (dir, "partition", &number))
        continue;
      partition = g_new0 (DuelDevicePartition, 1);
      partition->name = g_strdup (entry);
      partition->number = (guint) number;
      dev = _duel_device_sysfs_read (dir, "dev");
      parse_devnum (dev, &partition->major, &partition->minor);
      /* start and size count 512-byte sectors whatever the block size. */
      if (_duel_device_sysfs_read_u64 (dir, "start", &start))
        partition->start_bytes = start * 512;
      if (_duel_device_sysfs_read_u64 (dir, "size", &size))
        partition->size_bytes = size * 512;
      partition->read_only = _duel_device_sysfs_read_u64 (dir, "ro", &ro) && ro != 0;
      partition->mount_points = duel_device_mounts_find_mount_points (mounts, partition->major, partition->minor);
      partition->swap = duel_device_mounts_is_swap_device (mounts, partition->name,
                                                           partition->major, partition->minor);
      partition->holders = list_holders (dir);
      g_ptr_array_add (self->partitions, partition);
    }
  g_ptr_array_sort (self->partitions, compare_partitions);
}

DuelDevice *
_duel_device_new_from_sysfs (const char        *root_real,
                             DuelDeviceMounts  *mounts,
                             const char        *name,
                             GError           **error)
{
  g_autoptr(DuelDevice) self = NULL;
  g_autofree char *link = NULL;
  g_autofree char *dev = NULL;
  g_autofree char *queue = NULL;
  guint64 value = 0;

  g_assert (root_real != NULL);
  g_assert (mounts != NULL);
  g_assert (name != NULL);

  self = g_object_new (DUEL_TYPE_DEVICE, NULL);
  self->root_real = g_strdup (root_real);
  self->name = g_strdup (name);
  self->device_path = g_build_filename ("/dev", name, NULL);

  link = g_build_filename ("/sys/block", name, NULL);
  self->block_dir = _duel_device_resolve (root_real, link);
  if (self->block_dir == NULL)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("There is no block device “%s”."), name);
      return NULL;
    }
  self->sysfs_path = g_strdup (_duel_device_strip_root (root_real, self->block_dir));

  dev = _duel_device_sysfs_read (self->block_dir, "dev");
  if (!parse_devnum (dev, &self->major, &self->minor))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("The block device “%s” has no device number in sysfs."), name);
      return NULL;
    }

  if (_duel_device_sysfs_read_u64 (self->block_dir, "size", &value))
    self->size_bytes = value * 512;
  self->removable = _duel_device_sysfs_read_u64 (self->block_dir, "removable", &value) && value != 0;
  self->read_only = _duel_device_sysfs_read_u64 (self->block_dir, "ro", &value) && value != 0;

  queue = g_build_filename (self->block_dir, "queue", NULL);
  if (_duel_device_sysfs_read_u64 (queue, "logical_block_size", &value))
    self->logical_block_size = (guint32) value;
  if (_duel_device_sysfs_read_u64 (queue, "physical_block_size", &value))
    self->physical_block_size = (guint32) value;
  self->rotational = _duel_device_sysfs_read_u64 (queue, "rotational", &value) && value != 0;
  if (_duel_device_sysfs_read_u64 (queue, "discard_max_bytes", &value))
    self->discard_max_bytes = value;
  self->write_cache = _duel_device_sysfs_read (queue, "write_cache");

  self->transport = classify (name, self->sysfs_path);
  read_identity (self);

  self->mount_points = duel_device_mounts_find_mount_points (mounts, self->major, self->minor);
  self->swap = duel_device_mounts_is_swap_device (mounts, name, self->major, self->minor);
  self->holders = list_holders (self->block_dir);
  read_partitions (self, mounts);

  /* Virtual devices (loop, zram, dm) have no PCI ancestor: the link is NONE. */
  self->link = _duel_device_link_read (root_real, self->block_dir, self->controller_dir);

  if (_duel_device_root_is_live (root_real))
    {
      g_autofree char *device_link = g_build_filename (self->block_dir, "device", NULL);
      g_autofree char *device_dir = _duel_device_resolve (root_real, device_link);

      self->hwmon_temperature_path = find_hwmon_input (root_real, self->controller_dir);
      if (self->hwmon_temperature_path == NULL && device_dir != NULL)
        self->hwmon_temperature_path = find_hwmon_input (root_real, device_dir);
    }

  return g_steal_pointer (&self);
}

/* "nvme2n1" before "nvme10n1": digit runs compare as numbers. */
static int
compare_natural (const char *a,
                 const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          guint64 na = g_ascii_strtoull (a, (char **) &a, 10);
          guint64 nb = g_ascii_strtoull (b, (char **) &b, 10);

          if (na != nb)
            return na < nb ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (guchar) *a - (guchar) *b;
      a++;
      b++;
    }
  return (guchar) *a - (guchar) *b;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  DuelDevice *da = *(DuelDevice * const *) a;
  DuelDevice *db = *(DuelDevice * const *) b;

  return compare_natural (da->name, db->name);
}

GPtrArray *
duel_device_enumerate (const char  *root,
                       GError     **error)
{
  g_autofree char *root_real = NULL;
  g_autofree char *block_dir = NULL;
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) devices = NULL;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root_real = _duel_device_root_real (root, error);
  if (root_real == NULL)
    return NULL;
  mounts = duel_device_mounts_load (root_real, error);
  if (mounts == NULL)
    return NULL;

  block_dir = g_build_filename (root_real, "sys", "block", NULL);
  if (!g_file_test (block_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FAILED,
                   _("There is no “%s”: sysfs is not mounted."), block_dir);
      return NULL;
    }

  devices = g_ptr_array_new_with_free_func (g_object_unref);
  names = _duel_device_list_dir (block_dir);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename ("/sys/block", name, NULL);
      g_autofree char *dir = _duel_device_resolve (root_real, path);
      guint64 hidden = 0;
      DuelDevice *device;

      /* Hidden: the per-path nodes of NVMe multipath (nvme0c0n1). */
      if (dir == NULL || (_duel_device_sysfs_read_u64 (dir, "hidden", &hidden) && hidden != 0))
        continue;
      device = _duel_device_new_from_sysfs (root_real, mounts, name, NULL);
      if (device != NULL)
        g_ptr_array_add (devices, device);
    }
  g_ptr_array_sort (devices, compare_devices);
  return g_steal_pointer (&devices);
}

DuelDevice *
duel_device_new_for_name (const char  *root,
                          const char  *name,
                          GError     **error)
{
  g_autofree char *root_real = NULL;
  g_autofree char *class_path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  guint64 partition = 0;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root_real = _duel_device_root_real (root, error);
  if (root_real == NULL)
    return NULL;
  mounts = duel_device_mounts_load (root_real, error);
  if (mounts == NULL)
    return NULL;

  if (strchr (name, '/') != NULL)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a kernel device name."), name);
      return NULL;
    }
  /* A partition: its directory sits inside the whole disk's. */
  class_path = g_build_filename ("/sys/class/block", name, NULL);
  dir = _duel_device_resolve (root_real, class_path);
  if (dir != NULL && _duel_device_sysfs_read_u64 (dir, "partition", &partition))
    {
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *disk = g_path_get_basename (parent);

      return _duel_device_new_from_sysfs (root_real, mounts, disk, error);
    }
  return _duel_device_new_from_sysfs (root_real, mounts, name, error);
}

DuelDevice *
duel_device_new_for_devnum (const char  *root,
                            guint        major,
                            guint        minor,
                            char       **out_partition,
                            GError     **error)
{
  g_autofree char *root_real = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  guint64 partition = 0;
  DuelDevice *device;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root_real = _duel_device_root_real (root, error);
  if (root_real == NULL)
    return NULL;
  mounts = duel_device_mounts_load (root_real, error);
  if (mounts == NULL)
    return NULL;

  path = g_strdup_printf ("/sys/dev/block/%u:%u", major, minor);
  dir = _duel_device_resolve (root_real, path);
  if (dir == NULL)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("There is no block device with the number %u:%u."), major, minor);
      return NULL;
    }
  name = g_path_get_basename (dir);
  if (_duel_device_sysfs_read_u64 (dir, "partition", &partition))
    {
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *disk = g_path_get_basename (parent);

      device = _duel_device_new_from_sysfs (root_real, mounts, disk, error);
      if (device != NULL && out_partition != NULL)
        *out_partition = g_steal_pointer (&name);
      return device;
    }
  device = _duel_device_new_from_sysfs (root_real, mounts, name, error);
  if (device != NULL && out_partition != NULL)
    *out_partition = NULL;
  return device;
}

DuelDevice *
duel_device_new_for_path (const char  *path,
                          char       **out_partition,
                          GError     **error)
{
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (duel_block_node_stat (path, &st, NULL) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot look at “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  if (!S_ISBLK (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is not a block device."), path);
      return NULL;
    }
  return duel_device_new_for_devnum ("/", major (st.st_rdev), minor (st.st_rdev), out_partition, error);
}

/* ------------------------------------------------------------------ getters */

const char *
duel_device_get_name (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->name;
}

const char *
duel_device_get_device_path (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->device_path;
}

const char *
duel_device_get_sysfs_path (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->sysfs_path;
}

guint
duel_device_get_major (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->major;
}

guint
duel_device_get_minor (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->minor;
}

DuelTransport
duel_device_get_transport (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), DUEL_TRANSPORT_UNKNOWN);
  return self->transport;
}

const char *
duel_device_get_vendor (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->vendor;
}

const char *
duel_device_get_model (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->model;
}

const char *
duel_device_get_serial (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->serial;
}

const char *
duel_device_get_firmware (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->firmware;
}

const char *
duel_device_get_wwid (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->wwid;
}

guint64
duel_device_get_size_bytes (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->size_bytes;
}

guint32
duel_device_get_logical_block_size (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->logical_block_size;
}

guint32
duel_device_get_physical_block_size (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->physical_block_size;
}

gboolean
duel_device_get_rotational (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), FALSE);
  return self->rotational;
}

gboolean
duel_device_get_removable (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), FALSE);
  return self->removable;
}

gboolean
duel_device_get_read_only (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), FALSE);
  return self->read_only;
}

const char *
duel_device_get_controller (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->controller;
}

guint32
duel_device_get_nsid (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), 0);
  return self->nsid;
}

const char *
duel_device_get_backing_file (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->backing_file;
}

const char * const *
duel_device_get_mount_points (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return (const char * const *) self->mount_points;
}

const char * const *
duel_device_get_holders (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return (const char * const *) self->holders;
}

gboolean
duel_device_get_swap (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), FALSE);
  return self->swap;
}

GPtrArray *
duel_device_get_partitions (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->partitions;
}

const DuelDevicePartition *
duel_device_find_partition (DuelDevice *self,
                            const char *name)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->partitions->len; i++)
    {
      const DuelDevicePartition *partition = g_ptr_array_index (self->partitions, i);

      if (strcmp (partition->name, name) == 0)
        return partition;
    }
  return NULL;
}

const DuelDeviceLink *
duel_device_get_link (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->link;
}

const char *
duel_device_get_hwmon_temperature_path (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);
  return self->hwmon_temperature_path;
}

const char *
_duel_device_get_block_dir (DuelDevice *self)
{
  return self->block_dir;
}

const char *
_duel_device_get_root_real (DuelDevice *self)
{
  return self->root_real;
}

const char *
_duel_device_get_controller_dir (DuelDevice *self)
{
  return self->controller_dir;
}

const char *
_duel_device_get_identity_source (DuelDevice *self)
{
  return self->identity_source;
}

gboolean
duel_device_is_in_use (DuelDevice *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE (self), TRUE);

  if (self->mount_points[0] != NULL || self->swap || self->holders[0] != NULL)
    return TRUE;
  for (guint i = 0; i < self->partitions->len; i++)
    {
      const DuelDevicePartition *partition = g_ptr_array_index (self->partitions, i);

      if (partition->mount_points[0] != NULL || partition->swap || partition->holders[0] != NULL)
        return TRUE;
    }
  return FALSE;
}

/* --------------------------------------------------------------------- JSON */

static void
set_string_if (JsonObject *object,
               const char *member,
               const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
}

static JsonArray *
strv_to_array (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

JsonObject *
duel_device_to_json (DuelDevice *self)
{
  JsonObject *object;
  JsonArray *partitions;
  g_autofree char *dev = NULL;

  g_return_val_if_fail (DUEL_IS_DEVICE (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "name", self->name);
  json_object_set_string_member (object, "device_path", self->device_path);
  json_object_set_string_member (object, "sysfs_path", self->sysfs_path);
  dev = g_strdup_printf ("%u:%u", self->major, self->minor);
  json_object_set_string_member (object, "dev", dev);
  json_object_set_string_member (object, "transport", duel_transport_to_string (self->transport));
  set_string_if (object, "vendor", self->vendor);
  set_string_if (object, "model", self->model);
  set_string_if (object, "serial", self->serial);
  set_string_if (object, "firmware", self->firmware);
  set_string_if (object, "wwid", self->wwid);
  set_string_if (object, "controller", self->controller);
  if (self->nsid != 0)
    json_object_set_int_member (object, "nsid", self->nsid);
  json_object_set_int_member (object, "size_bytes", (gint64) self->size_bytes);
  json_object_set_int_member (object, "logical_block_size", self->logical_block_size);
  json_object_set_int_member (object, "physical_block_size", self->physical_block_size);
  json_object_set_boolean_member (object, "rotational", self->rotational);
  json_object_set_boolean_member (object, "removable", self->removable);
  json_object_set_boolean_member (object, "read_only", self->read_only);
  set_string_if (object, "write_cache", self->write_cache);
  json_object_set_int_member (object, "discard_max_bytes", (gint64) self->discard_max_bytes);
  set_string_if (object, "backing_file", self->backing_file);
  set_string_if (object, "zram_algorithm", self->zram_algorithm);
  json_object_set_array_member (object, "mount_points", strv_to_array ((const char * const *) self->mount_points));
  json_object_set_boolean_member (object, "swap", self->swap);
  json_object_set_array_member (object, "holders", strv_to_array ((const char * const *) self->holders));

  partitions = json_array_new ();
  for (guint i = 0; i < self->partitions->len; i++)
    {
      const DuelDevicePartition *partition = g_ptr_array_index (self->partitions, i);
      JsonObject *p = json_object_new ();
      g_autofree char *pdev = g_strdup_printf ("%u:%u", partition->major, partition->minor);

      json_object_set_string_member (p, "name", partition->name);
      json_object_set_int_member (p, "number", partition->number);
      json_object_set_string_member (p, "dev", pdev);
      json_object_set_int_member (p, "start_bytes", (gint64) partition->start_bytes);
      json_object_set_int_member (p, "size_bytes", (gint64) partition->size_bytes);
      json_object_set_boolean_member (p, "read_only", partition->read_only);
      json_object_set_array_member (p, "mount_points", strv_to_array ((const char * const *) partition->mount_points));
      json_object_set_boolean_member (p, "swap", partition->swap);
      json_object_set_array_member (p, "holders", strv_to_array ((const char * const *) partition->holders));
      json_array_add_object_element (partitions, p);
    }
  json_object_set_array_member (object, "partitions", partitions);
  json_object_set_boolean_member (object, "in_use", duel_device_is_in_use (self));
  json_object_set_object_member (object, "link", duel_device_link_to_json (self->link));
  return object;
}

JsonNode *
duel_device_list_to_json (GPtrArray *devices)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  g_return_val_if_fail (devices != NULL, NULL);

  for (guint i = 0; i < devices->len; i++)
    json_array_add_object_element (array, duel_device_to_json (g_ptr_array_index (devices, i)));
  json_node_take_array (node, array);
  return node;
}

/* ------------------------------------------------------------------ targets */

gboolean
_duel_device_for_target (const char  *path,
                         DuelDevice **out_device,
                         char       **out_partition,
                         gboolean    *out_is_block,
                         GError     **error)
{
  g_autofree char *existing = g_strdup (path);
  struct stat st;
  guint dev_major, dev_minor;

  *out_device = NULL;
  *out_partition = NULL;
  *out_is_block = FALSE;

  /* A file the run will create: look at its folder. */
  if (duel_block_node_stat (existing, &st, NULL) != 0 && errno == ENOENT)
    {
      g_free (existing);
      existing = g_path_get_dirname (path);
    }
  if (duel_block_node_stat (existing, &st, NULL) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot look at “%s”: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }

  if (S_ISBLK (st.st_mode))
    {
      *out_is_block = TRUE;
      *out_device = duel_device_new_for_devnum ("/", major (st.st_rdev), minor (st.st_rdev), out_partition, error);
      return *out_device != NULL;
    }

  dev_major = major (st.st_dev);
  dev_minor = minor (st.st_dev);
  if (dev_major == 0)
    {
      /* btrfs and overlay report an anonymous device: ask the mount table. */
      dev_t source;

      if (!duel_device_mounts_block_source_of (existing, &source))
        return TRUE;
      dev_major = major (source);
      dev_minor = minor (source);
    }
  *out_device = duel_device_new_for_devnum ("/", dev_major, dev_minor, out_partition, NULL);
  return TRUE;
}

DuelDeviceNvme *
_duel_device_open_nvme (DuelDevice  *device,
                        const char  *partition,
                        int          target_fd,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  DuelDeviceNvme *nvme;

  nvme = duel_device_nvme_open (duel_device_get_device_path (device), &local_error);
  /* A partition's descriptor takes no admin commands. */
  if (nvme == NULL && target_fd >= 0 && partition == NULL)
    {
      nvme = duel_device_nvme_open_fd (duel_device_get_device_path (device), target_fd, NULL);
      if (nvme != NULL)
        return nvme;
    }
  if (nvme == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return nvme;
}
