/* duel-run-eta.h — the time left of a run: a plan of steps, a probe, live rates
 *
 * Pure: no I/O and no clock; every call that depends on time takes @now_us
 * (the caller's g_get_monotonic_time()), so a recorded run can be replayed
 * through it (tests/eta-replay.c). Not thread-safe: call it from one thread.
 *
 * Progress (duel_run_eta_get_fraction()): each step's own fraction — bytes
 * over its byte limit for a size-bounded step, elapsed over its time limit
 * for a timed one, the nearer of the two when it has both (as the engine's
 * fraction_done), 0 then 1 for a discard — combined by the steps' expected
 * durations as estimated when the first step starts (the probe included),
 * then fixed, so the bar never goes back.
 *
 * Time left: a timed step counts its time left. A size-bounded step is
 * predicted in passes over its span. The first pass runs at the rate of its
 * regime (everything since the rate last changed for good: it fell under
 * 3/4 of what it was, or rose over 4/3, and stayed there — a write cache
 * running out, GC starting, a trim backlog cleared), following its drift,
 * capped by the probe's end rate until the fill's recent window is past the
 * probe's bytes (the probe took its time for those, and it ran until it
 * saw a write cache run out, or long enough to say there was none to see:
 * duel-probe.h). A random write's second pass on flash garbage-collects:
 * DUEL_RUN_ETA_GC_PRIOR of the first pass's end rate until GC shows (a
 * fall past one span: then its own rate and drift), fading towards the
 * first pass's rate when none shows from 1.1 to 1.5 spans; on a target
 * without an FTL, the first pass's rate. What comes after one span cannot
 * be measured before it: at 50 % of a 2x fill the middle is the prior's.
 *
 * The range: the middle times two factors, by the running step's kind (one
 * pass; before GC showed; after) and its progress, from a table made on
 * fills of known truth (duel-run-eta-table.h, tests/ssd-model/eta-calibrate.c)
 * so that the real time left lies in it at least 97.5 % of the time on
 * them. docs/eta.md has the method and its measured coverage and errors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "duel-engine.h"
#include "duel-series.h"
#include "duel-workload.h"

G_BEGIN_DECLS

/* The host rate of a random write's second pass over its span, as a share of
 * the first pass's end rate: greedy GC under uniform random writes costs
 * 1/0.53 to 1/0.75 programs per host write over the second pass of a 2x fill
 * for 7 to 28 % spare area (docs/eta.md), geometric middle 0.63; less about a
 * tenth for the reads and erases GC adds, rounded down so that a miss errs
 * long. A prior, not a measurement: it stands until the drive shows less. */
#define DUEL_RUN_ETA_GC_PRIOR 0.55

typedef struct _DuelRunEta DuelRunEta;

DuelRunEta *duel_run_eta_new              (void);
void        duel_run_eta_free             (DuelRunEta         *self);

/* The plan, before the run: one call per step, in order. @workload NULL for a
 * discard; @span_bytes and @byte_limit as resolved against the target
 * (duel_workload_resolve(); @byte_limit 0 for a timed step); @expected_s the
 * plan's expected duration (DuelPresetStep.weight_s), used for a step nothing
 * better is known of; NAN when there is none (the time left is then unknown
 * until that step has a rate, and the step does not weigh in the fraction). */
void        duel_run_eta_add_step         (DuelRunEta         *self,
                                           const DuelWorkload *workload,
                                           guint64             span_bytes,
                                           guint64             byte_limit,
                                           double              expected_s);
/* The probe of duel_preset_estimate() (DuelPresetEstimate): 4 KiB random
 * write IOPS over all of it and since its rate fell (or over its last
 * quarter), NAN when none ran; @probe_ms as it ran.
 * It informs the first size-bounded 4 KiB random write step. */
void        duel_run_eta_set_probe        (DuelRunEta         *self,
                                           double              write_iops,
                                           double              end_write_iops,
                                           guint64             probe_ms);
/* FALSE for a target known to have no flash translation layer (zram, a RAM
 * disk): no garbage collection is expected. Default TRUE: unknown is flash. */
void        duel_run_eta_set_flash        (DuelRunEta         *self,
                                           gboolean            flash);
/* What set_flash() takes for a result's device object (NULL: unknown, so
 * flash): FALSE for zram and files on tmpfs or ramfs. */
gboolean    duel_run_eta_device_is_flash  (JsonObject         *device);

void        duel_run_eta_step_started     (DuelRunEta         *self,
                                           guint               index,
                                           gint64              now_us);
/* Each engine progress snapshot of the running step; @rows: the step's series
 * so far (read only; NULL: the mean since the start is used). O(1) amortised. */
void        duel_run_eta_update           (DuelRunEta         *self,
                                           guint               index,
                                           const DuelProgress *progress,
                                           const DuelSeries   *rows,
                                           gint64              now_us);
void        duel_run_eta_step_finished    (DuelRunEta         *self,
                                           guint               index,
                                           gint64              now_us);

/* 0..1, what the progress bar shows. */
double      duel_run_eta_get_fraction     (DuelRunEta         *self);
/* Seconds, the middle of the range below; NAN while unknown (a
 * size-bounded step with no rate yet). */
double      duel_run_eta_get_remaining_s  (DuelRunEta         *self,
                                           gint64              now_us);
/* The range the real time left lies in, low <= middle <= high seconds;
 * FALSE while unknown. Timed steps and discards count exactly; a
 * size-bounded step's middle is widened by factors that depend on how far
 * it is and on what it has shown (docs/eta.md), narrowing as it goes. */
gboolean    duel_run_eta_get_range        (DuelRunEta         *self,
                                           gint64              now_us,
                                           double             *out_low_s,
                                           double             *out_high_s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelRunEta, duel_run_eta_free)

G_END_DECLS
