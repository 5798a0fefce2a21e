/* duel-drives-view.h — the drives and file targets to choose from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-drive-item.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_DRIVES_VIEW (duel_drives_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelDrivesView, duel_drives_view, DUEL, DRIVES_VIEW, AdwBin)

void           duel_drives_view_set_settings (DuelDrivesView *self,
                                              GSettings      *settings);
/* DuelDriveItem: block devices first, then file targets. */
GListModel    *duel_drives_view_get_model    (DuelDrivesView *self);
DuelDriveItem *duel_drives_view_get_selected (DuelDrivesView *self);
void           duel_drives_view_set_selected (DuelDrivesView *self,
                                              DuelDriveItem  *item);
/* Enumerates the block devices again (in a worker thread). */
void           duel_drives_view_refresh      (DuelDrivesView *self);
/* Asks for a file with a file chooser and adds it. */
/* A new file the run creates at the preferred size (a Save dialog). */
void           duel_drives_view_choose_file  (DuelDrivesView *self);
/* An existing file, used as it is (an Open dialog). */
void           duel_drives_view_choose_existing_file (DuelDrivesView *self);
/* Adds (or finds) a file target, remembers it, and selects it. */
DuelDriveItem *duel_drives_view_add_file     (DuelDrivesView *self,
                                              const char     *path);

G_END_DECLS
