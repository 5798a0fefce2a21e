/* test-cli-analyze.c — `driveduel-cli analyze` on the published reference results
 *
 * The reference files (data/reference/) hold the figures the review printed
 * and no series: analyze must print those figures, say that they are
 * published and not measured, and not claim that they differ from a
 * recomputation. A measured consistency run whose last interval was cut
 * short must say that it is left out of the figures. Runs the built CLI
 * ($DRIVEDUEL_CLI) in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "duel-json.h"
#include "result/duel-result.h"
#include "test-chart-helpers.h"
#include "test-cli.h"
#include "test-dir.h"

#define PUBLISHED_NOTE "Published figures from the review, not measured by Drive Duel."

typedef struct
{
  const char *file;
  const char *name;
  /* The review's figures, as analyze prints them. */
  const char *lines[8];
} Reference;

static const Reference references[] = {
  { "intel-ssd-750-400gb.json", "Intel SSD 750 400GB",
    { "Capacity written                                     200.0 %",
      "The review’s 4K write score (method not stated)      29,752 IOPS",
      "4K random write at 0 % written                       112,540 IOPS",
      "4K random write at 50 % written                      83,061 IOPS",
      "4K random write at the end                           15,885 IOPS",
      "The review’s 4K read score (method not stated)       253,262 IOPS",
      "Mixed 50/50, 99.9 % slowest interval                 12,263 IOPS",
      NULL } },
  { "plextor-m8peg-512gb.json", "Plextor M8PeG 512GB",
    { "Capacity written                                     200.0 %",
      "The review’s 4K write score (method not stated)      18,363 IOPS",
      "4K random write at 0 % written                       33,578 IOPS",
      "4K random write at 50 % written                      47,061 IOPS",
      "4K random write at the end                           9,087 IOPS",
      "The review’s 4K read score (method not stated)       262,899 IOPS",
      "Mixed 50/50, 99.9 % slowest interval                 16,164 IOPS",
      NULL } },
};

static void
test_text (gconstpointer data)
{
  const Reference *ref = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", ref->file, NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code;

  code = run_cli (&out, &err, "analyze", path, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, ref->name));
  /* The note comes before the figures. */
  g_assert_nonnull (strstr (out, PUBLISHED_NOTE "\n"));
  g_assert_true (strstr (out, PUBLISHED_NOTE) < strstr (out, "Write saturation ("));
  for (guint i = 0; ref->lines[i] != NULL; i++)
    {
      if (strstr (out, ref->lines[i]) == NULL)
        g_error ("analyze %s does not print “%s”:\n%s", ref->file, ref->lines[i], out);
    }
  /* Nothing the review did not print, nothing recomputed from an empty series. */
  g_assert_null (strstr (out, "0.000 GB"));
  g_assert_null (strstr (out, "n/a"));
  g_assert_null (strstr (out, "100 % written"));
  g_assert_null (strstr (out, "Steady-state"));
  /* The script's scores are scores: not a mean over the run, not a read score measured here. */
  g_assert_null (strstr (out, "mean over the run"));
  g_assert_null (strstr (out, "read score (filled)"));
}

static void
test_json (gconstpointer data)
{
  const Reference *ref = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", ref->file, NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *tests;
  JsonArray *figures;
  gboolean seen_written = FALSE;
  int code;

  code = run_cli (&out, &err, "analyze", "--json", path, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_boolean_member (root, "published"));
  g_assert_cmpstr (json_object_get_string_member (root, "note"), ==, PUBLISHED_NOTE);
  tests = json_object_get_array_member (root, "tests");
  g_assert_cmpuint (json_array_get_length (tests), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (tests, 0), "analysis"),
                   ==, "saturation");
  figures = json_object_get_array_member (json_array_get_object_element (tests, 0), "figures");
  for (guint i = 0; i < json_array_get_length (figures); i++)
    {
      JsonObject *figure = json_array_get_object_element (figures, i);

      g_assert_true (json_object_get_boolean_member (figure, "matches_stored"));
      if (g_strcmp0 (json_object_get_string_member (figure, "key"), "capacity_written_pct") == 0)
        {
          g_assert_cmpfloat (json_object_get_double_member (figure, "value"), ==, 200);
          seen_written = TRUE;
        }
    }
  g_assert_true (seen_written);
}

/* A measured result is still recomputed, with no such note; its heading
 * counts its one test in the singular. */
static void
test_measured_has_no_note (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *result = g_build_filename (dir, "run.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code;

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--bs", "4k", "--iodepth", "4",
                  "--runtime", "1", "--span", "4m", "--output", result, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "analyze", result, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_null (strstr (out, PUBLISHED_NOTE));
  /* Its one test is counted in the singular (ngettext), not "1 tests". */
  g_assert_nonnull (strstr (out, ", 1 test\n"));
  g_assert_null (strstr (out, "1 tests"));
  g_unlink (result);
  g_unlink (target);
  g_rmdir (dir);
}

/* Sets tests[0].status (and error) of the result file at @path, as a run
 * that ended otherwise would have written it. */
static void
set_status (const char *path,
            const char *from,
            const char *to,
            const char *error_message)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *test;

  g_assert_true (json_parser_load_from_file (parser, from, &error));
  g_assert_no_error (error);
  test = json_array_get_object_element (json_object_get_array_member (
           json_node_get_object (json_parser_get_root (parser)), "tests"), 0);
  json_object_set_string_member (test, "status", to);
  if (error_message != NULL)
    json_object_set_string_member (test, "error", error_message);
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, path, &error));
  g_assert_no_error (error);
}

/* A plain run's heading says how it ended, its totals follow, and a
 * checkpoint that was never followed by the final save is flagged. */
static void
test_plain_status (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *result = g_build_filename (dir, "run.json", NULL);
  g_autofree char *edited = g_build_filename (dir, "edited.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  static const struct { const char *status; const char *heading; const char *line; } cases[] = {
    { "complete", "randwrite (no preset, complete)\n", NULL },
    { "running", "randwrite (no preset, interrupted)\n", "Warning: this is a checkpoint taken during the run" },
    { "cancelled", "randwrite (no preset, stopped)\n", "Stopped before the end" },
    { "failed", "randwrite (no preset, failed)\n", "Failed: the disk went away; the figures cover" },
  };
  int code;

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--bs", "4k", "--iodepth", "4",
                  "--runtime", "0.5", "--span", "4m", "--output", result, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      set_status (edited, result, cases[i].status,
                  g_str_equal (cases[i].status, "failed") ? "the disk went away" : NULL);
      code = run_cli (&out, &err, "analyze", edited, NULL);
      g_test_message ("%s", out);
      g_assert_cmpint (code, ==, 0);
      g_assert_nonnull (strstr (out, cases[i].heading));
      /* Summarised as its workload fits, its figures in words at its depth. */
      g_assert_nonnull (strstr (out, "  Random write QD4 "));
      g_assert_nonnull (strstr (out, "  Random write QD4, throughput "));
      g_assert_null (strstr (out, "rand_write_qd4"));
      /* With their units, as every figure: "47,798 IOPS", not "47797.8". */
      {
        const char *iops = strstr (out, "  Random write QD4 ");
        const char *rate = strstr (out, "  Random write QD4, throughput ");
        g_autofree char *iops_line = g_strndup (iops, strcspn (iops, "\n"));
        g_autofree char *rate_line = g_strndup (rate, strcspn (rate, "\n"));

        g_assert_true (g_str_has_suffix (iops_line, " IOPS"));
        g_assert_true (g_str_has_suffix (rate_line, "MB/s"));
      }
      g_assert_null (strstr (out, "Random read"));
      g_assert_null (strstr (out, "no summary figures"));
      if (cases[i].line != NULL)
        g_assert_nonnull (strstr (out, cases[i].line));
      else
        g_assert_null (strstr (out, "Warning"));
    }
  g_unlink (edited);
  g_unlink (result);
  g_unlink (target);
  g_rmdir (dir);
}

/* Names from a file are untrusted: an ESC sequence, a bidirectional
 * override and a 100 KB name reach neither analyze nor compare raw. */
static void
test_untrusted_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *result = g_build_filename (dir, "run.json", NULL);
  g_autofree char *edited = g_build_filename (dir, "edited.json", NULL);
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) written = NULL;
  const char *entry;
  guint n_written = 0;
  g_autofree char *long_name = g_strnfill (100000, 'x');
  g_autofree char *long_head = g_strnfill (300, 'x');
  const char *const commands[][4] = {
    { "analyze", NULL, NULL, NULL },
    { "compare", NULL, NULL, NULL },
  };
  JsonObject *root, *test;
  int code;

  code = run_cli (NULL, NULL, "run", "--rw", "randwrite", "--bs", "4k", "--iodepth", "4",
                  "--runtime", "0.3", "--span", "4m", "--output", result, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);

  g_assert_true (json_parser_load_from_file (parser, result, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_string_member (root, "name", "drive\033[2J\u202Egnp.exe");
  test = json_array_get_object_element (json_object_get_array_member (root, "tests"), 0);
  json_object_set_string_member (test, "name", long_name);
  json_object_set_string_member (test, "status", "failed");
  json_object_set_string_member (test, "error", "gone\033]0;owned\007");
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, edited, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      if (g_str_equal (commands[i][0], "analyze"))
        code = run_cli (&out, &err, "analyze", edited, NULL);
      else
        code = run_cli (&out, &err, "compare", "-o", outdir, "-f", "md,csv,fio", edited, edited, NULL);
      g_test_message ("%s: %.300s", commands[i][0], out);
      g_assert_cmpint (code, ==, 0);
      g_assert_null (strchr (out, '\033'));
      g_assert_null (strchr (err, '\033'));
      g_assert_null (strchr (out, '\007'));
      g_assert_null (strstr (out, "\u202E"));
      g_assert_null (strstr (out, long_head));
    }
  /* The report, the tables and the fio jobs written from those names. */
  written = g_dir_open (outdir, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (written)) != NULL)
    {
      g_autofree char *path = g_build_filename (outdir, entry, NULL);
      g_autofree char *contents = NULL;

      g_assert_null (strchr (entry, '\033'));
      g_assert_cmpuint (strlen (entry), <, 255);
      g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
      g_assert_no_error (error);
      g_assert_null (strchr (contents, '\033'));
      if (long_head != NULL)
        g_assert_null (strstr (contents, long_head));
      g_unlink (path);
      n_written++;
    }
  g_assert_cmpuint (n_written, >=, 3);
  g_rmdir (outdir);

  /* What is shown instead: the characters written out. */
  {
    g_autofree char *out = NULL;

    code = run_cli (&out, NULL, "analyze", edited, NULL);
    g_assert_cmpint (code, ==, 0);
    g_assert_nonnull (strstr (out, "\\x1b]0;owned\\x07"));
    g_assert_nonnull (strstr (out, "xxx…"));
  }
  g_unlink (edited);
  g_unlink (result);
  g_unlink (target);
  g_rmdir (dir);
}

/* A consistency test as the preset runs it: @n_whole intervals of
 * @interval_ms, then, when @last_ms is not 0, one of @last_ms (the run
 * stopped inside it). Analysed and saved at @path. */
static void
write_consistency_result (const char *path,
                          guint       interval_ms,
                          guint       n_whole,
                          guint       last_ms)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(DuelSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  DuelTargetInfo target = { .path = (char *) "/srv/scratch.img", .kind = DUEL_TARGET_KIND_FILE,
                            .size_bytes = 1 << 30, .logical_block_size = 512, .physical_block_size = 4096 };
  DuelWorkload workload;
  guint64 t_ms = 0;

  duel_workload_init (&workload);
  g_assert_true (duel_workload_set_rw_name (&workload, "randrw", NULL));
  workload.read_percent = 50;
  workload.queue_depth = 32;
  workload.interval_ms = interval_ms;
  record = duel_test_record_new (DUEL_TEST_CONSISTENCY, &workload);
  record->preset = g_strdup ("consistency");
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = target.size_bytes;
  for (guint i = 0; i < n_whole + (last_ms > 0); i++)
    {
      guint length = i < n_whole ? interval_ms : last_ms;
      DuelSeriesRow row = { 0, };

      t_ms += length;
      row.t_ms = t_ms;
      /* 40000 IOPS, half reads, whatever the interval's length. */
      row.ops[DUEL_DIRECTION_READ] = row.ops[DUEL_DIRECTION_WRITE] = 20 * length;
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.bytes[d] = row.ops[d] * 4096;
          row.lat_max_ns[d] = 2000000;
        }
      row.temperature_c = NAN;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = t_ms * G_GUINT64_CONSTANT (1000000);
  summary = duel_analysis_summarize (record, DUEL_ANALYSIS_CONSISTENCY, NULL);
  duel_analysis_apply (record, DUEL_ANALYSIS_CONSISTENCY, NULL, summary);

  duel_result_set_target (result, &target);
  duel_result_set_name (result, "Scratch");
  duel_result_add_test (result, record);
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
}

/* A final interval shorter than the others is left out of the consistency
 * figures; analyze says so, with both lengths, and says nothing when every
 * interval was whole. */
static void
test_partial_interval_note (void)
{
  static const struct
  {
    guint       interval_ms;
    guint       n_whole;
    guint       last_ms;
    const char *note;        /* NULL: none */
    const char *intervals;   /* the figure: the whole intervals only */
  } cases[] = {
    { 1000, 5, 400, "\n  The last interval (0.4 s) was shorter than 1 s and is not counted "
                    "in the consistency figures.\n", "5 intervals\n" },
    { 100, 20, 37, "\n  The last interval (0.037 s) was shorter than 0.1 s and is not counted "
                   "in the consistency figures.\n", "20 intervals\n" },
    { 1500, 4, 1250, "\n  The last interval (1.25 s) was shorter than 1.5 s and is not counted "
                     "in the consistency figures.\n", "4 intervals\n" },
    { 1000, 6, 0, NULL, "6 intervals\n" },
  };
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "consistency.json", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int code;

      write_consistency_result (path, cases[i].interval_ms, cases[i].n_whole, cases[i].last_ms);
      code = run_cli (&out, &err, "analyze", path, NULL);
      if (code < 0)
        break;
      g_test_message ("%s", out);
      g_assert_cmpint (code, ==, 0);
      /* Recomputed from the file, the figures are the stored ones. */
      g_assert_cmpstr (err, ==, "");
      g_assert_nonnull (strstr (out, cases[i].intervals));
      if (cases[i].note != NULL)
        g_assert_nonnull (strstr (out, cases[i].note));
      else
        g_assert_null (strstr (out, "The last interval"));
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Every file the export wrote to @outdir: no terminal control in its
 * name or text, no name of 255 bytes or more, none holding @long_head
 * (unless NULL); the files are removed. Returns how many there were. */
static guint
check_written (const char *outdir,
               const char *long_head)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) written = g_dir_open (outdir, 0, &error);
  const char *entry;
  guint n_written = 0;

  g_assert_no_error (error);
  while ((entry = g_dir_read_name (written)) != NULL)
    {
      g_autofree char *path = g_build_filename (outdir, entry, NULL);
      g_autofree char *contents = NULL;

      g_assert_null (strchr (entry, '\033'));
      g_assert_cmpuint (strlen (entry), <, 255);
      g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
      g_assert_no_error (error);
      g_assert_null (strchr (contents, '\033'));
      g_assert_null (strchr (contents, '\007'));
      if (long_head != NULL)
        g_assert_null (strstr (contents, long_head));
      g_unlink (path);
      n_written++;
    }
  g_rmdir (outdir);
  return n_written;
}

/* A checkpoint journal is as untrusted as the file beside it: a test's
 * name, error and summary folded from it are escaped and bounded as the
 * file's are, in analyze, compare and every export. */
static void
test_untrusted_journal (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *result = g_build_filename (dir, "run.json", NULL);
  g_autofree char *journal = g_build_filename (dir, "run.json.journal", NULL);
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) test_node = NULL;
  g_autoptr(GString) lines = g_string_new ("driveduel-journal 1 01234567-89ab-4def-8123-456789abcdef\n");
  g_autofree char *test_text = NULL;
  g_autofree char *long_name = NULL;
  g_autofree char *long_head = g_strnfill (300, 'y');
  JsonObject *root, *test, *details;
  int code;

  write_consistency_result (result, 1000, 5, 0);
  g_assert_true (json_parser_load_from_file (parser, result, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_string_member (root, "journal_id", "01234567-89ab-4def-8123-456789abcdef");
  json_generator_set_root (generator, json_parser_get_root (parser));
  g_assert_true (json_generator_to_file (generator, result, &error));
  g_assert_no_error (error);

  /* The journal's line for test 0: what it is now, with hostile text. */
  test_node = json_node_copy (json_array_get_element (json_object_get_array_member (root, "tests"), 0));
  test = json_node_get_object (test_node);
  long_name = g_strconcat ("drive\033[2J\u202E", long_head, NULL);
  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *longer = g_strconcat (long_name, long_head, NULL);

      g_free (long_name);
      long_name = g_steal_pointer (&longer);
    }
  json_object_set_string_member (test, "name", long_name);
  json_object_set_string_member (test, "status", "failed");
  json_object_set_string_member (test, "error", "gone\033]0;owned\007");
  details = json_object_get_object_member (json_object_get_object_member (test, "summary"), "details");
  json_object_set_string_member (details, "note", "\033[31mred\033[0m");
  test_text = json_to_string (test_node, FALSE);
  g_string_append_printf (lines, "test 0 %s\n", test_text);
  g_assert_true (g_file_set_contents (journal, lines->str, (gssize) lines->len, &error));
  g_assert_no_error (error);

  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    code = run_cli (&out, &err, "analyze", result, NULL);
    if (code < 0)
      return;
    g_test_message ("analyze: %.400s", out);
    g_assert_cmpint (code, ==, 0);
    /* Folded: the journal's error is there, written out. */
    g_assert_nonnull (strstr (out, "\\x1b]0;owned\\x07"));
    g_assert_nonnull (strstr (out, "drive\\x1b[2J\\u202E"));
    g_assert_null (strchr (out, '\033'));
    g_assert_null (strchr (out, '\007'));
    g_assert_null (strchr (err, '\033'));
    g_assert_null (strstr (out, "\u202E"));
    g_assert_null (strstr (out, long_head));
  }
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    code = run_cli (&out, &err, "compare", "-o", outdir, "-f", "md,csv,fio", result, result, NULL);
    g_assert_cmpint (code, ==, 0);
    g_assert_null (strchr (out, '\033'));
    g_assert_null (strchr (err, '\033'));
    g_assert_null (strstr (out, long_head));
    g_assert_cmpuint (check_written (outdir, long_head), >=, 3);
  }
  g_unlink (journal);
  g_unlink (result);
  g_rmdir (dir);
}

/* File names made from a drive's name fit any filesystem, however long
 * the name, and stay one per drive when names differ only past the cut. */
static void
test_long_drive_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b.json", NULL);
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  g_autofree char *name_a = g_strnfill (256, 'x');
  g_autofree char *name_b = g_strconcat (name_a, "b", NULL);
  const char *names[] = { name_a, name_b };
  const char *paths[] = { a, b };
  int code;

  /* 256 characters are kept whole by the loader (its bound is 256). */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(DuelResult) loaded = NULL;
      g_autoptr(GError) error = NULL;

      write_consistency_result (paths[i], 1000, 5, 0);
      loaded = duel_result_load (paths[i], &error);
      g_assert_no_error (error);
      duel_result_set_name (loaded, names[i]);
      g_assert_true (duel_result_save (loaded, paths[i], &error));
      g_assert_no_error (error);
    }

  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    code = run_cli (&out, &err, "report", "-o", outdir, "-f", "fio,md,csv", a, NULL);
    if (code < 0)
      return;
    g_test_message ("report: %s%s", out, err);
    g_assert_cmpint (code, ==, 0);
    g_assert_cmpuint (check_written (outdir, NULL), >=, 3);
  }
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    guint n_fio = 0;

    code = run_cli (&out, &err, "compare", "-o", outdir, "-f", "fio", a, b, a, NULL);
    g_test_message ("compare: %s%s", out, err);
    g_assert_cmpint (code, ==, 0);
    /* One job file per drive, each its own. */
    for (const char *p = out; (p = strstr (p, ".fio\n")) != NULL; p++)
      n_fio++;
    g_assert_cmpuint (n_fio, ==, 3);
    g_assert_cmpuint (check_written (outdir, NULL), ==, 3);
  }
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* A copy of @name from tests/data/killed/ in @dir. */
static char *
copy_killed_fixture (const char *dir,
                     const char *name)
{
  g_autofree char *from = g_test_build_filename (G_TEST_DIST, "data", "killed", name, NULL);
  g_autofree char *to = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (from, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (to, contents, (gssize) length, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&to);
}

/* A plain run killed 5 s in (tests/data/killed/README.md): its runtime_ns
 * is 0, so its rate comes from its rows, the same in analyze as in report
 * (before, analyze printed 0 IOPS). Copied without its journal, the file
 * says the journal is missing, not that its test was not run. */
static void
test_killed_plain (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *alone_dir = g_build_filename (dir, "alone", NULL);
  g_autofree char *outdir = g_build_filename (dir, "report", NULL);
  g_autofree char *result = copy_killed_fixture (dir, "plain-randread.json");
  g_autofree char *journal = copy_killed_fixture (dir, "plain-randread.json.journal");
  g_autofree char *alone = NULL;
  g_autofree char *csv_path = g_build_filename (outdir, "standard.csv", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int code;

  code = run_cli (&out, &err, "analyze", result, NULL);
  if (code < 0)
    goto out;
  g_test_message ("%s", out);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "randread (no preset, interrupted)\n"));
  g_assert_nonnull (strstr (out, "Warning: this is a checkpoint taken during the run"));
  /* 1 277 440 reads in 5 rows of 1 s, grouped as every figure is. */
  g_assert_nonnull (strstr (out, " 255,488 IOPS\n"));
  g_assert_nonnull (strstr (out, " 1,046.5 MB/s\n"));
  g_assert_null (strstr (out, "journal"));

  code = run_cli (NULL, NULL, "report", "-o", outdir, "-f", "csv", result, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("%s", csv);
  /* Its numjobs (1) after the queue depth. */
  g_assert_nonnull (strstr (csv, ",randread,random,read,4096,32,1,255488,IOPS,"));

  /* The file alone: its test may have run after the save. */
  g_assert_cmpint (g_mkdir (alone_dir, 0700), ==, 0);
  alone = copy_killed_fixture (alone_dir, "plain-randread.json");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "analyze", alone, NULL);
  g_test_message ("%s", out);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "randread (no preset, interrupted)\n"));
  g_assert_nonnull (strstr (out, "  The journal plain-randread.json.journal beside this file is missing: "
                                 "what this test recorded after the file was saved is lost.\n"));
  g_assert_null (strstr (out, "not run"));
  g_clear_pointer (&out, g_free);
  code = run_cli (&out, NULL, "analyze", "--json", alone, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "\"missing_journal\" : \""));

out:
  test_dir_remove (dir);
}

/* analyze --json lists a fill's falls (issue 35): each with its kind,
 * knee, foot, levels and resolution, the same the sentences say. A fill
 * with its cliff at 35 % into an 18,000 IOPS plateau. */
static void
test_json_falls (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-analyze-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "fill.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) stored = NULL;
  JsonArray *tests, *falls = NULL, *want;
  int code;

  test_make_pair (&a, &b);
  g_assert_true (duel_result_save (b, path, &error));
  g_assert_no_error (error);
  stored = duel_saturation_dup_events_json (
    duel_json_get_object (duel_result_find_test (b, DUEL_TEST_WSAT_FILL)->summary, "details"));
  want = json_node_get_array (stored);

  code = run_cli (&out, &err, "analyze", "--json", path, NULL);
  if (code < 0)
    goto out;
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  tests = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests");
  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      JsonObject *test = json_array_get_object_element (tests, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (test, "analysis", ""), "saturation") == 0)
        falls = json_object_get_array_member (test, "falls");
      else
        g_assert_false (json_object_has_member (test, "falls"));
    }
  g_assert_nonnull (falls);
  g_assert_cmpuint (json_array_get_length (falls), >=, 1);
  /* Recomputed from the rows, as the stored summary has them. */
  g_assert_cmpuint (json_array_get_length (falls), ==, json_array_get_length (want));
  for (guint i = 0; i < json_array_get_length (falls); i++)
    {
      JsonObject *e = json_array_get_object_element (falls, i);
      const char * const members[] = { "knee_pct", "foot_pct", "level_before_iops", "level_after_iops", "resolution_pct" };

      g_assert_cmpstr (json_object_get_string_member (e, "kind"), ==,
                       json_object_get_string_member (json_array_get_object_element (want, i), "kind"));
      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (e, members[m]),
                                        json_object_get_double_member (json_array_get_object_element (want, i),
                                                                       members[m]), 1e-6);
    }
  {
    JsonObject *cliff = json_array_get_object_element (falls, json_array_get_length (falls) - 1);

    g_assert_cmpstr (json_object_get_string_member (cliff, "kind"), ==, "cliff");
    g_assert_cmpfloat (fabs (json_object_get_double_member (cliff, "knee_pct") - 35), <=, 3);
    g_assert_cmpfloat (json_object_get_double_member (cliff, "foot_pct"), >=, json_object_get_double_member (cliff, "knee_pct"));
    g_assert_cmpfloat (json_object_get_double_member (cliff, "level_after_iops"), <=,
                       0.75 * json_object_get_double_member (cliff, "level_before_iops"));
    g_assert_cmpfloat (fabs (json_object_get_double_member (cliff, "level_after_iops") / (18000 * 0.6) - 1), <=, 0.05);
    g_assert_cmpfloat (json_object_get_double_member (cliff, "resolution_pct"), >, 0);
    g_assert_true (json_object_get_boolean_member (cliff, "into_plateau"));
  }

out:
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (references); i++)
    {
      g_autofree char *text = g_strdup_printf ("/duel/cli-analyze/reference/%s", references[i].file);
      g_autofree char *json = g_strdup_printf ("/duel/cli-analyze/reference-json/%s", references[i].file);

      g_test_add_data_func (text, &references[i], test_text);
      g_test_add_data_func (json, &references[i], test_json);
    }
  g_test_add_func ("/duel/cli-analyze/measured", test_measured_has_no_note);
  g_test_add_func ("/duel/cli-analyze/json-falls", test_json_falls);
  g_test_add_func ("/duel/cli-analyze/plain-status", test_plain_status);
  g_test_add_func ("/duel/cli-analyze/partial-interval-note", test_partial_interval_note);
  g_test_add_func ("/duel/cli-analyze/untrusted-names", test_untrusted_names);
  g_test_add_func ("/duel/cli-analyze/untrusted-journal", test_untrusted_journal);
  g_test_add_func ("/duel/cli-analyze/long-drive-name", test_long_drive_name);
  g_test_add_func ("/duel/cli-analyze/killed-plain", test_killed_plain);

  return g_test_run ();
}
