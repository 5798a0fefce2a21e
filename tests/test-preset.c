/* test-preset.c — the review's presets on real targets: a loop device and files
 *
 * write-saturation runs on a 256 MiB loop device over a file on a real
 * filesystem (skipped without root or loop devices): the discard must reach
 * the backing file, and the fill must write exactly twice the span. The loop
 * device is set up with LO_FLAGS_AUTOCLEAR while this process holds it open,
 * so the kernel detaches it even if the test dies halfway.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/loop.h>
#include <math.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "duel-error.h"
#include "engine/duel-offsets.h"
#include "run/duel-preset.h"
#include "test-run-plan.h"
#include "test-analyze-cli.h"
#include "duel-text.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)

/* ---- A loop device over a file on the test's filesystem ---------------------- */

typedef struct
{
  char *backing_path;
  int   backing_fd;
  int   loop_fd;
  char *loop_path;
} LoopDevice;

static void
loop_device_detach (LoopDevice *loop)
{
  if (loop->loop_fd >= 0)
    {
      ioctl (loop->loop_fd, LOOP_CLR_FD, 0);
      close (loop->loop_fd);
      loop->loop_fd = -1;
    }
  if (loop->backing_fd >= 0)
    {
      close (loop->backing_fd);
      loop->backing_fd = -1;
    }
  g_clear_pointer (&loop->backing_path, g_free);
  g_clear_pointer (&loop->loop_path, g_free);
}

/* FALSE (with a reason) when this machine cannot give us a loop device. */
static gboolean
loop_device_attach (LoopDevice  *loop,
                    guint64      size,
                    char       **out_reason)
{
  struct loop_config config = { 0 };
  g_autofree guint8 *chunk = NULL;
  int control, number;

  loop->backing_fd = loop->loop_fd = -1;
  if (geteuid () != 0)
    {
      *out_reason = g_strdup ("needs root for a loop device");
      return FALSE;
    }
  control = open ("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0)
    {
      *out_reason = g_strdup_printf ("no /dev/loop-control: %s", g_strerror (errno));
      return FALSE;
    }
  number = ioctl (control, LOOP_CTL_GET_FREE);
  close (control);
  if (number < 0)
    {
      *out_reason = g_strdup_printf ("no free loop device: %s", g_strerror (errno));
      return FALSE;
    }

  /* On the disk, not in memory: g_get_user_cache_dir() is the test's own tree. */
  loop->backing_path = g_build_filename (g_get_user_cache_dir (), "loop-backing.img", NULL);
  g_mkdir_with_parents (g_get_user_cache_dir (), 0700);
  loop->backing_fd = open (loop->backing_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert_cmpint (loop->backing_fd, >=, 0);
  /* Gone from the directory at once; the loop device and our fd keep it. */
  g_unlink (loop->backing_path);

  /* Fully allocated and non-zero, so that a discard shows. */
  chunk = g_malloc (MIB);
  memset (chunk, 0xa5, MIB);
  for (guint64 done = 0; done < size; done += MIB)
    g_assert_cmpint (pwrite (loop->backing_fd, chunk, MIB, (off_t) done), ==, (gssize) MIB);
  g_assert_cmpint (fsync (loop->backing_fd), ==, 0);

  loop->loop_path = g_strdup_printf ("/dev/loop%d", number);
  loop->loop_fd = open (loop->loop_path, O_RDWR | O_CLOEXEC);
  if (loop->loop_fd < 0)
    {
      *out_reason = g_strdup_printf ("cannot open %s: %s", loop->loop_path, g_strerror (errno));
      loop_device_detach (loop);
      return FALSE;
    }
  config.fd = (guint32) loop->backing_fd;
  config.block_size = 4096;
  config.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
  if (ioctl (loop->loop_fd, LOOP_CONFIGURE, &config) < 0)
    {
      /* Some filesystems refuse direct I/O under a loop device: go buffered. */
      config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
      if (ioctl (loop->loop_fd, LOOP_CONFIGURE, &config) < 0)
        {
          *out_reason = g_strdup_printf ("LOOP_CONFIGURE failed: %s", g_strerror (errno));
          loop_device_detach (loop);
          return FALSE;
        }
    }
  return TRUE;
}

static guint64
allocated_bytes (int fd)
{
  struct stat st;

  g_assert_cmpint (fstat (fd, &st), ==, 0);
  return (guint64) st.st_blocks * 512;
}

/* ---- write-saturation on the loop device -------------------------------------- */

typedef struct
{
  LoopDevice *loop;
  guint64     span;
  gboolean    checked_discard;
  guint64     allocated_before;
  guint64     allocated_after_discard;
  double      last_fraction;
  guint       n_checkpoints;
  guint       n_test_checkpoints;
} WsatState;

static void
wsat_progress_cb (const DuelRunStepsProgress *progress,
                  DuelTestRecord           *record,
                  gpointer                  user_data)
{
  WsatState *state = user_data;

  g_assert_cmpfloat (progress->fraction_done, >=, state->last_fraction - 1e-9);
  state->last_fraction = progress->fraction_done;

  /* Between the discard and the first write: the span must read as empty. */
  if (progress->engine == NULL && !progress->step_done &&
      g_strcmp0 (progress->step->name, DUEL_TEST_WSAT_FILL) == 0)
    {
      g_autofree guint8 *buf = NULL;
      int fd = open (state->loop->loop_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
      const guint64 offsets[] = { 0, MIB, 97 * MIB + 4096, state->span - MIB };

      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (posix_memalign ((void **) &buf, 4096, MIB), ==, 0);
      for (guint i = 0; i < G_N_ELEMENTS (offsets); i++)
        {
          g_assert_cmpint (pread (fd, buf, MIB, (off_t) offsets[i]), ==, (gssize) MIB);
          for (guint k = 0; k < MIB; k++)
            if (buf[k] != 0)
              g_error ("byte %u of the MiB at %" G_GUINT64_FORMAT " is %#x after the discard",
                       k, offsets[i], buf[k]);
        }
      close (fd);
      free (g_steal_pointer (&buf));

      state->allocated_after_discard = allocated_bytes (state->loop->backing_fd);
      state->checked_discard = TRUE;
    }
}

static void
wsat_checkpoint_cb (DuelResult *result,
                    gboolean    test_finished,
                    gpointer    user_data)
{
  WsatState *state = user_data;

  state->n_checkpoints++;
  if (test_finished)
    state->n_test_checkpoints++;
}

static void
test_write_saturation_loop (void)
{
  LoopDevice loop = { 0 };
  g_autofree char *reason = NULL;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelTestRecord *fill, *read;
  DuelSeriesRow total;
  WsatState state = { .loop = &loop, .span = 256 * MIB };
  JsonObject *details;
  double value;

  if (!loop_device_attach (&loop, 256 * MIB, &reason))
    {
      g_test_skip (reason);
      return;
    }
  state.allocated_before = allocated_bytes (loop.backing_fd);
  g_assert_cmpuint (state.allocated_before, >=, 256 * MIB);

  target = duel_target_open (loop.loop_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_EXCLUSIVE, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (duel_target_get_kind (target), ==, DUEL_TARGET_KIND_BLOCK);
  g_assert_cmpuint (duel_target_get_size (target), ==, 256 * MIB);

  duel_preset_options_init (&options);
  options.runtime_ms = 2000;     /* the read score */
  options.round_ms = 1000;
  options.interval_ms = 100;
  preset = duel_preset_new ("write-saturation", &options, &error);
  g_assert_no_error (error);
  steps = duel_run_steps_new (preset);
  duel_run_steps_set_callbacks (steps, wsat_progress_cb, wsat_checkpoint_cb, &state);

  duel_run_steps_run (steps, target, result, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&target);

  /* The discard reached the backing file: its blocks were freed, and the
   * device read back zeros (checked in the callback). */
  g_assert_true (state.checked_discard);
  g_test_message ("backing file: %" G_GUINT64_FORMAT " bytes allocated before, %" G_GUINT64_FORMAT
                  " after the discard, %" G_GUINT64_FORMAT " after the fill",
                  state.allocated_before, state.allocated_after_discard, allocated_bytes (loop.backing_fd));
  g_assert_cmpuint (state.allocated_after_discard, <, state.allocated_before / 100);
  g_assert_cmpuint (allocated_bytes (loop.backing_fd), >, 128 * MIB);

  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 2);
  fill = duel_result_find_test (result, DUEL_TEST_WSAT_FILL);
  read = duel_result_find_test (result, DUEL_TEST_WSAT_READ);
  g_assert_nonnull (fill);
  g_assert_nonnull (read);
  g_assert_cmpint (fill->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_true (fill->trimmed);
  g_assert_cmpstr (fill->preset, ==, "write-saturation");
  details = duel_test_record_get_details (fill);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (details, "discard"), "method"),
                   ==, "BLKDISCARD");
  g_assert_cmpstr (json_object_get_string_member (details, "analysis"), ==, "saturation");
  g_assert_true (json_object_has_member (details, "preset_parameters"));

  /* Exactly twice the span, by the series sum. */
  duel_series_sum (fill->series, &total);
  g_assert_cmpuint (total.bytes[DUEL_DIRECTION_WRITE], ==, 2 * 256 * MIB);
  g_assert_cmpuint (total.ops[DUEL_DIRECTION_WRITE], ==, 2 * 256 * MIB / 4096);
  g_assert_cmpuint (total.ops[DUEL_DIRECTION_READ], ==, 0);
  g_assert_true (duel_test_record_get_figure (fill, "capacity_written_pct", &value));
  g_assert_cmpfloat_with_epsilon (value, 200, 1e-9);
  g_assert_true (duel_test_record_get_figure (fill, "iops_at_0pct", &value));
  g_assert_cmpfloat (value, >, 0);
  g_assert_true (duel_test_record_get_figure (fill, "iops_at_end", &value));
  g_assert_cmpfloat (value, >, 0);

  g_assert_cmpint (read->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_cmpuint (duel_test_record_get_ops (read, DUEL_DIRECTION_WRITE), ==, 0);
  g_assert_true (duel_test_record_get_figure (read, "read_score_iops", &value));
  g_assert_cmpfloat (value, >, 0);

  /* Each test is saved before it runs (a crash names it) and when it ends. */
  g_assert_cmpuint (state.n_test_checkpoints, ==, 2 * 2);
  g_assert_cmpuint (state.n_checkpoints, >, state.n_test_checkpoints);
  g_assert_cmpfloat_with_epsilon (state.last_fraction, 1.0, 1e-9);

  loop_device_detach (&loop);
}

/* ---- consistency on a file ------------------------------------------------------ */

/* How many of the first @n I/Os of one job of @workload are reads: the mix
 * is drawn, I/O by I/O, from the workload's seed (duel-offsets.h). */
static guint64
reads_in_first (const DuelWorkload *workload,
                guint64             n)
{
  DuelOffsets offsets;
  guint64 reads = 0;

  duel_offsets_init (&offsets, workload->pattern, 0, 1024 * 1024, 4096,
                     workload->read_percent, workload->seed);
  for (guint64 i = 0; i < n; i++)
    reads += duel_offsets_next_is_read (&offsets);
  return reads;
}


static void
test_consistency_read_share (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("consistency.img", 64 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelTestRecord *record;
  guint64 reads, writes;
  double share, figure, intervals;

  duel_preset_options_init (&options);
  options.runtime_ms = 3000;
  options.interval_ms = 100;
  options.round_ms = 1000;
  preset = duel_preset_new ("consistency", &options, &error);
  g_assert_no_error (error);
  test_run_plan (preset, target, result, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = duel_result_find_test (result, DUEL_TEST_CONSISTENCY);
  g_assert_nonnull (record);
  g_assert_cmpuint (record->workload.read_percent, ==, 50);
  g_assert_cmpuint (record->workload.queue_depth, ==, 32);
  g_assert_cmpuint (record->workload.block_size, ==, 4096);

  /* The mix: how many I/Os a timed run does is the host's, so the share
   * is checked on the draws, not on the count. Every I/O drew read or write
   * from the step's seed in order: the run did exactly the reads of its
   * first reads + writes draws, and that sequence is 50/50 within 1 % over
   * 100000 draws (six standard deviations of a fair coin). */
  g_assert_cmpuint (record->workload.numjobs, ==, 1);
  reads = duel_test_record_get_ops (record, DUEL_DIRECTION_READ);
  writes = duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE);
  share = (double) reads / (double) (reads + writes);
  g_test_message ("%" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT " writes: %.4f read", reads, writes, share);
  g_assert_cmpuint (reads + writes, >, 0);
  g_assert_cmpuint (reads, ==, reads_in_first (&record->workload, reads + writes));
  g_assert_cmpfloat (fabs (reads_in_first (&record->workload, 100000) / 100000.0 - 0.5), <=, 0.01);

  /* The figure is the share over the complete intervals. */
  {
    guint n_complete = duel_analysis_complete_intervals (record->series, record->workload.interval_ms);
    double complete_reads = 0, complete_ops = 0;

    for (guint i = 0; i < n_complete; i++)
      {
        const DuelSeriesRow *row = duel_series_get_row (record->series, i);

        complete_reads += row->ops[DUEL_DIRECTION_READ];
        complete_ops += row->ops[DUEL_DIRECTION_READ] + row->ops[DUEL_DIRECTION_WRITE];
      }
    g_assert_true (duel_test_record_get_figure (record, "read_share_pct", &figure));
    if (complete_ops > 0)
      g_assert_cmpfloat_with_epsilon (figure, 100 * complete_reads / complete_ops, 1e-9);
    else
      g_assert_true (isnan (figure));
  }
  g_assert_true (duel_test_record_get_figure (record, "consistency_intervals", &intervals));
  g_assert_cmpfloat (intervals, >=, 29);     /* 3 s of 100 ms intervals */
  g_assert_cmpfloat (intervals, <=, 30);
  /* A stalled interval (0 IOPS) is a real measurement on a busy machine. */
  g_assert_true (duel_test_record_get_figure (record, "consistency_ratio", &figure));
  g_assert_cmpfloat (figure, >=, 0);
  g_assert_cmpfloat (figure, <=, 100);
}

/* ---- the quick review on a 1 GiB file, and analyze on the saved file ---------- */

static void
quick_progress_cb (const DuelRunStepsProgress *progress,
                   DuelTestRecord           *record,
                   gpointer                  user_data)
{
  double *last = user_data;

  g_assert_cmpfloat (progress->fraction_done, >=, *last - 1e-9);
  *last = progress->fraction_done;
}

static void
test_quick_review (void)
{
  static const char * const expected_tests[] = {
    DUEL_TEST_WSAT_FILL, DUEL_TEST_WSAT_READ, DUEL_TEST_CONSISTENCY,
    "qos-read-qd1", "qos-write-qd1", "qos-read-qd32", "qos-write-qd32", "qos-mix-qd32",
    "std-seq-write", "std-seq-read", "std-rand-read-qd1", "std-rand-write-qd1",
    "std-rand-read-qd32", "std-rand-write-qd32",
  };
  g_autoptr(DuelTarget) target = test_open_scratch ("quick.img", 1024 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "quick.json", NULL);
  DuelPresetEstimate estimate;
  GPtrArray *tests;
  double last_fraction = 0;
  gint64 start;
  double wall_s;

  preset = duel_preset_new ("quick", NULL, &error);
  g_assert_no_error (error);

  steps = duel_run_steps_new (preset);
  duel_run_steps_estimate (steps, target, 1000, NULL, &estimate, &error);
  g_assert_no_error (error);
  g_test_message ("quick estimate: probe %.0f IOPS, fill %.1f s, timed %.1f s, total %.1f s",
                  estimate.probe_write_iops, estimate.fill_seconds, estimate.timed_seconds,
                  estimate.total_seconds);
  g_assert_cmpfloat (estimate.probe_write_iops, >, 0);
  g_assert_cmpfloat (estimate.probe_end_write_iops, >, 0);
  g_assert_cmpuint (estimate.span_bytes, ==, 1024 * MIB);
  g_assert_cmpuint (estimate.fill_bytes, ==, 2048 * MIB);
  g_assert_cmpfloat_with_epsilon (estimate.total_seconds, estimate.fill_seconds + estimate.timed_seconds, 1e-9);
  /* The plan itself stays well within two minutes: the fill is capped at
   * 30 s and the timed tests take 58 s. */
  g_assert_cmpfloat (estimate.fill_seconds, <=, 30);
  g_assert_cmpfloat_with_epsilon (estimate.timed_seconds, 58.5, 1e-9);
  g_assert_cmpfloat (estimate.total_seconds, <, 90);

  duel_result_set_target_from (result, target);
  duel_run_steps_set_callbacks (steps, quick_progress_cb, NULL, &last_fraction);
  start = g_get_monotonic_time ();
  duel_run_steps_run (steps, target, result, NULL, &error);
  g_assert_no_error (error);
  wall_s = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("quick review: %.1f s wall time", wall_s);
  g_assert_cmpfloat (last_fraction, ==, 1.0);

  tests = duel_result_get_tests (result);
  g_assert_cmpuint (tests->len, ==, G_N_ELEMENTS (expected_tests));
  {
    /* The fill keeps what the time left was estimated from (duel-run-eta.h). */
    JsonObject *details = duel_test_record_get_details (g_ptr_array_index (tests, 0));
    JsonObject *probe = json_object_get_object_member (details, "probe");

    g_assert_nonnull (probe);
    /* It ran at least the 1 s asked for, on while its rate had not fallen
     * (duel-probe.h), and says how long it did run. */
    g_assert_cmpint (json_object_get_int_member (probe, "runtime_ms"), ==, (gint64) estimate.probe_ms);
    g_assert_cmpuint (estimate.probe_ms, >=, 1000);
    g_assert_true (json_object_has_member (probe, "fall_bytes"));
    g_assert_cmpfloat (json_object_get_double_member (probe, "write_iops"), ==, estimate.probe_write_iops);
    g_assert_cmpfloat (json_object_get_double_member (probe, "end_write_iops"), ==, estimate.probe_end_write_iops);
  }
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      g_assert_cmpstr (record->name, ==, expected_tests[i]);
      g_assert_cmpstr (record->preset, ==, "quick");
      g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_nonnull (record->summary);
      g_assert_true (json_object_has_member (duel_test_record_get_details (record), "preset_parameters"));
    }

  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);

  /* analyze's path: recompute every figure from the loaded file. */
  g_assert_cmpuint (duel_result_get_tests (loaded)->len, ==, tests->len);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *original = g_ptr_array_index (tests, i);
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (loaded), i);
      g_autoptr(DuelSummary) summary = duel_analysis_resummarize (record, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (duel_summary_get_n_figures (summary), >, 0);
      for (guint k = 0; k < duel_summary_get_n_figures (summary); k++)
        {
          const char *key = duel_summary_get_key (summary, k);
          double in_memory;

          g_assert_true (duel_test_record_get_figure (original, key, &in_memory));
          if (!test_same_value (in_memory, duel_summary_get_value (summary, k)))
            g_error ("%s: %s is %.17g in memory, %.17g recomputed from the file",
                     record->name, key, in_memory, duel_summary_get_value (summary, k));
        }
    }

  test_analyze_matches_run (path, result);
  g_unlink (path);
}

/* ---- cancel, estimate without a fill, bad options ------------------------------ */

static void
cancel_progress_cb (const DuelRunStepsProgress *progress,
                    DuelTestRecord           *record,
                    gpointer                  user_data)
{
  if (progress->engine != NULL && progress->engine->n_intervals >= 5)
    g_cancellable_cancel (user_data);
}

static void
test_cancel_keeps_summary (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("cancel.img", 64 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelTestRecord *record;
  double intervals;

  duel_preset_options_init (&options);
  options.interval_ms = 100;
  options.round_ms = 1000;
  preset = duel_preset_new ("qos", &options, &error);   /* 60 s tests, stopped after five rows */
  g_assert_no_error (error);
  steps = duel_run_steps_new (preset);
  duel_run_steps_set_callbacks (steps, cancel_progress_cb, NULL, cancellable);
  g_assert_false (duel_run_steps_run (steps, target, result, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* The first test stopped; nothing after it ran; what it measured is summarised. */
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = g_ptr_array_index (duel_result_get_tests (result), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_true (duel_test_record_get_figure (record, "qos_read_qd1_samples", &intervals));
  g_assert_cmpfloat (intervals, >, 0);
}

static void
test_estimate_timed_only (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("estimate.img", 16 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelPresetEstimate estimate;

  duel_preset_options_init (&options);
  options.runtime_ms = 7000;
  preset = duel_preset_new ("standard", &options, &error);
  g_assert_no_error (error);
  /* No fill, so no probe is needed or run. */
  steps = duel_run_steps_new (preset);
  duel_run_steps_estimate (steps, target, 1000, NULL, &estimate, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (estimate.fill_bytes, ==, 0);
  g_assert_true (isnan (estimate.probe_write_iops));
  g_assert_true (isnan (estimate.probe_end_write_iops));
  g_assert_cmpfloat_with_epsilon (estimate.timed_seconds, 6 * 7.0, 1e-9);
  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, 6);
}

/* Durations read as people read them, and each test's part of a plan's
 * estimate as one line of text (the CLI's and the preset page's). */
static void
test_estimate_text (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("estimate-text.img", 16 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelPreset) single = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) none = NULL;
  DuelPresetOptions options;
  DuelPresetEstimate estimate;
  const char *cases[][2] = {
    { "0", "0 s" }, { "44.6", "45 s" }, { "200", "3 min 20 s" }, { "3599.4", "59 min 59 s" },
    { "7500", "2 h 05 min" }, { "-1", "?" }, { "nan", "?" }, { "inf", "?" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = duel_text_format_duration (g_ascii_strtod (cases[i][0], NULL));

      g_assert_cmpstr (text, ==, cases[i][1]);
    }

  /* Recovery after idle rests the drive 5 and 30 minutes: its line says so. */
  duel_preset_options_init (&options);
  options.n_idle = 2;
  options.idle_ms[0] = 5 * 60000;
  options.idle_ms[1] = 30 * 60000;
  preset = duel_preset_new ("recovery", &options, &error);
  g_assert_no_error (error);
  steps = duel_run_steps_new (preset);
  duel_run_steps_estimate (steps, target, 1000, NULL, &estimate, &error);
  g_assert_no_error (error);
  lines = duel_preset_describe_estimate_by_test (preset, &estimate);
  g_assert_nonnull (lines);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "Recovery after idle: "));
  g_assert_true (g_str_has_suffix (lines[0], ", 35 min 00 s of it idle"));

  /* One test that never rests: the total says it all. */
  duel_preset_options_init (&options);
  options.runtime_ms = 7000;
  single = duel_preset_new ("consistency", &options, &error);
  g_assert_no_error (error);
  g_clear_pointer (&steps, duel_run_steps_free);
  steps = duel_run_steps_new (single);
  duel_run_steps_estimate (steps, target, 1000, NULL, &estimate, &error);
  g_assert_no_error (error);
  none = duel_preset_describe_estimate_by_test (single, &estimate);
  g_assert_null (none);
}

static void
test_bad_options (void)
{
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelPreset *preset;

  preset = duel_preset_new ("no-such-preset", NULL, &error);
  g_assert_null (preset);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  duel_preset_options_init (&options);
  options.interval_ms = 2000;
  options.round_ms = 1000;
  preset = duel_preset_new ("review", &options, &error);
  g_assert_null (preset);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  duel_preset_options_init (&options);
  options.capacity_multiple = -1;
  preset = duel_preset_new ("write-saturation", &options, &error);
  g_assert_null (preset);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  for (const char * const *name = duel_preset_get_names (); *name != NULL; name++)
    g_assert_nonnull (duel_preset_describe (*name));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/preset/options", test_bad_options);
  g_test_add_func ("/duel/preset/estimate/timed-only", test_estimate_timed_only);
  g_test_add_func ("/duel/preset/estimate/text", test_estimate_text);
  g_test_add_func ("/duel/preset/write-saturation/loop", test_write_saturation_loop);
  g_test_add_func ("/duel/preset/consistency/read-share", test_consistency_read_share);
  g_test_add_func ("/duel/preset/cancel", test_cancel_keeps_summary);
  g_test_add_func ("/duel/preset/quick/file", test_quick_review);

  return g_test_run ();
}
