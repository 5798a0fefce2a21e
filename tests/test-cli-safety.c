/* test-cli-safety.c — what `driveduel-cli run` refuses, and that a refusal changes nothing
 *
 * Each refused run is given a folder of its own; every file in it (name,
 * size, modification time, made mark, SHA-256) is recorded before and after
 * the run, which must leave it exactly as it was: nothing created, removed
 * or written. The cases: consent for a file of data, and sizes and
 * alignment against the target's blocks (exit 2). Runs the built CLI
 * ($DRIVEDUEL_CLI) in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "duel-target.h"
#include "test-cli.h"
#include "test-dir.h"

#define MiB (1024 * 1024)

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = test_dir_make_direct_io ("duel-cli-safety");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->dir != NULL)
    test_dir_remove (fixture->dir);
  g_free (fixture->dir);
}

static gboolean
have_dir (Fixture *fixture)
{
  if (fixture->dir == NULL)
    g_test_skip ("no folder here supports direct I/O");
  return fixture->dir != NULL;
}

static void
snapshot_into (GString    *out,
               const char *dir,
               const char *prefix)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      const char *entry = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, entry, NULL);
      g_autofree char *shown = g_strconcat (prefix, entry, NULL);
      char mark[256] = "";
      struct stat st;

      g_assert_cmpint (lstat (path, &st), ==, 0);
      if (S_ISDIR (st.st_mode))
        {
          g_autofree char *sub = g_strconcat (shown, "/", NULL);

          g_string_append_printf (out, "%s/\n", shown);
          snapshot_into (out, path, sub);
          continue;
        }
      if (S_ISREG (st.st_mode))
        {
          g_autofree char *contents = NULL;
          g_autofree char *sum = NULL;
          gsize length = 0;
          ssize_t n = getxattr (path, DUEL_TARGET_MADE_XATTR, mark, sizeof mark - 1);

          mark[MAX (n, 0)] = '\0';
          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
          g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld [%s] %s\n",
                                  shown, (gint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                                  st.st_mtim.tv_nsec, mark, sum);
        }
      else
        g_string_append_printf (out, "%s mode %o\n", shown, (unsigned) st.st_mode);
    }
}

/* Every file under @dir: name, size, modification time, made mark, SHA-256. */
static char *
snapshot (const char *dir)
{
  GString *out = g_string_new (NULL);

  snapshot_into (out, dir, "");
  return g_string_free (out, FALSE);
}

/* @length bytes of a pattern that no run writes and no signature matches. */
static void
write_data (const char *path,
            gsize       offset,
            gsize       length,
            gboolean    in_place)
{
  g_autofree guint8 *data = g_malloc (length);
  int fd;

  for (gsize i = 0; i < length; i++)
    data[i] = (guint8) (i * 131 + i / 4096 + 7);
  fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC | (in_place ? 0 : O_TRUNC), 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, data, length, offset), ==, (gssize) length);
  close (fd);
}

/* Runs the CLI with the arguments up to NULL on a folder that must not
 * change; returns the exit code (-1: skipped) and stderr. */
static int
run_refused (const char  *dir,
             char       **err,
             const char  *first,
             ...)
{
  g_autofree char *before = snapshot (dir);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;
  int code;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  while (args->len < 16)
    g_ptr_array_add (args, NULL);

  code = run_cli (&out, err, "run",
                  args->pdata[0], args->pdata[1], args->pdata[2], args->pdata[3], args->pdata[4],
                  args->pdata[5], args->pdata[6], args->pdata[7], args->pdata[8], args->pdata[9],
                  args->pdata[10], args->pdata[11], args->pdata[12], args->pdata[13], args->pdata[14],
                  NULL);
  if (code < 0)
    return code;
  g_test_message ("exit %d: %s", code, *err);
  after = snapshot (dir);
  g_assert_cmpstr (after, ==, before);
  return code;
}

/* --- consent ---------------------------------------------------------------- */

/* --wipe-signatures is consent to overwrite a signature, in addition to
 * --destructive; alone it lets no data file be written. */
static void
test_wipe_signatures_alone (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *target = NULL;
  g_autofree char *err = NULL;
  int code;

  if (!have_dir (fixture))
    return;
  target = g_build_filename (fixture->dir, "data.img", NULL);
  write_data (target, 0, 8 * MiB, FALSE);

  code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", "--wipe-signatures",
                      target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "did not write"));
  g_assert_nonnull (strstr (err, "--destructive"));
}

/* A file Drive Duel made and wrote is written again without asking, until
 * something else writes to it in place (its made mark stays): then it
 * holds data Drive Duel did not write, and --destructive is asked for. */
static void
test_made_then_filled (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *target = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code;

  if (!have_dir (fixture))
    return;
  target = g_build_filename (fixture->dir, "made.img", NULL);

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--size", "1x", "--span", "4m", target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  if (getxattr (target, DUEL_TARGET_MADE_XATTR, NULL, 0) <= 0)
    {
      g_test_skip ("this filesystem keeps no user attributes");
      return;
    }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--size", "1x", target, NULL);
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&err, g_free);

  write_data (target, 0, 4 * MiB, TRUE);
  code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", target, NULL);
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "changed after Drive Duel last wrote it"));
  g_assert_nonnull (strstr (err, "--destructive"));
}

/* --- sizes and alignment against the target ------------------------------------ */

/* Stderr is one line: "driveduel-cli: " and one sentence. */
static void
assert_one_sentence (const char *err)
{
  g_assert_true (g_str_has_prefix (err, "driveduel-cli: "));
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
}

/* What only the target can tell is checked once it is open, before anything
 * is written to it: a limit that rounds to less than a block of its span
 * (which meant no limit: an endless destructive run), a block size or an
 * offset its blocks do not divide. Exit 2, one sentence; a new target is
 * not left behind, an existing one not extended. */
static void
test_fit_before_write (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *fresh = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *output = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  struct stat st;
  int code;

  if (!have_dir (fixture))
    return;
  fresh = g_build_filename (fixture->dir, "new.img", NULL);
  existing = g_build_filename (fixture->dir, "scratch.img", NULL);
  output = g_build_filename (fixture->dir, "r.json", NULL);

  code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--size", "1e-9x", "--output", output,
                      fresh, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 2);
  g_assert_nonnull (strstr (err, "smaller than one block"));
  assert_one_sentence (err);
  g_clear_pointer (&err, g_free);

  /* The same with a preset's fill: --capacity-multiple 1e-300 of 8 MiB. */
  code = run_refused (fixture->dir, &err, "--preset", "write-saturation", "--capacity-multiple", "1e-300",
                      "--span", "8m", "--probe", "0", "--output", output, fresh, NULL);
  g_assert_cmpint (code, ==, 2);
  g_assert_nonnull (strstr (err, "smaller than one block"));
  assert_one_sentence (err);
  g_clear_pointer (&err, g_free);

  /* A file of Drive Duel's, 4 MiB: against its blocks (the filesystem's,
   * 4 KiB on ext4), 512-byte blocks and offsets do not fit. */
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--size", "1x", "--span", "4m", existing, NULL);
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (stat (existing, &st), ==, 0);
  if (st.st_blksize <= 512)
    {
      g_test_message ("this filesystem's blocks are 512 bytes: no misaligned case");
      return;
    }
  {
    const char *cases[][2] = { { "--bs", "512" }, { "--offset", "512" } };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        /* --span 8m: the file would be extended first, were the check after. */
        code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", "--span", "8m",
                            cases[i][0], cases[i][1], "--output", output, existing, NULL);
        g_assert_cmpint (code, ==, 2);
        g_assert_nonnull (strstr (err, "logical block size"));
        assert_one_sentence (err);
        g_clear_pointer (&err, g_free);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/cli-safety/wipe-signatures-alone", Fixture, NULL,
              fixture_setup, test_wipe_signatures_alone, fixture_teardown);
  g_test_add ("/duel/cli-safety/made-then-filled", Fixture, NULL,
              fixture_setup, test_made_then_filled, fixture_teardown);

  g_test_add ("/duel/cli-safety/fit-before-write", Fixture, NULL,
              fixture_setup, test_fit_before_write, fixture_teardown);

  return g_test_run ();
}
