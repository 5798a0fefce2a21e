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
 * duel-probe.h). A random write's second pass on flash garbage-collects
 * once the spare area is written too: until GC shows (a fall past one
 * span), a prior over the spare area, narrowed by how far the pass went
 * without GC (DUEL_RUN_ETA_SPARE_MIN..MAX, DUEL_RUN_ETA_GC_SHARE); once it
 * shows, its own rate, falling on by a prior until its own fall is
 * measured (DUEL_RUN_ETA_GC_DECLINE); on a target without an FTL, the
 * first pass's rate. What comes after one span cannot be measured before
 * it: at 50 % of a 2x fill the second pass is the prior's.
 *
 * The range: an 80 % interval, the middle times two factors, by what the
 * running step has shown (one pass; the first pass of two before a fall
 * or after one; the second before GC or after; with a probe or without)
 * and its progress, from a table made on fills of known truth
 * (duel-run-eta-table.h, tests/ssd-model/eta-calibrate.c); the same for each
 * of a fill's two passes (duel_run_eta_get_passes()). docs/eta.md has the
 * method and its measured coverage and errors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "engine/duel-engine.h"
#include "engine/duel-series.h"
#include "engine/duel-workload.h"

G_BEGIN_DECLS

/* A random write's second pass over its span on flash garbage-collects
 * once the spare area is written too: at (1 + q) spans for a spare area q
 * (a share of the capacity), unknown to the host until it happens. The
 * prior: q between these, log-uniform (a tenth in the middle: 7 % for GiB
 * sold as GB, 28 % for an enterprise drive, both well inside). */
#define DUEL_RUN_ETA_SPARE_MIN 0.02
#define DUEL_RUN_ETA_SPARE_MAX 0.5
/* The host rate from GC's start to 2x written, as a share of the first
 * pass's end rate: GC_SHARE x (q / 0.1)^GC_EXPONENT, fitted on 400 random
 * drives of the FTL model (greedy GC, reads and erases included; 0.37 at
 * 2 %, 0.47 at 10 %, 0.60 at 50 %; docs/eta.md). A prior, not a
 * measurement: it stands until the drive shows its own. */
#define DUEL_RUN_ETA_GC_SHARE    0.47
#define DUEL_RUN_ETA_GC_EXPONENT 0.15
/* Once GC shows, its rate falls on by (GC_DECLINE - GC_DECLINE_SPARE x q)
 * of the first pass's end rate per span written (the same drives: 0.38 at
 * 2 %, 0.33 at 10 %, 0.17 at 40 %; their medians 0.37, 0.32, 0.16), until
 * its own fall is measured. */
#define DUEL_RUN_ETA_GC_DECLINE       0.39
#define DUEL_RUN_ETA_GC_DECLINE_SPARE 0.55

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
/* Step @index may be skipped (a round past the first window of a test in
 * rounds, which ends once it is steady): until it starts, the middle and
 * the low end of the time left leave it out, the high end keeps it. A
 * skipped step is finished at once (duel_run_eta_step_finished()). */
void        duel_run_eta_set_optional     (DuelRunEta         *self,
                                           guint               index);
/* The probe of duel_run_steps_estimate() (DuelPresetEstimate): 4 KiB random
 * write IOPS over all of it and since its rate fell (or over its last
 * quarter), NAN when none ran; @probe_ms as it ran; @fall_bytes written
 * before its rate fell, 0 when it did not (duel-probe.h).
 * It informs the first size-bounded 4 KiB random write step. */
void        duel_run_eta_set_probe        (DuelRunEta         *self,
                                           double              write_iops,
                                           double              end_write_iops,
                                           guint64             probe_ms,
                                           guint64             fall_bytes);
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

/* The running step's two passes, when it is a random write over its span
 * twice on flash (the write-saturation fill): the first pass, whose rate
 * the run measures, and the second, whose garbage collection nobody can
 * measure before it starts. Each a middle and the range around it, as
 * duel_run_eta_get_range() (an 80 % interval). */
typedef struct
{
  double   first_s;         /* the first pass's time left; 0 once it is over */
  double   first_low_s;
  double   first_high_s;
  double   second_s;        /* the second pass's, from the first pass's end */
  double   second_low_s;
  double   second_high_s;
  gboolean in_second;       /* the first pass is over */
  gboolean first_open;      /* no fall in it yet: a write cache may still run out */
  gboolean gc_pending;      /* the second pass has not shown garbage collection yet */
} DuelRunEtaPasses;

/* FALSE when the running step has no second pass, is not on flash, or its
 * time left is unknown yet. */
gboolean    duel_run_eta_get_passes       (DuelRunEta         *self,
                                           gint64              now_us,
                                           DuelRunEtaPasses   *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelRunEta, duel_run_eta_free)

G_END_DECLS
