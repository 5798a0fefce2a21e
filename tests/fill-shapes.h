/* fill-shapes.h — fill curves with known falls, from a seed
 *
 * A generator of write-saturation series for the tests: IOPS as a function
 * of % of capacity written, built from a level, gentle trends, rises,
 * exponential decays and falls (steps, ramps, rounded), then written out in
 * rows of equal time with per-row noise (jitter, stalls, bursts, GC
 * scatter after a fall). Every choice comes from the seed, so a seed is a
 * curve, the same on every host. What the curve is made of is the truth
 * the analysis is held to: where each fall begins, how deep it is, and the
 * plateau the noise-free curve (times the noise's mean) has over the last
 * 10 % written.
 *
 * The falls are made well inside docs/analysis.md's definition (at least
 * 40 % deep, done within 8 points, trends at most a fifth as steep), and
 * everything that is not a fall well outside it (trends under 1 % per
 * point, decays with a time constant of 20 points or more, dips and bursts
 * under 1.2 points wide: the definition takes out those under 1.5; dips
 * of 3–14 points that come back to the level: the definition asks a fall
 * to hold for 20), so that "found" and "invented" are not decided by a
 * hair. A fall may be followed by a rise that wins back part of it, to no
 * more than 0.55 of the level before: still a fall, as the definition
 * counts one (down by a quarter or more, and staying so).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "engine/duel-series.h"

G_BEGIN_DECLS

#define SHAPE_MAX_FALLS 3

typedef enum
{
  SHAPE_KIND_ONE_FALL,      /* a write cache running out */
  SHAPE_KIND_TWO_FALLS,     /* a cache, then garbage collection */
  SHAPE_KIND_THREE_FALLS,
  SHAPE_KIND_RISE_FALL,     /* slow at first (an erase backlog), faster, then a fall */
  SHAPE_KIND_DECLINE_KNEE,  /* the SSD 750: slowing down all the way to a late knee */
  SHAPE_KIND_FLAT,
  SHAPE_KIND_LINEAR,        /* a straight decline, no knee */
  SHAPE_KIND_DECAY,         /* an exponential decay, no knee */
  SHAPE_KIND_DIPS,          /* a level with short dips and bursts that recover */
  SHAPE_KIND_FALL_RECOVER,  /* a cache runs out, its flushing ends, part of the speed comes back */
  SHAPE_KIND_LONG_DIPS,     /* dips of 3–14 points that recover: a stall, not a fall */
  SHAPE_N_BASIC_KINDS,      /* shape_generate() draws among the kinds above */
  /* shape_generate_band(): whole points of capacity fast or slow at random */
  SHAPE_KIND_BAND_AFTER = SHAPE_N_BASIC_KINDS, /* a fall into the band (garbage collection) */
  SHAPE_KIND_BAND_BEFORE,   /* the band, then a fall below it (erase stalls until a cache runs out) */
  SHAPE_KIND_BAND_ONLY,     /* a band from the start to the end */
  SHAPE_N_KINDS
} ShapeKind;

typedef struct
{
  double knee_pct;          /* where the fall begins, % of capacity written */
  double width_pct;         /* how long it takes (0: a step) */
  double ratio;             /* level after / level before */
} ShapeFall;

typedef struct
{
  guint64    seed;
  ShapeKind  kind;
  guint64    span_bytes;
  guint64    interval_ms;
  guint      n_falls;
  ShapeFall  falls[SHAPE_MAX_FALLS];
  double     plateau_iops;  /* the truth of the last 10 % written */
  double     decline_ratio; /* end level / start level of the noise-free curve without falls */
  gboolean   coarse;        /* a few dozen rows: each row several % of capacity */
  double     band_from_pct; /* a band of two levels in blocks (0, 0: none): no fall inside it */
  double     band_to_pct;
  char       description[240];
} ShapeTruth;

/* A fill of 2x the span for @seed; @coarse asks for rows of 1.5–6 % of
 * capacity where the drive is fastest (a small target in 100 ms rows),
 * else @min_rows to @max_rows (log-uniform) with the fastest rows under
 * 0.34 %. Free with duel_series_free(). */
DuelSeries *shape_generate (guint64     seed,
                            gboolean    coarse,
                            guint       min_rows,
                            guint       max_rows,
                            ShapeTruth *out_truth);

/* The host's noise on live rows: 100 ms rows of 0.1–6 % of capacity
 * where the drive is fastest, one or two falls (steps, or straight in
 * IOPS over at most 2 points), and the noise a busy host adds to a drive
 * it does not slow down: single slow rows (half of them partly caught up
 * by the next), short stalls of 2–5 rows, writes counted a row late (a
 * catching up or a late count is at most the queue depth, 32 writes); in
 * half of the curves a single slow row 1.5–4.5 rows before each fall.
 * The plateau is not part of the truth (NAN). */
DuelSeries *shape_generate_live (guint64     seed,
                                 ShapeTruth *out_truth);

/* A stationary band: blocks of up to 0.5–5 points of capacity (each
 * 0.25 point or more), each fast or slow at random (a mix of 5–95 %
 * fast), slow at 25–70 % of fast. After a fall into it, from the start
 * to a fall below it, or from the start to the end; on fine rows or on
 * 100 ms rows of
 * 0.05–1 % (@coarse). (A band entered from its fast level is not
 * made: where the blocks are mostly slow, that is a fall to a level with
 * bursts.) The band's stretch is in the truth; no fall may
 * be reported inside it. The plateau is not part of the truth (NAN). */
DuelSeries *shape_generate_band (guint64     seed,
                                 gboolean    coarse,
                                 ShapeTruth *out_truth);

const char *shape_kind_name (ShapeKind kind);

G_END_DECLS
