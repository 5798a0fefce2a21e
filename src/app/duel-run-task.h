/* duel-run-task.h — one run (a plain workload or a preset) in a GTask worker thread
 *
 * The worker opens the target (unless it was opened before, e.g. through
 * UDisks), records the drive's identity and a health snapshot before and
 * after, polls its temperature, runs the engine, and checkpoints the result
 * file. The main thread
 * sees a coalesced snapshot: the "progress" signal fires at most once per
 * main-loop idle, with a copy of the running test's series so far.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-engine.h"
#include "duel-preset.h"
#include "duel-result.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_RUN_TASK (duel_run_task_get_type ())

G_DECLARE_FINAL_TYPE (DuelRunTask, duel_run_task, DUEL, RUN_TASK, GObject)

/* What the main thread knows of the run; valid until the next "progress". */
typedef struct
{
  DuelProgress    engine;          /* the last engine snapshot of the running test */
  guint           test_index;      /* 0-based: the test or the preset's step */
  guint           n_tests;         /* 0 when not known in advance */
  const char     *test_name;       /* the running test, or "discard" */
  const char     *section;         /* a preset's section ("write-saturation"), else NULL */
  double          fraction_done;   /* of the whole run, 0..1 */
  gint64          eta_seconds;     /* -1 while unknown */
  guint64         span_bytes;      /* of the running test, for "× capacity" */
  double          temperature_c;   /* the drive's, polled; NAN without a sensor */
  gboolean        probing;         /* timing a short probe before a preset, for the estimate */
} DuelRunStatus;

DuelRunTask         *duel_run_task_new             (const char           *target_path,
                                                    const char           *result_path);
/* Open flags used when the worker opens the target itself. */
void                 duel_run_task_set_open_flags  (DuelRunTask          *self,
                                                    DuelTargetOpenFlags   flags,
                                                    guint64               create_size);
/* A target opened beforehand (e.g. a descriptor from UDisks). */
void                 duel_run_task_set_target      (DuelRunTask          *self,
                                                    DuelTarget           *target);
void                 duel_run_task_set_name        (DuelRunTask          *self,
                                                    const char           *name);
/* A plain run: these workloads one after another, each a test. */
void                 duel_run_task_add_workload    (DuelRunTask          *self,
                                                    const char           *test_name,
                                                    const DuelWorkload   *workload);
/* A preset run instead: its steps, progress and checkpoints. */
void                 duel_run_task_set_preset      (DuelRunTask          *self,
                                                    DuelPreset           *preset);

const char          *duel_run_task_get_target_path (DuelRunTask          *self);
const char          *duel_run_task_get_result_path (DuelRunTask          *self);
gboolean             duel_run_task_is_running      (DuelRunTask          *self);

void                 duel_run_task_run_async       (DuelRunTask          *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
/* FALSE with G_IO_ERROR_CANCELLED after a cancel; the partial result is still
 * saved and returned by duel_run_task_get_result(). */
gboolean             duel_run_task_run_finish      (DuelRunTask          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
/* Cancels the run started with run_async; the engine stops within a second. */
void                 duel_run_task_cancel          (DuelRunTask          *self);

/* Main thread only. */
const DuelRunStatus *duel_run_task_get_status      (DuelRunTask          *self);
/* A main-thread copy of the running test (its series grows with each "progress"). */
DuelTestRecord      *duel_run_task_get_live_record (DuelRunTask          *self);
/* A result holding the live record (for the live chart), or the final result once finished. */
DuelResult          *duel_run_task_get_live_result (DuelRunTask          *self);
/* The result once the run finished (complete, cancelled or failed); NULL when the target never opened. */
DuelResult          *duel_run_task_get_result      (DuelRunTask          *self);

G_END_DECLS
