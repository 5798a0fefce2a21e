/* long-records.h — records of long runs, made as a run would leave them
 *
 * What tests/bench/make-long-result writes and tests/test-analysis-memory.c
 * loads and analyses, at any number of rows (a fixed seed: the same record
 * every time):
 *
 *  - mix: a 4 KiB random mix at 1 s rows (rates that vary, a temperature
 *    in four rows of five, a few latencies per row in the histograms), no
 *    preset;
 *  - fill: the write-saturation preset's fill at 100 ms rows to 2x a span
 *    sized so that it takes the rows asked for (a 16 TB drive at 10^7): a
 *    write cache that runs out at 10 %, a cliff at 70 %, a plateau after,
 *    each level with noise;
 *  - consistency: the consistency preset's 50/50 mix at 1 s rows, a slow
 *    interval in a hundred.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "engine/duel-test-record.h"

/* The target's size the mix and consistency records span (1 TB). */
#define LONG_RECORD_TARGET_BYTES G_GUINT64_CONSTANT (1000204886016)

static inline void
long_record_add_latencies (DuelTestRecord *record,
                           GRand          *rand,
                           DuelSeriesRow  *row,
                           DuelDirection   d)
{
  for (guint k = 0; k < 4; k++)
    {
      guint64 lat = (guint64) (20000 * exp (g_rand_double_range (rand, 0, 5)));

      duel_histogram_add (record->latency[d], lat);
      row->lat_max_ns[d] = MAX (row->lat_max_ns[d], lat);
    }
}

static inline DuelTestRecord *
long_record_mix (guint64  rows,
                 GRand   *rand)
{
  DuelTestRecord *record;
  DuelWorkload workload;

  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randrw", NULL);
  workload.interval_ms = 1000;
  workload.queue_depth = 32;
  workload.runtime_ms = rows * 1000;
  record = duel_test_record_new ("randrw-qd32", &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = LONG_RECORD_TARGET_BYTES;
  record->runtime_ns = rows * G_GUINT64_CONSTANT (1000000000);
  duel_series_reserve (record->series, rows);
  for (guint64 i = 0; i < rows; i++)
    {
      DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = i % 5 ? 41.5 + (i % 7) * 0.5 : NAN };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = 150000 + g_rand_int_range (rand, 0, 50000);
          row.bytes[d] = row.ops[d] * 4096;
          long_record_add_latencies (record, rand, &row, d);
        }
      duel_series_append (record->series, &row);
    }
  return record;
}

static inline DuelTestRecord *
long_record_consistency (guint64  rows,
                         GRand   *rand)
{
  DuelTestRecord *record;
  DuelWorkload workload;

  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randrw", NULL);
  workload.read_percent = 50;
  workload.interval_ms = 1000;
  workload.queue_depth = 32;
  workload.runtime_ms = rows * 1000;
  record = duel_test_record_new ("consistency", &workload);
  record->preset = g_strdup ("consistency");
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = LONG_RECORD_TARGET_BYTES;
  record->runtime_ns = rows * G_GUINT64_CONSTANT (1000000000);
  duel_series_reserve (record->series, rows);
  for (guint64 i = 0; i < rows; i++)
    {
      /* Mostly one level, a slow interval now and then. */
      guint64 level = g_rand_int_range (rand, 0, 100) == 0 ? 20000 : 60000;
      DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = NAN };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = level + g_rand_int_range (rand, 0, 5000);
          row.bytes[d] = row.ops[d] * 4096;
          long_record_add_latencies (record, rand, &row, d);
        }
      duel_series_append (record->series, &row);
    }
  return record;
}

/* Writes a row, at 100 ms, by the fill's phase: 80 000 IOPS into the
 * cache (10 % of the span), 30 000 to the cliff at 70 %, 5 000 after. */
static inline double
long_record_fill_iops (double pct)
{
  return pct < 10 ? 80000 : pct < 70 ? 30000 : 5000;
}

static inline DuelTestRecord *
long_record_fill (guint64  rows,
                  GRand   *rand)
{
  DuelTestRecord *record;
  DuelWorkload workload;
  /* Rows a percent of the span takes at each level, summed over 0–200 %. */
  double rows_per_span = 10 / (80000 * 0.1) + 60 / (30000 * 0.1) + 130 / (5000 * 0.1);
  guint64 span_ops = (guint64) (rows / rows_per_span * 100), written = 0;
  guint64 i = 0;

  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randwrite", NULL);
  workload.interval_ms = 100;
  workload.queue_depth = 32;
  workload.size_multiple = 2;
  workload.span_length = span_ops * 4096;
  record = duel_test_record_new ("wsat-fill", &workload);
  record->preset = g_strdup ("write-saturation");
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = workload.span_length;
  record->byte_limit = 2 * record->span_length;
  record->trimmed = TRUE;
  duel_series_reserve (record->series, rows + rows / 10);
  while (written < 2 * span_ops)
    {
      double mean = long_record_fill_iops (written * 100.0 / span_ops) / 10;
      guint64 ops = (guint64) MAX (1, mean * g_rand_double_range (rand, 0.85, 1.15));
      DuelSeriesRow row = { .t_ms = (++i) * 100, .temperature_c = NAN };

      ops = MIN (ops, 2 * span_ops - written);
      written += ops;
      row.ops[DUEL_DIRECTION_WRITE] = ops;
      row.bytes[DUEL_DIRECTION_WRITE] = ops * 4096;
      long_record_add_latencies (record, rand, &row, DUEL_DIRECTION_WRITE);
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = i * G_GUINT64_CONSTANT (100000000);
  return record;
}
