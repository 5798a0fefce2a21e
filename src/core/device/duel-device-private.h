/* duel-device-private.h — sysfs helpers shared by the device files
 *
 * Every reader takes a root ("/" or a captured tree) and reads
 * ROOT/sys/..., ROOT/proc/self/mountinfo and ROOT/proc/swaps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-device.h"
#include "duel-device-ata.h"
#include "duel-device-link.h"
#include "duel-device-mounts.h"
#include "engine/duel-udisks.h"
#include "duel-device-nvme.h"

G_BEGIN_DECLS

/* The contents of DIR/ATTR without surrounding white space; NULL when the
 * attribute is missing, unreadable or empty. */
char       *_duel_device_sysfs_read      (const char *dir,
                                          const char *attr);
gboolean    _duel_device_sysfs_read_u64  (const char *dir,
                                          const char *attr,
                                          guint64    *out_value);
/* The canonical form of ROOT/PATH with symbolic links resolved; NULL when it
 * does not exist or leaves the root. */
char       *_duel_device_resolve         (const char *root_real,
                                          const char *path);
/* PATH (inside ROOT_REAL) as seen from the root: "/sys/devices/...". */
const char *_duel_device_strip_root      (const char *root_real,
                                          const char *path);
/* The canonical root, "/" for the running system. */
char       *_duel_device_root_real       (const char *root,
                                          GError    **error);
gboolean    _duel_device_root_is_live    (const char *root_real);
/* "0000:01:00.0" */
gboolean    _duel_device_is_pci_address  (const char *name);
/* Sorted names of the entries of DIR (symbolic links included). */
GPtrArray  *_duel_device_list_dir        (const char *dir);

/* duel-device.c */
DuelDevice *_duel_device_new_from_sysfs  (const char        *root_real,
                                          DuelDeviceMounts  *mounts,
                                          const char        *name,
                                          GError           **error);
const char *_duel_device_get_block_dir   (DuelDevice        *self);
const char *_duel_device_get_root_real   (DuelDevice        *self);
/* The NVMe controller's sysfs directory ("…/nvme/nvme0"), or NULL. */
const char *_duel_device_get_controller_dir (DuelDevice     *self);
/* Where a SCSI disk's model came from ("ata-identify", "libata-sysfs",
 * "udev", "scsi-sysfs"), or NULL. */
const char *_duel_device_get_identity_source (DuelDevice    *self);

/* The block device under a run's target on the running system: the device
 * itself, or for a file the device of its filesystem (through the mount
 * table's source when st_dev is anonymous, as on btrfs). Sets *OUT_DEVICE
 * to NULL when there is none (tmpfs). Fails when PATH, or the folder of a
 * file still to be created, does not exist. */
gboolean    _duel_device_for_target      (const char        *path,
                                          DuelDevice       **out_device,
                                          char             **out_partition,
                                          gboolean          *out_is_block,
                                          GError           **error);
/* DEVICE's NVMe namespace, opened by its path, or else, when the run's
 * target is the whole device, through TARGET_FD (-1 for none): in a sandbox
 * or for a user without rights that is the descriptor UDisks gave. */
DuelDeviceNvme *_duel_device_open_nvme    (DuelDevice        *device,
                                          const char        *partition,
                                          int                target_fd,
                                          GError           **error);

/* duel-device-ata.c */
/* The SMART data of the drive at DEVICE_PATH (block device
 * MAJOR_NUMBER:MINOR_NUMBER) through ATA pass-through, or, where that is
 * not allowed (no CAP_SYS_RAWIO) or the node is hidden, from UDisks. */
gboolean    _duel_device_read_ata_health (const char        *device_path,
                                          guint              major_number,
                                          guint              minor_number,
                                          DuelAtaHealth     *out_health,
                                          GError           **error);
/* What UDisks last read, in the pass-through's terms: whole degrees back
 * from libatasmart's millikelvin, hours from seconds, no attributes. */
void        _duel_ata_health_from_udisks (const DuelUDisksSmart *smart,
                                          DuelAtaHealth     *out_health);
/* Fills what is still NULL of *MODEL, *SERIAL and *FIRMWARE of a SCSI disk
 * from, in turn: ATA IDENTIFY through SG_IO (PASS_THROUGH, on the running
 * system, where permitted), libata's copy of IDENTIFY in sysfs, the udev
 * database under the root. Returns the first source that gave something,
 * or NULL. */
const char *_duel_device_ata_fill_identity (const char  *root_real,
                                            const char  *device_path,
                                            const char  *device_dir,
                                            guint        major_number,
                                            guint        minor_number,
                                            gboolean     pass_through,
                                            char       **model,
                                            char       **serial,
                                            char       **firmware);

/* duel-device-link.c */
DuelDeviceLink *_duel_device_link_read   (const char *root_real,
                                          const char *block_dir,
                                          const char *controller_dir);

G_END_DECLS
