/* test-cli-options.c — every option value of `driveduel-cli run` checked at parse time
 * (and `run --help`, `info`'s refusals)
 *
 * NaN, infinities, negatives, zero where it means nothing and an empty
 * target: exit 2 (usage) with one sentence naming the option, before the
 * target is even looked at (the target given does not exist, so a value
 * that slipped through would fail later with exit 1 instead). And what a
 * valid --rwmixread does to a run, and where a run without --output keeps
 * its result. Runs the built CLI ($DRIVEDUEL_CLI) in
 * English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "engine/duel-workload-option.h"
#include "result/duel-result.h"
#include "test-cli.h"
#include "test-dir.h"

typedef struct
{
  const char *args[5];
  const char *names;   /* what the message must mention */
} BadOption;

static const char *missing_target = "/nonexistent/driveduel-target.img";

static void
check_refused (const BadOption *bad,
               gboolean         preset)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[8] = { "run", NULL };
  guint n = 1;
  int code;

  if (preset)
    {
      argv[n++] = "--preset";
      argv[n++] = "quick";
    }
  for (guint i = 0; bad->args[i] != NULL; i++)
    argv[n++] = bad->args[i];
  if (bad->args[0] == NULL || strcmp (bad->args[0], "") != 0)
    argv[n++] = missing_target;

  code = run_cli (&out, &err, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], NULL);
  if (code < 0)
    return;
  g_test_message ("%s %s: %s", bad->args[0], bad->args[1] ? bad->args[1] : "", err);
  g_assert_cmpint (code, ==, 2);
  g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
  if (strstr (err, bad->names) == NULL)
    g_error ("“%s” does not name %s", err, bad->names);
  /* One sentence, then the pointer to --help. */
  g_assert_cmpstr (strchr (err, '\n') + 1, ==, "Run with --help for the options.\n");
  g_assert_cmpstr (out, ==, "");
}

static void
test_run_options (void)
{
  static const BadOption bad[] = {
    { { "--runtime", "nan" }, "--runtime" },
    { { "--runtime", "inf" }, "--runtime" },
    { { "--runtime", "-1" }, "--runtime" },
    { { "--runtime", "0" }, "--runtime" },
    { { "--runtime", "5s" }, "--runtime" },
    { { "--rwmixread", "-5" }, "--rwmixread" },
    { { "--rwmixread", "101" }, "--rwmixread" },
    { { "--seed", "-5" }, "--seed" },
    { { "--size", "0" }, "--size" },
    { { "--size", "0x" }, "--size" },
    { { "--size", "nanx" }, "--size" },
    { { "--span", "0" }, "--span" },
    { { "--iodepth", "0" }, "--iodepth" },
    { { "--numjobs", "0" }, "--numjobs" },
    { { "--numjobs", "65" }, "--numjobs" },
    { { "--numjobs", "-2" }, "--numjobs" },
    { { "--numjobs", "2.5" }, "--numjobs" },
    { { "--numjobs", "two" }, "--numjobs" },
    { { "--interval-ms", "5" }, "--interval-ms" },
    /* Sizes no drive's blocks divide, limits that round to nothing (which
     * meant no limit: an endless run). */
    { { "--bs", "1e3" }, "--bs" },
    { { "--bs", "4097" }, "--bs" },
    { { "--offset", "1e3" }, "--offset" },
    { { "--span", "1000" }, "--span" },
    { { "--span", "1.5k" }, "span" },
    { { "--size", "1000" }, "--size" },
    { { "--size", "1e-9x", "--span", "4m" }, "size to transfer" },
    { { "--size", "0.0009x", "--span", "4m" }, "size to transfer" },
    { { "--output", "" }, "--output" },
    { { "-o", "" }, "--output" },
    { { "" }, "target" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    check_refused (&bad[i], FALSE);

  /* One past each end of the option table's ranges, for every option the
   * CLI takes from it: the same limits as the fio import and the loader. */
  for (guint id = 0; id < DUEL_N_WORKLOAD_OPTIONS; id++)
    {
      const DuelWorkloadOption *o = duel_workload_option_get (id);
      g_autofree char *flag = NULL;
      g_autofree char *above = NULL;
      g_autofree char *below = NULL;

      if (o->cli_name == NULL)
        continue;
      flag = g_strconcat ("--", o->cli_name, NULL);
      above = o->max < G_MAXUINT64 ? g_strdup_printf ("%" G_GUINT64_FORMAT, o->max + 1)
                                   : g_strdup ("18446744073709551616");
      below = o->min > 0 ? g_strdup_printf ("%" G_GUINT64_FORMAT, o->min - 1) : g_strdup ("-1");
      {
        const BadOption cases[] = { { { flag, above }, flag }, { { flag, below }, flag } };

        for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
          check_refused (&cases[i], FALSE);
      }
    }
}

static void
test_preset_options (void)
{
  static const BadOption bad[] = {
    { { "--runtime", "nan" }, "--runtime" },
    { { "--runtime", "-2" }, "--runtime" },
    { { "--round", "nan" }, "--round" },
    { { "--round", "0" }, "--round" },
    { { "--probe", "nan" }, "--probe" },
    { { "--probe", "-1" }, "--probe" },
    { { "--capacity-multiple", "0" }, "--capacity-multiple" },
    { { "--capacity-multiple", "inf" }, "--capacity-multiple" },
    { { "--interval-ms", "5" }, "--interval-ms" },
    { { "--span", "0" }, "--span" },
    { { "--span", "1000" }, "--span" },
    { { "--output", "" }, "--output" },
    { { "--passes", "0" }, "--passes" },
    { { "--passes", "101" }, "--passes" },
    { { "--passes", "x" }, "--passes" },
    { { "--passes", "2.5" }, "--passes" },
    { { "--passes", "-1" }, "--passes" },
    { { "--idle", "5x" }, "--idle" },
    { { "--idle", "0.05" }, "--idle" },
    { { "--idle", "5m,,30m" }, "--idle" },
    { { "--idle", "25h" }, "--idle" },
    { { "--idle", "1,2,3,4,5" }, "--idle" },
    /* Idle periods are for recovery after idle, which the quick review does not run. */
    { { "--idle", "5m" }, "does not rest the drive" },
    /* The quick review fills the drive: a second pass would measure another drive. */
    { { "--passes", "2" }, "fills the drive" },
    /* The app's custom test is the CLI's plain run, with every fio option. */
    { { "--preset", "custom" }, "plain run" },
    { { "" }, "target" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    check_refused (&bad[i], TRUE);
}

/* The result must be keepable before the target is touched: a missing
 * folder, a device node or a folder as the output is refused with exit 1,
 * and the target file is not even created. */
static void
test_preflight (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-preflight-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "r.json", NULL);
  static const char *presets[] = { NULL, "quick" };
  const char *outputs[] = { missing, "/dev/null", dir };
  const char *needles[] = { "does not exist", "not a regular file", "is a folder" };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
      {
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;
        int code;

        if (presets[p] == NULL)
          code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                          "--output", outputs[i], target, NULL);
        else
          code = run_cli (&out, &err, "run", "--preset", presets[p], "--span", "4m",
                          "--output", outputs[i], target, NULL);
        if (code < 0)
          return;
        g_test_message ("%s → %s", outputs[i], err);
        g_assert_cmpint (code, ==, 1);
        g_assert_nonnull (strstr (err, needles[i]));
        g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
      }
  g_rmdir (dir);
}

/* --rwmixread is the share of reads in a mix: 70 gives 70 % reads of a
 * 2048-I/O run (within 4 points: the decisions are a seeded random draw
 * each, a binomial with a spread of 1 point), 0 and 100 none and all; the
 * result's params record it. */
static void
test_rwmixread (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-rwmix-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.img", NULL);
  g_autofree char *output = g_build_filename (dir, "r.json", NULL);
  static const char * const mixes[] = { "70", "0", "100" };

  for (guint i = 0; i < G_N_ELEMENTS (mixes); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonObject *test, *totals;
      gint64 reads, writes, percent = g_ascii_strtoll (mixes[i], NULL, 10);
      int code;

      code = run_cli (&out, &err, "run", "--rw", "randrw", "--rwmixread", mixes[i], "--bs", "4k",
                      "--size", "8m", "--span", "8m", "--output", output, target, NULL);
      if (code < 0)
        return;
      g_assert_cmpint (code, ==, 0);
      g_assert_true (json_parser_load_from_file (parser, output, &error));
      g_assert_no_error (error);
      test = json_array_get_object_element (json_object_get_array_member (
               json_node_get_object (json_parser_get_root (parser)), "tests"), 0);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (test, "params"), "rwmixread"),
                       ==, percent);
      totals = json_object_get_object_member (test, "totals");
      reads = json_object_get_int_member (json_object_get_object_member (totals, "read"), "ops");
      writes = json_object_get_int_member (json_object_get_object_member (totals, "write"), "ops");
      g_test_message ("--rwmixread %s: %" G_GINT64_FORMAT " reads, %" G_GINT64_FORMAT " writes",
                      mixes[i], reads, writes);
      g_assert_cmpint (reads + writes, ==, 2048);
      if (percent == 0 || percent == 100)
        g_assert_cmpint (reads, ==, percent == 100 ? 2048 : 0);
      else
        g_assert_cmpint (labs ((long) (reads * 100 / 2048 - percent)), <=, 4);
      g_unlink (output);
    }
  g_unlink (target);
  g_rmdir (dir);
}

/* The files of @folder, sorted; NULL when there is no such folder. */
static GPtrArray *
list_folder (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  GPtrArray *names;
  const char *name;

  if (dir == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

/* A run without --output keeps its result in the history the app lists
 * ($XDG_DATA_HOME/driveduel/history), named after --name or the target,
 * and says where on its last line; --no-history keeps none; a history
 * folder that cannot be made is said as the run starts measuring, and the
 * run goes on. */
static void
test_run_history (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-history-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "My Disk.img", NULL);
  g_autofree char *data_home = g_build_filename (dir, "data", NULL);
  g_autofree char *history = g_build_filename (data_home, "driveduel", "history", NULL);
  g_autofree char *not_a_folder = g_build_filename (dir, "file", NULL);
  g_autofree char *saved_data_home = g_strdup (g_getenv ("XDG_DATA_HOME"));
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *kept_line = "The result is kept in the history the app lists: ";
  const char *line;
  int code;

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--size", "1m", "--span", "4m", target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  names = list_folder (history);
  g_assert_nonnull (names);
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (names, 0), "-my-disk-img.json"));
  line = strstr (out, kept_line);
  g_assert_nonnull (line);
  {
    g_autofree char *path = g_build_filename (history, g_ptr_array_index (names, 0), NULL);
    g_autofree char *said = g_strndup (line + strlen (kept_line), strcspn (line + strlen (kept_line), "\n"));
    g_autoptr(DuelResult) result = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_cmpstr (said, ==, path);
    result = duel_result_load (path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  }
  g_clear_pointer (&names, g_ptr_array_unref);

  /* --name names the file; --no-history keeps nothing. */
  code = run_cli (&out, &err, "run", "--rw", "randread", "--size", "1m", "--span", "4m", "--name", "Samsung 970 EVO!", target, NULL);
  g_assert_cmpint (code, ==, 0);
  code = run_cli (&out, &err, "run", "--rw", "randread", "--size", "1m", "--span", "4m", "--no-history", target, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_null (strstr (out, kept_line));
  names = list_folder (history);
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (names, 0), "-my-disk-img.json") ||
                 g_str_has_suffix (g_ptr_array_index (names, 1), "-my-disk-img.json"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (names, 0), "-samsung-970-evo.json") ||
                 g_str_has_suffix (g_ptr_array_index (names, 1), "-samsung-970-evo.json"));
  g_clear_pointer (&names, g_ptr_array_unref);

  /* No folder can be made under a file: one sentence, and the run. */
  g_assert_true (g_file_set_contents (not_a_folder, "x", 1, NULL));
  g_setenv ("XDG_DATA_HOME", not_a_folder, TRUE);
  code = run_cli (&out, &err, "run", "--rw", "randread", "--size", "1m", "--span", "4m", target, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (err, "the result will not be kept ("));
  g_assert_nonnull (strstr (err, "; give a file with --output to keep it."));
  g_assert_null (strstr (out, kept_line));
  g_assert_nonnull (strstr (out, "read:"));

  if (saved_data_home != NULL)
    g_setenv ("XDG_DATA_HOME", saved_data_home, TRUE);
  else
    g_unsetenv ("XDG_DATA_HOME");
  test_dir_remove (dir);
}

/* `run --help` is the plain run's, but a run with --preset takes other
 * options (duel-cli-preset.c): the help names the preset mode and them. */
static void
test_run_help (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code;

  code = run_cli (&out, &err, "run", "--help", NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "--preset NAME"));
  g_assert_nonnull (strstr (out, "--probe"));
  g_assert_nonnull (strstr (out, "--round"));
  g_assert_nonnull (strstr (out, "run --preset NAME --help"));
  g_assert_nonnull (strstr (out, "crystaldiskmark"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* The preset's own help lists them as options. */
  code = run_cli (&out, &err, "run", "--preset", "quick", "--help", NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "--preset=NAME"));
  g_assert_nonnull (strstr (out, "--probe=SECONDS"));
  g_assert_nonnull (strstr (out, "--round=SECONDS"));
}

/* info describes what is there: a missing path, a folder or a character
 * device is one sentence naming it and exit 1, not a description of the
 * filesystem it would be in. */
static void
test_info_target (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-cli-info-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-file", NULL);
  const char *targets[] = { "/dev/nonexist", missing, dir, "/dev/null" };
  const char *needles[] = { "does not exist", "does not exist", "is a folder", "is a character device" };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    for (guint json = 0; json < 2; json++)
      {
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;
        g_autofree char *quoted = g_strdup_printf ("“%s”", targets[i]);
        int code;

        if (json)
          code = run_cli (&out, &err, "info", "--json", targets[i], NULL);
        else
          code = run_cli (&out, &err, "info", targets[i], NULL);
        if (code < 0)
          return;
        g_test_message ("%s → %d %s", targets[i], code, err);
        g_assert_cmpint (code, ==, 1);
        g_assert_cmpstr (out, ==, "");
        g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
        g_assert_nonnull (strstr (err, quoted));
        g_assert_nonnull (strstr (err, needles[i]));
        /* One sentence on one line. */
        g_assert_true (g_str_has_suffix (err, ".\n"));
        g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
      }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/duel/cli/run-options", test_run_options);
  g_test_add_func ("/duel/cli/preset-options", test_preset_options);
  g_test_add_func ("/duel/cli/preflight", test_preflight);
  g_test_add_func ("/duel/cli/rwmixread", test_rwmixread);
  g_test_add_func ("/duel/cli/run-history", test_run_history);
  g_test_add_func ("/duel/cli/run-help", test_run_help);
  g_test_add_func ("/duel/cli/info-target", test_info_target);
  return g_test_run ();
}
