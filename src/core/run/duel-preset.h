/* duel-preset.h — the review's test scripts: sequences of workloads and trim steps
 *
 * The plan of every run: a preset, or a plain run's workloads
 * (duel_preset_new_plain()); DuelRun runs both through duel_preset_run().
 *
 * A preset runs every step through duel_engine_run() on one target and adds
 * one test record per workload to one DuelResult, each with the preset's
 * name, its exact parameters and the summary figures (duel-analysis.h).
 *
 *   write-saturation  discard the span (unless no_trim), 4 KiB random write
 *                     QD32 until capacity_multiple x the span is written,
 *                     then 4 KiB random read QD32 for a fixed time (read score)
 *   consistency       4 KiB random 50/50 QD32, default 1200 s
 *   qos               4 KiB random read and write at QD1 and QD32, 50/50 QD32
 *   standard          128 KiB sequential read/write QD32, 4 KiB random
 *                     read/write at QD1 and QD32
 *   crystaldiskmark   CrystalDiskMark's default profile: SEQ1M Q8T1, SEQ1M
 *                     Q1T1, RND4K Q32T16, RND4K Q1T1, write then read, 5
 *                     passes of 5 s each, on a 1 GiB span (its test file)
 *   crystaldiskmark-nvme  its NVMe profile: SEQ128K Q32T1 for SEQ1M Q1T1
 *   review            write saturation, consistency, QoS and the standard set
 *   quick             the review scaled to finish within 2 minutes on a 1 GiB
 *                     file (span at most 1 GiB, fill capped at 30 s, short
 *                     tests, 1 s rounds, 100 ms intervals)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/duel-analysis.h"
#include "engine/duel-engine.h"
#include "result/duel-result.h"
#include "engine/duel-target.h"
#include "review/duel-review-test.h"

G_BEGIN_DECLS

/* Overrides; 0 (or FALSE) keeps the preset's default. */
typedef struct
{
  guint64  span_bytes;          /* region used from offset 0; default: the whole target (quick and
                                 * CrystalDiskMark: ≤ 1 GiB) */
  double   capacity_multiple;   /* write-saturation: bytes to write as a multiple of the span; default 2 */
  guint64  runtime_ms;          /* every timed test (read score, consistency, each QoS, standard and CrystalDiskMark test) */
  guint64  round_ms;            /* SNIA round length; default 60 s (quick: 1 s) */
  guint    interval_ms;         /* series interval; default 1000 ms (quick: 100 ms) */
  gboolean no_trim;             /* skip the discard before the fill */
  guint    passes;              /* how often each timed step runs, 1..DUEL_PRESET_MAX_PASSES;
                                 * default: the review test's own (1; CrystalDiskMark 5) */
  DuelWorkload custom;          /* the custom test's: pattern, block size, queue depth, numjobs,
                                 * read percent (its length: runtime_ms, default 60 s); ignored
                                 * by the other presets */
} DuelPresetOptions;

#define DUEL_PRESET_MAX_PASSES 100

typedef enum
{
  DUEL_PRESET_STEP_DISCARD,     /* bring the span to "empty" */
  DUEL_PRESET_STEP_TEST,        /* one engine run, one test record */
} DuelPresetStepKind;

typedef struct
{
  DuelPresetStepKind kind;
  const char        *name;      /* the test record's name, or "discard" */
  const char        *section;   /* "write-saturation", "consistency", "qos", "standard" */
  DuelWorkload       workload;  /* tests only */
  DuelAnalysisKind   analysis;
  double             weight_s;  /* expected seconds, for the overall fraction */
  const DuelReviewTest *test;   /* the review test it belongs to */
  const DuelReviewStep *info;   /* its step there; NULL for a discard */
  guint              pass;      /* 1-based: which run of its review step this is */
  guint              passes;    /* how often its review step runs; 1: once, no "pass" details */
} DuelPresetStep;

typedef struct
{
  guint                 step_index;    /* 0-based */
  guint                 n_steps;
  const DuelPresetStep *step;
  const DuelProgress   *engine;        /* NULL at a step's start and end and during a discard */
  gboolean              step_done;
  double                fraction_done; /* of the whole preset, 0..1, weighted by expected time */
} DuelPresetProgress;

/* Called in the thread that runs the preset (the engine's), at each step's
 * start and end and on every engine progress call. @record is the step's
 * test record (NULL for a discard); it may be read, not changed. */
typedef void (*DuelPresetProgressFunc)   (const DuelPresetProgress *progress,
                                          DuelTestRecord           *record,
                                          gpointer                  user_data);
/* Called in the same thread whenever a series interval closed and after each
 * test (with its summary, @test_finished TRUE): the result is consistent and
 * may be saved. Rate-limit saves in the callback. */
typedef void (*DuelPresetCheckpointFunc) (DuelResult               *result,
                                          gboolean                  test_finished,
                                          gpointer                  user_data);

typedef struct
{
  guint64 span_bytes;
  guint64 fill_bytes;          /* 0 without a fill */
  double  probe_write_iops;    /* 4 KiB random write QD32; NAN when no probe ran */
  double  probe_end_write_iops;/* the same since its rate fell (a write cache ran out), else over its last quarter */
  guint64 probe_ms;            /* as it ran (duel-probe.h: it runs on until it sees the rate fall) */
  guint64 probe_fall_bytes;    /* written before the fall; 0: none seen */
  double  fill_seconds;        /* at the probe's rate: a lower bound, a full drive slows down */
  double  timed_seconds;       /* the fixed-length tests */
  double  total_seconds;
} DuelPresetEstimate;

#define DUEL_TYPE_PRESET (duel_preset_get_type ())

G_DECLARE_FINAL_TYPE (DuelPreset, duel_preset, DUEL, PRESET, GObject)

void                 duel_preset_options_init       (DuelPresetOptions        *options);
const char * const  *duel_preset_get_names          (void);
/* A translated one-line description of a preset name, NULL when unknown. */
const char          *duel_preset_describe           (const char               *name);
/* Its translated title ("Quick Review"); @name itself when unknown. */
const char          *duel_preset_get_title_for_name (const char               *name);
/* Whether the preset fills the drive (and so trims, probes and takes a multiple). */
gboolean             duel_preset_name_has_fill      (const char               *name);
/* Whether the preset runs a workload the person chooses (DuelPresetOptions.custom). */
gboolean             duel_preset_name_has_chosen_workload (const char     *name);
/* Whether @step is a fill: bounded by bytes written, not by time. */
gboolean             duel_preset_step_is_fill       (const DuelPresetStep     *step);

DuelPreset          *duel_preset_new                (const char               *name,
                                                     const DuelPresetOptions  *options,
                                                     GError                  **error);
/* A plain run's plan: no preset, the caller's workloads under their own
 * names (@name NULL: fio's rw name), each summarised by the analysis its
 * finished record fits. Its records carry no preset and no parameters of
 * one; it neither trims nor probes. */
DuelPreset          *duel_preset_new_plain          (void);
void                 duel_preset_add_workload       (DuelPreset               *self,
                                                     const char               *name,
                                                     const DuelWorkload       *workload);
/* Whether running it writes to the target. */
gboolean             duel_preset_writes             (DuelPreset               *self);
/* Its name; NULL for a plain plan. */
const char          *duel_preset_get_name           (DuelPreset               *self);
/* The overrides it was made with: duel_preset_new() with them and its name
 * makes the same plan again (Run again). */
const DuelPresetOptions *duel_preset_get_options (DuelPreset                 *self);
const DuelAnalysisParams *duel_preset_get_analysis_params (DuelPreset         *self);

/* Resolves the steps against @target (span, file size). run() and
 * estimate() call it; after it the steps can be listed. */
gboolean             duel_preset_prepare            (DuelPreset               *self,
                                                     DuelTarget               *target,
                                                     GError                  **error);
/* The same against a target's geometry before it is written to (@size
 * bytes in @logical_block_size-byte blocks; @display names it in errors). */
gboolean             duel_preset_prepare_for_size   (DuelPreset               *self,
                                                     guint64                   size,
                                                     guint32                   logical_block_size,
                                                     const char               *display,
                                                     GError                  **error);
guint                duel_preset_get_n_steps        (DuelPreset               *self);
const DuelPresetStep*duel_preset_get_step           (DuelPreset               *self,
                                                     guint                     index);
/* The interval preset @preset_name samples at by design (the quick
 * review: 100 ms); 0 when it takes the one a person prefers. */
guint                duel_preset_default_interval_ms (const char              *preset_name);
/* How long test @test_name of preset @preset_name runs with the default
 * options; 0 when it is bounded by bytes, or there is no such test. */
guint64              duel_preset_default_runtime_ms (const char               *preset_name,
                                                     const char               *test_name);
/* The effective parameters, as recorded in every test's details. */
JsonNode            *duel_preset_get_parameters     (DuelPreset               *self);

/* Times a 4 KiB random write QD32 probe of at least @probe_ms (0: skip the
 * probe; duel-probe.h) and estimates the whole preset from it. The probe
 * writes to the target. */
gboolean             duel_preset_estimate           (DuelPreset               *self,
                                                     DuelTarget               *target,
                                                     guint64                   probe_ms,
                                                     GCancellable             *cancellable,
                                                     DuelPresetEstimate       *out,
                                                     GError                  **error);

void                 duel_preset_set_progress_func  (DuelPreset               *self,
                                                     DuelPresetProgressFunc    func,
                                                     gpointer                  user_data,
                                                     GDestroyNotify            destroy);
void                 duel_preset_set_checkpoint_func(DuelPreset               *self,
                                                     DuelPresetCheckpointFunc  func,
                                                     gpointer                  user_data,
                                                     GDestroyNotify            destroy);

/* Adds the record of the first step, when it is a test, to @result before
 * anything runs, so that the first save already names the test; run() goes
 * on with that record. */
void                 duel_preset_begin              (DuelPreset               *self,
                                                     DuelResult               *result);
/* Runs every step, adding the test records to @result (a preset's records
 * and a plain plan's alike: one loop, every step summarised). On a failure or a
 * cancel the records keep what was measured (with their summaries) and
 * FALSE is returned with @error set. A preset's target must be open for
 * writing; a plain plan's only when it writes. */
gboolean             duel_preset_run                (DuelPreset               *self,
                                                     DuelTarget               *target,
                                                     DuelResult               *result,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);

G_END_DECLS
