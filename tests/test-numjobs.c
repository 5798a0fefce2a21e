/* test-numjobs.c — several jobs at once (numjobs), merged into one record
 *
 * On a loop device the test sets up itself, the record is checked against
 * the kernel's own counts of the device's reads and writes; on a file, a
 * fill to twice the span. No verdict depends on the clock or on a random
 * draw: cancels are made after a number of rows, and the time they take is
 * only reported.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <gio/gio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "engine/duel-engine.h"
#include "duel-error.h"
#include "engine/duel-target.h"
#include "engine/duel-test-record.h"
#include "test-devices.h"
#include "test-dir.h"

#define MiB (1024 * 1024)
#define LOOP_SIZE (64 * MiB)

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = test_dir_make_direct_io ("duel-numjobs");
  g_assert_nonnull (fixture->dir);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
}

static DuelWorkload
make_workload (const char *rw,
               guint32     queue_depth,
               guint       numjobs)
{
  DuelWorkload workload;
  g_autoptr(GError) error = NULL;

  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, rw, &error);
  g_assert_no_error (error);
  workload.block_size = 4096;
  workload.queue_depth = queue_depth;
  workload.numjobs = numjobs;
  workload.interval_ms = 100;
  return workload;
}

/* The series and the histograms hold the same I/Os, every row but the last
 * ends on the interval grid (one clock for all jobs), and the last ends at
 * the last completion. */
static void
assert_record_consistent (DuelTestRecord *record)
{
  DuelSeriesRow total;
  guint n = duel_series_get_length (record->series);

  duel_series_sum (record->series, &total);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      const DuelHistogram *hist = record->latency[d];
      guint64 bucket_total = 0;

      for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
        bucket_total += hist->buckets[i];
      g_assert_cmpuint (bucket_total, ==, hist->count);
      g_assert_cmpuint (total.ops[d], ==, hist->count);
      g_assert_cmpuint (total.bytes[d], ==, hist->count * record->workload.block_size);
      g_assert_cmpuint (total.lat_max_ns[d], ==, hist->max_ns);
    }
  for (guint i = 0; i + 1 < n; i++)
    g_assert_cmpuint (duel_series_get_row (record->series, i)->t_ms, ==,
                      (i + 1) * (guint64) record->workload.interval_ms);
  if (n > 0)
    {
      const DuelSeriesRow *last = duel_series_get_row (record->series, n - 1);

      g_assert_cmpuint (last->t_ms, ==, (record->runtime_ns + 999999) / 1000000);
      if (n > 1)
        g_assert_cmpuint (last->t_ms, >, duel_series_get_row (record->series, n - 2)->t_ms);
    }
}

/* ---- progress ---------------------------------------------------------- */

typedef struct
{
  GThread      *thread;          /* the only one that may call back */
  guint         n_calls;
  guint         last_n_intervals;
  double        last_fraction;
  guint64       last_elapsed_ns;
  /* Cancel once this many rows are in, from the callback or (cancel_thread)
   * from another thread it wakes. */
  guint         cancel_after_rows;
  GCancellable *cancellable;
  gboolean      cancel_elsewhere;
  GMutex        lock;
  GCond         cond;
  gboolean      rows_reached;
  gint64        cancelled_at_us;
} ProgressLog;

static void
progress_log_init (ProgressLog *log)
{
  memset (log, 0, sizeof *log);
  log->thread = g_thread_self ();
  g_mutex_init (&log->lock);
  g_cond_init (&log->cond);
}

static void
progress_log_clear (ProgressLog *log)
{
  g_mutex_clear (&log->lock);
  g_cond_clear (&log->cond);
}

static void
progress_cb (const DuelProgress *progress,
             DuelTestRecord     *record,
             gpointer            user_data)
{
  ProgressLog *log = user_data;
  DuelSeriesRow total;

  g_assert_true (g_thread_self () == log->thread);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_RUNNING);
  log->n_calls++;

  g_assert_cmpuint (progress->n_intervals, >=, log->last_n_intervals);
  g_assert_cmpuint (progress->n_intervals, ==, duel_series_get_length (record->series));
  g_assert_cmpfloat (progress->fraction_done, >=, log->last_fraction);
  g_assert_cmpfloat (progress->fraction_done, <=, 1.0);
  g_assert_cmpuint (progress->elapsed_ns, >=, log->last_elapsed_ns);
  log->last_n_intervals = progress->n_intervals;
  log->last_fraction = progress->fraction_done;
  log->last_elapsed_ns = progress->elapsed_ns;

  /* What a checkpoint would save now is consistent: the rows hold what the
   * histograms hold, on the grid, and the snapshot counts at least that. */
  duel_series_sum (record->series, &total);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_assert_cmpuint (total.ops[d], ==, record->latency[d]->count);
      g_assert_cmpuint (progress->ops[d], >=, total.ops[d]);
      g_assert_cmpuint (progress->bytes[d], ==, progress->ops[d] * record->workload.block_size);
    }
  /* (The last row of the last call ends at the last completion.) */
  for (guint i = 0; i + 1 < progress->n_intervals; i++)
    g_assert_cmpuint (duel_series_get_row (record->series, i)->t_ms, ==,
                      (i + 1) * (guint64) record->workload.interval_ms);

  if (log->cancel_after_rows > 0 && progress->n_intervals >= log->cancel_after_rows &&
      log->cancelled_at_us == 0 && !log->rows_reached)
    {
      if (log->cancel_elsewhere)
        {
          g_mutex_lock (&log->lock);
          log->rows_reached = TRUE;
          g_cond_signal (&log->cond);
          g_mutex_unlock (&log->lock);
        }
      else
        {
          log->cancelled_at_us = g_get_monotonic_time ();
          g_cancellable_cancel (log->cancellable);
        }
    }
}

static gpointer
cancel_thread (gpointer data)
{
  ProgressLog *log = data;

  g_mutex_lock (&log->lock);
  while (!log->rows_reached)
    g_cond_wait (&log->cond, &log->lock);
  log->cancelled_at_us = g_get_monotonic_time ();
  g_mutex_unlock (&log->lock);
  g_cancellable_cancel (log->cancellable);
  return NULL;
}

/* Runs @record with a cancel after @rows rows (from another thread when
 * @elsewhere) and checks what a cancel leaves; returns the time from the
 * cancel to the return, in µs. */
static gint64
run_cancelled (DuelTarget     *target,
               DuelTestRecord *record,
               guint           rows,
               gboolean        elsewhere)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GThread *thread = NULL;
  ProgressLog log;
  gint64 returned_at_us, latency_us;

  progress_log_init (&log);
  log.cancel_after_rows = rows;
  log.cancellable = cancellable;
  log.cancel_elsewhere = elsewhere;
  if (elsewhere)
    thread = g_thread_new ("cancel", cancel_thread, &log);

  g_assert_false (duel_engine_run (target, record, cancellable, progress_cb, &log, &error));
  returned_at_us = g_get_monotonic_time ();
  if (thread != NULL)
    g_thread_join (thread);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_null (record->error_message);
  /* The rows before the cancel are kept, and the open one with the drain. */
  g_assert_cmpuint (duel_series_get_length (record->series), >=, rows);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), >, 0);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), >, 0);
  assert_record_consistent (record);

  latency_us = returned_at_us - log.cancelled_at_us;
  progress_log_clear (&log);
  return latency_us;
}

/* ---- the loop device -------------------------------------------------- */

/* The subprocess's output is not the test's: what it measured goes to a
 * file the parent prints. */
static void
note (const char *format,
      ...) G_GNUC_PRINTF (1, 2);

static void
note (const char *format,
      ...)
{
  const char *path = g_getenv ("DUEL_TEST_NOTES");
  g_autofree char *line = NULL;
  va_list args;
  FILE *file;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  g_test_message ("%s", line);
  if (path == NULL || (file = fopen (path, "a")) == NULL)
    return;
  fprintf (file, "%s\n", line);
  fclose (file);
}

static void
print_notes (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (g_strstrip (text), "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    g_test_message ("%s", lines[i]);
}

typedef struct
{
  guint64 reads;
  guint64 read_merges;
  guint64 writes;
  guint64 write_merges;
} DiskStat;

/* /sys/block/NAME/stat: reads completed, reads merged, …, writes completed,
 * writes merged (Documentation/block/stat.rst). */
static void
read_disk_stat (const char *device,
                DiskStat   *out)
{
  g_autofree char *base = g_path_get_basename (device);
  g_autofree char *path = g_build_filename ("/sys/block", base, "stat", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  guint64 field[6] = { 0, };
  char *cursor;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  cursor = text;
  for (guint i = 0; i < G_N_ELEMENTS (field); i++)
    field[i] = g_ascii_strtoull (cursor, &cursor, 10);
  out->reads = field[0];
  out->read_merges = field[1];
  out->writes = field[4];
  out->write_merges = field[5];
}

/* Every I/O of the record reached the device as one request, and nothing
 * else did: no job was left running. */
static void
assert_matches_device (DuelTestRecord *record,
                       const DiskStat *before,
                       const DiskStat *after)
{
  note ("%s: %" G_GUINT64_FORMAT " reads and %" G_GUINT64_FORMAT " writes; the device counted %"
        G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT,
        record->name,
        duel_test_record_get_ops (record, DUEL_DIRECTION_READ),
        duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE),
        after->reads - before->reads, after->writes - before->writes);
  g_assert_cmpuint (after->read_merges, ==, before->read_merges);
  g_assert_cmpuint (after->write_merges, ==, before->write_merges);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==, after->reads - before->reads);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), ==, after->writes - before->writes);
}

static void
loop_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelTarget) target = NULL;
  DiskStat before, after;

  if (!g_test_subprocess ())
    {
      g_test_skip ("the device half of a test, run in a subprocess");
      return;
    }

  /* Open for the whole test: closing a descriptor that wrote would have
   * udev probe (read) the device. */
  target = duel_target_open (device, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_EXCLUSIVE, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_target_get_size (target), ==, LOOP_SIZE);

  /* Two jobs, 50/50, QD8 each, to the size of the device. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randrw", 8, 2);
    ProgressLog log;

    workload.size_multiple = 1.0;
    record = duel_test_record_new ("loop-2-jobs", &workload);
    progress_log_init (&log);
    read_disk_stat (device, &before);
    g_assert_true (duel_engine_run (target, record, NULL, progress_cb, &log, &error));
    read_disk_stat (device, &after);
    g_assert_no_error (error);
    g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);

    g_assert_cmpuint (record->byte_limit, ==, LOOP_SIZE);
    g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_READ) +
                      duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE), ==, LOOP_SIZE);
    assert_matches_device (record, &before, &after);
    assert_record_consistent (record);
    note ("%s: %u rows, %u progress calls, %.3f s", record->name,
          duel_series_get_length (record->series), log.n_calls, record->runtime_ns / 1e9);
    g_assert_cmpuint (log.n_calls, >=, 1);
    g_assert_cmpfloat (log.last_fraction, ==, 1.0);
    progress_log_clear (&log);
  }

  /* Cancelled from the progress callback after three rows: every job
   * stops, what they did is all in the record. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randrw", 8, 2);
    gint64 latency_us;

    workload.runtime_ms = 600000;
    record = duel_test_record_new ("loop-cancel", &workload);
    read_disk_stat (device, &before);
    latency_us = run_cancelled (target, record, 3, FALSE);
    read_disk_stat (device, &after);
    assert_matches_device (record, &before, &after);
    note ("%s: 2 jobs returned %" G_GINT64_FORMAT " us after the cancel", record->name, latency_us);
  }

  /* Four jobs, cancelled from another thread. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randrw", 8, 4);
    gint64 latency_us;

    workload.runtime_ms = 600000;
    record = duel_test_record_new ("loop-cancel-thread", &workload);
    read_disk_stat (device, &before);
    latency_us = run_cancelled (target, record, 2, TRUE);
    read_disk_stat (device, &after);
    assert_matches_device (record, &before, &after);
    note ("%s: 4 jobs returned %" G_GINT64_FORMAT " us after the cancel from another thread",
          record->name, latency_us);
  }
}

static void
test_loop (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *backing = g_build_filename (fixture->dir, "loop-backing", NULL);
  g_autofree char *device = NULL;
  g_autofree char *notes = g_build_filename (fixture->dir, "notes", NULL);
  const char *skip = NULL;

  if (getuid () != 0)
    {
      g_test_skip ("needs root");
      return;
    }

  /* Requests are counted as the jobs made them: none merged into another. */
  device = test_loop_attach_counted (backing, LOOP_SIZE, &skip);
  if (device == NULL)
    {
      g_test_skip (skip);
      return;
    }
  g_setenv ("DUEL_TEST_DEVICE", device, TRUE);
  g_setenv ("DUEL_TEST_NOTES", notes, TRUE);
  g_test_trap_subprocess ("/duel/numjobs/subprocess/loop", 240 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  print_notes (notes);
  test_loop_detach (device);
  g_test_trap_assert_passed ();
}

/* ---- a file ------------------------------------------------------------ */

static void
test_file (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "target", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelTarget) target = NULL;

  target = duel_target_open (path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 16 * MiB, &error);
  g_assert_no_error (error);

  /* A fill to twice the span by three jobs: the shared budget is exact
   * though three does not divide it. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randwrite", 4, 3);
    ProgressLog log;

    workload.size_multiple = 2.0;
    record = duel_test_record_new ("file-fill", &workload);
    progress_log_init (&log);
    g_assert_true (duel_engine_run (target, record, NULL, progress_cb, &log, &error));
    g_assert_no_error (error);
    g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
    g_assert_cmpuint (record->byte_limit, ==, 32 * MiB);
    g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE), ==, 32 * MiB);
    g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), ==, 0);
    assert_record_consistent (record);
    g_assert_cmpfloat (log.last_fraction, ==, 1.0);
    progress_log_clear (&log);
  }

  /* More jobs than blocks of budget: jobs that get none stop at once. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randrw", 8, 8);

    workload.size_bytes = 3 * 4096;
    record = duel_test_record_new ("file-tiny", &workload);
    g_assert_true (duel_engine_run (target, record, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (duel_test_record_get_bytes (record, DUEL_DIRECTION_READ) +
                      duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE), ==, 3 * 4096);
    assert_record_consistent (record);
  }

  /* A cancel after a few rows. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randrw", 8, 2);
    gint64 latency_us;

    workload.runtime_ms = 600000;
    record = duel_test_record_new ("file-cancel", &workload);
    latency_us = run_cancelled (target, record, 3, FALSE);
    g_test_message ("file-cancel: 2 jobs returned %" G_GINT64_FORMAT " us after the cancel", latency_us);
  }

  /* A time limit: every job stops on the same clock. */
  {
    g_autoptr(DuelTestRecord) record = NULL;
    DuelWorkload workload = make_workload ("randread", 4, 2);

    workload.runtime_ms = 450;
    record = duel_test_record_new ("file-time", &workload);
    g_assert_true (duel_engine_run (target, record, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (record->runtime_ns, >=, 450 * G_GUINT64_CONSTANT (1000000));
    assert_record_consistent (record);
  }
}

/* Setting up fails in every job alike: one error, nothing measured. */
static void
test_setup_error (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "target", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelTestRecord) record = NULL;
  DuelWorkload workload = make_workload ("randread", 4096, 64);

  target = duel_target_open (path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 16 * MiB, &error);
  g_assert_no_error (error);

  /* 64 jobs of 4096 × 64 KiB: 16 GiB of buffers. */
  workload.block_size = 64 * 1024;
  workload.runtime_ms = 1000;
  record = duel_test_record_new ("too-big", &workload);
  g_assert_false (duel_engine_run (target, record, NULL, NULL, NULL, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "64 jobs"));
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_FAILED);
  g_assert_cmpstr (record->error_message, ==, error->message);
  g_assert_cmpuint (duel_series_get_length (record->series), ==, 0);
}

/* ---- an I/O error in one job ------------------------------------------- */

static void
zram_fault_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelTestRecord) record = NULL;
  DuelWorkload workload = make_workload ("randwrite", 8, 2);
  guint64 written;

  if (!g_test_subprocess ())
    {
      g_test_skip ("the device half of a test, run in a subprocess");
      return;
    }

  target = duel_target_open (device, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_EXCLUSIVE, 0, &error);
  g_assert_no_error (error);

  /* 64 MiB that keeps 2 MiB of incompressible data: after about 512
   * writes zram fails them with EIO, in one job first. */
  workload.size_multiple = 1.0;
  record = duel_test_record_new ("zram-full", &workload);
  g_assert_false (duel_engine_run (target, record, NULL, NULL, NULL, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_IO);
  note ("%s: %s", record->name, error->message);
  g_assert_nonnull (strstr (error->message, "Writing"));
  g_assert_nonnull (strstr (error->message, device));
  g_assert_nonnull (strstr (error->message, g_strerror (EIO)));
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_FAILED);
  g_assert_cmpstr (record->error_message, ==, error->message);

  /* Every job stopped; what made it is kept and consistent. */
  written = duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE);
  g_assert_cmpuint (written, >=, 1 * MiB);
  g_assert_cmpuint (written, <, 64 * MiB);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 1);
  assert_record_consistent (record);
  note ("%s: %" G_GUINT64_FORMAT " bytes written before it", record->name, written);
}

static void
test_zram_fault (void)
{
  g_autofree char *device = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-numjobs-XXXXXX", NULL);
  g_autofree char *notes = g_build_filename (dir, "notes", NULL);
  guint64 id;
  gboolean sized;

  if (getuid () != 0)
    {
      g_test_skip ("needs root");
      return;
    }
  if (!test_zram_add (&id, &device))
    {
      g_test_skip ("no zram (modprobe zram)");
      return;
    }

  sized = test_zram_set (id, "disksize", "64M") && test_zram_set (id, "mem_limit", "2M");
  if (sized)
    {
      g_setenv ("DUEL_TEST_DEVICE", device, TRUE);
      g_setenv ("DUEL_TEST_NOTES", notes, TRUE);
      g_test_trap_subprocess ("/duel/numjobs/subprocess/zram-fault", 120 * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_INHERIT_STDERR);
      print_notes (notes);
      g_unlink (notes);
    }
  g_rmdir (dir);
  g_assert_true (test_zram_remove (id));
  if (!sized)
    {
      g_test_skip ("cannot size the zram device");
      return;
    }
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/duel/numjobs/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("file", test_file);
  ADD ("setup-error", test_setup_error);
  ADD ("loop", test_loop);
  g_test_add_func ("/duel/numjobs/zram-fault", test_zram_fault);
  /* The device halves, run by g_test_trap_subprocess() (skipped otherwise). */
  g_test_add_func ("/duel/numjobs/subprocess/loop", loop_child);
  g_test_add_func ("/duel/numjobs/subprocess/zram-fault", zram_fault_child);

#undef ADD

  return g_test_run ();
}
