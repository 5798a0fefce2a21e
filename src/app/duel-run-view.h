/* duel-run-view.h — a run as it happens: live chart, progress, figures, stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-run-task.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_RUN_VIEW (duel_run_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelRunView, duel_run_view, DUEL, RUN_VIEW, AdwBin)

void         duel_run_view_set_settings  (DuelRunView *self,
                                          GSettings   *settings);
/* Shows @task and follows its "progress" until it ends. */
void         duel_run_view_set_task      (DuelRunView *self,
                                          DuelRunTask *task);
DuelRunTask *duel_run_view_get_task      (DuelRunView *self);
/* "Stopping…" between a cancel and the end of the run. */
void         duel_run_view_set_stopping  (DuelRunView *self,
                                          gboolean     stopping);
/* After the run: a line saying how it ended. */
void         duel_run_view_show_finished (DuelRunView *self,
                                          const char  *message,
                                          gboolean     success);
/* How many times the live chart was redrawn from new data (tests watch it). */
guint        duel_run_view_get_n_chart_updates (DuelRunView *self);

G_END_DECLS
