/* test-checkpointer.c — the checkpoint journal: folding, compaction, finish, a killed run
 *
 * The fold tests write journals line by line with the journal's own
 * writers; the checkpointer tests drive a DuelCheckpointer as the engine
 * would and look at what a loader makes of the files at each step (the
 * private flush waits for the writer, so nothing depends on timing). The
 * crash test runs a real engine in a child process (this program with
 * --crash-child) and kills it with SIGKILL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <linux/magic.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "result/duel-checkpointer-private.h"
#include "result/duel-checkpointer.h"
#include "engine/duel-engine.h"
#include "duel-error.h"
#include "result/duel-journal-private.h"
#include "result/duel-result.h"
#include "engine/duel-target.h"
#include "test-dir.h"

#define MiB (1024 * 1024)
#define JOURNAL_ID "0b7e1c9a-5d2f-4c1e-9a3b-7f6e5d4c3b2a"
/* The crash test's verdict needs this many rows on disk before the kill. */
#define CRASH_MIN_ROWS 25
/* Only a cap: the child normally gets there in a few seconds. */
#define CRASH_POLL_CAP_S 120

typedef struct
{
  char *dir;
  char *path;       /* the result */
  char *journal;    /* beside it */
} Fixture;

/* ---- helpers ---------------------------------------------------------- */

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("duel-checkpointer-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->path = g_build_filename (fixture->dir, "result.json", NULL);
  fixture->journal = _duel_journal_path_for (fixture->path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
  g_free (fixture->journal);
}

static DuelResult *
new_result (void)
{
  DuelResult *result = duel_result_new ();
  g_autoptr(GDateTime) created = g_date_time_new_utc (2024, 5, 4, 10, 20, 30);
  DuelTargetInfo target = {
    .path = (char *) "/srv/bench/testfile",
    .kind = DUEL_TARGET_KIND_FILE,
    .size_bytes = G_GUINT64_CONSTANT (1) << 30,
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };

  duel_result_set_target (result, &target);
  duel_result_set_created (result, created);
  duel_result_set_name (result, "Scratch file");
  return result;
}

static DuelTestRecord *
new_record (const char *name)
{
  DuelWorkload workload;
  DuelTestRecord *record;

  duel_workload_init (&workload);
  g_assert_true (duel_workload_set_rw_name (&workload, "randrw", NULL));
  workload.block_size = 4096;
  workload.queue_depth = 8;
  workload.interval_ms = 100;
  record = duel_test_record_new (name, &workload);
  record->span_length = G_GUINT64_CONSTANT (1) << 29;
  return record;
}

/* Rows and histograms from the same I/Os, as the engine keeps them; the
 * values follow from the row index alone. */
static void
add_rows (DuelTestRecord *record,
          guint           n)
{
  for (guint k = 0; k < n; k++)
    {
      guint i = duel_series_get_length (record->series);
      DuelSeriesRow row = { .t_ms = (guint64) (i + 1) * record->workload.interval_ms };

      row.temperature_c = i % 3 == 0 ? NAN : 40.0 + i * 0.125;
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          guint ops = 20 + (i * 7 + d * 3) % 31;

          /* A stall now and then. */
          if (i % 17 == 5)
            ops = 0;
          row.ops[d] = ops;
          row.bytes[d] = (guint64) ops * record->workload.block_size;
          for (guint j = 0; j < ops; j++)
            {
              guint64 lat = 20000 + ((guint64) i * 131 + j * 977 + d * 59) % 400000;

              duel_histogram_add (record->latency[d], lat);
              row.lat_max_ns[d] = MAX (row.lat_max_ns[d], lat);
            }
        }
      duel_series_append (record->series, &row);
    }
}

static void
assert_rows_equal (const DuelTestRecord *a,
                   const DuelTestRecord *b,
                   guint                 n)
{
  g_assert_cmpuint (duel_series_get_length (a->series), >=, n);
  g_assert_cmpuint (duel_series_get_length (b->series), >=, n);
  for (guint i = 0; i < n; i++)
    {
      const DuelSeriesRow *x = duel_series_get_row (a->series, i);
      const DuelSeriesRow *y = duel_series_get_row (b->series, i);

      g_assert_cmpuint (x->t_ms, ==, y->t_ms);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          g_assert_cmpuint (x->ops[d], ==, y->ops[d]);
          g_assert_cmpuint (x->bytes[d], ==, y->bytes[d]);
          g_assert_cmpuint (x->lat_max_ns[d], ==, y->lat_max_ns[d]);
        }
      g_assert_cmpint (isnan (x->temperature_c), ==, isnan (y->temperature_c));
      if (!isnan (x->temperature_c))
        g_assert_cmpfloat (x->temperature_c, ==, y->temperature_c);
    }
}

static void
assert_histograms_equal (const DuelTestRecord *a,
                         const DuelTestRecord *b)
{
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_assert_cmpuint (a->latency[d]->count, ==, b->latency[d]->count);
      g_assert_cmpuint (a->latency[d]->sum_ns, ==, b->latency[d]->sum_ns);
      g_assert_cmpfloat (a->latency[d]->sum_sq_ns, ==, b->latency[d]->sum_sq_ns);
      if (a->latency[d]->count > 0)
        {
          g_assert_cmpuint (a->latency[d]->min_ns, ==, b->latency[d]->min_ns);
          g_assert_cmpuint (a->latency[d]->max_ns, ==, b->latency[d]->max_ns);
        }
      g_assert_cmpmem (a->latency[d]->buckets, sizeof a->latency[d]->buckets,
                       b->latency[d]->buckets, sizeof b->latency[d]->buckets);
    }
}

static DuelTestRecord *
test_of (DuelResult *result,
         guint       index)
{
  GPtrArray *tests = duel_result_get_tests (result);

  g_assert_cmpuint (index, <, tests->len);
  return g_ptr_array_index (tests, index);
}

static guint
n_rows (DuelResult *result,
        guint       index)
{
  return duel_series_get_length (test_of (result, index)->series);
}

static DuelResult *
load_checked (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_result_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  /* What a fold gives must pass the loader's own checks again. */
  duel_result_check_loadable (result, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&result);
}

/* A file naming JOURNAL_ID, with @record's first @rows rows (and no
 * histograms yet, as a file saved before the first state). */
static void
save_with_rows (const char     *path,
                DuelTestRecord *record,
                guint           rows)
{
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) copy = new_record (record->name);
  g_autoptr(GError) error = NULL;

  copy->status = DUEL_TEST_STATUS_RUNNING;
  for (guint i = 0; i < rows; i++)
    duel_series_append (copy->series, duel_series_get_row (record->series, i));
  duel_result_add_test (result, copy);
  duel_result_set_journal_id (result, JOURNAL_ID);
  duel_result_save (result, path, &error);
  g_assert_no_error (error);
}

static void
append_rows (GString        *out,
             DuelTestRecord *record,
             guint           test,
             guint           from,
             guint           to)
{
  for (guint i = from; i < to; i++)
    _duel_journal_append_row (out, test, i, duel_series_get_row (record->series, i));
}

static void
append_state (GString        *out,
              DuelTestRecord *record,
              guint           test,
              guint           rows)
{
  _duel_journal_append_state (out, test, rows, record->runtime_ns, record->status,
                              record->latency[DUEL_DIRECTION_READ], record->latency[DUEL_DIRECTION_WRITE]);
}

static guint64
file_size_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

static void
write_text (const char *path,
            GString    *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text->str, (gssize) text->len, &error);
  g_assert_no_error (error);
}

/* ---- folding journals ------------------------------------------------ */

/* The file already has some of the journal's rows (a compaction that
 * crashed before the fresh journal): each row is folded once. */
static void
test_fold_idempotent (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(DuelResult) first = NULL;
  g_autoptr(DuelResult) again = NULL;
  g_autoptr(GError) error = NULL;

  add_rows (record, 40);
  record->status = DUEL_TEST_STATUS_RUNNING;
  save_with_rows (fixture->path, record, 25);

  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 40, 40);
  append_rows (journal, record, 0, 10, 40);
  append_state (journal, record, 0, 40);
  write_text (fixture->journal, journal);

  first = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (first, 0), ==, 40);
  assert_rows_equal (test_of (first, 0), record, 40);
  assert_histograms_equal (test_of (first, 0), record);
  /* The folded result needs the journal no more. */
  g_assert_null (duel_result_get_journal_id (first));

  /* Everything in the file now, the same journal again: nothing changes. */
  duel_result_set_journal_id (first, JOURNAL_ID);
  duel_result_save (first, fixture->path, &error);
  g_assert_no_error (error);
  again = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (again, 0), ==, 40);
  assert_rows_equal (test_of (again, 0), record, 40);
  assert_histograms_equal (test_of (again, 0), record);
}

/* A kill in the middle of a write leaves a torn last line: ignored. */
static void
test_fold_torn_line (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  gsize whole;

  add_rows (record, 30);
  record->status = DUEL_TEST_STATUS_RUNNING;
  save_with_rows (fixture->path, record, 10);
  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 10, 20);
  whole = journal->len;

  /* Cut at every byte of the next row: 20 rows each time. */
  append_rows (journal, record, 0, 20, 21);
  for (gsize cut = whole; cut < journal->len; cut++)
    {
      g_autoptr(GString) torn = g_string_new_len (journal->str, (gssize) cut);
      g_autoptr(DuelResult) result = NULL;

      write_text (fixture->journal, torn);
      result = load_checked (fixture->path);
      g_assert_cmpuint (n_rows (result, 0), ==, 20);
    }

  /* A torn state: the rows before it count, its histograms do not. */
  g_string_truncate (journal, whole);
  append_state (journal, record, 0, 20);
  g_string_truncate (journal, journal->len - 7);
  write_text (fixture->journal, journal);
  {
    g_autoptr(DuelResult) result = load_checked (fixture->path);

    g_assert_cmpuint (n_rows (result, 0), ==, 20);
    g_assert_cmpuint (test_of (result, 0)->latency[DUEL_DIRECTION_READ]->count, ==, 0);
  }

  /* A torn header: no journal at all. */
  g_string_truncate (journal, 10);
  write_text (fixture->journal, journal);
  {
    g_autoptr(DuelResult) result = load_checked (fixture->path);

    g_assert_cmpuint (n_rows (result, 0), ==, 10);
    g_assert_cmpstr (duel_result_get_journal_id (result), ==, JOURNAL_ID);
  }
}

/* Another run's journal, or a file naming no journal: nothing is folded. */
static void
test_fold_other_run (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(DuelResult) plain = NULL;
  g_autoptr(GError) error = NULL;

  add_rows (record, 30);
  record->status = DUEL_TEST_STATUS_RUNNING;
  save_with_rows (fixture->path, record, 10);
  _duel_journal_append_header (journal, "11111111-2222-4333-8444-555555555555");
  append_rows (journal, record, 0, 10, 30);
  write_text (fixture->journal, journal);

  result = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (result, 0), ==, 10);
  g_assert_cmpstr (duel_result_get_journal_id (result), ==, JOURNAL_ID);

  /* The right id, but the file names none (a finished result). */
  g_string_truncate (journal, 0);
  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 10, 30);
  write_text (fixture->journal, journal);
  duel_result_set_journal_id (result, NULL);
  duel_result_save (result, fixture->path, &error);
  g_assert_no_error (error);
  plain = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (plain, 0), ==, 10);

  /* A journal of a newer format is not read either. */
  save_with_rows (fixture->path, record, 10);
  g_string_truncate (journal, 0);
  g_string_append (journal, "driveduel-journal 2 " JOURNAL_ID "\n");
  append_rows (journal, record, 0, 10, 30);
  write_text (fixture->journal, journal);
  g_clear_object (&plain);
  plain = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (plain, 0), ==, 10);
}

/* The journal named is exactly the file's journal_id: json-glib cuts a
 * string at \u0000, so "ID\u0000x" would have folded the journal of ID
 * (issue 34), and an id that is not a run's own UUID names no journal. */
static void
test_fold_id_exact (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  static const struct {
    const char *id;        /* as the journal's header names it */
    const char *in_file;   /* what replaces "ID" in the file's text */
    gboolean    loads;
  } cases[] = {
    { JOURNAL_ID, JOURNAL_ID "\\u0000x", FALSE },
    { JOURNAL_ID, JOURNAL_ID "\\u0000", FALSE },
    { "abc", "abc\\u0000" JOURNAL_ID, FALSE },
    { "abc", "abc", TRUE },
    { "", "", TRUE },
    { JOURNAL_ID " x", JOURNAL_ID " x", TRUE },
  };

  add_rows (record, 30);
  record->status = DUEL_TEST_STATUS_RUNNING;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DuelResult) result = NULL;
      g_autofree char *text = NULL;
      g_autofree char *changed = NULL;
      g_auto(GStrv) parts = NULL;
      gsize length;

      g_test_message ("journal_id \"%s\"", cases[i].in_file);
      save_with_rows (fixture->path, record, 10);
      g_file_get_contents (fixture->path, &text, &length, &error);
      g_assert_no_error (error);
      parts = g_strsplit (text, "\"" JOURNAL_ID "\"", 2);
      g_assert_cmpuint (g_strv_length (parts), ==, 2);
      changed = g_strconcat (parts[0], "\"", cases[i].in_file, "\"", parts[1], NULL);
      g_file_set_contents (fixture->path, changed, -1, &error);
      g_assert_no_error (error);

      g_string_truncate (journal, 0);
      _duel_journal_append_header (journal, cases[i].id);
      append_rows (journal, record, 0, 10, 30);
      write_text (fixture->journal, journal);

      result = duel_result_load (fixture->path, &error);
      if (!cases[i].loads)
        {
          g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
          g_assert_nonnull (strstr (error->message, "\\u0000"));
          g_assert_null (result);
          g_clear_error (&error);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (n_rows (result, 0), ==, 10);
      g_assert_null (duel_result_get_journal_id (result));
    }
}

/* duel_result_load_from_data() (the fuzzer's entry) never reads a journal. */
static void
test_fold_not_from_data (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length;

  add_rows (record, 30);
  save_with_rows (fixture->path, record, 10);
  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 10, 30);
  write_text (fixture->journal, journal);

  g_file_get_contents (fixture->path, &text, &length, &error);
  g_assert_no_error (error);
  result = duel_result_load_from_data (text, length, "result.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_rows (result, 0), ==, 10);
  g_assert_cmpstr (duel_result_get_journal_id (result), ==, JOURNAL_ID);
}

/* Corrupt past the header: the valid prefix is folded, the rest ignored. */
static void
test_fold_corrupt (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  const char *bad_lines[] = {
    "garbage\n",
    "row 0 15 1600 1 1 4096 4096 1 1 null\n",          /* skips row 14 */
    "row 0 14 100 1 1 4096 4096 1 1 null\n",           /* time goes back */
    "row 0 14 1500 1 1 4096 4096 1 1 9999\n",          /* no such temperature */
    "row 0 14 1500 1 1 999999999999 4096 1 1 null\n",  /* 64 MiB+ per I/O */
    "row 0 14 1500 1 1 4096 4096 1 1 null \n",         /* a trailing space */
    "row 0 14 1500 1 1 4096 4096 1 99999999999999999999 null\n",
    "row 1 0 100 1 1 4096 4096 1 1 null\n",            /* no test 1 */
    "state 0 14 1\n",                                  /* no status */
    "state 0 14 0 bogus 0 0 0 0 0 0 0 0 0 0 0 0\n",
    "state 0 14 0 running 0 0 0 0 0 0\n",              /* no write histogram */
    "state 0 99 0 running 0 0 0 0 0 0 0 0 0 0 0 0\n",   /* after rows it has not */
    "state 0 14 0 running 0 0 0 0 0 0 0 0 0 0 0 0 x\n",
    "state 0 14 0 running 1 5000 5000 5000 25e6 1 4096:1 0 0 0 0 0 0\n",  /* min outside its bin */
    "state 0 14 0 running 1 4100 4100 4100 1.681e7 1 4097:1 0 0 0 0 0 0\n", /* not a boundary */
    "state 0 14 0 running 2 4096 4096 8192 0 1 4096:1 0 0 0 0 0 0\n",  /* samples against bins */
    "state 0 14 0 running 1 4096 4096 4096 nan 1 4096:1 0 0 0 0 0 0\n",
    "test 3 {\"name\":\"x\"}\n",
    "test 0 {\"name\":\"\"}\n",
    "row 0 14 100000000000 1 1 4096 4096 1 1 null\n",  /* far later than 15 rows span */
    "row 0 14 1500 1 1 4096 4096 1 1 null\0\n",
  };
  const gsize bad_lengths[G_N_ELEMENTS (bad_lines)] = {
    [G_N_ELEMENTS (bad_lines) - 1] = sizeof "row 0 14 1500 1 1 4096 4096 1 1 null\0\n" - 1,
  };

  add_rows (record, 30);
  record->status = DUEL_TEST_STATUS_RUNNING;
  save_with_rows (fixture->path, record, 10);

  for (guint b = 0; b < G_N_ELEMENTS (bad_lines); b++)
    {
      g_autoptr(GString) journal = g_string_new (NULL);
      g_autoptr(DuelResult) result = NULL;

      _duel_journal_append_header (journal, JOURNAL_ID);
      append_rows (journal, record, 0, 10, 14);
      if (bad_lengths[b] > 0)
        g_string_append_len (journal, bad_lines[b], (gssize) bad_lengths[b]);
      else
        g_string_append (journal, bad_lines[b]);
      append_rows (journal, record, 0, 14, 30);
      write_text (fixture->journal, journal);

      result = load_checked (fixture->path);
      g_assert_cmpuint (n_rows (result, 0), ==, 14);
      assert_rows_equal (test_of (result, 0), record, 14);
    }
}

/* A state sets runtime, status and histograms, only where it belongs. */
static void
test_fold_state (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelTestRecord) at_20 = new_record ("randrw-qd8");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(DuelResult) result = NULL;
  DuelTestRecord *folded;

  add_rows (at_20, 20);
  at_20->status = DUEL_TEST_STATUS_RUNNING;
  add_rows (record, 30);
  record->status = DUEL_TEST_STATUS_RUNNING;
  save_with_rows (fixture->path, record, 10);

  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 10, 20);
  append_state (journal, at_20, 0, 20);
  append_rows (journal, record, 0, 20, 30);
  /* Older than the rows folded so far: skipped, and the fold goes on. */
  append_state (journal, at_20, 0, 20);
  append_rows (journal, record, 0, 0, 30);
  write_text (fixture->journal, journal);

  result = load_checked (fixture->path);
  folded = test_of (result, 0);
  g_assert_cmpuint (n_rows (result, 0), ==, 30);
  assert_rows_equal (folded, record, 30);
  /* The histograms of the last state, taken after 20 rows. */
  assert_histograms_equal (folded, at_20);
  g_assert_cmpint (folded->status, ==, DUEL_TEST_STATUS_RUNNING);
  g_assert_cmpuint (folded->runtime_ns, ==, 0);

  /* The end of the test: rows, then its last state. */
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = G_GUINT64_CONSTANT (2950000000);
  append_state (journal, record, 0, 30);
  write_text (fixture->journal, journal);
  g_clear_object (&result);
  result = load_checked (fixture->path);
  folded = test_of (result, 0);
  assert_histograms_equal (folded, record);
  g_assert_cmpint (folded->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_cmpuint (folded->runtime_ns, ==, record->runtime_ns);

  /* A complete state whose runtime ends long before the rows would make
   * the file unloadable: the fold stops before it. */
  g_string_truncate (journal, 0);
  _duel_journal_append_header (journal, JOURNAL_ID);
  append_rows (journal, record, 0, 10, 30);
  record->runtime_ns = 1000000;
  append_state (journal, record, 0, 30);
  write_text (fixture->journal, journal);
  g_clear_object (&result);
  result = load_checked (fixture->path);
  folded = test_of (result, 0);
  g_assert_cmpuint (n_rows (result, 0), ==, 30);
  g_assert_cmpint (folded->status, ==, DUEL_TEST_STATUS_RUNNING);
  g_assert_cmpuint (folded->latency[DUEL_DIRECTION_READ]->count, ==, 0);
}

/* A test that appeared during the run, described by a "test" line. */
static void
test_fold_new_test (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelTestRecord) second = new_record ("seq-read");
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(DuelResult) result = NULL;
  DuelTestRecord *folded;

  add_rows (record, 10);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = G_GUINT64_CONSTANT (1000000000);
  save_with_rows (fixture->path, record, 10);

  second->preset = g_strdup ("standard");
  second->status = DUEL_TEST_STATUS_RUNNING;
  second->started = g_date_time_new_utc (2024, 5, 4, 10, 21, 0.5);
  duel_test_record_set_figure (second, "read.iops", NAN, "IOPS", DUEL_BETTER_HIGHER);
  add_rows (second, 12);

  _duel_journal_append_header (journal, JOURNAL_ID);
  /* The first test's end, as a "test" line: complete. */
  _duel_journal_append_test (journal, 0, record);
  _duel_journal_append_test (journal, 1, second);
  append_rows (journal, second, 1, 0, 12);
  append_state (journal, second, 1, 12);
  write_text (fixture->journal, journal);

  result = load_checked (fixture->path);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 2);
  g_assert_cmpint (test_of (result, 0)->status, ==, DUEL_TEST_STATUS_COMPLETE);
  folded = test_of (result, 1);
  g_assert_cmpstr (folded->name, ==, "seq-read");
  g_assert_cmpstr (folded->preset, ==, "standard");
  /* Interrupted: it stays running, which analyze flags. */
  g_assert_cmpint (folded->status, ==, DUEL_TEST_STATUS_RUNNING);
  g_assert_true (g_date_time_equal (folded->started, second->started));
  g_assert_true (duel_test_record_get_figure (folded, "read.iops", NULL));
  assert_rows_equal (folded, second, 12);
  assert_histograms_equal (folded, second);
}

/* ---- the checkpointer -------------------------------------------------- */

static gboolean
journal_exists (Fixture *fixture)
{
  return g_file_test (fixture->journal, G_FILE_TEST_EXISTS);
}

/* A run as the engine thread would report it; at each step the files on
 * disk load as what the record holds. */
static void
test_checkpointer_run (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) done = new_record ("fill");
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  DuelCheckpointerStats stats;

  /* A test finished before the checkpointer started is in the first save. */
  add_rows (done, 5);
  done->status = DUEL_TEST_STATUS_COMPLETE;
  done->runtime_ns = 500000000;
  duel_result_add_test (result, done);

  _duel_checkpointer_set_period (checkpointer, 0);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  g_assert_true (journal_exists (fixture));
  g_assert_null (duel_result_get_journal_id (result));
  loaded = load_checked (fixture->path);
  g_assert_cmpuint (duel_result_get_tests (loaded)->len, ==, 1);
  assert_rows_equal (test_of (loaded, 0), done, 5);

  /* A test starts: described before it has rows. */
  duel_result_add_test (result, record);
  duel_checkpointer_update (checkpointer, result, FALSE);
  record->status = DUEL_TEST_STATUS_RUNNING;
  record->started = g_date_time_new_utc (2024, 5, 4, 10, 22, 0);
  record->span_offset = 4096;
  for (guint i = 0; i < 60; i++)
    {
      add_rows (record, 1 + i % 3);
      duel_checkpointer_update (checkpointer, result, FALSE);
      if (i % 20 == 19)
        {
          _duel_checkpointer_flush (checkpointer);
          g_clear_object (&loaded);
          loaded = load_checked (fixture->path);
          g_assert_cmpuint (n_rows (loaded, 1), ==, n_rows (result, 1));
          assert_rows_equal (test_of (loaded, 1), record, n_rows (result, 1));
          assert_histograms_equal (test_of (loaded, 1), record);
          g_assert_cmpint (test_of (loaded, 1)->status, ==, DUEL_TEST_STATUS_RUNNING);
          g_assert_cmpuint (test_of (loaded, 1)->span_offset, ==, 4096);
          g_assert_true (g_date_time_equal (test_of (loaded, 1)->started, record->started));
        }
    }

  /* The test ends and gets its summary. */
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = duel_series_get_row (record->series, n_rows (result, 1) - 1)->t_ms * 1000000;
  duel_test_record_set_figure (record, "read.iops", 1234.5, "IOPS", DUEL_BETTER_HIGHER);
  duel_checkpointer_update (checkpointer, result, TRUE);
  _duel_checkpointer_flush (checkpointer);
  g_clear_object (&loaded);
  loaded = load_checked (fixture->path);
  g_assert_cmpint (test_of (loaded, 1)->status, ==, DUEL_TEST_STATUS_COMPLETE);
  g_assert_cmpuint (test_of (loaded, 1)->runtime_ns, ==, record->runtime_ns);
  g_assert_true (duel_test_record_get_figure (test_of (loaded, 1), "read.iops", NULL));
  assert_histograms_equal (test_of (loaded, 1), record);

  duel_checkpointer_get_stats (checkpointer, &stats);
  g_assert_cmpuint (stats.updates, ==, 62);
  g_assert_cmpuint (stats.update_max_ns, >, 0);
  g_assert_cmpuint (stats.update_total_ns, >=, stats.update_max_ns);
  g_assert_cmpuint (stats.checkpoints, >, 0);
  g_assert_cmpuint (stats.compactions, ==, 0);
  g_assert_cmpuint (stats.errors, ==, 0);
  g_assert_cmpuint (stats.journal_bytes, ==, file_size_of (fixture->journal));
}

/* A tiny threshold: every pass compacts. The file then holds everything,
 * under a new journal id each time, and the journal only its header. */
static void
test_checkpointer_compaction (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_id = NULL;
  g_autofree char *text = NULL;
  DuelCheckpointerStats stats;
  guint64 compactions = 0;
  gsize length;

  _duel_checkpointer_set_period (checkpointer, 0);
  _duel_checkpointer_set_compact_threshold (checkpointer, 1);
  record->status = DUEL_TEST_STATUS_RUNNING;
  duel_result_add_test (result, record);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  {
    g_autoptr(DuelResult) raw = NULL;

    g_file_get_contents (fixture->path, &text, &length, &error);
    g_assert_no_error (error);
    raw = duel_result_load_from_data (text, length, NULL, &error);
    g_assert_no_error (error);
    first_id = g_strdup (duel_result_get_journal_id (raw));
    g_assert_nonnull (first_id);
  }

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(DuelResult) raw = NULL;
      g_autofree char *journal = NULL;

      add_rows (record, 7);
      duel_checkpointer_update (checkpointer, result, FALSE);
      _duel_checkpointer_flush (checkpointer);

      duel_checkpointer_get_stats (checkpointer, &stats);
      g_assert_cmpuint (stats.compactions, >, compactions);
      compactions = stats.compactions;

      /* All of it is in the file itself now. */
      g_clear_pointer (&text, g_free);
      g_file_get_contents (fixture->path, &text, &length, &error);
      g_assert_no_error (error);
      raw = duel_result_load_from_data (text, length, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_rows (raw, 0), ==, 7 * (i + 1));
      assert_rows_equal (test_of (raw, 0), record, 7 * (i + 1));
      assert_histograms_equal (test_of (raw, 0), record);
      g_assert_cmpstr (duel_result_get_journal_id (raw), !=, first_id);

      /* A fresh journal for the new id. */
      g_file_get_contents (fixture->journal, &journal, &length, &error);
      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (journal, DUEL_JOURNAL_FORMAT " 1 "));
      g_assert_nonnull (strstr (journal, duel_result_get_journal_id (raw)));
      g_assert_cmpuint (length, ==, strlen (DUEL_JOURNAL_FORMAT " 1 \n") + strlen (first_id));
      g_assert_cmpuint (stats.journal_bytes, ==, length);
    }

  g_clear_object (&loaded);
  loaded = load_checked (fixture->path);
  assert_rows_equal (test_of (loaded, 0), record, 35);
  g_assert_cmpuint (stats.compaction_max_ns, >, 0);
  g_assert_cmpuint (stats.errors, ==, 0);
}

/* Finish: one full save of the caller's result, no journal left. */
static void
test_checkpointer_finish (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;

  duel_result_add_test (result, record);
  /* A caller's result naming some journal: the finished file names none. */
  duel_result_set_journal_id (result, JOURNAL_ID);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  g_assert_true (journal_exists (fixture));
  g_assert_cmpstr (duel_checkpointer_get_journal_path (checkpointer), ==, fixture->journal);

  record->status = DUEL_TEST_STATUS_RUNNING;
  add_rows (record, 20);
  duel_checkpointer_update (checkpointer, result, FALSE);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = 2000000000;
  duel_checkpointer_update (checkpointer, result, TRUE);

  g_assert_true (duel_checkpointer_finish (checkpointer, result, &error));
  g_assert_no_error (error);
  g_assert_false (journal_exists (fixture));
  g_assert_null (duel_result_get_journal_id (result));
  loaded = load_checked (fixture->path);
  g_assert_null (duel_result_get_journal_id (loaded));
  g_assert_cmpint (test_of (loaded, 0)->status, ==, DUEL_TEST_STATUS_COMPLETE);
  assert_rows_equal (test_of (loaded, 0), record, 20);
  assert_histograms_equal (test_of (loaded, 0), record);
  g_assert_null (duel_checkpointer_dup_error (checkpointer));
}

/* The final save fails (a folder took the file's place): the journal stays,
 * synced, and with the file back it loads with everything measured. */
static void
test_checkpointer_finish_fails (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *aside = g_build_filename (fixture->dir, "aside.json", NULL);

  duel_result_add_test (result, record);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  record->status = DUEL_TEST_STATUS_RUNNING;
  add_rows (record, 33);
  duel_checkpointer_update (checkpointer, result, FALSE);
  _duel_checkpointer_flush (checkpointer);

  g_assert_cmpint (g_rename (fixture->path, aside), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->path, 0700), ==, 0);
  g_assert_false (duel_checkpointer_finish (checkpointer, result, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (journal_exists (fixture));

  g_assert_cmpint (g_rmdir (fixture->path), ==, 0);
  g_assert_cmpint (g_rename (aside, fixture->path), ==, 0);
  loaded = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (loaded, 0), ==, 33);
  assert_rows_equal (test_of (loaded, 0), record, 33);
  g_assert_cmpint (test_of (loaded, 0)->status, ==, DUEL_TEST_STATUS_RUNNING);
}

/* A compaction that fails (a folder took the file's place): the run goes
 * on in the journal, the error is kept, and nothing is lost. */
static void
test_checkpointer_compaction_fails (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) writer_error = NULL;
  g_autofree char *aside = g_build_filename (fixture->dir, "aside.json", NULL);
  DuelCheckpointerStats stats;
  guint64 journal_bytes;

  _duel_checkpointer_set_period (checkpointer, 0);
  _duel_checkpointer_set_compact_threshold (checkpointer, 1);
  record->status = DUEL_TEST_STATUS_RUNNING;
  duel_result_add_test (result, record);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  add_rows (record, 10);
  duel_checkpointer_update (checkpointer, result, FALSE);
  _duel_checkpointer_flush (checkpointer);
  duel_checkpointer_get_stats (checkpointer, &stats);
  g_assert_cmpuint (stats.compactions, ==, 1);
  g_assert_null (duel_checkpointer_dup_error (checkpointer));

  g_assert_cmpint (g_rename (fixture->path, aside), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->path, 0700), ==, 0);
  for (guint i = 0; i < 3; i++)
    {
      add_rows (record, 5);
      duel_checkpointer_update (checkpointer, result, FALSE);
      _duel_checkpointer_flush (checkpointer);
    }
  duel_checkpointer_get_stats (checkpointer, &stats);
  g_assert_cmpuint (stats.compactions, ==, 1);
  g_assert_cmpuint (stats.errors, >=, 1);
  writer_error = duel_checkpointer_dup_error (checkpointer);
  g_assert_error (writer_error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  /* The journal took the rows instead. */
  journal_bytes = file_size_of (fixture->journal);
  g_assert_cmpuint (journal_bytes, ==, stats.journal_bytes);
  g_assert_cmpuint (journal_bytes, >, strlen (DUEL_JOURNAL_FORMAT " 1 \n") + 36);

  g_assert_cmpint (g_rmdir (fixture->path), ==, 0);
  g_assert_cmpint (g_rename (aside, fixture->path), ==, 0);
  loaded = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (loaded, 0), ==, 25);
  assert_rows_equal (test_of (loaded, 0), record, 25);
  assert_histograms_equal (test_of (loaded, 0), record);

  g_assert_true (duel_checkpointer_finish (checkpointer, result, &error));
  g_assert_no_error (error);
  g_assert_false (journal_exists (fixture));
}

static void
test_checkpointer_start_fails (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *missing = g_build_filename (fixture->dir, "no-such-folder", "result.json", NULL);
  g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (missing);
  g_autoptr(DuelCheckpointer) on_folder = duel_checkpointer_new (fixture->dir);
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(GError) error = NULL;

  g_assert_false (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (duel_checkpointer_start (on_folder, result, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
}

/* A link at the result's name is never written through: start() refuses
 * it and writes nothing. A result read through a link finds its journal
 * beside the file the link points to, as the run left it. */
static void
test_checkpointer_symlink (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *link = g_build_filename (fixture->dir, "latest.json", NULL);
  g_autofree char *link_journal = g_strconcat (link, ".journal", NULL);
  g_autoptr(DuelCheckpointer) through_link = NULL;
  g_autoptr(DuelCheckpointer) checkpointer = NULL;
  g_autoptr(DuelResult) result = new_result ();
  g_autoptr(DuelTestRecord) record = new_record ("randrw-qd8");
  g_autoptr(DuelResult) via_link = NULL;
  g_autoptr(DuelResult) direct = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_file_set_contents (fixture->path, "{}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (symlink ("result.json", link), ==, 0);
  duel_result_add_test (result, record);

  through_link = duel_checkpointer_new (link);
  g_assert_false (duel_checkpointer_start (through_link, result, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "symbolic link"));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (fixture->path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{}");
  g_assert_false (g_file_test (link_journal, G_FILE_TEST_EXISTS));
  g_assert_false (journal_exists (fixture));

  /* A run on the file itself, stopped with its rows in the journal. */
  g_assert_cmpint (g_unlink (fixture->path), ==, 0);
  checkpointer = duel_checkpointer_new (fixture->path);
  _duel_checkpointer_set_period (checkpointer, 0);
  g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
  g_assert_no_error (error);
  add_rows (record, 9);
  duel_checkpointer_update (checkpointer, result, FALSE);
  _duel_checkpointer_flush (checkpointer);
  g_assert_cmpstr (duel_checkpointer_get_journal_path (checkpointer), ==, fixture->journal);

  via_link = load_checked (link);
  direct = load_checked (fixture->path);
  g_assert_cmpuint (n_rows (via_link, 0), ==, 9);
  g_assert_cmpuint (n_rows (direct, 0), ==, 9);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
}

/* A result already at the path stays as it was until the new run has rows
 * on disk — as many as it holds, when it is finished: the run writes beside
 * it (result.json.new and its journal, once it has a row), then takes its
 * name. Finished with nothing measured, it leaves the old one and says so;
 * stopped with fewer rows, it keeps the old one and is saved beside it. */
static void
test_checkpointer_replace_existing (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autofree char *staging = g_strconcat (fixture->path, ".new", NULL);
  g_autofree char *staging_journal = g_strconcat (staging, ".journal", NULL);
  g_autofree char *old_text = NULL;
  g_autofree char *text = NULL;

  {
    g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
    g_autoptr(DuelResult) result = new_result ();
    g_autoptr(DuelTestRecord) record = new_record ("old");
    g_autoptr(GError) error = NULL;

    duel_result_add_test (result, record);
    add_rows (record, 4);
    record->status = DUEL_TEST_STATUS_COMPLETE;
    g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
    g_assert_true (duel_checkpointer_finish (checkpointer, result, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (fixture->path, &old_text, NULL, NULL));

  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
      g_autoptr(DuelResult) result = new_result ();
      g_autoptr(DuelTestRecord) record = new_record ("new");
      g_autoptr(DuelResult) loaded = NULL;
      g_autoptr(GError) error = NULL;

      _duel_checkpointer_set_period (checkpointer, 0);
      duel_result_add_test (result, record);
      g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
      g_assert_no_error (error);
      /* Nothing beside it before there is a row to keep. */
      g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));
      g_assert_cmpstr (duel_checkpointer_get_journal_path (checkpointer), ==, staging_journal);

      /* Described, running, synced: still nothing measured. */
      record->status = DUEL_TEST_STATUS_RUNNING;
      duel_checkpointer_update (checkpointer, result, TRUE);
      _duel_checkpointer_flush (checkpointer);
      g_clear_pointer (&text, g_free);
      g_assert_true (g_file_get_contents (fixture->path, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, old_text);

      if (pass == 0)
        {
          /* Stopped now: the old result is left, the new files go. */
          record->status = DUEL_TEST_STATUS_CANCELLED;
          g_assert_false (duel_checkpointer_finish (checkpointer, result, &error));
          g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FAILED);
          g_assert_nonnull (strstr (error->message, "left as it was"));
          g_clear_pointer (&text, g_free);
          g_assert_true (g_file_get_contents (fixture->path, &text, NULL, NULL));
          g_assert_cmpstr (text, ==, old_text);
          g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));
          g_assert_false (g_file_test (staging_journal, G_FILE_TEST_EXISTS));
          continue;
        }

      /* Rows on disk, fewer than the finished result holds: it stays. */
      add_rows (record, 3);
      duel_checkpointer_update (checkpointer, result, FALSE);
      _duel_checkpointer_flush (checkpointer);
      g_assert_true (g_file_test (staging, G_FILE_TEST_EXISTS));
      g_clear_pointer (&text, g_free);
      g_assert_true (g_file_get_contents (fixture->path, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, old_text);

      /* As many: the new result takes the name, with its journal. */
      add_rows (record, 1);
      duel_checkpointer_update (checkpointer, result, FALSE);
      _duel_checkpointer_flush (checkpointer);
      g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (staging_journal, G_FILE_TEST_EXISTS));
      g_assert_cmpstr (duel_checkpointer_get_journal_path (checkpointer), ==, fixture->journal);
      loaded = load_checked (fixture->path);
      g_assert_cmpstr (test_of (loaded, 0)->name, ==, "new");
      g_assert_cmpuint (n_rows (loaded, 0), ==, 4);

      record->status = DUEL_TEST_STATUS_COMPLETE;
      g_assert_true (duel_checkpointer_finish (checkpointer, result, &error));
      g_assert_no_error (error);
      g_assert_false (journal_exists (fixture));
      g_clear_object (&loaded);
      loaded = load_checked (fixture->path);
      g_assert_cmpint (test_of (loaded, 0)->status, ==, DUEL_TEST_STATUS_COMPLETE);
    }

  /* Stopped with fewer rows than the finished result: that one stays, and
   * this run is kept beside it under a name of its own. */
  {
    g_autoptr(DuelCheckpointer) checkpointer = duel_checkpointer_new (fixture->path);
    g_autoptr(DuelResult) result = new_result ();
    g_autoptr(DuelTestRecord) record = new_record ("stopped");
    g_autoptr(DuelResult) kept = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *kept_path = NULL;

    g_clear_pointer (&old_text, g_free);
    g_assert_true (g_file_get_contents (fixture->path, &old_text, NULL, NULL));
    _duel_checkpointer_set_period (checkpointer, 0);
    duel_result_add_test (result, record);
    g_assert_true (duel_checkpointer_start (checkpointer, result, &error));
    add_rows (record, 2);
    duel_checkpointer_update (checkpointer, result, FALSE);
    _duel_checkpointer_flush (checkpointer);
    record->status = DUEL_TEST_STATUS_CANCELLED;
    g_assert_true (duel_checkpointer_finish (checkpointer, result, &error));
    g_assert_no_error (error);
    g_clear_pointer (&text, g_free);
    g_assert_true (g_file_get_contents (fixture->path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, old_text);
    g_assert_nonnull (duel_checkpointer_get_kept_name (checkpointer));
    g_assert_true (g_str_has_prefix (duel_checkpointer_get_kept_name (checkpointer), "result.stopped-"));
    kept_path = g_build_filename (fixture->dir, duel_checkpointer_get_kept_name (checkpointer), NULL);
    kept = load_checked (kept_path);
    g_assert_cmpstr (test_of (kept, 0)->name, ==, "stopped");
    g_assert_cmpuint (n_rows (kept, 0), ==, 2);
    g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (staging_journal, G_FILE_TEST_EXISTS));
    g_assert_false (journal_exists (fixture));
  }
}

/* ---- a real run, killed ----------------------------------------------------- */

typedef struct
{
  DuelCheckpointer *checkpointer;
  DuelResult       *result;
  guint64           compactions;
} ChildRun;

static void
child_progress_cb (const DuelProgress *progress,
                   DuelTestRecord     *record,
                   gpointer            user_data)
{
  ChildRun *run = user_data;
  DuelCheckpointerStats stats;

  if (!progress->interval_closed)
    return;
  duel_checkpointer_update (run->checkpointer, run->result, FALSE);
  duel_checkpointer_get_stats (run->checkpointer, &stats);
  if (stats.compactions != run->compactions)
    {
      run->compactions = stats.compactions;
      g_printerr ("# crash child: %" G_GUINT64_FORMAT " compactions after %u rows\n",
                  stats.compactions, progress->n_intervals);
    }
}

/* The child: a long random-write run on a file in @dir, checkpointed into
 * @dir/result.json, until the parent kills it; on stderr, how many
 * compactions it got through. */
static int
crash_child (const char *dir)
{
  g_autofree char *target_path = g_build_filename (dir, "target", NULL);
  g_autofree char *result_path = g_build_filename (dir, "result.json", NULL);
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(DuelCheckpointer) checkpointer = NULL;
  g_autoptr(GError) error = NULL;
  DuelWorkload workload;
  ChildRun run;

  /* Never outlive the test. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);

  target = duel_target_open (target_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 16 * MiB, &error);
  if (target == NULL)
    {
      g_printerr ("crash child: %s\n", error->message);
      return 1;
    }
  duel_result_set_target_from (result, target);
  duel_workload_init (&workload);
  duel_workload_set_rw_name (&workload, "randwrite", NULL);
  workload.block_size = 4096;
  workload.queue_depth = 4;
  workload.interval_ms = 100;
  workload.runtime_ms = 10 * 60 * 1000;
  record = duel_test_record_new ("randwrite-qd4", &workload);
  duel_result_add_test (result, record);

  checkpointer = duel_checkpointer_new (result_path);
  /* States and compactions (full saves, fresh journals) every few rows, so
   * the kill may land in the middle of any of them. */
  _duel_checkpointer_set_period (checkpointer, 500 * G_GUINT64_CONSTANT (1000000));
  _duel_checkpointer_set_compact_threshold (checkpointer, 4096);
  if (!duel_checkpointer_start (checkpointer, result, &error))
    {
      g_printerr ("crash child: %s\n", error->message);
      return 1;
    }
  run = (ChildRun) { checkpointer, result, 0 };
  duel_checkpointer_update (checkpointer, result, FALSE);
  if (!duel_engine_run (target, record, NULL, child_progress_cb, &run, &error))
    {
      g_printerr ("crash child: %s\n", error->message);
      return 1;
    }
  /* Not reached unless the parent never kills: fail loudly. */
  g_printerr ("crash child: the run ended without being killed\n");
  return 1;
}

static guint
rows_on_disk (const char *path)
{
  g_autoptr(DuelResult) result = NULL;

  /* Before the child's first save there is no file yet. */
  result = duel_result_load (path, NULL);
  if (result == NULL || duel_result_get_tests (result)->len == 0)
    return 0;
  return n_rows (result, 0);
}

static void
test_checkpointer_crash (void)
{
  g_autofree char *dir = test_dir_make_direct_io ("duel-checkpointer");
  g_autofree char *result_path = NULL;
  g_autofree char *self_path = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  DuelTestRecord *record;
  DuelSeriesRow total;
  guint rows = 0, n;
  gint64 give_up;

  if (dir == NULL)
    {
      g_test_skip ("no folder with O_DIRECT support");
      return;
    }
  result_path = g_build_filename (dir, "result.json", NULL);
  self_path = g_file_read_link ("/proc/self/exe", &error);
  g_assert_no_error (error);

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, self_path, "--crash-child", dir, NULL);
  g_assert_no_error (error);

  /* Poll what a loader sees until enough rows are on disk. The cap only
   * turns a child that hangs into a clear failure. */
  give_up = g_get_monotonic_time () + CRASH_POLL_CAP_S * G_TIME_SPAN_SECOND;
  while (rows < CRASH_MIN_ROWS && g_get_monotonic_time () < give_up)
    {
      g_usleep (50 * G_TIME_SPAN_MILLISECOND);
      /* Reaps a child that died on its own (it then has no exit status yet
       * until waited for). */
      if (g_subprocess_get_identifier (child) == NULL)
        break;
      rows = rows_on_disk (result_path);
    }
  if (rows < CRASH_MIN_ROWS)
    {
      g_subprocess_force_exit (child);
      g_subprocess_wait (child, NULL, NULL);
      test_dir_remove (dir);
      g_test_fail_printf ("the checkpointed result had %u rows (wanted %u) when the child %s",
                          rows, CRASH_MIN_ROWS,
                          g_subprocess_get_if_exited (child) ? "exited on its own" : "was given up on");
      return;
    }

  /* kill -9 in the middle of whatever the writer was doing. */
  g_subprocess_force_exit (child);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  result = load_checked (result_path);
  record = test_of (result, 0);
  n = duel_series_get_length (record->series);
  g_assert_cmpuint (n, >=, rows);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_RUNNING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpuint (duel_series_get_row (record->series, i)->t_ms, >,
                      duel_series_get_row (record->series, i - 1)->t_ms);
  /* Each row is an interval of 100 ms; the first ends at 100 ms. */
  g_assert_cmpuint (duel_series_get_row (record->series, 0)->t_ms, ==, 100);
  duel_series_sum (record->series, &total);
  g_assert_cmpuint (total.ops[DUEL_DIRECTION_WRITE], >, 0);
  g_assert_cmpuint (total.bytes[DUEL_DIRECTION_WRITE], ==, total.ops[DUEL_DIRECTION_WRITE] * 4096);
  g_assert_cmpuint (total.ops[DUEL_DIRECTION_READ], ==, 0);
  g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), ==, total.ops[DUEL_DIRECTION_WRITE]);

  /* The histogram is that of the first k rows, k the rows of the last
   * state folded: the engine merges a row's latencies when it closes it. */
  {
    const DuelHistogram *hist = record->latency[DUEL_DIRECTION_WRITE];
    guint64 prefix = 0, max_lat = 0;
    gboolean found = hist->count == 0;

    for (guint i = 0; i < n && !found; i++)
      {
        prefix += duel_series_get_row (record->series, i)->ops[DUEL_DIRECTION_WRITE];
        max_lat = MAX (max_lat, duel_series_get_row (record->series, i)->lat_max_ns[DUEL_DIRECTION_WRITE]);
        if (prefix == hist->count)
          {
            g_assert_cmpuint (hist->max_ns, ==, max_lat);
            found = TRUE;
          }
      }
    g_assert_true (found);
    g_assert_cmpuint (record->latency[DUEL_DIRECTION_READ]->count, ==, 0);
    g_test_message ("killed after %u rows on disk; %u rows loaded, histograms of the first %"
                    G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " writes", rows, n, hist->count,
                    total.ops[DUEL_DIRECTION_WRITE]);
  }

  test_dir_remove (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_strcmp0 (argv[1], "--crash-child") == 0)
    return crash_child (argv[2]);

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/checkpointer/fold/idempotent", Fixture, NULL, fixture_set_up, test_fold_idempotent, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/torn-line", Fixture, NULL, fixture_set_up, test_fold_torn_line, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/other-run", Fixture, NULL, fixture_set_up, test_fold_other_run, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/id-exact", Fixture, NULL, fixture_set_up, test_fold_id_exact, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/not-from-data", Fixture, NULL, fixture_set_up, test_fold_not_from_data, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/corrupt", Fixture, NULL, fixture_set_up, test_fold_corrupt, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/state", Fixture, NULL, fixture_set_up, test_fold_state, fixture_tear_down);
  g_test_add ("/duel/checkpointer/fold/new-test", Fixture, NULL, fixture_set_up, test_fold_new_test, fixture_tear_down);
  g_test_add ("/duel/checkpointer/run", Fixture, NULL, fixture_set_up, test_checkpointer_run, fixture_tear_down);
  g_test_add ("/duel/checkpointer/compaction", Fixture, NULL, fixture_set_up, test_checkpointer_compaction, fixture_tear_down);
  g_test_add ("/duel/checkpointer/compaction-fails", Fixture, NULL, fixture_set_up, test_checkpointer_compaction_fails, fixture_tear_down);
  g_test_add ("/duel/checkpointer/finish", Fixture, NULL, fixture_set_up, test_checkpointer_finish, fixture_tear_down);
  g_test_add ("/duel/checkpointer/finish-fails", Fixture, NULL, fixture_set_up, test_checkpointer_finish_fails, fixture_tear_down);
  g_test_add ("/duel/checkpointer/start-fails", Fixture, NULL, fixture_set_up, test_checkpointer_start_fails, fixture_tear_down);
  g_test_add ("/duel/checkpointer/symlink", Fixture, NULL, fixture_set_up, test_checkpointer_symlink, fixture_tear_down);
  g_test_add ("/duel/checkpointer/replace-existing", Fixture, NULL, fixture_set_up,
              test_checkpointer_replace_existing, fixture_tear_down);
  g_test_add_func ("/duel/checkpointer/crash", test_checkpointer_crash);

  return g_test_run ();
}
