/* duel-run.h — one run, from plan to saved result, for the CLI and the app
 *
 * A run is a plan (a preset, or plain workloads one after another) on one
 * target. duel_run_run_async() does everything in order, in one worker
 * thread: check the result can be kept (preflight), open the target with
 * the safety checks (or take one opened before, e.g. through UDisks),
 * record the drive's identity and health, probe and estimate, run the
 * steps with checkpoints, take the health after, and save the result.
 * Nothing is written to the target before the preflight and the first
 * checkpoint succeeded. A checkpoint that fails later (a full disk) stops
 * the run at the engine's next progress: FAILED, with one sentence; the
 * "warning" signal says before that when the result's room runs low.
 *
 * The owner's thread sees the run through the "state" property, the
 * "step-started" signal and a coalesced "progress" signal with a status
 * snapshot; each state change and step start is delivered in order, none
 * is coalesced away. The state follows the worker, so a view bound to it
 * cannot go stale:
 *
 *   READY → PREPARING → [PROBING] → RUNNING → FINISHED
 *                 any of these → STOPPING (on cancel) → STOPPED
 *                 any of these → FAILED
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "device/duel-device-thermometer.h"
#include "duel-run-eta.h"
#include "engine/duel-engine.h"
#include "duel-preset.h"
#include "duel-run-steps.h"
#include "result/duel-result.h"
#include "device/duel-safety.h"
#include "engine/duel-target.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_RUN_STATE_READY,         /* not started */
  DUEL_RUN_STATE_PREPARING,     /* preflight, opening the target, identity */
  DUEL_RUN_STATE_PROBING,       /* a short write probe for the estimate */
  DUEL_RUN_STATE_RUNNING,       /* the steps */
  DUEL_RUN_STATE_STOPPING,      /* cancelled: the I/O in flight is finishing */
  DUEL_RUN_STATE_FINISHED,      /* every step ran and the result is saved */
  DUEL_RUN_STATE_STOPPED,       /* cancelled; what was measured is kept */
  DUEL_RUN_STATE_FAILED,        /* an error; what was measured (if any) is kept */
} DuelRunState;

#define DUEL_TYPE_RUN_STATE (duel_run_state_get_type ())
GType duel_run_state_get_type (void) G_GNUC_CONST;

/* What the owner's thread knows of the run; valid until the next "progress". */
typedef struct
{
  DuelRunState    state;
  DuelProgress    engine;          /* the last engine snapshot of the running test */
  guint           test_index;      /* 0-based: the test or the preset's step */
  guint           n_tests;         /* 0 when not known yet */
  const char     *test_name;       /* the running test, or "discard" */
  const char     *section;         /* a preset's section ("write-saturation"), else NULL */
  double          fraction_done;   /* of the whole run, 0..1 */
  gint64          eta_seconds;     /* -1 while unknown (the middle, whole seconds) */
  double          eta_s;           /* the time left: the middle ... */
  double          eta_low_s;       /* ... and the range it lies in; NAN while unknown */
  double          eta_high_s;
  guint64         span_bytes;      /* of the running test, for "× capacity" */
  guint64         target_size;     /* 0 until the target is open */
  double          temperature_c;   /* the drive's, polled; NAN without a sensor */
  gboolean        has_passes;      /* the running step is a fill of two passes ... */
  DuelRunEtaPasses passes;         /* ... each's time left, counted down as eta_s */
  DuelRunRounds   rounds;          /* the last test in rounds as the run judged it so far (each
                                    * round's tracked figure, the verdict on its window);
                                    * rounds.test NULL: none ran yet */
} DuelRunStatus;

#define DUEL_TYPE_RUN (duel_run_get_type ())

G_DECLARE_FINAL_TYPE (DuelRun, duel_run, DUEL, RUN, GObject)

DuelRun             *duel_run_new               (const char           *target_path);

/* --- the plan; set before duel_run_run_async() ----------------------------- */

/* Where the result is saved and checkpointed; NULL (the default) keeps it
 * in memory only. */
void                 duel_run_set_output        (DuelRun              *self,
                                                 const char           *result_path);
/* Allow the result to replace an existing file that is not a Drive Duel
 * result (duel_safety_check_output()); default FALSE. */
void                 duel_run_set_output_overwrite (DuelRun           *self,
                                                 gboolean              overwrite);
void                 duel_run_set_name          (DuelRun              *self,
                                                 const char           *name);
/* The run opens the target itself, with the safety layer's checks
 * (duel_run_context_new()): @file_size for a file target, 0 to keep it. */
void                 duel_run_set_safety        (DuelRun              *self,
                                                 DuelSafetyFlags       flags,
                                                 guint64               file_size);
/* Or: a target opened beforehand (e.g. a descriptor from UDisks). */
void                 duel_run_set_target        (DuelRun              *self,
                                                 DuelTarget           *target);
/* A plain run: these workloads one after another, each a test. */
void                 duel_run_add_workload      (DuelRun              *self,
                                                 const char           *test_name,
                                                 const DuelWorkload   *workload);
/* A preset run instead. */
void                 duel_run_set_preset        (DuelRun              *self,
                                                 DuelPreset           *preset);
/* The write probe before a preset with a fill times the drive's real pace
 * for the estimate and the time left. */
#define DUEL_RUN_DEFAULT_PROBE_MS 2000

/* Length of that probe (default DUEL_RUN_DEFAULT_PROBE_MS); 0 skips it. */
void                 duel_run_set_probe_ms      (DuelRun              *self,
                                                 guint64               probe_ms);
/* Each step then waits, before its first I/O, until the owner's thread has
 * applied the snapshot that began it, so that every step, however short,
 * reaches "progress" as the current one. For tests of what a window shows
 * at each step; a person's run never waits for its window. */
void                 duel_run_set_show_every_step (DuelRun            *self,
                                                   gboolean            show_every_step);

/* --- before the run: the rules, then the person's consent ------------------ */

/* Checks the target against the safety rules with the consent given so
 * far, in a worker thread (the device is opened O_EXCL and probed), and
 * returns the report (duel_safety_check_write()): ALLOWED, a question
 * (NEEDS_DESTRUCTIVE, HAS_SIGNATURE) to ask the person before calling
 * duel_run_set_consent() and checking again, or a refusal with its reason.
 * A plan that only reads is ALLOWED without checks. Nothing is created:
 * a new file's folder must exist.
 *
 * A block device this process may not open is NEEDS_DESTRUCTIVE until the
 * person consents; then UDisks opens it (polkit asks, now, never in the
 * middle of the run), the run keeps that descriptor as its target, and the
 * report is the rules checked through it. */
void                 duel_run_check_async       (DuelRun              *self,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
/* NULL with @error set when UDisks could not open the device. */
DuelSafetyReport    *duel_run_check_finish      (DuelRun              *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
/* Records the person's answer to a report's question: DESTRUCTIVE for
 * NEEDS_DESTRUCTIVE, WIPE_SIGNATURES for HAS_SIGNATURE. Answers add up;
 * the run checks the rules again with them when it starts. */
void                 duel_run_set_consent       (DuelRun              *self,
                                                 DuelSafetyFlags       consent);

/* How long the plan takes on the target, before the run, in a worker
 * thread: from the target's size alone (opened for reading), or with
 * @probe_ms > 0 from a write probe as long (a file target only, opened as
 * the run opens it: created at the size set with duel_run_set_safety(),
 * and never over data without the consent the run would ask for). It
 * works on the plan: not while the run runs. */
void                 duel_run_estimate_async    (DuelRun              *self,
                                                 guint64               probe_ms,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean             duel_run_estimate_finish   (DuelRun              *self,
                                                 GAsyncResult         *result,
                                                 DuelPresetEstimate   *out,
                                                 GError              **error);

/* --- running ---------------------------------------------------------------- */

void                 duel_run_run_async         (DuelRun              *self,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
/* FALSE with the run's error (G_IO_ERROR_CANCELLED after a stop), or with
 * the final save's error when the run itself went well. */
gboolean             duel_run_run_finish        (DuelRun              *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
/* Stops the run: the engine lets the I/O in flight finish (within a second
 * on a device that answers), the partial result is saved. The state
 * becomes STOPPING at once. */
void                 duel_run_cancel            (DuelRun              *self);
/* While STOPPING: the I/Os the stop waits for and the seconds since the
 * device last answered one; FALSE when it waits for none. */
gboolean             duel_run_get_drain         (DuelRun              *self,
                                                 guint                *out_in_flight,
                                                 double               *out_unanswered_s);
/* Stops without waiting for the device (a second stop): the I/O in flight
 * is left to the kernel (duel_engine_give_up()), what was measured is
 * saved; the target is not touched again, nor closed while this process
 * lives (closing it could wait for the device as well). Cancels first if
 * the run was not stopping. */
void                 duel_run_give_up           (DuelRun              *self);
/* The I/Os the run left in flight when it gave up waiting (0: none). */
guint                duel_run_get_abandoned     (DuelRun              *self);

/* Above this ratio of its high end to its low one, the time left is shown
 * as a range ("25–70 min"); below, as the middle alone. */
#define DUEL_RUN_ETA_NARROW 1.3

/* The time left as the app and the CLI show it, to follow "left": a range
 * while it is wide ("25–70 min", "40 s – 12 min", its low end rounded down
 * and its high end up), else the middle ("12:30", "3.4 s", "under a
 * second"). NULL while unknown. */
char                *duel_run_format_time_left  (double                low_s,
                                                 double                middle_s,
                                                 double                high_s);
/* A fill's two passes as the app and the CLI show them beside the time
 * left: "First pass: 4:00 left (±10 %); after it, the second pass: 3–12
 * min, known once garbage collection starts". A pass whose range is
 * within a quarter of its middle either way shows the middle and how far
 * (in steps of 5 %); a wider one its range, and why it is wide. */
char                *duel_run_format_passes     (const DuelRunEtaPasses *passes);
/* The same in its parts, the first pass's and the second's (one part once
 * in the second pass), for a line each. */
char               **duel_run_format_pass_parts (const DuelRunEtaPasses *passes);
/* What the ranges of the time left mean, said beside them. */
const char          *duel_run_time_left_note    (void);

/* --- what the owner's thread reads -------------------------------------------- */

DuelRunState         duel_run_get_state         (DuelRun              *self);
gboolean             duel_run_is_running        (DuelRun              *self);
const char          *duel_run_get_target_path   (DuelRun              *self);
const char          *duel_run_get_result_path   (DuelRun              *self);
DuelPreset          *duel_run_get_preset        (DuelRun              *self);
const DuelRunStatus *duel_run_get_status        (DuelRun              *self);
/* The preset's estimate, once the state passed PROBING; FALSE before, or for a plain run. */
gboolean             duel_run_get_estimate      (DuelRun              *self,
                                                 DuelPresetEstimate   *out);
/* A copy of the running test (its series grows with each "progress"). */
DuelTestRecord      *duel_run_get_live_record   (DuelRun              *self);
/* A result holding the live record (for a live chart), or the final result once finished. */
DuelResult          *duel_run_get_live_result   (DuelRun              *self);
/* The result once the run ended; NULL when it failed before the target opened. */
DuelResult          *duel_run_get_result        (DuelRun              *self);
/* Why the final save failed, when it did (also when the run failed too). */
const GError        *duel_run_get_save_error    (DuelRun              *self);

const char          *duel_run_state_to_string   (DuelRunState          state);

G_END_DECLS
