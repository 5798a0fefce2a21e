/* duel-run-private.h — what the run's owner (duel-run.c) and its worker (duel-run-worker.c) share
 *
 * The owner keeps the API, the state and the front half (check, consent,
 * estimate) and applies in its thread what the worker copied under @lock;
 * the worker prepares, runs the plan's steps (duel-run-steps.h), checkpoints
 * and saves. The rules of who touches what are in duel-run.c's opening
 * comment.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "result/duel-checkpointer.h"
#include "duel-folder.h"
#include "result/duel-preflight.h"
#include "duel-run-context.h"
#include "duel-run-eta.h"
#include "duel-run-steps.h"
#include "duel-run.h"

G_BEGIN_DECLS

typedef enum
{
  OPEN_WITH_SAFETY,     /* duel_run_context_new(): the safety layer's checks */
  OPEN_GIVEN,           /* opened before: by UDisks in the check, or by the caller */
} OpenMode;

typedef enum
{
  EVENT_STATE,
  EVENT_STEP,
  EVENT_WARNING,        /* @name: one sentence */
} EventKind;

typedef struct
{
  EventKind     kind;
  DuelRunState  state;
  guint         index;
  guint         n_steps;
  double        fraction_done;
  char         *name;
} Event;

struct _DuelRun
{
  GObject                parent_instance;

  /* The plan: set before the run, read-only in the worker. */
  char                  *target_path;
  char                  *result_path;
  gboolean               overwrite_output;
  char                  *name;
  OpenMode               open_mode;
  DuelSafetyFlags        safety_flags;
  guint64                file_size;
  DuelTarget            *target;
  DuelPreset            *plan;            /* a preset, or a plain run's workloads */
  guint64                probe_ms;
  gboolean               show_every_step; /* each step waits until the owner saw it */
  DuelDeviceThermometer *thermometer;     /* polls in its own thread; read anywhere */

  /* Owner's thread. */
  GMainContext          *context;
  GCancellable          *cancellable;
  GCancellable          *stop;            /* the engine's: what a stop waits for */
  DuelRunState           state;
  DuelResult            *result;          /* after the run */
  DuelResult            *live_result;
  DuelTestRecord        *live_record;
  DuelRunStatus          status;
  char                  *status_test_name;
  char                  *status_section;
  guint                  live_generation;
  gint64                 start_us;
  int                    logged_tenth;    /* of the progress, for the debug log */
  gboolean               have_estimate;
  DuelPresetEstimate     estimate;
  GError                *save_error;

  /* Shared between the worker and the owner's thread, under @lock. */
  GMutex                 lock;
  struct {
    GQueue               events;          /* Event, in order */
    DuelProgress         progress;
    DuelTestRecord      *record;          /* identity only: the engine's running record */
    guint                generation;      /* bumped when a new test starts */
    guint                test_index;
    guint                n_tests;
    double               fraction_done;   /* of the whole run (DuelRunEta's); < 0 until known */
    double               remaining_s;     /* DuelRunEta's, NAN while unknown ... */
    double               remaining_low_s; /* ... its range ... */
    double               remaining_high_s;
    gboolean             have_passes;     /* ... a fill's two passes ... */
    DuelRunEtaPasses     passes;
    gint64               remaining_at_us; /* ... as of this time */
    DuelRunRounds        rounds;          /* the test in rounds as judged so far */
    char                *test_name;
    char                *section;
    DuelWorkload         workload;
    guint64              span_length;
    guint64              byte_limit;
    guint64              target_size;
    DuelTargetKind       target_kind;
    gboolean             have_estimate;
    DuelPresetEstimate   estimate;
    GArray              *rows;            /* DuelSeriesRow not yet seen by the owner */
    DuelHistogram        latency[DUEL_N_DIRECTIONS]; /* the running test's, as of its last closed interval */
    gboolean             latency_fresh;   /* copied since the owner last took it */
    guint                rows_copied;     /* rows of @record already copied */
    GSource             *idle;            /* at most one pending */
    guint                steps_published; /* with show_every_step: steps begun ... */
    guint                steps_seen;      /* ... and how many of them the owner applied */
  } shared;
  GCond                  step_seen_cond;
};

typedef struct
{
  DuelRun          *self;
  DuelTarget       *target;
  DuelResult       *result;
  DuelRunContext   *run_context;   /* identity, health, temperature */
  DuelCheckpointer *checkpointer;  /* NULL without an output file */
  DuelFolder       *output_folder; /* the result's folder, opened once */
  char             *output_name;   /* the result's name in it */
  DuelOutputLock   *output_lock;   /* on the result path, until the final save */
  DuelRunEta       *eta;           /* worker only */
  DuelRunSteps     *steps;         /* the plan's loop, worker only */
  GError           *save_error;
  /* The engine's: cancelled with the caller's, or when a checkpoint fails. */
  GCancellable     *stop;
  GCancellable     *self_cancellable;
  gulong            stop_handler;
  /* Checkpoints synced when rows were first handed over (0: none yet). */
  guint64           rows_from_checkpoint;
  gboolean          rows_kept;     /* said by the last resort's sentence */
} Job;

/* With @lock held: the owner's thread applies the snapshot soon. */
void _duel_run_schedule_idle  (DuelRun      *self);

/* The worker (duel-run-worker.c). */
void _duel_run_job_free       (Job          *job);
void _duel_run_cancel_stop_cb (GCancellable *cancellable,
                               gpointer      user_data);
void _duel_run_thread         (GTask        *task,
                               gpointer      source_object,
                               gpointer      task_data,
                               GCancellable *cancellable);

G_END_DECLS
