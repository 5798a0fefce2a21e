/* test-result.c — test records and the result file: round trips, validation, hostile input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "duel-error.h"
#include "result/duel-json-shape-private.h"
#include "result/duel-result-private.h"
#include "result/duel-result.h"
#include "duel-text.h"
#include "test-dir.h"
#include "test-memory.h"

/* ------------------------------------------------------------------------ */
/* Realistic data                                                            */

static guint64
random_latency (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-12, 1.0);
  double z = sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * g_rand_double (rand));
  double log10_ns = g_rand_double (rand) < 0.995 ? 4.4 + 0.3 * z : g_rand_double_range (rand, 5, 7.5);

  return (guint64) llround (pow (10.0, CLAMP (log10_ns, 1.5, 7.9)));
}

/* Rows and histograms from the same simulated I/Os, as the engine fills them. */
static void
fill_record (DuelTestRecord *record,
             GRand          *rand,
             guint           n_rows,
             guint           mean_ops,
             gboolean        temperatures)
{
  guint interval = record->workload.interval_ms;

  for (guint i = 0; i < n_rows; i++)
    {
      DuelSeriesRow row = { .t_ms = (guint64) (i + 1) * interval, .temperature_c = NAN };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          guint share = d == DUEL_DIRECTION_READ ? record->workload.read_percent
                                                 : 100 - record->workload.read_percent;
          guint ops = (guint) g_rand_int_range (rand, 0, 2 * mean_ops + 1) * share / 100;

          /* A stall now and then, as on a real drive. */
          if (g_rand_int_range (rand, 0, 50) == 0)
            ops /= 10;
          row.ops[d] = ops;
          row.bytes[d] = (guint64) ops * record->workload.block_size;
          for (guint k = 0; k < ops; k++)
            {
              guint64 lat = random_latency (rand);

              duel_histogram_add (record->latency[d], lat);
              row.lat_max_ns[d] = MAX (row.lat_max_ns[d], lat);
            }
        }
      /* The last row is a partial interval. */
      if (i == n_rows - 1)
        row.t_ms -= interval / 3;
      if (temperatures && i % 7 != 3)
        row.temperature_c = 35.0 + i * 0.01 + g_rand_double (rand);
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = duel_series_get_row (record->series, n_rows - 1)->t_ms * G_GUINT64_CONSTANT (1000000) + 654321;
}

static DuelResult *
build_result (guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) fill = NULL;
  g_autoptr(DuelTestRecord) mixed = NULL;
  g_autoptr(DuelTestRecord) pending = NULL;
  g_autoptr(JsonNode) device = NULL;
  g_autoptr(JsonNode) rated = NULL;
  g_autoptr(GDateTime) created = g_date_time_new_utc (2024, 5, 4, 10, 20, 30.250125);
  g_autoptr(GError) error = NULL;
  DuelTargetInfo target = {
    .path = (char *) "/dev/nvme0n1",
    .kind = DUEL_TARGET_KIND_BLOCK,
    .size_bytes = G_GUINT64_CONSTANT (1000204886016),
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };
  DuelWorkload w;
  JsonObject *details;
  JsonArray *windows;

  duel_result_set_target (result, &target);
  duel_result_set_created (result, created);
  duel_result_set_name (result, "Intel SSD 750 — 400 GB");

  device = json_from_string ("{\"model\": \"INTEL SSDPEDMW400G4  \", \"serial\": \"CVCQ1234\","
                             " \"firmware\": \"8EV10171\", \"link\": {\"speed_gts\": 8.0, \"width\": 4},"
                             " \"smart_before\": {\"temperature_c\": 36, \"data_units_written\": 123456789012},"
                             " \"namespaces\": [1, 2], \"note\": null}", &error);
  g_assert_no_error (error);
  duel_result_set_device (result, json_node_get_object (device));
  rated = json_from_string ("{\"randread_4k_qd32_iops\": 430000, \"seq_read_bytes_per_sec\": 2.2e9,"
                            " \"qos_99_read_us\": 90.5}", &error);
  g_assert_no_error (error);
  duel_result_set_rated (result, json_node_get_object (rated));

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "write", NULL));
  w.block_size = 128 * 1024;
  w.queue_depth = 8;
  w.numjobs = 4;
  w.size_multiple = 2;
  w.seed = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  fill = duel_test_record_new ("fill", &w);
  fill->preset = g_strdup ("consistency");
  fill->span_offset = 0;
  fill->span_length = target.size_bytes;
  fill->byte_limit = 2 * target.size_bytes;
  fill->trimmed = TRUE;
  fill->started = g_date_time_new_utc (2024, 5, 4, 10, 21, 0.5);
  fill->status = DUEL_TEST_STATUS_COMPLETE;
  fill_record (fill, rand, 600, 150, TRUE);
  duel_test_record_set_figure (fill, "bw.mean", 1.2345678901234567e9, "B/s", DUEL_BETTER_HIGHER);
  duel_test_record_set_figure (fill, "lat.p99", 123456, "ns", DUEL_BETTER_LOWER);
  duel_test_record_set_figure (fill, "ratio", 1.0 / 3.0, "", DUEL_BETTER_NONE);
  details = duel_test_record_get_details (fill);
  json_object_set_string_member (details, "verdict", "steady state reached in round 7");
  windows = json_array_new ();
  json_array_add_int_element (windows, 400);
  json_array_add_double_element (windows, 0.125);
  json_object_set_array_member (details, "windows", windows);
  duel_result_add_test (result, fill);

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "randrw", NULL));
  w.read_percent = 70;
  w.interval_ms = 250;
  w.runtime_ms = 60000;
  w.span_offset = 1 << 20;
  w.span_length = G_GUINT64_CONSTANT (8) << 30;
  mixed = duel_test_record_new ("randrw-qd32", &w);
  mixed->span_offset = w.span_offset;
  mixed->span_length = w.span_length;
  mixed->status = DUEL_TEST_STATUS_FAILED;
  mixed->error_message = g_strdup ("An I/O failed at offset 4096: Input/output error.");
  mixed->started = g_date_time_new_utc (2024, 5, 4, 11, 0, 0);
  fill_record (mixed, rand, 150, 400, FALSE);
  duel_result_add_test (result, mixed);

  /* Never started: empty series and histograms. */
  duel_workload_init (&w);
  w.runtime_ms = 1000;
  pending = duel_test_record_new ("randread-qd1", &w);
  duel_result_add_test (result, pending);

  return g_steal_pointer (&result);
}

/* ------------------------------------------------------------------------ */
/* Comparison                                                                */

static void
assert_json_object_equal (JsonObject *a,
                          JsonObject *b)
{
  g_autoptr(JsonNode) na = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) nb = json_node_new (JSON_NODE_OBJECT);

  if (a == NULL || b == NULL)
    {
      g_assert_true (a == b);
      return;
    }
  json_node_set_object (na, a);
  json_node_set_object (nb, b);
  if (!json_node_equal (na, nb))
    {
      g_autofree char *ta = json_to_string (na, FALSE);
      g_autofree char *tb = json_to_string (nb, FALSE);

      g_assert_cmpstr (ta, ==, tb);
    }
}

static void
assert_date_equal (GDateTime *a,
                   GDateTime *b)
{
  if (a == NULL || b == NULL)
    {
      g_assert_true (a == b);
      return;
    }
  g_assert_cmpint (g_date_time_to_unix (a), ==, g_date_time_to_unix (b));
  g_assert_cmpint (g_date_time_get_microsecond (a), ==, g_date_time_get_microsecond (b));
  g_assert_cmpint (g_date_time_get_utc_offset (b), ==, 0);
}

static void
assert_histogram_equal (const DuelHistogram *a,
                        const DuelHistogram *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpuint (a->min_ns, ==, b->min_ns);
  g_assert_cmpuint (a->max_ns, ==, b->max_ns);
  g_assert_cmpuint (a->sum_ns, ==, b->sum_ns);
  g_assert_cmpfloat (a->sum_sq_ns, ==, b->sum_sq_ns);
  g_assert_cmpmem (a->buckets, sizeof a->buckets, b->buckets, sizeof b->buckets);
  g_assert_cmpfloat (duel_histogram_stddev_ns (a), ==, duel_histogram_stddev_ns (b));
  for (double p = 50; p < 100; p += (100 - p) / 2)
    g_assert_cmpuint (duel_histogram_percentile_ns (a, p), ==, duel_histogram_percentile_ns (b, p));
}

static void
assert_workload_equal (const DuelWorkload *a,
                       const DuelWorkload *b)
{
  g_assert_cmpuint (a->block_size, ==, b->block_size);
  g_assert_cmpuint (a->queue_depth, ==, b->queue_depth);
  g_assert_cmpuint (a->numjobs, ==, b->numjobs);
  g_assert_cmpuint (a->read_percent, ==, b->read_percent);
  g_assert_cmpint (a->pattern, ==, b->pattern);
  g_assert_cmpuint (a->span_offset, ==, b->span_offset);
  g_assert_cmpuint (a->span_length, ==, b->span_length);
  g_assert_cmpuint (a->runtime_ms, ==, b->runtime_ms);
  g_assert_cmpuint (a->size_bytes, ==, b->size_bytes);
  g_assert_cmpfloat (a->size_multiple, ==, b->size_multiple);
  g_assert_cmpuint (a->interval_ms, ==, b->interval_ms);
  g_assert_cmpuint (a->seed, ==, b->seed);
}

static void
assert_record_equal (DuelTestRecord *a,
                     DuelTestRecord *b)
{
  guint n;

  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->preset, ==, b->preset);
  assert_workload_equal (&a->workload, &b->workload);
  g_assert_cmpuint (a->span_offset, ==, b->span_offset);
  g_assert_cmpuint (a->span_length, ==, b->span_length);
  g_assert_cmpuint (a->byte_limit, ==, b->byte_limit);
  g_assert_cmpint (a->trimmed, ==, b->trimmed);
  assert_date_equal (a->started, b->started);
  g_assert_cmpuint (a->runtime_ns, ==, b->runtime_ns);
  g_assert_cmpint (a->status, ==, b->status);
  g_assert_cmpstr (a->error_message, ==, b->error_message);

  n = duel_series_get_length (a->series);
  g_assert_cmpuint (duel_series_get_length (b->series), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const DuelSeriesRow *ra = duel_series_get_row (a->series, i);
      const DuelSeriesRow *rb = duel_series_get_row (b->series, i);

      g_assert_cmpuint (ra->t_ms, ==, rb->t_ms);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          g_assert_cmpuint (ra->ops[d], ==, rb->ops[d]);
          g_assert_cmpuint (ra->bytes[d], ==, rb->bytes[d]);
          g_assert_cmpuint (ra->lat_max_ns[d], ==, rb->lat_max_ns[d]);
        }
      if (isnan (ra->temperature_c))
        g_assert_true (isnan (rb->temperature_c));
      else
        g_assert_cmpfloat (ra->temperature_c, ==, rb->temperature_c);
    }

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      assert_histogram_equal (a->latency[d], b->latency[d]);
      g_assert_cmpuint (duel_test_record_get_ops (a, d), ==, duel_test_record_get_ops (b, d));
      g_assert_cmpfloat (duel_test_record_get_iops (a, d), ==, duel_test_record_get_iops (b, d));
    }

  assert_json_object_equal (a->summary, b->summary);
}

static void
assert_result_equal (DuelResult *a,
                     DuelResult *b)
{
  const DuelTargetInfo *ta = duel_result_get_target (a);
  const DuelTargetInfo *tb = duel_result_get_target (b);
  GPtrArray *tests_a = duel_result_get_tests (a);
  GPtrArray *tests_b = duel_result_get_tests (b);

  g_assert_cmpstr (ta->path, ==, tb->path);
  g_assert_cmpint (ta->kind, ==, tb->kind);
  g_assert_cmpuint (ta->size_bytes, ==, tb->size_bytes);
  g_assert_cmpuint (ta->logical_block_size, ==, tb->logical_block_size);
  g_assert_cmpuint (ta->physical_block_size, ==, tb->physical_block_size);
  g_assert_cmpstr (duel_result_get_name (a), ==, duel_result_get_name (b));
  g_assert_cmpstr (duel_result_get_tool_name (a), ==, duel_result_get_tool_name (b));
  g_assert_cmpstr (duel_result_get_tool_version (a), ==, duel_result_get_tool_version (b));
  assert_date_equal (duel_result_get_created (a), duel_result_get_created (b));
  g_assert_cmpint (duel_result_is_published (a), ==, duel_result_is_published (b));
  assert_json_object_equal (duel_result_get_device (a), duel_result_get_device (b));
  assert_json_object_equal (duel_result_get_rated (a), duel_result_get_rated (b));

  g_assert_cmpuint (tests_a->len, ==, tests_b->len);
  for (guint i = 0; i < tests_a->len; i++)
    assert_record_equal (g_ptr_array_index (tests_a, i), g_ptr_array_index (tests_b, i));
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("test-result-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
}

static char *
read_file (const char *path,
           gsize      *out_length)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, out_length, &error);
  g_assert_no_error (error);
  return data;
}

static void
assert_format_error (GError     *error,
                     const char *source,
                     const char *needle)
{
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, source));
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, needle);
  /* One sentence, ending with a full stop. */
  g_assert_true (g_str_has_suffix (error->message, "."));
}

/* ------------------------------------------------------------------------ */
/* Test records                                                              */

static void
test_record_basics (void)
{
  g_autoptr(DuelTestRecord) record = NULL;
  DuelTestRecord *copy;
  DuelWorkload w;
  DuelSeriesRow row = { .temperature_c = NAN };
  DuelTestStatus status;
  double value = 0;

  duel_workload_init (&w);
  w.runtime_ms = 5000;
  record = duel_test_record_new ("randread", &w);
  g_assert_cmpstr (record->name, ==, "randread");
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_PENDING);
  g_assert_cmpuint (record->workload.runtime_ms, ==, 5000);
  g_assert_nonnull (record->series);
  g_assert_nonnull (record->latency[DUEL_DIRECTION_READ]);
  g_assert_nonnull (record->latency[DUEL_DIRECTION_WRITE]);
  g_assert_null (record->summary);
  /* The workload is copied. */
  w.block_size = 1;
  g_assert_cmpuint (record->workload.block_size, ==, 4096);

  /* Boxed: copy is a reference. */
  g_assert_true (G_TYPE_IS_BOXED (DUEL_TYPE_TEST_RECORD));
  copy = g_boxed_copy (DUEL_TYPE_TEST_RECORD, record);
  g_assert_true (copy == record);
  g_boxed_free (DUEL_TYPE_TEST_RECORD, copy);

  /* Counts come from the series. */
  g_assert_cmpfloat (duel_test_record_get_iops (record, DUEL_DIRECTION_READ), ==, 0);
  row.t_ms = 1000;
  row.ops[DUEL_DIRECTION_READ] = 300;
  row.bytes[DUEL_DIRECTION_READ] = 300 * 4096;
  duel_series_append (record->series, &row);
  row.t_ms = 2000;
  row.ops[DUEL_DIRECTION_READ] = 100;
  row.bytes[DUEL_DIRECTION_READ] = 100 * 4096;
  row.ops[DUEL_DIRECTION_WRITE] = 7;
  row.bytes[DUEL_DIRECTION_WRITE] = 7 * 512;
  duel_series_append (record->series, &row);
  record->runtime_ns = 2000000000;
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==, 400);
  g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_READ), ==, 400 * 4096);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), ==, 7);
  g_assert_cmpfloat (duel_test_record_get_iops (record, DUEL_DIRECTION_READ), ==, 200);
  g_assert_cmpfloat (duel_test_record_get_bytes_per_second (record, DUEL_DIRECTION_READ), ==, 200 * 4096);
  g_assert_cmpfloat (duel_test_record_get_iops (record, DUEL_DIRECTION_WRITE), ==, 3.5);

  /* Status names. */
  for (DuelTestStatus s = DUEL_TEST_STATUS_PENDING; s <= DUEL_TEST_STATUS_FAILED; s++)
    {
      g_assert_true (duel_test_status_from_string (duel_test_status_to_string (s), &status));
      g_assert_cmpint (status, ==, s);
    }
  g_assert_cmpstr (duel_test_status_to_string (DUEL_TEST_STATUS_COMPLETE), ==, "complete");
  g_assert_cmpstr (duel_test_status_to_string (DUEL_TEST_STATUS_CANCELLED), ==, "cancelled");
  g_assert_false (duel_test_status_from_string ("done", &status));
  g_assert_false (duel_test_status_from_string (NULL, &status));

  /* Figures: set, replace, read back. */
  g_assert_false (duel_test_record_get_figure (record, "iops", &value));
  duel_test_record_set_figure (record, "iops", 200, "IOPS", DUEL_BETTER_HIGHER);
  duel_test_record_set_figure (record, "lat", 80000, "ns", DUEL_BETTER_LOWER);
  duel_test_record_set_figure (record, "iops", 250, "IOPS", DUEL_BETTER_HIGHER);
  g_assert_true (duel_test_record_get_figure (record, "iops", &value));
  g_assert_cmpfloat (value, ==, 250);
  g_assert_true (duel_test_record_get_figure (record, "lat", &value));
  g_assert_cmpfloat (value, ==, 80000);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (record->summary, "figures")), ==, 2);
  {
    JsonObject *lat = json_array_get_object_element (json_object_get_array_member (record->summary, "figures"), 1);

    g_assert_cmpstr (json_object_get_string_member (lat, "key"), ==, "lat");
    g_assert_cmpstr (json_object_get_string_member (lat, "unit"), ==, "ns");
    g_assert_cmpstr (json_object_get_string_member (lat, "better"), ==, "lower");
  }

  /* Details on demand, the same object each time. */
  g_assert_false (json_object_has_member (record->summary, "details"));
  json_object_set_int_member (duel_test_record_get_details (record), "rounds", 5);
  g_assert_cmpint (json_object_get_int_member (duel_test_record_get_details (record), "rounds"), ==, 5);
}

static void
test_record_details_first (void)
{
  g_autoptr(DuelTestRecord) record = NULL;
  DuelWorkload w;

  duel_workload_init (&w);
  record = duel_test_record_new ("x", &w);
  g_assert_nonnull (duel_test_record_get_details (record));
  g_assert_nonnull (record->summary);
  g_assert_true (json_object_has_member (record->summary, "figures"));
  g_assert_false (duel_test_record_get_figure (record, "none", NULL));
}

/* ------------------------------------------------------------------------ */
/* Result object                                                             */

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static void
test_result_name (void)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(JsonNode) device = json_from_string ("{\"model\": \" Samsung SSD 970 EVO 1TB  \"}", NULL);
  g_autoptr(JsonNode) no_model = json_from_string ("{\"model\": 5}", NULL);
  DuelTargetInfo target = { .path = (char *) "/dev/nvme1n1", .kind = DUEL_TARGET_KIND_BLOCK };
  guint notified = 0;
  g_autofree char *name = NULL;

  g_signal_connect (result, "notify::name", G_CALLBACK (notify_cb), &notified);

  g_assert_cmpstr (duel_result_get_name (result), ==, "");
  g_assert_cmpstr (duel_result_get_tool_name (result), ==, "driveduel");
  g_assert_nonnull (duel_result_get_created (result));
  duel_result_set_target (result, &target);
  g_assert_cmpstr (duel_result_get_name (result), ==, "nvme1n1");
  /* The target is copied. */
  g_assert_true (duel_result_get_target (result)->path != target.path);
  duel_result_set_device (result, json_node_get_object (no_model));
  g_assert_cmpstr (duel_result_get_name (result), ==, "nvme1n1");
  duel_result_set_device (result, json_node_get_object (device));
  g_assert_cmpstr (duel_result_get_name (result), ==, "Samsung SSD 970 EVO 1TB");
  g_assert_cmpuint (notified, ==, 3);

  duel_result_set_name (result, "Drive A");
  duel_result_set_name (result, "Drive A");
  g_assert_cmpuint (notified, ==, 4);
  g_assert_cmpstr (duel_result_get_name (result), ==, "Drive A");
  g_object_get (result, "name", &name, NULL);
  g_assert_cmpstr (name, ==, "Drive A");
  duel_result_set_name (result, NULL);
  g_assert_cmpstr (duel_result_get_name (result), ==, "Samsung SSD 970 EVO 1TB");
  g_assert_cmpuint (notified, ==, 5);

  duel_result_set_published (result, TRUE);
  g_assert_true (duel_result_is_published (result));

  g_assert_finalize_object (g_steal_pointer (&result));
}

static void
test_result_find (void)
{
  g_autoptr(DuelResult) result = build_result (1);

  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 3);
  g_assert_nonnull (duel_result_find_test (result, "fill"));
  g_assert_cmpstr (duel_result_find_test (result, "randrw-qd32")->name, ==, "randrw-qd32");
  g_assert_null (duel_result_find_test (result, "nope"));
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (2024);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelResult) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "results.json", NULL);
  g_autofree char *path2 = g_build_filename (fixture->dir, "again.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  gsize length, length2;

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);

  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  assert_result_equal (result, loaded);

  /* Saving what was loaded writes the same bytes. */
  g_assert_true (duel_result_save (loaded, path2, &error));
  g_assert_no_error (error);
  text = read_file (path, &length);
  text2 = read_file (path2, &length2);
  g_assert_cmpmem (text, length, text2, length2);

  reloaded = duel_result_load (path2, &error);
  g_assert_no_error (error);
  assert_result_equal (result, reloaded);

  /* Memory and file agree on the same tree. */
  {
    g_autoptr(JsonNode) a = duel_result_to_json (result);
    g_autoptr(JsonNode) b = json_from_string (text, &error);

    g_assert_no_error (error);
    g_assert_true (json_node_equal (a, b));
  }
}

static JsonObject *
object_at (JsonObject *object,
           const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_assert_true (json_object_has_member (object, parts[i]));
      object = json_object_get_object_member (object, parts[i]);
    }
  return object;
}

/* The documented layout, read with a plain JSON parser as another tool would. */
static void
test_file_layout (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (7);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *path = g_build_filename (fixture->dir, "layout.json", NULL);
  JsonObject *root, *target, *test;
  JsonArray *tests;
  const char *created;

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "driveduel-result");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (object_at (root, "tool"), "name"), ==, "driveduel");
  g_assert_cmpstr (json_object_get_string_member (object_at (root, "tool"), "version"), ==, PACKAGE_VERSION);
  created = json_object_get_string_member (root, "created");
  g_assert_cmpstr (created, ==, "2024-05-04T10:20:30.250125Z");
  g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, "Intel SSD 750 — 400 GB");
  g_assert_false (json_object_get_boolean_member (root, "published"));
  target = object_at (root, "target");
  g_assert_cmpstr (json_object_get_string_member (target, "path"), ==, "/dev/nvme0n1");
  g_assert_cmpstr (json_object_get_string_member (target, "kind"), ==, "block");
  g_assert_cmpint (json_object_get_int_member (target, "size_bytes"), ==, G_GINT64_CONSTANT (1000204886016));
  g_assert_cmpint (json_object_get_int_member (target, "logical_block_size"), ==, 512);
  g_assert_cmpint (json_object_get_int_member (target, "physical_block_size"), ==, 4096);
  g_assert_true (json_object_has_member (root, "device"));
  g_assert_true (json_object_has_member (root, "rated"));

  tests = json_object_get_array_member (root, "tests");
  g_assert_cmpuint (json_array_get_length (tests), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), i);
      JsonObject *params, *series;
      static const char * const columns[] = {
        "t_ms", "read_ops", "write_ops", "read_bytes", "write_bytes", "read_lat_max_ns", "write_lat_max_ns",
      };

      test = json_array_get_object_element (tests, i);
      g_assert_cmpstr (json_object_get_string_member (test, "name"), ==, record->name);
      g_assert_true (json_object_has_member (test, "preset"));
      g_assert_cmpstr (json_object_get_string_member (test, "status"), ==, duel_test_status_to_string (record->status));
      g_assert_cmpint (json_object_has_member (test, "error"), ==, record->error_message != NULL);
      g_assert_true (json_object_has_member (test, "started"));
      params = object_at (test, "params");
      g_assert_cmpstr (json_object_get_string_member (params, "rw"), ==, duel_workload_get_rw_name (&record->workload));
      g_assert_cmpint (json_object_get_int_member (params, "numjobs"), ==, record->workload.numjobs);
      g_assert_cmpint (json_object_get_int_member (params, "span_offset"), ==, (gint64) record->span_offset);
      g_assert_cmpint (json_object_get_int_member (params, "span_bytes"), ==, (gint64) record->span_length);
      g_assert_cmpint (json_object_get_int_member (params, "byte_limit"), ==, (gint64) record->byte_limit);
      g_assert_cmpint (json_object_get_boolean_member (params, "trimmed"), ==, record->trimmed);
      g_assert_cmpint (json_object_get_int_member (test, "interval_ms"), ==, record->workload.interval_ms);
      g_assert_cmpint (json_object_get_int_member (test, "runtime_ns"), ==, (gint64) record->runtime_ns);

      series = object_at (test, "series");
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        g_assert_cmpuint (json_array_get_length (json_object_get_array_member (series, columns[c])), ==,
                          duel_series_get_length (record->series));
      /* Temperatures only where some were polled; null where missing. */
      g_assert_cmpint (json_object_has_member (series, "temperature_c"), ==, i == 0);
      if (i == 0)
        g_assert_true (json_array_get_null_element (json_object_get_array_member (series, "temperature_c"), 3));

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          JsonObject *dir = object_at (test, d == 0 ? "totals.read" : "totals.write");
          JsonObject *lat = object_at (dir, "lat_ns");
          JsonObject *percentiles = object_at (lat, "percentiles");
          JsonArray *bins = json_object_get_array_member (lat, "bins");
          const DuelHistogram *hist = record->latency[d];
          static const struct { const char *key; double p; } keys[] = {
            { "50", 50 }, { "90", 90 }, { "99", 99 }, { "99.9", 99.9 }, { "99.99", 99.99 }, { "99.999", 99.999 },
          };
          guint64 total = 0, previous = 0;

          g_assert_cmpint (json_object_get_int_member (dir, "ops"), ==, (gint64) duel_test_record_get_ops (record, d));
          g_assert_cmpint (json_object_get_int_member (dir, "bytes"), ==, (gint64) duel_test_record_get_bytes (record, d));
          g_assert_cmpint (json_object_get_int_member (dir, "runtime_ns"), ==, (gint64) record->runtime_ns);
          g_assert_cmpfloat (json_object_get_double_member (dir, "iops"), ==, duel_test_record_get_iops (record, d));
          g_assert_cmpfloat (json_object_get_double_member (dir, "bw_bytes_per_sec"), ==,
                             duel_test_record_get_bytes_per_second (record, d));
          g_assert_cmpfloat (json_object_get_double_member (lat, "mean"), ==, duel_histogram_mean_ns (hist));
          g_assert_cmpfloat (json_object_get_double_member (lat, "stddev"), ==, duel_histogram_stddev_ns (hist));
          g_assert_cmpint (json_object_get_int_member (lat, "min"), ==, (gint64) (hist->count ? hist->min_ns : 0));
          g_assert_cmpint (json_object_get_int_member (lat, "max"), ==, (gint64) hist->max_ns);

          /* A percentile appears only with enough samples to mean something. */
          for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
            {
              gboolean enough = hist->count > 0 && hist->count >= duel_histogram_min_samples_for (keys[k].p);

              g_assert_cmpint (json_object_has_member (percentiles, keys[k].key), ==, enough);
              if (enough)
                g_assert_cmpint (json_object_get_int_member (percentiles, keys[k].key), ==,
                                 (gint64) duel_histogram_percentile_ns (hist, keys[k].p));
            }
          if (i == 0 && d == DUEL_DIRECTION_WRITE)
            {
              /* 600 rows of ~150 writes: 99.9 is there, 99.999 is not. */
              g_assert_true (json_object_has_member (percentiles, "99.9"));
              g_assert_false (json_object_has_member (percentiles, "99.999"));
            }

          for (guint b = 0; b < json_array_get_length (bins); b++)
            {
              JsonArray *pair = json_array_get_array_element (bins, b);
              guint64 lower = (guint64) json_array_get_int_element (pair, 0);

              g_assert_cmpuint (json_array_get_length (pair), ==, 2);
              g_assert_true (b == 0 || lower > previous);
              g_assert_cmpuint (json_array_get_int_element (pair, 1), >, 0);
              g_assert_cmpuint (json_array_get_int_element (pair, 1), ==,
                                hist->buckets[duel_histogram_bucket_index (lower)]);
              previous = lower;
              total += (guint64) json_array_get_int_element (pair, 1);
            }
          g_assert_cmpuint (total, ==, hist->count);
        }

      g_assert_cmpint (json_object_has_member (test, "summary"), ==, record->summary != NULL);
    }

  test = json_array_get_object_element (tests, 0);
  g_assert_cmpstr (json_object_get_string_member (test, "preset"), ==, "consistency");
  g_assert_true (json_object_get_null_member (json_array_get_object_element (tests, 1), "preset"));
  g_assert_true (json_object_get_null_member (json_array_get_object_element (tests, 2), "started"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object_at (test, "summary"), "figures")), ==, 3);

  /* Series columns and bins are written one line each, straight from
   * memory (not as JSON nodes); a histogram without bins is "[]". */
  {
    g_autofree char *text = read_file (path, NULL);
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    guint n_bins = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      if (strstr (lines[i], "\"bins\" : ") != NULL)
        {
          g_assert_true (g_str_has_suffix (lines[i], "]") || g_str_has_suffix (lines[i], "],"));
          g_assert_true (strstr (lines[i], "[]") != NULL || strstr (lines[i], "[[") != NULL);
          n_bins++;
        }
    g_assert_cmpuint (n_bins, ==, 6);
  }
}

/* NaN cannot be written as JSON: it becomes null and comes back as NaN. */
static void
test_non_finite (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (3);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "nan.json", NULL);
  DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), 1);
  JsonObject *device = duel_result_get_device (result);
  double value = 0;

  duel_test_record_set_figure (record, "consistency", NAN, "%", DUEL_BETTER_HIGHER);
  json_object_set_double_member (duel_test_record_get_details (record), "slope", INFINITY);
  json_object_set_double_member (device, "bad", NAN);

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);

  record = g_ptr_array_index (duel_result_get_tests (loaded), 1);
  g_assert_true (duel_test_record_get_figure (record, "consistency", &value));
  g_assert_true (isnan (value));
  g_assert_true (json_object_get_null_member (duel_test_record_get_details (record), "slope"));
  g_assert_true (json_object_get_null_member (duel_result_get_device (loaded), "bad"));
  /* The in-memory objects were not changed by saving. */
  g_assert_true (isnan (json_object_get_double_member (device, "bad")));
}

static void
test_large_series (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autofree char *path = g_build_filename (fixture->dir, "large.json", NULL);
  DuelTargetInfo target = { .path = (char *) "/tmp/file", .size_bytes = G_GUINT64_CONSTANT (1) << 40,
                            .logical_block_size = 512, .physical_block_size = 4096 };
  DuelWorkload w;
  const guint n = 100000;
  gint64 start, saved, done;
  GStatBuf st;

  duel_result_set_target (result, &target);
  duel_workload_init (&w);
  w.read_percent = 50;
  w.interval_ms = 100;
  w.runtime_ms = (guint64) n * 100;
  record = duel_test_record_new ("long", &w);
  for (guint i = 0; i < n; i++)
    {
      DuelSeriesRow row = { .t_ms = (guint64) (i + 1) * 100, .temperature_c = 40 + (i % 100) * 0.1 };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = g_rand_int_range (rand, 20000, 60000);
          row.bytes[d] = row.ops[d] * 4096;
          row.lat_max_ns[d] = random_latency (rand) * 10;
          duel_histogram_add_bucket (record->latency[d], duel_histogram_bucket_index (random_latency (rand)), row.ops[d]);
        }
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = (guint64) n * 100 * 1000000;
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_result_add_test (result, record);

  start = g_get_monotonic_time ();
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  saved = g_get_monotonic_time ();
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  done = g_get_monotonic_time ();
  g_assert_cmpint (g_stat (path, &st), ==, 0);

  g_test_message ("10^5 rows: %.1f MB, save %.0f ms, load %.0f ms",
                  st.st_size / 1e6, (saved - start) / 1e3, (done - saved) / 1e3);
  /* The times are reported, not asserted: speed belongs in benchmarks. */
  assert_result_equal (result, loaded);
}

static void
test_save_atomic (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (11);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "checkpoint.json", NULL);
  g_autofree char *missing = g_build_filename (fixture->dir, "no-such-dir", "x.json", NULL);
  const char *name;
  guint n_files = 0;

  /* Checkpoints overwrite the same file; nothing else is left behind. */
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (duel_result_save (result, path, &error));
      g_assert_no_error (error);
    }
  dir = g_dir_open (fixture->dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_cmpstr (name, ==, "checkpoint.json");
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 1);

  g_assert_false (duel_result_save (result, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The saver writes the series columns into the text through placeholders;
 * strings of the result's own that look like one must come back as they were,
 * and every column must match the rows, temperature gaps included. */
static void
test_save_series_splice (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (11);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "splice.json", NULL);
  g_autofree char *text = NULL;
  const char *lookalike = "\001duel-series-0000000000000000:0:0";
  DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), 0);
  DuelTestRecord *copy;
  DuelSeriesRow row = { .ops = { 1, 2 }, .bytes = { 4096, 8192 },
                        .lat_max_ns = { G_MAXINT64, 8 }, .temperature_c = NAN };

  duel_result_set_name (result, lookalike);
  g_free (record->error_message);
  record->error_message = g_strdup ("\"\\u0001duel-series-");
  duel_series_set_temperature (record->series, 0, 41.25);
  row.t_ms = duel_series_get_row (record->series, duel_series_get_length (record->series) - 1)->t_ms + 1;
  record->runtime_ns = row.t_ms * 1000000;
  duel_series_append (record->series, &row);

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* One line per column. */
  g_assert_nonnull (strstr (text, "\"temperature_c\" : [41.25,"));
  g_assert_nonnull (strstr (text, ",null]"));

  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  /* The splice did not mistake the name for a marker; the control
   * character in it is shown written out (duel-text.h). */
  {
    g_autofree char *shown = duel_text_escape (lookalike);

    g_assert_true (g_str_has_prefix (shown, "\\x01duel-series-"));
    g_assert_cmpstr (duel_result_get_name (loaded), ==, shown);
  }
  copy = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  assert_record_equal (record, copy);
}

/* ------------------------------------------------------------------------ */
/* Fixtures: a valid file written independently, and broken ones            */

static void
test_fixture_valid (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "results", "valid.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  DuelTestRecord *first, *second;
  JsonArray *tests;

  result = duel_result_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (duel_result_get_name (result), ==, "Example SSD 1TB");
  g_assert_cmpstr (duel_result_get_tool_version (result), ==, "0.1.0");
  g_assert_cmpint (duel_result_get_target (result)->kind, ==, DUEL_TARGET_KIND_BLOCK);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 2);

  first = duel_result_find_test (result, "randrw-qd32");
  second = duel_result_find_test (result, "randread-qd1");
  g_assert_cmpstr (first->preset, ==, "consistency");
  g_assert_cmpint (first->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_cmpuint (first->workload.read_percent, ==, 70);
  /* Written before numjobs existed: one job. */
  g_assert_cmpuint (first->workload.numjobs, ==, 1);
  g_assert_true (first->trimmed);
  g_assert_cmpuint (duel_series_get_length (first->series), ==, 12);
  g_assert_true (isnan (duel_series_get_row (first->series, 3)->temperature_c));
  g_assert_cmpfloat (duel_series_get_row (first->series, 4)->temperature_c, ==, 39.0);
  g_assert_cmpint (second->status, ==, DUEL_TEST_STATUS_FAILED);
  g_assert_nonnull (strstr (second->error_message, "Input/output error"));
  g_assert_cmpuint (second->latency[DUEL_DIRECTION_WRITE]->count, ==, 0);
  g_assert_true (isnan (duel_series_get_row (second->series, 0)->temperature_c));

  /* The stored statistics (written by another program) agree with what the
   * rebuilt histograms compute. */
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  tests = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests");
  for (guint i = 0; i < 2; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), i);

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          JsonObject *totals = json_object_get_object_member (json_array_get_object_element (tests, i), "totals");
          JsonObject *lat = json_object_get_object_member (json_object_get_object_member (totals, d ? "write" : "read"), "lat_ns");
          JsonObject *percentiles = json_object_get_object_member (lat, "percentiles");
          JsonObjectIter iter;
          const char *key;
          JsonNode *value;

          g_assert_cmpuint (record->latency[d]->count, ==, duel_test_record_get_ops (record, d));
          g_assert_cmpfloat_with_epsilon (duel_histogram_mean_ns (record->latency[d]),
                                          json_object_get_double_member (lat, "mean"), 1e-6);
          g_assert_cmpfloat_with_epsilon (duel_histogram_stddev_ns (record->latency[d]),
                                          json_object_get_double_member (lat, "stddev"), 1e-3);
          json_object_iter_init (&iter, percentiles);
          while (json_object_iter_next (&iter, &key, &value))
            g_assert_cmpint (duel_histogram_percentile_ns (record->latency[d], g_ascii_strtod (key, NULL)), ==,
                             json_node_get_int (value));
        }
    }
  g_assert_true (duel_test_record_get_figure (first, "iops.mean", NULL));
}

static const struct {
  const char *file;
  const char *needle;
} corrupt_fixtures[] = {
  { "empty.json",            "empty" },
  { "binary.bin",            "not text" },
  { "not-object.json",       "not a JSON object" },
  { "foreign.json",          "not a Drive Duel result" },
  { "no-format.json",        "no “format” field" },
  { "wrong-version.json",    "newer Drive Duel (format version 2)" },
  { "version-zero.json",     "format version 0 is not supported" },
  { "truncated.json",        "not valid JSON" },
  { "overflow.json",         "too large for 64 bits" },
  { "missing-field.json",    "tests[0].runtime_ns is missing" },
  { "missing-target.json",   "target is missing" },
  { "wrong-type.json",       "target.size_bytes should be an integer, not a string" },
  { "series-length.json",    "tests[0].series.read_ops has 10 values but t_ms has 12" },
  { "negative-count.json",   "tests[0].series.write_ops[3] is -5" },
  { "t-ms-order.json",       "tests[0].series.t_ms[2]" },
  { "huge-rows.json",        "tests[0].series declares 4000000000 rows but t_ms has 3 values" },
  { "bins-unsorted.json",    "tests[0].totals.read.lat_ns.bins[1] is out of order" },
  { "bins-boundary.json",    "tests[0].totals.read.lat_ns.bins[0] starts at" },
  { "bins-range.json",       "beyond the histogram’s range" },
  { "samples-mismatch.json", "tests[1].totals.read.lat_ns.samples" },
  { "bad-min.json",          "tests[0].totals.read.lat_ns.min" },
  { "totals-mismatch.json",  "tests[0].totals.read.ops" },
  { "bad-status.json",       "tests[1].status is “exploded”" },
  { "bad-date.json",         "created (“yesterday”)" },
  { "bad-params.json",       "tests[1].params" },
  { "bad-interval.json",     "tests[0].interval_ms is 10" },
  { "wrong-unit.json",       "wrong unit" },
  { "rows-far-apart.json",   "far more than its 12 rows of 1000 ms can span" },
  { "bad-temperature.json",  "tests[0].series.temperature_c[1]" },
  { "bad-figure.json",       "tests[0].summary.figures[0].better" },
};

static void
test_fixtures_corrupt (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (corrupt_fixtures); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "results", corrupt_fixtures[i].file, NULL);
      g_autofree char *display = g_filename_display_name (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;

      g_test_message ("fixture %s", corrupt_fixtures[i].file);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
      result = duel_result_load (path, &error);
      g_assert_null (result);
      assert_format_error (error, display, corrupt_fixtures[i].needle);
      g_assert_nonnull (strstr (error->message, corrupt_fixtures[i].file));
    }
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (duel_result_load ("/nonexistent/results.json", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "results.json"));
}

/* Every cut of a real file fails cleanly with a format error. */
static void
test_truncated (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DuelResult) result = build_result (13);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "cut.json", NULL);
  g_autofree char *text = NULL;
  gsize length, end;

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  text = read_file (path, &length);
  end = length;
  while (end > 0 && g_ascii_isspace (text[end - 1]))
    end--;

  for (guint i = 0; i < 150; i++)
    {
      g_autoptr(GError) cut_error = NULL;
      g_autoptr(DuelResult) cut = NULL;
      gsize at = i < 100 ? (gsize) ((double) end * i / 100) : end - (150 - i);

      cut = duel_result_load_from_data (text, at, "cut.json", &cut_error);
      g_assert_null (cut);
      assert_format_error (cut_error, "cut.json", NULL);
    }

  /* And through the file API. */
  g_assert_true (g_file_set_contents (path, text, (gssize) end / 2, &error));
  g_assert_null (duel_result_load (path, &error));
  assert_format_error (error, path, "not valid JSON");
}

/* The series columns taken straight from the text load exactly as the
 * tree loads them: the same result saved to the same text, or the same
 * error. */
static void
assert_same_load (const char *text,
                  gsize       length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) tree_error = NULL;
  g_autoptr(DuelResult) taken = duel_result_load_from_data (text, length, "v.json", &error);
  g_autoptr(DuelResult) in_tree = _duel_result_load_from_data_in_tree (text, length, "v.json", &tree_error);

  if (taken == NULL || in_tree == NULL)
    {
      g_assert_null (taken);
      g_assert_null (in_tree);
      g_assert_cmpstr (error->message, ==, tree_error->message);
      return;
    }
  {
    g_autoptr(JsonNode) a = duel_result_to_json (taken);
    g_autoptr(JsonNode) b = duel_result_to_json (in_tree);
    g_autofree char *text_a = json_to_string (a, FALSE);
    g_autofree char *text_b = json_to_string (b, FALSE);

    g_assert_cmpstr (text_a, ==, text_b);
  }
}

/* How many columns the text gives up, or -1 for none (nothing cut or
 * taken at all). */
static int
columns_taken (const char *text)
{
  g_autoptr(DuelShaped) shaped = NULL;
  const char *rest;
  gsize rest_length;
  int taken = 0;

  shaped = _duel_json_shape (text, strlen (text), _duel_result_get_shape (), G_MAXUINT64);
  rest = _duel_json_shaped_get_rest (shaped, &rest_length);
  if (rest == NULL)
    return -1;
  g_assert_cmpuint (strlen (rest), ==, rest_length);
  for (guint t = 0; t < 4; t++)
    {
      guint32 fields = 0;
      gsize n;

      /* The rows' table is test t's first take. */
      if (_duel_json_shaped_get_table (shaped, t, 0, &n, &fields) != NULL)
        taken += g_bit_nth_lsf (fields, -1) >= 0 ? __builtin_popcount (fields) : 0;
    }
  return taken;
}

/* @text with the first @from replaced by @to. */
static char *
variant (const char *text,
         const char *from,
         const char *to)
{
  const char *at = strstr (text, from);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

static void
test_series_columns (void)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  DuelWorkload w;
  /* What to change in the file, and how many of its 15 columns (8 of the
   * first test, 7 of the second without temperatures) are then taken; -1:
   * none, the tree alone decides. */
  static const struct {
    const char *from, *to;
    int taken;
  } cases[] = {
    { NULL, NULL, 15 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[ 1000 ,\n\t2000\r\n, 3000 ]", 15 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2000.0,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,-2000,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,\"2000\",3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,02000,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2e3,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,[2000],3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2000,3000,]", 14 },
    /* The first column sets the rows: the others, of another length, are
     * left to the tree, which names the mismatch. */
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2000]", 8 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,3000,2000]", 15 },
    /* Too short for `null` to take its place: left to the tree. */
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[7]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[ 7]", 8 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":null", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[9223372036854775807,2000,3000]", 15 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1,2,3],\"t_ms\":[1000,2000,3000]", -1 },
    /* Keys are read as json-glib reads them. */
    { "\"t_ms\":[1000,2000,3000]", "\"t\\u005fms\":[1000,2000,3000]", 15 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\\u0000x\":[1000,2000,3000]", 15 },
    { "\"t_ms\":[1000,2000,3000]", "\"t\\u005fms\":[1,2,3],\"t_ms\":[1000,2000,3000]", -1 },
    { "\"series\":", "\"series\":{\"t_ms\":[5000]},\"series\":", -1 },
    /* Not JSON, two values after one key: the tree refuses it. */
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2000,3000][4000]", 14 },
    { "\"series\":{", "\"series\":{\"t_ms\":[5000]}{", -1 },
    { "\"tests\":", "\"tests\":[],\"tests\":", -1 },
    /* Not a key's value, or nothing after it: left to the tree, whose
     * errors then name what the file holds. */
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\" [1000,2000,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\"::[1000,2000,3000]", 14 },
    { "\"t_ms\":[1000,2000,3000]", "\"t_ms\":[1000,2000,3000]]", -1 },
    { "\"tests\":[", "\"tests\":[7,", 15 },
    { "\"tests\":[", "\"tests\":[{\"x\":{\"series\":{\"t_ms\":[1]}}},", 15 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[4.05e1,null,-0.5E-1]", 15 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[1E400,null,41.25]", 15 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[40.5,nul,41.25]", 14 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[40.5,true,41.25]", 14 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[.5,null,41.25]", 14 },
    { "\"temperature_c\":[40.5,null,41.25]", "\"temperature_c\":[-1000,null,41.25]", 15 },
  };

  duel_workload_init (&w);
  w.interval_ms = 1000;
  for (guint t = 0; t < 2; t++)
    {
      record = duel_test_record_new (t == 0 ? "first" : "second", &w);
      record->status = DUEL_TEST_STATUS_COMPLETE;
      for (guint i = 0; i < 3; i++)
        {
          DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = NAN };

          row.ops[DUEL_DIRECTION_READ] = 10 + i;
          row.bytes[DUEL_DIRECTION_READ] = (10 + i) * 4096;
          if (t == 0)
            row.temperature_c = i == 0 ? 40.5 : i == 1 ? NAN : 41.25;
          duel_series_append (record->series, &row);
        }
      record->runtime_ns = 3 * G_GUINT64_CONSTANT (1000000000);
      duel_result_add_test (result, record);
      g_clear_pointer (&record, duel_test_record_unref);
    }
  node = duel_result_to_json (result);
  text = json_to_string (node, FALSE);
  g_assert_nonnull (strstr (text, "\"t_ms\":[1000,2000,3000]"));
  g_assert_nonnull (strstr (text, "\"temperature_c\":[40.5,null,41.25]"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *changed = cases[i].from ? variant (text, cases[i].from, cases[i].to) : g_strdup (text);

      g_test_message ("case %u: %s", i, cases[i].to ? cases[i].to : "as written");
      g_assert_cmpint (columns_taken (changed), ==, cases[i].taken);
      assert_same_load (changed, strlen (changed));
    }

  /* Cut anywhere: the same error either way (every 5th byte, and each of
   * the last 40, where the columns end and the file closes). */
  for (gsize at = 0; at < strlen (text); at += at + 40 < strlen (text) ? 5 : 1)
    assert_same_load (text, at);

  /* As a save writes it, on many lines, with a name in UTF-8 before the
   * columns: a parse error's line and column are the file's. */
  {
    g_autofree char *pretty = NULL;
    g_autoptr(JsonNode) named = NULL;

    duel_result_set_name (result, "固態硬碟 — SSD");
    named = duel_result_to_json (result);
    pretty = json_to_string (named, TRUE);
    g_assert_nonnull (strchr (pretty, '\n'));
    g_assert_cmpint (columns_taken (pretty), ==, 15);
    for (gsize at = 0; at < strlen (pretty); at += 3)
      assert_same_load (pretty, at);
    pretty[strlen (pretty) - 2] = 'x';
    assert_same_load (pretty, strlen (pretty));
  }
}

/* The loader is the contract for any writer: a result it would refuse is
 * named by the rule it breaks, with no file name in front. */
static void
test_check_loadable (void)
{
  g_autoptr(DuelResult) result = build_result (21);
  g_autoptr(GError) error = NULL;
  DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), 0);
  DuelSeriesRow late = { .t_ms = duel_test_record_latest_row_ms (record) + 1, .temperature_c = NAN };

  g_assert_true (duel_result_check_loadable (result, &error));
  g_assert_no_error (error);

  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
  duel_series_append (record->series, &late);
  g_assert_false (duel_result_check_loadable (result, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, "tests[0].series.t_ms ends at"));
}

static void
test_deep_nesting (void)
{
  static const guint depths[] = { 100, 256, 257, 100000 };

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      g_autoptr(GString) text = g_string_new ("{\"format\": \"driveduel-result\", \"version\": 1, \"device\": ");
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;

      for (guint k = 1; k < depths[i]; k++)
        g_string_append (text, "[");
      for (guint k = 1; k < depths[i]; k++)
        g_string_append (text, "]");
      g_string_append (text, "}");

      result = duel_result_load_from_data (text->str, text->len, "deep.json", &error);
      g_assert_null (result);
      if (depths[i] <= 256)
        assert_format_error (error, "deep.json", "tool is missing");
      else
        assert_format_error (error, "deep.json", "nested too deeply");
    }
}

/* ---- Memory ------------------------------------------------------------ */

/* A result of one 4 KiB random-mix test of @n_rows one-second rows, with
 * rates that vary (what tests/bench/make-long-result writes), as saved. */
static char *
long_result_text (guint  n_rows,
                  gsize *out_length)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  DuelWorkload workload;

  duel_workload_init (&workload);
  g_assert_true (duel_workload_set_rw_name (&workload, "randrw", NULL));
  workload.interval_ms = 1000;
  record = duel_test_record_new ("randrw-qd32", &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  for (guint i = 0; i < n_rows; i++)
    {
      DuelSeriesRow row = { .t_ms = (i + 1) * G_GUINT64_CONSTANT (1000), .temperature_c = NAN };

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = 40000 + g_rand_int_range (rand, 0, 20000);
          row.bytes[d] = row.ops[d] * 4096;
          row.lat_max_ns[d] = 100000 + g_rand_int_range (rand, 0, 900000);
          duel_histogram_add (record->latency[d], row.lat_max_ns[d]);
        }
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = n_rows * G_GUINT64_CONSTANT (1000000000);
  duel_result_add_test (result, record);
  {
    g_autofree char *dir = g_dir_make_tmp ("test-result-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "long.json", NULL);
    g_autoptr(GError) error = NULL;
    char *text;

    g_assert_true (duel_result_save (result, path, &error));
    g_assert_no_error (error);
    text = read_file (path, out_length);
    g_unlink (path);
    g_rmdir (dir);
    return text;
  }
}

/* @count copies of @item, comma-separated, in [ ]. */
static char *
repeated_array (const char *item,
                guint       count)
{
  GString *text = g_string_sized_new ((strlen (item) + 1) * count + 2);

  g_string_append_c (text, '[');
  for (guint i = 0; i < count; i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append (text, item);
    }
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* Valid files in layouts no writer of ours uses, about 8 MB each: each
 * loads within three times its size (at least 16 MiB) and a test's fixed
 * share, or is refused before the memory is spent (docs/result-format.md).
 * @refusal: NULL when the file loads, else what the refusal names. */
typedef struct
{
  const char *name;
  const char *refusal;
} HostileLoad;

static const HostileLoad hostile_loads[] = {
  /* The writer's layout, each column's key spelt with an escape. */
  { "escaped-keys", NULL },
  /* A member no reader knows: 4 M zeros, 2.6 M empty objects. */
  { "unknown-zeros", NULL },
  { "unknown-objects", NULL },
  /* The same in members that are kept: refused, and where named. */
  { "device-zeros", "“device”" },
  { "details-zeros", "“tests[0].summary”" },
  /* A key given twice ("tests"): nothing is cut, the tree would hold all. */
  { "twice-zeros", "“junk”" },
};

/* Inserts @a @b @c at @at of @text. */
static void
insert3 (GString    *text,
         gsize       at,
         const char *a,
         const char *b,
         const char *c)
{
  g_autofree char *piece = g_strconcat (a, b, c, NULL);

  g_string_insert (text, (gssize) at, piece);
}

static char *
hostile_text (const char *name,
              gsize      *out_length)
{
  g_autofree char *base = NULL;
  g_autofree char *zeros = repeated_array ("0", 4000000);
  g_autoptr(GString) text = NULL;
  gsize length;

  if (g_str_equal (name, "escaped-keys"))
    {
      const char * const *names;
      guint n_names, double_column;

      base = long_result_text (120000, &length);
      text = g_string_new_len (base, (gssize) length);
      names = _duel_result_series_column_names (&n_names, &double_column);
      for (guint c = 0; c < n_names; c++)
        {
          g_autofree char *key = g_strdup_printf ("\"%s\"", names[c]);
          g_autofree char *escaped = NULL;
          g_autofree char *head = NULL;

          /* The first letter written as \u00XX. */
          head = g_strdup_printf ("\"\\u%04x", (guint) names[c][0]);
          escaped = g_strconcat (head, names[c] + 1, "\"", NULL);
          g_string_replace (text, key, escaped, 0);
        }
      g_assert_null (strstr (text->str, "\"t_ms\""));
    }
  else
    {
      base = long_result_text (20, &length);
      text = g_string_new_len (base, (gssize) length);
      if (g_str_equal (name, "unknown-zeros"))
        insert3 (text, 1, "\"junk\": ", zeros, ",");
      else if (g_str_equal (name, "unknown-objects"))
        {
          g_autofree char *objects = repeated_array ("{}", 2600000);

          insert3 (text, 1, "\"junk\": ", objects, ",");
        }
      else if (g_str_equal (name, "device-zeros"))
        insert3 (text, 1, "\"device\": {\"zeros\": ", zeros, "},");
      else if (g_str_equal (name, "details-zeros"))
        {
          const char *at = strstr (text->str, "\"tests\"");

          g_assert_nonnull (at);
          at = strchr (at, '{');
          insert3 (text, (gsize) (at + 1 - text->str), "\"summary\": {\"details\": {\"zeros\": ", zeros, "}},");
        }
      else if (g_str_equal (name, "twice-zeros"))
        insert3 (text, 1, "\"tests\": [], \"junk\": ", zeros, ",");
      else
        g_assert_not_reached ();
    }
  *out_length = text->len;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_hostile_memory (gconstpointer data)
{
  const HostileLoad *load = data;
  g_autofree char *variable = g_strdup_printf ("DRIVEDUEL_TEST_HOSTILE_%s", load->name);

  if (g_test_subprocess ())
    {
      const char *path = g_getenv (variable);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;
      GStatBuf st;
      guint64 bound;

      g_assert_nonnull (path);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      /* The documented bound for its one test, and 2 MiB for the rest of
       * the process (GLib's and the test's own allocations). */
      bound = test_memory_documented_bound ((guint64) st.st_size, 1);
      g_assert_true (test_memory_limit (bound, 2 << 20));
      result = duel_result_load (path, &error);
      /* As it is: g_print() would convert it to the locale's charset. */
      if (result != NULL)
        printf ("loaded %u tests\n", duel_result_get_tests (result)->len);
      else
        printf ("refused: %s\n", error->message);
      fflush (stdout);
      return;
    }

  if (!test_memory_can_limit_or_skip ())
    return;
  {
    gsize length;
    char *text = hostile_text (load->name, &length);

    test_memory_trap_load (load->name, variable, text, length);
    if (load->refusal == NULL)
      g_test_trap_assert_stdout ("loaded 1 tests*");
    else
      {
        g_autofree char *pattern = g_strdup_printf ("refused: *hostile.json: reading this file would take about * of memory, more than three times its *; most of it would go to %s.*",
                                                    load->refusal);

        g_test_trap_assert_stdout (pattern);
      }
  }
}

/* The loader cuts members it does not know (duel-json-shape-private.h):
 * every member the writer writes must be one it knows, or a file of ours
 * would lose it. Only the series columns and the bins are taken. */
static void
test_shape_knows_the_writer (void)
{
  g_autoptr(DuelResult) result = build_result (5);
  g_autoptr(DuelShaped) shaped = NULL;
  g_autoptr(JsonNode) written = NULL;
  g_autoptr(JsonNode) rest_node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-result-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "all.json", NULL);
  g_autofree char *text = NULL;
  const char * const *names;
  const char *rest;
  JsonArray *tests;
  guint n_names, double_column;
  gsize length, rest_length;

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  text = read_file (path, &length);
  g_unlink (path);
  g_rmdir (dir);
  /* Every member the writer has: the device, a summary, an error, a start. */
  g_assert_nonnull (strstr (text, "\"device\""));
  g_assert_nonnull (strstr (text, "\"summary\""));
  g_assert_nonnull (strstr (text, "\"error\""));

  shaped = _duel_json_shape (text, length, _duel_result_get_shape (), G_MAXUINT64);
  rest = _duel_json_shaped_get_rest (shaped, &rest_length);
  g_assert_nonnull (rest);
  rest_node = json_from_string (rest, &error);
  g_assert_no_error (error);
  written = json_from_string (text, &error);
  g_assert_no_error (error);

  /* The written file with what was taken made null, as in the rest. */
  names = _duel_result_series_column_names (&n_names, &double_column);
  tests = json_object_get_array_member (json_node_get_object (written), "tests");
  for (guint t = 0; t < json_array_get_length (tests); t++)
    {
      JsonObject *test = json_array_get_object_element (tests, t);
      JsonObject *series = json_object_get_object_member (test, "series");
      JsonObject *totals = json_object_get_object_member (test, "totals");

      for (guint c = 0; c < n_names; c++)
        if (json_object_has_member (series, names[c]) &&
            json_array_get_length (json_object_get_array_member (series, names[c])) > 1)
          json_object_set_null_member (series, names[c]);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          JsonObject *lat = json_object_get_object_member (json_object_get_object_member (totals, d ? "write" : "read"),
                                                           "lat_ns");

          if (json_array_get_length (json_object_get_array_member (lat, "bins")) > 0)
            json_object_set_null_member (lat, "bins");
        }
    }
  if (!json_node_equal (written, rest_node))
    {
      g_autofree char *a = json_to_string (written, TRUE);
      g_autofree char *b = json_to_string (rest_node, TRUE);

      g_assert_cmpstr (a, ==, b);
    }
}

/* What is wrong with a file that is not a result is said as it is: a byte
 * order mark before the JSON, or one value that is not an object, is not
 * "more than one JSON value". */
static void
test_what_is_wrong (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "results", "valid.json", NULL);
  g_autofree char *original = NULL;
  g_autofree char *with_bom = NULL;
  gsize length;
  static const struct { const char *text; const char *needle; } cases[] = {
    { "null", "holds null, not a JSON object" },
    { " null\n", "holds null, not a JSON object" },
    { "true", "holds true or false" },
    { "false", "holds true or false" },
    { "\"text\"", "holds a string" },
    { "12", "holds an integer" },
    { "nul", "not valid JSON" },
    { "word", "not valid JSON" },
    /* Plain text and a web page: not JSON, not "more than one value". */
    { "These are my notes about the drive.\n", "not valid JSON" },
    { "<!DOCTYPE html>\n<html></html>", "not valid JSON" },
    { "nullify this", "not valid JSON" },
    { "null null", "more than one JSON value" },
    { "{} {}", "more than one JSON value" },
    { "{} x", "more than one JSON value" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("text %s", cases[i].text);
      g_assert_null (duel_result_load_from_data (cases[i].text, strlen (cases[i].text), "odd.json", &error));
      assert_format_error (error, "odd.json", cases[i].needle);
      if (strstr (cases[i].needle, "more than one") == NULL)
        g_assert_null (strstr (error->message, "more than one"));
    }

  /* A valid result saved with a UTF-8 byte order mark. */
  original = read_file (path, &length);
  with_bom = g_strconcat ("\xef\xbb\xbf", original, NULL);
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (duel_result_load_from_data (with_bom, length + 3, "bom.json", &error));
    assert_format_error (error, "bom.json", "byte order mark");
    g_assert_null (strstr (error->message, "more than one"));
  }
}

/* \u escapes: a well-formed pair is one character; a short escape or a
 * surrogate without its pair is refused before json-glib 1.6 sees it (it
 * reads a short escape as another code unit and leaks on an unpaired one). */
static void
test_unicode_escapes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "results", "valid.json", NULL);
  g_autofree char *original = NULL;
  gsize length;
  static const struct { const char *name; const char *loaded; } cases[] = {
    { "Caf\\u00e9 SSD", "Café SSD" },
    { "\\ud83d\\ude00 SSD", "\xf0\x9f\x98\x80 SSD" },
    { "\\\\ud800 SSD", "\\ud800 SSD" },     /* an escaped backslash, then text */
    { "\\ud92\\\"\\ud922", NULL },           /* three digits: the fuzzer's leak */
    { "\\ud800 SSD", NULL },
    { "\\udc00 SSD", NULL },
    { "\\ud800\\ud800", NULL },
    { "\\ud83d\\ude0", NULL },
    { "\\u12", NULL },
  };

  original = read_file (path, &length);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) text = g_string_new_len (original, (gssize) length);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;

      g_test_message ("name %s", cases[i].name);
      g_assert_cmpuint (g_string_replace (text, "Example SSD 1TB", cases[i].name, 1), ==, 1);
      result = duel_result_load_from_data (text->str, text->len, "escape.json", &error);
      if (cases[i].loaded != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (duel_result_get_name (result), ==, cases[i].loaded);
        }
      else
        {
          g_assert_null (result);
          assert_format_error (error, "escape.json", "\\u escape");
        }
    }
}

/* Whatever is accepted can be saved and loaded again. */
static void
check_accepted (DuelResult *result)
{
  g_autoptr(JsonNode) root = duel_result_to_json (result);
  g_autofree char *text = json_to_string (root, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) again = duel_result_load_from_data (text, strlen (text), "again", &error);

  g_assert_no_error (error);
  assert_result_equal (result, again);
}

/* A quick in-process fuzz: pseudo-random edits of the valid fixture. Each
 * must load or fail with a format error; none may crash or warn. The seed is
 * fixed so that the gate sees the same 1500 inputs every run; random
 * campaigns are build-aux/fuzz.sh's job. */
static void
test_mutations (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "results", "valid.json", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261201);
  g_autofree char *original = NULL;
  gsize length;
  guint accepted = 0, rejected = 0;
  static const char * const tokens[] = {
    "-1", "1e999", "null", "\"x\"", "{}", "[]", "true", "0", "99999999999999999999", "1.5",
    "9223372036854775807", "\"\\ud800\"", "[[[", "\"", ",", ":", "}", "]",
  };

  original = read_file (path, &length);
  for (guint i = 0; i < 1500; i++)
    {
      g_autoptr(GString) text = g_string_new_len (original, (gssize) length);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;
      guint n_edits = g_rand_int_range (rand, 1, 4);

      for (guint e = 0; e < n_edits; e++)
        {
          gsize at = g_rand_int_range (rand, 0, (gint32) text->len);

          switch (g_rand_int_range (rand, 0, 5))
            {
            case 0:   /* a random byte */
              text->str[at] = (char) g_rand_int_range (rand, 1, 256);
              break;
            case 1:   /* another digit */
              if (g_ascii_isdigit (text->str[at]))
                text->str[at] = (char) ('0' + g_rand_int_range (rand, 0, 10));
              else
                g_string_insert_c (text, at, '-');
              break;
            case 2:   /* delete a range */
              {
                gsize span = (gsize) g_rand_int_range (rand, 1, 40);

                g_string_erase (text, at, MIN (span, text->len - at));
              }
              break;
            case 3:   /* a hostile token */
              g_string_insert (text, at, tokens[g_rand_int_range (rand, 0, G_N_ELEMENTS (tokens))]);
              break;
            default:  /* replace a value after a colon */
              {
                const char *colon = memchr (text->str + at, ':', text->len - at);

                if (colon != NULL && (gsize) (colon - text->str) + 2 <= text->len)
                  {
                    gsize pos = colon - text->str + 2;
                    gsize stop = pos;

                    while (stop < text->len && text->str[stop] != ',' && text->str[stop] != '\n')
                      stop++;
                    g_string_erase (text, pos, stop - pos);
                    g_string_insert (text, pos, tokens[g_rand_int_range (rand, 0, G_N_ELEMENTS (tokens))]);
                  }
              }
              break;
            }
        }

      result = duel_result_load_from_data (text->str, text->len, "mutated.json", &error);
      if (result != NULL)
        {
          g_assert_no_error (error);
          check_accepted (result);
          accepted++;
        }
      else
        {
          assert_format_error (error, "mutated.json", NULL);
          rejected++;
        }
    }
  g_test_message ("mutations: %u accepted, %u rejected", accepted, rejected);
  g_assert_cmpuint (rejected, >, accepted);
}

/* The example in docs/result-format.md is a valid file. */
static void
test_documented_example (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "result-format.md", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autofree char *doc = NULL;
  const char *start, *end;
  DuelTestRecord *record;
  gsize length;

  doc = read_file (path, &length);
  start = strstr (doc, "## Example");
  g_assert_nonnull (start);
  start = strstr (start, "```json\n");
  g_assert_nonnull (start);
  start += strlen ("```json\n");
  end = strstr (start, "```");
  g_assert_nonnull (end);

  result = duel_result_load_from_data (start, end - start, "result-format.md", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (duel_result_get_name (result), ==, "Scratch file on the laptop SSD");
  g_assert_cmpint (duel_result_get_target (result)->kind, ==, DUEL_TARGET_KIND_FILE);
  record = duel_result_find_test (result, "randread-qd1");
  g_assert_nonnull (record);
  g_assert_null (record->preset);
  g_assert_cmpuint (record->latency[DUEL_DIRECTION_READ]->count, ==, 8);
  g_assert_cmpuint (duel_histogram_percentile_ns (record->latency[DUEL_DIRECTION_READ], 50), ==, 88576);
  g_assert_cmpfloat (duel_test_record_get_iops (record, DUEL_DIRECTION_READ), ==, 8 / 3.000412345);
  g_assert_true (isnan (duel_series_get_row (record->series, 1)->temperature_c));
  check_accepted (result);
}

static void
test_from_json_direct (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = json_from_string ("{\"format\": \"driveduel-result\", \"version\": 1,"
                                               " \"tool\": {\"name\": \"fio\", \"version\": \"fio-3.33\"},"
                                               " \"created\": \"2024-01-01T00:00:00+02:00\","
                                               " \"target\": {\"path\": \"\", \"kind\": \"file\", \"size_bytes\": 0,"
                                               " \"logical_block_size\": 0, \"physical_block_size\": 0},"
                                               " \"published\": true, \"name\": null, \"device\": null,"
                                               " \"tests\": []}", &error);
  g_autoptr(DuelResult) result = NULL;

  g_assert_no_error (error);
  result = duel_result_new_from_json (root, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (duel_result_is_published (result));
  g_assert_cmpstr (duel_result_get_tool_name (result), ==, "fio");
  g_assert_null (duel_result_get_device (result));
  g_assert_cmpint (g_date_time_get_hour (duel_result_get_created (result)), ==, 22);
  g_assert_cmpint (g_date_time_get_utc_offset (duel_result_get_created (result)), ==, 0);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 0);
  check_accepted (result);

  g_clear_object (&result);
  result = duel_result_new_from_json (NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  g_assert_null (duel_result_load_from_data ("   \n", 4, "blank.json", &error));
  assert_format_error (error, "blank.json", "not a JSON object");
  g_clear_error (&error);

  /* Too many tests is refused before any is allocated. */
  {
    g_autoptr(GString) text = g_string_new ("{\"format\": \"driveduel-result\", \"version\": 1,"
                                            " \"tool\": {\"name\": \"x\", \"version\": \"1\"},"
                                            " \"created\": \"2024-01-01T00:00:00Z\","
                                            " \"target\": {\"path\": \"\", \"kind\": \"file\", \"size_bytes\": 0,"
                                            " \"logical_block_size\": 0, \"physical_block_size\": 0},"
                                            " \"tests\": [0");

    for (guint i = 0; i < 4096; i++)
      g_string_append (text, ",0");
    g_string_append (text, "]}");
    g_assert_null (duel_result_load_from_data (text->str, text->len, "many.json", &error));
    assert_format_error (error, "many.json", "tests has 4097 entries");
  }
}

/* A save renames a new file over the path: it must refuse device nodes (an
 * "--output /dev/null" once replaced /dev/null with a regular file) and
 * folders, and never write through a symlink (a link planted where a
 * result goes would send it anywhere): both stay as they were. */
static void
test_save_refuses_non_regular (void)
{
  g_autoptr(DuelResult) result = build_result (17);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-save-XXXXXX", NULL);
  g_autofree char *real = g_build_filename (dir, "real.json", NULL);
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autofree char *text = NULL;
  GStatBuf st;

  g_assert_false (duel_result_save (result, "/dev/null", &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "/dev/null"));
  g_assert_cmpint (g_stat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  g_clear_error (&error);

  g_assert_false (duel_result_save (result, dir, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (real, "{}", -1, NULL));
  g_assert_cmpint (symlink (real, link), ==, 0);
  g_assert_false (duel_result_save (result, link, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "symbolic link"));
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_true (g_file_get_contents (real, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{}");

  g_unlink (link);
  g_unlink (real);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/test-record/basics", test_record_basics);
  g_test_add_func ("/duel/test-record/details-first", test_record_details_first);
  g_test_add_func ("/duel/result/name", test_result_name);
  g_test_add_func ("/duel/result/find", test_result_find);
  g_test_add ("/duel/result/round-trip", Fixture, NULL, fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/duel/result/file-layout", Fixture, NULL, fixture_set_up, test_file_layout, fixture_tear_down);
  g_test_add ("/duel/result/non-finite", Fixture, NULL, fixture_set_up, test_non_finite, fixture_tear_down);
  g_test_add ("/duel/result/large-series", Fixture, NULL, fixture_set_up, test_large_series, fixture_tear_down);
  g_test_add ("/duel/result/save-atomic", Fixture, NULL, fixture_set_up, test_save_atomic, fixture_tear_down);
  g_test_add ("/duel/result/save-series-splice", Fixture, NULL, fixture_set_up, test_save_series_splice, fixture_tear_down);
  g_test_add ("/duel/result/truncated", Fixture, NULL, fixture_set_up, test_truncated, fixture_tear_down);
  g_test_add_func ("/duel/result/series-columns", test_series_columns);
  g_test_add_func ("/duel/result/fixture-valid", test_fixture_valid);
  g_test_add_func ("/duel/result/fixtures-corrupt", test_fixtures_corrupt);
  g_test_add_func ("/duel/result/missing-file", test_missing_file);
  g_test_add_func ("/duel/result/deep-nesting", test_deep_nesting);
  g_test_add_func ("/duel/result/unicode-escapes", test_unicode_escapes);
  g_test_add_func ("/duel/result/what-is-wrong", test_what_is_wrong);
  g_test_add_func ("/duel/result/shape-knows-the-writer", test_shape_knows_the_writer);
  for (guint i = 0; i < G_N_ELEMENTS (hostile_loads); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/duel/result/hostile-memory/%s", hostile_loads[i].name);

      g_test_add_data_func (test_path, &hostile_loads[i], test_hostile_memory);
    }
  g_test_add_func ("/duel/result/check-loadable", test_check_loadable);
  g_test_add_func ("/duel/result/mutations", test_mutations);
  g_test_add_func ("/duel/result/from-json", test_from_json_direct);
  g_test_add_func ("/duel/result/documented-example", test_documented_example);
  g_test_add_func ("/duel/result/save-refuses-non-regular", test_save_refuses_non_regular);

  return g_test_run ();
}
