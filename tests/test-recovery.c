/* test-recovery.c — recovery after idle: the plan, real runs on a file and a loop device, a stop while idle
 *
 * The preset "recovery" trims, fills, then rests the drive for each idle
 * period (no I/O from the run) and measures a burst of 4 KiB random
 * writes after each. Checked here:
 *  - the plan: the test's own periods (5 and 30 min) or the person's, a
 *    burst without a period left out, the estimate counting the idle time,
 *    the periods in the records' parameters, bad periods refused;
 *  - a run on a file: each burst's record says how long the drive rested
 *    (at least the period: the wait is on the monotonic clock) and the
 *    fill's fresh and dirty speeds; its figures against a hand computation
 *    from the records' own counts; the same figures recomputed from the
 *    saved file and printed by `driveduel-cli analyze`; a countdown while
 *    idle;
 *  - on a loop device (root): the kernel counted no request on the device
 *    from the idle's start to its end, and as many writes in all as the
 *    records hold;
 *  - a stop while idle (a period of an hour) is heard at once: the run
 *    ends cancelled with its fill complete and no burst.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "run/duel-preset.h"
#include "run/duel-run-steps.h"
#include "test-analyze-cli.h"
#include "test-run-plan.h"
#include "test-devices.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)


/* The I/O a record counted in direction @direction. */
static guint64
record_ops (const DuelTestRecord *record,
            DuelDirection         direction)
{
  DuelSeriesRow total;

  duel_series_sum (record->series, &total);
  return total.ops[direction];
}

/* Short periods and bursts on a small span. */
static void
short_options (DuelPresetOptions *options)
{
  duel_preset_options_init (options);
  options->span_bytes = 32 * MIB;
  options->runtime_ms = 500;
  options->interval_ms = 100;
  options->n_idle = 2;
  options->idle_ms[0] = 300;
  options->idle_ms[1] = 700;
}

/* ---- the plan ------------------------------------------------------------------ */

static void
test_plan (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("plan.img", 64 * MIB);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelPreset) given = NULL;
  g_autoptr(JsonNode) parameters = NULL;
  DuelPresetOptions options;
  DuelPresetEstimate estimate;
  JsonArray *periods;
  const char *names[] = { "discard", "recovery-fresh", "recovery-fill", "idle", "recovery-cache-1",
                          "recovery-burst-1", "idle", "recovery-cache-2", "recovery-burst-2" };
  const guint64 idle[] = { 0, 0, 0, 300000, 300000, 300000, 1800000, 1800000, 1800000 };

  /* The test's own periods: 5 and 30 minutes, the last two bursts out. */
  preset = duel_preset_new ("recovery", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (duel_preset_prepare (preset, target, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (preset, i);

      g_assert_cmpstr (step->name, ==, names[i]);
      g_assert_cmpuint (step->idle_ms, ==, idle[i]);
      g_assert_cmpint (step->kind == DUEL_PRESET_STEP_IDLE, ==, g_str_equal (names[i], "idle"));
      /* The cache after an idle: 1 MiB sequential writes, a quarter of the
       * span or two minutes at most, in rows of 100 ms. */
      if (g_str_has_prefix (names[i], "recovery-cache-"))
        {
          g_assert_cmpint (step->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
          g_assert_cmpuint (step->workload.block_size, ==, MIB);
          g_assert_cmpfloat (step->workload.size_multiple, ==, 0.25);
          g_assert_cmpuint (step->workload.runtime_ms, ==, 120000);
          g_assert_cmpuint (step->workload.interval_ms, ==, 100);
        }
    }
  /* The idle time is part of the estimate: 35 minutes and three 30 s bursts. */
  duel_preset_estimate_from_probe (preset, NULL, &estimate);
  g_assert_cmpfloat (estimate.timed_seconds, >=, 2100 + 90);
  parameters = duel_preset_get_parameters (preset);
  periods = json_object_get_array_member (json_node_get_object (parameters), "idle_ms");
  g_assert_cmpuint (json_array_get_length (periods), ==, 2);
  g_assert_cmpint (json_array_get_int_element (periods, 0), ==, 300000);
  g_assert_cmpint (json_array_get_int_element (periods, 1), ==, 1800000);

  /* The person's: one period, one burst. */
  duel_preset_options_init (&options);
  options.n_idle = 1;
  options.idle_ms[0] = 90000;
  given = duel_preset_new ("recovery", &options, &error);
  g_assert_no_error (error);
  g_assert_true (duel_preset_prepare (given, target, &error));
  g_assert_cmpuint (duel_preset_get_n_steps (given), ==, 6);
  g_assert_cmpuint (duel_preset_get_step (given, 3)->idle_ms, ==, 90000);
  g_assert_cmpstr (duel_preset_get_step (given, 4)->name, ==, "recovery-cache-1");
  g_assert_cmpstr (duel_preset_get_step (given, 5)->name, ==, "recovery-burst-1");
}

/* The cache after idle on rows of known shape: 20 rows of 100 writes of
 * 1 MiB, then 10 of 20. With a pause of the process in the fast part, the
 * row it touched is not the drive's: the figures leave it out, as every
 * other figure does (duel_test_record_get_figure_series()). */
static void
test_cache_leaves_pauses_out (void)
{
  DuelWorkload w;
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(DuelSummary) plain = NULL;
  g_autoptr(DuelSummary) paused = NULL;
  DuelPause pause = { .at_ms = 250, .row = 2, .rows = 1, .fraction = 0.05, .length_ns = 30 * G_GUINT64_CONSTANT (1000000000) };
  double cache_gb, paused_gb, mbps, paused_mbps;

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, "write", NULL));
  w.block_size = MIB;
  w.queue_depth = 8;
  w.interval_ms = 100;
  record = duel_test_record_new ("recovery-cache-1", &w);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  for (guint i = 0; i < 30; i++)
    {
      /* The paused row took as long as the others on the engine's clock,
       * yet wrote 10 times as much: what a pause does to a row. */
      guint64 ops = i < 20 ? (i == 2 ? 1000 : 100) : 20;
      DuelSeriesRow row = { .t_ms = 100 * (i + 1) };

      row.ops[DUEL_DIRECTION_WRITE] = ops;
      row.bytes[DUEL_DIRECTION_WRITE] = ops * MIB;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = 3 * G_GUINT64_CONSTANT (1000000000);

  plain = duel_analysis_summarize (record, DUEL_ANALYSIS_RECOVERY, NULL);
  g_assert_true (duel_summary_lookup (plain, "recovery_cache_gb", &cache_gb));
  g_assert_true (duel_summary_lookup (plain, "recovery_cache_mbps", &mbps));
  g_assert_cmpfloat_with_epsilon (cache_gb, (19 * 100 + 1000) * (double) MIB / 1e9, 1e-12);

  duel_test_record_add_pause (record, &pause);
  paused = duel_analysis_summarize (record, DUEL_ANALYSIS_RECOVERY, NULL);
  g_assert_true (duel_summary_lookup (paused, "recovery_cache_gb", &paused_gb));
  g_assert_true (duel_summary_lookup (paused, "recovery_cache_mbps", &paused_mbps));
  g_assert_cmpfloat_with_epsilon (paused_gb, 19 * 100 * (double) MIB / 1e9, 1e-12);
  /* 100 MiB in each 100 ms row, the paused one left out. */
  g_assert_cmpfloat_with_epsilon (paused_mbps, 100 * (double) MIB / 0.1 / 1e6, 1e-6);
  g_assert_cmpfloat (mbps, >, paused_mbps);
}

static void
test_bad_options (void)
{
  DuelPresetOptions options;
  g_autoptr(GError) error = NULL;

  duel_preset_options_init (&options);
  options.n_idle = DUEL_REVIEW_MAX_IDLE + 1;
  g_assert_null (duel_preset_new ("recovery", &options, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  duel_preset_options_init (&options);
  options.n_idle = 1;
  options.idle_ms[0] = DUEL_PRESET_MIN_IDLE_MS - 1;
  g_assert_null (duel_preset_new ("recovery", &options, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* A test that does not rest the drive takes no periods. */
  options.idle_ms[0] = 1000;
  g_assert_null (duel_preset_new ("qos", &options, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Periods typed as fio's times: seconds unless a unit says otherwise. */
  duel_preset_options_init (&options);
  g_assert_true (duel_preset_parse_idle (" 90, 2m,1500ms , 1h", &options, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (options.n_idle, ==, 4);
  g_assert_cmpuint (options.idle_ms[0], ==, 90000);
  g_assert_cmpuint (options.idle_ms[1], ==, 120000);
  g_assert_cmpuint (options.idle_ms[2], ==, 1500);
  g_assert_cmpuint (options.idle_ms[3], ==, 3600000);
  for (guint i = 0; i < 3; i++)
    {
      static const char * const bad[] = { "5x", "-1m", "5m,,30m" };

      g_assert_false (duel_preset_parse_idle (bad[i], &options, &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
  /* Unchanged by the refused ones. */
  g_assert_cmpuint (options.n_idle, ==, 4);
}

/* ---- a run on a file ----------------------------------------------------------- */

/* Whether comparing @a with @b warns that the amounts written differ. */
static gboolean
amounts_differ (DuelResult *a,
                DuelResult *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) comparison = duel_comparison_new (a, b, &error);
  const char * const *warnings;

  g_assert_no_error (error);
  warnings = duel_comparison_get_warnings (comparison);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    if (strstr (warnings[i], "of its span, the run on") != NULL)
      return TRUE;
  return FALSE;
}

/* @record with one more row of @bytes written, 100 ms after its last. */
static void
write_more (DuelTestRecord *record,
            guint64         bytes)
{
  guint n = duel_series_get_length (record->series);
  DuelSeriesRow row = { .temperature_c = NAN };

  row.t_ms = (n > 0 ? duel_series_get_row (record->series, n - 1)->t_ms : 0) + 100;
  row.ops[DUEL_DIRECTION_WRITE] = bytes / record->workload.block_size;
  row.bytes[DUEL_DIRECTION_WRITE] = bytes;
  duel_series_append (record->series, &row);
}

/* Two drives' writes until their rate falls end where each fell: what they
 * wrote is what they measure, and a comparison does not warn that the
 * amounts differ; two fills that wrote different amounts still do. */
static void
check_amounts_warning (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) a = duel_result_load (path, &error);
  g_autoptr(DuelResult) b = duel_result_load (path, &error);
  g_autoptr(DuelResult) c = duel_result_load (path, &error);

  g_assert_no_error (error);
  g_assert_false (amounts_differ (a, b));
  write_more (duel_result_find_test (b, "recovery-cache-1"), 4 * MIB);
  g_assert_false (amounts_differ (a, b));
  write_more (duel_result_find_test (c, "recovery-fill"), 4 * MIB);
  g_assert_true (amounts_differ (a, c));
}

typedef struct
{
  guint countdowns;        /* idle progress calls with the time done so far */
  gboolean idle_seen;
  GCancellable *stop;      /* cancelled at the first countdown, if set */
  /* On a loop device: its completed requests at each idle's start and end. */
  const char *stat_path;
  guint64 at_idle_start[DUEL_REVIEW_MAX_IDLE];
  guint64 at_idle_end[DUEL_REVIEW_MAX_IDLE];
  guint n_idle_started, n_idle_ended;
} Watch;

/* Field @field (0-based) of the device's /sys/block/X/stat, summed with
 * field @field + 4: reads and writes alike (0: requests completed, 2:
 * sectors). */
static guint64
stat_reads_and_writes (const char *stat_path,
                       guint       field)
{
  g_autofree char *text = NULL;
  guint64 value[7] = { 0 };

  g_assert_cmpuint (field + 4, <, G_N_ELEMENTS (value));
  g_assert_true (g_file_get_contents (stat_path, &text, NULL, NULL));
  g_assert_cmpint (sscanf (text, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
                           &value[0], &value[1], &value[2], &value[3], &value[4], &value[5], &value[6]), ==, 7);
  return value[field] + value[field + 4];
}

/* Reads and writes the kernel completed on the device. */
static guint64
completed_requests (const char *stat_path)
{
  return stat_reads_and_writes (stat_path, 0);
}

/* Sectors read and written: a large write split into several requests is
 * still its own bytes. */
static guint64
completed_sectors (const char *stat_path)
{
  return stat_reads_and_writes (stat_path, 2);
}

static void
watch_progress_cb (const DuelRunStepsProgress *progress,
                   DuelTestRecord             *record,
                   gpointer                    user_data)
{
  Watch *watch = user_data;

  if (progress->step->kind != DUEL_PRESET_STEP_IDLE)
    return;
  g_assert_null (record);
  watch->idle_seen = TRUE;
  if (progress->engine == NULL && !progress->step_done && watch->stat_path != NULL)
    watch->at_idle_start[watch->n_idle_started++] = completed_requests (watch->stat_path);
  else if (progress->step_done && watch->stat_path != NULL)
    watch->at_idle_end[watch->n_idle_ended++] = completed_requests (watch->stat_path);
  else if (progress->engine != NULL)
    {
      /* The countdown: the time done so far of the whole period. */
      g_assert_cmpuint (progress->engine->runtime_limit_ns, ==, progress->step->idle_ms * 1000000);
      g_assert_cmpfloat (progress->engine->fraction_done, >=, 0);
      g_assert_cmpfloat (progress->engine->fraction_done, <, 1);
      g_assert_cmpuint (progress->engine->ops[DUEL_DIRECTION_WRITE], ==, 0);
      watch->countdowns++;
      if (watch->stop != NULL)
        g_cancellable_cancel (watch->stop);
    }
}

static gboolean
run_plan (DuelPreset    *preset,
          DuelTarget    *target,
          DuelResult    *result,
          Watch         *watch,
          GError       **error)
{
  DuelRunSteps *steps = duel_run_steps_new (preset);
  gboolean ok;

  duel_run_steps_set_callbacks (steps, watch_progress_cb, NULL, watch);
  ok = duel_run_steps_run (steps, target, result, watch->stop, error);
  duel_run_steps_free (steps);
  return ok;
}

/* The records of a finished run against what the plan asked and a hand
 * computation from their counts. */
static void
check_records (DuelResult              *result,
               const DuelPresetOptions *options)
{
  GPtrArray *tests = duel_result_get_tests (result);
  DuelTestRecord *first = g_ptr_array_index (tests, 0);
  DuelTestRecord *fill = g_ptr_array_index (tests, 1);
  /* The fresh speed: the first burst's, by hand from its counts. */
  double fresh = record_ops (first, DUEL_DIRECTION_WRITE) / (first->runtime_ns / 1e9);
  double dirty = duel_test_record_get_figure_value (fill, "plateau_iops");
  const DuelTestRecord *before = fill;

  g_assert_cmpuint (tests->len, ==, 2 + 2 * options->n_idle);
  g_assert_cmpstr (first->name, ==, "recovery-fresh");
  g_assert_cmpstr (fill->name, ==, "recovery-fill");
  g_assert_true (isfinite (fresh) && fresh > 0);
  g_assert_cmpfloat_with_epsilon (duel_test_record_get_figure_value (first, "recovery_iops"), fresh, fresh * 1e-9);
  g_assert_false (json_object_has_member (duel_test_record_get_details (first), "recovery"));
  for (guint k = 0; k < options->n_idle; k++)
    {
      guint i = k + 2;
      DuelTestRecord *cache = g_ptr_array_index (tests, 2 + 2 * k);
      DuelTestRecord *burst = g_ptr_array_index (tests, 3 + 2 * k);
      JsonObject *recovery = json_object_get_object_member (duel_test_record_get_details (burst), "recovery");
      g_autofree char *name = g_strdup_printf ("recovery-burst-%u", i - 1);
      g_autofree char *cache_name = g_strdup_printf ("recovery-cache-%u", i - 1);
      double iops = record_ops (burst, DUEL_DIRECTION_WRITE) / (burst->runtime_ns / 1e9);
      double value;
      GTimeSpan gap;

      g_assert_cmpstr (burst->name, ==, name);
      g_assert_cmpint (burst->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_cmpint (json_object_get_int_member (recovery, "idle_planned_ms"), ==, options->idle_ms[i - 2]);
      /* Rested at least the period, on the monotonic clock. */
      g_assert_cmpint (json_object_get_int_member (recovery, "idle_ms"), >=, options->idle_ms[i - 2]);
      g_assert_cmpfloat (json_object_get_double_member (recovery, "fresh_iops"), ==,
                         duel_test_record_get_figure_value (first, "recovery_iops"));
      g_assert_cmpfloat (json_object_get_double_member (recovery, "dirty_iops"), ==, dirty);
      /* On the wall clock too, from the end of the step before the idle to
       * the sequential write right after it (10 ms for the clocks'
       * rounding: the records keep microseconds). */
      gap = g_date_time_difference (cache->started, before->started) - (GTimeSpan) (before->runtime_ns / 1000);
      g_assert_cmpint (gap, >=, (GTimeSpan) options->idle_ms[i - 2] * 1000 - 10000);

      /* The figures, by hand from the record's own counts. */
      g_assert_cmpuint (record_ops (burst, DUEL_DIRECTION_READ), ==, 0);
      g_assert_cmpfloat_with_epsilon (duel_test_record_get_figure_value (burst, "recovery_iops"), iops, iops * 1e-9);
      g_assert_cmpfloat_with_epsilon (duel_test_record_get_figure_value (burst, "recovery_fresh_pct"),
                                      100 * iops / fresh, 1e-6);
      g_assert_cmpfloat (duel_test_record_get_figure_value (burst, "idle_s"), ==,
                         json_object_get_int_member (recovery, "idle_ms") / 1e3);
      if (fresh > dirty)
        g_assert_cmpfloat_with_epsilon (duel_test_record_get_figure_value (burst, "recovery_regained_pct"),
                                        100 * (iops - dirty) / (fresh - dirty), 1e-6);
      else
        g_assert_true (isnan (duel_test_record_get_figure_value (burst, "recovery_regained_pct")));

      /* The sequential write right after the idle, before the burst: a
       * quarter of the span at most, in whole 1 MiB writes. */
      g_assert_cmpstr (cache->name, ==, cache_name);
      g_assert_cmpint (cache->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_cmpint (cache->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
      g_assert_cmpuint (record_ops (cache, DUEL_DIRECTION_READ), ==, 0);
      g_assert_cmpuint (record_ops (cache, DUEL_DIRECTION_WRITE) * MIB, ==,
                        duel_test_record_get_bytes (cache, DUEL_DIRECTION_WRITE));
      g_assert_cmpuint (duel_test_record_get_bytes (cache, DUEL_DIRECTION_WRITE), <=, options->span_bytes / 4 + MIB);
      g_assert_cmpfloat (duel_test_record_get_figure_value (cache, "recovery_seq_gb"), ==,
                         duel_test_record_get_bytes (cache, DUEL_DIRECTION_WRITE) / 1e9);
      g_assert_cmpfloat (duel_test_record_get_figure_value (cache, "idle_s"), ==,
                         duel_test_record_get_figure_value (burst, "idle_s"));
      g_assert_false (duel_test_record_get_figure (cache, "recovery_iops", &value));
      before = burst;
    }
}

static void
test_file (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("recovery.img", 32 * MIB);
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "recovery.json", NULL);
  DuelPresetOptions options;
  Watch watch = { 0 };

  short_options (&options);
  preset = duel_preset_new ("recovery", &options, &error);
  g_assert_no_error (error);
  g_assert_true (run_plan (preset, target, result, &watch, &error));
  g_assert_no_error (error);
  g_assert_true (watch.idle_seen);
  g_assert_cmpuint (watch.countdowns, >=, 2);
  check_records (result, &options);

  /* The same figures from the saved file, by the loader and by analyze. */
  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  for (guint i = 2; i < duel_result_get_tests (loaded)->len; i++)
    {
      DuelTestRecord *original = g_ptr_array_index (duel_result_get_tests (result), i);
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (loaded), i);
      g_autoptr(DuelSummary) summary = duel_analysis_resummarize (record, NULL, &error);

      g_assert_no_error (error);
      /* IOPS, share of fresh, idle; regained where fresh was above dirty. */
      g_assert_cmpuint (duel_summary_get_n_figures (summary), >=, 3);
      for (guint k = 0; k < duel_summary_get_n_figures (summary); k++)
        {
          double in_memory = NAN;

          duel_test_record_get_figure (original, duel_summary_get_key (summary, k), &in_memory);
          g_assert_true (test_same_value (in_memory, duel_summary_get_value (summary, k)));
        }
    }
  test_analyze_matches_run (path, result);
  check_amounts_warning (path);
  g_unlink (path);
}

/* ---- on a loop device: no request while idle ------------------------------------ */

static void
test_loop_subprocess (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autofree char *base = g_path_get_basename (device);
  g_autofree char *stat_path = g_build_filename ("/sys/block", base, "stat", NULL);
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  Watch watch = { .stat_path = stat_path };
  guint64 before, after, sectors_before, sectors_after, small_ops = 0, large_ops = 0, bytes = 0;

  if (!g_test_subprocess ())
    {
      g_test_skip ("the device half of /duel/recovery/loop, run in a subprocess");
      return;
    }

  target = duel_target_open (device, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_EXCLUSIVE, 0, &error);
  g_assert_no_error (error);
  short_options (&options);
  preset = duel_preset_new ("recovery", &options, &error);
  g_assert_no_error (error);

  before = completed_requests (stat_path);
  sectors_before = completed_sectors (stat_path);
  g_assert_true (run_plan (preset, target, result, &watch, &error));
  g_assert_no_error (error);
  after = completed_requests (stat_path);
  sectors_after = completed_sectors (stat_path);
  check_records (result, &options);

  /* Nothing reached the device while it rested. */
  g_assert_cmpuint (watch.n_idle_started, ==, options.n_idle);
  g_assert_cmpuint (watch.n_idle_ended, ==, options.n_idle);
  for (guint i = 0; i < options.n_idle; i++)
    g_assert_cmpuint (watch.at_idle_end[i], ==, watch.at_idle_start[i]);
  /* And every request it completed is one the records hold (the trim is a
   * discard: counted apart by the kernel, in the stat's later fields); a
   * 1 MiB write the block layer may split in two or more requests (the
   * device's segment limits), so the 4 KiB requests are counted and the
   * sequential writes' sectors. */
  for (guint i = 0; i < duel_result_get_tests (result)->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), i);
      guint64 ops = record_ops (record, DUEL_DIRECTION_READ) + record_ops (record, DUEL_DIRECTION_WRITE);

      if (record->workload.block_size <= 4096)
        small_ops += ops;
      else
        large_ops += ops;
      bytes += duel_test_record_get_bytes (record, DUEL_DIRECTION_READ) +
               duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE);
    }
  g_assert_cmpuint (large_ops, >, 0);
  g_assert_cmpuint (after - before, >=, small_ops + large_ops);
  g_assert_cmpuint (after - before, <=, small_ops + large_ops * (MIB / 4096));
  g_assert_cmpuint ((sectors_after - sectors_before) * 512, ==, bytes);
}

static void
test_loop (void)
{
  g_autofree char *backing = g_build_filename (g_get_tmp_dir (), "duel-recovery-loop.img", NULL);
  g_autofree char *device = NULL;
  const char *skip = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("needs root");
      return;
    }
  /* Requests are counted as the engine made them: none merged into another. */
  device = test_loop_attach_counted (backing, 32 * MIB, &skip);
  g_unlink (backing);
  if (device == NULL)
    {
      g_test_skip (skip);
      return;
    }
  g_setenv ("DUEL_TEST_DEVICE", device, TRUE);
  g_test_trap_subprocess ("/duel/recovery/subprocess/loop", 240 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  test_loop_detach (device);
  g_test_trap_assert_passed ();
}

/* ---- a stop while idle ---------------------------------------------------------- */

static void
test_stop_while_idle (void)
{
  g_autoptr(DuelTarget) target = test_open_scratch ("stop.img", 32 * MIB);
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  Watch watch = { .stop = stop };
  DuelTestRecord *fill;

  /* An hour's rest: the test would hang (and time out) if the stop waited for it. */
  short_options (&options);
  options.n_idle = 1;
  options.idle_ms[0] = 3600 * 1000;
  preset = duel_preset_new ("recovery", &options, &error);
  g_assert_no_error (error);
  g_assert_false (run_plan (preset, target, result, &watch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (watch.countdowns, ==, 1);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 2);
  fill = g_ptr_array_index (duel_result_get_tests (result), 1);
  g_assert_cmpstr (fill->name, ==, "recovery-fill");
  g_assert_cmpint (fill->status, ==, DUEL_TEST_STATUS_COMPLETE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/recovery/plan", test_plan);
  g_test_add_func ("/duel/recovery/options", test_bad_options);
  g_test_add_func ("/duel/recovery/cache-leaves-pauses-out", test_cache_leaves_pauses_out);
  g_test_add_func ("/duel/recovery/file", test_file);
  g_test_add_func ("/duel/recovery/loop", test_loop);
  g_test_add_func ("/duel/recovery/subprocess/loop", test_loop_subprocess);
  g_test_add_func ("/duel/recovery/stop-while-idle", test_stop_while_idle);

  return g_test_run ();
}
