/* duel-history-view.h — the runs made so far: compare, rename, delete
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-history.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_HISTORY_VIEW (duel_history_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelHistoryView, duel_history_view, DUEL, HISTORY_VIEW, AdwBin)

void         duel_history_view_set_history (DuelHistoryView *self,
                                            DuelHistory     *history);
DuelHistory *duel_history_view_get_history (DuelHistoryView *self);

G_END_DECLS
