/* duel-confirm-dialog.h — "this erases the drive" (or "the file's contents"): the user types its name to go on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-adw-compat.h"

#include "duel-drive-item.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_CONFIRM_RESPONSE_CANCEL "cancel"
#define DUEL_CONFIRM_RESPONSE_ERASE  "erase"

#define DUEL_TYPE_CONFIRM_DIALOG (duel_confirm_dialog_get_type ())

#if DUEL_ADW_DIALOGS
G_DECLARE_FINAL_TYPE (DuelConfirmDialog, duel_confirm_dialog, DUEL, CONFIRM_DIALOG, AdwAlertDialog)
#else
G_DECLARE_FINAL_TYPE (DuelConfirmDialog, duel_confirm_dialog, DUEL, CONFIRM_DIALOG, AdwMessageDialog)
#endif

/* Names model, serial and size and what will be erased; the "erase" response
 * is enabled only once the device name is typed. For an existing file: its
 * name, path and size, that its contents alone are overwritten, and its name
 * to type. Shown with duel_alert_present(). */
DuelConfirmDialog *duel_confirm_dialog_new               (DuelDriveItem *drive,
                                                          const char    *run_title);
/* The second confirmation when a filesystem, RAID or partition-table signature is present. */
DuelConfirmDialog *duel_confirm_dialog_new_for_signature (DuelDriveItem *drive,
                                                          const char    *signature);
/* What has to be typed, e.g. "nvme0n1". */
const char        *duel_confirm_dialog_get_expected_text (DuelConfirmDialog *self);
GtkEditable       *duel_confirm_dialog_get_entry         (DuelConfirmDialog *self);

G_END_DECLS
