/* test-histogram.c — the log-linear latency histogram against brute force
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "engine/duel-histogram.h"

#define LAST_BUCKET (DUEL_HISTOGRAM_N_BUCKETS - 1)
#define RANGE_END (G_GUINT64_CONSTANT (1) << (DUEL_HISTOGRAM_MAX_MSB + 1))

/* Latencies spread over six decades, clustered like a real drive's: a
 * log-normal body around 20 µs, a slower mode and rare very slow outliers. */
static guint64
random_latency (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-12, 1.0);
  double u2 = g_rand_double (rand);
  double z = sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
  double kind = g_rand_double (rand);
  double log10_ns;

  if (kind < 0.90)
    log10_ns = 4.3 + 0.35 * z;
  else if (kind < 0.995)
    log10_ns = 5.5 + 0.5 * z;
  else
    log10_ns = g_rand_double_range (rand, 1.5, 7.8);
  log10_ns = CLAMP (log10_ns, 1.5, 7.9);
  return (guint64) llround (pow (10.0, log10_ns));
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The exact p-th percentile by rank ceil(p/100 · n), p in thousandths. */
static guint64
brute_percentile (const guint64 *sorted,
                  guint          n,
                  guint          p_thousandths)
{
  guint64 rank = ((guint64) p_thousandths * n + 99999) / 100000;

  if (rank == 0)
    rank = 1;
  return sorted[rank - 1];
}

static void
test_percentiles_vs_sort (void)
{
  static const guint32 seeds[] = { 1, 42, 1234567, 0xdeadbeef, 987654321 };
  static const guint percentiles[] = { 50000, 90000, 99000, 99900, 99990, 99999 };
  const guint n = 300000;

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[s]);
      g_autofree guint64 *samples = g_new (guint64, n);
      g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);

      duel_histogram_init (hist);
      for (guint i = 0; i < n; i++)
        {
          samples[i] = random_latency (rand);
          duel_histogram_add (hist, samples[i]);
        }
      qsort (samples, n, sizeof *samples, compare_u64);

      for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
        {
          double p = percentiles[i] / 1000.0;
          guint64 exact = brute_percentile (samples, n, percentiles[i]);
          guint64 approx = duel_histogram_percentile_ns (hist, p);
          double error = fabs ((double) approx - (double) exact) / (double) exact;

          if (error >= 0.01)
            g_test_message ("seed %u p%.3f: exact %" G_GUINT64_FORMAT " histogram %" G_GUINT64_FORMAT,
                            seeds[s], p, exact, approx);
          g_assert_cmpfloat (error, <, 0.01);
          /* The bucket reported is the one that holds the exact sample. */
          g_assert_cmpuint (duel_histogram_bucket_index (approx), ==,
                            duel_histogram_bucket_index (exact));
        }

      /* The extremes: the buckets of the smallest and largest sample,
       * clamped so they never lie outside the observed range. */
      g_assert_cmpuint (duel_histogram_bucket_index (duel_histogram_percentile_ns (hist, 100)), ==,
                        duel_histogram_bucket_index (samples[n - 1]));
      g_assert_cmpuint (duel_histogram_percentile_ns (hist, 100), <=, samples[n - 1]);
      g_assert_cmpuint (duel_histogram_bucket_index (duel_histogram_percentile_ns (hist, 0)), ==,
                        duel_histogram_bucket_index (samples[0]));
      g_assert_cmpuint (duel_histogram_percentile_ns (hist, 0), >=, samples[0]);
    }
}

static void
test_percentile_edges (void)
{
  g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);

  duel_histogram_init (hist);
  g_assert_cmpuint (duel_histogram_percentile_ns (hist, 50), ==, 0);
  g_assert_cmpfloat (duel_histogram_mean_ns (hist), ==, 0);
  g_assert_cmpfloat (duel_histogram_stddev_ns (hist), ==, 0);

  /* One sample: every percentile is that sample, clamped from the midpoint. */
  duel_histogram_add (hist, 1000003);
  for (double p = 0; p <= 100; p += 12.5)
    g_assert_cmpuint (duel_histogram_percentile_ns (hist, p), ==, 1000003);
  g_assert_cmpfloat (duel_histogram_stddev_ns (hist), ==, 0);

  /* 1000 samples 1..1000: p99.9 is rank 999 despite floating point. */
  duel_histogram_init (hist);
  for (guint64 v = 1; v <= 1000; v++)
    duel_histogram_add (hist, v);
  g_assert_cmpuint (duel_histogram_bucket_index (duel_histogram_percentile_ns (hist, 99.9)), ==,
                    duel_histogram_bucket_index (999));
  g_assert_cmpuint (duel_histogram_percentile_ns (hist, 10), ==, 100);  /* exact below 128 */
  g_assert_cmpuint (duel_histogram_percentile_ns (hist, 100), ==, 1000);
}

static void
test_bucket_invariants (void)
{
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      guint64 lower = duel_histogram_bucket_lower_ns (i);
      guint64 upper = duel_histogram_bucket_upper_ns (i);
      guint64 mid = duel_histogram_bucket_midpoint_ns (i);

      g_assert_cmpuint (lower, <, upper);
      g_assert_cmpuint (duel_histogram_bucket_index (lower), ==, i);
      g_assert_cmpuint (duel_histogram_bucket_index (upper - 1), ==, i);
      g_assert_cmpuint (mid, >=, lower);
      g_assert_cmpuint (mid, <, upper);
      if (i + 1 < DUEL_HISTOGRAM_N_BUCKETS)
        {
          g_assert_cmpuint (duel_histogram_bucket_lower_ns (i + 1), ==, upper);
          g_assert_cmpuint (duel_histogram_bucket_index (upper), ==, i + 1);
        }
      if (i < 128)
        {
          g_assert_cmpuint (lower, ==, i);
          g_assert_cmpuint (upper, ==, i + 1);
          g_assert_cmpuint (mid, ==, i);
        }
      else
        {
          /* 64 sub-buckets per power of two: width <= lower/64, so the
           * midpoint is within 1/128 of anything in the bucket. */
          g_assert_cmpuint ((upper - lower) * 64, <=, lower);
          g_assert_cmpfloat ((double) (upper - mid) / (double) upper, <=, 1.0 / 128);
          g_assert_cmpfloat ((double) (mid - lower) / (double) lower, <=, 1.0 / 128);
        }
    }

  g_assert_cmpuint (duel_histogram_bucket_upper_ns (LAST_BUCKET), ==, RANGE_END);
}

static void
test_bucket_random_values (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint64 v = 0; v < 128; v++)
    {
      g_assert_cmpuint (duel_histogram_bucket_index (v), ==, v);
      g_assert_cmpuint (duel_histogram_bucket_midpoint_ns (duel_histogram_bucket_index (v)), ==, v);
    }

  for (guint i = 0; i < 200000; i++)
    {
      /* Uniform in the exponent, so every group is hit. */
      guint bits = g_rand_int_range (rand, 1, DUEL_HISTOGRAM_MAX_MSB + 2);
      guint64 v = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> (64 - bits);
      guint index = duel_histogram_bucket_index (v);

      g_assert_cmpuint (v, <, RANGE_END);
      g_assert_cmpuint (index, <, DUEL_HISTOGRAM_N_BUCKETS);
      g_assert_cmpuint (duel_histogram_bucket_lower_ns (index), <=, v);
      g_assert_cmpuint (v, <, duel_histogram_bucket_upper_ns (index));
    }

  /* Beyond the range: everything lands in the last bucket. */
  g_assert_cmpuint (duel_histogram_bucket_index (RANGE_END - 1), ==, LAST_BUCKET);
  g_assert_cmpuint (duel_histogram_bucket_index (RANGE_END), ==, LAST_BUCKET);
  g_assert_cmpuint (duel_histogram_bucket_index (RANGE_END * 1000), ==, LAST_BUCKET);
  g_assert_cmpuint (duel_histogram_bucket_index (G_MAXUINT64), ==, LAST_BUCKET);
}

static void
test_huge_values (void)
{
  g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);

  duel_histogram_init (hist);
  duel_histogram_add (hist, RANGE_END * 4);
  duel_histogram_add (hist, 100);
  g_assert_cmpuint (hist->buckets[LAST_BUCKET], ==, 1);
  g_assert_cmpuint (hist->buckets[100], ==, 1);
  g_assert_cmpuint (hist->max_ns, ==, RANGE_END * 4);
  /* The percentile of a clamped sample is its bucket's midpoint, never
   * more than the true maximum. */
  g_assert_cmpuint (duel_histogram_percentile_ns (hist, 100), ==,
                    duel_histogram_bucket_midpoint_ns (LAST_BUCKET));
}

static void
fill_random (DuelHistogram *hist,
             GRand         *rand,
             guint          n,
             guint64       *out_samples)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 v = random_latency (rand);

      duel_histogram_add (hist, v);
      if (out_samples)
        out_samples[i] = v;
    }
}

static void
test_merge (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  g_autofree DuelHistogram *a = g_new0 (DuelHistogram, 1);
  g_autofree DuelHistogram *b = g_new0 (DuelHistogram, 1);
  g_autofree DuelHistogram *all = g_new0 (DuelHistogram, 1);
  g_autofree DuelHistogram *empty = g_new0 (DuelHistogram, 1);
  g_autofree DuelHistogram *copy = g_new0 (DuelHistogram, 1);
  g_autofree guint64 *samples = g_new (guint64, 30000);

  duel_histogram_init (a);
  duel_histogram_init (b);
  duel_histogram_init (all);
  duel_histogram_init (empty);

  fill_random (a, rand, 10000, samples);
  fill_random (b, rand, 20000, samples + 10000);
  /* Make b hold both the smallest and the largest sample. */
  duel_histogram_add (b, 1);
  duel_histogram_add (b, 90000000);
  for (guint i = 0; i < 30000; i++)
    duel_histogram_add (all, samples[i]);
  duel_histogram_add (all, 1);
  duel_histogram_add (all, 90000000);

  duel_histogram_merge (a, b);
  g_assert_cmpuint (a->count, ==, all->count);
  g_assert_cmpuint (a->min_ns, ==, 1);
  g_assert_cmpuint (a->max_ns, ==, 90000000);
  g_assert_cmpuint (a->sum_ns, ==, all->sum_ns);
  g_assert_cmpfloat_with_epsilon (a->sum_sq_ns, all->sum_sq_ns, all->sum_sq_ns * 1e-12);
  g_assert_cmpmem (a->buckets, sizeof a->buckets, all->buckets, sizeof all->buckets);

  /* Merging an empty histogram changes nothing; into an empty one copies. */
  memcpy (copy, a, sizeof *a);
  duel_histogram_merge (a, empty);
  g_assert_cmpmem (a, sizeof *a, copy, sizeof *copy);
  duel_histogram_merge (empty, a);
  g_assert_cmpmem (empty, sizeof *empty, a, sizeof *a);
}

static void
test_moments (void)
{
  static const guint32 seeds[] = { 3, 17, 2024 };

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[s]);
      g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);
      const guint n = 50000;
      g_autofree guint64 *samples = g_new (guint64, n);
      guint64 min = G_MAXUINT64, max = 0;
      double mean = 0, m2 = 0;

      duel_histogram_init (hist);
      fill_random (hist, rand, n, samples);

      /* Two-pass reference, independent of the sum-of-squares shortcut. */
      for (guint i = 0; i < n; i++)
        {
          mean += (double) samples[i];
          min = MIN (min, samples[i]);
          max = MAX (max, samples[i]);
        }
      mean /= n;
      for (guint i = 0; i < n; i++)
        m2 += ((double) samples[i] - mean) * ((double) samples[i] - mean);

      g_assert_cmpuint (hist->count, ==, n);
      g_assert_cmpuint (hist->min_ns, ==, min);
      g_assert_cmpuint (hist->max_ns, ==, max);
      g_assert_cmpfloat_with_epsilon (duel_histogram_mean_ns (hist), mean, mean * 1e-12);
      g_assert_cmpfloat_with_epsilon (duel_histogram_stddev_ns (hist), sqrt (m2 / (n - 1)),
                                      sqrt (m2 / (n - 1)) * 1e-6);
    }
}

static void
test_add_bucket (void)
{
  g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);
  guint index = duel_histogram_bucket_index (50000);
  guint64 mid = duel_histogram_bucket_midpoint_ns (index);

  duel_histogram_init (hist);
  duel_histogram_add_bucket (hist, index, 0);
  g_assert_cmpuint (hist->count, ==, 0);
  duel_histogram_add_bucket (hist, index, 10);
  duel_histogram_add_bucket (hist, 5, 2);
  g_assert_cmpuint (hist->count, ==, 12);
  g_assert_cmpuint (hist->buckets[index], ==, 10);
  g_assert_cmpuint (hist->min_ns, ==, 5);
  g_assert_cmpuint (hist->max_ns, ==, mid);
  g_assert_cmpuint (hist->sum_ns, ==, mid * 10 + 10);
  g_assert_cmpuint (duel_histogram_percentile_ns (hist, 50), ==, mid);
}

static void
test_min_samples_for (void)
{
  g_assert_cmpuint (duel_histogram_min_samples_for (0), ==, 1);
  g_assert_cmpuint (duel_histogram_min_samples_for (50), ==, 2);
  g_assert_cmpuint (duel_histogram_min_samples_for (90), ==, 10);
  g_assert_cmpuint (duel_histogram_min_samples_for (99), ==, 100);
  g_assert_cmpuint (duel_histogram_min_samples_for (99.9), ==, 1000);
  g_assert_cmpuint (duel_histogram_min_samples_for (99.99), ==, 10000);
  g_assert_cmpuint (duel_histogram_min_samples_for (99.999), ==, 100000);
  g_assert_cmpuint (duel_histogram_min_samples_for (99.9999), ==, 1000000);
  g_assert_cmpuint (duel_histogram_min_samples_for (100), ==, G_MAXUINT64);

  /* With exactly that many samples the percentile is not the maximum. */
  {
    g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);
    guint64 n = duel_histogram_min_samples_for (99.9);

    duel_histogram_init (hist);
    for (guint64 i = 0; i < n - 1; i++)
      duel_histogram_add (hist, 1000);
    duel_histogram_add (hist, 5000000);
    g_assert_cmpuint (duel_histogram_percentile_ns (hist, 99.9), <, hist->max_ns);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/histogram/percentiles-vs-sort", test_percentiles_vs_sort);
  g_test_add_func ("/duel/histogram/percentile-edges", test_percentile_edges);
  g_test_add_func ("/duel/histogram/bucket-invariants", test_bucket_invariants);
  g_test_add_func ("/duel/histogram/bucket-random-values", test_bucket_random_values);
  g_test_add_func ("/duel/histogram/huge-values", test_huge_values);
  g_test_add_func ("/duel/histogram/merge", test_merge);
  g_test_add_func ("/duel/histogram/moments", test_moments);
  g_test_add_func ("/duel/histogram/add-bucket", test_add_bucket);
  g_test_add_func ("/duel/histogram/min-samples-for", test_min_samples_for);

  return g_test_run ();
}
