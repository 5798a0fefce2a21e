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

/* What the range of a size-bounded step is read by: where the step is and
 * what it has shown. A random write over its span twice on flash has two
 * passes: the first, whose rate the run measures (a write cache may still
 * run out in it), and the second, where garbage collection starts once
 * the spare area is written too. Each state with a probe before it (the
 * write-saturation preset) and without (a plain run). */
typedef enum
{
  /* One pass over the span, or no flash translation layer: a cache can
   * still run out, no garbage collection is expected. */
  DUEL_RUN_ETA_RANGE_ONE_PASS,
  /* The first pass of two, no fall seen yet: a cache may still run out. */
  DUEL_RUN_ETA_RANGE_FIRST_OPEN,
  /* The first pass of two once a fall showed (in it, or in the probe). */
  DUEL_RUN_ETA_RANGE_FIRST_FELL,
  /* The second pass, GC not seen yet. */
  DUEL_RUN_ETA_RANGE_BEFORE_GC,
  /* The second pass once the rate fell for good in it. */
  DUEL_RUN_ETA_RANGE_AFTER_GC,
  DUEL_RUN_ETA_RANGE_PROBED_FIRST_OPEN,
  DUEL_RUN_ETA_RANGE_PROBED_FIRST_FELL,
  DUEL_RUN_ETA_RANGE_PROBED_BEFORE_GC,
  DUEL_RUN_ETA_RANGE_PROBED_AFTER_GC,
  DUEL_RUN_ETA_N_RANGES
} DuelRunEtaRange;

/* The table's progress points: the step's bytes over its byte limit. */
#define DUEL_RUN_ETA_N_KNOTS 20

typedef struct
{
  double low;                   /* (real time left) / middle, the low end */
  double high;
} DuelRunEtaFactors;

/* A cell of the table: the factors of the first pass's time left, of the
 * second pass's (from the first pass's end) and of the step's, each
 * around its own middle. A step of one pass uses @total alone. */
typedef struct
{
  DuelRunEtaFactors first;
  DuelRunEtaFactors second;
  DuelRunEtaFactors total;
} DuelRunEtaCell;

/* What the calibration reads of a running step: its range kind, its
 * progress (bytes over byte limit) and the middles of its two passes as
 * of the last update (@out_second_s 0 for a step of one pass). */
typedef struct
{
  DuelRunEtaRange range;
  double          progress;
  double          first_s;
  double          second_s;
  double          first_end_bytes;   /* where the first pass ends, bytes of the step */
} DuelRunEtaStepView;

/* Knot @k's progress: 0.05 (k + 1) for k < 19, then 0.975. */
double           _duel_run_eta_knot           (guint        k);
/* The cell compiled in, for @range at knot @k. */
DuelRunEtaCell   _duel_run_eta_table          (DuelRunEtaRange range,
                                               guint        k);
const char      *_duel_run_eta_range_name     (DuelRunEtaRange range);
/* The running step @index as the range reads it. FALSE for a step without
 * a range (timed, a discard, not running, no rate yet). */
gboolean         _duel_run_eta_step_view      (DuelRunEta  *self,
                                               guint        index,
                                               DuelRunEtaStepView *out);

G_END_DECLS
