/* duel-probe.h — the short 4 KiB random write that estimates a fill
 *
 * A write-saturation fill takes from minutes to a day, and its first tenth
 * is decided by the write cache: where the rate falls, and to what. A probe
 * of fixed length either sees that fall or not depending on how fast the
 * drive happens to run that second, so the probe runs at least its minimum
 * and on while its rate has not visibly fallen, until it has written a
 * quarter of the span or reached its longest; once it sees a fall it runs on
 * only until the fall is confirmed. It writes to the target (before the
 * fill's discard).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "engine/duel-series.h"
#include "engine/duel-target.h"

G_BEGIN_DECLS

/* The longest a probe runs unless asked for longer. */
#define DUEL_PROBE_MAX_MS        G_GUINT64_CONSTANT (20000)
/* Without a fall, a probe stops at its minimum once it wrote this share of its span. */
#define DUEL_PROBE_SPAN_SHARE    0.25
/* A fall: the rate after it under 1/this of the rate before. */
#define DUEL_PROBE_FALL_FACTOR   2.0
/* Its rows, unless its minimum is shorter. */
#define DUEL_PROBE_INTERVAL_MS   100

typedef struct
{
  guint64 runtime_ms;          /* how long it ran */
  double  write_iops;          /* over all of it */
  double  end_write_iops;      /* since the fall, or over the last quarter without one */
  gboolean fell;
  guint64 fall_bytes;          /* written before the fall; 0 without one */
} DuelProbeResult;

/* Where the rate of @series fell: the split of its rows that gives the
 * largest ratio of the rate before to the rate after, when that ratio is at
 * least DUEL_PROBE_FALL_FACTOR with at least 3 rows before and 5 after (one
 * slow interval is no fall). Confirmed once the rows after it are at least
 * 10 and span a quarter of the time before. Sets @out_row to the first row
 * after the fall. Pure: a recorded series gives the same answer. */
gboolean duel_probe_find_fall (const DuelSeries *series,
                               guint            *out_row,
                               gboolean         *out_confirmed);

/* The result's figures from a probe's series and runtime. */
void     duel_probe_summarize (const DuelSeries *series,
                               guint64           runtime_ns,
                               DuelProbeResult  *out);

/* The interval of a probe asked to run at least @min_ms. */
guint    duel_probe_interval_ms (guint64          min_ms);

/* The probe's stopping rule, at the end of an interval: @series its rows
 * so far, @written_bytes in @elapsed_ns. TRUE once it ran at least @min_ms
 * and either its fall is confirmed or, with no fall, it wrote
 * DUEL_PROBE_SPAN_SHARE of @span_bytes. (Its longest, duel_probe_longest_ms(),
 * is its runtime limit.) Pure, so a simulated drive can be probed the same way. */
gboolean duel_probe_should_stop (const DuelSeries *series,
                                 guint64           elapsed_ns,
                                 guint64           written_bytes,
                                 guint64           min_ms,
                                 guint64           span_bytes);

/* The longest a probe asked to run at least @min_ms runs. */
guint64  duel_probe_longest_ms (guint64           min_ms);

/* Runs a probe of at least @min_ms (and at most duel_probe_longest_ms())
 * over @span_bytes from the start of @target. */
gboolean duel_probe_run       (DuelTarget       *target,
                               guint64           span_bytes,
                               guint64           min_ms,
                               GCancellable     *cancellable,
                               DuelProbeResult  *out,
                               GError          **error);

G_END_DECLS
