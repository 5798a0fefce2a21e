/* ssd-virtual-fill.h — the write-saturation fill on the FTL model, in the model's own time
 *
 * The preset's fill as the engine runs it on a drive: a discard of the
 * whole span, then 4 KiB random writes (the engine's own offset generator)
 * at a queue depth until a multiple of the capacity is written. The host
 * here runs on the model's clock, not the wall clock: a write is issued the
 * instant the one before it in its slot completes, and completions are
 * counted into rows of that clock. No FUSE, no threads, no wall clock: the
 * same series, bit for bit, on any host and under a sanitizer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "run/duel-probe.h"
#include "engine/duel-series.h"
#include "ssd-ftl.h"

G_BEGIN_DECLS

typedef struct
{
  DuelSeries  *series;
  GArray      *done_ns;    /* guint64: when the k-th completed write completed, from the start */
  SsdCounters  counters;   /* the model's account at the end */
  guint64      n_pages;
} SsdVirtualFill;

/* Fills @cfg's model to @multiple x its capacity at @queue_depth, in rows of
 * @interval_ms of the model's time; @seed seeds the offsets. */
void ssd_virtual_fill_run   (const SsdConfig *cfg,
                             guint            queue_depth,
                             double           multiple,
                             guint            interval_ms,
                             guint64          seed,
                             SsdVirtualFill  *out);
void ssd_virtual_fill_clear (SsdVirtualFill  *fill);

/* As the write-saturation preset runs it: first the probe of duel-probe.c
 * (at least @probe_min_ms, its own stopping rule: duel_probe_should_stop())
 * on the drive as @cfg leaves it, its result in @out_probe; @gap_ms later
 * (the discard) the fill as ssd_virtual_fill_run() does it, on the drive
 * the probe left. The fill's rows count from its own start; its counters
 * hold the probe's writes too (the fill's own events from whole_trim_at). */
void ssd_virtual_fill_run_probed (const SsdConfig *cfg,
                                  guint            queue_depth,
                                  double           multiple,
                                  guint            interval_ms,
                                  guint64          probe_min_ms,
                                  guint64          gap_ms,
                                  guint64          seed,
                                  DuelProbeResult *out_probe,
                                  SsdVirtualFill  *fill);

/* The rate (writes a second) of the writes that completed while @lo_pct to
 * @hi_pct of the capacity was written, from the completions themselves. */
double ssd_virtual_fill_rate (const SsdVirtualFill *fill,
                              double                lo_pct,
                              double                hi_pct);

/* A model configuration drawn from @seed, within what drives are: a write
 * cache of 0–50 % of capacity, spare area 3–40 %, 1–16 flash units, 32–128
 * pages a block, a GC threshold of 1–4 blocks, program, read and erase
 * times over a factor of several, fresh or a used drive after a trim (an
 * erase backlog cleared in the background). The capacity gives each unit
 * 48–128 blocks (more where the spare area needs them), 64–256 MiB in all.
 * @out_what gets a one-line description. */
void ssd_random_config (guint64    seed,
                        SsdConfig *out,
                        char      *out_what,
                        gsize      what_size);

/* A drive for the time-left tests: ssd_random_config() of @seed well mixed
 * (it draws alike for consecutive seeds), its flash times scaled by 1 to
 * 30 (a drive up to 30 times slower, whose fill the probe's 2–20 s see
 * less of, as on a drive of terabytes), and an interval that gives its
 * fill 500 to 20 000 rows. */
void ssd_random_drive (guint64    seed,
                       SsdConfig *out,
                       guint     *out_interval_ms,
                       char      *out_what,
                       gsize      what_size);

/* A drive for the time left's campaign and calibration, over wider
 * settings than ssd_random_drive(): a write cache of none (a quarter of
 * them) or 2–70 % of capacity, spare area 2–50 % (log-uniform: a tenth in
 * the middle), 1–32 units (log-uniform), native programs of 100 µs to
 * 3 ms and cache programs 0.1–0.8 of them, erases of 2–20 % of
 * programming a block, times scaled by 1 to 30 as
 * above; blocks of 8–256 pages and a capacity of 64–512 MiB, whatever the
 * spare area and the units need (ssd_config_check()). Seeds are mixed
 * first. @out_what gets a one-line description. */
void ssd_wide_drive (guint64    seed,
                     SsdConfig *out,
                     guint     *out_interval_ms,
                     char      *out_what,
                     gsize      what_size);

G_END_DECLS
