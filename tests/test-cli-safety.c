/* test-cli-safety.c — what `driveduel-cli run` refuses, and that a refusal changes nothing
 *
 * Each refused run is given a folder of its own; every file in it (name,
 * size, modification time, made mark, SHA-256) is recorded before and after
 * the run, which must leave it exactly as it was: nothing created, removed
 * or written; where the refusal comes before the result's lock and probe,
 * the folder itself must see no file created or removed (inotify). The
 * cases: consent for a file of data, sizes and alignment against the
 * target's blocks (exit 2), and the result's path: not the target, not
 * another file without consent, an old result replaced only once the new
 * run has measured something, one run per result path. Runs the built CLI
 * ($DRIVEDUEL_CLI) in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result/duel-result.h"
#include "engine/duel-target.h"
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

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
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
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      const char *entry = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, entry, NULL);
      g_autofree char *shown = g_strconcat (prefix, entry, NULL);
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

          g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
          sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
          /* The change time too: nothing at all may have touched the file. */
          g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld %" G_GINT64_FORMAT ".%09ld %s\n",
                                  shown, (gint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                                  st.st_mtim.tv_nsec, (gint64) st.st_ctim.tv_sec, st.st_ctim.tv_nsec, sum);
        }
      else if (S_ISLNK (st.st_mode))
        {
          g_autofree char *to = g_file_read_link (path, NULL);

          g_string_append_printf (out, "%s -> %s\n", shown, to);
        }
      else
        g_string_append_printf (out, "%s mode %o\n", shown, (unsigned) st.st_mode);
    }
}

/* Every file under @dir: name, size, modification and change time, SHA-256. */
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

/* Watches @dir for any file created, removed, renamed or changed in it,
 * even one created and removed again. */
static int
watch_start (const char *dir)
{
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (inotify_add_watch (fd, dir, IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                               IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE), >=, 0);
  return fd;
}

static void
watch_assert_quiet (int fd)
{
  union { struct inotify_event event; char bytes[4096]; } buffer;
  ssize_t n = read (fd, &buffer, sizeof buffer);

  if (n > 0)
    g_error ("the folder changed: %s (mask %#x)", buffer.event.len > 0 ? buffer.event.name : ".",
             buffer.event.mask);
  close (fd);
}

static int run_refused_full (const char *dir, gboolean watch, char **err, const char *first, va_list ap);

/* Runs the CLI with the arguments up to NULL on a folder that must not
 * change, not even for a moment; returns the exit code (-1: skipped) and
 * stderr. */
static int
run_refused (const char  *dir,
             char       **err,
             const char  *first,
             ...)
{
  va_list ap;
  int code;

  va_start (ap, first);
  code = run_refused_full (dir, TRUE, err, first, ap);
  va_end (ap);
  return code;
}

/* The same for a refusal that comes after the result's lock and probe,
 * which leave nothing behind but may come and go in the folder. */
static int
run_refused_after_probe (const char  *dir,
                         char       **err,
                         const char  *first,
                         ...)
{
  va_list ap;
  int code;

  va_start (ap, first);
  code = run_refused_full (dir, FALSE, err, first, ap);
  va_end (ap);
  return code;
}

static int
run_refused_full (const char  *dir,
                  gboolean     watch,
                  char       **err,
                  const char  *first,
                  va_list      ap)
{
  g_autofree char *before = snapshot (dir);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  int watch_fd = watch ? watch_start (dir) : -1;
  int code;

  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
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
  if (watch)
    watch_assert_quiet (watch_fd);
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
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--size", "1x", target, NULL);
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&err, g_free);

  /* One block in the middle edited, the size and the modification time
   * put back as they were: the change time still tells. */
  {
    struct stat before;
    struct timespec times[2];
    int fd;

    g_assert_cmpint (stat (target, &before), ==, 0);
    fd = open (target, O_WRONLY | O_CLOEXEC);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (pwrite (fd, "user data", 9, 2 * MiB), ==, 9);
    close (fd);
    times[0] = before.st_atim;
    times[1] = before.st_mtim;
    g_assert_cmpint (utimensat (AT_FDCWD, target, times, 0), ==, 0);
    code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", target, NULL);
    g_assert_cmpint (code, ==, 1);
    g_assert_nonnull (strstr (err, "changed after Drive Duel last wrote it"));
    g_clear_pointer (&err, g_free);
  }

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
 * not left behind, an existing one not extended. (The result's lock and
 * probe come before, and are gone again.) */
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

  code = run_refused_after_probe (fixture->dir, &err, "--rw", "randwrite", "--size", "1e-9x", "--output", output,
                                  fresh, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 2);
  g_assert_nonnull (strstr (err, "smaller than one block"));
  assert_one_sentence (err);
  g_clear_pointer (&err, g_free);

  /* The same with a preset's fill: --capacity-multiple 1e-300 of 8 MiB. */
  code = run_refused_after_probe (fixture->dir, &err, "--preset", "write-saturation", "--capacity-multiple",
                                  "1e-300", "--span", "8m", "--probe", "0", "--output", output, fresh, NULL);
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
        code = run_refused_after_probe (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", "--span", "8m",
                                        cases[i][0], cases[i][1], "--output", output, existing, NULL);
        g_assert_cmpint (code, ==, 2);
        g_assert_nonnull (strstr (err, "logical block size"));
        assert_one_sentence (err);
        g_clear_pointer (&err, g_free);
      }
  }
}

/* --- the result's path ----------------------------------------------------------- */

/* The result may not be the target: by name, through a link, as a hard
 * link, as a file the run would create; for reads and writes alike. */
static void
test_output_is_target (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *target = NULL;
  g_autofree char *symbolic = NULL;
  g_autofree char *hard = NULL;
  g_autofree char *dotted = NULL;
  g_autofree char *fresh = NULL;

  if (!have_dir (fixture))
    return;
  target = g_build_filename (fixture->dir, "data.img", NULL);
  symbolic = g_build_filename (fixture->dir, "link.json", NULL);
  hard = g_build_filename (fixture->dir, "hard.json", NULL);
  dotted = g_build_filename (fixture->dir, ".", "data.img", NULL);
  fresh = g_build_filename (fixture->dir, "new.img", NULL);
  /* Small: every refusal hashes the folder twice. */
  write_data (target, 0, 1 * MiB, FALSE);
  g_assert_cmpint (symlink ("data.img", symbolic), ==, 0);
  g_assert_cmpint (link (target, hard), ==, 0);

  {
    const char *outputs[] = { target, dotted, symbolic, hard };

    for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
      for (guint writes = 0; writes < 2; writes++)
        {
          g_autofree char *err = NULL;
          int code;

          if (writes)
            code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--destructive", "--runtime", "1",
                                "-o", outputs[i], target, NULL);
          else
            code = run_refused (fixture->dir, &err, "--rw", "randread", "--runtime", "1",
                                "-o", outputs[i], target, NULL);
          if (code < 0)
            return;
          g_assert_cmpint (code, ==, 1);
          g_assert_nonnull (strstr (err, "would be written over the target"));
          assert_one_sentence (err);
        }
  }
  {
    g_autofree char *err = NULL;
    int code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--size", "1x", "--span", "4m",
                            "-o", fresh, fresh, NULL);

    g_assert_cmpint (code, ==, 1);
    g_assert_nonnull (strstr (err, "would be written over the target"));
  }
}

/* A file that is not a Drive Duel result is replaced only with
 * --overwrite-output; an empty one holds nothing. */
static void
test_output_not_a_result (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *notes = NULL;
  g_autofree char *target = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  int code;

  if (!have_dir (fixture))
    return;
  notes = g_build_filename (fixture->dir, "notes.txt", NULL);
  target = g_build_filename (fixture->dir, "scratch.img", NULL);
  g_assert_true (g_file_set_contents (notes, "my notes\n", -1, NULL));

  code = run_refused (fixture->dir, &err, "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                      "-o", notes, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "notes.txt"));
  g_assert_nonnull (strstr (err, "not a Drive Duel result"));
  g_assert_nonnull (strstr (err, "--overwrite-output"));
  assert_one_sentence (err);
  g_clear_pointer (&err, g_free);

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                  "-o", notes, "--overwrite-output", target, NULL);
  g_assert_cmpint (code, ==, 0);
  loaded = duel_result_load (notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (loaded)->len, ==, 1);
}

static void
pdeathsig_setup (gpointer data)
{
  /* Should the test abort, its runs go with it. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* `driveduel-cli run ARGS...` in the background, its output discarded. */
static GPid
spawn_cli (const char *first,
           ...)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  g_autoptr(GError) error = NULL;
  va_list ap;
  GPid pid;

  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "run");
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async (NULL, (char **) argv->pdata, envp,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                pdeathsig_setup, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

/* Waits until @path exists (or, with @other, that one), as the run
 * @pid makes it; fails if the run ends first. */
static void
wait_for_file (GPid        pid,
               const char *path,
               const char *other)
{
  /* A bound for a stuck machine only: the files come within a second. */
  for (guint i = 0; i < 12000; i++)
    {
      int status;

      if (g_file_test (path, G_FILE_TEST_EXISTS) || (other != NULL && g_file_test (other, G_FILE_TEST_EXISTS)))
        return;
      if (waitpid (pid, &status, WNOHANG) == pid)
        g_error ("the run ended (status %d) before %s appeared", status, path);
      g_usleep (10 * 1000);
    }
  g_error ("%s did not appear in 120 s", path);
}

/* Signals @pid and returns its exit status as waitpid() gives it. */
static int
stop_cli (GPid pid,
          int  signal_number)
{
  int status = 0;

  g_assert_cmpint (kill (pid, signal_number), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  return status;
}

static char *
file_sha256 (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}

/* A finished result named again as the output stays as it was while the
 * new run has measured nothing: killed then (60 s intervals, so no row
 * for a minute), the old file is intact and nothing is left beside it (the
 * new run writes nothing before its first row). A run that finishes
 * replaces it, leaving nothing beside it. */
static void
test_result_replaced_after_rows (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *staging = NULL;
  g_autofree char *old_sum = NULL;
  g_autofree char *sum = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  GPid pid;
  int code;

  if (!have_dir (fixture))
    return;
  target = g_build_filename (fixture->dir, "scratch.img", NULL);
  output = g_build_filename (fixture->dir, "r.json", NULL);
  staging = g_build_filename (fixture->dir, "r.json.new", NULL);

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                  "-o", output, target, NULL);
  if (code < 0)
    return;
  g_assert_cmpint (code, ==, 0);
  old_sum = file_sha256 (output);

  pid = spawn_cli ("--rw", "randwrite", "--runtime", "120", "--interval-ms", "60000", "--span", "4m",
                   "-o", output, target, NULL);
  /* Started: its lock is taken before anything else. */
  {
    g_autofree char *lock = g_strconcat (output, ".lock", NULL);

    wait_for_file (pid, lock, NULL);
  }
  g_usleep (1500 * 1000);   /* "even if it dies 1.5 s later" */
  g_assert_true (WIFSIGNALED (stop_cli (pid, SIGKILL)));
  g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));

  sum = file_sha256 (output);
  g_assert_cmpstr (sum, ==, old_sum);
  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  g_clear_object (&loaded);

  /* Finished, it replaces the old one; nothing is left beside it. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                  "-o", output, target, NULL);
  g_assert_cmpint (code, ==, 0);
  g_clear_pointer (&sum, g_free);
  sum = file_sha256 (output);
  g_assert_cmpstr (sum, !=, old_sum);
  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  g_assert_cmpint (((DuelTestRecord *) g_ptr_array_index (duel_result_get_tests (loaded), 0))->status,
                   ==, DUEL_TEST_STATUS_COMPLETE);
  {
    g_autofree char *journal = g_strconcat (output, ".journal", NULL);
    g_autofree char *lock = g_strconcat (output, ".lock", NULL);
    g_autofree char *staging_journal = g_strconcat (staging, ".journal", NULL);

    g_assert_false (g_file_test (staging, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (staging_journal, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (lock, G_FILE_TEST_EXISTS));
  }
}

/* Two runs never share a result path: while one writes r.json, a second
 * is refused before it touches its own target. A run killed with SIGKILL
 * leaves no lock that refuses the next. */
static void
test_one_run_per_output (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *first = NULL;
  g_autofree char *second_dir = NULL;
  g_autofree char *second = NULL;
  g_autofree char *output = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  GPid pid;
  int code, status;

  if (!have_dir (fixture))
    return;
  first = g_build_filename (fixture->dir, "first.img", NULL);
  second_dir = g_build_filename (fixture->dir, "second", NULL);
  second = g_build_filename (second_dir, "second.img", NULL);
  output = g_build_filename (fixture->dir, "r.json", NULL);
  g_assert_cmpint (g_mkdir (second_dir, 0755), ==, 0);
  if (g_getenv ("DRIVEDUEL_CLI") == NULL)
    {
      g_test_skip ("DRIVEDUEL_CLI is not set (run through meson test)");
      return;
    }

  pid = spawn_cli ("--rw", "randwrite", "--runtime", "120", "--interval-ms", "60000", "--span", "4m",
                   "-o", output, first, NULL);
  wait_for_file (pid, output, NULL);

  code = run_refused (second_dir, &err, "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                      "-o", output, second, NULL);
  g_assert_cmpint (code, ==, 1);
  g_assert_nonnull (strstr (err, "Another run is writing its result"));
  assert_one_sentence (err);
  g_clear_pointer (&err, g_free);

  /* The first run, stopped, keeps its result. */
  status = stop_cli (pid, SIGTERM);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (duel_result_get_target (loaded)->path, "first.img"));

  /* Killed with SIGKILL, a run's lock goes with it. */
  pid = spawn_cli ("--rw", "randwrite", "--runtime", "120", "--interval-ms", "60000", "--span", "4m",
                   "-o", output, first, NULL);
  {
    g_autofree char *lock = g_strconcat (output, ".lock", NULL);

    wait_for_file (pid, lock, NULL);
  }
  g_assert_true (WIFSIGNALED (stop_cli (pid, SIGKILL)));
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                  "-o", output, second, NULL);
  g_test_message ("after SIGKILL: exit %d: %s", code, err);
  g_assert_cmpint (code, ==, 0);
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
  g_test_add ("/duel/cli-safety/output-is-target", Fixture, NULL,
              fixture_setup, test_output_is_target, fixture_teardown);
  g_test_add ("/duel/cli-safety/output-not-a-result", Fixture, NULL,
              fixture_setup, test_output_not_a_result, fixture_teardown);
  g_test_add ("/duel/cli-safety/result-replaced-after-rows", Fixture, NULL,
              fixture_setup, test_result_replaced_after_rows, fixture_teardown);
  g_test_add ("/duel/cli-safety/one-run-per-output", Fixture, NULL,
              fixture_setup, test_one_run_per_output, fixture_teardown);

  return g_test_run ();
}
