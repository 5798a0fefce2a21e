/* duel-preset.h — the review's test scripts: sequences of workloads and trim steps
 *
 * The plan of every run: a preset, or a plain run's workloads
 * (duel_preset_new_plain()). A plan is data: its steps and their
 * parameters, resolved against a target's size (duel_preset_prepare()).
 * The run's worker runs it (duel-run-steps.h): every step through
 * duel_engine_run() on one target, one test record per workload in one
 * DuelResult, each with the preset's name, its exact parameters and the
 * summary figures (duel-analysis.h).
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
#include "duel-probe.h"
#include "result/duel-result.h"
#include "engine/duel-target.h"
#include "review/duel-review-test.h"

G_BEGIN_DECLS

#define DUEL_PRESET_MAX_MATRIX 16
#define DUEL_PRESET_MAX_ROUNDS 100

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
  guint    max_rounds;          /* a test in rounds (SNIA PTS): at most this many, 1..DUEL_PRESET_MAX_ROUNDS;
                                 * default: the test's own (25) */
  double   data_limit;          /* a test in rounds: the steady window's largest range, a share of its
                                 * mean, 0 < x <= 10; default: the test's own (SNIA: 0.20) */
  double   slope_limit;         /* its fitted line's largest excursion, likewise (SNIA: 0.10) */
  guint    n_matrix_block_sizes;/* a matrix's block sizes to run, a subset of its own; 0: all */
  guint32  matrix_block_sizes[DUEL_PRESET_MAX_MATRIX];
  guint    n_matrix_read_percents; /* its read/write mixes (read %), a subset of its own; 0: all */
  guint    matrix_read_percents[DUEL_PRESET_MAX_MATRIX];
  guint    n_idle;              /* recovery after idle: how many idle periods, 1..DUEL_REVIEW_MAX_IDLE;
                                 * 0: the test's own (5 and 30 min; quick: 2 and 5 s) */
  guint64  idle_ms[DUEL_REVIEW_MAX_IDLE]; /* each, DUEL_PRESET_MIN_IDLE_MS..DUEL_PRESET_MAX_IDLE_MS */
  DuelWorkload custom;          /* the custom test's: pattern, block size, queue depth, numjobs,
                                 * read percent (its length: runtime_ms, default 60 s); ignored
                                 * by the other presets */
} DuelPresetOptions;

#define DUEL_PRESET_MAX_PASSES 100
#define DUEL_PRESET_MIN_IDLE_MS 100
#define DUEL_PRESET_MAX_IDLE_MS (G_GUINT64_CONSTANT (24) * 3600 * 1000)

typedef enum
{
  DUEL_PRESET_STEP_DISCARD,     /* bring the span to "empty" */
  DUEL_PRESET_STEP_TEST,        /* one engine run, one test record */
  DUEL_PRESET_STEP_IDLE,        /* no I/O for idle_ms, before the step after it (recovery after idle) */
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
  guint              round;     /* 1-based round of a test in rounds (DuelReviewRounds); 0: none */
  guint              max_rounds;/* how many rounds its test may run */
  gboolean           optional;  /* a round past the first window: skipped once the rounds are steady */
  guint64            idle_ms;   /* an idle's length; a step after one: that idle's */
} DuelPresetStep;

typedef struct
{
  guint64 span_bytes;
  guint64 fill_bytes;          /* every fill's bytes; 0 without a fill */
  double  probe_write_iops;    /* 4 KiB random write QD32; NAN when no probe ran */
  double  probe_end_write_iops;/* the same since its rate fell (a write cache ran out), else over its last quarter */
  guint64 probe_ms;            /* as it ran (duel-probe.h: it runs on until it sees the rate fall) */
  gboolean probe_fell;         /* the probe saw the rate fall */
  guint64 probe_fall_bytes;    /* written before the fall; 0: none seen */
  double  fill_seconds;        /* every fill's, at the probe's rate: a lower bound, a full drive slows down */
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
/* Whether the preset fills with random writes, whose rate a probe foretells
 * (write saturation; not a sequential preconditioning). */
gboolean             duel_preset_name_probes        (const char               *name);
/* Whether the preset runs a workload the person chooses (DuelPresetOptions.custom). */
gboolean             duel_preset_name_has_chosen_workload (const char     *name);
/* The rounds preset @name runs its tests in (its last test in rounds'
 * own rules), NULL when it runs none. */
const DuelReviewRounds *duel_preset_name_get_rounds (const char           *name);
/* The idle periods of the first test of preset @name that rests the drive
 * (recovery after idle), 0-ended in @out_idle_ms; FALSE when none does. */
gboolean             duel_preset_name_get_idle      (const char               *name,
                                                     guint64                   out_idle_ms[DUEL_REVIEW_MAX_IDLE]);
/* Idle periods as people write them, "5m, 30m" (s, m or h; seconds without
 * one), into @options; FALSE with one sentence in @error. */
gboolean             duel_preset_parse_idle         (const char               *text,
                                                     DuelPresetOptions        *options,
                                                     GError                  **error);
/* The same the other way: "5m, 30m", "90s"; "" without periods. */
char                *duel_preset_format_idle        (const guint64            *idle_ms,
                                                     guint                     n_idle);
/* The block sizes (guint32) and read/write mixes (guint, read %) of the
 * cells preset @name runs in rounds, each once, in its tests' order: the
 * values DuelPresetOptions' matrix subsets take. FALSE, and both empty,
 * when it runs no rounds. */
gboolean             duel_preset_name_get_matrix    (const char               *name,
                                                     GArray                  **out_block_sizes,
                                                     GArray                  **out_read_percents);
/* Whether @step is a fill: bounded by bytes written, not by time. */
gboolean             duel_preset_step_is_fill       (const DuelPresetStep     *step);
/* Whether @step is a fill with random writes (write saturation), whose
 * rate a probe foretells; not a sequential preconditioning. */
gboolean             duel_preset_step_is_random_fill (const DuelPresetStep    *step);

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
/* The rounds @test runs with in this plan: its own, with the overrides
 * of the options (rounds, limits); NULL when it does not run in rounds. */
const DuelReviewRounds *duel_preset_get_rounds (DuelPreset               *self,
                                                const DuelReviewTest     *test);
/* How @test runs in rounds in this plan, as its records keep it
 * (details.rounds): the most rounds, the window, the limits, the tracked
 * cell and figure, the block sizes and mixes that run; NULL when it does
 * not run in rounds. */
JsonObject          *duel_preset_get_rounds_parameters (DuelPreset            *self,
                                                        const DuelReviewTest  *test);
/* The span every step uses from offset 0, once prepared; 0 for a plain plan. */
guint64              duel_preset_get_span_bytes     (DuelPreset               *self);
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

/* The estimate of the prepared plan from a probe's figures (@probe NULL:
 * none ran; the fill is then weighed at a nominal rate). Pure. */
void                 duel_preset_estimate_from_probe (DuelPreset              *self,
                                                      const DuelProbeResult   *probe,
                                                      DuelPresetEstimate      *out);
/* The expected seconds of @step by @estimate: a fill's at the probe's
 * rate, any other step's its own weight_s. */
double               duel_preset_step_weight        (DuelPreset               *self,
                                                     const DuelPresetStep     *step,
                                                     const DuelPresetEstimate *estimate);

/* A test's part of an estimate: its steps' expected seconds, and of them
 * the seconds the drive rests. */
typedef struct
{
  const DuelReviewTest *test;   /* NULL: steps no review test gave (a plain run) */
  double                seconds;
  double                idle_seconds;
} DuelPresetTestEstimate;

/* @estimate split by test, in the order the tests run (the CLI's lines
 * before a run, the preset page's): fills at most @max of @out and
 * returns how many tests the plan has. A fill's part is the estimate's
 * lower bound, as the total's is. */
guint                duel_preset_estimate_by_test   (DuelPreset               *self,
                                                     const DuelPresetEstimate *estimate,
                                                     DuelPresetTestEstimate   *out,
                                                     guint                     max);
/* The same as text, a line per test ("Recovery after idle: 37 min 10 s,
 * 35 min 00 s of it idle"), translated; NULL when the plan runs one test
 * and never rests the drive (the total says it all). */
GStrv                duel_preset_describe_estimate_by_test (DuelPreset               *self,
                                                            const DuelPresetEstimate *estimate);

/* Sets @record's analysis kind and, for a named preset, the details that
 * say where it belongs: its section, the preset's parameters, its round
 * and the rules of its rounds, its pass. The run's loop and anything that
 * runs a plan's steps elsewhere (the simulated SSD's own clock) alike. */
void                 duel_preset_describe_record    (DuelPreset               *self,
                                                     const DuelPresetStep     *step,
                                                     DuelTestRecord           *record);

G_END_DECLS
