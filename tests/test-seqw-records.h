/* test-seqw-records.h — sustained sequential write records of known shape, for the tests
 *
 * A "seqw-fill" record built from stretches of a known length (GB) and
 * speed (MB/s), in rows of one interval with a fixed per-row noise (a
 * seeded GRand: the same rows on every host), in whole 1 MiB writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "analysis/duel-analysis.h"

#define TEST_SEQW_MIB (1024.0 * 1024.0)

typedef struct
{
  double gb;        /* 10^9 bytes */
  double mbps;      /* 10^6 bytes per second */
} TestStretch;

/* A "seqw-fill" record of @n stretches in rows of @interval_ms, each row's
 * speed its stretch's times 1 ± @noise / 2. */
static inline DuelTestRecord *
test_seqw_make_record (const TestStretch *stretches,
             guint          n,
             guint          interval_ms,
             double         noise,
             guint32        seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  DuelWorkload w;
  DuelTestRecord *record;
  double span = 0, done = 0, ops_done = 0;
  guint64 t = 0;
  guint s = 0;
  double left;

  for (guint i = 0; i < n; i++)
    span += stretches[i].gb * 1e9;
  span = floor (span / TEST_SEQW_MIB) * TEST_SEQW_MIB;

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "write", NULL));
  w.block_size = 1024 * 1024;
  w.queue_depth = 8;
  w.interval_ms = interval_ms;
  w.size_multiple = 1;
  w.span_length = (guint64) span;
  record = duel_test_record_new ("seqw-fill", &w);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->preset = g_strdup ("sequential-write");
  record->span_length = (guint64) span;
  record->byte_limit = (guint64) span;

  left = stretches[0].gb * 1e9;
  while (done < span)
    {
      DuelSeriesRow row = { 0, };
      double factor = 1 + noise * (g_rand_double (rand) - 0.5);
      double dt = interval_ms / 1e3, ops_end;

      /* The row's time through the stretches, each at its own speed. */
      while (dt > 1e-12 && done < span)
        {
          double rate = stretches[s].mbps * 1e6 * factor;
          double take = MIN (left, MIN (rate * dt, span - done));

          done += take;
          left -= take;
          dt -= take / rate;
          if (left <= 0 && s + 1 < n)
            left = stretches[++s].gb * 1e9;
        }
      t += interval_ms;
      ops_end = floor (done / TEST_SEQW_MIB + 1e-9);
      row.t_ms = t;
      row.ops[DUEL_DIRECTION_WRITE] = (guint64) (ops_end - ops_done);
      row.bytes[DUEL_DIRECTION_WRITE] = row.ops[DUEL_DIRECTION_WRITE] * 1024 * 1024;
      row.lat_max_ns[DUEL_DIRECTION_WRITE] = 5000000;
      row.temperature_c = NAN;
      ops_done = ops_end;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = t * G_GUINT64_CONSTANT (1000000);
  return record;
}
