/* duel-run-steps.h — the loop that runs a plan's steps, in the run's worker
 *
 * A plan (DuelPreset: a preset, or a plain run's workloads) is data: its
 * steps and parameters, resolved against a target's size. What running it
 * takes lives here: the probe and the estimate made from it, the trim, one
 * engine run and one test record per step, each record's details and
 * summary, and the calls to the run's progress and checkpoint functions.
 * DuelRun's worker makes one DuelRunSteps per run; tests may drive one
 * directly on a target they opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "engine/duel-engine.h"
#include "duel-preset.h"
#include "result/duel-result.h"
#include "engine/duel-target.h"

G_BEGIN_DECLS

/* A test in rounds as the loop has judged it so far (SNIA PTS): the
 * tracked figure of each round whose tracked cell finished, and the
 * verdict on the last window of rounds it judged, the one that decides
 * whether the test's optional rounds run. Fixed size: at most
 * DUEL_PRESET_MAX_ROUNDS rounds. */
typedef struct
{
  const DuelReviewTest *test;          /* NULL: no step of a test in rounds ran yet */
  guint                 n_rounds;      /* rounds whose tracked cell finished */
  double                tracked[DUEL_PRESET_MAX_ROUNDS]; /* NAN: that round measured nothing */
  gboolean              judged;        /* a window of rounds was held to the limits ... */
  gboolean              steady;        /* ... and passed: the test's optional rounds do not run */
  guint                 window_first;  /* 1-based first and last round of that window */
  guint                 window_last;
} DuelRunRounds;

typedef struct
{
  guint                 step_index;    /* 0-based */
  guint                 n_steps;
  const DuelPresetStep *step;
  const DuelProgress   *engine;        /* NULL at a step's start and end and during a discard */
  gboolean              step_done;
  gboolean              skipped;       /* with step_done: it did not run (its test's rounds
                                        * were steady before it) */
  double                fraction_done; /* of the whole plan, 0..1, weighted by expected time */
  const DuelRunRounds  *rounds;        /* the step's test in rounds as judged so far (with
                                        * step_done: this step's figure and verdict included);
                                        * NULL for a step in no round */
} DuelRunStepsProgress;

/* Called in the thread that runs the steps (the engine's), at each step's
 * start and end and on every engine progress call. @record is the step's
 * test record (NULL for a discard); it may be read, not changed. */
typedef void (*DuelRunStepsProgressFunc)   (const DuelRunStepsProgress *progress,
                                            DuelTestRecord             *record,
                                            gpointer                    user_data);
/* Called in the same thread whenever a series interval closed and after each
 * test (with its summary, @test_finished TRUE): the result is consistent and
 * may be saved. Rate-limit saves in the callback. */
typedef void (*DuelRunStepsCheckpointFunc) (DuelResult                 *result,
                                            gboolean                    test_finished,
                                            gpointer                    user_data);

typedef struct _DuelRunSteps DuelRunSteps;

DuelRunSteps *duel_run_steps_new            (DuelPreset                 *plan);
void          duel_run_steps_free           (DuelRunSteps               *self);
/* Both called in the running thread; @user_data must outlive the run. */
void          duel_run_steps_set_callbacks  (DuelRunSteps               *self,
                                             DuelRunStepsProgressFunc    progress,
                                             DuelRunStepsCheckpointFunc  checkpoint,
                                             gpointer                    user_data);

/* Resolves the plan against @target, times a 4 KiB random write QD32 probe
 * of at least @probe_ms when the plan fills (0: no probe; duel-probe.h)
 * and estimates the whole plan from it; the steps then weigh the fill by
 * it. The probe writes to the target. */
gboolean      duel_run_steps_estimate       (DuelRunSteps               *self,
                                             DuelTarget                 *target,
                                             guint64                     probe_ms,
                                             GCancellable               *cancellable,
                                             DuelPresetEstimate         *out,
                                             GError                    **error);
/* The expected seconds of step @index: the plan's, or the fill's at the
 * estimated rate. */
double        duel_run_steps_get_weight     (DuelRunSteps               *self,
                                             guint                       index);

/* Adds the record of the first step, when it is a test, to @result before
 * anything runs, so that the first save already names the test; run() goes
 * on with that record. */
void          duel_run_steps_begin          (DuelRunSteps               *self,
                                             DuelResult                 *result);
/* Runs every step, adding the test records to @result (a preset's records
 * and a plain plan's alike: one loop, every step summarised). On a failure
 * or a cancel the records keep what was measured (with their summaries)
 * and FALSE is returned with @error set. A preset's target must be open
 * for writing; a plain plan's only when it writes. */
gboolean      duel_run_steps_run            (DuelRunSteps               *self,
                                             DuelTarget                 *target,
                                             DuelResult                 *result,
                                             GCancellable               *cancellable,
                                             GError                    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelRunSteps, duel_run_steps_free)

G_END_DECLS
