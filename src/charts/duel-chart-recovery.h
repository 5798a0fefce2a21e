/* duel-chart-recovery.h — recovery after idle as grouped bars
 *
 * One group per idle period (the burst after it), one bar per drive: the
 * burst's 4K random write as a share of the drive's fresh speed, with a
 * line at 100 % (as fresh) and, per drive, a tick at its dirty speed's
 * share (where the fill ended): how much of the way back the idle gave.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_RECOVERY (duel_chart_recovery_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartRecovery, duel_chart_recovery, DUEL, CHART_RECOVERY)

G_END_DECLS
