/* duel-preferences-window.h — results folder, chart style, default interval
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-adw-compat.h"

#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_PREFERENCES_WINDOW (duel_preferences_window_get_type ())

#if DUEL_ADW_DIALOGS
G_DECLARE_FINAL_TYPE (DuelPreferencesWindow, duel_preferences_window, DUEL, PREFERENCES_WINDOW, AdwPreferencesDialog)
#else
G_DECLARE_FINAL_TYPE (DuelPreferencesWindow, duel_preferences_window, DUEL, PREFERENCES_WINDOW, AdwPreferencesWindow)
#endif

/* Shown with duel_dialog_present(). */
DuelPreferencesWindow *duel_preferences_window_new (GSettings *settings);
/* The folder exports go to: the setting, or "Drive Duel" in Documents. */
char                  *duel_preferences_get_results_folder (GSettings *settings);

G_END_DECLS
