/* test-cli-writers.c — every writer of driveduel-cli against a hostile folder
 *
 * Each command that writes a file (run -o, run --preset -o, import -o,
 * report and compare --output-dir) meets planted symbolic links (to a
 * precious file outside the folder), hard links to it, files of the user's
 * at every name it writes or writes beside, and names that look like its
 * own (RESULT.backup, RESULT.new, a temporary file's pattern). After each
 * command, every file in the folder and outside it is compared with what
 * it was: no byte may change anywhere but at the names the command was
 * asked to write, and a refusal is one sentence with exit code 1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result/duel-result.h"
#include "test-cli.h"
#include "test-dir.h"

#define MiB (1024 * 1024)

typedef struct
{
  char *dir;        /* everything the test makes */
  char *out;        /* where the commands write */
  char *precious;   /* files no command may change */
  char *secret;     /* precious/secret.txt, 0600 */
  char *old_result; /* precious/old.json, a Drive Duel result */
  char *target;     /* a file target for runs */
} Fixture;

/* A finished result of @n_rows one-second rows. */
static void
make_result (const char *path,
             guint       n_rows,
             const char *name)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GError) error = NULL;
  DuelTargetInfo info = { (char *) "/dev/made-up", DUEL_TARGET_KIND_BLOCK, 1024 * MiB, 512, 4096 };
  DuelWorkload workload;
  DuelTestRecord *record;

  duel_workload_init (&workload);
  g_assert_true (duel_workload_set_rw_name (&workload, "randwrite", NULL));
  duel_result_set_target (result, &info);
  duel_result_set_name (result, name);
  record = duel_test_record_new ("randwrite", &workload);
  for (guint i = 0; i < n_rows; i++)
    {
      DuelSeriesRow row = { 0 };

      row.t_ms = (guint64) (i + 1) * 1000;
      row.ops[DUEL_DIRECTION_WRITE] = 1000;
      row.bytes[DUEL_DIRECTION_WRITE] = 1000 * 4096;
      row.temperature_c = NAN;
      duel_series_append (record->series, &row);
      for (guint k = 0; k < 10; k++)
        duel_histogram_add (record->latency[DUEL_DIRECTION_WRITE], 100000 + k * 1000);
    }
  record->runtime_ns = (guint64) n_rows * 1000000000;
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_result_add_test (result, record);
  duel_test_record_unref (record);
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
}

/* A kernel setting (a file in /proc/sys, written in place). */
static gboolean
write_setting (const char *path,
               const char *value)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, value, strlen (value)) == (ssize_t) strlen (value);
  close (fd);
  return ok;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = test_dir_make_direct_io ("duel-cli-writers");
  if (fixture->dir == NULL)
    return;
  fixture->out = g_build_filename (fixture->dir, "out", NULL);
  fixture->precious = g_build_filename (fixture->dir, "precious", NULL);
  fixture->secret = g_build_filename (fixture->precious, "secret.txt", NULL);
  fixture->old_result = g_build_filename (fixture->precious, "old.json", NULL);
  fixture->target = g_build_filename (fixture->dir, "target.img", NULL);
  g_assert_cmpint (g_mkdir (fixture->out, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->precious, 0700), ==, 0);
  g_assert_true (g_file_set_contents_full (fixture->secret, "root's secret\n", -1,
                                           G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  make_result (fixture->old_result, 5, "Old drive");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->dir != NULL)
    test_dir_remove (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->out);
  g_free (fixture->precious);
  g_free (fixture->secret);
  g_free (fixture->old_result);
  g_free (fixture->target);
}

static gboolean
ready (Fixture *fixture)
{
  if (fixture->dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return FALSE;
    }
  if (g_getenv ("DRIVEDUEL_CLI") == NULL)
    {
      g_test_skip ("DRIVEDUEL_CLI is not set (run through meson test)");
      return FALSE;
    }
  return TRUE;
}

/* ---- what is on disk ----------------------------------------------------------- */

static void
snapshot_into (GHashTable *files,
               const char *dir,
               const char *prefix)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *shown = g_strconcat (prefix, name, NULL);
      struct stat st;

      g_assert_cmpint (lstat (path, &st), ==, 0);
      if (S_ISDIR (st.st_mode))
        {
          g_autofree char *sub = g_strconcat (shown, "/", NULL);

          g_hash_table_insert (files, g_strdup (shown), g_strdup ("folder"));
          snapshot_into (files, path, sub);
        }
      else if (S_ISLNK (st.st_mode))
        {
          g_autofree char *to = g_file_read_link (path, NULL);

          g_hash_table_insert (files, g_strdup (shown), g_strdup_printf ("link to %s", to));
        }
      else if (S_ISREG (st.st_mode))
        {
          g_autofree char *contents = NULL;
          g_autofree char *sum = NULL;
          gsize length = 0;

          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
          g_hash_table_insert (files, g_strdup (shown),
                               g_strdup_printf ("file %" G_GSIZE_FORMAT " %s mode %o", length, sum,
                                                (unsigned) (st.st_mode & 07777)));
        }
      else
        g_hash_table_insert (files, g_strdup (shown), g_strdup_printf ("mode %o", (unsigned) st.st_mode));
    }
}

/* Every file under the test's folder: its kind, its bytes, its mode. */
static GHashTable *
snapshot (Fixture *fixture)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  snapshot_into (files, fixture->dir, "");
  return files;
}

/* Whether @path (relative to the test's folder) is one the command was
 * asked to write: a name in @allowed, or under a folder ending in "/". */
static gboolean
allowed (const char         *path,
         const char * const *allowed_paths)
{
  for (guint i = 0; allowed_paths != NULL && allowed_paths[i] != NULL; i++)
    if (g_str_equal (path, allowed_paths[i]) ||
        (g_str_has_suffix (allowed_paths[i], "/") && g_str_has_prefix (path, allowed_paths[i])))
      return TRUE;
  return FALSE;
}

/* Nothing changed between @before and now but the @allowed paths (NULL:
 * nothing at all). */
static void
assert_unchanged_but (Fixture            *fixture,
                      GHashTable         *before,
                      const char * const *allowed_paths)
{
  g_autoptr(GHashTable) after = snapshot (fixture);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *now = g_hash_table_lookup (after, key);

      if (allowed (key, allowed_paths))
        continue;
      if (now == NULL)
        g_error ("%s was removed (it was: %s)", (char *) key, (char *) value);
      if (!g_str_equal (now, value))
        g_error ("%s changed: %s, was %s", (char *) key, now, (char *) value);
    }
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!allowed (key, allowed_paths) && !g_hash_table_contains (before, key))
      g_error ("%s appeared: %s", (char *) key, (char *) value);
}

/* Stderr is one line: "driveduel-cli: " and one sentence (or two short
 * ones), and it contains @needle. */
static void
assert_refusal (int         code,
                const char *err,
                const char *needle)
{
  g_test_message ("refused (%d): %s", code, err);
  g_assert_cmpint (code, ==, 1);
  g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
  g_assert_nonnull (strstr (err, needle));
}

static char *
out_path (Fixture    *fixture,
          const char *name)
{
  return g_build_filename (fixture->out, name, NULL);
}

static void
plant_symlink (const char *to,
               const char *at)
{
  g_assert_cmpint (symlink (to, at), ==, 0);
}

static void
plant_hard_link (const char *to,
                 const char *at)
{
  g_assert_cmpint (link (to, at), ==, 0);
}

static void
plant_file (const char *at,
            const char *contents)
{
  g_assert_true (g_file_set_contents (at, contents, -1, NULL));
}

/* A plain run of a few rows on the test's target, into -o @output. */
static int
run_into (Fixture     *fixture,
          const char  *output,
          char       **err,
          const char  *extra)
{
  g_autofree char *out = NULL;

  return run_cli (&out, err, "run", "--rw", "randwrite", "--size", "1x", "--span", "4m",
                  "--interval-ms", "100", "-o", output, fixture->target, extra, NULL);
}

/* Whether @path holds a result of a run on the test's target (not the
 * planted "Old drive"). */
static gboolean
duel_made_up_is_new_result (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = duel_result_load (path, &error);

  g_assert_no_error (error);
  return g_str_has_suffix (duel_result_get_target (result)->path, "target.img");
}

/* ---- run -o ------------------------------------------------------------------------ */

/* A link, a hard link to something that is not a result, or a user's file
 * at the result's name, its journal's or its lock's: refused, nothing
 * changed. The target is made first, so that a refusal writes nothing. */
static void
test_run_refuses (Fixture       *fixture,
                  gconstpointer  data)
{
  static const char *const names[] = { "r.json", "r.json.journal", "r.json.lock" };
  g_autofree char *output = NULL;

  if (!ready (fixture))
    return;
  output = out_path (fixture, "r.json");
  {
    g_autofree char *err = NULL;
    g_autofree char *first = out_path (fixture, "first.json");

    g_assert_cmpint (run_into (fixture, first, &err, NULL), ==, 0);
    g_assert_cmpint (g_unlink (first), ==, 0);
  }

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    for (guint kind = 0; kind < 4; kind++)
      {
        g_autoptr(GHashTable) before = NULL;
        g_autofree char *at = out_path (fixture, names[n]);
        g_autofree char *err = NULL;
        const char *needle;
        int code;

        switch (kind)
          {
          case 0:
            plant_symlink (fixture->secret, at);
            needle = "symbolic link";
            break;
          case 1:
            /* A result behind the link: still not written through it. */
            plant_symlink (fixture->old_result, at);
            needle = "symbolic link";
            break;
          case 2:
            plant_hard_link (fixture->secret, at);
            needle = "exists";
            break;
          default:
            plant_file (at, "the user's notes\n");
            needle = "exists";
            break;
          }
        g_test_message ("%s planted at %s", kind == 0 || kind == 1 ? "a symbolic link" : kind == 2 ? "a hard link" : "a file",
                        names[n]);
        before = snapshot (fixture);
        code = run_into (fixture, output, &err, NULL);
        assert_refusal (code, err, needle);
        assert_unchanged_but (fixture, before, NULL);
        g_assert_cmpint (g_unlink (at), ==, 0);
      }
}

/* A hard link to a result at the result's name is replaced by a rename:
 * the name gets the new result, the other name keeps every byte. */
static void
test_run_hard_link_to_result (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GHashTable) before = NULL;
  g_autofree char *output = NULL;
  g_autofree char *err = NULL;
  const char *written[] = { "out/r.json", "out/r.json.new", "out/r.json.new.journal", "target.img", NULL };

  if (!ready (fixture))
    return;
  output = out_path (fixture, "r.json");
  plant_hard_link (fixture->old_result, output);
  before = snapshot (fixture);
  g_assert_cmpint (run_into (fixture, output, &err, NULL), ==, 0);
  assert_unchanged_but (fixture, before, written);
  g_assert_true (duel_made_up_is_new_result (output));
}

/* Names that look like the run's own, beside its result: a copy of a result
 * called r.json.backup, an empty r.json.BACKUP, r.json.new and its journal
 * holding the user's text, the pattern of an old temporary file and of
 * Drive Duel's own: a run on r.json, then another over it, changes none. */
static void
test_run_leaves_lookalikes (Fixture       *fixture,
                            gconstpointer  data)
{
  static const char *const lookalikes[] = {
    "r.json.backup", "r.json.BACKUP", "r.json.2024v1", "r.json.new", "r.json.new.journal",
    ".r.json.HOXZZ3", ".r.json.abcdefghij012345.driveduel-tmp", "r.json.preflight-1",
  };
  g_autoptr(GHashTable) before = NULL;
  g_autofree char *output = NULL;
  const char *written[] = { "out/r.json", "target.img", "out/r.json.new-2", "out/r.json.new-2.journal", NULL };

  if (!ready (fixture))
    return;
  output = out_path (fixture, "r.json");
  for (guint i = 0; i < G_N_ELEMENTS (lookalikes); i++)
    {
      g_autofree char *at = out_path (fixture, lookalikes[i]);

      if (i == 1)
        plant_file (at, "");
      else if (i == 0 || i == 2 || i == 5)
        g_assert_true (g_file_set_contents (at, "{\"format\": \"driveduel-result\", \"the user's copy\": 1}\n",
                                            -1, NULL));
      else
        plant_file (at, "the user's own file\n");
    }
  before = snapshot (fixture);
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *err = NULL;

      g_assert_cmpint (run_into (fixture, output, &err, NULL), ==, 0);
    }
  assert_unchanged_but (fixture, before, written);
  g_assert_false (g_file_test (output, G_FILE_TEST_IS_SYMLINK));
}

/* A run stopped early never replaces a finished result with more rows:
 * that one stays, byte for byte, and the stopped run is kept beside it. */
static void
test_run_stopped_keeps_finished (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *staging_journal = NULL;
  g_autofree char *err = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  const char *name;
  int err_fd = -1, status = 0;
  GPid pid;

  if (!ready (fixture))
    return;
  output = out_path (fixture, "r.json");
  staging_journal = out_path (fixture, "r.json.new.journal");
  {
    g_autofree char *first = out_path (fixture, "first.json");

    g_assert_cmpint (run_into (fixture, first, &err, NULL), ==, 0);
    g_assert_cmpint (g_unlink (first), ==, 0);
    g_clear_pointer (&err, g_free);
  }
  /* 10,000 rows: no run stopped at its first rows comes near. */
  make_result (output, 10000, "Finished drive");
  before = snapshot (fixture);

  {
    const char *argv[] = { cli, "run", "--rw", "randwrite", "--runtime", "600", "--interval-ms", "100",
                           "--span", "4m", "-o", output, fixture->target, NULL };
    g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);

    g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, envp,
                                             G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                             NULL, NULL, &pid, NULL, NULL, &err_fd, &error));
    g_assert_no_error (error);
  }
  /* Stopped once its own journal holds a row (a line "row …"). */
  for (guint i = 0; i < 60000; i++)
    {
      g_autofree char *journal = NULL;

      if (g_file_get_contents (staging_journal, &journal, NULL, NULL) && strstr (journal, "\nrow ") != NULL)
        break;
      g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);
      g_usleep (10 * 1000);
    }
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  {
    g_autoptr(GIOChannel) channel = g_io_channel_unix_new (err_fd);

    g_io_channel_set_close_on_unref (channel, TRUE);
    g_io_channel_read_to_end (channel, &err, NULL, NULL);
  }
  g_test_message ("stderr: %s", err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "holds a finished run with more rows"));

  dir = g_dir_open (fixture->out, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "r.stopped-") && g_str_has_suffix (name, ".json"))
      kept = g_strdup_printf ("out/%s", name);
  g_assert_nonnull (kept);
  {
    const char *written[] = { "target.img", kept, NULL };
    g_autofree char *path = g_build_filename (fixture->dir, kept, NULL);
    g_autoptr(DuelResult) stopped = duel_result_load (path, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (duel_result_get_tests (stopped), 0))->series),
                      >, 0);
    assert_unchanged_but (fixture, before, written);
  }
}

/* ---- import -o ----------------------------------------------------------------------- */

static void
test_import (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *fio = NULL;
  g_autofree char *input = NULL;
  g_autofree char *notes = NULL;
  g_autofree char *output = NULL;
  g_autofree char *link_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GHashTable) before = NULL;
  int code;

  if (!ready (fixture))
    return;
  fio = g_test_build_filename (G_TEST_DIST, "data", "fio", "randread-clat.json", NULL);
  input = out_path (fixture, "fio.json");
  notes = out_path (fixture, "notes.txt");
  output = out_path (fixture, "r.json");
  link_path = out_path (fixture, "hard.json");
  {
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (fio, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (input, contents, (gssize) length, NULL));
  }
  plant_file (notes, "my notes\n");
  plant_hard_link (input, link_path);
  before = snapshot (fixture);

  /* Onto what it reads: by name, through a hard link, even when told to overwrite. */
  code = run_cli (&out, &err, "import", input, "-o", input, "--overwrite-output", NULL);
  assert_refusal (code, err, "is the file being imported");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  code = run_cli (&out, &err, "import", input, "-o", link_path, "--overwrite-output", NULL);
  assert_refusal (code, err, "is the file being imported");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  /* A user's file, a link, a folder. */
  code = run_cli (&out, &err, "import", input, "-o", notes, NULL);
  assert_refusal (code, err, "--overwrite-output");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  {
    g_autofree char *link_to_secret = out_path (fixture, "link.json");

    plant_symlink (fixture->secret, link_to_secret);
    g_hash_table_insert (before, g_strdup ("out/link.json"), g_strdup_printf ("link to %s", fixture->secret));
    code = run_cli (&out, &err, "import", input, "-o", link_to_secret, "--overwrite-output", NULL);
    assert_refusal (code, err, "symbolic link");
    g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  }
  code = run_cli (&out, &err, "import", input, "-o", fixture->out, NULL);
  assert_refusal (code, err, "folder");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  assert_unchanged_but (fixture, before, NULL);

  /* An empty name is a bad option. */
  code = run_cli (&out, &err, "import", input, "-o", "", NULL);
  g_assert_cmpint (code, ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);

  /* Told to, it replaces the notes; a new name is written; nothing else. */
  code = run_cli (&out, &err, "import", input, "-o", notes, "--overwrite-output", NULL);
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  code = run_cli (&out, &err, "import", input, "-o", output, NULL);
  g_assert_cmpint (code, ==, 0);
  {
    const char *written[] = { "out/notes.txt", "out/r.json", NULL };

    assert_unchanged_but (fixture, before, written);
  }
}

/* ---- report and compare --output-dir ------------------------------------------------- */

static int
export_into (Fixture     *fixture,
             const char  *command,
             char       **err,
             const char  *extra)
{
  g_autofree char *reference = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                      "intel-ssd-750-400gb.json", NULL);
  g_autofree char *other = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                  "plextor-m8peg-512gb.json", NULL);
  g_autofree char *out = NULL;

  if (g_str_equal (command, "report"))
    return run_cli (&out, err, "report", reference, "--output-dir", fixture->out, "--format", "png,pdf,csv,md",
                    extra, NULL);
  return run_cli (&out, err, "compare", reference, other, "--output-dir", fixture->out, "--format", "svg,pdf,md,fio",
                  extra, NULL);
}

/* A link or a user's file at any name an export writes: refused before the
 * first file is written; its own files written again need no consent,
 * unless changed since; told to, it replaces a user's file by a rename
 * (a hard link's other name keeps its bytes). */
static void
test_exports (Fixture       *fixture,
              gconstpointer  data)
{
  static const char *const commands[] = { "report", "compare" };

  if (!ready (fixture))
    return;
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_autoptr(GHashTable) before = NULL;
      g_autofree char *pdf = out_path (fixture, "report.pdf");
      g_autofree char *md = out_path (fixture, "summary.md");
      g_autofree char *err = NULL;
      const char *everything[] = { "out/", NULL };
      int code;

      test_dir_remove (fixture->out);
      g_assert_cmpint (g_mkdir (fixture->out, 0755), ==, 0);

      /* A planted link: nothing at all is written. */
      plant_symlink (fixture->secret, pdf);
      before = snapshot (fixture);
      code = export_into (fixture, commands[c], &err, NULL);
      assert_refusal (code, err, "symbolic link");
      assert_unchanged_but (fixture, before, NULL);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (g_unlink (pdf), ==, 0);

      /* A hard link to the secret and a user's summary: named, nothing written. */
      plant_hard_link (fixture->secret, pdf);
      plant_file (md, "my article\n");
      g_clear_pointer (&before, g_hash_table_unref);
      before = snapshot (fixture);
      code = export_into (fixture, commands[c], &err, NULL);
      assert_refusal (code, err, "2 files in");
      g_assert_nonnull (strstr (err, "report.pdf"));
      g_assert_nonnull (strstr (err, "summary.md"));
      g_assert_nonnull (strstr (err, "--overwrite-output"));
      assert_unchanged_but (fixture, before, NULL);
      g_clear_pointer (&err, g_free);

      /* Told to: replaced by renames; the secret keeps its bytes. */
      code = export_into (fixture, commands[c], &err, "--overwrite-output");
      g_assert_cmpint (code, ==, 0);
      assert_unchanged_but (fixture, before, everything);
      g_clear_pointer (&err, g_free);

      /* Its own files, again: no consent needed. */
      g_clear_pointer (&before, g_hash_table_unref);
      before = snapshot (fixture);
      code = export_into (fixture, commands[c], &err, NULL);
      g_assert_cmpint (code, ==, 0);
      assert_unchanged_but (fixture, before, everything);
      g_clear_pointer (&err, g_free);

      /* One of them edited, its modification time put back: not its own any more. */
      {
        struct stat st;
        struct timespec times[2];
        int fd;

        g_assert_cmpint (stat (md, &st), ==, 0);
        fd = open (md, O_WRONLY | O_CLOEXEC);
        g_assert_cmpint (pwrite (fd, "#", 1, 0), ==, 1);
        close (fd);
        times[0] = st.st_atim;
        times[1] = st.st_mtim;
        g_assert_cmpint (utimensat (AT_FDCWD, md, times, 0), ==, 0);
      }
      g_clear_pointer (&before, g_hash_table_unref);
      before = snapshot (fixture);
      code = export_into (fixture, commands[c], &err, NULL);
      assert_refusal (code, err, "summary.md");
      assert_unchanged_but (fixture, before, NULL);
    }
}

/* The output folder is a link another user planted in a sticky folder
 * (/tmp's kind): the kernel's protected_symlinks refuses to follow it for
 * root, and Drive Duel opens its folders through the kernel. The result
 * file named through such a link is never followed at all. Run in a child
 * process, so that the setting is put back even when it fails. */
static void
test_planted_folder_link_child (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *sticky = NULL;
  g_autofree char *link_path = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GHashTable) before = NULL;
  int code;

  if (!g_test_subprocess ())
    {
      g_test_skip ("run by /duel/cli-writers/planted-folder-link");
      return;
    }
  if (!ready (fixture))
    return;
  sticky = g_build_filename (fixture->dir, "sticky", NULL);
  link_path = g_build_filename (sticky, "exports", NULL);
  g_assert_cmpint (g_mkdir (sticky, 01777), ==, 0);
  g_assert_cmpint (chmod (sticky, 01777), ==, 0);
  plant_symlink (fixture->precious, link_path);
  g_assert_cmpint (lchown (link_path, 65534, 65534), ==, 0);
  reference = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", "intel-ssd-750-400gb.json", NULL);
  before = snapshot (fixture);
  code = run_cli (&out, &err, "report", reference, "--output-dir", link_path, "--format", "md", NULL);
  assert_refusal (code, err, "Permission denied");
  assert_unchanged_but (fixture, before, NULL);
  g_clear_pointer (&err, g_free);

  {
    g_autofree char *result_link = g_build_filename (sticky, "r.json", NULL);

    plant_symlink (fixture->old_result, result_link);
    g_assert_cmpint (lchown (result_link, 65534, 65534), ==, 0);
    g_clear_pointer (&before, g_hash_table_unref);
    before = snapshot (fixture);
    code = run_into (fixture, result_link, &err, NULL);
    assert_refusal (code, err, "symbolic link");
    assert_unchanged_but (fixture, before, NULL);
  }
}

static void
test_planted_folder_link (void)
{
  g_autofree char *setting = NULL;
  gboolean changed = FALSE;

  if (geteuid () != 0)
    {
      g_test_skip ("needs root (a link owned by another user)");
      return;
    }
  if (!g_file_get_contents ("/proc/sys/fs/protected_symlinks", &setting, NULL, NULL))
    {
      g_test_skip ("no fs.protected_symlinks here");
      return;
    }
  /* On where it is off (its default is on in most distributions), for
   * this test only. */
  if (setting[0] != '1')
    {
      if (!write_setting ("/proc/sys/fs/protected_symlinks", "1\n"))
        {
          g_test_skip ("fs.protected_symlinks is off here and cannot be turned on");
          return;
        }
      changed = TRUE;
    }
  g_test_trap_subprocess ("/duel/cli-writers/subprocess/planted-folder-link", 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  if (changed)
    write_setting ("/proc/sys/fs/protected_symlinks", setting);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/cli-writers/run-refuses", Fixture, NULL,
              fixture_setup, test_run_refuses, fixture_teardown);
  g_test_add ("/duel/cli-writers/run-hard-link-to-result", Fixture, NULL,
              fixture_setup, test_run_hard_link_to_result, fixture_teardown);
  g_test_add ("/duel/cli-writers/run-leaves-lookalikes", Fixture, NULL,
              fixture_setup, test_run_leaves_lookalikes, fixture_teardown);
  g_test_add ("/duel/cli-writers/run-stopped-keeps-finished", Fixture, NULL,
              fixture_setup, test_run_stopped_keeps_finished, fixture_teardown);
  g_test_add ("/duel/cli-writers/import", Fixture, NULL,
              fixture_setup, test_import, fixture_teardown);
  g_test_add ("/duel/cli-writers/exports", Fixture, NULL,
              fixture_setup, test_exports, fixture_teardown);
  g_test_add_func ("/duel/cli-writers/planted-folder-link", test_planted_folder_link);
  g_test_add ("/duel/cli-writers/subprocess/planted-folder-link", Fixture, NULL,
              fixture_setup, test_planted_folder_link_child, fixture_teardown);

  return g_test_run ();
}
