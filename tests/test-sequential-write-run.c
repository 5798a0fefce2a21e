/* test-sequential-write-run.c — the sustained sequential write, run for real by driveduel-cli
 *
 * "driveduel-cli run --preset sequential-write" on a file and on a loop
 * device the test makes (root; skipped otherwise, and detached whatever
 * happens): the span is trimmed, then written exactly once in 1 MiB
 * sequential writes at QD8; the rows' bytes add up to the record's and to
 * the span; on the loop device the kernel's own count of sectors written
 * (/sys/block/loopN/stat) is the same again. "analyze" recomputes the
 * figures to what the run stored, and says how the write went.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "test-cli.h"
#include "test-devices.h"
#include "test-dir.h"

#define SPAN (G_GUINT64_CONSTANT (96) << 20)

/* Sectors written, field 7 of /sys/block/NAME/stat (Documentation/block/stat.rst). */
static guint64
sectors_written (const char *device)
{
  g_autofree char *base = g_path_get_basename (device);
  g_autofree char *path = g_build_filename ("/sys/block", base, "stat", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  guint64 field[7] = { 0, };
  char *cursor;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  cursor = text;
  for (guint i = 0; i < G_N_ELEMENTS (field); i++)
    field[i] = g_ascii_strtoull (cursor, &cursor, 10);
  return field[6];
}

/* The run's record, checked against what the preset promises; the bytes
 * it wrote. */
static guint64
check_result (const char *result_path,
              guint64     span)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_result_load (result_path, &error);
  DuelTestRecord *record;
  const DuelSeriesRow *rows;
  guint64 row_bytes = 0, row_ops = 0;
  double value;

  g_assert_no_error (error);
  record = duel_result_find_test (result, "seqw-fill");
  g_assert_nonnull (record);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_cmpint (record->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
  g_assert_cmpuint (record->workload.block_size, ==, 1024 * 1024);
  g_assert_cmpuint (record->workload.queue_depth, ==, 8);
  g_assert_false (duel_workload_reads (&record->workload));
  /* The span was trimmed first. */
  g_assert_true (record->trimmed);
  /* Rows of 100 ms whatever the plan's interval (1 s here): a small
   * drive's cache lasts a second or two. */
  g_assert_cmpuint (record->workload.interval_ms, ==, 100);

  /* The span once: what the rows hold is what was written. */
  rows = duel_series_get_rows (record->series);
  for (guint i = 0; i < duel_series_get_length (record->series); i++)
    {
      row_bytes += rows[i].bytes[DUEL_DIRECTION_WRITE];
      row_ops += rows[i].ops[DUEL_DIRECTION_WRITE];
      g_assert_cmpuint (rows[i].bytes[DUEL_DIRECTION_READ], ==, 0);
    }
  g_test_message ("%u rows, %" G_GUINT64_FORMAT " bytes in %.3f s", duel_series_get_length (record->series),
                  row_bytes, record->runtime_ns / 1e9);
  g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE), ==, span);
  g_assert_cmpuint (row_bytes, ==, span);
  g_assert_cmpuint (row_ops, ==, span / (1024 * 1024));

  /* Its analysis ran, and it is the sequential write's. */
  g_assert_cmpint (duel_analysis_kind_of_record (record), ==, DUEL_ANALYSIS_SEQUENTIAL_WRITE);
  g_assert_true (duel_test_record_get_figure (record, "seqw_written_gb", &value));
  g_assert_cmpfloat (value, ==, span / 1e9);
  g_assert_true (duel_test_record_get_figure (record, "seqw_mean_mbps", &value));
  g_assert_true (isfinite (value) && value > 0);
  g_assert_true (duel_test_record_get_figure (record, "seqw_time_s", &value));
  g_assert_true (isfinite (value) && value > 0);
  return row_bytes;
}

/* analyze: the stored figures recompute, and the write is told in words. */
static void
check_analyze (const char *result_path)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_cli (&out, &err, "analyze", result_path, NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "Sustained sequential write"));
  g_assert_nonnull (strstr (out, "Sequential write, mean over the whole write"));
  g_assert_true (strstr (out, "No fall: the write held ") != NULL || strstr (out, "The cache ran out after ") != NULL);
  g_assert_null (strstr (err, "differ"));

  g_assert_cmpint (run_cli (&out, &err, "analyze", "--json", result_path, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"analysis\" : \"sequential-write\""));
  g_assert_nonnull (strstr (out, "\"seqw_cache_gb\""));
  g_assert_nonnull (strstr (out, "\"sentences\""));
  g_assert_null (strstr (out, "\"matches_stored\" : false"));
}

static void
test_file (void)
{
  g_autofree char *dir = test_dir_make_direct_io ("seqw");
  g_autofree char *target = NULL;
  g_autofree char *result = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int fd, code;

  if (dir == NULL)
    {
      g_test_skip ("no folder where O_DIRECT works");
      return;
    }
  target = g_build_filename (dir, "target.img", NULL);
  result = g_build_filename (dir, "result.json", NULL);
  fd = open (target, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, SPAN), ==, 0);
  close (fd);

  code = run_cli (&out, &err, "run", "--preset", "sequential-write",
                  "-o", result, target, NULL);
  if (code == -1)
    goto out;
  g_test_message ("%s%s", out, err);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "1 MiB sequential write, QD8"));
  check_result (result, SPAN);
  check_analyze (result);

out:
  g_unlink (target);
  g_unlink (result);
  test_dir_remove (dir);
}

static void
test_loop (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *result = NULL;
  g_autofree char *device = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *skip = NULL;
  guint64 before, after, written;
  int code;

  if (getuid () != 0)
    {
      g_test_skip ("needs root for a loop device");
      return;
    }
  dir = test_dir_make_direct_io ("seqw-loop");
  if (dir == NULL)
    {
      g_test_skip ("no folder where O_DIRECT works");
      return;
    }
  backing = g_build_filename (dir, "backing.img", NULL);
  result = g_build_filename (dir, "result.json", NULL);
  /* udev's probe of the new device is done before the counts start. */
  device = test_loop_attach_counted (backing, SPAN, &skip);
  if (device == NULL)
    {
      g_test_skip (skip);
      test_dir_remove (dir);
      return;
    }

  before = sectors_written (device);
  code = run_cli (&out, &err, "run", "--preset", "sequential-write", "--destructive",
                  "-o", result, device, NULL);
  after = sectors_written (device);
  test_loop_detach (device);
  g_test_message ("%s%s", out ? out : "", err ? err : "");
  if (code != -1)
    {
      g_assert_cmpint (code, ==, 0);
      written = check_result (result, SPAN);
      /* The kernel counted the same bytes, and nothing else written. */
      g_test_message ("the device counted %" G_GUINT64_FORMAT " sectors written", after - before);
      g_assert_cmpuint ((after - before) * 512, ==, written);
      check_analyze (result);
    }
  g_unlink (backing);
  g_unlink (result);
  test_dir_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/sequential-write/run/file", test_file);
  g_test_add_func ("/duel/sequential-write/run/loop", test_loop);

  return g_test_run ();
}
