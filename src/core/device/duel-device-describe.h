/* duel-device-describe.h — everything known about a run's target, as JSON
 *
 * The object stored as the result file's "device" member: a summary
 * (model, serial, firmware, transport, capacity), the block device's sysfs
 * identity, the interface link, NVMe identify data and the SMART / health
 * log, and for a file target its filesystem and the block device under it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Fails only when PATH (or, for a file still to be created, its folder)
 * does not exist; parts that cannot be read (NVMe commands without root)
 * are left out and explained in "notes". */
JsonObject *duel_device_describe         (const char  *path,
                                          GError     **error);
/* The same, with the run's descriptor of PATH (-1 for none) to read the
 * drive's NVMe data through when PATH itself cannot be opened: a device
 * UDisks opened, in a sandbox or for a user without rights. */
JsonObject *duel_device_describe_with_fd (const char  *path,
                                          int          target_fd,
                                          GError     **error);

G_END_DECLS
