/* duel-histogram.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "duel-histogram.h"

#define LINEAR_LIMIT (2u * DUEL_HISTOGRAM_SUB_COUNT)   /* values below this are exact */

void
duel_histogram_init (DuelHistogram *hist)
{
  g_return_if_fail (hist != NULL);

  memset (hist, 0, sizeof *hist);
}

guint
duel_histogram_bucket_index (guint64 value_ns)
{
  guint msb, shift, sub;

  if (value_ns < LINEAR_LIMIT)
    return (guint) value_ns;

  msb = 63 - __builtin_clzll (value_ns);
  if (msb > DUEL_HISTOGRAM_MAX_MSB)
    return DUEL_HISTOGRAM_N_BUCKETS - 1;

  shift = msb - DUEL_HISTOGRAM_SUB_BITS;
  sub = (guint) (value_ns >> shift) & (DUEL_HISTOGRAM_SUB_COUNT - 1);
  return LINEAR_LIMIT + (msb - DUEL_HISTOGRAM_SUB_BITS - 1) * DUEL_HISTOGRAM_SUB_COUNT + sub;
}

guint64
duel_histogram_bucket_lower_ns (guint index)
{
  guint group, sub, msb;

  g_return_val_if_fail (index < DUEL_HISTOGRAM_N_BUCKETS, 0);

  if (index < LINEAR_LIMIT)
    return index;

  group = (index - LINEAR_LIMIT) / DUEL_HISTOGRAM_SUB_COUNT;
  sub = (index - LINEAR_LIMIT) % DUEL_HISTOGRAM_SUB_COUNT;
  msb = group + DUEL_HISTOGRAM_SUB_BITS + 1;
  return ((guint64) (DUEL_HISTOGRAM_SUB_COUNT + sub)) << (msb - DUEL_HISTOGRAM_SUB_BITS);
}

guint64
duel_histogram_bucket_upper_ns (guint index)
{
  g_return_val_if_fail (index < DUEL_HISTOGRAM_N_BUCKETS, 0);

  /* Exclusive upper bound. */
  if (index < LINEAR_LIMIT)
    return (guint64) index + 1;
  if (index == DUEL_HISTOGRAM_N_BUCKETS - 1)
    return G_GUINT64_CONSTANT (1) << (DUEL_HISTOGRAM_MAX_MSB + 1);
  return duel_histogram_bucket_lower_ns (index + 1);
}

guint64
duel_histogram_bucket_midpoint_ns (guint index)
{
  guint64 lower, upper;

  g_return_val_if_fail (index < DUEL_HISTOGRAM_N_BUCKETS, 0);

  if (index < LINEAR_LIMIT)
    return index;

  lower = duel_histogram_bucket_lower_ns (index);
  upper = duel_histogram_bucket_upper_ns (index);
  return lower + (upper - lower) / 2;
}

void
duel_histogram_add_bucket (DuelHistogram *hist,
                           guint          index,
                           guint64        count)
{
  guint64 mid;

  g_return_if_fail (hist != NULL);
  g_return_if_fail (index < DUEL_HISTOGRAM_N_BUCKETS);

  if (count == 0)
    return;

  /* Used when rebuilding from stored bins: min/max/sum come from the file,
   * this keeps them plausible when only bins are known. */
  mid = duel_histogram_bucket_midpoint_ns (index);
  if (hist->count == 0 || mid < hist->min_ns)
    hist->min_ns = mid;
  if (mid > hist->max_ns)
    hist->max_ns = mid;
  hist->buckets[index] += count;
  hist->count += count;
  hist->sum_ns += mid * count;
  hist->sum_sq_ns += (double) mid * (double) mid * (double) count;
}

void
duel_histogram_merge (DuelHistogram       *into,
                      const DuelHistogram *from)
{
  g_return_if_fail (into != NULL);
  g_return_if_fail (from != NULL);

  if (from->count == 0)
    return;

  if (into->count == 0 || from->min_ns < into->min_ns)
    into->min_ns = from->min_ns;
  if (from->max_ns > into->max_ns)
    into->max_ns = from->max_ns;
  into->count += from->count;
  into->sum_ns += from->sum_ns;
  into->sum_sq_ns += from->sum_sq_ns;
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    into->buckets[i] += from->buckets[i];
}

double
duel_histogram_mean_ns (const DuelHistogram *hist)
{
  g_return_val_if_fail (hist != NULL, 0);

  if (hist->count == 0)
    return 0;
  return (double) hist->sum_ns / (double) hist->count;
}

double
duel_histogram_stddev_ns (const DuelHistogram *hist)
{
  double mean, variance;

  g_return_val_if_fail (hist != NULL, 0);

  if (hist->count < 2)
    return 0;
  mean = duel_histogram_mean_ns (hist);
  variance = (hist->sum_sq_ns - (double) hist->count * mean * mean) / (double) (hist->count - 1);
  return variance > 0 ? sqrt (variance) : 0;
}

/* fio's calc_clat_percentiles(): the first bucket whose cumulative count
 * reaches p/100 * N, reported as its midpoint; clamped to the observed
 * extremes so a percentile never lies outside [min, max]. */
guint64
duel_histogram_percentile_ns (const DuelHistogram *hist,
                              double               percentile)
{
  guint64 wanted, seen = 0;
  guint64 value;

  g_return_val_if_fail (hist != NULL, 0);
  g_return_val_if_fail (percentile >= 0 && percentile <= 100, 0);

  if (hist->count == 0)
    return 0;

  /* The epsilon keeps 99.9 % of 1000 at rank 999 despite rounding. */
  wanted = (guint64) ceil (percentile * (double) hist->count / 100.0 - 1e-9);
  if (wanted == 0)
    wanted = 1;

  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      seen += hist->buckets[i];
      if (seen >= wanted)
        {
          value = duel_histogram_bucket_midpoint_ns (i);
          return CLAMP (value, hist->min_ns, hist->max_ns);
        }
    }

  return hist->max_ns;
}

/* The smallest sample count for which percentile p is more than the single
 * largest sample: 99.99 % needs 10^4 samples, 99.999 % needs 10^5. */
guint64
duel_histogram_min_samples_for (double percentile)
{
  double tail = 1.0 - percentile / 100.0;

  if (tail <= 0)
    return G_MAXUINT64;
  return (guint64) ceil (1.0 / tail - 1e-9);
}
