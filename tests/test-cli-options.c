/* test-cli-options.c — every option value of `driveduel-cli run` checked at parse time
 *
 * NaN, infinities, negatives, zero where it means nothing and an empty
 * target: exit 2 (usage) with one sentence naming the option, before the
 * target is even looked at (the target given does not exist, so a value
 * that slipped through would fail later with exit 1 instead). Runs the
 * built CLI ($DRIVEDUEL_CLI) in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "test-cli.h"

typedef struct
{
  const char *args[4];
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
    { { "" }, "target" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    check_refused (&bad[i], FALSE);
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
  const char *needles[] = { "does not exist", "not a regular file", "not a regular file" };

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/duel/cli/run-options", test_run_options);
  g_test_add_func ("/duel/cli/preset-options", test_preset_options);
  g_test_add_func ("/duel/cli/preflight", test_preflight);
  return g_test_run ();
}
