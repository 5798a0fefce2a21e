/* checkpoint-bench.c — what a checkpoint costs: a whole save against the journal
 *
 * Not a test: `meson test -C build --benchmark checkpoint` (or run it
 * directly; --help lists the options) prints the times. For a running
 * record of 10^5 and 10^6 one-second rows:
 *   - the old way: one duel_result_save() of the whole result, as the CLI
 *     and the app do every 2–5 s from the engine thread;
 *   - the new way: duel_checkpointer_update() on the calling ("engine")
 *     thread for one more row each, with a state (two histograms) on every
 *     call and with none; the writer thread's time per pass (a pass syncs
 *     here, so it is a checkpoint) and per compaction (a full save, off the
 *     engine thread), and how often a compaction comes at the default
 *     threshold;
 *   - loading the file with its journal, and alone.
 * Then a real engine run (random writes on a file, 100 ms intervals) fed
 * to a checkpointer from the progress callback: its longest update().
 * Each figure is the median over the repeats. Files go to a folder under
 * the current one (a real filesystem: the syncs are part of the cost).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "result/duel-checkpointer-private.h"
#include "result/duel-checkpointer.h"
#include "engine/duel-engine.h"
#include "result/duel-journal-private.h"
#include "result/duel-result.h"
#include "test-dir.h"

#define NEW_ROWS 300
#define MiB (1024 * 1024)

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * 1000000000 + (guint64) ts.tv_nsec;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
max_of (const double *values,
        guint         n)
{
  double m = 0;

  for (guint i = 0; i < n; i++)
    m = MAX (m, values[i]);
  return m;
}

/* One more one-second row, with a few latencies in the histograms. */
static void
add_row (DuelTestRecord *record,
         GRand          *rand)
{
  guint i = duel_series_get_length (record->series);
  DuelSeriesRow row = { .t_ms = (guint64) (i + 1) * 1000, .temperature_c = i % 5 ? 41.5 : NAN };

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      row.ops[d] = 150000 + g_rand_int_range (rand, 0, 50000);
      row.bytes[d] = row.ops[d] * 4096;
      for (guint k = 0; k < 4; k++)
        {
          guint64 lat = (guint64) (20000 * exp (g_rand_double_range (rand, 0, 5)));

          duel_histogram_add (record->latency[d], lat);
          row.lat_max_ns[d] = MAX (row.lat_max_ns[d], lat);
        }
    }
  duel_series_append (record->series, &row);
}

static DuelResult *
build_result (guint n_rows)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  DuelWorkload workload;
  DuelTargetInfo target = {
    .path = (char *) "/dev/nvme0n1",
    .kind = DUEL_TARGET_KIND_BLOCK,
    .size_bytes = G_GUINT64_CONSTANT (1000204886016),
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };

  duel_result_set_target (result, &target);
  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randrw", NULL);
  workload.interval_ms = 1000;
  workload.queue_depth = 32;
  record = duel_test_record_new ("randrw-qd32", &workload);
  record->status = DUEL_TEST_STATUS_RUNNING;
  record->span_length = target.size_bytes;
  for (guint i = 0; i < n_rows; i++)
    add_row (record, rand);
  duel_result_add_test (result, record);
  return g_steal_pointer (&result);
}

static DuelTestRecord *
first_test (DuelResult *result)
{
  return g_ptr_array_index (duel_result_get_tests (result), 0);
}

/* Drops the rows past @n_rows, so each repeat starts from the same record. */
static void
trim_rows (DuelResult *result,
           guint       n_rows)
{
  DuelTestRecord *record = first_test (result);
  DuelSeries *series = duel_series_new ();

  for (guint i = 0; i < n_rows; i++)
    duel_series_append (series, duel_series_get_row (record->series, i));
  duel_series_free (record->series);
  record->series = series;
}

typedef struct
{
  double update_median_us;
  double update_max_us;
  double pass_us;            /* writer time per pass (each ends in a sync here) */
  double pass_max_us;
  double compaction_ms;
  double journal_bytes_per_row;
  double load_ms;
} Run;

/* NEW_ROWS intervals on top of @n_rows, each handed over with update(). */
static Run
run_checkpointer (DuelResult *result,
                  const char *path,
                  guint       n_rows,
                  guint64     period_ns,
                  guint64     compact_bytes,
                  guint       n_new)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (path);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GError) error = NULL;
  g_autofree double *times = g_new (double, n_new);
  DuelCheckpointerStats stats;
  Run run = { 0, };

  trim_rows (result, n_rows);
  _duel_checkpointer_set_period (checkpointer, period_ns);
  if (compact_bytes > 0)
    _duel_checkpointer_set_compact_threshold (checkpointer, compact_bytes);
  if (!duel_checkpointer_start (checkpointer, result, &error))
    g_error ("%s", error->message);

  for (guint i = 0; i < n_new; i++)
    {
      guint64 start;

      add_row (first_test (result), rand);
      start = now_ns ();
      duel_checkpointer_update (checkpointer, result, FALSE);
      times[i] = (now_ns () - start) / 1000.0;
      /* The writer keeps up with one row a second; let it here too, so
       * that each pass is one interval's work. */
      _duel_checkpointer_flush (checkpointer);
    }

  duel_checkpointer_get_stats (checkpointer, &stats);
  run.update_median_us = median (times, n_new);
  run.update_max_us = MAX (max_of (times, n_new), stats.update_max_ns / 1000.0);
  run.pass_us = stats.writer_passes ? stats.writer_total_ns / 1000.0 / stats.writer_passes : 0;
  run.pass_max_us = stats.writer_max_ns / 1000.0;
  run.compaction_ms = stats.compactions ? stats.compaction_total_ns / 1e6 / stats.compactions : 0;
  run.journal_bytes_per_row = (double) stats.journal_bytes / n_new;

  {
    guint64 start = now_ns ();
    g_autoptr(DuelResult) loaded = duel_result_load (path, &error);

    if (loaded == NULL)
      g_error ("%s", error->message);
    run.load_ms = (now_ns () - start) / 1e6;
    if (stats.compactions == 0 &&
        duel_series_get_length (first_test (loaded)->series) != n_rows + n_new)
      g_error ("the journal folded into %u rows, not %u",
               duel_series_get_length (first_test (loaded)->series), n_rows + n_new);
  }
  /* Dropped without finish(): the journal stays, as after a crash. */
  return run;
}

static void
bench_rows (const char *dir,
            guint       n_rows,
            guint       repeats)
{
  g_autofree char *path = g_build_filename (dir, "result.json", NULL);
  g_autoptr(DuelResult) result = build_result (n_rows);
  g_autoptr(GError) error = NULL;
  g_autofree double *save_ms = g_new (double, repeats);
  g_autofree double *load_ms = g_new (double, repeats);
  g_autofree double *a = g_new (double, repeats);
  g_autofree double *b = g_new (double, repeats);
  g_autofree double *c = g_new (double, repeats);
  g_autofree double *e = g_new (double, repeats);
  g_autofree double *f = g_new (double, repeats);
  g_autofree double *g = g_new (double, repeats);
  g_autofree double *h = g_new (double, repeats);
  g_autofree double *k = g_new (double, repeats);
  g_autofree double *l = g_new (double, repeats);
  g_autofree double *m = g_new (double, repeats);
  GStatBuf st;
  double file_mb, bytes_per_row, intervals_between, state_period_rows;

  for (guint r = 0; r < repeats; r++)
    {
      guint64 start = now_ns ();

      if (!duel_result_save (result, path, &error))
        g_error ("%s", error->message);
      save_ms[r] = (now_ns () - start) / 1e6;
    }
  g_stat (path, &st);
  file_mb = st.st_size / 1e6;
  for (guint r = 0; r < repeats; r++)
    {
      guint64 start = now_ns ();
      g_autoptr(DuelResult) loaded = duel_result_load (path, &error);

      if (loaded == NULL)
        g_error ("%s", error->message);
      load_ms[r] = (now_ns () - start) / 1e6;
    }

  for (guint r = 0; r < repeats; r++)
    {
      /* A state (two histograms) with every row: the most an update does. */
      Run with_state = run_checkpointer (result, path, n_rows, 0, 0, NEW_ROWS);
      /* No state due: rows only, what most updates do. */
      Run rows_only = run_checkpointer (result, path, n_rows, G_MAXUINT64, 0, NEW_ROWS);
      /* A compaction at every pass, to time one. */
      Run compacting = run_checkpointer (result, path, n_rows, 0, 1, 2);

      a[r] = with_state.update_median_us;
      b[r] = with_state.update_max_us;
      c[r] = rows_only.update_median_us;
      e[r] = rows_only.update_max_us;
      f[r] = with_state.pass_us;
      g[r] = with_state.pass_max_us;
      h[r] = compacting.compaction_ms;
      k[r] = with_state.load_ms;
      l[r] = rows_only.journal_bytes_per_row;
      m[r] = with_state.journal_bytes_per_row;
    }

  /* Journal growth at one row a second and a state every 2 s. */
  bytes_per_row = median (l, repeats) + (median (m, repeats) - median (l, repeats)) / 2;
  state_period_rows = 2;
  intervals_between = MAX (1e6, st.st_size) / bytes_per_row;

  g_print ("%u rows (file %.1f MB):\n", n_rows, file_mb);
  g_print ("  old: duel_result_save() of the whole result      %9.1f ms  (median of %u)\n",
           median (save_ms, repeats), repeats);
  g_print ("  new: update(), one row + a state (2 histograms)  %9.2f µs median, %8.2f µs max\n",
           median (a, repeats), median (b, repeats));
  g_print ("       update(), one row, no state due             %9.2f µs median, %8.2f µs max\n",
           median (c, repeats), median (e, repeats));
  g_print ("       writer per checkpoint (lines, fold, write, fdatasync) %7.1f µs, max %.1f µs\n",
           median (f, repeats), median (g, repeats));
  g_print ("       writer per compaction (full save, off the engine thread) %7.1f ms\n",
           median (h, repeats));
  g_print ("       journal: %.0f B per row, %.0f B per state; at 1 row/s and a state per %.0f s,\n"
           "       a compaction every %.0f intervals (%.2f ms of writer time per interval)\n",
           median (l, repeats), median (m, repeats) - median (l, repeats), state_period_rows,
           intervals_between, median (h, repeats) / intervals_between);
  g_print ("       load of the file + a %u-row journal with a state per row %7.1f ms (the file alone %.1f ms)\n",
           NEW_ROWS, median (k, repeats), median (load_ms, repeats));
}

typedef struct
{
  DuelCheckpointer *checkpointer;
  DuelResult       *result;
  GArray           *times;   /* double, µs */
} EngineRun;

static void
engine_progress_cb (const DuelProgress *progress,
                    DuelTestRecord     *record,
                    gpointer            user_data)
{
  EngineRun *run = user_data;
  guint64 start;
  double us;

  if (!progress->interval_closed)
    return;
  start = now_ns ();
  duel_checkpointer_update (run->checkpointer, run->result, FALSE);
  us = (now_ns () - start) / 1000.0;
  g_array_append_val (run->times, us);
}

static void
bench_engine (const char *dir,
              guint       seconds,
              guint       repeats)
{
  g_autofree char *target_path = g_build_filename (dir, "target", NULL);
  g_autofree char *path = g_build_filename (dir, "engine.json", NULL);
  g_autofree double *medians = g_new (double, repeats);
  g_autofree double *maxes = g_new (double, repeats);
  g_autofree double *passes = g_new (double, repeats);
  guint intervals = 0;
  guint64 checkpoints = 0;

  for (guint r = 0; r < repeats; r++)
    {
      g_autoptr(DuelTarget) target = NULL;
      g_autoptr(DuelResult) result = duel_result_new ();
      g_autoptr(DuelTestRecord) record = NULL;
      g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (path);
      g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GError) error = NULL;
      DuelCheckpointerStats stats;
      DuelWorkload workload;
      EngineRun run;

      target = duel_target_open (target_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 64 * MiB, &error);
      if (target == NULL)
        {
          g_print ("real engine: skipped (%s)\n", error->message);
          return;
        }
      duel_result_set_target_from (result, target);
      duel_workload_init (&workload);
      duel_workload_set_rw_name (&workload, "randwrite", NULL);
      workload.block_size = 4096;
      workload.queue_depth = 16;
      workload.interval_ms = 100;
      workload.runtime_ms = seconds * 1000;
      record = duel_test_record_new ("randwrite-qd16", &workload);
      duel_result_add_test (result, record);

      if (!duel_checkpointer_start (checkpointer, result, &error))
        g_error ("%s", error->message);
      run = (EngineRun) { checkpointer, result, times };
      duel_checkpointer_update (checkpointer, result, FALSE);
      if (!duel_engine_run (target, record, NULL, engine_progress_cb, &run, &error))
        g_error ("%s", error->message);
      duel_checkpointer_update (checkpointer, result, TRUE);
      if (!duel_checkpointer_finish (checkpointer, result, &error))
        g_error ("%s", error->message);

      duel_checkpointer_get_stats (checkpointer, &stats);
      medians[r] = median ((double *) (gpointer) times->data, times->len);
      maxes[r] = stats.update_max_ns / 1000.0;
      passes[r] = stats.writer_passes ? stats.writer_total_ns / 1000.0 / stats.writer_passes : 0;
      intervals = duel_series_get_length (record->series);
      checkpoints = stats.checkpoints;
    }

  g_print ("real engine (random 4 KiB writes, qd16, 100 ms intervals, %u s, %u rows, %" G_GUINT64_FORMAT
           " checkpoints):\n", seconds, intervals, checkpoints);
  g_print ("  update() %.2f µs median, longest %.2f µs (median over runs of the longest; worst run %.2f µs);"
           " writer %.1f µs per pass\n",
           median (medians, repeats), median (maxes, repeats), max_of (maxes, repeats), median (passes, repeats));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  int repeats = 5, engine_seconds = 10;
  gboolean small = FALSE;
  GOptionEntry entries[] = {
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &repeats, "Repeats per figure (default 5)", "N" },
    { "engine-seconds", 's', 0, G_OPTION_ARG_INT, &engine_seconds, "Length of each real engine run (default 10, 0: none)", "S" },
    { "small", 0, 0, G_OPTION_ARG_NONE, &small, "Only 10^5 rows", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  context = g_option_context_new ("— time checkpoints: whole saves against the journal");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || repeats < 1 || engine_seconds < 0)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "bad arguments");
      return 2;
    }

  dir = g_build_filename (g_get_current_dir (), "checkpoint-bench-XXXXXX", NULL);
  if (g_mkdtemp (dir) == NULL)
    {
      g_printerr ("cannot make %s\n", dir);
      return 1;
    }

  bench_rows (dir, 100000, (guint) repeats);
  if (!small)
    bench_rows (dir, 1000000, (guint) repeats);
  if (engine_seconds > 0)
    bench_engine (dir, (guint) engine_seconds, (guint) repeats);

  test_dir_remove (dir);
  return 0;
}
