/* duel-review-test.h — one descriptor per review test; a preset is a list of them
 *
 * A review test (write saturation, consistency, QoS, the standard set, the
 * CrystalDiskMark set) is described once, in a file of its own under
 * src/core/review/: its id (kept in each record's details.section, never
 * shown), its translated title and description, the lengths of its timed
 * steps, and its steps as data: each step's record name, its translated
 * title, the workload, the analysis its record gets and the live view that
 * shows it while it runs. duel-preset.c builds a run from these tables and
 * nothing else; a record's name is looked up here, and only here, to know
 * which test and step it came from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "result/duel-analysis-kind.h"
#include "engine/duel-workload.h"

G_BEGIN_DECLS

/* The record name of the trim a test with trim_first runs before its steps. */
#define DUEL_REVIEW_TRIM_NAME "discard"
/* The record name of an idle before a step with idle_slot (no record is
 * made: the next step's details keep how long it lasted). */
#define DUEL_REVIEW_IDLE_NAME "idle"
/* How many idle periods a test may have (recovery after idle). */
#define DUEL_REVIEW_MAX_IDLE 4

/* What the Run page draws while a step runs. */
typedef enum
{
  DUEL_LIVE_VIEW_NONE,          /* a trim, or a test no review test gave */
  DUEL_LIVE_VIEW_WRITE_CURVE,   /* IOPS over % of capacity written */
  DUEL_LIVE_VIEW_INTERVALS,     /* IOPS per interval */
  DUEL_LIVE_VIEW_LATENCY,       /* the latency distribution so far */
  DUEL_LIVE_VIEW_BARS,          /* MB/s and IOPS of each step so far */
  DUEL_LIVE_VIEW_SEQUENTIAL,    /* MB/s over GB written, the step's own record */
} DuelLiveView;

typedef struct
{
  const char       *name;          /* the record's name ("qos-read-qd1"); never shown */
  const char       *title;         /* translatable: "4K random read QD1"; NULL: the test's title alone */
  DuelAnalysisKind  analysis;
  DuelPattern       pattern;
  guint32           block_size;
  guint32           queue_depth;   /* per job */
  guint             numjobs;       /* 0 or 1: one job */
  guint             read_percent;
  gboolean          fill;          /* written to capacity_multiple x the span, not timed */
  DuelLiveView      live_view;
  gboolean          chosen;        /* the workload is the person's (DuelPresetOptions.custom); the
                                    * analysis is the one it fits (duel_analysis_guess()) */
  guint             idle_slot;     /* 1-based: the step runs after the test's idle period of this
                                    * number, with no I/O (recovery after idle); it does not run
                                    * when the plan has fewer periods. 0: no idle before it. Steps
                                    * in a row with one number follow one idle */
  double            until_fall_share; /* > 0: a write that ends once its rate fell, in rows of
                                    * at most DUEL_PROBE_INTERVAL_MS (duel_analysis_rate_fall(), by
                                    * the analysis' fall_min_drop), or after this multiple of the
                                    * span (the cache after idle: a quarter), or its runtime: how
                                    * large a cache is. 0: a step that runs its own length */
} DuelReviewStep;

/* A test that repeats its steps in rounds until the figure one step
 * tracks is steady (SNIA PTS): after each round from the window's length
 * on, the last @window rounds' values pass when their range is within
 * @data_limit of their mean and their fitted line moves by at most
 * @slope_limit of it (duel_analysis_steady_state_window()); at most
 * @max_rounds rounds. A fill among the steps (the preconditioning) runs
 * once, before the first round. */
typedef struct
{
  guint       max_rounds;      /* SNIA: 25 */
  guint       window;          /* SNIA: 5 */
  double      data_limit;      /* SNIA: 0.20 */
  double      slope_limit;     /* SNIA: 0.10 */
  const char *tracked_step;    /* the record name whose figure is tracked */
  const char *tracked_key;     /* that figure's summary key */
} DuelReviewRounds;

/* A preset of several tests beside the review's own (SNIA's throughput at
 * two block sizes), given by the last of its tests and listed after it. */
typedef struct
{
  const char *name;                       /* the preset's name: "pts-throughput"; never shown */
  const char *title;                      /* translatable: "SNIA Throughput" */
  const char *description;                /* translatable: one line */
  const char *tests[6];                   /* review test ids, NULL-terminated */
} DuelReviewBundle;

typedef struct
{
  const char           *id;               /* "qos": details.section, preset names; never shown */
  const char           *title;            /* translatable: "Quality of service" */
  const char           *preset_title;     /* translatable: the preset that runs it alone, "Quality of Service" */
  const char           *description;      /* translatable: one line for the preset list and --help */
  const char           *runtime_key;      /* the timed steps' length in preset_parameters: "qos_ms";
                                           * NULL: it has none (a fill alone) */
  guint64               runtime_ms;       /* each timed step, in the review */
  guint64               quick_runtime_ms; /* each timed step, in the quick review */
  gboolean              trim_first;       /* a discard before the first step (unless no_trim) */
  gboolean              purge_first;      /* that discard a purge where the drive has one (SNIA PTS):
                                           * an NVMe format with user data erase of a whole
                                           * namespace, else the trim; the records say which */
  guint64               span_bytes;       /* the span it uses unless one is given (CrystalDiskMark's
                                           * 1 GiB test file); 0: the whole target */
  double                fill_multiple;    /* how often its fill writes the span unless a capacity
                                           * multiple is given; 0: the plan's (2) */
  guint                 max_interval_ms;  /* its rows at most this long, whatever the plan's
                                           * interval (the sequential write: 100 ms, so that
                                           * a cache lasting a second spans rows); 0: the plan's */
  guint                 passes;           /* how often the steps run by default (1; CrystalDiskMark: 5) */
  const DuelReviewStep *steps;
  guint                 n_steps;
  const char * const   *headline;         /* the figure keys a comparison leads with, in order; NULL: none */
  const DuelReviewRounds *rounds;         /* NULL: the steps run once each (or their passes) */
  gboolean              titles_from_workload; /* a step without a title is named by its access
                                               * ("4 KiB random 65/35 read/write"), not by the
                                               * test's title alone */
  const DuelReviewBundle *ends_bundle;    /* the preset of several tests this one ends; NULL: none */
  guint64               idle_ms[DUEL_REVIEW_MAX_IDLE];       /* its idle periods (steps' idle_slot), 0-ended */
  guint64               quick_idle_ms[DUEL_REVIEW_MAX_IDLE]; /* the same in the quick review */
} DuelReviewTest;

/* Every review test, in the review's order; NULL-terminated. */
const DuelReviewTest * const *duel_review_tests_get_all  (void);
const DuelReviewTest         *duel_review_test_find      (const char            *id);
/* The translated title: "Quality of service". */
const char                   *duel_review_test_get_title (const DuelReviewTest  *test);
/* The translated description: one line. */
const char                   *duel_review_test_get_description (const DuelReviewTest *test);
/* The test and step a record's name comes from; FALSE for a name no
 * review test gives (an imported fio job, a plain run). */
gboolean                      duel_review_test_find_step (const char            *record_name,
                                                          const DuelReviewTest **out_test,
                                                          const DuelReviewStep **out_step);
/* A record's title in the session's language: "Quality of service: 4K
 * random read, QD1"; a name no review test gives is returned as it is. */
char                         *duel_review_describe_record (const char           *record_name);
/* The live view of a record's step: NONE for the trim, IOPS per interval
 * for a name no review test gives (a plain run's workload). */
DuelLiveView                  duel_review_live_view_for_record (const char      *record_name);

G_END_DECLS
