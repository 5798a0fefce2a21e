/* duel-device.h — a block device's identity, read from sysfs
 *
 * A DuelDevice is a snapshot taken when it is created: model, serial,
 * firmware, capacity, block sizes, transport, partitions with their mount
 * points, swap use and holders, and the interface link (duel-device-link.h).
 * Readers take a root, "/" for the running system or a captured tree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "duel-device-link.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_TRANSPORT_UNKNOWN,
  DUEL_TRANSPORT_NVME,
  DUEL_TRANSPORT_SATA,
  DUEL_TRANSPORT_SAS,
  DUEL_TRANSPORT_SCSI,
  DUEL_TRANSPORT_USB,
  DUEL_TRANSPORT_VIRTIO,
  DUEL_TRANSPORT_MMC,
  DUEL_TRANSPORT_LOOP,
  DUEL_TRANSPORT_ZRAM,
  DUEL_TRANSPORT_DM,
  DUEL_TRANSPORT_MD,
} DuelTransport;

const char *duel_transport_to_string (DuelTransport transport);

typedef struct
{
  char     *name;            /* "nvme0n1p1" */
  guint     number;          /* the partition number */
  guint     major;
  guint     minor;
  guint64   start_bytes;
  guint64   size_bytes;
  gboolean  read_only;
  gboolean  swap;            /* active swap */
  GStrv     mount_points;    /* never NULL */
  GStrv     holders;         /* e.g. "dm-0"; never NULL */
} DuelDevicePartition;

#define DUEL_TYPE_DEVICE (duel_device_get_type ())

G_DECLARE_FINAL_TYPE (DuelDevice, duel_device, DUEL, DEVICE, GObject)

/* Every block device under ROOT/sys/block except hidden ones (multipath
 * paths), in natural name order. */
GPtrArray     *duel_device_enumerate               (const char  *root,
                                                    GError     **error);
/* By kernel name, "nvme0n1". A partition name gives its whole disk. */
DuelDevice    *duel_device_new_for_name            (const char  *root,
                                                    const char  *name,
                                                    GError     **error);
/* By device number through ROOT/sys/dev/block/MAJ:MIN; a partition gives its
 * whole disk and *out_partition (may be NULL) names the partition. */
DuelDevice    *duel_device_new_for_devnum          (const char  *root,
                                                    guint        major,
                                                    guint        minor,
                                                    char       **out_partition,
                                                    GError     **error);
/* A device node on the running system, e.g. "/dev/nvme0n1p2". */
DuelDevice    *duel_device_new_for_path            (const char  *path,
                                                    char       **out_partition,
                                                    GError     **error);

const char    *duel_device_get_name                (DuelDevice  *self);
/* "/dev/NAME" */
const char    *duel_device_get_device_path         (DuelDevice  *self);
/* The device's directory as seen from the root: "/sys/devices/…/block/vda". */
const char    *duel_device_get_sysfs_path          (DuelDevice  *self);
guint          duel_device_get_major               (DuelDevice  *self);
guint          duel_device_get_minor               (DuelDevice  *self);
DuelTransport  duel_device_get_transport           (DuelDevice  *self);
/* NULL when unknown. */
const char    *duel_device_get_vendor              (DuelDevice  *self);
const char    *duel_device_get_model               (DuelDevice  *self);
const char    *duel_device_get_serial              (DuelDevice  *self);
const char    *duel_device_get_firmware            (DuelDevice  *self);
const char    *duel_device_get_wwid                (DuelDevice  *self);
guint64        duel_device_get_size_bytes          (DuelDevice  *self);
guint32        duel_device_get_logical_block_size  (DuelDevice  *self);
guint32        duel_device_get_physical_block_size (DuelDevice  *self);
gboolean       duel_device_get_rotational          (DuelDevice  *self);
gboolean       duel_device_get_removable           (DuelDevice  *self);
gboolean       duel_device_get_read_only           (DuelDevice  *self);
/* NVMe: the controller ("nvme0") and namespace id; NULL / 0 otherwise. */
const char    *duel_device_get_controller          (DuelDevice  *self);
guint32        duel_device_get_nsid                (DuelDevice  *self);
/* Loop devices: the backing file; NULL otherwise. */
const char    *duel_device_get_backing_file        (DuelDevice  *self);
/* The whole disk itself, never NULL. */
const char * const *duel_device_get_mount_points   (DuelDevice  *self);
const char * const *duel_device_get_holders        (DuelDevice  *self);
gboolean       duel_device_get_swap                (DuelDevice  *self);
/* DuelDevicePartition, by partition number. */
GPtrArray     *duel_device_get_partitions          (DuelDevice  *self);
const DuelDevicePartition *duel_device_find_partition (DuelDevice *self,
                                                       const char *name);
/* The interface: PCIe path, SATA or USB speed. Never NULL (kind NONE when unknown). */
const DuelDeviceLink *duel_device_get_link         (DuelDevice  *self);
/* The first hwmon temperature input ("…/hwmon3/temp1_input") of the drive, as
 * a real path on the running system; NULL when there is none. */
const char    *duel_device_get_hwmon_temperature_path (DuelDevice *self);

/* TRUE when the disk or any partition is mounted, swap, or held. */
gboolean       duel_device_is_in_use               (DuelDevice  *self);

/* All of the above as a JSON object (unknown members are left out). */
JsonObject    *duel_device_to_json                 (DuelDevice  *self);
/* An array of duel_device_to_json() objects. */
JsonNode      *duel_device_list_to_json            (GPtrArray   *devices);

void           duel_device_partition_free          (DuelDevicePartition *partition);

G_END_DECLS
