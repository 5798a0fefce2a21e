/* duel-drive-item.h — a target the user can run on: a block device or a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-device.h"
#include "duel-target.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_DRIVE_ITEM (duel_drive_item_get_type ())

G_DECLARE_FINAL_TYPE (DuelDriveItem, duel_drive_item, DUEL, DRIVE_ITEM, GObject)

DuelDriveItem  *duel_drive_item_new_for_device      (DuelDevice     *device);
/* A file target; @size_bytes is what a new file is created with (an existing
 * file keeps its size, or grows to it). */
DuelDriveItem  *duel_drive_item_new_for_file        (const char     *path,
                                                     guint64         size_bytes);

DuelTargetKind  duel_drive_item_get_kind            (DuelDriveItem  *self);
const char     *duel_drive_item_get_path            (DuelDriveItem  *self);
/* NULL for files. */
DuelDevice     *duel_drive_item_get_device          (DuelDriveItem  *self);
/* "Samsung SSD 970 EVO 1TB", or a file's name. */
const char     *duel_drive_item_get_title           (DuelDriveItem  *self);
/* "1.0 TB · NVMe · PCIe 3.0 x4 (3.9 GB/s) · 41 °C" */
const char     *duel_drive_item_get_subtitle        (DuelDriveItem  *self);
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
