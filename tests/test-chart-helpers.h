/* test-chart-helpers.h — results with every preset test, for the chart and comparison tests
 *
 * The records are filled the way the engine fills them (per-interval rows,
 * histograms per I/O) from a seeded generator, then summarised by the real
 * analysis. Two "drives" differ in speed and shape so that every figure has
 * a winner.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "analysis/duel-comparison.h"
#include "result/duel-result.h"

typedef struct
{
  const char *name;
  const char *model;
  double      speed;          /* scales every rate */
  double      cliff_pct;      /* where the write curve drops */
  guint32     seed;
  gboolean    rated;          /* carry vendor ratings */
  guint32     fill_block_size;
  guint32     fill_queue_depth;
  gboolean    fill_trimmed;
  gboolean    spikes;         /* a few very slow intervals in the consistency run */
} TestDrive;

static inline void
test_drive_init (TestDrive  *drive,
                 const char *name,
                 double      speed,
                 guint32     seed)
{
  *drive = (TestDrive) {
    .name = name,
    .model = name,
    .speed = speed,
    .cliff_pct = 60,
    .seed = seed,
    .fill_block_size = 4096,
    .fill_queue_depth = 32,
    .fill_trimmed = TRUE,
    .spikes = TRUE,
  };
}

/* A latency around @median_ns with a long tail, as I/O latencies have. */
static inline guint64
test_latency_ns (GRand  *rand,
                 double  median_ns)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0);
  double tail = g_rand_double (rand) < 0.001 ? g_rand_double_range (rand, 5, 50) : 1.0;

  return (guint64) (median_ns * exp (0.35 * sqrt (-2 * log (u)) * cos (2 * G_PI * g_rand_double (rand))) * tail);
}

static inline void
test_fill_histogram (DuelHistogram *hist,
                     GRand         *rand,
                     double         median_ns,
                     guint          samples)
{
  for (guint i = 0; i < samples; i++)
    duel_histogram_add (hist, test_latency_ns (rand, median_ns));
}

static inline DuelTestRecord *
test_new_record (const char *name,
                 const char *rw,
                 guint32     block_size,
                 guint32     queue_depth,
                 guint       read_percent)
{
  DuelWorkload w;
  DuelTestRecord *record;

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, rw, NULL));
  w.block_size = block_size;
  w.queue_depth = queue_depth;
  if (read_percent != 0 && read_percent != 100)
    w.read_percent = read_percent;
  record = duel_test_record_new (name, &w);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->preset = g_strdup ("review");
  return record;
}

/* Rows of @iops per second for @rows seconds, split by the record's mix. */
static inline void
test_add_rows (DuelTestRecord *record,
               GRand          *rand,
               guint           rows,
               double          iops,
               double          noise,
               double          median_ns)
{
  guint64 t = duel_series_get_length (record->series) > 0
              ? duel_series_get_row (record->series, duel_series_get_length (record->series) - 1)->t_ms : 0;
  double read_share = record->workload.read_percent / 100.0;

  for (guint i = 0; i < rows; i++)
    {
      DuelSeriesRow row = { 0, };
      double v = iops * (1 + noise * (g_rand_double (rand) - 0.5));
      guint64 ops = (guint64) MAX (v, 1);

      t += record->workload.interval_ms;
      row.t_ms = t;
      row.ops[DUEL_DIRECTION_READ] = (guint64) (ops * read_share);
      row.ops[DUEL_DIRECTION_WRITE] = ops - row.ops[DUEL_DIRECTION_READ];
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.bytes[d] = row.ops[d] * record->workload.block_size;
          row.lat_max_ns[d] = row.ops[d] ? (guint64) (median_ns * 8) : 0;
        }
      row.temperature_c = NAN;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = t * G_GUINT64_CONSTANT (1000000);
}

static inline void
test_analyse (DuelTestRecord *record)
{
  DuelAnalysisKind kind = duel_analysis_kind_for_test_name (record->name);
  g_autoptr(DuelSummary) summary = NULL;

  g_assert_cmpint (kind, !=, DUEL_ANALYSIS_NONE);
  summary = duel_analysis_summarize (record, kind, NULL);
  duel_analysis_apply (record, kind, NULL, summary);
}

static inline DuelResult *
test_make_result (const TestDrive *drive)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (drive->seed);
  DuelResult *result = duel_result_new ();
  const guint64 span = G_GUINT64_CONSTANT (64) << 30;
  DuelTargetInfo target = { (char *) "/dev/nvme0n1", DUEL_TARGET_KIND_BLOCK, span, 512, 4096 };
  JsonObject *device = json_object_new ();
  JsonObject *link = json_object_new ();
  JsonArray *hops = json_array_new ();
  JsonObject *hop = json_object_new ();
  DuelTestRecord *record;
  double s = drive->speed;

  duel_result_set_target (result, &target);
  duel_result_set_name (result, drive->name);

  json_object_set_string_member (device, "model", drive->model);
  json_object_set_string_member (device, "firmware", "1.0");
  json_object_set_int_member (device, "size_bytes", (gint64) span);
  json_object_set_string_member (device, "transport", "nvme");
  json_object_set_string_member (hop, "generation", "PCIe 3.0");
  json_object_set_double_member (hop, "current_gt_s", 8.0);
  json_object_set_int_member (hop, "current_width", 4);
  json_array_add_object_element (hops, hop);
  json_object_set_string_member (link, "kind", "pcie");
  json_object_set_double_member (link, "ceiling_bytes_per_second", 3938461538.0);
  json_object_set_array_member (link, "hops", hops);
  json_object_set_object_member (device, "link", link);
  duel_result_set_device (result, device);
  json_object_unref (device);

  if (drive->rated)
    {
      JsonObject *rated = json_object_new ();

      json_object_set_int_member (rated, "seq_read_mb_s", (gint64) (2000 * s));
      json_object_set_int_member (rated, "seq_write_mb_s", (gint64) (1000 * s));
      json_object_set_int_member (rated, "rand_read_iops", (gint64) (300000 * s));
      json_object_set_int_member (rated, "rand_write_iops", (gint64) (200000 * s));
      duel_result_set_rated (result, rated);
      json_object_unref (rated);
    }

  /* The fill: fast until the cliff, then a noisy plateau, to 2x the span. */
  record = test_new_record (DUEL_TEST_WSAT_FILL, "randwrite", drive->fill_block_size, drive->fill_queue_depth, 0);
  record->workload.size_multiple = 2;
  record->span_length = span;
  record->byte_limit = 2 * span;
  record->trimmed = drive->fill_trimmed;
  {
    guint64 written = 0;

    while (written < 2 * span)
      {
        double pct = 100.0 * written / span;
        double iops = pct < drive->cliff_pct ? 90000 * s * (1 - pct / 400) : 18000 * s;

        test_add_rows (record, rand, 1, iops, 0.3, 60000 / s);
        written += duel_series_get_row (record->series, duel_series_get_length (record->series) - 1)->bytes[DUEL_DIRECTION_WRITE];
      }
    test_fill_histogram (record->latency[DUEL_DIRECTION_WRITE], rand, 300000 / s, 20000);
  }
  test_analyse (record);
  duel_result_add_test (result, record);
  duel_test_record_unref (record);

  record = test_new_record (DUEL_TEST_WSAT_READ, "randread", 4096, 32, 100);
  record->span_length = span;
  record->workload.runtime_ms = 60000;
  test_add_rows (record, rand, 60, 250000 * s, 0.05, 120000 / s);
  test_fill_histogram (record->latency[DUEL_DIRECTION_READ], rand, 120000 / s, 20000);
  test_analyse (record);
  duel_result_add_test (result, record);
  duel_test_record_unref (record);

  /* Consistency: 1200 one-second intervals with a few deep dips. */
  record = test_new_record (DUEL_TEST_CONSISTENCY, "randrw", 4096, 32, 50);
  record->span_length = span;
  record->workload.runtime_ms = 1200000;
  for (guint i = 0; i < 12; i++)
    {
      test_add_rows (record, rand, 98, 40000 * s, 0.2, 700000 / s);
      test_add_rows (record, rand, 2, (drive->spikes ? 4000 : 30000) * s, 0.1, 4000000 / s);
    }
  test_fill_histogram (record->latency[DUEL_DIRECTION_READ], rand, 500000 / s, 20000);
  test_fill_histogram (record->latency[DUEL_DIRECTION_WRITE], rand, 900000 / s, 20000);
  test_analyse (record);
  duel_result_add_test (result, record);
  duel_test_record_unref (record);

  /* QoS: enough I/Os for the 99.999 % point in the QD32 tests. */
  {
    static const struct { const char *name; const char *rw; guint qd; guint rp; double median_us; guint samples; } qos[] = {
      { "qos-read-qd1",   "randread",  1,  100, 80,  20000 },
      { "qos-write-qd1",  "randwrite", 1,  0,   25,  20000 },
      { "qos-read-qd32",  "randread",  32, 100, 300, 200000 },
      { "qos-write-qd32", "randwrite", 32, 0,   450, 200000 },
      { "qos-mix-qd32",   "randrw",    32, 50,  600, 50000 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (qos); i++)
      {
        record = test_new_record (qos[i].name, qos[i].rw, 4096, qos[i].qd, qos[i].rp);
        record->span_length = span;
        record->workload.runtime_ms = 10000;
        test_add_rows (record, rand, 10, qos[i].samples / 10.0, 0.05, qos[i].median_us * 1000 / s);
        for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
          {
            guint64 ops = duel_test_record_get_ops (record, d);
            if (ops > 0)
              test_fill_histogram (record->latency[d], rand, qos[i].median_us * 1000 / s, (guint) ops);
          }
        test_analyse (record);
        duel_result_add_test (result, record);
        duel_test_record_unref (record);
      }
  }

  /* The standard set. */
  {
    static const struct { const char *name; const char *rw; guint32 bs; guint qd; double iops; } std[] = {
      { "std-seq-write",       "write",     131072, 32, 9000 },
      { "std-seq-read",        "read",      131072, 32, 17000 },
      { "std-rand-read-qd1",   "randread",  4096,   1,  12000 },
      { "std-rand-write-qd1",  "randwrite", 4096,   1,  40000 },
      { "std-rand-read-qd32",  "randread",  4096,   32, 280000 },
      { "std-rand-write-qd32", "randwrite", 4096,   32, 190000 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (std); i++)
      {
        guint rp = g_str_has_suffix (std[i].rw, "read") ? 100 : 0;

        record = test_new_record (std[i].name, std[i].rw, std[i].bs, std[i].qd, rp);
        record->span_length = span;
        record->workload.runtime_ms = 10000;
        test_add_rows (record, rand, 10, std[i].iops * s, 0.05, 100000 / s);
        test_fill_histogram (record->latency[rp == 100 ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE],
                             rand, 100000 / s, 2000);
        test_analyse (record);
        duel_result_add_test (result, record);
        duel_test_record_unref (record);
      }
  }

  return result;
}

/* Two drives with every test: A fast with a late cliff, B slower with an early one. */
/* Whether any of @comparison's fairness warnings holds @needle. */
static inline gboolean
test_has_warning (DuelComparison *comparison,
                  const char     *needle)
{
  const char * const *warnings = duel_comparison_get_warnings (comparison);

  for (guint i = 0; warnings[i] != NULL; i++)
    if (strstr (warnings[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

static inline void
test_make_pair (DuelResult **out_a,
                DuelResult **out_b)
{
  TestDrive a, b;

  test_drive_init (&a, "Alpha SSD", 1.0, 11);
  a.cliff_pct = 70;
  a.rated = TRUE;
  test_drive_init (&b, "Beta SSD", 0.6, 22);
  b.cliff_pct = 35;
  *out_a = test_make_result (&a);
  *out_b = test_make_result (&b);
}
