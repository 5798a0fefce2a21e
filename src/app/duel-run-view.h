/* duel-run-view.h — a run as it happens: live chart, progress, figures, stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-cdm-view.h"
#include "duel-chart.h"
#include "run/duel-run.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_RUN_VIEW (duel_run_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelRunView, duel_run_view, DUEL, RUN_VIEW, AdwBin)

void         duel_run_view_set_settings  (DuelRunView *self,
                                          GSettings   *settings);
/* Shows @task: its header, progress and time left follow its state and
 * "progress" until it ends, and stay as its final state says after. */
void         duel_run_view_set_task      (DuelRunView *self,
                                          DuelRun     *task);
DuelRun     *duel_run_view_get_task      (DuelRunView *self);
/* The run's closing message under the chart. */
void         duel_run_view_show_finished (DuelRunView *self,
                                          const char  *message,
                                          gboolean     success);
/* For tests: title, step line, progress text, time left, a fill's two
 * passes (empty when not shown) and whether Stop shows, one per line, as
 * drawn. */
char        *duel_run_view_describe      (DuelRunView *self);
/* For tests: the live chart (NULL before the first), whether it is shown
 * (else a line says what the step does), the tiles' step title, and after
 * the run its headline figures, "label\tvalue" a line (NULL while hidden). */
DuelChart   *duel_run_view_get_chart     (DuelRunView *self);
/* For tests: a test in rounds as the page shows it, three lines: the
 * round and its cell, each round's tracked figure, the verdict; NULL
 * while no test in rounds runs or ran. */
char        *duel_run_view_describe_rounds (DuelRunView *self);
gboolean     duel_run_view_get_chart_shown (DuelRunView *self);
const char  *duel_run_view_get_stats_title (DuelRunView *self);
char        *duel_run_view_describe_summary (DuelRunView *self);
/* The CrystalDiskMark grid under the summary after a run of its set; NULL otherwise. */
DuelCdmView *duel_run_view_get_summary_cdm (DuelRunView *self);
GtkWidget   *duel_run_view_get_compare_button   (DuelRunView *self);
GtkWidget   *duel_run_view_get_run_again_button (DuelRunView *self);
/* For tests: the box of figure tiles (a value and a caption each). */
GtkWidget   *duel_run_view_get_stats_box (DuelRunView *self);
/* How many times the live chart was redrawn from new data (tests watch it). */
guint        duel_run_view_get_n_chart_updates (DuelRunView *self);

G_END_DECLS
