/* duel-analysis.h — the figures a review prints, as pure functions over series and histograms
 *
 * Nothing here does I/O or keeps state: the same series and histograms give
 * the same figures, whether they come from a run that just finished or from
 * a result file loaded years later. The rules (windows, ranks, limits) are
 * documented next to each function, in docs/analysis.md (the write cliff
 * and steady state after it) and in docs/result-format.md, section
 * "Summary figures".
 *
 * Units: IOPS are operations per second; MB is 10^6 bytes and GB is 10^9
 * bytes (the review's units); latencies in figures are microseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "result/duel-analysis-kind.h"
#include "engine/duel-histogram.h"
#include "result/duel-result.h"
#include "engine/duel-series.h"
#include "engine/duel-test-record.h"

G_BEGIN_DECLS

const char *duel_analysis_kind_to_string   (DuelAnalysisKind  kind);
gboolean    duel_analysis_kind_from_string (const char       *text,
                                            DuelAnalysisKind *out_kind);

/* The documented rules, with their defaults from duel_analysis_params_init(). */
typedef struct
{
  double  point_window_pct;    /* 1.0: the 50 % and 100 % points average [p − 1, p + 1] % of capacity */
  double  edge_window_pct;     /* 2.0: the 0 % point averages [0, 2] %, the end the last 2 % written */
  double  plateau_fraction;    /* 0.10: the plateau averages the last 10 % of the bytes written */
  /* The curve the falls are read on (docs/analysis.md): a running median
   * of rows, then a grid of % of capacity written. */
  guint   cliff_smooth_rows;   /* 5: running median over 5 intervals first (single intervals out) */
  double  cliff_smooth_pct;    /* 2.0: the drawn curve: a centred mean over 2 % of capacity (±1 %) */
  double  cliff_step_pct;      /* 0.25: grid step, % of capacity */
  /* A fall: it drops by fall_min_drop or more within fall_max_pct points,
   * the trends on either side (fitted over fall_trend_pct) change at most
   * 1 / fall_turn as fast, and it holds for fall_hold_pct. The write cliff
   * is the last fall. */
  double  fall_min_drop;       /* 0.25: the level after is at most 75 % of the level before */
  double  fall_max_pct;        /* 20: done within 20 points of capacity written */
  double  fall_turn;           /* 4: at least 4 times as steep as the trends either side */
  double  fall_trend_pct;      /* 10: the trends either side are fitted over up to 10 points */
  double  fall_hold_pct;       /* 5: the trend after holds for at least 5 points */
  guint64 round_ms;            /* 60000: SNIA round length */
  guint   ss_window_rounds;    /* 5: SNIA measurement window */
  double  ss_data_limit;       /* 0.20: max − min <= 20 % of the window mean */
  double  ss_slope_limit;      /* 0.10: |slope| x (n − 1) <= 10 % of the window mean */
} DuelAnalysisParams;

#define DUEL_STEADY_STATE_MAX_WINDOW 25

void       duel_analysis_params_init      (DuelAnalysisParams       *params);
JsonNode  *duel_analysis_params_to_json   (const DuelAnalysisParams *params);
/* Members missing from @object keep their defaults; bad values are an error. */
gboolean   duel_analysis_params_from_json (JsonObject               *object,
                                           DuelAnalysisParams       *out_params,
                                           GError                  **error);

/* ---- Throughput (the standard set, the read score) ---------------------- */

/* From the totals: all ops and bytes of the series over the record's runtime
 * (first submit to last completion; the series' end when the runtime is 0). */
typedef struct
{
  double seconds;
  double iops[DUEL_N_DIRECTIONS];
  double total_iops;
  double mb_per_s[DUEL_N_DIRECTIONS];     /* 10^6 bytes per second */
  double total_mb_per_s;
} DuelThroughput;

void duel_analysis_throughput (const DuelSeries *series,
                               guint64           runtime_ns,
                               DuelThroughput   *out);

/* ---- Write saturation ------------------------------------------------- */

/* The mean IOPS of one direction while the cumulative bytes of that
 * direction were within [lo_bytes, hi_bytes]: the ops done there over the
 * time spent there. A row that straddles a bound counts in proportion to the
 * part of its bytes inside (its rate is taken as even within the row), so the
 * figure is the same for fine and coarse intervals. */
typedef struct
{
  double  lo_pct;        /* of capacity (the span) */
  double  hi_pct;
  double  ops;           /* apportioned */
  double  seconds;
  double  iops;          /* NAN when the run did not write up to hi_pct */
} DuelWindowMean;

void duel_analysis_window_mean (const DuelSeries *series,
                                DuelDirection     direction,
                                guint64           span_bytes,
                                double            lo_pct,
                                double            hi_pct,
                                DuelWindowMean   *out);

/* One SNIA PTS measurement window: rounds @first .. @first + n − 1 (0-based
 * indexes into the round values; round numbers x are 1-based). */
typedef struct
{
  gboolean complete;             /* the window had its n rounds */
  guint    first_round;          /* 1-based round number of its first round */
  guint    n;
  double   values[DUEL_STEADY_STATE_MAX_WINDOW];
  double   mean;
  double   slope;                /* least squares y = slope · x + intercept, x = round number */
  double   intercept;
  double   data_excursion;       /* max − min */
  double   data_limit;           /* ss_data_limit x mean */
  double   slope_excursion;      /* |slope| x (n − 1): the fitted line's change across the window */
  double   slope_excursion_tkperf; /* |slope| x n, TKperf's stricter variant */
  double   slope_limit;          /* ss_slope_limit x mean */
  gboolean data_ok;
  gboolean slope_ok;
  gboolean slope_ok_tkperf;
  gboolean steady;               /* data_ok && slope_ok */
} DuelSteadyStateWindow;

gboolean duel_analysis_steady_state_window (const double          *round_values,
                                            guint                  n_rounds,
                                            guint                  first,
                                            guint                  n,
                                            double                 data_limit,
                                            double                 slope_limit,
                                            DuelSteadyStateWindow *out);

/* Mean IOPS of @direction per complete round of @round_ms from the run's
 * start; a row straddling a round boundary is split in proportion to time;
 * the final, incomplete round is left out. Returns a GArray of double. */
GArray  *duel_analysis_rounds (const DuelSeries *series,
                               DuelDirection     direction,
                               guint64           round_ms);

typedef struct
{
  GArray                *rounds;      /* double: mean write IOPS per round */
  DuelSteadyStateWindow  last;        /* the last ss_window_rounds rounds: the verdict */
  gboolean               searched;    /* a search for the first passing window was made */
  guint                  search_from_round; /* 1-based first round a searched window may start at */
  gboolean               found;       /* some window passed, searching from round n on */
  guint                  first_steady_round; /* 1-based last round of the first passing window */
  DuelSteadyStateWindow  first;       /* that window */
} DuelSteadyState;

/* The SNIA search: the verdict on the last window, and the first passing
 * window from round n on. */
void duel_analysis_steady_state      (const double             *round_values,
                                      guint                     n_rounds,
                                      const DuelAnalysisParams *params,
                                      DuelSteadyState          *out);
/* The same, but the search only considers windows whose first round is at
 * or after @first_round (0-based); G_MAXUINT: no search (found stays FALSE,
 * "not reached"). With a finite @level, a passing window's mean must also be
 * within ss_data_limit of it: a fill's plateau, so that a flat stretch the
 * drive later leaves is not taken for its steady state. The last-window
 * verdict is computed either way, without @level. */
void duel_analysis_steady_state_from (const double             *round_values,
                                      guint                     n_rounds,
                                      guint                     first_round,
                                      double                    level,
                                      const DuelAnalysisParams *params,
                                      DuelSteadyState          *out);
void duel_steady_state_clear    (DuelSteadyState          *state);

/* One fall of a fill's write curve (docs/analysis.md, "Falls"). */
typedef struct
{
  guint64 knee_bytes;         /* written before the fall began */
  double  knee_pct;
  guint   knee_row;           /* the interval during which the writes passed the knee */
  guint64 foot_bytes;         /* written when the fall ended */
  double  foot_pct;
  guint64 foot_ms;            /* when the writes passed foot_bytes */
  double  level_before_iops;  /* the median over fall_hold_pct before the knee */
  double  level_after_iops;   /* the median over fall_hold_pct after the foot */
  double  drop;               /* 1 − after / before: fall_min_drop or more */
  double  resolution_pct;     /* ± how far the knee may lie from knee_pct: a grid step, or the
                               * share of capacity of the row it falls in when rows are coarser */
} DuelFall;

/* A stretch between falls that loses fall_min_drop or more without a fall:
 * from its top (where it stops rising) to its bottom, at the levels
 * there, mostly between from_pct and to_pct (10 % and 90 % of the way). */
typedef struct
{
  double from_pct;
  double to_pct;
  double from_iops;           /* the level at the top */
  double to_iops;             /* the level at the bottom */
  double top_pct;
  double bottom_pct;
} DuelDecline;

/* After a fall, the curve climbing back by as much as a fall is deep:
 * from the fall's level after to the level it recovers to, between
 * from_pct (where it leaves the level after) and to_pct (nine tenths of
 * the way up). */
typedef struct
{
  guint  fall;                /* the index of the fall it follows */
  double from_pct;
  double to_pct;
  double from_iops;
  double to_iops;
} DuelRecovery;

typedef struct
{
  GArray *falls;              /* DuelFall, in order */
  GArray *declines;           /* DuelDecline, in order */
  GArray *recoveries;         /* DuelRecovery, in order */
} DuelFalls;

void duel_analysis_falls (const DuelSeries         *series,
                          guint64                   span_bytes,
                          const DuelAnalysisParams *params,
                          DuelFalls                *out);
void duel_falls_clear    (DuelFalls                *falls);

/* Where the write rate of @series fell, on rows as they arrive (the probe,
 * the cache after idle): the split of its rows with the largest ratio of
 * the rate before to the rate after, when that ratio is at least @factor
 * with at least 3 rows before and 5 after and 16 writes either side.
 * Confirmed once the rows after it are at least 10 and span a quarter of
 * the time before. Sets @out_row to the first row after the fall. Pure: a
 * recorded series gives the same answer. */
#define DUEL_ANALYSIS_RATE_FALL_MIN_OPS 16
gboolean duel_analysis_rate_fall (const DuelSeries *series,
                                  double            factor,
                                  guint            *out_row,
                                  gboolean         *out_confirmed);

typedef struct
{
  guint64         span_bytes;
  guint64         written_bytes;
  double          written_pct;        /* written / span x 100 */
  double          write_iops_mean;    /* all write ops over the series' duration */
  DuelWindowMean  at_0;               /* [0, edge] % */
  DuelWindowMean  at_50;              /* [50 − w, 50 + w] % */
  DuelWindowMean  at_100;             /* [100 − w, 100 + w] % */
  DuelWindowMean  at_end;             /* [written − edge, written] % */
  DuelWindowMean  plateau;            /* the last plateau_fraction of the bytes written */
  /* Every fall of the curve and every decline between them
   * (duel_analysis_falls()); the write cliff is the last fall, into the
   * plateau. The cliff_* and fall_end_* fields repeat that fall. */
  DuelFalls       falls;
  gboolean        cliff_found;
  guint           cliff_row;          /* the interval during which the writes passed the knee */
  guint64         cliff_bytes;        /* written before the knee */
  double          cliff_pct;          /* NAN without a cliff */
  double          cliff_gb;
  double          cliff_resolution_pct; /* ± how far the knee may lie from cliff_pct */
  double          pre_cliff_iops;     /* the fitted level at the knee: the level the curve leaves */
  double          post_cliff_iops;    /* the fitted level at the foot: the level it falls to */
  double          cliff_drop;         /* 1 − post_cliff_iops / pre_cliff_iops */
  guint64         fall_end_bytes;     /* the foot: where the fall ends */
  double          fall_end_pct;
  guint64         fall_end_ms;        /* when the writes passed fall_end_bytes */
  /* Rounds as duel_analysis_rounds(); the first passing window is searched
   * only among windows that start after the fall has ended, and not at all
   * without a cliff: fresh-out-of-box rounds are not steady state. */
  DuelSteadyState steady_state;
} DuelSaturation;

void duel_analysis_saturation (const DuelSeries         *series,
                               guint64                   span_bytes,
                               const DuelAnalysisParams *params,
                               DuelSaturation           *out);
void duel_saturation_clear    (DuelSaturation           *saturation);
/* @sat as summary.details.saturation holds it (docs/result-format.md). */
JsonObject *duel_saturation_to_json (const DuelSaturation     *sat,
                                     const DuelAnalysisParams *params);

#define DUEL_SATURATION_MAX_FALLS 8

/* The fill's summary as a result holds it (its figures and the plateau's
 * window from summary.details), typed for the charts: NAN where the record
 * has no such figure (a published result prints only some). */
typedef struct
{
  double iops_at_pct[4];        /* at 0 %, 50 %, 100 % written and at the end */
  double written_pct;           /* capacity_written_pct */
  double plateau_iops;
  double plateau_lo_pct;        /* the window the plateau averages */
  double plateau_hi_pct;
  double cliff_pct;
  /* The falls as summary.details.saturation.falls holds them, in order;
   * the last is the cliff. A record without them but with a cliff_pct (a
   * published reference, a file from before the falls) has that one. */
  guint  n_falls;
  struct
  {
    double knee_pct;
    double resolution_pct;      /* NAN when not known */
    double before_iops;
    double after_iops;
  } falls[DUEL_SATURATION_MAX_FALLS];
} DuelSaturationSummary;

void duel_saturation_summary_from_record (const DuelTestRecord  *record,
                                          DuelSaturationSummary *out);

/* One sentence for each fall and each decline of a fill, as the summary
 * @details hold them (a record's summary.details, or
 * duel_summary_get_details()), in the reader's language; the last fall is
 * named the write cliff. NULL-terminated; empty when there are none. */
char **duel_saturation_dup_falls_text    (JsonObject            *details);
/* The same, for scripts: a JSON array of objects, each with its kind
 * ("fall", "cliff", "recovery", "decline"), knee, foot, levels and
 * resolution (docs/result-format.md, "analyze --json"). */
JsonNode *duel_saturation_dup_events_json (JsonObject            *details);

/* % of capacity written at the end of each row (cumulative bytes of
 * @direction / @span_bytes x 100): the x axis of the write saturation chart.
 * GArray of double. */
GArray *duel_analysis_written_pct (const DuelSeries *series,
                                   DuelDirection     direction,
                                   guint64           span_bytes);

/* The write IOPS as the cliff rule reads them: each interval's rate replaced
 * by the running median of cliff_smooth_rows intervals, then the mean IOPS
 * over the centred window [x − cliff_smooth_pct / 2, x + cliff_smooth_pct / 2]
 * % of capacity (clipped to what was written), at x = 0, cliff_step_pct,
 * 2 cliff_step_pct … up to the % written. GArray of double; empty without a
 * span. */
GArray *duel_analysis_cliff_curve (const DuelSeries         *series,
                                   guint64                   span_bytes,
                                   const DuelAnalysisParams *params);

/* ---- Performance consistency -------------------------------------------- */

typedef struct
{
  guint    n_intervals;          /* complete intervals used */
  gboolean partial_excluded;     /* a final interval shorter than interval_ms was left out */
  gboolean few_intervals;        /* N < 1000: the 99.9 % tail is a single interval */
  double   mean_iops;            /* mean of the per-interval IOPS */
  double   mean_read_iops;
  double   mean_write_iops;
  double   stddev_iops;          /* population standard deviation of the per-interval IOPS */
  double   mean_over_stddev;     /* NAN when the deviation is 0 */
  guint    slowest_rank;         /* ceil(0.001 N), 1-based in the ascending order */
  double   slowest_iops;         /* the 99.9 % slowest interval */
  double   ratio;                /* slowest / mean */
  double   worst_case_iops_min;  /* min over intervals of queue depth / max latency; NAN without latencies */
  double   read_share;           /* read ops / all ops of the used intervals */
} DuelConsistency;

#define DUEL_CONSISTENCY_MIN_INTERVALS 1000

void   duel_analysis_consistency         (const DuelSeries *series,
                                          guint             interval_ms,
                                          guint             queue_depth,
                                          DuelConsistency  *out);
/* The number of rows the per-interval statistics use (all but a final short one). */
guint  duel_analysis_complete_intervals  (const DuelSeries *series,
                                          guint             interval_ms);
/* One translated sentence when the consistency figures of @record leave out
 * a final interval shorter than its interval_ms (the run stopped inside it),
 * with both lengths: "The last interval (0.4 s) was shorter than 1 s and is
 * not counted in the consistency figures." NULL when every interval counts.
 * The caller knows that @record is a consistency test. */
char  *duel_analysis_consistency_dup_partial_note (const DuelTestRecord *record);
/* Queue depth / the interval's largest latency of either direction: the IOPS
 * the interval would reach if every I/O took that long. NAN without I/O.
 * With several jobs, @queue_depth is all of theirs (iodepth × numjobs). */
double duel_analysis_worst_case_iops     (const DuelSeriesRow *row,
                                          guint                queue_depth);

/* ---- Quality of service ------------------------------------------------- */

#define DUEL_QOS_N_PERCENTILES 4

typedef struct
{
  double   percentile;     /* 99, 99.9, 99.99, 99.999 */
  guint64  value_ns;       /* fio's rule: first bucket reaching p/100 x N, its midpoint */
  guint64  min_samples;    /* duel_histogram_min_samples_for (percentile) */
  gboolean enough;         /* samples >= min_samples; else "not enough samples" */
} DuelQosPoint;

typedef struct
{
  guint64      samples;
  double       mean_ns;
  guint64      max_ns;
  DuelQosPoint points[DUEL_QOS_N_PERCENTILES];
} DuelQos;

const double *duel_analysis_qos_percentiles (void);
/* A QoS figure's key, the one place it is spelled: "qos_read_qd1_p99_9_us"
 * for percentile index @p (0..3 of duel_analysis_qos_percentiles()), "…_samples"
 * for DUEL_QOS_N_PERCENTILES; "qos_mix_…" for a mix. */
char         *duel_analysis_qos_key         (DuelDirection        direction,
                                             guint                queue_depth,
                                             gboolean             mixed,
                                             guint                p);
/* A standard figure's key, the one place it is spelled: "seq_read_mbps" for
 * a sequential test (its throughput; @iops is ignored), else
 * "rand_write_qd32_iops" or, with @iops FALSE, "…_mbps". */
char         *duel_analysis_standard_key    (DuelPattern          pattern,
                                             DuelDirection        direction,
                                             guint                queue_depth,
                                             gboolean             iops);
void          duel_analysis_qos             (const DuelHistogram *histogram,
                                             DuelQos             *out);

/* ---- Summary figures ------------------------------------------------------ */

/* A computed set of figures (key → value) plus the details behind them. */
typedef struct _DuelSummary DuelSummary;

DuelSummary *duel_summary_new          (void);
void         duel_summary_free         (DuelSummary       *summary);
void         duel_summary_add          (DuelSummary       *summary,
                                        const char        *key,
                                        double             value);
guint        duel_summary_get_n_figures(const DuelSummary *summary);
const char  *duel_summary_get_key      (const DuelSummary *summary,
                                        guint              index);
double       duel_summary_get_value    (const DuelSummary *summary,
                                        guint              index);
gboolean     duel_summary_lookup       (const DuelSummary *summary,
                                        const char        *key,
                                        double            *out_value);
JsonObject  *duel_summary_get_details  (const DuelSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelSummary, duel_summary_free)

/* The figures of one test of kind @kind. Keys depend on the workload where
 * the kind covers several tests (QoS and standard: direction, queue depth). */
DuelSummary *duel_analysis_summarize      (const DuelTestRecord     *record,
                                           DuelAnalysisKind          kind,
                                           const DuelAnalysisParams *params);
/* Writes @summary into record->summary: every figure (with its documented
 * unit and better-direction) and the details, including the analysis kind
 * and @params so that a loaded file can be recomputed. */
void         duel_analysis_apply          (DuelTestRecord           *record,
                                           DuelAnalysisKind          kind,
                                           const DuelAnalysisParams *params,
                                           const DuelSummary        *summary);
/* Recomputes a stored record from what it holds: the kind and parameters
 * from its details (the kind from its test name when absent). Returns NULL
 * with @error set when the record names no analysis. */
DuelSummary *duel_analysis_resummarize    (const DuelTestRecord     *record,
                                           DuelAnalysisKind         *out_kind,
                                           GError                  **error);
/* Brings the figures of a result read from a file up to date. A measured
 * fill saved before the falls (docs/analysis.md) holds the cliff of the
 * halfway rule, which invented cliffs on declines that have none: it is
 * summarised again from its own series and its stored parameters (the
 * falls' taking their defaults), so charts, the table and the history show
 * what the analysis says now; its parameters then hold the falls' too, and
 * a second call changes nothing. A published result keeps its figures.
 * The loader (duel_result_load()) gives what the file holds; whoever loads
 * a result for people to read (the window, the CLI, the comparison) calls
 * this next. */
void         duel_analysis_update_result  (DuelResult               *result);
/* The test names the presets give their records. */
#define DUEL_TEST_WSAT_FILL    "wsat-fill"
#define DUEL_TEST_WSAT_READ    "wsat-read"
#define DUEL_TEST_CONSISTENCY  "consistency"
#define DUEL_TEST_QOS_PREFIX   "qos-"
#define DUEL_TEST_STD_PREFIX   "std-"

/* The kind a preset's test name implies ("wsat-fill" → saturation, …). */
DuelAnalysisKind duel_analysis_kind_for_test_name (const char *name);
/* Which analysis a record is: the one its summary's details name, else the
 * one its name implies, else NONE. The one answer for every reader. */
DuelAnalysisKind duel_analysis_kind_of_record     (const DuelTestRecord *record);
/* Whether a test no preset named (an imported fio job) has the workload of
 * @kind's test: one rule, the analysis module's, for the importer and for
 * the comparison's search. */
gboolean         duel_analysis_fits               (const DuelTestRecord *record,
                                                   DuelAnalysisKind      kind);
/* The analysis an imported test gets: the fill, the mix over time, a mix's
 * latencies, else the standard figures. */
DuelAnalysisKind duel_analysis_guess              (const DuelTestRecord *record);

/* The documented figure keys. */
typedef struct
{
  const char *key;
  const char *unit;      /* "IOPS", "MB/s", "GB", "%", "us", "ratio", "rounds", "intervals", "I/Os", "" */
  DuelBetter  better;
  const char *label;     /* untranslated; use duel_figure_get_label() */
} DuelFigureInfo;

const DuelFigureInfo *duel_figure_get_all   (guint      *out_n);
const DuelFigureInfo *duel_figure_lookup    (const char *key);
/* Translated label; the key itself for an unknown key. */
const char           *duel_figure_get_label (const char *key);
/* Whether @key is read from the latencies (the QoS percentiles and samples,
 * the worst-case IOPS). */
gboolean              duel_figure_is_latency (const char *key);
/* The label of @key as a figure of @record: where the table's label states
 * a preset's workload that is not @record's (a custom 70/30 mix, an 8 KiB
 * QoS test), @record's own words instead; a latency figure of a record that
 * holds fio's completion latency (DUEL_LATENCY_COMPLETION) says so; else
 * duel_figure_get_label(). @record may be NULL. */
const char           *duel_figure_get_record_label (const char           *key,
                                                    const DuelTestRecord *record);
/* The same from a workload (NULL: the table's label) and whether the
 * latencies are fio's completion latency. */
const char           *duel_figure_get_workload_label (const char         *key,
                                                      const DuelWorkload *workload,
                                                      gboolean            completion);
/* "12,345 IOPS", "85.3 %", "n/a" for NAN: how the CLI, the window, the
 * tables and reports print a figure (duel_number_format()). */
char                 *duel_figure_format    (const char *key,
                                             double      value);

/* A throughput above the drive's link ceiling (duel_link_ceiling_is_exceeded())
 * never crossed the link: a cache answered. One translated sentence for a
 * figure of @mb_s under @label: "Sequential read: 2,000.0 MB/s is faster
 * than the link (600 MB/s): a cache, not the drive." */
char                 *duel_analysis_dup_ceiling_note  (const char           *label,
                                                       double                mb_s,
                                                       double                ceiling_bytes_per_second);
/* Those sentences for @record: each MB/s figure of @summary above the
 * ceiling or, with @summary NULL (a plain run), its read and write totals.
 * NULL-terminated, never NULL; empty without a ceiling (0). */
char                **duel_analysis_dup_ceiling_notes (const DuelTestRecord *record,
                                                       const DuelSummary    *summary,
                                                       double                ceiling_bytes_per_second);

/* Recovery after idle (duel-recovery.c): what each burst after an idle is
 * measured against, followed as a run's records end, one after another. */
typedef struct
{
  double fresh_iops;   /* the burst on the trimmed drive; NAN until it ran */
  double dirty_iops;   /* the last fill's plateau; NAN until one ran */
} DuelRecoveryReference;

void duel_recovery_reference_init (DuelRecoveryReference       *reference);
/* After @record ran and was analysed: a recovery burst with no idle before
 * it gives the fresh speed, a fill (saturation) the dirty one. */
void duel_recovery_reference_take (DuelRecoveryReference       *reference,
                                   DuelTestRecord              *record);
/* Before a burst that follows an idle: in its details.recovery, how long
 * the drive rested (as asked and as waited) and the reference. */
void duel_recovery_note_idle      (DuelTestRecord              *record,
                                   const DuelRecoveryReference *reference,
                                   guint64                      idle_planned_ms,
                                   guint64                      idle_ms);

G_END_DECLS
