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

#include "duel-result.h"

G_BEGIN_DECLS

typedef struct
{
  double at_s;          /* since the first step started */
  double fraction;      /* duel_run_eta_get_fraction() */
  double estimate_s;    /* duel_run_eta_get_remaining_s(), NAN when unknown */
  double actual_s;      /* the recorded end less now */
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
/* The first sample at or past @fraction; FALSE when there is none. */
gboolean eta_replay_at           (GArray                 *samples,
                                  double                  fraction,
                                  EtaSample              *out);
/* (estimate − actual) / actual; NAN when unknown. */
double   eta_sample_error        (const EtaSample        *sample);
/* The largest |error| over the samples with @from <= fraction < @to. */
double   eta_replay_worst        (GArray                 *samples,
                                  double                  from,
                                  double                  to);

G_END_DECLS
