/* duel-histogram.h — constant-memory log-linear latency histogram
 *
 * The layout is fio's (stat.h): values below 128 ns have a bucket each; above,
 * a value is grouped by its most significant bit and the next 6 bits pick one
 * of 64 sub-buckets, so a bucket's midpoint is within 1/128 (0.78 %) of any
 * value in it. Because the layout matches fio's, fio's json+ bins map onto it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DUEL_HISTOGRAM_SUB_BITS 6
#define DUEL_HISTOGRAM_SUB_COUNT (1u << DUEL_HISTOGRAM_SUB_BITS)
/* Groups up to a most significant bit of 44: 2^45 ns is almost 10 hours. */
#define DUEL_HISTOGRAM_MAX_MSB 44
#define DUEL_HISTOGRAM_N_BUCKETS \
  (2 * DUEL_HISTOGRAM_SUB_COUNT + (DUEL_HISTOGRAM_MAX_MSB - DUEL_HISTOGRAM_SUB_BITS) * DUEL_HISTOGRAM_SUB_COUNT)

typedef struct
{
  guint64 count;
  guint64 min_ns;
  guint64 max_ns;
  guint64 sum_ns;
  double  sum_sq_ns;       /* for the standard deviation */
  guint64 buckets[DUEL_HISTOGRAM_N_BUCKETS];
} DuelHistogram;

void     duel_histogram_init               (DuelHistogram       *hist);
void     duel_histogram_merge              (DuelHistogram       *into,
                                            const DuelHistogram *from);
double   duel_histogram_mean_ns            (const DuelHistogram *hist);
double   duel_histogram_stddev_ns          (const DuelHistogram *hist);
guint64  duel_histogram_percentile_ns      (const DuelHistogram *hist,
                                            double               percentile);
guint    duel_histogram_bucket_index       (guint64              value_ns);
guint64  duel_histogram_bucket_lower_ns    (guint                index);
guint64  duel_histogram_bucket_upper_ns    (guint                index);
guint64  duel_histogram_bucket_midpoint_ns (guint                index);
void     duel_histogram_add_bucket         (DuelHistogram       *hist,
                                            guint                index,
                                            guint64              count);
guint64  duel_histogram_min_samples_for    (double               percentile);

/* The hot path: one sample. Inline because the engine calls it per I/O. */
static inline void
duel_histogram_add (DuelHistogram *hist,
                    guint64        value_ns)
{
  hist->buckets[duel_histogram_bucket_index (value_ns)]++;
  if (G_UNLIKELY (hist->count == 0 || value_ns < hist->min_ns))
    hist->min_ns = value_ns;
  if (value_ns > hist->max_ns)
    hist->max_ns = value_ns;
  hist->count++;
  hist->sum_ns += value_ns;
  hist->sum_sq_ns += (double) value_ns * (double) value_ns;
}

G_END_DECLS
