/* duel-run-eta.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-json.h"
#include "duel-run-eta-private.h"

#include "duel-run-eta-table.h"

/* Two live rates. The recent one covers the last 10 % of the span written
 * (the analysis's plateau window) and at least 1 s and 5 intervals: what
 * the drive does now. The regime's covers everything since the rate last
 * changed for good, so noise in a steady stretch averages out instead of
 * swinging the estimate. */
#define RECENT_SPAN_SHARE   0.1
#define RECENT_MIN_S        1.0
#define RECENT_MIN_ROWS     5
/* A change of level: the last 2 % of the span written (and 1 s, 5
 * intervals) under 3/4 of the regime's rate before it, or over 4/3 of it,
 * and the rate since staying there while twice as much more is written. A
 * dip or a burst of the shapes the analysis ignores (under 1.5 % of the
 * capacity, docs/analysis.md) is over before that. */
#define DETECT_SPAN_SHARE   0.02
#define LEVEL_FALL          0.75
#define LEVEL_CONFIRM       2.0
/* A regime's drift: from its two halves once it is 10 % of the span long,
 * shrunk towards none while it is short (as much again as its length, 20 %
 * of the span: half), and never followed below half the rate it has now.
 * After GC starts its cost keeps growing for the rest of a 2x fill. */
#define TREND_MIN_SHARE     0.1
#define TREND_SHRINK_SHARE  0.2
#define TREND_FLOOR         0.5
/* GC's rate falls on to no less than this share of where it is. */
#define GC_FLOOR            0.3
/* Without a complete row, a rate needs this much time behind it. */
#define RATE_MIN_S          1.0
/* GC shows as a recent rate this far below the first pass's end rate. */
#define GC_SEEN_DROP        0.2
#define PROBE_BLOCK_BYTES   4096.0
/* A timed step's end past its limit: the drain, the next step's start. */
#define STEP_END_S          0.05
/* Past the probe's bytes, a fill this much faster than the probe's end
 * rate for a recent window's time has not met what the probe saw. */
#define PROBE_NOT_SEEN      1.5

typedef enum
{
  STEP_PENDING,
  STEP_RUNNING,
  STEP_DONE,
} StepState;

/* A window over the last rows: it starts after row @lo - 1, at @lo_bytes
 * and @lo_s. */
typedef struct
{
  guint        lo;
  guint64      lo_bytes;
  double       lo_s;
} Window;

/* A step's time left and its ranges: all of it, and its two passes (the
 * first pass's time left, 0 once it is over; the second pass's from the
 * first pass's end; a step of one pass is all first pass). */
typedef struct
{
  double middle;
  double low;
  double high;
  double first;
  double first_low;
  double first_high;
  double second;
  double second_low;
  double second_high;
} Parts;

typedef struct
{
  /* The plan. */
  gboolean     discard;
  DuelWorkload workload;
  guint64      span_bytes;
  guint64      byte_limit;
  double       runtime_s;         /* 0: no time limit */
  double       expected_s;
  double       weight_s;          /* frozen at the run's start */
  gboolean     optional;          /* a round past the first window: may be skipped */

  StepState    state;
  gint64       start_us;
  double       fraction;

  /* The last update. */
  double       elapsed_s;
  guint64      bytes;
  guint64      write_bytes;
  double       recent_rate;       /* bytes/s, NAN until known */
  double       regime_rate;
  Parts        left;              /* at @remaining_us; NAN until known */
  gint64       remaining_us;

  Window       recent;
  Window       detect;
  Window       mid;               /* the regime's second half */
  /* The regime starts at @regime_bytes and @regime_s. */
  guint64      regime_bytes;
  double       regime_s;
  /* A change not yet confirmed: from @drop_bytes at @drop_s, away from
   * @drop_before_rate (NAN: none). */
  guint64      drop_bytes;
  double       drop_s;
  double       drop_before_rate;
  guint        drop_row;
  guint64      last_fall_bytes;   /* where the last confirmed fall was seen (0: none) */
  gboolean     first_fell;        /* a fall was confirmed in the first pass */

  /* Passes over the span (random writes). */
  gboolean     past_probe;        /* the recent window starts past the probe's bytes */
  guint64      probe_reached_bytes; /* where the fill first passed them (0: not yet) */
  double       probe_reached_s;
  guint        probe_reached_row;
  gboolean     past_first;
  double       first_rate;        /* the regime's rate when the first pass ended */
  gboolean     gc_seen;
} Step;

struct _DuelRunEta
{
  GArray  *steps;                 /* Step */
  double   probe_rate;            /* bytes/s, NAN when no probe ran */
  double   probe_end_rate;
  double   probe_s;
  gboolean probe_fell;            /* its rate fell (a write cache ran out) */
  gint     probe_step;            /* the step it informs, -1: none */
  gboolean flash;
  gboolean weights_frozen;
};

static void
parts_unknown (Parts *parts)
{
  parts->middle = parts->low = parts->high = NAN;
  parts->first = parts->first_low = parts->first_high = NAN;
  parts->second = parts->second_low = parts->second_high = NAN;
}

static void
parts_exact (Parts  *parts,
             double  seconds)
{
  parts->middle = parts->low = parts->high = seconds;
  parts->first = parts->first_low = parts->first_high = seconds;
  parts->second = parts->second_low = parts->second_high = 0;
}

static double
cap (double value,
     double limit)
{
  return isfinite (value) ? MIN (value, limit) : limit;
}

/* A time limit @left seconds away ends the step at the latest (and then
 * it drains): the first pass's time left first, the second pass's after. */
static void
parts_cap (Parts  *parts,
           double  left)
{
  parts->middle = cap (parts->middle, left);
  parts->low = cap (parts->low, left);
  parts->high = cap (parts->high, left + STEP_END_S);
  parts->first = cap (parts->first, left);
  parts->first_low = cap (parts->first_low, left);
  parts->first_high = cap (parts->first_high, left + STEP_END_S);
  parts->second = cap (parts->second, MAX (left - parts->first, 0));
  parts->second_low = cap (parts->second_low, MAX (left - parts->first_low, 0));
  parts->second_high = cap (parts->second_high, MAX (left - parts->first_low, 0) + STEP_END_S);
}

static inline Step *
get_step (DuelRunEta *self,
          guint       index)
{
  return &g_array_index (self->steps, Step, index);
}

DuelRunEta *
duel_run_eta_new (void)
{
  DuelRunEta *self = g_new0 (DuelRunEta, 1);

  self->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  self->probe_rate = NAN;
  self->probe_end_rate = NAN;
  self->probe_step = -1;
  self->flash = TRUE;
  return self;
}

void
duel_run_eta_free (DuelRunEta *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->steps);
  g_free (self);
}

static double
write_share (const Step *step)
{
  return step->discard ? 0.0 : (100.0 - MIN (step->workload.read_percent, 100)) / 100.0;
}

/* A random write over its span more than once: the drive must collect garbage. */
static gboolean
has_second_pass (const Step *step)
{
  double share = write_share (step);

  return share > 0 && step->span_bytes > 0 && step->workload.pattern == DUEL_PATTERN_RANDOM &&
         step->byte_limit > step->span_bytes / share;
}

/* The recent window's least length, s: 1 s and 5 intervals. */
static double
recent_min_s (const Step *step)
{
  return MAX (RECENT_MIN_S, RECENT_MIN_ROWS * step->workload.interval_ms / 1e3);
}

static void
find_probe_step (DuelRunEta *self)
{
  self->probe_step = -1;
  for (guint i = 0; i < self->steps->len; i++)
    {
      const Step *step = get_step (self, i);

      if (!step->discard && step->byte_limit > 0 && !duel_workload_reads (&step->workload) &&
          step->workload.pattern == DUEL_PATTERN_RANDOM && step->workload.block_size == PROBE_BLOCK_BYTES)
        {
          self->probe_step = i;
          return;
        }
    }
}

void
duel_run_eta_add_step (DuelRunEta         *self,
                       const DuelWorkload *workload,
                       guint64             span_bytes,
                       guint64             byte_limit,
                       double              expected_s)
{
  Step step = { 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->weights_frozen);

  step.discard = workload == NULL;
  if (workload != NULL)
    step.workload = *workload;
  step.span_bytes = span_bytes;
  step.byte_limit = step.discard ? 0 : byte_limit;
  step.runtime_s = step.discard ? 0 : step.workload.runtime_ms / 1e3;
  step.expected_s = expected_s;
  step.recent_rate = NAN;
  step.regime_rate = NAN;
  step.drop_before_rate = NAN;
  parts_unknown (&step.left);
  step.first_rate = NAN;
  g_array_append_val (self->steps, step);
  find_probe_step (self);
}

void
duel_run_eta_set_optional (DuelRunEta *self,
                           guint       index)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->steps->len);

  get_step (self, index)->optional = TRUE;
}

void
duel_run_eta_set_probe (DuelRunEta *self,
                        double      write_iops,
                        double      end_write_iops,
                        guint64     probe_ms,
                        guint64     fall_bytes)
{
  g_return_if_fail (self != NULL);

  if (isfinite (write_iops) && write_iops > 0 && probe_ms > 0)
    {
      self->probe_rate = write_iops * PROBE_BLOCK_BYTES;
      self->probe_s = probe_ms / 1e3;
      /* Without an end figure the probe is taken as flat. */
      self->probe_end_rate = isfinite (end_write_iops) && end_write_iops > 0
        ? end_write_iops * PROBE_BLOCK_BYTES : self->probe_rate;
      self->probe_fell = fall_bytes > 0;
    }
  else
    {
      self->probe_rate = self->probe_end_rate = NAN;
      self->probe_s = 0;
      self->probe_fell = FALSE;
    }
}

void
duel_run_eta_set_flash (DuelRunEta *self,
                        gboolean    flash)
{
  g_return_if_fail (self != NULL);
  self->flash = !!flash;
}

static gboolean
probe_informs (DuelRunEta *self,
               const Step *step)
{
  return self->probe_step >= 0 && step == get_step (self, self->probe_step) &&
         isfinite (self->probe_rate);
}

static void
regime_restart (Step   *step,
                guint   row,
                guint64 bytes,
                double  s,
                double  rate)
{
  step->regime_bytes = bytes;
  step->regime_s = s;
  step->regime_rate = rate;
  step->mid = (Window) { .lo = row, .lo_bytes = bytes, .lo_s = s };
  step->drop_before_rate = NAN;
}

/* The regime's rate changes along it by this factor per byte (ln), from
 * its two halves, when it is long enough to say: only a decline, and only
 * a drift (within the band of a level change: a fall still in the window
 * is not a trend). Shrunk towards 0 while the regime is short. */
static double
regime_trend (const Step *step)
{
  double span = step->span_bytes > 0 ? MIN (step->span_bytes, step->byte_limit) : step->byte_limit;
  double length = step->bytes - step->regime_bytes;
  double r1, r2;

  if (length < TREND_MIN_SHARE * span || step->mid.lo_s <= step->regime_s || step->elapsed_s <= step->mid.lo_s ||
      step->mid.lo_bytes <= step->regime_bytes)
    return 0;
  r1 = (step->mid.lo_bytes - step->regime_bytes) / (step->mid.lo_s - step->regime_s);
  r2 = (step->bytes - step->mid.lo_bytes) / (step->elapsed_s - step->mid.lo_s);
  if (!(r2 < r1) || r2 < LEVEL_FALL * r1)
    return 0;
  return log (r2 / r1) / (length / 2) * length / (length + TREND_SHRINK_SHARE * span);
}

/* Seconds to write @bytes from a rate of @rate that changes by @trend (ln
 * per byte, <= 0), down to TREND_FLOOR of it at most. */
static double
time_with_trend (double bytes,
                 double rate,
                 double trend)
{
  double to_floor;

  if (trend >= 0 || bytes <= 0)
    return bytes / rate;
  to_floor = log (TREND_FLOOR) / trend;
  if (bytes <= to_floor)
    return expm1 (-trend * bytes) / (-trend * rate);
  return expm1 (-trend * to_floor) / (-trend * rate) + (bytes - to_floor) / (TREND_FLOOR * rate);
}

/* The spare area a drive that has not started GC by @x spans written is
 * taken to have: the median of the prior (log-uniform from
 * DUEL_RUN_ETA_SPARE_MIN to DUEL_RUN_ETA_SPARE_MAX) above x - 1, GC
 * starting once the spare area is written too. NAN past the prior: no GC
 * to expect in the fill. */
static double
spare_prior (double x)
{
  double lo = MAX (x - 1, DUEL_RUN_ETA_SPARE_MIN);

  if (lo >= DUEL_RUN_ETA_SPARE_MAX)
    return NAN;
  return sqrt (lo * DUEL_RUN_ETA_SPARE_MAX);
}

/* The host rate from GC's start to 2x written over the first pass's end
 * rate, for a spare area @q (1: none to expect). */
static double
gc_rate_share (double q)
{
  if (!isfinite (q))
    return 1;
  return MIN (DUEL_RUN_ETA_GC_SHARE * pow (q / 0.1, DUEL_RUN_ETA_GC_EXPONENT), 1);
}

/* Seconds to write @bytes from a rate of @rate that falls by @decline per
 * byte, down to GC_FLOOR of it at most. */
static double
time_with_decline (double bytes,
                   double rate,
                   double decline)
{
  double to_floor;

  if (decline <= 0 || bytes <= 0)
    return bytes / rate;
  to_floor = (1 - GC_FLOOR) * rate / decline;
  if (bytes <= to_floor)
    return log (rate / (rate - decline * bytes)) / decline;
  return log (1 / GC_FLOOR) / decline + (bytes - to_floor) / (GC_FLOOR * rate);
}

/* How fast GC's rate falls on (bytes/s per byte) in @step, whose rate is
 * @rate now and whose spare area is @q: the prior (DUEL_RUN_ETA_GC_DECLINE
 * of the first pass's end rate per span, less with more spare area), and
 * the regime's own from its two halves as it grows (shrunk towards the
 * prior while it is short). */
static double
gc_decline (const Step *step,
            double      first_end,
            double      rate,
            double      q)
{
  double prior = MAX (DUEL_RUN_ETA_GC_DECLINE - DUEL_RUN_ETA_GC_DECLINE_SPARE * q, 0.1) *
                 (isfinite (step->first_rate) ? step->first_rate : rate) / first_end;
  double length = step->bytes - step->regime_bytes;
  double r1, r2, own, w;

  if (length < TREND_MIN_SHARE * first_end || step->mid.lo_s <= step->regime_s || step->elapsed_s <= step->mid.lo_s ||
      step->mid.lo_bytes <= step->regime_bytes)
    return prior;
  r1 = (step->mid.lo_bytes - step->regime_bytes) / (step->mid.lo_s - step->regime_s);
  r2 = (step->bytes - step->mid.lo_bytes) / (step->elapsed_s - step->mid.lo_s);
  own = MAX (r1 - r2, 0) / (length / 2);
  w = length / (length + TREND_SHRINK_SHARE * first_end);
  return w * own + (1 - w) * prior;
}

/* The rate fell for good in the second pass: GC began, and the regime
 * since is its rate. */
static gboolean
gc_fall_seen (const Step *step)
{
  return has_second_pass (step) && step->last_fall_bytes > 0 &&
         step->last_fall_bytes >= step->span_bytes / write_share (step);
}

/* Where a step's first pass ends, in its bytes: its byte limit for a step
 * of one pass. */
static double
first_end_bytes (const Step *step)
{
  return has_second_pass (step) ? step->span_bytes / write_share (step) : (double) step->byte_limit;
}

/* Seconds to transfer the rest of a size-bounded step, from @done bytes at
 * @elapsed_s, with the live rates (bytes/s, NAN when none yet): the rest
 * of its first pass, returned, and its second pass in @out_second_s (0 for
 * a step of one pass). */
static double
predict_bytes_s (DuelRunEta *self,
                 const Step *step,
                 double      done,
                 double      elapsed_s,
                 double      regime_rate,
                 double      recent_rate,
                 double     *out_second_s)
{
  double limit = (double) step->byte_limit;
  double first_end = first_end_bytes (step);
  double first_rate = regime_rate;
  double seconds = 0;

  *out_second_s = 0;

  if (probe_informs (self, step) && !step->past_probe)
    {
      /* The probe wrote its bytes in its time from a state like the fill's
       * (it runs before the discard); its end rate has seen the write
       * cache run out if the cache was smaller than what it wrote. */
      double probe_bytes = self->probe_rate * self->probe_s;
      double to = MIN (probe_bytes, first_end);
      double probe_left = self->probe_s * to / probe_bytes - elapsed_s;

      if (done < to)
        {
          if (isfinite (regime_rate) && regime_rate > 0)
            probe_left = MAX (probe_left, (to - done) / regime_rate);
          seconds += MAX (probe_left, 0);
          done = to;
        }
      /* Until the fill has written as much, a mean over a cache the probe
       * saw run out would be too fast. */
      first_rate = isfinite (regime_rate) ? MIN (regime_rate, self->probe_end_rate) : self->probe_end_rate;
    }
  if (!isfinite (first_rate) || first_rate <= 0)
    {
      *out_second_s = NAN;
      return NAN;
    }

  if (done < first_end)
    {
      /* The regime's own rate goes on as it went. */
      seconds += first_rate == regime_rate ? time_with_trend (first_end - done, first_rate, regime_trend (step))
                                           : (first_end - done) / first_rate;
      done = first_end;
    }
  if (done >= limit)
    return seconds;
  {
    double second_rate = step->past_first ? step->first_rate : first_rate;

    if (!self->flash)
      /* No FTL: no GC, the first pass's rate (its end rate once over). */
      *out_second_s = (limit - done) / (step->past_first ? regime_rate : second_rate);
    else if (gc_fall_seen (step))
      {
        /* GC showed: its own rate, falling on as more of the drive holds
         * valid data; the spare area is where it began. */
        double q = step->last_fall_bytes / first_end - 1;
        double rate = isfinite (recent_rate) && recent_rate > 0 ? MIN (regime_rate, recent_rate) : regime_rate;

        *out_second_s = time_with_decline (limit - done, rate,
                                           gc_decline (step, first_end, rate, MAX (q, DUEL_RUN_ETA_SPARE_MIN)));
      }
    else
      {
        /* Not shown yet: GC starts once the spare area q is written too,
         * at 1 + q spans, and costs the less the more there is; with none
         * by x spans, q > x - 1: the prior's median above it (none past
         * the prior). A rate 20 % under the first pass's is GC coming on
         * slowly. */
        double x = done / first_end;
        double q = step->gc_seen ? MAX (x - 1, DUEL_RUN_ETA_SPARE_MIN) : spare_prior (x);
        double pre_rate = second_rate, gc_rate = second_rate * gc_rate_share (q);
        double gc_at = !isfinite (q) ? limit : step->gc_seen ? done : MIN ((1 + q) * first_end, limit);
        double pre_s = 0;

        if (step->past_first && isfinite (recent_rate) && recent_rate > 0)
          {
            pre_rate = MIN (pre_rate, recent_rate);
            gc_rate = MIN (gc_rate, recent_rate);
          }
        if (done < gc_at)
          {
            pre_s = (gc_at - done) / pre_rate;
            done = gc_at;
          }
        *out_second_s = pre_s + (limit - done) / gc_rate;
      }
  }
  return seconds;
}

/* The step's whole duration as expected before it starts. */
static double
expected_s (DuelRunEta *self,
            const Step *step)
{
  if (step->byte_limit > 0 && probe_informs (self, step))
    {
      double second_s;
      double seconds = predict_bytes_s (self, step, 0, 0, NAN, NAN, &second_s) + second_s;

      return step->runtime_s > 0 ? MIN (seconds, step->runtime_s) : seconds;
    }
  if (step->byte_limit == 0 && step->runtime_s > 0)
    return step->runtime_s;
  return step->expected_s;
}

double
_duel_run_eta_knot (guint k)
{
  g_return_val_if_fail (k < DUEL_RUN_ETA_N_KNOTS, NAN);
  return k + 1 < DUEL_RUN_ETA_N_KNOTS ? 0.05 * (k + 1) : 0.975;
}

DuelRunEtaCell
_duel_run_eta_table (DuelRunEtaRange range,
                     guint           k)
{
  static const DuelRunEtaCell none = { { 1, 1 }, { 1, 1 }, { 1, 1 } };

  g_return_val_if_fail (range < DUEL_RUN_ETA_N_RANGES && k < DUEL_RUN_ETA_N_KNOTS, none);
  return range_table[range][k];
}

const char *
_duel_run_eta_range_name (DuelRunEtaRange range)
{
  static const char * const names[DUEL_RUN_ETA_N_RANGES] = {
    "one pass",
    "first pass, no fall yet", "first pass, after a fall", "second pass, before GC", "second pass, after GC",
    "probed: first pass, no fall yet", "probed: first pass, after a fall",
    "probed: second pass, before GC", "probed: second pass, after GC",
  };

  g_return_val_if_fail (range < DUEL_RUN_ETA_N_RANGES, "?");
  return names[range];
}

/* A size-bounded step's range kind: one pass; or the pass it is in and
 * what it has shown, with a probe before it or without. */
static DuelRunEtaRange
range_of (DuelRunEta *self,
          const Step *step)
{
  DuelRunEtaRange range;

  if (!self->flash || !has_second_pass (step))
    return DUEL_RUN_ETA_RANGE_ONE_PASS;
  if (!step->past_first)
    range = step->first_fell || (probe_informs (self, step) && self->probe_fell)
      ? DUEL_RUN_ETA_RANGE_FIRST_FELL : DUEL_RUN_ETA_RANGE_FIRST_OPEN;
  else
    range = gc_fall_seen (step) ? DUEL_RUN_ETA_RANGE_AFTER_GC : DUEL_RUN_ETA_RANGE_BEFORE_GC;
  if (probe_informs (self, step))
    range += DUEL_RUN_ETA_RANGE_PROBED_FIRST_OPEN - DUEL_RUN_ETA_RANGE_FIRST_OPEN;
  return range;
}

static DuelRunEtaFactors
factors_between (DuelRunEtaFactors a,
                 DuelRunEtaFactors b,
                 double            u)
{
  return (DuelRunEtaFactors) {
    .low = exp ((1 - u) * log (a.low) + u * log (b.low)),
    .high = exp ((1 - u) * log (a.high) + u * log (b.high)),
  };
}

/* The table's cell at @progress, interpolated between its knots in
 * logarithms; the first knot's before it, the last one's after it. */
static DuelRunEtaCell
range_cell (DuelRunEtaRange range,
            double          progress)
{
  const DuelRunEtaCell *row = range_table[range];
  guint k = 0;
  double u;

  if (!(progress > _duel_run_eta_knot (0)))
    return row[0];
  while (k + 1 < DUEL_RUN_ETA_N_KNOTS && _duel_run_eta_knot (k + 1) < progress)
    k++;
  if (k + 1 == DUEL_RUN_ETA_N_KNOTS)
    return row[k];
  u = (progress - _duel_run_eta_knot (k)) / (_duel_run_eta_knot (k + 1) - _duel_run_eta_knot (k));
  return (DuelRunEtaCell) {
    .first = factors_between (row[k].first, row[k + 1].first, u),
    .second = factors_between (row[k].second, row[k + 1].second, u),
    .total = factors_between (row[k].total, row[k + 1].total, u),
  };
}

gboolean
_duel_run_eta_step_view (DuelRunEta         *self,
                         guint               index,
                         DuelRunEtaStepView *out)
{
  const Step *step;

  g_return_val_if_fail (self != NULL && index < self->steps->len, FALSE);
  step = get_step (self, index);
  if (step->state != STEP_RUNNING || step->discard || step->byte_limit == 0 || !isfinite (step->left.middle))
    return FALSE;
  out->range = range_of (self, step);
  out->progress = (double) step->bytes / step->byte_limit;
  out->first_s = step->left.first;
  out->second_s = step->left.second;
  out->first_end_bytes = first_end_bytes (step);
  return TRUE;
}

/* Around @middle by @f: never narrower than the middle itself. */
static void
widen (double            middle,
       DuelRunEtaFactors f,
       double           *out_low,
       double           *out_high)
{
  *out_low = middle * MIN (f.low, 1);
  *out_high = middle * MAX (f.high, 1);
}

/* The time left of @step from its passes' middles at @progress, with its
 * ranges: a size-bounded step's from the table; a timed one ends at its
 * limit, and then the I/O in flight drains and the next step starts (5 to
 * 28 ms in the recorded runs); a discard's guess is taken as it is. */
static void
step_parts (DuelRunEta *self,
            const Step *step,
            double      first_s,
            double      second_s,
            double      progress,
            Parts      *out)
{
  double middle = first_s + second_s;
  DuelRunEtaCell cell;

  if (!isfinite (middle))
    {
      parts_unknown (out);
      return;
    }
  parts_exact (out, middle);
  if (step->discard)
    return;
  if (step->byte_limit == 0)
    {
      out->high = out->first_high = middle + STEP_END_S;
      return;
    }
  cell = range_cell (range_of (self, step), progress);
  widen (middle, cell.total, &out->low, &out->high);
  if (has_second_pass (step))
    {
      out->first = first_s;
      out->second = second_s;
      widen (first_s, cell.first, &out->first_low, &out->first_high);
      widen (second_s, cell.second, &out->second_low, &out->second_high);
    }
  else
    {
      out->first_low = out->low;
      out->first_high = out->high;
    }
}

/* Before the step runs: what is expected of it. */
static void
planned_parts (DuelRunEta *self,
               const Step *step,
               Parts      *out)
{
  double first_s, second_s;

  if (step->byte_limit > 0 && probe_informs (self, step))
    {
      first_s = predict_bytes_s (self, step, 0, 0, NAN, NAN, &second_s);
      if (step->runtime_s > 0 && first_s + second_s > step->runtime_s)
        {
          /* The time limit ends it first. */
          second_s = MAX (step->runtime_s - first_s, 0);
          first_s = MIN (first_s, step->runtime_s);
        }
    }
  else
    {
      first_s = expected_s (self, step);
      second_s = 0;
    }
  step_parts (self, step, first_s, second_s, 0, out);
}

static void
freeze_weights (DuelRunEta *self)
{
  if (self->weights_frozen)
    return;
  for (guint i = 0; i < self->steps->len; i++)
    {
      Step *step = get_step (self, i);
      double weight = expected_s (self, step);

      step->weight_s = isfinite (weight) && weight > 0 ? weight : 0;
    }
  self->weights_frozen = TRUE;
}

/* Memory-backed targets have no flash translation layer: no garbage
 * collection to expect after the first pass of a fill. */
gboolean
duel_run_eta_device_is_flash (JsonObject *device)
{
  const char *transport, *fs;

  if (device == NULL)
    return TRUE;
  transport = duel_json_get_string (device, "transport");
  fs = duel_json_get_string (duel_json_get_object (device, "filesystem"), "type");
  return !(g_strcmp0 (transport, "zram") == 0 || g_strcmp0 (fs, "tmpfs") == 0 || g_strcmp0 (fs, "ramfs") == 0);
}

void
duel_run_eta_step_started (DuelRunEta *self,
                           guint       index,
                           gint64      now_us)
{
  Step *step;

  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->steps->len);

  freeze_weights (self);
  step = get_step (self, index);
  step->state = STEP_RUNNING;
  step->start_us = now_us;
  step->fraction = 0;
  if (step->byte_limit > 0 && !probe_informs (self, step))
    parts_unknown (&step->left);
  else
    planned_parts (self, step, &step->left);
  step->remaining_us = now_us;
}

/* Slides @window's start over the rows it no longer needs: it keeps at
 * least @bytes and recent_min_s(). */
static void
window_slide (Window           *window,
              const DuelSeries *rows,
              guint             n_rows,
              const Step       *step,
              double            bytes)
{
  double min_s = recent_min_s (step);

  while (window->lo < n_rows)
    {
      const DuelSeriesRow *row = duel_series_get_row (rows, window->lo);
      guint64 next_bytes = window->lo_bytes + row->bytes[DUEL_DIRECTION_READ] + row->bytes[DUEL_DIRECTION_WRITE];
      double next_s = row->t_ms / 1e3;

      if (step->bytes < next_bytes + bytes || step->elapsed_s < next_s + min_s)
        break;
      window->lo_bytes = next_bytes;
      window->lo_s = next_s;
      window->lo++;
    }
}

/* Outside [LEVEL_FALL, 1 / LEVEL_FALL] x @level. */
static gboolean
out_of_band (double rate,
             double level)
{
  return rate < LEVEL_FALL * level || rate * LEVEL_FALL > level;
}

/* A new regime starts when the detection window's rate leaves the band
 * around the regime's rate before it and the rate since stays out of it,
 * now and on the whole, while LEVEL_CONFIRM windows more are written: a
 * write cache running out, GC starting, a trim backlog cleared. A slow
 * second on a busy host does not reset what was learnt. */
static void
detect_level_change (Step  *step,
                     guint  n_rows)
{
  double window_bytes = step->bytes - step->detect.lo_bytes;
  double window_s = step->elapsed_s - step->detect.lo_s;
  double now, before;

  if (window_s <= 0)
    return;
  now = window_bytes / window_s;
  if (isfinite (step->drop_before_rate))
    {
      double since_s = step->elapsed_s - step->drop_s;
      double since_bytes = step->bytes - step->drop_bytes;
      double since = since_s > 0 ? since_bytes / since_s : NAN;

      /* Back within the band, now or on the whole since: a dip. */
      if (!out_of_band (now, step->drop_before_rate) ||
          (isfinite (since) && !out_of_band (since, step->drop_before_rate)))
        step->drop_before_rate = NAN;
      else if (since_bytes >= LEVEL_CONFIRM * window_bytes && since_s >= LEVEL_CONFIRM * recent_min_s (step))
        {
          if (since < step->drop_before_rate)
            {
              step->last_fall_bytes = step->drop_bytes;
              step->first_fell |= step->drop_bytes < first_end_bytes (step);
            }
          regime_restart (step, step->drop_row, step->drop_bytes, step->drop_s, since);
        }
      return;
    }
  /* The regime's time before the window, at least a window long. */
  if (step->detect.lo_bytes < step->regime_bytes + window_bytes || step->detect.lo_s <= step->regime_s)
    return;
  before = (step->detect.lo_bytes - step->regime_bytes) / (step->detect.lo_s - step->regime_s);
  if (out_of_band (now, before))
    {
      /* From now: the window still holds the time before the change. */
      step->drop_bytes = step->bytes;
      step->drop_s = step->elapsed_s;
      step->drop_row = n_rows;
      step->drop_before_rate = before;
    }
}

void
duel_run_eta_update (DuelRunEta         *self,
                     guint               index,
                     const DuelProgress *progress,
                     const DuelSeries   *rows,
                     gint64              now_us)
{
  Step *step;
  guint n_rows = 0;
  double fraction = 0;

  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->steps->len);
  g_return_if_fail (progress != NULL);

  step = get_step (self, index);
  if (step->state != STEP_RUNNING)
    return;

  step->elapsed_s = progress->elapsed_ns / 1e9;
  step->bytes = progress->bytes[DUEL_DIRECTION_READ] + progress->bytes[DUEL_DIRECTION_WRITE];
  step->write_bytes = progress->bytes[DUEL_DIRECTION_WRITE];
  if (step->byte_limit > 0)
    fraction = (double) step->bytes / step->byte_limit;
  if (step->runtime_s > 0)
    fraction = MAX (fraction, step->elapsed_s / step->runtime_s);
  step->fraction = MAX (step->fraction, MIN (fraction, 1.0));

  if (rows != NULL)
    {
      double span = step->span_bytes > 0 ? MIN (step->span_bytes, step->byte_limit) : step->byte_limit;

      n_rows = duel_series_get_length (rows);
      window_slide (&step->recent, rows, n_rows, step, RECENT_SPAN_SHARE * span);
      window_slide (&step->detect, rows, n_rows, step, DETECT_SPAN_SHARE * span);
      window_slide (&step->mid, rows, n_rows, step, (step->bytes - step->regime_bytes) / 2.0);
    }
  if (step->elapsed_s > step->recent.lo_s && step->bytes >= step->recent.lo_bytes &&
      (n_rows > 0 || step->elapsed_s >= RATE_MIN_S))
    {
      step->recent_rate = (step->bytes - step->recent.lo_bytes) / (step->elapsed_s - step->recent.lo_s);
      step->regime_rate = (step->bytes - step->regime_bytes) / (step->elapsed_s - step->regime_s);
      if (n_rows > 0)
        detect_level_change (step, n_rows);
    }

  /* Once its recent window is past the probe's bytes the fill has seen all
   * the probe saw, and that window holds nothing of a cache the probe saw
   * run out: its own regime starts there, nothing from before. Sooner when
   * the fill runs well above the probe's end rate for a window's time past
   * those bytes: the probe's fall was a passing dip (a busy host), not a
   * cache running out, and its cap would hold the estimate far too long. */
  if (probe_informs (self, step) && !step->past_probe && n_rows > 0)
    {
      double probe_bytes = self->probe_rate * self->probe_s;
      double window_s = recent_min_s (step);

      if (step->probe_reached_bytes == 0 && step->bytes >= probe_bytes)
        {
          step->probe_reached_bytes = step->bytes;
          step->probe_reached_s = step->elapsed_s;
          step->probe_reached_row = n_rows;
        }
      if (step->recent.lo_bytes >= probe_bytes)
        {
          step->past_probe = TRUE;
          regime_restart (step, step->recent.lo, step->recent.lo_bytes, step->recent.lo_s, step->recent_rate);
        }
      else if (step->probe_reached_bytes > 0 && step->elapsed_s - step->probe_reached_s >= window_s)
        {
          double since = (step->bytes - step->probe_reached_bytes) / (step->elapsed_s - step->probe_reached_s);

          if (since >= PROBE_NOT_SEEN * self->probe_end_rate)
            {
              step->past_probe = TRUE;
              regime_restart (step, step->probe_reached_row, step->probe_reached_bytes, step->probe_reached_s, since);
            }
        }
    }

  if (has_second_pass (step) && isfinite (step->recent_rate))
    {
      if (!step->past_first && step->write_bytes >= step->span_bytes)
        {
          step->past_first = TRUE;
          step->first_rate = step->regime_rate;
        }
      else if (step->past_first && step->recent_rate < (1 - GC_SEEN_DROP) * step->first_rate)
        step->gc_seen = TRUE;
    }

  if (step->byte_limit > 0)
    {
      double second_s;
      double first_s = predict_bytes_s (self, step, step->bytes, step->elapsed_s,
                                        step->regime_rate, step->recent_rate, &second_s);

      step_parts (self, step, first_s, second_s, (double) step->bytes / step->byte_limit, &step->left);
    }
  else
    parts_unknown (&step->left);
  if (step->runtime_s > 0)
    parts_cap (&step->left, MAX (step->runtime_s - step->elapsed_s, 0));
  step->remaining_us = now_us;
}

void
duel_run_eta_step_finished (DuelRunEta *self,
                            guint       index,
                            gint64      now_us)
{
  Step *step;

  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->steps->len);

  freeze_weights (self);
  step = get_step (self, index);
  step->state = STEP_DONE;
  step->fraction = 1;
  parts_exact (&step->left, 0);
  step->remaining_us = now_us;
}

double
duel_run_eta_get_fraction (DuelRunEta *self)
{
  double done = 0, total = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (!self->weights_frozen)
    return 0;
  for (guint i = 0; i < self->steps->len; i++)
    {
      const Step *step = get_step (self, i);

      total += step->weight_s;
      done += step->weight_s * step->fraction;
    }
  if (total <= 0)
    {
      /* No step has an expected duration: count steps. */
      for (guint i = 0; i < self->steps->len; i++)
        done += get_step (self, i)->fraction;
      return self->steps->len > 0 ? done / self->steps->len : 0;
    }
  return CLAMP (done / total, 0, 1);
}

/* Step @index's time left as of @now_us: between updates it runs down with
 * the clock, the first pass's first. FALSE while unknown. */
static gboolean
step_left_now (DuelRunEta *self,
               guint       index,
               gint64      now_us,
               Parts      *out)
{
  const Step *step = get_step (self, index);
  double passed, past_first;

  switch (step->state)
    {
    case STEP_PENDING:
      planned_parts (self, step, out);
      return isfinite (out->middle) && isfinite (out->low) && isfinite (out->high);
    case STEP_RUNNING:
      if (isnan (step->left.middle) || isnan (step->left.low) || isnan (step->left.high))
        return FALSE;
      *out = step->left;
      passed = MAX ((now_us - step->remaining_us) / 1e6, 0);
      past_first = MAX (passed - out->first, 0);
      out->middle = MAX (out->middle - passed, 0);
      out->low = MAX (out->low - passed, 0);
      out->high = MAX (out->high - passed, 0);
      out->first = MAX (out->first - passed, 0);
      out->first_low = MAX (out->first_low - passed, 0);
      out->first_high = MAX (out->first_high - passed, 0);
      out->second = MAX (out->second - past_first, 0);
      out->second_low = MAX (out->second_low - past_first, 0);
      out->second_high = MAX (out->second_high - past_first, 0);
      return TRUE;
    case STEP_DONE:
    default:
      parts_exact (out, 0);
      return TRUE;
    }
}

double
duel_run_eta_get_remaining_s (DuelRunEta *self,
                              gint64      now_us)
{
  double seconds = 0;

  g_return_val_if_fail (self != NULL, NAN);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const Step *step = get_step (self, i);
      Parts left;

      if (step->state == STEP_PENDING && !step->optional)
        seconds += expected_s (self, step);
      else if (step->state == STEP_RUNNING)
        {
          if (isnan (step->left.middle))
            return NAN;
          step_left_now (self, i, now_us, &left);
          seconds += left.middle;
        }
    }
  return seconds;
}

gboolean
duel_run_eta_get_range (DuelRunEta *self,
                        gint64      now_us,
                        double     *out_low_s,
                        double     *out_high_s)
{
  double low = 0, high = 0;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->steps->len; i++)
    {
      Parts left;

      if (!step_left_now (self, i, now_us, &left))
        return FALSE;
      /* A round that may not run counts only at the far end. */
      if (get_step (self, i)->state != STEP_PENDING || !get_step (self, i)->optional)
        low += left.low;
      high += left.high;
    }
  if (!isfinite (low) || !isfinite (high))
    return FALSE;
  if (out_low_s != NULL)
    *out_low_s = low;
  if (out_high_s != NULL)
    *out_high_s = high;
  return TRUE;
}

gboolean
duel_run_eta_get_passes (DuelRunEta       *self,
                         gint64            now_us,
                         DuelRunEtaPasses *out)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const Step *step = get_step (self, i);
      DuelRunEtaRange range;
      Parts left;

      if (step->state != STEP_RUNNING)
        continue;
      if (!self->flash || !has_second_pass (step) || !step_left_now (self, i, now_us, &left))
        return FALSE;
      range = range_of (self, step);
      *out = (DuelRunEtaPasses) {
        .first_s = left.first,
        .first_low_s = left.first_low,
        .first_high_s = left.first_high,
        .second_s = left.second,
        .second_low_s = left.second_low,
        .second_high_s = left.second_high,
        .in_second = step->past_first,
        .first_open = range == DUEL_RUN_ETA_RANGE_FIRST_OPEN || range == DUEL_RUN_ETA_RANGE_PROBED_FIRST_OPEN,
        .gc_pending = !gc_fall_seen (step),
      };
      return TRUE;
    }
  return FALSE;
}
