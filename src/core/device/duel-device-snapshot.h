/* duel-device-snapshot.h — health before and after a run, and the deltas
 *
 * Take one right before a run and one right after; the result file keeps
 * both and their difference in its "device" object: data written (the
 * drive's own NVMe counter and the kernel's), peak temperature, thermal
 * throttling transitions and times, new media errors. SATA and USB drives
 * that take ATA commands add their SMART attributes and status.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "duel-device-ata.h"
#include "duel-device-nvme.h"

G_BEGIN_DECLS

typedef struct
{
  gint64          wall_time_us;       /* g_get_real_time() */
  char           *device_name;        /* the whole disk, NULL when not resolvable */
  gboolean        has_health;         /* NVMe SMART / health was read */
  DuelNvmeHealth  health;
  gboolean        has_ata_health;     /* ATA SMART was read (SATA, USB) */
  DuelAtaHealth   ata_health;
  char           *health_error;       /* why not (no NVMe, no permission) */
  double          temperature_c;      /* SMART composite or hwmon; NAN when unknown */
  gboolean        has_io_stats;       /* from /sys/block/NAME/stat */
  guint64         kernel_read_bytes;
  guint64         kernel_written_bytes;
} DuelDeviceSnapshot;

/* PATH: the run's target, a block device or a file (then the block device
 * under its filesystem, when there is one). Fails only when PATH does not
 * exist; what cannot be read is left out and explained in health_error. */
DuelDeviceSnapshot *duel_device_snapshot_take           (const char               *path,
                                                         GError                  **error);
/* The same, reading NVMe health through TARGET_FD (the run's descriptor of
 * PATH, -1 for none) when PATH itself cannot be opened. */
DuelDeviceSnapshot *duel_device_snapshot_take_with_fd   (const char               *path,
                                                         int                       target_fd,
                                                         GError                  **error);
void                duel_device_snapshot_free           (DuelDeviceSnapshot       *snapshot);
JsonObject         *duel_device_snapshot_to_json        (const DuelDeviceSnapshot *snapshot);
/* AFTER − BEFORE. PEAK_TEMPERATURE_C is the highest polled value during the
 * run (NAN when none); the delta's peak also counts both snapshots. */
JsonObject         *duel_device_snapshot_delta_to_json  (const DuelDeviceSnapshot *before,
                                                         const DuelDeviceSnapshot *after,
                                                         double                    peak_temperature_c);
/* Sets "health_before", "health_after" and "health_delta" on DEVICE (the
 * object from duel_device_describe()). */
void                duel_device_snapshot_add_to_json    (JsonObject               *device,
                                                         const DuelDeviceSnapshot *before,
                                                         const DuelDeviceSnapshot *after,
                                                         double                    peak_temperature_c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelDeviceSnapshot, duel_device_snapshot_free)

G_END_DECLS
