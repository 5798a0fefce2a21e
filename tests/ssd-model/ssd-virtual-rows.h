/* ssd-virtual-rows.h — completions on the model's clock counted into interval rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <string.h>

#include "engine/duel-series.h"

/* Closes the rows of @series up to (not including) the one holding @t_ns
 * (from the test's start), @row then being the one that holds it. */
static inline void
ssd_virtual_close_rows (DuelSeries    *series,
                        DuelSeriesRow *row,
                        guint          interval_ms,
                        guint64        t_ns)
{
  while (t_ns >= row->t_ms * G_GUINT64_CONSTANT (1000000))
    {
      duel_series_append (series, row);
      memset (row, 0, sizeof *row);
      row->t_ms = duel_series_get_length (series) * (guint64) interval_ms + interval_ms;
      row->temperature_c = NAN;
    }
}
