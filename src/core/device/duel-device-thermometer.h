/* duel-device-thermometer.h — the drive's temperature during a run
 *
 * Reads hwmon (NVMe with CONFIG_NVME_HWMON, SATA with drivetemp) or the
 * NVMe SMART log's composite temperature. A background thread polls every
 * few seconds, so duel_device_thermometer_get_celsius() is a cheap read of
 * the latest value that never waits for the drive: call it from the engine's
 * progress callback when an interval closes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define DUEL_DEVICE_THERMOMETER_DEFAULT_INTERVAL_MS 5000

#define DUEL_TYPE_DEVICE_THERMOMETER (duel_device_thermometer_get_type ())

G_DECLARE_FINAL_TYPE (DuelDeviceThermometer, duel_device_thermometer, DUEL, DEVICE_THERMOMETER, GObject)

/* PATH: the run's target (a block device, or a file on one). Never fails:
 * without a sensor every reading is NAN. */
DuelDeviceThermometer *duel_device_thermometer_new              (const char            *path);
/* The same, reading the NVMe log through TARGET_FD (the run's descriptor
 * of PATH, -1 for none) when PATH itself cannot be opened. */
DuelDeviceThermometer *duel_device_thermometer_new_with_fd      (const char            *path,
                                                                 int                    target_fd);
/* "hwmon", "nvme-smart" or "none". */
const char            *duel_device_thermometer_get_source       (DuelDeviceThermometer *self);
/* Reads the sensor now (a sysfs read or an admin command): not for the I/O thread. */
double                 duel_device_thermometer_read             (DuelDeviceThermometer *self);
/* Polls in a thread of its own every INTERVAL_MS until stopped or
 * finalized; FALSE when that thread cannot start (duel_thread_try_new()). */
gboolean               duel_device_thermometer_start            (DuelDeviceThermometer *self,
                                                                 guint                  interval_ms,
                                                                 GError               **error);
void                   duel_device_thermometer_stop             (DuelDeviceThermometer *self);
/* The latest polled value and the highest since start; NAN when unknown. */
double                 duel_device_thermometer_get_celsius      (DuelDeviceThermometer *self);
double                 duel_device_thermometer_get_peak_celsius (DuelDeviceThermometer *self);

G_END_DECLS
