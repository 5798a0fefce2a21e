/* duel-comparison.h — two results side by side, the way a review prints them
 *
 * Rows: the drives' identity, then every summary figure of every test both
 * results hold (one result alone gives a report of its own figures). Each
 * figure row has both values, the difference in per cent and the winner,
 * which knows whether higher or lower is better. Fairness warnings say where
 * the two runs were not set up alike.
 *
 * A test run in passes (several records of one name, details "pass" and
 * "passes") has one row per figure like any other; its value is the best
 * pass (higher is better or no direction: the highest; lower is better: the
 * lowest), as CrystalDiskMark reports, and winners are decided on it. The
 * row also carries the mean of the passes and their spread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-analysis.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

#define DUEL_COMPARISON_MAX_DRIVES 4
/* The test name of the rows that set vendor ratings against measurements
 * when no common test carries them (e.g. a run against a published reference). */
#define DUEL_COMPARISON_RATED_SECTION "rated"

typedef enum
{
  DUEL_COMPARISON_ROW_IDENTITY,
  DUEL_COMPARISON_ROW_FIGURE,
} DuelComparisonRowKind;

typedef enum
{
  DUEL_WINNER_NONE,    /* no better direction, or a value is missing */
  DUEL_WINNER_A,
  DUEL_WINNER_B,
  DUEL_WINNER_TIE,
} DuelWinner;

typedef struct
{
  DuelComparisonRowKind kind;
  char       *test;                 /* figure rows: the test's name; NULL for identity */
  char       *key;                  /* the figure key, or "model", "firmware", … */
  char       *label;                /* translated */
  char       *unit;                 /* figure rows; "" when none */
  DuelBetter  better;
  gboolean    has_value[DUEL_COMPARISON_MAX_DRIVES];
  double      value[DUEL_COMPARISON_MAX_DRIVES];   /* NAN when not available */
  char       *text[DUEL_COMPARISON_MAX_DRIVES];    /* as printed; "–" when missing */
  double      difference_pct;       /* two drives: (B − A) / A × 100; NAN when undefined or more drives */
  DuelWinner  winner;               /* two drives: A, B, a tie or none; NONE with more drives */
  guint       winners;              /* bit d: drive d holds the best value (none when all are equal) */
  gboolean    has_rated[DUEL_COMPARISON_MAX_DRIVES];
  double      rated[DUEL_COMPARISON_MAX_DRIVES];   /* the vendor's figure for this row */
  guint       n_passes[DUEL_COMPARISON_MAX_DRIVES];  /* passes with a value when the test ran in passes, else 0 */
  /* The pass every figure of the test is taken from (1-based: the best by
   * the test's first ranked figure), of how many run; 0 without passes. */
  guint       best_pass[DUEL_COMPARISON_MAX_DRIVES];
  guint       n_runs[DUEL_COMPARISON_MAX_DRIVES];
  double      pass_mean[DUEL_COMPARISON_MAX_DRIVES]; /* their mean; NAN without passes */
  double      pass_min[DUEL_COMPARISON_MAX_DRIVES];  /* the lowest and highest pass; NAN without passes */
  double      pass_max[DUEL_COMPARISON_MAX_DRIVES];
  /* A throughput above the drive's link ceiling: a cache answered, not the
   * drive. Its text ends in " ⚠", and a warning says why. */
  gboolean    above_ceiling[DUEL_COMPARISON_MAX_DRIVES];
} DuelComparisonRow;

#define DUEL_TYPE_COMPARISON (duel_comparison_get_type ())

G_DECLARE_FINAL_TYPE (DuelComparison, duel_comparison, DUEL, COMPARISON, GObject)

/* Up to DUEL_COMPARISON_MAX_DRIVES results, the first the baseline; fails
 * when a result holds no test. */
DuelComparison          *duel_comparison_new_for_results (DuelResult * const *results,
                                                          guint               n_results,
                                                          GError            **error);
/* @b may be NULL: a report on one drive. Fails when a result holds no test. */
DuelComparison          *duel_comparison_new            (DuelResult      *a,
                                                         DuelResult      *b,
                                                         GError         **error);
/* Loads and validates one or two result files; errors name the file. */
DuelComparison          *duel_comparison_new_for_paths  (const char      *path_a,
                                                         const char      *path_b,
                                                         GError         **error);
/* The same for 1 to DUEL_COMPARISON_MAX_DRIVES files. */
DuelComparison          *duel_comparison_new_for_pathv  (const char * const *paths,
                                                         guint               n_paths,
                                                         GError            **error);
/* TRUE when @drive holds the row's best value (and not every drive does). */
gboolean                 duel_comparison_row_is_best    (const DuelComparisonRow *row,
                                                         guint                    drive);

guint                    duel_comparison_get_n_drives   (DuelComparison  *self);
DuelResult              *duel_comparison_get_result     (DuelComparison  *self,
                                                         guint            drive);
/* The result's name, made distinct when both results carry the same one. */
const char              *duel_comparison_get_drive_name (DuelComparison  *self,
                                                         guint            drive);
gboolean                 duel_comparison_is_published   (DuelComparison  *self,
                                                         guint            drive);

guint                    duel_comparison_get_n_rows     (DuelComparison  *self);
const DuelComparisonRow *duel_comparison_get_row        (DuelComparison  *self,
                                                         guint            index);
/* Names of the tests the rows cover, in order (both results hold them). */
const char * const      *duel_comparison_get_tests      (DuelComparison  *self);
/* A section heading for the rows of @test, translated: "Write saturation" for
 * wsat-fill, "Drive" for the identity rows (@test NULL), the vendor ratings'
 * title; a test the presets do not name keeps its own name. */
const char              *duel_comparison_get_section_title (DuelComparison *self,
                                                            const char     *test);
/* The rows the review leads with (the fill's points, cliff and plateau, the
 * mean over the run and the read score, each beside the review's own score
 * in a row of its own, consistency's slowest interval and ratio, QoS
 * 99.99 % at QD1 and QD32), as indices for duel_comparison_get_row(), in
 * that order; only those the results hold. */
const guint             *duel_comparison_get_headline   (DuelComparison  *self,
                                                         guint           *out_n_rows);
/* "Drive A vs Drive B vs Drive C"; one drive's name alone. */
char                    *duel_comparison_dup_title      (DuelComparison  *self);
/* "Drive B vs Drive A": the difference column's heading, in words; "" unless two drives. */
char                    *duel_comparison_dup_difference_heading (DuelComparison *self);
/* A figure row's difference as the locale writes it ("+12.5 %", "−1,204.0 %"
 * grouped); "" for a row without one. */
char                    *duel_comparison_row_format_difference (const DuelComparisonRow *row);
/* A figure row's passes on @drive in words: "best 5,700.0 MB/s (pass 2 of
 * 5), mean 4,900.0 MB/s, spread 3,000.0 MB/s–5,700.0 MB/s (55 %)", the
 * spread's width as a share of the mean; "" when the test did not run in
 * passes there. */
char                    *duel_comparison_row_format_passes (const DuelComparisonRow *row,
                                                            guint                    drive);
/* TRUE when some row carries a vendor-rated figure: show "rated vs measured". */
gboolean                 duel_comparison_has_rated      (DuelComparison  *self);
/* The drives some row rates, in order, into @out_drives; their count. Every
 * table (the window's, the chart's, Markdown) gives a "Rated" column to
 * these alone: one for a drive without a rating would stay empty. */
guint                    duel_comparison_get_rated_drives (DuelComparison *self,
                                                           guint           out_drives[DUEL_COMPARISON_MAX_DRIVES]);
/* The vendor's figure of @row for @drive as printed ("2200 MB/s"); "" without one. */
char                    *duel_comparison_row_format_rated (const DuelComparisonRow *row,
                                                           guint                    drive);
/* Translated sentences, NULL-terminated; empty when the runs were set up
 * alike. They also say where a figure is faster than its drive's link
 * (above_ceiling), and what a file target's filesystem measures
 * (duel_filesystem_note()). */
const char * const      *duel_comparison_get_warnings   (DuelComparison  *self);
/* The warnings for a short display: one line per cause ("The run lengths
 * differ on 11 tests: Read score, Performance consistency, … and 8 more."),
 * a warning with no cause, or alone of its cause, as it is; in the order
 * they were first met. get_warnings() keeps every sentence. */
char                   **duel_comparison_dup_warning_lines (DuelComparison *self);
/* What a reader of @test's rows needs to know about how a drive's figures
 * were computed, a translated sentence per drive that has something to say,
 * led by its name when there are several ("Drive B: The last interval
 * (0.4 s) was shorter than 1 s and is not counted in the consistency
 * figures."). NULL-terminated; empty for most tests. */
const char * const      *duel_comparison_get_notes      (DuelComparison  *self,
                                                         const char      *test);

/* The record of @drive that serves analysis @kind: the preset's test of that
 * name first, then one whose summary names the kind, then one whose workload
 * fits it (for imported fio runs). NULL when none fits. */
DuelTestRecord          *duel_comparison_find_test      (DuelComparison  *self,
                                                         guint            drive,
                                                         DuelAnalysisKind kind);
/* Every record of @drive that serves @kind, in file order. */
GPtrArray               *duel_comparison_find_tests     (DuelComparison  *self,
                                                         guint            drive,
                                                         DuelAnalysisKind kind);

/* The winner of two values given the better direction. */
DuelWinner               duel_comparison_decide         (double           a,
                                                         double           b,
                                                         DuelBetter       better);

G_END_DECLS
