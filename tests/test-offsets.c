/* test-offsets.c — the offset generator: alignment, span, uniformity, wrap, mix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <math.h>

#include "engine/duel-offsets.h"

#define N_BINS 64

/* Chi-square with 63 degrees of freedom: the 0.1 % and 99.9 % quantiles
 * (tables: 33.8 and 103.4; Wilson–Hilferty gives the same to 0.1). A uniform
 * generator lands between them 99.8 % of the time; the seed is fixed, so the
 * test is deterministic and fails only when the generator changes for the
 * worse. Too small a value fails too: it would mean the offsets are not
 * random but spread evenly on purpose. */
#define CHI2_63_P001 33.8
#define CHI2_63_P999 103.4

static void
test_offsets_aligned_in_span (void)
{
  const guint32 bs = 8192;
  const guint64 span_offset = 3 * 1024 * 1024;
  const guint64 span_length = 1000 * (guint64) bs;
  DuelOffsets offsets;
  guint64 lowest = G_MAXUINT64, highest = 0;

  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, span_offset, span_length, bs, 100, 42);
  for (guint i = 0; i < 100000; i++)
    {
      guint64 offset = duel_offsets_next (&offsets);

      g_assert_cmpuint (offset % bs, ==, 0);
      g_assert_cmpuint (offset, >=, span_offset);
      g_assert_cmpuint (offset + bs, <=, span_offset + span_length);
      lowest = MIN (lowest, offset);
      highest = MAX (highest, offset);
    }
  /* 100 draws per block on average: both ends are reached. */
  g_assert_cmpuint (lowest, ==, span_offset);
  g_assert_cmpuint (highest, ==, span_offset + span_length - bs);
}

static void
test_offsets_large_span (void)
{
  /* 1 PiB in 4 KiB blocks: 2^38 blocks, beyond 32-bit arithmetic. */
  const guint64 span_length = G_GUINT64_CONSTANT (1) << 50;
  DuelOffsets offsets;
  guint high_half = 0;

  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, span_length, 4096, 100, 7);
  for (guint i = 0; i < 10000; i++)
    {
      guint64 offset = duel_offsets_next (&offsets);

      g_assert_cmpuint (offset % 4096, ==, 0);
      g_assert_cmpuint (offset, <, span_length);
      if (offset >= span_length / 2)
        high_half++;
    }
  g_assert_cmpuint (high_half, >, 4700);
  g_assert_cmpuint (high_half, <, 5300);
}

static double
chi_square (const guint64 *observed,
            guint          n_bins,
            double         expected)
{
  double sum = 0.0;

  for (guint i = 0; i < n_bins; i++)
    {
      double d = (double) observed[i] - expected;
      sum += d * d / expected;
    }
  return sum;
}

static void
test_offsets_uniform (void)
{
  /* 6400 blocks, not a power of two, so a modulo bias would show. */
  const guint64 n_blocks = 6400;
  const guint n_samples = 640000;
  guint64 seeds[] = { 1, 0x5eed, G_GUINT64_CONSTANT (0xdeadbeefcafe) };

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      DuelOffsets offsets;
      guint64 bins[N_BINS] = { 0 };
      double x2;

      duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_blocks * 4096, 4096, 100, seeds[s]);
      for (guint i = 0; i < n_samples; i++)
        {
          guint64 block = duel_offsets_next (&offsets) / 4096;
          bins[block * N_BINS / n_blocks]++;
        }
      x2 = chi_square (bins, N_BINS, (double) n_samples / N_BINS);
      g_test_message ("seed %" G_GUINT64_FORMAT ": chi-square %.1f (63 degrees of freedom)", seeds[s], x2);
      g_assert_cmpfloat (x2, >, CHI2_63_P001);
      g_assert_cmpfloat (x2, <, CHI2_63_P999);
    }
}

static void
test_offsets_uniform_detects_bias (void)
{
  /* The test above must be able to fail: a generator that favours the
   * first half of the span slightly (one draw in 50 redrawn into the first
   * half) is rejected by the same statistic. */
  const guint64 n_blocks = 6400;
  const guint n_samples = 640000;
  DuelOffsets offsets;
  guint64 bins[N_BINS] = { 0 };

  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_blocks * 4096, 4096, 100, 1);
  for (guint i = 0; i < n_samples; i++)
    {
      guint64 block = duel_offsets_next (&offsets) / 4096;
      if (i % 50 == 0)
        block = block % (n_blocks / 2);
      bins[block * N_BINS / n_blocks]++;
    }
  g_assert_cmpfloat (chi_square (bins, N_BINS, (double) n_samples / N_BINS), >, CHI2_63_P999);
}

static void
test_offsets_sequential_wraps (void)
{
  const guint32 bs = 4096;
  const guint64 span_offset = 1024 * 1024;
  DuelOffsets offsets;

  /* 10 whole blocks; the tail shorter than a block is never touched. */
  duel_offsets_init (&offsets, DUEL_PATTERN_SEQUENTIAL, span_offset, 10 * bs + 100, bs, 100, 1);
  for (guint i = 0; i < 35; i++)
    g_assert_cmpuint (duel_offsets_next (&offsets), ==, span_offset + (i % 10) * (guint64) bs);
}

static void
test_offsets_read_share (void)
{
  guint percents[] = { 0, 1, 30, 50, 70, 99, 100 };

  for (guint p = 0; p < G_N_ELEMENTS (percents); p++)
    {
      DuelOffsets offsets;
      const guint n = 200000;
      guint reads = 0;
      double share;

      duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, 1 << 20, 4096, percents[p], 99);
      for (guint i = 0; i < n; i++)
        reads += duel_offsets_next_is_read (&offsets) ? 1 : 0;
      share = 100.0 * reads / n;
      /* The binomial standard deviation is at most 0.11 points here; half a
       * point is more than four of them. */
      g_assert_cmpfloat (fabs (share - percents[p]), <, 0.5);
      if (percents[p] == 0)
        g_assert_cmpuint (reads, ==, 0);
      if (percents[p] == 100)
        g_assert_cmpuint (reads, ==, n);
    }
}

static void
test_offsets_reproducible (void)
{
  DuelOffsets a, b, c, mixed;
  gboolean differs = FALSE;

  duel_offsets_init (&a, DUEL_PATTERN_RANDOM, 0, 1 << 30, 4096, 50, 1234);
  duel_offsets_init (&b, DUEL_PATTERN_RANDOM, 0, 1 << 30, 4096, 50, 1234);
  duel_offsets_init (&c, DUEL_PATTERN_RANDOM, 0, 1 << 30, 4096, 50, 1235);
  /* The mix has its own generator: changing it leaves the offsets alone. */
  duel_offsets_init (&mixed, DUEL_PATTERN_RANDOM, 0, 1 << 30, 4096, 100, 1234);

  for (guint i = 0; i < 10000; i++)
    {
      guint64 oa = duel_offsets_next (&a);

      g_assert_cmpuint (oa, ==, duel_offsets_next (&b));
      g_assert_cmpint (duel_offsets_next_is_read (&a), ==, duel_offsets_next_is_read (&b));
      g_assert_cmpuint (oa, ==, duel_offsets_next (&mixed));
      duel_offsets_next_is_read (&mixed);
      if (oa != duel_offsets_next (&c))
        differs = TRUE;
    }
  g_assert_true (differs);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/offsets/aligned-in-span", test_offsets_aligned_in_span);
  g_test_add_func ("/duel/offsets/large-span", test_offsets_large_span);
  g_test_add_func ("/duel/offsets/uniform", test_offsets_uniform);
  g_test_add_func ("/duel/offsets/uniform-detects-bias", test_offsets_uniform_detects_bias);
  g_test_add_func ("/duel/offsets/sequential-wraps", test_offsets_sequential_wraps);
  g_test_add_func ("/duel/offsets/read-share", test_offsets_read_share);
  g_test_add_func ("/duel/offsets/reproducible", test_offsets_reproducible);

  return g_test_run ();
}
