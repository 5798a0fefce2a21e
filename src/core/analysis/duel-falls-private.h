/* duel-falls-private.h — what the files of the falls rule share, for them alone
 *
 * duel_analysis_falls() (duel-falls.c) runs the rule: duel-falls-curve.c
 * makes the curve it is read on, duel-falls-levels.c reads levels on it
 * and tells a fall from a band, duel-falls-search.c tries every knee and
 * foot against the definition, duel-falls-knee.c places each knee on the
 * rows, and duel-falls-trends.c finds the declines and recoveries between
 * the falls. docs/analysis.md defines them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis-private.h"

G_BEGIN_DECLS

/* The throughput the falls are read on is over a point of capacity. */
#define DUEL_FALLS_POINT_PCT 1.0
/* The noise of a level is measured on throughput over two points: a drive
 * whose garbage collection alternates fast and slow points holds a steady
 * level over two, and the spread of single points would take that
 * alternation for noise. */
#define DUEL_FALLS_NOISE_PCT 2.0

/* The cumulative curve of one direction: bytes, ops and time at each row's
 * end (index 0 is the start), so that any byte position can be interpolated
 * (a row's rate is taken as even within it, as in the window rule). */
typedef struct
{
  guint   n;         /* rows + 1 */
  double *bytes;
  double *ops;
  double *ms;
} DuelFallsCumulative;

/* Prefix sums over grid points j < i of 1, j, j², y, j·y, y². */
typedef struct
{
  double s0, s1, s2, y0, y1, y2;
} DuelFallsMoments;

/* The rule in grid steps, from the parameters in % of capacity. */
typedef struct
{
  const double *y;        /* IOPS on the grid, over their median: what the lines are fitted to */
  const double *ln_y;     /* ln IOPS on the grid */
  const double *point_ln; /* … before the running median: the throughput over a point */
  const double *med_back;  /* median of ln_y over the hold window ending at j */
  const double *med_ahead; /* … starting at j */
  const double *med_half;  /* … over the half trend window ending at j */
  const double *error_back;  /* the standard error of med_back[j], from the unfiltered points */
  const double *error_ahead; /* … of med_ahead[j] */
  const double *noise_ln;    /* ln IOPS over two points around each grid point */
  const guint  *row_at;      /* the row each grid point falls in */
  double        per_point;   /* grid steps a point of capacity */
  double        step_bytes;  /* bytes a grid step */
  const DuelFallsCumulative *rows; /* the rows the grid was made from */
  const DuelFallsMoments    *prefix;
  guint  n;
  guint  max_width;       /* fall_max_pct */
  guint  trend;           /* fall_trend_pct: how far the trends on either side are fitted */
  guint  hold;            /* fall_hold_pct: the least trend after a fall (and before, but at the start) */
  double min_depth;       /* −ln (1 − fall_min_drop) */
  double turn;            /* fall_turn */
} DuelFallsRule;

/* A fall tried: knee a, foot b, and the lines on either side. */
typedef struct
{
  guint  lo, a, b, hi;    /* the fit's window [lo, hi] and its breakpoints */
  double level_a, level_b; /* ln IOPS of the fitted line at a and b */
  guint  tested_a;        /* the knee the definition was checked at (a may move from it) */
  double sse;
  gboolean sure;          /* deep beyond the noise of the levels */
} DuelFallsTrial;

/* duel-falls-curve.c: the curve the falls are read on */
/* Sorts @n doubles in place. */
void    _duel_falls_sort_doubles              (double *v,
                                               guint   n);
void    _duel_falls_cumulative_clear          (DuelFallsCumulative *c);
/* The bytes the curve holds. */
double  _duel_falls_cumulative_total          (const DuelFallsCumulative *c);
/* Ops done and time spent when the writes first reached @b bytes. */
void    _duel_falls_cumulative_at             (const DuelFallsCumulative *c,
                                               double                     b,
                                               double                    *out_ops,
                                               double                    *out_ms);
/* The row (0-based) during which the writes passed @b bytes. */
guint   _duel_falls_cumulative_row_passing    (const DuelFallsCumulative *c,
                                               double                     b);
/* The bytes @series wrote. */
double  _duel_falls_series_written            (const DuelSeries *series);
/* The writes of @series, rows taken together until each holds @min_ops
 * writes or @max_bytes, the first row held to its neighbours (Tukey's
 * end-point rule). */
void    _duel_falls_cumulative_init_coalesced (DuelFallsCumulative *c,
                                               const DuelSeries    *series,
                                               guint64              min_ops,
                                               double               max_bytes);
/* The mean IOPS over [x − @half, x + @half] at every @step bytes (double,
 * NAN where that window has no time). */
GArray *_duel_falls_smoothed_grid             (const DuelFallsCumulative *c,
                                               double                     step,
                                               double                     half);
/* The grid's step for a span of @span bytes: cliff_step_pct of it. */
double  _duel_falls_grid_step_bytes           (const DuelAnalysisParams *params,
                                               double                    span);

/* duel-falls-levels.c: levels on the curve, and a fall told from a band */
/* The median of @y[@from … @to]. */
double   _duel_falls_median_of         (const double *y,
                                        guint         from,
                                        guint         to);
/* How fast ln IOPS fall over [@from, @to] (per grid step), from the
 * medians of its two halves; and that rate's standard error. */
double   _duel_falls_halves_loss_rate  (const DuelFallsRule *rule,
                                        guint                from,
                                        guint                to);
/* The standard error of the median of ln IOPS over [@from, @to]. */
double   _duel_falls_level_error       (const DuelFallsRule *rule,
                                        guint                from,
                                        guint                to);
double   _duel_falls_halves_loss_error (const DuelFallsRule *rule,
                                        guint                from,
                                        guint                to);
/* Whether the rows show the level before a fall from @a to @b (@before)
 * or after it. */
gboolean _duel_falls_level_in_rows     (const DuelFallsRule *rule,
                                        guint                a,
                                        guint                b,
                                        gboolean             before);
/* Whether the points of @y before and after share their levels. */
gboolean _duel_falls_overlap           (const double *y,
                                        guint         b_from,
                                        guint         b_to,
                                        guint         a_from,
                                        guint         a_to);
/* How many separate stretches of @y[@from … @to] lie above @level (@above)
 * or below it. */
guint    _duel_falls_runs_beyond       (const double *y,
                                        guint         from,
                                        guint         to,
                                        double        level,
                                        gboolean      above);
/* How often a band goes back and forth between two levels, at least
 * (_duel_falls_returns_to_high()): a fall or a decline has a dip or a burst
 * of its depth twice at most. */
#define DUEL_FALLS_BAND_RETURNS 3
guint    _duel_falls_returns_to_high   (const DuelFallsRule *rule,
                                        guint                from,
                                        guint                to,
                                        double               high,
                                        double               low,
                                        gboolean             start_low);
/* Whether a fall from knee @a to foot @b is a step inside a band. */
gboolean _duel_falls_in_band           (const DuelFallsRule *rule,
                                        guint                a,
                                        guint                b);
/* The width, in grid steps, of the widest row the knee and the foot lie in. */
double   _duel_falls_rows_width        (const DuelFallsRule *rule,
                                        guint                a,
                                        guint                b);

/* duel-falls-search.c: where the falls are */
/* The prefix sums of @y[0 … @n − 1] the lines are fitted with (g_free()). */
DuelFallsMoments *_duel_falls_moments_prefix (const double *y,
                                              guint         n);
/* Every fall of the grid curve, in order (DuelFallsTrial). */
GArray *          _duel_falls_find           (const DuelFallsRule *rule);

/* duel-falls-knee.c: where on the rows a fall began */
/* Where on the rows a fall found between @knee and @foot (bytes) began, in
 * bytes; @out_resolution gets how far it may be off. */
double _duel_falls_knee_in_row (const DuelFallsCumulative *raw,
                                double                     knee,
                                double                     foot,
                                double                     before_iops,
                                double                     after_iops,
                                double                     step,
                                double                     point,
                                double                     hold,
                                double                    *out_resolution);

/* duel-falls-trends.c: between the falls */
/* The decline over [@from, @to] (grid points) between falls, if any, into
 * @declines (DuelDecline). */
void _duel_falls_add_decline  (GArray              *declines,
                               const DuelFallsRule *rule,
                               guint                from,
                               guint                to,
                               double               step_pct);
/* The recovery after fall @fall over [@from, @to], if any, into
 * @recoveries (DuelRecovery). */
void _duel_falls_add_recovery (GArray              *recoveries,
                               const DuelFallsRule *rule,
                               guint                fall,
                               guint                from,
                               guint                to,
                               double               step_pct);

G_END_DECLS
