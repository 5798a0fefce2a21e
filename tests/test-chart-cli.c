/* test-chart-cli.c — `driveduel-cli compare`, `report` and `import` as a user runs them
 *
 * Runs the built CLI ($DRIVEDUEL_CLI) on result files written by the core
 * library, the shipped reference results and the fio fixtures; checks exit
 * codes (0 done, 1 bad input, 2 bad options), the one-sentence errors and
 * the files written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "result/duel-result.h"
#include "test-chart-helpers.h"
#include "test-cli.h"
#include "test-dir.h"

typedef struct
{
  char *dir;
  char *a;
  char *b;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("duel-cli-charts-XXXXXX", NULL);
  fixture->a = g_build_filename (fixture->dir, "a.json", NULL);
  fixture->b = g_build_filename (fixture->dir, "b.json", NULL);
  test_make_pair (&a, &b);
  g_assert_true (duel_result_save (a, fixture->a, &error));
  g_assert_true (duel_result_save (b, fixture->b, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->a);
  g_free (fixture->b);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_compare (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *charts = g_build_filename (fixture->dir, "charts", NULL);
  g_autofree char *pdf = g_build_filename (charts, "report.pdf", NULL);
  g_autofree char *md = g_build_filename (charts, "summary.md", NULL);
  g_autofree char *png = g_build_filename (charts, "write-curve.png", NULL);
  cairo_surface_t *surface;
  guint n_parts;
  int code;

  code = run_cli (&out, &err, "compare", fixture->a, fixture->b, "--output-dir", charts,
                  "--width", "1000", "--height", "500", "--scale", "1.5", "--style", "dark", NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpstr (err, ==, "");
  /* The summary image in parts of at most twice the height (2 × 500 at
   * scale 1.5), summary.png first, summary-2.png… then, each part also as SVG. */
  for (n_parts = 0;; n_parts++)
    {
      g_autofree char *name = n_parts == 0 ? g_strdup ("summary.png") : g_strdup_printf ("summary-%u.png", n_parts + 1);
      g_autofree char *path = g_build_filename (charts, name, NULL);
      g_autofree char *line = g_strdup_printf ("/%s\n", name);
      g_autofree char *svg = g_strdup_printf ("/%.*s.svg\n", (int) strlen (name) - 4, name);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        break;
      g_assert_nonnull (strstr (out, line));
      g_assert_nonnull (strstr (out, svg));
      surface = cairo_image_surface_create_from_png (path);
      g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1500);
      g_assert_cmpint (cairo_image_surface_get_height (surface), <=, 2 * 500 * 1.5);
      cairo_surface_destroy (surface);
    }
  g_assert_cmpuint (n_parts, >=, 2);
  /* One line per file written: 6 charts × 3 (QoS at QD1 and QD32), the
   * table's further parts × 2, the report, the table, 2 job files. */
  g_assert_cmpuint (count_lines (out), ==, 22 + 2 * (n_parts - 1));
  g_assert_nonnull (strstr (out, "qos-qd1.svg\n"));
  g_assert_nonnull (strstr (out, "qos-qd32.svg\n"));
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (md, G_FILE_TEST_IS_REGULAR));
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 1500);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 750);
  cairo_surface_destroy (surface);
}

static void
test_compare_references_and_formats (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *ssd750 = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", "intel-ssd-750-400gb.json", NULL);
  g_autofree char *m8peg = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", "plextor-m8peg-512gb.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = g_build_filename (fixture->dir, "refs", NULL);
  g_autofree char *md_path = g_build_filename (dir, "summary.md", NULL);
  g_autofree char *md = NULL;
  int code;

  code = run_cli (&out, &err, "compare", ssd750, m8peg, "--output-dir", dir, "--format", "md,csv", NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, "| 4K random write at 0 % written | **112,540 IOPS** | 33,578 IOPS | -70.2 % |"));
  g_assert_nonnull (strstr (md, "2,200 MB/s"));
  g_assert_null (strstr (md, "100 % written"));
  g_assert_false (g_file_test (md_path, G_FILE_TEST_IS_DIR));
  /* Only what was asked: no PNG. */
  {
    g_autofree char *png = g_build_filename (dir, "write-curve.png", NULL);
    g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  }

  /* Three drives (the 750 twice): a column each, no difference column, the
   * best marked, the CSV with a value column per drive. */
  g_clear_pointer (&md, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "compare", ssd750, m8peg, ssd750, "--output-dir", dir, "--format", "md,csv", NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, "## Intel SSD 750 400GB vs Plextor M8PeG 512GB vs Intel SSD 750 400GB (2)\n"));
  g_assert_nonnull (strstr (md, "| 4K random write at 0 % written | **112,540 IOPS** | 33,578 IOPS | **112,540 IOPS** |"));
  g_assert_null (strstr (md, " vs Intel SSD 750 400GB |"));   /* no "B vs A" column */
  {
    g_autofree char *csv_path = g_build_filename (dir, "summary.csv", NULL);
    g_autofree char *csv = NULL;

    g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
    g_assert_true (g_str_has_prefix (csv, "kind,test,key,label,unit,better,value_a,value_b,value_c,text_a,"));
    g_assert_nonnull (strstr (csv, ",a+c,"));
  }
  /* Five are too many. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "compare", ssd750, m8peg, ssd750, m8peg, ssd750, "--output-dir", dir, NULL);
  g_assert_cmpint (code, ==, 2);
  g_assert_nonnull (strstr (err, "two to 4 result files, not 5"));

  /* --units gb: the SSD 750's rated 2200 MB/s read as 2.20 GB/s, and said. */
  g_clear_pointer (&md, g_free);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "compare", ssd750, m8peg, "--output-dir", dir, "--format", "md", "--units", "gb", NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, "2.20 GB/s"));
  g_assert_null (strstr (md, "2,200 MB/s"));
  g_assert_nonnull (strstr (md, "Rates: 1 GB/s = 10⁹ bytes per second."));
}

static void
test_report (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = g_build_filename (fixture->dir, "report", NULL);
  int code;

  code = run_cli (&out, &err, "report", fixture->a, "--output-dir", dir, "--format", "pdf,fio", NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpuint (count_lines (out), ==, 2);
  g_assert_nonnull (strstr (out, "report.pdf"));
  g_assert_nonnull (strstr (out, "alpha-ssd.fio"));
}

/* Bad input files: exit 1 and one sentence naming the file. */
static void
test_bad_files (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *text = NULL;
  g_autofree char *truncated = g_build_filename (fixture->dir, "truncated.json", NULL);
  g_autofree char *corrupt = g_build_filename (fixture->dir, "corrupt.json", NULL);
  g_autofree char *foreign = g_build_filename (fixture->dir, "foreign.json", NULL);
  g_autofree char *missing = g_build_filename (fixture->dir, "missing.json", NULL);
  g_autofree char *dir = g_build_filename (fixture->dir, "never", NULL);
  g_autofree char *fio = g_test_build_filename (G_TEST_DIST, "data", "fio", "randrw-qd16.json", NULL);
  const char *bad[] = { truncated, corrupt, foreign, missing, fio };
  gsize length;

  g_assert_true (g_file_get_contents (fixture->a, &text, &length, NULL));
  g_assert_true (g_file_set_contents (truncated, text, length * 2 / 3, NULL));
  /* A count that no longer matches its series. */
  {
    g_autoptr(GString) edited = g_string_new (text);
    const char *ops = strstr (edited->str, "\"ops\" : ");
    g_assert_nonnull (ops);
    g_string_insert (edited, ops - edited->str + 8, "7");
    g_assert_true (g_file_set_contents (corrupt, edited->str, -1, NULL));
  }
  g_assert_true (g_file_set_contents (foreign, "[1, 2, 3]\n", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *base = g_path_get_basename (bad[i]);
      int code = run_cli (&out, &err, "compare", fixture->a, bad[i], "--output-dir", dir, NULL);

      if (code < 0)
        return;
      g_test_message ("%s: %s", base, err);
      g_assert_cmpint (code, ==, 1);
      g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
      g_assert_nonnull (strstr (err, base));
      /* One sentence, one line. */
      g_assert_cmpuint (count_lines (err), ==, 1);
      g_assert_cmpstr (out, ==, "");
    }
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

/* Bad options: exit 2. */
static void
test_bad_options (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "out", NULL);
  const char *cases[][8] = {
    { "compare", fixture->a, "--output-dir", dir, NULL },
    { "compare", fixture->a, fixture->b, NULL },
    { "compare", fixture->a, fixture->b, "--output-dir", dir, "--format", "gif", NULL },
    { "compare", fixture->a, fixture->b, "--output-dir", dir, "--style", "neon", NULL },
    { "compare", fixture->a, fixture->b, "--output-dir", dir, "--scale", "0", NULL },
    { "compare", fixture->a, fixture->b, "--output-dir", dir, "--units", "kb", NULL },
    { "report", fixture->a, fixture->b, "--output-dir", dir, NULL },
    { "import", fixture->a, NULL },
    { "compare", fixture->a, fixture->b, "--output-dir", dir, "--bogus", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int code = run_cli (&out, &err, cases[i][0], cases[i][1], cases[i][2], cases[i][3],
                          cases[i][4], cases[i][5], cases[i][6], cases[i][7], NULL);

      if (code < 0)
        return;
      g_assert_cmpint (code, ==, 2);
      g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
    }
}

/* A read run with no target and no scratch file yet: refused, and told how
 * to make one. */
static void
test_read_without_scratch (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *cache = g_build_filename (fixture->dir, "cache", NULL);
  g_autofree char *scratch = g_build_filename (cache, "driveduel", "scratch.img", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code;

  test_cli_cache_home = cache;
  code = run_cli (&out, &err, "run", "--rw", "randread", "--runtime", "1", NULL);
  test_cli_cache_home = NULL;
  if (code < 0)
    return;
  g_test_message ("%s", err);
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "does not exist"));
  g_assert_nonnull (strstr (err, "--rw write"));
  g_assert_false (g_file_test (scratch, G_FILE_TEST_EXISTS));
}

static void
test_import (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *json = g_test_build_filename (G_TEST_DIST, "data", "fio", "randwrite-2x.json", NULL);
  g_autofree char *log = g_test_build_filename (G_TEST_DIST, "data", "fio", "randwrite-2x_iops.1.log", NULL);
  g_autofree char *result_path = g_build_filename (fixture->dir, "fio.json", NULL);
  g_autofree char *charts = g_build_filename (fixture->dir, "fio-charts", NULL);
  g_autofree char *curve = g_build_filename (charts, "write-curve.png", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;
  int code;

  code = run_cli (&out, &err, "import", json, "--iops-log", log, "--output", result_path, "--name", "fio run", NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  result = duel_result_load (result_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (duel_result_get_name (result), ==, "fio run");
  g_assert_cmpuint (duel_series_get_length (duel_result_find_test (result, "randwrite-2x")->series), >, 10);

  /* An imported run charts like a measured one. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "report", result_path, "--output-dir", charts, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_true (g_file_test (curve, G_FILE_TEST_IS_REGULAR));

  /* fio's plain json+ (no --lat_percentiles=1): its completion latency,
   * said as such. */
  {
    g_autofree char *plain = g_test_build_filename (G_TEST_DIST, "data", "fio", "randread-clat.json", NULL);

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    code = run_cli (&out, &err, "import", plain, "--output", result_path, NULL);
    g_test_message ("%s%s", out, err);
    g_assert_cmpint (code, ==, 0);
    g_assert_nonnull (strstr (out, "completion latency"));
  }

  /* Not fio output: 1. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "import", fixture->a, "--output", result_path, NULL);
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "not fio JSON output"));
}


/* A scaled-down SNIA IOPS run on a file (real I/O, five rounds of two
 * block sizes by two mixes), then `report` on its result: the matrix
 * plot and the steady-state chart with their data, and the PDF with
 * SNIA's pages. */
static void
test_report_pts (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *target = g_build_filename (fixture->dir, "target.img", NULL);
  g_autofree char *result = g_build_filename (fixture->dir, "pts.json", NULL);
  g_autofree char *dir = g_build_filename (fixture->dir, "pts-report", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "pts-iops.csv", NULL);
  g_autofree char *pdf = g_build_filename (dir, "report.pdf", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *pdf_data = NULL;
  gsize pdf_length = 0;
  int code;

  code = run_cli (&out, &err, "run", "--preset", "pts-iops", "--rounds", "5", "--round", "1", "--runtime", "0.2",
                  "--interval-ms", "100", "--block-sizes", "4k,64k", "--mixes", "100,0", "--span", "16m",
                  "--probe", "0", "--name", "Scratch", "-o", result, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "report", result, "--output-dir", dir, "--format", "pdf,csv", NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "pts-iops.csv"));
  g_assert_nonnull (strstr (out, "steady-state.csv"));
  g_assert_nonnull (strstr (out, "report.pdf"));
  /* Neither the latency nor the throughput test ran: no file for them. */
  g_assert_null (strstr (out, "pts-latency"));
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  /* The header and four cells, each a mean over the window's rounds. */
  g_assert_cmpuint (count_lines (csv), ==, 1 + 4);
  g_assert_nonnull (strstr (csv, "Scratch,pts-iops,4096,0,"));
  g_assert_nonnull (strstr (csv, "Scratch,pts-iops,65536,100,"));
  /* SNIA's pages are in the PDF, its text as cairo wrote it (no extractor needed). */
  g_assert_true (g_file_get_contents (pdf, &pdf_data, &pdf_length, NULL));
  g_assert_true (pdf_length > 1000);
  /* SNIA's pages, as ghostscript reads the text (where it is installed). */
  {
    g_autofree char *gs = g_find_program_in_path ("gs");
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;
    int status;

    if (gs == NULL)
      return;
    {
      const char *argv[] = { gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite",
                             "-sOutputFile=-", pdf, NULL };
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                   &text, NULL, &status, &error));
    }
    g_assert_no_error (error);
    g_assert_nonnull (strstr (text, "SNIA PTS report: SNIA IOPS"));
    g_assert_nonnull (strstr (text, "Test sponsor"));
    /* The purge the run used on a file, said as it was. */
    g_assert_nonnull (strstr (text, "blocks released"));
    g_assert_nonnull (strstr (text, "Steady-state matrix"));
  }
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/chart-cli/compare", Fixture, NULL, fixture_set_up, test_compare, fixture_tear_down);
  g_test_add ("/duel/chart-cli/references-and-formats", Fixture, NULL, fixture_set_up,
              test_compare_references_and_formats, fixture_tear_down);
  g_test_add ("/duel/chart-cli/report", Fixture, NULL, fixture_set_up, test_report, fixture_tear_down);
  g_test_add ("/duel/chart-cli/report-pts", Fixture, NULL, fixture_set_up, test_report_pts, fixture_tear_down);
  g_test_add ("/duel/chart-cli/bad-files", Fixture, NULL, fixture_set_up, test_bad_files, fixture_tear_down);
  g_test_add ("/duel/chart-cli/bad-options", Fixture, NULL, fixture_set_up, test_bad_options, fixture_tear_down);
  g_test_add ("/duel/chart-cli/read-without-scratch", Fixture, NULL, fixture_set_up,
              test_read_without_scratch, fixture_tear_down);
  g_test_add ("/duel/chart-cli/import", Fixture, NULL, fixture_set_up, test_import, fixture_tear_down);

  return g_test_run ();
}
