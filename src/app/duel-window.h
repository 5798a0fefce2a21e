/* duel-window.h — the main window: drives, run, compare, history
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "analysis/duel-comparison.h"
#include "run/duel-run.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_WINDOW (duel_window_get_type ())

G_DECLARE_FINAL_TYPE (DuelWindow, duel_window, DUEL, WINDOW, AdwApplicationWindow)

DuelWindow         *duel_window_new                 (DuelApplication     *application);
gboolean            duel_window_is_page_name        (const char          *name);
void                duel_window_set_page            (DuelWindow          *self,
                                                     const char          *name);
const char         *duel_window_get_page            (DuelWindow          *self);
/* Loads result files into the comparison: the first as drive A, the second as B
 * (one file goes to the free side). */
void                duel_window_open_files          (DuelWindow          *self,
                                                     GFile              **files,
                                                     int                  n_files);
void                duel_window_add_toast           (DuelWindow          *self,
                                                     const char          *message);
/* TRUE while result files, the history or the references are still loading. */
gboolean            duel_window_is_busy             (DuelWindow          *self);

DuelDrivesView     *duel_window_get_drives_view     (DuelWindow          *self);
DuelPresetsView    *duel_window_get_presets_view    (DuelWindow          *self);
DuelRunView        *duel_window_get_run_view        (DuelWindow          *self);
DuelComparisonView *duel_window_get_comparison_view (DuelWindow          *self);
DuelHistoryView    *duel_window_get_history_view    (DuelWindow          *self);
/* The run going on (or the last one), NULL before the first. */
DuelRun        *duel_window_get_run_task        (DuelWindow          *self);
/* Runs started from now on show every step (duel_run_set_show_every_step()):
 * for tests of the Run page. */
void                duel_window_set_show_every_step (DuelWindow          *self,
                                                     gboolean             show_every_step);

/* Waits until nothing is loading and the window has drawn, then renders it
 * into a PNG file in-process (no X tools needed). */
void                duel_window_save_screenshot_async  (DuelWindow          *self,
                                                        const char          *path,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
gboolean            duel_window_save_screenshot_finish (DuelWindow          *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

G_END_DECLS
