/* duel-drive-item.h — a target the user can run on: a block device or a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "device/duel-device.h"
#include "engine/duel-target.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_DRIVE_ITEM (duel_drive_item_get_type ())

G_DECLARE_FINAL_TYPE (DuelDriveItem, duel_drive_item, DUEL, DRIVE_ITEM, GObject)

DuelDriveItem  *duel_drive_item_new_for_device      (DuelDevice     *device);
/* A file target: an existing file as it is (its own size, never changed
 * without asking), or a new one that the run creates at @size_bytes. */
DuelDriveItem  *duel_drive_item_new_for_file        (const char     *path,
                                                     guint64         size_bytes);
/* The app's own scratch file: created at, and kept to, @size_bytes (the
 * preference), whatever it holds now. */
DuelDriveItem  *duel_drive_item_new_for_scratch     (const char     *path,
                                                     guint64         size_bytes);
/* What the run may create the file at, or grow it to; 0 keeps it as it is
 * (an existing file). 0 for devices. */
guint64         duel_drive_item_get_create_size     (DuelDriveItem  *self);
/* Makes a file target's folder before anything writes there (the scratch
 * file's, in the cache, may not exist yet; a failure shows when the file is
 * opened). Nothing for a device. */
void            duel_drive_item_make_folder         (DuelDriveItem  *self);

DuelTargetKind  duel_drive_item_get_kind            (DuelDriveItem  *self);
const char     *duel_drive_item_get_path            (DuelDriveItem  *self);
/* NULL for files. */
DuelDevice     *duel_drive_item_get_device          (DuelDriveItem  *self);
/* "Samsung SSD 970 EVO 1TB", or a file's name. */
const char     *duel_drive_item_get_title           (DuelDriveItem  *self);
/* "1.0 TB · NVMe · PCIe 3.0 x4 (3.9 GB/s) · 41 °C" */
const char     *duel_drive_item_get_subtitle        (DuelDriveItem  *self);
/* A file target's: what a file on its filesystem measures when it is not
 * the drive (duel_filesystem_note()); NULL otherwise. */
const char     *duel_drive_item_get_filesystem_note (DuelDriveItem  *self);
const char     *duel_drive_item_get_icon_name       (DuelDriveItem  *self);
guint64         duel_drive_item_get_size_bytes      (DuelDriveItem  *self);
/* The link's ceiling in bytes per second; 0 when unknown. */
double          duel_drive_item_get_ceiling         (DuelDriveItem  *self);
/* NAN when the drive has no temperature sensor. */
double          duel_drive_item_get_temperature     (DuelDriveItem  *self);
/* Re-reads the temperature sensor; returns TRUE when the value changed. */
gboolean        duel_drive_item_refresh_temperature (DuelDriveItem  *self);
/* Mounted, swap or held: a write run would be refused. */
gboolean        duel_drive_item_is_in_use           (DuelDriveItem  *self);
/* The device's kernel name ("nvme0n1") or the file's base name: what the user types to confirm. */
const char     *duel_drive_item_get_confirm_name    (DuelDriveItem  *self);

G_END_DECLS
