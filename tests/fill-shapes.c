/* fill-shapes.c — fill curves with known falls, from a seed (fill-shapes.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fill-shapes.h"

#define FILL_PCT   200.0
#define CELLS      20000       /* the clean time is tabulated every 0.01 point */
#define MAX_BLIPS  6
#define PAGE       4096.0
#define MAX_BLOCKS 800         /* a band's blocks: 200 points in blocks of 0.25 at least */

typedef enum
{
  FALL_LINEAR,              /* straight in IOPS */
  FALL_LOG,                 /* straight in ln IOPS */
  FALL_SMOOTH,              /* smoothstep: eases in and out */
  FALL_EXP,                 /* steep at first, then easing into the level after */
  N_FALL_FORMS
} FallForm;

typedef struct
{
  double at_pct, width_pct, ratio;
} Blip;

typedef struct
{
  double    trend[SHAPE_MAX_FALLS + 1];  /* ln IOPS per point, one per stretch between falls */
  ShapeFall falls[SHAPE_MAX_FALLS];
  FallForm  forms[SHAPE_MAX_FALLS];
  guint     n_falls;
  double    rise_at, rise_width, rise_ratio;   /* rise_ratio 1: none */
  double    decay_at, decay_tau, decay_floor;  /* decay_tau 0: none */
  double    linear_end;                        /* IOPS at 200 % / at 0 %; 1: none */
  Blip      blips[MAX_BLIPS];
  guint     n_blips;
  Blip      long_dips[2];                      /* 3–14 points: coarse rows show them too */
  guint     n_long_dips;
  /* A band: from band_edge[0] to band_edge[n_blocks], blocks that run at
   * the curve's rate (fast) or band_slow times it, at random. */
  double    band_edge[MAX_BLOCKS + 1];
  gboolean  band_fast[MAX_BLOCKS];
  guint     n_blocks;
  double    band_slow;
} Curve;

/* Knuth's MMIX LCG; the top 53 bits as a double in [0, 1). */
static double
uniform (guint64 *state)
{
  *state = *state * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
  return (double) (*state >> 11) / 9007199254740992.0;
}

/* splitmix64's finaliser: neighbouring seeds give unrelated streams (a
 * plain multiple of the seed gives an LCG whose streams for seeds n and
 * n + 1 differ by the same offset at every draw). */
static guint64
mix_seed (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

static double
between (guint64 *state,
         double   lo,
         double   hi)
{
  return lo + (hi - lo) * uniform (state);
}

static double
log_between (guint64 *state,
             double   lo,
             double   hi)
{
  return exp (between (state, log (lo), log (hi)));
}

const char *
shape_kind_name (ShapeKind kind)
{
  static const char * const names[] = {
    "one-fall", "two-falls", "three-falls", "rise-fall", "decline-knee",
    "flat", "linear", "decay", "dips", "fall-recover", "long-dips",
    "band-after", "band-before", "band-only",
  };

  g_return_val_if_fail (kind < SHAPE_N_KINDS, "?");
  return names[kind];
}

/* ln of the fall's share done at u in [0, 1]: 0 at the start, ln ratio at the end. */
static double
fall_ln (FallForm form,
         double   ratio,
         double   u)
{
  switch (form)
    {
    case FALL_LINEAR:
      return log (1 - (1 - ratio) * u);
    case FALL_LOG:
      return u * log (ratio);
    case FALL_SMOOTH:
      return (3 * u * u - 2 * u * u * u) * log (ratio);
    case FALL_EXP:
    case N_FALL_FORMS:
    default:
      {
        double e = (exp (-5 * u) - exp (-5)) / (1 - exp (-5));

        return log (ratio + (1 - ratio) * e);
      }
    }
}

/* ln IOPS of the noise-free curve at @x % written, the level at 0 % being 1. */
static double
curve_ln (const Curve *c,
          double       x)
{
  double v = 0, from = 0;
  guint stretch = 0;

  /* The trends, each from where the stretch begins, and the falls. */
  for (guint i = 0; i < c->n_falls; i++)
    {
      const ShapeFall *f = &c->falls[i];
      double end = f->knee_pct + f->width_pct;

      if (x <= f->knee_pct)
        break;
      v += c->trend[i] * (f->knee_pct - from);
      if (x < end && f->width_pct > 0)
        {
          v += fall_ln (c->forms[i], f->ratio, (x - f->knee_pct) / f->width_pct);
          return v;
        }
      v += log (f->ratio);
      from = end;
      stretch = i + 1;
    }
  if (x > from)
    v += c->trend[stretch] * (x - from);
  return v;
}

/* The parts that are not falls: a rise, a decay, a straight decline,
 * dips and bursts. */
static double
extras_ln (const Curve *c,
           double       x)
{
  double v = 0;

  if (c->rise_ratio != 1 && x > c->rise_at)
    {
      double u = c->rise_width > 0 ? MIN ((x - c->rise_at) / c->rise_width, 1) : 1;

      /* Slow at first, up to the level: the rise ends at 1, where the rest
       * of the curve is defined. */
      v += log (1 / c->rise_ratio) * (1 - u);
    }
  else if (c->rise_ratio != 1)
    v += log (1 / c->rise_ratio);
  if (c->decay_tau > 0 && x > c->decay_at)
    v += log (c->decay_floor + (1 - c->decay_floor) * exp (-(x - c->decay_at) / c->decay_tau));
  if (c->linear_end != 1)
    v += log (1 - (1 - c->linear_end) * x / FILL_PCT);
  for (guint i = 0; i < c->n_blips; i++)
    {
      const Blip *b = &c->blips[i];

      if (x >= b->at_pct && x < b->at_pct + b->width_pct)
        v += log (b->ratio);
    }
  for (guint i = 0; i < c->n_long_dips; i++)
    {
      const Blip *b = &c->long_dips[i];

      if (x >= b->at_pct && x < b->at_pct + b->width_pct)
        v += log (b->ratio);
    }
  if (c->n_blocks > 0 && x >= c->band_edge[0] && x < c->band_edge[c->n_blocks])
    {
      guint lo = 0, hi = c->n_blocks;

      /* The block holding x: band_edge[lo] <= x < band_edge[lo + 1]. */
      while (lo + 1 < hi)
        {
          guint mid = (lo + hi) / 2;

          if (c->band_edge[mid] <= x)
            lo = mid;
          else
            hi = mid;
        }
      if (!c->band_fast[lo])
        v += log (c->band_slow);
    }
  return v;
}

static double
rate_at (const Curve *c,
         double       x)
{
  return exp (curve_ln (c, x) + extras_ln (c, x));
}

/* Falls at least @gap apart in [lo, hi], in order. */
static void
place_falls (guint64 *state,
             Curve   *c,
             guint    n,
             double   lo,
             double   hi,
             double   gap)
{
  c->n_falls = n;
  for (guint i = 0; i < n; i++)
    {
      double room_lo = i == 0 ? lo : c->falls[i - 1].knee_pct + c->falls[i - 1].width_pct + gap;
      double room_hi = hi - (n - 1 - i) * (gap + 8);

      c->falls[i].width_pct = uniform (state) < 0.3 ? 0 : between (state, 0.2, 8);
      c->falls[i].ratio = log_between (state, 0.08, 0.6);
      c->falls[i].knee_pct = between (state, room_lo, MAX (room_lo, room_hi));
      c->forms[i] = (FallForm) (uniform (state) * N_FALL_FORMS);
    }
}

static void
add_blips (guint64 *state,
           Curve   *c,
           guint    n)
{
  for (guint tries = 0; tries < 50 && c->n_blips < n; tries++)
    {
      Blip b = {
        .at_pct = between (state, 3, 190),
        .width_pct = between (state, 0.3, 1.2),
        .ratio = uniform (state) < 0.5 ? between (state, 0.1, 0.5) : between (state, 1.5, 2.5),
      };
      gboolean clear = TRUE;

      /* Well away from a fall's knee and foot, from a long dip, and from
       * each other. */
      for (guint i = 0; i < c->n_falls; i++)
        clear &= b.at_pct + b.width_pct < c->falls[i].knee_pct - 12 ||
                 b.at_pct > c->falls[i].knee_pct + c->falls[i].width_pct + 12;
      for (guint i = 0; i < c->n_long_dips; i++)
        clear &= b.at_pct + b.width_pct < c->long_dips[i].at_pct - 8 ||
                 b.at_pct > c->long_dips[i].at_pct + c->long_dips[i].width_pct + 8;
      for (guint i = 0; i < c->n_blips; i++)
        clear &= fabs (b.at_pct - c->blips[i].at_pct) > 8;
      if (clear)
        c->blips[c->n_blips++] = b;
    }
}

static void
make_curve (guint64    *state,
            ShapeKind   kind,
            Curve      *c)
{
  memset (c, 0, sizeof *c);
  c->rise_ratio = 1;
  c->linear_end = 1;
  for (guint i = 0; i <= SHAPE_MAX_FALLS; i++)
    c->trend[i] = uniform (state) < 0.4 ? 0 : between (state, -0.008, 0.003);

  switch (kind)
    {
    case SHAPE_KIND_ONE_FALL:
      place_falls (state, c, 1, 0, 185, 0);
      break;
    case SHAPE_KIND_TWO_FALLS:
      /* A cache, then garbage collection once the drive is full. */
      place_falls (state, c, 1, 2, 70, 0);
      c->n_falls = 2;
      c->falls[1].width_pct = uniform (state) < 0.3 ? 0 : between (state, 0.2, 8);
      c->falls[1].ratio = log_between (state, 0.15, 0.6);
      c->falls[1].knee_pct = between (state, MAX (95, c->falls[0].knee_pct + c->falls[0].width_pct + 15), 150);
      c->forms[1] = (FallForm) (uniform (state) * N_FALL_FORMS);
      break;
    case SHAPE_KIND_THREE_FALLS:
      place_falls (state, c, 3, 1, 185, 8);
      break;
    case SHAPE_KIND_RISE_FALL:
      c->rise_at = between (state, 5, 40);
      c->rise_width = between (state, 0, 10);
      c->rise_ratio = between (state, 1.2, 1.6);
      place_falls (state, c, 1, c->rise_at + c->rise_width + 10, 150, 0);
      c->trend[0] = 0;
      break;
    case SHAPE_KIND_DECLINE_KNEE:
      /* Slowing down before a late knee, as the SSD 750 from 112 540 at
       * 0 % to 83 061 at 50 %. */
      c->trend[0] = between (state, -0.008, -0.004);
      place_falls (state, c, 1, 60, 150, 0);
      break;
    case SHAPE_KIND_FLAT:
      c->trend[0] = between (state, -0.001, 0.001);
      break;
    case SHAPE_KIND_LINEAR:
      c->trend[0] = 0;
      c->linear_end = between (state, 0.3, 0.9);
      break;
    case SHAPE_KIND_DECAY:
      c->trend[0] = 0;
      c->decay_at = uniform (state) < 0.5 ? 0 : between (state, 5, 80);
      c->decay_tau = log_between (state, 20, 80);
      c->decay_floor = between (state, 0.1, 0.7);
      break;
    case SHAPE_KIND_DIPS:
      c->trend[0] = between (state, -0.002, 0.001);
      add_blips (state, c, 2 + (guint) (uniform (state) * 4));
      break;
    case SHAPE_KIND_FALL_RECOVER:
      /* A fall to r, then after 3–40 points a rise that wins back part of
       * it, to R of the level before: the rise as rise_ratio R / r, the
       * whole curve before it that much lower. */
      place_falls (state, c, 1, 2, 110, 0);
      c->falls[0].ratio = log_between (state, 0.08, 0.35);
      {
        double r = c->falls[0].ratio, big_r = between (state, MIN (1.5 * r, 0.55), 0.55);

        c->rise_at = c->falls[0].knee_pct + c->falls[0].width_pct + between (state, 3, 40);
        c->rise_width = uniform (state) < 0.3 ? 0 : between (state, 0.2, 8);
        c->rise_ratio = big_r / r;
      }
      break;
    case SHAPE_KIND_LONG_DIPS:
      /* Each 3–14 points down to 0.1–0.6 of the level and back, ending
       * 20 points or more before the fill does (else no one could tell it
       * recovers), 25 points or more apart. */
      c->trend[0] = between (state, -0.002, 0.001);
      c->n_long_dips = 1 + (uniform (state) < 0.5);
      for (guint i = 0; i < c->n_long_dips; i++)
        {
          double lo = i == 0 ? 8 : c->long_dips[0].at_pct + c->long_dips[0].width_pct + 25;
          double hi = 180 - (c->n_long_dips - 1 - i) * 40;

          c->long_dips[i].width_pct = between (state, 3, 14);
          c->long_dips[i].ratio = log_between (state, 0.1, 0.6);
          c->long_dips[i].at_pct = between (state, lo, MAX (lo, hi - c->long_dips[i].width_pct));
        }
      break;
    case SHAPE_KIND_BAND_AFTER:
    case SHAPE_KIND_BAND_BEFORE:
    case SHAPE_KIND_BAND_ONLY:
    case SHAPE_N_KINDS:
    default:
      g_assert_not_reached ();
    }
  if (kind != SHAPE_KIND_DIPS && uniform (state) < 0.3)
    add_blips (state, c, 1 + (guint) (uniform (state) * 2));
  /* All falls together to no less than a fiftieth: a drive that falls a
   * thousandfold would take millions of rows at its end. */
  {
    double product = 1;

    for (guint i = 0; i < c->n_falls; i++)
      product *= c->falls[i].ratio;
    if (product < 0.02)
      {
        guint low = 0;

        for (guint i = 1; i < c->n_falls; i++)
          if (c->falls[i].ratio < c->falls[low].ratio)
            low = i;
        c->falls[low].ratio = MIN (c->falls[low].ratio * 0.02 / product, 0.6);
      }
  }
}

/* The row noise: a multiplier of the drive's speed over one row. */
typedef struct
{
  double jitter;            /* uniform in [1 − jitter, 1 + jitter] */
  double stall_p;           /* a stall: 5–50 % of the speed */
  double burst_p;           /* a burst: 1.5–3 times */
  double scatter_p;         /* after the last fall: garbage collection holds the row at 20–60 % */
  double scatter_from_pct;
  /* The host's noise (shape_generate_live()): the drive's speed is the
   * same, the host takes part of a row's time from it, or counts some of
   * a row's writes in the next. */
  double host_slow_p;       /* a single slow row at 20–80 %, half of them caught up in part by the next */
  double host_stall_p;      /* a short stall: 2–5 rows at 5–50 % */
  double host_late_p;       /* 10–50 % of a row's writes counted in the next row */
  double forced[2 * SHAPE_MAX_FALLS];  /* % written where a single slow row is made */
  guint  n_forced;
  double queue[8];          /* multipliers already decided for the next rows */
  guint  n_queued;
} Noise;

static double
noise_mean (const Noise *noise,
            gboolean     scatter)
{
  double m = (1 - noise->stall_p * (1 - 0.275)) * (1 + noise->burst_p * 1.25);

  return scatter ? m * (1 - noise->scatter_p * 0.6) : m;
}

/* The engine's queue depth: a host that reaps a row's completions late
 * counts at most this many of its writes in the next row, and a drive
 * left idle by a stalled host catches up with no more than these. */
#define QUEUE_DEPTH 32

/* The host's share of the next row: a multiplier queued by an earlier
 * row, a slow row made on purpose at @x, or one drawn. @row_ops is how
 * many writes a row holds at this rate, @row_pct how much of the
 * capacity. */
static double
host_draw (guint64 *state,
           Noise   *noise,
           double   x,
           double   row_pct,
           double   row_ops)
{
  double m, u, most = MIN (QUEUE_DEPTH / MAX (row_ops, 1), 0.5);

  if (noise->n_queued > 0)
    {
      m = noise->queue[0];
      memmove (noise->queue, noise->queue + 1, --noise->n_queued * sizeof (double));
      return m;
    }
  for (guint i = 0; i < noise->n_forced; i++)
    if (noise->forced[i] >= x && noise->forced[i] < x + row_pct)
      return between (state, 0.2, 0.7);
  u = uniform (state);
  if (u < noise->host_slow_p)
    {
      m = between (state, 0.2, 0.8);
      if (uniform (state) < 0.5)
        noise->queue[noise->n_queued++] = 1 + MIN (1 - m, most) * between (state, 0.3, 1);
      return m;
    }
  u -= noise->host_slow_p;
  if (u < noise->host_stall_p)
    {
      guint n = 2 + (guint) (uniform (state) * 4);

      for (guint i = 1; i < n; i++)
        noise->queue[noise->n_queued++] = between (state, 0.05, 0.5);
      return between (state, 0.05, 0.5);
    }
  u -= noise->host_stall_p;
  if (u < noise->host_late_p)
    {
      double late = most * between (state, 0.2, 1);

      noise->queue[noise->n_queued++] = 1 + late;
      return 1 - late;
    }
  return 1;
}

static double
noise_draw (guint64 *state,
            Noise   *noise,
            double   x,
            double   row_pct,
            double   row_ops)
{
  double m = between (state, 1 - noise->jitter, 1 + noise->jitter);
  double u = uniform (state);

  if (u < noise->stall_p)
    m *= between (state, 0.05, 0.5);
  else if (u > 1 - noise->burst_p)
    m *= between (state, 1.5, 3);
  if (x >= noise->scatter_from_pct && uniform (state) < noise->scatter_p)
    m *= between (state, 0.2, 0.6);
  if (noise->host_slow_p > 0 || noise->host_stall_p > 0 || noise->host_late_p > 0 || noise->n_forced > 0)
    m *= host_draw (state, noise, x, row_pct, row_ops);
  return m;
}

/* What the curve is made of and how its rows are written, for
 * write_rows(). */
typedef struct
{
  gboolean coarse;          /* rows of coarse_row_pct where the drive is fastest */
  double   coarse_row_pct;
  double   rows_wanted;     /* else about this many rows */
} Rows;

/* Writes @c as rows of out->interval_ms over 2x out->span_bytes with
 * @noise, and fills out->plateau_iops. */
static DuelSeries *
write_rows (guint64     *state,
            const Curve *c,
            Noise       *noise,
            const Rows  *rows,
            ShapeTruth  *out)
{
  g_autofree double *t1 = g_new (double, CELLS + 1);   /* clean time at level 1 to reach cell k */
  DuelSeries *series = duel_series_new ();
  double cell = FILL_PCT / CELLS, level, ops_per_pct, tau = 0, dt, fastest = 0;
  guint64 total_ops, done_ops = 0;
  guint64 t_ms = 0;

  /* The clean time to write each 0.01 point at level 1, from the rate at
   * its middle; a step's cell is off by at most one cell. */
  ops_per_pct = (double) out->span_bytes / PAGE / 100;
  t1[0] = 0;
  for (guint k = 0; k < CELLS; k++)
    t1[k + 1] = t1[k] + ops_per_pct * cell / rate_at (c, (k + 0.5) * cell);

  /* The level that makes the run about rows_wanted rows long; for fine
   * rows, also slow enough that no row is more than 1 % of capacity (a
   * drive that falls a hundredfold takes more rows). */
  dt = out->interval_ms / 1e3;
  for (guint k = 0; k < CELLS; k += 10)
    fastest = MAX (fastest, rate_at (c, (k + 0.5) * cell));
  if (rows->coarse)
    level = ops_per_pct * rows->coarse_row_pct / (fastest * dt);
  else
    {
      level = t1[CELLS] / (rows->rows_wanted * dt * noise_mean (noise, FALSE));
      level = MIN (level, ops_per_pct / (fastest * dt * 3));
      /* And no more jitter than leaves the mean of a point's rows within
       * 4 % (one standard deviation) where rows are widest: a knee is
       * placed from the levels either side, and the noise of a handful of
       * rows can make a level where there is none. */
      {
        double rows_per_pct = ops_per_pct / (fastest * level * dt);

        noise->jitter = MIN (noise->jitter, 0.04 * sqrt (3 * rows_per_pct));
      }
    }
  total_ops = (guint64) llround (2 * (double) out->span_bytes / PAGE);

  /* Each row gets m x dt of the drive's own time (m the noise): how far
   * that takes it on the clean curve is how much it wrote. */
  while (done_ops < total_ops)
    {
      double x = (double) done_ops / ops_per_pct;
      double row_ops = rate_at (c, x) * level * dt;
      double m = noise_draw (state, noise, x, row_ops / ops_per_pct, row_ops);
      double target = (tau + m * dt) * level, pos;
      guint lo = 0, hi = CELLS;
      guint64 ops;
      DuelSeriesRow row = { .temperature_c = NAN };

      if (target >= t1[CELLS])
        {
          double f = (t1[CELLS] / level - tau) / (m * dt);

          ops = total_ops - done_ops;
          t_ms += MAX ((guint64) ceil (f * out->interval_ms), 1);
        }
      else
        {
          while (lo + 1 < hi)
            {
              guint mid = (lo + hi) / 2;

              if (t1[mid] <= target)
                lo = mid;
              else
                hi = mid;
            }
          pos = (lo + (target - t1[lo]) / (t1[lo + 1] - t1[lo])) * cell;
          ops = MIN ((guint64) floor (pos * ops_per_pct), total_ops) - done_ops;
          t_ms += out->interval_ms;
        }
      tau += m * dt;
      row.t_ms = t_ms;
      row.ops[DUEL_DIRECTION_WRITE] = ops;
      row.bytes[DUEL_DIRECTION_WRITE] = ops * 4096;
      duel_series_append (series, &row);
      done_ops += ops;
    }

  /* The plateau: over the last 10 % written, the clean curve's ops over its
   * time, each cell's time divided by the noise's mean there (a row of
   * noise m moves the drive on by m rows of its own time). */
  {
    guint from = (guint) llround (0.9 * CELLS);
    double ops = ops_per_pct * (FILL_PCT - from * cell), secs = 0;

    for (guint k = from; k < CELLS; k++)
      secs += (t1[k + 1] - t1[k]) / level / noise_mean (noise, k * cell >= noise->scatter_from_pct);
    out->plateau_iops = ops / secs;
  }
  return series;
}

DuelSeries *
shape_generate (guint64     seed,
                gboolean    coarse,
                guint       min_rows,
                guint       max_rows,
                ShapeTruth *out)
{
  guint64 state = mix_seed (seed);
  DuelSeries *series;
  Curve c;
  Noise noise = { 0 };
  Rows rows = { .coarse = coarse };
  char shape_name[80];

  memset (out, 0, sizeof *out);
  out->seed = seed;
  out->coarse = coarse;
  uniform (&state);
  out->kind = (ShapeKind) (uniform (&state) * SHAPE_N_BASIC_KINDS);
  make_curve (&state, out->kind, &c);
  /* On rows of several % each, a dip or a burst of a point or two is
   * spread over the two rows it straddles: the rows cannot tell it from a
   * level, so coarse curves have none. */
  if (coarse)
    c.n_blips = 0;

  out->n_falls = c.n_falls;
  memcpy (out->falls, c.falls, sizeof c.falls);
  out->decline_ratio = c.decay_tau > 0 ? c.decay_floor + (1 - c.decay_floor) * exp (-(FILL_PCT - c.decay_at) / c.decay_tau)
                       : c.linear_end;

  /* Rows: a few dozen (each several % of capacity), or min–max rows with
   * a few hundred to tens of thousands of 4 KiB writes each. */
  if (coarse)
    {
      /* As a 128 MiB target in 100 ms rows: the fastest rows take
       * 1.5–6 % of capacity each, the slower ones less. */
      rows.coarse_row_pct = log_between (&state, 1.5, 6);
      out->interval_ms = 100;
      out->span_bytes = (guint64) log_between (&state, 128.0 * 1048576, 4.0 * 1073741824) / 4096 * 4096;
      noise.jitter = between (&state, 0, 0.05);
    }
  else
    {
      double ops_per_row = log_between (&state, 300, 30000);

      rows.rows_wanted = log_between (&state, min_rows, max_rows);
      out->interval_ms = uniform (&state) < 0.5 ? 100 : 1000;
      out->span_bytes = (guint64) (rows.rows_wanted * ops_per_row * PAGE / 2) / 4096 * 4096;
      noise.jitter = between (&state, 0, 0.2);
      noise.stall_p = uniform (&state) < 0.5 ? between (&state, 0, 0.03) : 0;
      noise.burst_p = uniform (&state) < 0.5 ? between (&state, 0, 0.01) : 0;
      /* GC scatter only where enough rows average it: on fewer, the noise
       * itself moves the last 10 % by more than the 5 % the plateau is
       * held to. */
      if (c.n_falls > 0 && uniform (&state) < 0.5 && rows.rows_wanted >= 4000)
        {
          const ShapeFall *last = &c.falls[c.n_falls - 1];

          noise.scatter_p = between (&state, 0, 0.4);
          noise.scatter_from_pct = last->knee_pct + last->width_pct;
        }
    }
  if (noise.scatter_p == 0)
    noise.scatter_from_pct = G_MAXDOUBLE;

  series = write_rows (&state, &c, &noise, &rows, out);

  if (c.decay_tau > 0)
    g_snprintf (shape_name, sizeof shape_name, "decay from %.1f %%, tau %.1f points, to %.2f", c.decay_at,
                c.decay_tau, c.decay_floor);
  else if (c.linear_end != 1)
    g_snprintf (shape_name, sizeof shape_name, "linear to %.2f", c.linear_end);
  else
    g_strlcpy (shape_name, shape_kind_name (out->kind), sizeof shape_name);
  if (coarse)
    g_snprintf (shape_name + strlen (shape_name), sizeof shape_name - strlen (shape_name),
                ", fastest rows %.1f %%", rows.coarse_row_pct);
  g_snprintf (out->description, sizeof out->description,
              "%s, %u rows of %" G_GUINT64_FORMAT " ms, span %.3g GB, jitter %.0f %%, stalls %.1f %%, bursts %.1f %%, GC scatter %.0f %%",
              shape_name, duel_series_get_length (series), out->interval_ms,
              out->span_bytes / 1e9, 100 * noise.jitter, 100 * noise.stall_p, 100 * noise.burst_p,
              100 * noise.scatter_p);
  return series;
}

/* Where the drive is fastest on @c, per unit of level. */
static double
fastest_rate (const Curve *c)
{
  double cell = FILL_PCT / CELLS, fastest = 0;

  for (guint k = 0; k < CELLS; k += 10)
    fastest = MAX (fastest, rate_at (c, (k + 0.5) * cell));
  return fastest;
}

static void
describe (ShapeTruth  *out,
          const char  *shape,
          const Noise *noise,
          const Rows  *rows,
          guint        n_rows)
{
  g_snprintf (out->description, sizeof out->description,
              "%s, %u rows of %" G_GUINT64_FORMAT " ms (fastest %.2f %%), span %.3g GB, jitter %.0f %%, "
              "stalls %.1f %%, bursts %.1f %%, host: slow rows %.1f %%, stalls %.1f %%, late %.1f %%, %u forced",
              shape, n_rows, out->interval_ms, rows->coarse ? rows->coarse_row_pct : NAN, out->span_bytes / 1e9,
              100 * noise->jitter, 100 * noise->stall_p, 100 * noise->burst_p, 100 * noise->host_slow_p,
              100 * noise->host_stall_p, 100 * noise->host_late_p, noise->n_forced);
}

DuelSeries *
shape_generate_live (guint64     seed,
                     ShapeTruth *out)
{
  guint64 state = mix_seed (seed);
  DuelSeries *series;
  Curve c;
  Noise noise = { 0 };
  Rows rows = { .coarse = TRUE };

  memset (out, 0, sizeof *out);
  memset (&c, 0, sizeof c);
  out->seed = seed;
  out->coarse = TRUE;
  c.rise_ratio = 1;
  c.linear_end = 1;
  uniform (&state);
  for (guint i = 0; i <= SHAPE_MAX_FALLS; i++)
    c.trend[i] = uniform (&state) < 0.4 ? 0 : between (&state, -0.008, 0.003);
  out->kind = uniform (&state) < 0.5 ? SHAPE_KIND_ONE_FALL : SHAPE_KIND_TWO_FALLS;
  c.n_falls = out->kind == SHAPE_KIND_ONE_FALL ? 1 : 2;
  for (guint i = 0; i < c.n_falls; i++)
    {
      ShapeFall *f = &c.falls[i];

      f->width_pct = uniform (&state) < 0.5 ? 0 : between (&state, 0.2, 2);
      f->ratio = log_between (&state, 0.1, 0.65);
      c.forms[i] = FALL_LINEAR;
      if (c.n_falls == 1)
        f->knee_pct = between (&state, 3, 185);
      else if (i == 0)
        f->knee_pct = between (&state, 3, 70);
      else
        f->knee_pct = between (&state, MAX (95, c.falls[0].knee_pct + c.falls[0].width_pct + 15), 150);
    }
  if (c.n_falls == 2 && c.falls[0].ratio * c.falls[1].ratio < 0.02)
    c.falls[1].ratio = 0.02 / c.falls[0].ratio;

  rows.coarse_row_pct = log_between (&state, 0.1, 6);
  out->interval_ms = 100;
  out->span_bytes = (guint64) log_between (&state, 128.0 * 1048576, 4.0 * 1073741824) / 4096 * 4096;
  noise.jitter = between (&state, 0, 0.05);
  noise.host_slow_p = between (&state, 0, 0.05);
  noise.host_stall_p = between (&state, 0, 0.01);
  noise.host_late_p = between (&state, 0, 0.03);
  noise.scatter_from_pct = G_MAXDOUBLE;
  /* A single slow row a few rows before each fall, with the level between. */
  if (uniform (&state) < 0.5)
    {
      double fastest = fastest_rate (&c);

      for (guint i = 0; i < c.n_falls; i++)
        {
          double row = rows.coarse_row_pct * rate_at (&c, c.falls[i].knee_pct - 0.01) / fastest;
          double at = c.falls[i].knee_pct - between (&state, 1.5, 4.5) * row;

          if (at > 2 * row)
            noise.forced[noise.n_forced++] = at;
        }
    }
  out->n_falls = c.n_falls;
  memcpy (out->falls, c.falls, sizeof c.falls);
  out->decline_ratio = 1;

  series = write_rows (&state, &c, &noise, &rows, out);
  out->plateau_iops = NAN;
  describe (out, shape_kind_name (out->kind), &noise, &rows, duel_series_get_length (series));
  return series;
}

/* Blocks from @from to @to, each 0.25–@longest points, fast with
 * probability @mix. */
static void
make_band (guint64 *state,
           Curve   *c,
           double   from,
           double   to,
           double   longest,
           double   mix)
{
  double x = from;

  c->n_blocks = 0;
  c->band_edge[0] = from;
  while (x < to && c->n_blocks < MAX_BLOCKS)
    {
      c->band_fast[c->n_blocks] = uniform (state) < mix;
      x = MIN (x + between (state, 0.25, longest), to);
      c->band_edge[++c->n_blocks] = x;
    }
  c->band_edge[c->n_blocks] = to;
}

DuelSeries *
shape_generate_band (guint64     seed,
                     gboolean    coarse,
                     ShapeTruth *out)
{
  guint64 state = mix_seed (seed);
  DuelSeries *series;
  Curve c;
  Noise noise = { 0 };
  Rows rows = { .coarse = coarse };
  double longest, mix;
  char shape[120];

  memset (out, 0, sizeof *out);
  memset (&c, 0, sizeof c);
  out->seed = seed;
  out->coarse = coarse;
  c.rise_ratio = 1;
  c.linear_end = 1;
  uniform (&state);
  out->kind = SHAPE_KIND_BAND_AFTER + (ShapeKind) (uniform (&state) * 3);
  for (guint i = 0; i <= SHAPE_MAX_FALLS; i++)
    c.trend[i] = uniform (&state) < 0.5 ? 0 : between (&state, -0.001, 0.001);
  longest = log_between (&state, 0.5, 5);
  mix = between (&state, 0.05, 0.95);
  c.band_slow = log_between (&state, 0.25, 0.7);
  switch (out->kind)
    {
    case SHAPE_KIND_BAND_AFTER:
      c.n_falls = 1;
      c.falls[0].knee_pct = between (&state, 3, 120);
      c.falls[0].width_pct = uniform (&state) < 0.5 ? 0 : between (&state, 0.2, 3);
      c.falls[0].ratio = log_between (&state, 0.08, 0.6);
      c.forms[0] = (FallForm) (uniform (&state) * N_FALL_FORMS);
      out->band_from_pct = c.falls[0].knee_pct + c.falls[0].width_pct;
      out->band_to_pct = FILL_PCT;
      break;
    case SHAPE_KIND_BAND_BEFORE:
      c.n_falls = 1;
      c.falls[0].knee_pct = between (&state, 25, 185);
      c.falls[0].width_pct = uniform (&state) < 0.5 ? 0 : between (&state, 0.2, 3);
      c.falls[0].ratio = c.band_slow * log_between (&state, 0.1, 0.6);
      c.forms[0] = (FallForm) (uniform (&state) * N_FALL_FORMS);
      out->band_from_pct = 0;
      out->band_to_pct = c.falls[0].knee_pct;
      break;
    case SHAPE_KIND_BAND_ONLY:
    default:
      out->band_from_pct = 0;
      out->band_to_pct = FILL_PCT;
      break;
    }
  make_band (&state, &c, out->band_from_pct, out->band_to_pct, longest, mix);

  if (coarse)
    {
      rows.coarse_row_pct = log_between (&state, 0.05, 1);
      out->interval_ms = 100;
      out->span_bytes = (guint64) log_between (&state, 1.0 * 1073741824, 64.0 * 1073741824) / 4096 * 4096;
      noise.jitter = between (&state, 0, 0.05);
    }
  else
    {
      double ops_per_row = log_between (&state, 300, 30000);

      rows.rows_wanted = log_between (&state, 1000, 100000);
      out->interval_ms = uniform (&state) < 0.5 ? 100 : 1000;
      out->span_bytes = (guint64) (rows.rows_wanted * ops_per_row * PAGE / 2) / 4096 * 4096;
      noise.jitter = between (&state, 0, 0.2);
      noise.stall_p = uniform (&state) < 0.5 ? between (&state, 0, 0.03) : 0;
      noise.burst_p = uniform (&state) < 0.5 ? between (&state, 0, 0.01) : 0;
    }
  noise.scatter_from_pct = G_MAXDOUBLE;
  out->n_falls = c.n_falls;
  memcpy (out->falls, c.falls, sizeof c.falls);
  out->decline_ratio = 1;

  series = write_rows (&state, &c, &noise, &rows, out);
  out->plateau_iops = NAN;
  g_snprintf (shape, sizeof shape, "%s, band %.1f–%.1f %% in blocks of up to %.2f points, %.0f %% fast, slow at %.2f",
              shape_kind_name (out->kind), out->band_from_pct, out->band_to_pct, longest, 100 * mix, c.band_slow);
  describe (out, shape, &noise, &rows, duel_series_get_length (series));
  return series;
}
