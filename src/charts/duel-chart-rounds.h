/* duel-chart-rounds.h — steady state of a test in rounds (SNIA PTS): the tracked figure per round, every drive
 *
 * SNIA's steady-state convergence plot: the tracked cell's figure in each
 * round (4 KiB write IOPS, a write's MB/s, a mean latency), one line per
 * drive, and for each drive its measurement window: the mean over it, and
 * the band of the data limit around that mean. The first test in rounds
 * the drives share, or the one named by "section". With "window-only",
 * SNIA's window plot instead: the window's rounds alone, their mean, the
 * bands ±10 % and ±20 % around it and the least-squares line whose change
 * the slope limit bounds (the PDF's SNIA pages).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_ROUNDS (duel_chart_rounds_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartRounds, duel_chart_rounds, DUEL, CHART_ROUNDS)

DuelChart *duel_chart_rounds_new (DuelComparison *comparison,
                                  const char     *section);

G_END_DECLS
