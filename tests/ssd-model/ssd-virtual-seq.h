/* ssd-virtual-seq.h — the sustained sequential write and recovery after idle on the FTL model, in its own time
 *
 * As the review tests run them on a drive, but on the model's clock (see
 * ssd-virtual-fill.h): a whole-span discard, then sequential writes of
 * one block size at a queue depth from offset 0 to the end, counted into
 * the engine's interval rows; then, on the drive that left, for each idle
 * period in turn: the clock moved on with no host I/O (the model folds
 * its pseudo-SLC cache and collects garbage meanwhile), a burst of 4 KiB
 * random writes at QD32, and a sequential write from offset 0 until the
 * cache has run out (and a tenth of the capacity more, so the fall shows).
 * Each stage's rows, and the model's own account of it: the truth. No
 * FUSE, no threads, no wall clock: the same rows, bit for bit, anywhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "engine/duel-series.h"
#include "ssd-ftl.h"

G_BEGIN_DECLS

#define SSD_SEQ_MAX_IDLES 8

typedef struct
{
  guint   block_bytes;                  /* the sequential writes: a multiple of 4 KiB */
  guint   queue_depth;                  /* ...at this QD */
  guint   interval_ms;                  /* rows */
  guint64 burst_ms;                     /* the 4 KiB random QD32 burst after each idle (and on the fresh drive) */
  double  random_fill;                  /* after the sequential fill, this many capacities of 4 KiB random
                                         * QD32 writes (the review's random fill) before the idles; 0: none */
  guint   n_idles;                      /* 0: the fill alone */
  double  idle_s[SSD_SEQ_MAX_IDLES];    /* one after the other, on the same drive... */
  gboolean idles_apart;                 /* ...or each from the drive the fill left */
} SsdSeqPlan;

typedef struct
{
  double  idle_s;
  guint64 folded_bytes;        /* cache pages folded in the idle */
  guint64 gc_bytes;            /* valid pages GC copied in the idle */
  guint64 gc_blocks;           /* blocks it reclaimed */
  guint64 cache_free_bytes;    /* the cache's room when the idle ended: the rebuilt cache */
  guint64 cache_left_bytes;    /* what it still held, not folded */
  double  burst_iops;          /* the 4 KiB random QD32 burst right after: writes completed within
                                * burst_ms, over burst_ms (its rows' last one also holds those in flight then) */
  double  recovered_share;     /* burst_iops / fresh_iops */
  gint64  seq_cache_bytes;     /* the sequential write after the burst: written when the cache ran out; -1: not before the end */
  double  seq_cache_mbps;      /* its speed until then (NAN: too short to tell) */
  double  seq_after_mbps;      /* and after */
} SsdSeqIdle;

/* Bytes are host bytes from the stage's start, speeds in MB/s (10^6 B/s)
 * from the completions strictly inside a stretch (a queue's worth of
 * blocks and 5 % of it off each edge; NAN where nothing is left). */
typedef struct
{
  guint64    capacity_bytes;
  guint64    slc_max_bytes;        /* the cache on the empty drive: static + dynamic as free space allows */
  gint64     cache_end_bytes;      /* the fill's first write that found the cache full; -1: none (no cache) */
  gint64     fold_start_bytes;     /* its first write that waited on folding; -1: none */
  gint64     fold_end_bytes;       /* ...its last; -1 */
  double     cache_mbps;           /* [0, cache_end) */
  double     direct_mbps;          /* [cache_end, fold_start), or to the end without folding; the whole fill without a cache */
  double     fold_mbps;            /* [fold_start, fold_end] */
  double     tail_mbps;            /* (fold_end, capacity] */
  double     nominal_cache_mbps;   /* from the configuration: units x 4 KiB / t_prog_cache */
  double     nominal_direct_mbps;  /* units x 4 KiB / t_prog */
  double     nominal_fold_mbps;    /* units x 4 KiB / (t_prog + (t_read + t_prog) / (bits - 1)) */
  double     mean_mbps;            /* capacity / fill_s */
  double     fill_s;               /* first issue to last completion */
  double     fresh_iops;           /* the burst on a fresh drive of the same configuration, counted alike */
  double     random_iops;          /* the random fill's last tenth, from its completions (NAN: none) */
  guint      n_idles;
  SsdSeqIdle idle[SSD_SEQ_MAX_IDLES];
} SsdSeqTruth;

typedef struct
{
  DuelSeries *fill;                       /* the sequential fill */
  DuelSeries *fresh;                      /* the burst on a fresh drive */
  DuelSeries *random;                     /* the random fill (NULL: none) */
  DuelSeries *burst[SSD_SEQ_MAX_IDLES];   /* the burst after each idle */
  DuelSeries *after[SSD_SEQ_MAX_IDLES];   /* the sequential write after it */
} SsdSeqRows;

/* 1 MiB at QD8 (as CrystalDiskMark's SEQ1M Q8T1), 1 s rows, a 10 s burst,
 * idles of 5 and 30 minutes (the defaults). */
void ssd_seq_plan_init (SsdSeqPlan *plan);

/* Runs @plan on a new drive of @cfg. @rows may be NULL. */
void ssd_virtual_seq_run (const SsdConfig  *cfg,
                          const SsdSeqPlan *plan,
                          SsdSeqTruth      *truth,
                          SsdSeqRows       *rows);
void ssd_seq_rows_clear  (SsdSeqRows       *rows);

/* A drive with a pseudo-SLC cache drawn from @seed (mixed first), and the
 * plan to test it with: a cache of none (a quarter) or 2–50 % of
 * capacity (up to a third of it static, as the spare area allows), TLC or
 * QLC, spare area 3–40 %, 1–16 units, idle GC; per-page times that give
 * real drives' speeds (the cache 1.5–7 GB/s, native 5–40 % of it), then
 * slowed by one factor for the whole drive so that its fill gives
 * 150–400 rows of @plan's interval (1 s): a small model writing at the
 * speed of a large drive would be through in a fraction of a row.
 * 64 KiB writes at QD8; a burst of about 2 % of the capacity at the fresh
 * speed. @out_what gets a one-line description. */
void ssd_seq_random_config (guint64     seed,
                            SsdConfig  *out,
                            SsdSeqPlan *plan,
                            char       *out_what,
                            gsize       what_size);

G_END_DECLS
