/* duel-device-identity-text.h — a drive's identity in words, from a result file
 *
 * The identity a comparison shows for each drive (model, firmware, what
 * was measured, capacity, form factor, interface and link, slot, the
 * link's ceiling), read from what a result holds: its "device" object (as
 * the device layer or a published reference wrote it) and its target.
 * Nothing is asked of the running system, so a loaded file reads the same
 * on any machine.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "result/duel-result.h"

G_BEGIN_DECLS

/* The identity's entries, in the order a comparison lists them. */
typedef enum
{
  DUEL_DEVICE_IDENTITY_MODEL,
  DUEL_DEVICE_IDENTITY_FIRMWARE,
  DUEL_DEVICE_IDENTITY_TARGET,        /* what was measured: said only where a file was */
  DUEL_DEVICE_IDENTITY_CAPACITY,
  DUEL_DEVICE_IDENTITY_FORM_FACTOR,
  DUEL_DEVICE_IDENTITY_INTERFACE,
  DUEL_DEVICE_IDENTITY_SLOT,
  DUEL_DEVICE_IDENTITY_CEILING,
  DUEL_DEVICE_IDENTITY_N_KEYS
} DuelDeviceIdentityKey;

/* "model", "firmware", "target", "capacity", "form_factor", "interface",
 * "slot", "ceiling": the comparison's row keys. */
const char *duel_device_identity_key_to_string (DuelDeviceIdentityKey  key);
/* The entry's label, translated ("Interface and link"). */
const char *duel_device_identity_get_label     (DuelDeviceIdentityKey  key);
/* The unit of the entry's value: "bytes" for the capacity, "MB/s" for the
 * ceiling, "" for the others, which have none. */
const char *duel_device_identity_get_unit      (DuelDeviceIdentityKey  key);
/* The entry's text for @result ("NVMe, PCIe 3.0 x4", "256 MiB file on
 * ext4"), translated where it is in words, or NULL when the result does
 * not say; @out_value gets the capacity in bytes or the ceiling in MB/s,
 * NAN for the others. */
char       *duel_device_identity_dup_text      (DuelResult            *result,
                                                DuelDeviceIdentityKey  key,
                                                double                *out_value);

G_END_DECLS
