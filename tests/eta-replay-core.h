/* eta-replay-core.h — a recorded run fed through DuelRunEta as it happened
 *
 * The plan comes from the result's tests (a discard before a test whose
 * details say one was done), the probe from the fill's details.probe, the
 * media from the device (zram, tmpfs: no flash); then each test starts at its
 * recorded `started`, gets one engine progress snapshot per series row (the
 * rows so far, nothing later) and finishes at started + runtime_ns. The truth
 * is the recorded end of the last test. No clock is read: the same file gives
 * the same verdict.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "run/duel-probe.h"
#include "run/duel-run-eta.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

typedef struct
{
  double at_s;          /* since the first step started */
  double fraction;      /* duel_run_eta_get_fraction() */
  double estimate_s;    /* duel_run_eta_get_remaining_s(), NAN when unknown */
  double low_s;         /* duel_run_eta_get_range(), NAN when unknown */
  double high_s;
  double actual_s;      /* the recorded end less now */
  double step_progress; /* the running step's bytes over its byte limit; NAN: none */
  int    range;         /* its DuelRunEtaRange, -1: none */
  /* The running step's passes as the estimator has them (its step view:
   * the middles before the table) and as they went: the real time to its
   * first pass's end (0 past it), the real second pass from then to the
   * step's end, the step's real time left. NAN: no such step. */
  double step_first_s;
  double step_second_s;
  double actual_first_s;
  double actual_second_s;
  double step_actual_s;
  /* duel_run_eta_get_passes(); has_passes FALSE: none. */
  gboolean          has_passes;
  DuelRunEtaPasses  passes;
} EtaSample;

typedef struct
{
  gboolean use_probe;   /* FALSE: as if no probe had run */
  int      flash;       /* -1: from the device; 0 or 1 to force */
} EtaReplayOptions;

void     eta_replay_options_init (EtaReplayOptions       *options);
/* The samples, one per instant the estimator was called, in time order. */
GArray  *eta_replay              (DuelResult             *result,
                                  const EtaReplayOptions *options,
                                  GError                **error);
/* A bare fill, as the write-saturation preset runs it: an optional discard
 * of @discard_s, then 4 KiB random writes at QD32 over @span_bytes until
 * @series' bytes are written (its last row is the end: @multiple x the span
 * for a whole fill), with the probe's result when one ran. */
typedef struct
{
  const DuelSeries      *series;
  guint64                span_bytes;
  double                 multiple;
  guint                  interval_ms;
  gboolean               flash;
  const DuelProbeResult *probe;      /* NULL: no probe */
  double                 discard_s;  /* < 0: no discard step */
} EtaFill;

/* Its samples as a live run would have them: one at each step's start and
 * one per row, with the rows so far. */
GArray  *eta_replay_fill         (const EtaFill          *fill);
/* The first sample at or past @fraction; FALSE when there is none. */
gboolean eta_replay_at           (GArray                 *samples,
                                  double                  fraction,
                                  EtaSample              *out);
/* The range holds the truth (NAN range: it does not). */
gboolean eta_sample_covered      (const EtaSample        *sample);
/* (estimate − actual) / actual; NAN when unknown. */
double   eta_sample_error        (const EtaSample        *sample);
/* The largest |error| over the samples with @from <= fraction < @to. */
double   eta_replay_worst        (GArray                 *samples,
                                  double                  from,
                                  double                  to);

/* Coverage and errors over many runs, at 10, 15, … 95 % progress. */
#define ETA_N_POINTS 18

typedef struct
{
  guint   n[ETA_N_POINTS];
  guint   covered[ETA_N_POINTS];      /* the range holds the truth */
  guint   within[ETA_N_POINTS];       /* the middle within ±25 % */
  GArray *errors[ETA_N_POINTS];       /* the middle's, double */
  GArray *widths[ETA_N_POINTS];       /* high / low */
  GArray *ratios[ETA_N_POINTS];       /* the truth / the middle */
  guint   first_n[ETA_N_POINTS];      /* runs still in the first of two passes */
  guint   first_within[ETA_N_POINTS]; /* ... whose first pass's time left is within ±15 % */
  double  worst_miss;                 /* the truth over high, or low over it, the worst */
  char    worst_what[240];
} EtaCoverage;

double   eta_point               (guint                   i);
void     eta_coverage_init       (EtaCoverage            *coverage);
void     eta_coverage_clear      (EtaCoverage            *coverage);
/* @samples of one run named @what. */
void     eta_coverage_add        (EtaCoverage            *coverage,
                                  GArray                 *samples,
                                  const char             *what);
/* Coverage at point @i as a share; the middle's error at quantile @q. */
double   eta_coverage_share      (const EtaCoverage      *coverage,
                                  guint                   i);
double   eta_coverage_within     (const EtaCoverage      *coverage,
                                  guint                   i);
/* The share of the runs still in their first pass at point @i whose first
 * pass's time left is within ±15 %; NAN with none. */
double   eta_coverage_first_within (const EtaCoverage    *coverage,
                                    guint                 i);
double   eta_coverage_error      (const EtaCoverage      *coverage,
                                  guint                   i,
                                  double                  q);
double   eta_coverage_width      (const EtaCoverage      *coverage,
                                  guint                   i,
                                  double                  q);
/* How many times its low end the high end of the narrowest range around
 * the middle (c x middle to c x W x middle, one c for all) that holds
 * @share of the truths at point @i: what no range made of the middle
 * and two factors from one table cell can beat there. */
double   eta_coverage_narrowest  (const EtaCoverage      *coverage,
                                  guint                   i,
                                  double                  share);

/* One g_test_message() a point, and the worst miss. */
void     eta_coverage_report     (const char             *what,
                                  const EtaCoverage      *coverage);

G_END_DECLS
