/* test-fio-import.c — fio's json+ output as a result, and back to a fio job file
 *
 * The fixtures in tests/data/fio/ are real fio 3.33 runs with
 * lat_percentiles=1 (their job files are beside them): a 70/30 random mix
 * with an IOPS log, a 4 KiB random write to twice its span, and two jobs
 * (numjobs=2) of a 50/50 mix, reported together (group_reporting) and
 * apart, and two jobs of a random read with group_reporting and time_based
 * given bare, as fio's JSON leaves them out; and a random read as fio runs
 * by default, without lat_percentiles (clat bins only).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "duel-error.h"
#include "fio/duel-fio-export.h"
#include "fio/duel-fio-import.h"
#include "run/duel-preset.h"
#include "review/duel-review-test.h"
#include "engine/duel-workload-option.h"
#include "duel-text.h"
#include "test-memory.h"

static char *
fixture (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "fio", name, NULL);
}

static JsonObject *
load_fio_job_at (const char *name,
                 guint       index)
{
  g_autofree char *path = fixture (name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  return json_object_ref (json_array_get_object_element (json_object_get_array_member (root, "jobs"), index));
}

static JsonObject *
load_fio_job (const char *name)
{
  return load_fio_job_at (name, 0);
}

static guint64
int_at (JsonObject *job,
        const char *section,
        const char *member)
{
  return (guint64) json_object_get_int_member (json_object_get_object_member (job, section), member);
}

/* fio's percentiles are the midpoints of the buckets it reports; ours come
 * from the same bins. fio rounds the rank down where we round up, so a
 * percentile may land one bucket over: within 2/128 of fio's value. */
static void
check_percentiles (const DuelHistogram *hist,
                   JsonObject          *lat)
{
  JsonObject *percentiles = json_object_get_object_member (lat, "percentile");
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  guint exact = 0, total = 0;

  g_assert_cmpuint (hist->count, ==, (guint64) json_object_get_int_member (lat, "N"));
  g_assert_cmpuint (hist->min_ns, ==, (guint64) json_object_get_int_member (lat, "min"));
  g_assert_cmpuint (hist->max_ns, ==, (guint64) json_object_get_int_member (lat, "max"));
  g_assert_cmpfloat_with_epsilon (duel_histogram_mean_ns (hist), json_object_get_double_member (lat, "mean"), 1.0);

  json_object_iter_init (&iter, percentiles);
  while (json_object_iter_next (&iter, &key, &value))
    {
      double p = g_ascii_strtod (key, NULL);
      double fio_ns = json_node_get_double (value);
      double ours = (double) duel_histogram_percentile_ns (hist, p);

      if (g_test_verbose ())
        g_test_message ("p%s: fio %.0f ns, ours %.0f ns", key, fio_ns, ours);
      g_assert_cmpfloat (fabs (ours - fio_ns), <=, fio_ns * 2.0 / 128 + 1);
      /* Ours is clamped to the exact slowest I/O where fio prints its
       * bucket's midpoint: in a small run the top percentiles are all it. */
      exact += ours == fio_ns || (ours == (double) hist->max_ns && fio_ns > ours);
      total++;
    }
  g_assert_cmpuint (total, >=, 10);
  /* Nearly all land on fio's bucket exactly. */
  g_assert_cmpuint (exact, >=, total - 2);
}

static void
test_import_mix_with_log (void)
{
  g_autofree char *json = fixture ("randrw-qd16.json");
  g_autofree char *log = fixture ("randrw-qd16_iops.1.log");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, log, &error);
  g_autoptr(JsonObject) job = load_fio_job ("randrw-qd16.json");
  JsonObject *read = json_object_get_object_member (job, "read");
  JsonObject *write = json_object_get_object_member (job, "write");
  DuelTestRecord *record;
  g_autofree char *log_text = NULL;
  g_auto(GStrv) log_lines = NULL;
  guint log_windows;

  g_assert_no_error (error);
  g_assert_cmpstr (duel_result_get_tool_name (result), ==, "fio");
  g_assert_cmpstr (duel_result_get_tool_version (result), ==, "3.33");
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = duel_result_find_test (result, "randrw-qd16");
  g_assert_nonnull (record);

  /* The workload, from fio's options. */
  g_assert_cmpstr (duel_workload_get_rw_name (&record->workload), ==, "randrw");
  g_assert_cmpuint (record->workload.read_percent, ==, 70);
  g_assert_cmpuint (record->workload.block_size, ==, 4096);
  g_assert_cmpuint (record->workload.queue_depth, ==, 16);
  g_assert_cmpuint (record->workload.runtime_ms, ==, 4000);
  g_assert_cmpuint (record->workload.interval_ms, ==, 500);
  g_assert_cmpuint (record->span_length, ==, 64 << 20);

  /* Totals are fio's exactly. */
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==,
                    (guint64) json_object_get_int_member (read, "total_ios"));
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), ==,
                    (guint64) json_object_get_int_member (write, "total_ios"));
  g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_READ), ==,
                    (guint64) json_object_get_int_member (read, "io_bytes"));
  g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE), ==,
                    (guint64) json_object_get_int_member (write, "io_bytes"));

  /* One row per logged window (read and write lines together), plus the
   * part of the run after the last window. */
  g_assert_true (g_file_get_contents (log, &log_text, NULL, NULL));
  log_lines = g_strsplit (g_strstrip (log_text), "\n", -1);
  log_windows = g_strv_length (log_lines) / 2;
  g_assert_cmpuint (duel_series_get_length (record->series), >=, log_windows);
  g_assert_cmpuint (duel_series_get_length (record->series), <=, log_windows + 1);
  g_assert_cmpuint (duel_series_get_row (record->series, 0)->t_ms, ==, 500);
  /* The first window's reads: fio's mean IOPS times the window. */
  {
    g_auto(GStrv) fields = g_strsplit (log_lines[0], ",", -1);
    double iops = g_ascii_strtod (fields[1], NULL);
    g_assert_cmpfloat_with_epsilon ((double) duel_series_get_row (record->series, 0)->ops[DUEL_DIRECTION_READ],
                                    iops * 0.5, 1);
  }

  /* The latency is fio's lat (submission to completion), as the engine
   * measures it: not clat, which leaves the submission out. */
  check_percentiles (record->latency[DUEL_DIRECTION_READ], json_object_get_object_member (read, "lat_ns"));
  check_percentiles (record->latency[DUEL_DIRECTION_WRITE], json_object_get_object_member (write, "lat_ns"));
  g_assert_cmpfloat (duel_histogram_mean_ns (record->latency[DUEL_DIRECTION_READ]), >,
                     json_object_get_double_member (json_object_get_object_member (read, "clat_ns"), "mean"));

  /* The mix is analysed as a consistency test, so imported runs compare. */
  g_assert_nonnull (record->summary);
  {
    double value;
    g_assert_true (duel_test_record_get_figure (record, "consistency_mean_iops", &value));
    g_assert_cmpfloat (value, >, 0);
  }
}

static void
test_round_trip (void)
{
  g_autofree char *json = fixture ("randwrite-2x.json");
  g_autofree char *log = fixture ("randwrite-2x_iops.1.log");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, log, &error);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(JsonObject) job = load_fio_job ("randwrite-2x.json");
  g_autofree char *dir = g_dir_make_tmp ("duel-fio-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "imported.json", NULL);
  DuelTestRecord *before, *after;
  double written_pct;

  g_assert_no_error (error);
  before = duel_result_find_test (result, "randwrite-2x");
  g_assert_cmpuint (before->byte_limit, ==, G_GUINT64_CONSTANT (512) << 20);
  g_assert_cmpuint (before->span_length, ==, G_GUINT64_CONSTANT (256) << 20);

  /* Written to twice the span: analysed as the write-saturation fill. */
  g_assert_true (duel_test_record_get_figure (before, "capacity_written_pct", &written_pct));
  g_assert_cmpfloat_with_epsilon (written_pct, 200, 1e-9);

  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  after = duel_result_find_test (loaded, "randwrite-2x");
  g_assert_nonnull (after);

  /* The histogram survives bucket for bucket; percentiles still match fio. */
  g_assert_cmpmem (after->latency[DUEL_DIRECTION_WRITE]->buckets, sizeof after->latency[0]->buckets,
                   before->latency[DUEL_DIRECTION_WRITE]->buckets, sizeof before->latency[0]->buckets);
  check_percentiles (after->latency[DUEL_DIRECTION_WRITE],
                     json_object_get_object_member (json_object_get_object_member (job, "write"), "lat_ns"));
  g_assert_cmpuint (duel_series_get_length (after->series), ==, duel_series_get_length (before->series));
  g_assert_cmpuint (duel_test_record_get_ops (after, DUEL_DIRECTION_WRITE), ==, 131072);
  g_assert_cmpuint (after->latency[DUEL_DIRECTION_READ]->count, ==, 0);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_without_log (void)
{
  g_autofree char *json = fixture ("randrw-qd16.json");
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, NULL);
  g_autoptr(JsonObject) job = load_fio_job ("randrw-qd16.json");
  JsonObject *read = json_object_get_object_member (job, "read");
  DuelTestRecord *record = duel_result_find_test (result, "randrw-qd16");

  /* Totals without a time profile: one row over the whole run, whose length
   * is fio's (the reads' runtime), so the IOPS are fio's too. */
  g_assert_cmpuint (duel_series_get_length (record->series), ==, 1);
  g_assert_cmpuint (duel_series_get_row (record->series, 0)->t_ms, ==,
                    (guint64) json_object_get_int_member (read, "runtime"));
  g_assert_cmpfloat_with_epsilon (duel_test_record_get_iops (record, DUEL_DIRECTION_READ),
                                  json_object_get_double_member (read, "iops"), 1e-3);
}

/* fio's plain json+ (its default, without --lat_percentiles=1) has the
 * bins of the completion latency (clat_ns) only: imported from those, the
 * record saying so, and the kind kept in the file. A run with lat bins,
 * and a file from before the field, are total latency. */
static void
test_completion_latency (void)
{
  g_autofree char *json = fixture ("randread-clat.json");
  g_autofree char *other = fixture ("randwrite-2x.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, &error);
  g_autoptr(DuelResult) with_lat = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(JsonObject) job = load_fio_job ("randread-clat.json");
  JsonObject *read = json_object_get_object_member (job, "read");
  g_autofree char *dir = g_dir_make_tmp ("duel-fio-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "imported.json", NULL);
  g_autofree char *text = NULL;
  DuelTestRecord *record;

  g_assert_no_error (error);
  /* fio wrote lat_ns without bins: the fixture is what it says. */
  g_assert_false (json_object_has_member (json_object_get_object_member (read, "lat_ns"), "bins"));
  record = duel_result_find_test (result, "randread-clat");
  g_assert_nonnull (record);
  g_assert_cmpint (record->latency_kind, ==, DUEL_LATENCY_COMPLETION);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==,
                    (guint64) json_object_get_int_member (read, "total_ios"));

  /* The percentiles are fio's clat percentiles, from the same bins; the
   * total latency (fio's lat_ns mean) is longer by the submission. */
  check_percentiles (record->latency[DUEL_DIRECTION_READ], json_object_get_object_member (read, "clat_ns"));
  g_assert_cmpfloat (duel_histogram_mean_ns (record->latency[DUEL_DIRECTION_READ]), <,
                     json_object_get_double_member (json_object_get_object_member (read, "lat_ns"), "mean"));
  g_assert_cmpuint (record->latency[DUEL_DIRECTION_WRITE]->count, ==, 0);

  /* A latency figure of it says what it is. */
  g_assert_nonnull (strstr (duel_figure_get_record_label ("qos_read_qd4_p99_us", record), "completion latency"));
  g_assert_cmpstr (duel_figure_get_record_label ("rand_read_qd4_iops", record), ==,
                   duel_figure_get_label ("rand_read_qd4_iops"));

  /* Kept in the file, and read back. */
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"latency_kind\" : \"completion\""));
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (duel_result_find_test (loaded, "randread-clat")->latency_kind, ==, DUEL_LATENCY_COMPLETION);
  g_assert_cmpmem (duel_result_find_test (loaded, "randread-clat")->latency[DUEL_DIRECTION_READ]->buckets,
                   sizeof record->latency[0]->buckets, record->latency[DUEL_DIRECTION_READ]->buckets,
                   sizeof record->latency[0]->buckets);
  g_clear_object (&loaded);
  g_clear_pointer (&text, g_free);

  /* With lat bins: total, and written as before (no member). */
  with_lat = duel_fio_import_file (other, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (duel_result_find_test (with_lat, "randwrite-2x")->latency_kind, ==, DUEL_LATENCY_TOTAL);
  g_assert_true (duel_result_save (with_lat, path, &error));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strstr (text, "latency_kind"));
  g_clear_pointer (&text, g_free);

  /* Absent or unknown: total. */
  g_assert_cmpint (duel_latency_kind_from_string (NULL), ==, DUEL_LATENCY_TOTAL);
  g_assert_cmpint (duel_latency_kind_from_string ("submission"), ==, DUEL_LATENCY_TOTAL);
  g_assert_cmpint (duel_latency_kind_from_string ("completion"), ==, DUEL_LATENCY_COMPLETION);

  /* The app's cheap look tells fio's output from a result. */
  g_assert_true (duel_fio_import_is_fio_file (json));
  g_assert_true (duel_fio_import_is_fio_file (other));
  g_assert_false (duel_fio_import_is_fio_file (path));
  g_assert_false (duel_fio_import_is_fio_file ("/nonexistent/fio.json"));

  g_unlink (path);
  g_rmdir (dir);
}

/* A job name is untrusted: its control characters are written out, its
 * length bounded, and the text helpers do what they say. */
static void
test_untrusted_job_name (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = fixture ("randrw-qd16.json");
  g_autofree char *text = NULL;
  g_autofree char *long_name = g_strnfill (100000, 'y');
  const char *const names[] = { "evil\\u001b[2J\\u202etxt.exe", long_name };
  gsize length;

  g_assert_true (g_file_get_contents (json, &text, &length, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *quoted = g_strdup_printf ("\"jobname\" : \"%s\"", names[i]);
      g_auto(GStrv) parts = g_strsplit (text, "\"jobname\" : \"randrw-qd16\"", -1);
      g_autofree char *edited = g_strjoinv (quoted, parts);
      g_autoptr(DuelResult) result = duel_fio_import_data (edited, strlen (edited), "evil.json", NULL, NULL, &error);
      DuelTestRecord *record;

      g_assert_no_error (error);
      g_assert_nonnull (result);
      record = g_ptr_array_index (duel_result_get_tests (result), 0);
      g_assert_false (duel_text_has_controls (record->name));
      g_assert_cmpint (g_utf8_strlen (record->name, -1), <=, DUEL_TEXT_NAME_MAX_CHARS);
      if (i == 0)
        g_assert_cmpstr (record->name, ==, "evil\\x1b[2J\\u202Etxt.exe");
      else
        g_assert_true (g_str_has_suffix (record->name, "yy…"));
    }

  g_assert_true (duel_text_has_controls ("a\tb"));
  g_assert_true (duel_text_has_controls ("\xc2\x9b"));        /* C1 CSI */
  g_assert_true (duel_text_has_controls ("\xe2\x81\xa6"));   /* LRI */
  g_assert_false (duel_text_has_controls ("SSD 750 — 固態硬碟"));
  {
    g_autofree char *escaped = duel_text_escape ("a\x7f\xc2\x9b\nb");
    g_autofree char *bounded = duel_text_bound ("固態硬碟測試", 4);
    g_autofree char *short_text = duel_text_bound ("固態", 4);

    g_assert_cmpstr (escaped, ==, "a\\x7f\\u009B\\nb");
    g_assert_cmpstr (bounded, ==, "固態硬…");
    g_assert_cmpstr (short_text, ==, "固態");
  }
}

static void
test_refuses (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = fixture ("randrw-qd16.json");
  g_autofree char *text = NULL;
  gsize length;
  const char *per_io_log = "5, 1, 0, 4096, 0\n6, 1, 1, 4096, 0\n";

  {
    const char *ours = "{\"format\": \"driveduel-result\"}";
    g_assert_null (duel_fio_import_data (ours, strlen (ours), "r.json", NULL, NULL, &error));
  }
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "r.json: this is not fio JSON output"));
  g_clear_error (&error);

  g_assert_true (g_file_get_contents (json, &text, &length, NULL));
  g_assert_null (duel_fio_import_data (text, length / 3, "cut.json", NULL, NULL, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_clear_error (&error);

  g_assert_null (duel_fio_import_data ("no json here", 12, "x.txt", NULL, NULL, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  /* A log written without log_avg_msec (one line per I/O) is a known trap. */
  {
    g_autoptr(GString) edited = g_string_new_len (text, length);
    g_string_replace (edited, "\"log_avg_msec\" : \"500\"", "\"log_avg_msec\" : \"0\"", 1);
    g_assert_null (duel_fio_import_data (edited->str, edited->len, "noavg.json", per_io_log, "randrw-qd16_iops.1.log", &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_assert_nonnull (strstr (error->message, "log_avg_msec"));
    g_clear_error (&error);
  }

  g_assert_null (duel_fio_import_data (text, length, "ok.json", "1000, abc, 0, 0, 0\n", "log", &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "line 1"));
  g_clear_error (&error);

  /* Completion latencies alone (fio without --lat_percentiles=1) are
   * imported, as what they are (test_completion_latency()); no bins at all
   * are refused, saying how to run fio. */
  {
    const char *clat_only =
      "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"job options\": {\"rw\": \"randread\"},"
      " \"read\": {\"total_ios\": 1, \"io_bytes\": 4096, \"runtime\": 1,"
      " \"clat_ns\": {\"N\": 1, \"min\": 1000, \"max\": 1000, \"mean\": 1000, \"bins\": {\"1000\": 1}},"
      " \"lat_ns\": {\"N\": 1, \"min\": 1100, \"max\": 1100, \"mean\": 1100}}, \"write\": {}}]}";
    const char *no_bins =
      "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"job options\": {\"rw\": \"randread\"},"
      " \"read\": {\"total_ios\": 1, \"io_bytes\": 4096, \"runtime\": 1,"
      " \"clat_ns\": {\"N\": 1, \"min\": 1000, \"max\": 1000, \"mean\": 1000},"
      " \"lat_ns\": {\"N\": 1, \"min\": 1100, \"max\": 1100, \"mean\": 1100}}, \"write\": {}}]}";
    g_autoptr(DuelResult) imported = duel_fio_import_data (clat_only, strlen (clat_only), "clat.json", NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (duel_result_find_test (imported, "j")->latency_kind, ==, DUEL_LATENCY_COMPLETION);
    g_assert_cmpuint (duel_result_find_test (imported, "j")->latency[DUEL_DIRECTION_READ]->min_ns, ==, 1000);

    g_assert_null (duel_fio_import_data (no_bins, strlen (no_bins), "nobins.json", NULL, NULL, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_assert_nonnull (strstr (error->message, "--lat_percentiles=1"));
    g_clear_error (&error);
  }

  /* A job name with a newline and a terminal escape, quoted in the message:
   * one line, the controls written out. */
  {
    const char *hostile = "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\\u001b[2J\\nb\"}]}";

    g_assert_null (duel_fio_import_data (hostile, strlen (hostile), "hostile.json", NULL, NULL, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "a\\x1b[2J\\nb"));
    g_assert_null (strchr (error->message, '\n'));
    g_assert_null (strchr (error->message, '\x1b'));
  }
}

/* Two jobs that fio summed (group_reporting): one test of two jobs, with
 * fio's totals and percentiles, and the run's length, not the jobs' sum. */
static void
test_numjobs_grouped (void)
{
  g_autofree char *json = fixture ("randrw-nj2.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, &error);
  g_autoptr(JsonObject) job = load_fio_job ("randrw-nj2.json");
  JsonObject *read = json_object_get_object_member (job, "read");
  DuelTestRecord *record;

  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = duel_result_find_test (result, "randrw-nj2");
  g_assert_nonnull (record);
  g_assert_cmpuint (record->workload.numjobs, ==, 2);
  g_assert_cmpuint (record->workload.queue_depth, ==, 4);
  g_assert_cmpuint (record->workload.runtime_ms, ==, 2000);

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      const char *section = d == DUEL_DIRECTION_READ ? "read" : "write";

      g_assert_cmpuint (duel_test_record_get_ops (record, d), ==, int_at (job, section, "total_ios"));
      g_assert_cmpuint (duel_test_record_get_bytes (record, d), ==, int_at (job, section, "io_bytes"));
      /* The bins map one to one (check_percentiles() above); a 1 % rank in
       * this fixture's sparse low end lands far off by one sample. */
      {
        JsonObject *lat = json_object_get_object_member (json_object_get_object_member (job, section), "lat_ns");

        g_assert_cmpuint (record->latency[d]->count, ==, (guint64) json_object_get_int_member (lat, "N"));
        g_assert_cmpuint (record->latency[d]->min_ns, ==, (guint64) json_object_get_int_member (lat, "min"));
        g_assert_cmpuint (record->latency[d]->max_ns, ==, (guint64) json_object_get_int_member (lat, "max"));
        g_assert_cmpfloat_with_epsilon (duel_histogram_mean_ns (record->latency[d]),
                                        json_object_get_double_member (lat, "mean"), 1.0);
      }
    }
  /* fio adds the jobs' job_runtime; they ran side by side for about 2 s. */
  g_assert_cmpuint ((guint64) json_object_get_int_member (job, "job_runtime"), >=,
                    2 * int_at (job, "read", "runtime") - 2);
  g_assert_cmpuint (record->runtime_ns / 1000000, ==, int_at (job, "read", "runtime"));
  g_assert_cmpfloat_with_epsilon (duel_test_record_get_iops (record, DUEL_DIRECTION_READ),
                                  json_object_get_double_member (read, "iops"), 1e-3);

  /* fio wrote a log per job: one of them is half of the run. */
  {
    g_autofree char *log = fixture ("randrw-nj2_iops.1.log");
    g_autoptr(DuelResult) with_log = duel_fio_import_file (json, log, &error);

    g_assert_null (with_log);
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "numjobs"));
    g_assert_nonnull (strstr (error->message, "without the IOPS log"));
  }
}

/* fio's JSON leaves out options given bare ("group_reporting",
 * "time_based"): the figures tell. job_runtime is twice the run's, so the
 * two jobs were summed; 24 MB moved against a 1 MiB size per job, so it ran
 * on time. */
static void
test_numjobs_bare_options (void)
{
  g_autofree char *json = fixture ("randread-nj2-bare.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, &error);
  g_autoptr(JsonObject) job = load_fio_job ("randread-nj2-bare.json");
  JsonObject *options = json_object_get_object_member (job, "job options");
  DuelTestRecord *record;

  g_assert_no_error (error);
  g_assert_false (json_object_has_member (options, "group_reporting"));
  g_assert_false (json_object_has_member (options, "time_based"));
  record = duel_result_find_test (result, "randread-nj2-bare");
  g_assert_nonnull (record);
  g_assert_cmpuint (record->workload.numjobs, ==, 2);
  g_assert_cmpuint (record->runtime_ns / 1000000, ==, int_at (job, "read", "runtime"));
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==, int_at (job, "read", "total_ios"));
  g_assert_cmpfloat_with_epsilon (duel_test_record_get_iops (record, DUEL_DIRECTION_READ),
                                  json_object_get_double_member (json_object_get_object_member (job, "read"), "iops"),
                                  1e-3);
  g_assert_cmpuint (int_at (job, "read", "io_bytes"), >, 2 * 1024 * 1024);
  g_assert_cmpuint (record->byte_limit, ==, 0);
  g_assert_cmpuint (record->workload.runtime_ms, ==, 2000);
}

/* The same two jobs that fio reported one by one: summed into one test, as
 * group_reporting would have. */
static void
test_numjobs_apart (void)
{
  g_autofree char *json = fixture ("randrw-nj2-apart.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, &error);
  g_autoptr(JsonObject) first = load_fio_job_at ("randrw-nj2-apart.json", 0);
  g_autoptr(JsonObject) second = load_fio_job_at ("randrw-nj2-apart.json", 1);
  DuelTestRecord *record;

  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = duel_result_find_test (result, "randrw-nj2-apart");
  g_assert_nonnull (record);
  g_assert_cmpuint (record->workload.numjobs, ==, 2);
  g_assert_cmpuint (duel_series_get_length (record->series), ==, 1);

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      const char *section = d == DUEL_DIRECTION_READ ? "read" : "write";
      JsonObject *lat_a = json_object_get_object_member (json_object_get_object_member (first, section), "lat_ns");
      JsonObject *lat_b = json_object_get_object_member (json_object_get_object_member (second, section), "lat_ns");
      const DuelHistogram *hist = record->latency[d];

      g_assert_cmpuint (duel_test_record_get_ops (record, d), ==,
                        int_at (first, section, "total_ios") + int_at (second, section, "total_ios"));
      g_assert_cmpuint (duel_test_record_get_bytes (record, d), ==,
                        int_at (first, section, "io_bytes") + int_at (second, section, "io_bytes"));
      g_assert_cmpuint (hist->count, ==, duel_test_record_get_ops (record, d));
      g_assert_cmpuint (hist->min_ns, ==, (guint64) MIN (json_object_get_int_member (lat_a, "min"),
                                                         json_object_get_int_member (lat_b, "min")));
      g_assert_cmpuint (hist->max_ns, ==, (guint64) MAX (json_object_get_int_member (lat_a, "max"),
                                                         json_object_get_int_member (lat_b, "max")));
      g_assert_cmpuint (duel_series_get_row (record->series, 0)->lat_max_ns[d], ==, hist->max_ns);
    }
  g_assert_cmpuint (record->runtime_ns / 1000000, ==,
                    MAX (int_at (first, "read", "runtime"), int_at (second, "read", "runtime")));

  /* Without the second job, the first is only half of a workload. */
  {
    g_autofree char *text = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(JsonGenerator) generator = json_generator_new ();
    g_autofree char *cut = NULL;
    JsonObject *root;
    gsize length;

    g_assert_true (g_file_get_contents (json, &text, &length, NULL));
    g_assert_true (json_parser_load_from_data (parser, text, length, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    json_array_remove_element (json_object_get_array_member (root, "jobs"), 1);
    json_generator_set_root (generator, json_parser_get_root (parser));
    cut = json_generator_to_data (generator, &length);
    g_assert_null (duel_fio_import_data (cut, length, "half.json", NULL, NULL, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "group_reporting"));
  }
}

/* The exported job file is what fio itself accepts, with our parameters. */
static void
test_export_job_file (void)
{
  g_autofree char *json = fixture ("randrw-qd16.json");
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, NULL);
  g_autofree char *text = duel_fio_export_result (result);
  g_autofree char *dir = g_dir_make_tmp ("duel-fio-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "jobs.fio", NULL);
  g_autofree char *fio = g_find_program_in_path ("fio");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (strstr (text, "[randrw-qd16]\n"));
  g_assert_nonnull (strstr (text, "rw=randrw\n"));
  g_assert_nonnull (strstr (text, "rwmixread=70\n"));
  g_assert_nonnull (strstr (text, "bs=4096\n"));
  g_assert_nonnull (strstr (text, "iodepth=16\n"));
  g_assert_nonnull (strstr (text, "runtime=4000ms\ntime_based=1\n"));
  g_assert_nonnull (strstr (text, "log_avg_msec=500\n"));
  g_assert_nonnull (strstr (text, "filename=/tmp/driveduel-fio/target.bin\n"));
  /* fio then writes lat_ns bins: the latency the engine measures and the
   * import reads. */
  g_assert_nonnull (strstr (text, "\nlat_percentiles=1\n"));
  g_assert_null (strstr (text, "clat_percentiles"));

  /* An ini file: sections, key=value or flag lines, ';' comments. */
  g_assert_true (duel_fio_export_save (result, path, &error));
  g_assert_no_error (error);
  {
    g_autofree char *saved = NULL;
    g_auto(GStrv) lines = NULL;
    guint sections = 0;

    g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
    g_assert_cmpstr (saved, ==, text);
    lines = g_strsplit (saved, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      {
        const char *line = lines[i];

        if (*line == '\0' || *line == ';')
          continue;
        if (*line == '[')
          {
            g_assert_true (g_str_has_suffix (line, "]"));
            sections++;
            continue;
          }
        g_assert_true (g_ascii_isalpha (*line));
        g_assert_null (strchr (line, ' '));
      }
    g_assert_cmpuint (sections, ==, 2);
  }

  if (fio != NULL)
    {
      const char *argv[] = { fio, "--parse-only", path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
      g_assert_no_error (error);
      if (!g_spawn_check_wait_status (status, NULL))
        g_error ("fio refused the job file: %s", err);
    }
  else
    g_test_message ("fio is not installed; only the ini syntax was checked");

  g_unlink (path);
  g_rmdir (dir);
}

/* The published reference results state no duration for their timed
 * tests: each job still has a stop rule (the preset's runtime, said so),
 * never fio's default of going through the whole 400–512 GB span, and the
 * header does not claim every parameter is the article's. */
static void
test_export_reference (void)
{
  static const char * const names[] = { "intel-ssd-750-400gb.json", "plextor-m8peg-512gb.json" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", names[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = duel_result_load (path, &error);
      g_autofree char *text = NULL;
      g_auto(GStrv) sections = NULL;
      guint jobs = 0;

      g_assert_no_error (error);
      g_assert_true (duel_result_is_published (result));
      text = duel_fio_export_result (result);
      g_assert_null (strstr (text, "those the article states"));
      g_assert_nonnull (strstr (text, "Parameters their source does not state are Drive Duel's"));
      sections = g_strsplit (text, "\n[", -1);
      for (guint k = 1; sections[k] != NULL; k++)
        {
          if (g_str_has_prefix (sections[k], "global]"))
            continue;
          jobs++;
          g_test_message ("%s: [%.*s", names[i], (int) strcspn (sections[k], "\n"), sections[k]);
          g_assert_true (strstr (sections[k], "\nio_size=") != NULL || strstr (sections[k], "\nruntime=") != NULL);
        }
      g_assert_cmpuint (jobs, ==, duel_result_get_tests (result)->len);
      /* The read score and the consistency test: the preset's 60 s and 20 min. */
      g_assert_nonnull (strstr (text, "write-saturation preset runs this test for 60 s\nruntime=60000ms\ntime_based=1\n"));
      g_assert_nonnull (strstr (text, "consistency preset runs this test for 1200 s\nruntime=1200000ms\ntime_based=1\n"));
    }
}

/* A test whose source states no duration is exported with the length its
 * descriptor gives (src/core/review/), which is the length the test's own
 * preset runs it for: checked for every step of every review test, and
 * none for a fill (bounded by bytes) or the person's own workload. */
static void
test_export_review_lengths (void)
{
  const DuelReviewTest * const *tests = duel_review_tests_get_all ();
  guint checked = 0;

  for (guint t = 0; tests[t] != NULL; t++)
    for (guint s = 0; s < tests[t]->n_steps; s++)
      {
        const DuelReviewStep *step = &tests[t]->steps[s];
        guint64 expected = duel_preset_default_runtime_ms (tests[t]->id, step->name);
        g_autoptr(DuelTestRecord) record = NULL;
        g_autofree char *job = NULL;
        DuelWorkload w;

        g_assert_nonnull (duel_preset_describe (tests[t]->id));
        duel_workload_init (&w);
        w.pattern = step->pattern;
        w.block_size = step->block_size;
        w.queue_depth = step->queue_depth;
        w.numjobs = MAX (step->numjobs, 1);
        w.read_percent = step->read_percent;
        if (step->fill)
          w.size_multiple = 2;
        record = duel_test_record_new (step->name, &w);
        record->preset = g_strdup (tests[t]->id);
        job = duel_fio_export_job (record, "/dev/null");
        g_test_message ("%s %s: %" G_GUINT64_FORMAT " ms", tests[t]->id, step->name, expected);
        if (expected > 0)
          {
            g_autofree char *said = g_strdup_printf ("%s preset runs this test for %" G_GUINT64_FORMAT " s\n",
                                                     tests[t]->id, expected / 1000);
            g_autofree char *line = duel_workload_option_to_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_RUNTIME),
                                                                 expected);
            g_autofree char *runtime = g_strdup_printf ("\n%s\ntime_based=1\n", line);

            g_assert_nonnull (strstr (job, said));
            g_assert_nonnull (strstr (job, runtime));
          }
        else
          {
            g_assert_true (step->fill || step->chosen);
            g_assert_nonnull (strstr (job, "no duration or size is known for this test"));
          }
        checked++;
      }
  g_assert_cmpuint (checked, >=, 20);
}

/* Jobs export as fio's numjobs with group_reporting, each with its share
 * of the byte limit, which fio counts per job. */
static void
test_export_numjobs (void)
{
  g_autofree char *json = fixture ("randrw-nj2.json");
  g_autoptr(DuelResult) result = duel_fio_import_file (json, NULL, NULL);
  g_autofree char *text = duel_fio_export_result (result);
  g_autoptr(DuelTestRecord) record = NULL;
  g_autofree char *job = NULL;
  g_autofree char *fio = g_find_program_in_path ("fio");
  DuelWorkload w;

  g_assert_nonnull (strstr (text, "iodepth=4\nnumjobs=2\ngroup_reporting\n"));
  /* Time-bound: no io_size. */
  g_assert_null (strstr (text, "io_size="));

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "randwrite", NULL));
  w.numjobs = 3;
  w.size_multiple = 2;
  record = duel_test_record_new ("fill", &w);
  record->span_length = 300 * 4096;
  record->byte_limit = 600 * 4096;
  job = duel_fio_export_job (record, "/dev/null");
  g_test_message ("%s", job);
  g_assert_nonnull (strstr (job, "numjobs=3\ngroup_reporting\n"));
  g_assert_nonnull (strstr (job, "\nio_size=819200\n"));
  /* One job alone says nothing of jobs. */
  record->workload.numjobs = 1;
  g_clear_pointer (&job, g_free);
  job = duel_fio_export_job (record, "/dev/null");
  g_assert_null (strstr (job, "numjobs"));
  g_assert_null (strstr (job, "group_reporting"));
  g_assert_nonnull (strstr (job, "\nio_size=2457600\n"));

  if (fio != NULL)
    {
      g_autofree char *dir = g_dir_make_tmp ("duel-fio-export-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "jobs.fio", NULL);
      const char *argv[] = { fio, "--parse-only", path, NULL };
      g_autoptr(GError) error = NULL;
      g_autofree char *err = NULL;
      int status;

      g_assert_true (g_file_set_contents (path, text, -1, &error));
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                   NULL, &err, &status, &error));
      g_assert_no_error (error);
      if (!g_spawn_check_wait_status (status, NULL))
        g_error ("fio refused the job file: %s", err);
      g_unlink (path);
      g_rmdir (dir);
    }
}

/* fio outputs in layouts fio does not write, about 8 MB each: each
 * imports within three times its size (at least 16 MiB) and a test's
 * share, or is refused before the memory is spent (docs/result-format.md).
 * @refusal: NULL when it imports, else what the refusal names. */
typedef struct
{
  const char *name;
  const char *refusal;
  guint       n_tests;   /* what it imports to; 0: 1 */
} HostileImport;

/* Jobs in the many-jobs import, each the fixture's job with its own name. */
#define MANY_JOBS 160

static const HostileImport hostile_imports[] = {
  /* A member the import does not read: 4 M zeros. */
  { "unknown-zeros", NULL, 0 },
  /* lat_ns bins of 600 000 latencies, each once. */
  { "many-bins", NULL, 0 },
  /* 4 M zeros among the options, which are kept: refused, and where named. */
  { "options-zeros", "“global options”", 0 },
  /* fio's own layout with many jobs, ~8 MB: each job's histograms and
   * percentiles as fio prints them (before, 31 times the file). */
  { "many-jobs", NULL, MANY_JOBS },
};

static char *
hostile_fio_text (const char *name,
                  gsize      *out_length)
{
  g_autofree char *path = fixture ("randrw-qd16.json");
  g_autofree char *base = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GString) piece = g_string_new (NULL);
  gsize length;

  g_assert_true (g_file_get_contents (path, &base, &length, NULL));
  text = g_string_new_len (base, (gssize) length);
  if (g_str_equal (name, "unknown-zeros") || g_str_equal (name, "options-zeros"))
    {
      g_string_append (piece, g_str_equal (name, "unknown-zeros") ? "\"junk\": [0" : "\"global options\": {\"junk\": [0");
      for (guint i = 1; i < 4000000; i++)
        g_string_append (piece, ",0");
      g_string_append (piece, g_str_equal (name, "unknown-zeros") ? "]," : "]},");
      g_string_insert (text, 1, piece->str);
    }
  else if (g_str_equal (name, "many-bins"))
    {
      const char *at = strstr (text->str, "\"lat_ns\"");

      g_assert_nonnull (at);
      at = strstr (at, "\"bins\" : {");
      g_assert_nonnull (at);
      /* After fio's own, which are all shorter. */
      at = strchr (at, '}');
      for (guint i = 0; i < 600000; i++)
        g_string_append_printf (piece, ", \"%u\" : 0", 1000000000 + i);
      g_string_insert (text, (gssize) (at - text->str), piece->str);
    }
  else if (g_str_equal (name, "many-jobs"))
    {
      const char *open = strstr (text->str, "\"jobs\" : [");
      const char *close = strstr (text->str, "\n  ]");
      g_autofree char *job = NULL;

      g_assert_nonnull (open);
      g_assert_nonnull (close);
      open = strchr (open, '{');
      /* The one job, "{ … }", copied with a name of its own each. */
      job = g_strndup (open, (gsize) (close - open));
      g_assert_nonnull (strstr (job, "\"jobname\" : \"randrw-qd16\""));
      for (guint i = 1; i < MANY_JOBS; i++)
        {
          g_autofree char *name_i = g_strdup_printf ("\"jobname\" : \"randrw-qd16-%u\"", i);
          g_autoptr(GString) copy = g_string_new (job);

          g_string_replace (copy, "\"jobname\" : \"randrw-qd16\"", name_i, 1);
          g_string_append (piece, ",\n    ");
          g_string_append_len (piece, copy->str, (gssize) copy->len);
        }
      g_string_insert (text, (gssize) (close - text->str), piece->str);
    }
  else
    g_assert_not_reached ();
  *out_length = text->len;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_hostile_memory (gconstpointer data)
{
  const HostileImport *import = data;
  g_autofree char *variable = g_strdup_printf ("DRIVEDUEL_TEST_HOSTILE_%s", import->name);

  if (g_test_subprocess ())
    {
      const char *path = g_getenv (variable);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;
      GStatBuf st;
      guint64 bound;

      g_assert_nonnull (path);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      /* The documented bound for its jobs, and 2 MiB for the rest of the
       * process. */
      bound = test_memory_documented_bound ((guint64) st.st_size, import->n_tests);
      g_assert_true (test_memory_limit (bound, 2 << 20));
      result = duel_fio_import_file (path, NULL, &error);
      /* As it is: g_print() would convert it to the locale's charset. */
      if (result != NULL)
        printf ("imported %u tests\n", duel_result_get_tests (result)->len);
      else
        printf ("refused: %s\n", error->message);
      fflush (stdout);
      return;
    }

  if (!test_memory_can_limit_or_skip ())
    return;
  {
    gsize length;
    char *text = hostile_fio_text (import->name, &length);

    test_memory_trap_load (import->name, variable, text, length);
    if (import->refusal == NULL)
      {
        g_autofree char *pattern = g_strdup_printf ("imported %u tests*", MAX (import->n_tests, 1));

        g_test_trap_assert_stdout (pattern);
      }
    else
      {
        g_autofree char *pattern = g_strdup_printf ("refused: *hostile.json: reading this file would take about * of memory, more than three times its *; most of it would go to %s.*",
                                                    import->refusal);

        g_test_trap_assert_stdout (pattern);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/fio-import/mix-with-log", test_import_mix_with_log);
  g_test_add_func ("/duel/fio-import/round-trip", test_round_trip);
  g_test_add_func ("/duel/fio-import/without-log", test_without_log);
  g_test_add_func ("/duel/fio-import/completion-latency", test_completion_latency);
  g_test_add_func ("/duel/fio-import/untrusted-job-name", test_untrusted_job_name);
  g_test_add_func ("/duel/fio-import/refuses", test_refuses);
  g_test_add_func ("/duel/fio-import/export-job-file", test_export_job_file);
  g_test_add_func ("/duel/fio-import/numjobs-grouped", test_numjobs_grouped);
  g_test_add_func ("/duel/fio-import/numjobs-apart", test_numjobs_apart);
  g_test_add_func ("/duel/fio-import/numjobs-bare-options", test_numjobs_bare_options);
  g_test_add_func ("/duel/fio-import/export-numjobs", test_export_numjobs);
  g_test_add_func ("/duel/fio-import/export-reference", test_export_reference);
  g_test_add_func ("/duel/fio-import/export-review-lengths", test_export_review_lengths);
  for (guint i = 0; i < G_N_ELEMENTS (hostile_imports); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/duel/fio-import/hostile-memory/%s", hostile_imports[i].name);

      g_test_add_data_func (test_path, &hostile_imports[i], test_hostile_memory);
    }

  return g_test_run ();
}
