/* duel-run-eta-private.h — what the range's calibration needs of DuelRunEta
 *
 * The range of the time left is the middle times two factors read from a
 * table (duel-run-eta-table.h) by the running step's kind and its progress;
 * tests/ssd-model/eta-calibrate.c makes that table from fills of known
 * truth and checks the one compiled in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-run-eta.h"

G_BEGIN_DECLS

typedef enum
{
  /* One pass over the span, or no flash translation layer: a cache can
   * still run out, no garbage collection is expected. */
  DUEL_RUN_ETA_RANGE_ONE_PASS,
  /* A random write past its span on flash, GC not seen yet. */
  DUEL_RUN_ETA_RANGE_BEFORE_GC,
  /* The same once the rate fell for good in the second pass. */
  DUEL_RUN_ETA_RANGE_AFTER_GC,
  DUEL_RUN_ETA_N_RANGES
} DuelRunEtaRange;

/* The table's progress points: the step's bytes over its byte limit. */
#define DUEL_RUN_ETA_N_KNOTS 20

typedef struct
{
  double low;                   /* (real time left) / middle, the low end */
  double high;
} DuelRunEtaFactors;

/* Knot @k's progress: 0.05 (k + 1) for k < 19, then 0.975. */
double           _duel_run_eta_knot           (guint        k);
/* The factors compiled in, for @range at knot @k. */
DuelRunEtaFactors _duel_run_eta_table         (DuelRunEtaRange range,
                                               guint        k);
/* What the running step @index reads its range from; its progress
 * (bytes over byte limit) in @out_progress. FALSE for a step without one
 * (timed, a discard, not running). */
gboolean         _duel_run_eta_step_range     (DuelRunEta  *self,
                                               guint        index,
                                               DuelRunEtaRange *out_range,
                                               double      *out_progress);

G_END_DECLS
