/* duel-series-private.h — what the loader does with a series that others do not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-series.h"

G_BEGIN_DECLS

/* An empty @series takes @rows (@n_rows of them, filled straight from a
 * file's text, g_malloc'd) as its rows, without a copy. */
void _duel_series_adopt_rows (DuelSeries    *series,
                              DuelSeriesRow *rows,
                              guint          n_rows);

G_END_DECLS
