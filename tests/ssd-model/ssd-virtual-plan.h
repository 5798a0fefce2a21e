/* ssd-virtual-plan.h — a preset's plan run on the FTL model, in the model's own time
 *
 * The steps of a prepared DuelPreset as DuelRunSteps runs them on a drive,
 * with the model standing in for the drive and its clock for the wall
 * clock: a discard trims the model's whole span; a test issues its
 * workload (the engine's own offsets and read/write draws, its queue
 * depth) and each slot issues its next I/O the instant its last one
 * completes; its length is the step's runtime or its bytes. Each test's
 * record is described by the plan (duel_preset_describe_record()),
 * counted into rows and latency histograms, and summarised and analysed as
 * the run does. A test in rounds stops at the end of the round whose
 * window of tracked figures passes the plan's limits, as the run's loop
 * does: the rest of its rounds are optional. The model's own account is
 * kept for every step, the truth a test holds the records against.
 *
 * A block smaller than the model's 4 KiB page is one page program or read
 * (the page's read-modify-write inside a drive is not modelled).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "result/duel-result.h"
#include "run/duel-preset.h"
#include "ssd-ftl.h"

G_BEGIN_DECLS

/* The model's account of one step. */
typedef struct
{
  const DuelPresetStep *step;
  guint64               start_ns;    /* the model's clock */
  guint64               end_ns;
  SsdCounters           before;
  SsdCounters           after;
} SsdVirtualStepLog;

typedef struct
{
  DuelResult *result;
  GArray     *steps;          /* SsdVirtualStepLog, one per step that ran */
  guint       n_skipped;      /* optional rounds left out once steady */
} SsdVirtualPlan;

/* Runs @plan (already prepared for the model's capacity) on @ftl from the
 * model's time @origin_ns; @seed seeds every test's offsets. */
void ssd_virtual_plan_run   (SsdFtl         *ftl,
                             DuelPreset     *plan,
                             guint64         origin_ns,
                             guint64         seed,
                             SsdVirtualPlan *out);
void ssd_virtual_plan_clear (SsdVirtualPlan *out);

/* The model's write amplification over @log: flash programs per host page written. */
double ssd_virtual_step_write_amplification (const SsdVirtualStepLog *log);

G_END_DECLS
