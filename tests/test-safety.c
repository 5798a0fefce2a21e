/* test-safety.c — real refusals of destructive runs, on loop devices
 *
 * Each case sets a loop device up in this process (root only; otherwise it
 * skips), runs its checks in a subprocess, and tears the device down
 * whatever the subprocess did. The result file on a filesystem that lives
 * on the target is refused too. The checks call duel_safety_check_write()
 * and `driveduel-cli run --destructive --rw randwrite`, and compare the
 * device's sha256 before and after: a refusal must not have written a byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "device/duel-device.h"
#include "duel-error.h"
#include "duel-made-files.h"
#include "device/duel-safety.h"
#include "engine/duel-target.h"
#include "test-device-helpers.h"

#define MiB (1024 * 1024)

typedef enum
{
  SETUP_CLEAN,
  SETUP_EXT4,
  SETUP_EXT4_MOUNTED,
  SETUP_EXT4_MOUNTED_RW,
  SETUP_PARTITION_MOUNTED_RW,
  SETUP_SWAP,
} Setup;

typedef struct
{
  char *dir;
  char *backing;
  char *device;
  char *mount_dir;
  gboolean mounted;
  gboolean swap;
} LoopFixture;

static gboolean
can_use_loops (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("needs root for loop devices");
      return FALSE;
    }
  if (!g_file_test ("/dev/loop-control", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/loop-control");
      return FALSE;
    }
  return TRUE;
}

static gboolean
loop_setup (LoopFixture *f,
            Setup        setup)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int fd;

  f->dir = g_dir_make_tmp ("duel-safety-XXXXXX", &error);
  g_assert_no_error (error);
  f->backing = g_build_filename (f->dir, "backing.img", NULL);
  f->mount_dir = g_build_filename (f->dir, "mnt", NULL);
  g_assert_cmpint (g_mkdir (f->mount_dir, 0755), ==, 0);

  /* Random contents: a checksum that cannot match by accident. */
  fd = open (f->backing, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  {
    g_autoptr(GRand) rand = g_rand_new_with_seed (4);
    g_autofree guint32 *chunk = g_new (guint32, MiB / 4);

    for (guint i = 0; i < 32; i++)
      {
        for (guint j = 0; j < MiB / 4; j++)
          chunk[j] = g_rand_int (rand);
        g_assert_cmpint (write (fd, chunk, MiB), ==, MiB);
      }
  }
  close (fd);

  if (setup == SETUP_PARTITION_MOUNTED_RW)
    {
      /* One partition from 1 MiB to the end. */
      g_autofree char *script = g_strdup_printf ("printf 'label: dos\\nstart=2048, type=83\\n' | sfdisk -q '%s'",
                                                 f->backing);
      const char *sfdisk[] = { "sh", "-c", script, NULL };

      if (!run_quiet (sfdisk))
        {
          g_test_skip ("sfdisk cannot partition the image");
          return FALSE;
        }
    }
  {
    const char *argv[] = { "losetup", "--find", "--show", f->backing,
                           setup == SETUP_PARTITION_MOUNTED_RW ? "--partscan" : NULL, NULL };

    if (run_command (argv, &out, NULL) != 0)
      {
        g_test_skip ("no loop device (losetup failed)");
        return FALSE;
      }
  }
  f->device = g_strstrip (g_steal_pointer (&out));

  switch (setup)
    {
    case SETUP_CLEAN:
      break;
    case SETUP_EXT4:
    case SETUP_EXT4_MOUNTED:
      {
        /* No lazy init: a background thread would zero inode tables under the checksum. */
        const char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-L", "duelsafety",
                               "-E", "lazy_itable_init=0,lazy_journal_init=0", f->device, NULL };
        /* Read-only: a read-write ext4 writes its superblock and journal on
         * its own after mounting, which the checksum would take for ours.
         * Mounted is mounted; the refusal must not depend on the mode. */
        const char *mount[] = { "mount", "-o", "ro,noload", f->device, f->mount_dir, NULL };

        g_assert_true (run_quiet (mkfs));
        if (setup == SETUP_EXT4_MOUNTED)
          {
            g_assert_true (run_quiet (mount));
            f->mounted = TRUE;
          }
      }
      break;
    case SETUP_EXT4_MOUNTED_RW:
    case SETUP_PARTITION_MOUNTED_RW:
      {
        /* Read-write, as a filesystem someone uses: the checks below watch
         * its folder, not its bytes, which ext4 writes on its own. */
        g_autofree char *fs_device = setup == SETUP_PARTITION_MOUNTED_RW ? g_strconcat (f->device, "p1", NULL)
                                                                           : g_strdup (f->device);
        const char *mkfs[] = { "mkfs.ext4", "-q", "-F", fs_device, NULL };
        const char *mount[] = { "mount", fs_device, f->mount_dir, NULL };

        /* losetup --partscan has the kernel read the table before it
         * returns: without the partition in sysfs there is none to wait for
         * (a container whose loop devices do not scan partitions). */
        if (setup == SETUP_PARTITION_MOUNTED_RW)
          {
            g_autofree char *base = g_path_get_basename (fs_device);
            g_autofree char *sysfs = g_build_filename ("/sys/class/block", base, NULL);

            if (!g_file_test (sysfs, G_FILE_TEST_EXISTS))
              {
                g_test_skip ("the kernel made no partition for the loop device (no partition scanning here)");
                return FALSE;
              }
          }
        /* udev makes the partition's node; 60 s is a cap for a node that
         * never comes (a skip), not a time a loaded host must keep. */
        for (guint i = 0; i < 3000 && !g_file_test (fs_device, G_FILE_TEST_EXISTS); i++)
          g_usleep (20 * 1000);
        if (!g_file_test (fs_device, G_FILE_TEST_EXISTS))
          {
            g_test_skip ("no partition node for the loop device");
            return FALSE;
          }
        g_assert_true (run_quiet (mkfs));
        g_assert_true (run_quiet (mount));
        f->mounted = TRUE;
      }
      break;
    case SETUP_SWAP:
      {
        const char *mkswap[] = { "mkswap", f->device, NULL };
        const char *swapon[] = { "swapon", f->device, NULL };

        g_assert_true (run_quiet (mkswap));
        if (!run_quiet (swapon))
          {
            g_test_skip ("swapon is not allowed here");
            return FALSE;
          }
        f->swap = TRUE;
      }
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

static void
loop_teardown (LoopFixture *f)
{
  if (f->swap)
    {
      const char *argv[] = { "swapoff", f->device, NULL };
      run_quiet (argv);
    }
  if (f->mounted)
    {
      const char *argv[] = { "umount", f->mount_dir, NULL };
      run_quiet (argv);
    }
  if (f->device != NULL)
    {
      const char *argv[] = { "losetup", "--detach", f->device, NULL };
      run_quiet (argv);
    }
  if (f->backing != NULL)
    g_unlink (f->backing);
  if (f->mount_dir != NULL)
    g_rmdir (f->mount_dir);
  if (f->dir != NULL)
    g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->backing);
  g_free (f->device);
  g_free (f->mount_dir);
}

/* Sets the device up, runs the subprocess CHILD_PATH against it, tears down. */
static void
run_on_loop (Setup       setup,
             const char *child_path)
{
  LoopFixture f = { 0 };
  gboolean ran = FALSE;

  if (!can_use_loops ())
    return;
  if (loop_setup (&f, setup))
    {
      g_setenv ("DUEL_TEST_DEVICE", f.device, TRUE);
      g_setenv ("DUEL_TEST_MOUNT_DIR", f.mount_dir, TRUE);
      g_setenv ("DUEL_TEST_BACKING", f.backing, TRUE);
      g_test_trap_subprocess (child_path, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      ran = TRUE;
    }
  loop_teardown (&f);
  if (ran)
    g_test_trap_assert_passed ();
}

static gboolean
in_child (void)
{
  if (!g_test_subprocess ())
    {
      g_test_skip ("the device half of a test, run in a subprocess");
      return FALSE;
    }
  return TRUE;
}

/* `driveduel-cli run --destructive --rw randwrite DEVICE` must fail, say
 * WHY_FRAGMENT, and leave the device as it was. */
static void
assert_cli_refuses (const char *device,
                    const char *why_fragment)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { cli, "run", "--destructive", "--rw", "randwrite", "--bs", "4k",
                         "--runtime", "1", device, NULL };
  int code;

  g_assert_nonnull (cli);
  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *why = g_strdup_printf ("%s is not built; only the library was checked", cli);

      g_test_skip (why);
      return;
    }
  code = run_command (argv, &out, &err);
  g_test_message ("driveduel-cli run: exit %d, %s%s", code, out, err);
  g_assert_cmpint (code, !=, 0);
  g_assert_nonnull (strstr (err, why_fragment));
}

/* duel_safety_check_write_fd() on a descriptor opened as UDisks opens one
 * for the run (O_DIRECT, O_EXCL unless @exclusive is FALSE): the verdict,
 * and the descriptor is left as it was given. */
static gboolean
check_through_fd (const char         *device,
                  gboolean            exclusive,
                  DuelSafetyFlags     flags,
                  DuelSafetyReport  **out_report,
                  GError            **error)
{
  int fd = open (device, O_RDWR | O_DIRECT | O_CLOEXEC | (exclusive ? O_EXCL : 0));
  int status_flags;
  gboolean ok;

  g_assert_cmpint (fd, >=, 0);
  status_flags = fcntl (fd, F_GETFL);
  ok = duel_safety_check_write_fd (device, fd, flags, out_report, error);
  g_assert_cmpint (fcntl (fd, F_GETFL), ==, status_flags);
  close (fd);
  return ok;
}

static void
mounted_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  const char *mount_dir = g_getenv ("DUEL_TEST_MOUNT_DIR");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  if (!in_child ())
    return;
  before = device_sha256 (device);

  /* Refused even with every flag. */
  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_MOUNTED);
  g_assert_nonnull (strstr (error->message, mount_dir));
  g_assert_cmpuint (report->size_bytes, ==, 32 * MiB);
  assert_cli_refuses (device, mount_dir);
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  /* Through a descriptor too (a mounted device refuses O_EXCL): from mountinfo. */
  g_assert_false (check_through_fd (device, FALSE, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                    &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_MOUNTED);
  g_assert_nonnull (strstr (error->message, mount_dir));

  after = device_sha256 (device);
  g_assert_cmpstr (before, ==, after);
}

/* The result on a filesystem on the target: refused before the output's
 * probe (which made, synced, renamed and removed a file in it) and before
 * the target's safety check had refused the target. inotify sees every
 * file created in the folder, even for a moment. */
static void
output_on_target_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  const char *mount_dir = g_getenv ("DUEL_TEST_MOUNT_DIR");
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *output = NULL;
  g_autofree char *partition = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  union { struct inotify_event event; char bytes[4096]; } events;
  int watch;

  if (!in_child ())
    return;
  output = g_build_filename (mount_dir, "r.json", NULL);
  partition = g_strconcat (device, "p1", NULL);
  watch = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  g_assert_cmpint (watch, >=, 0);
  g_assert_cmpint (inotify_add_watch (watch, mount_dir, IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MODIFY), >=, 0);

  /* The whole device, the partition when the filesystem is on one, and
   * the file the loop device is backed by (a file target holding it). */
  for (guint i = 0; i < 3; i++)
    {
      const char *target = i == 0 ? device : i == 1 ? partition : g_getenv ("DUEL_TEST_BACKING");
      g_autoptr(GError) error = NULL;

      if (i == 1 && !g_file_test (partition, G_FILE_TEST_EXISTS))
        continue;
      g_assert_false (duel_safety_check_output (output, target, TRUE, FALSE, &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
      g_assert_nonnull (strstr (error->message, "lives on the target"));
      g_clear_error (&error);
      /* A run that only reads the device may keep its result there. */
      g_assert_true (duel_safety_check_output (output, target, FALSE, FALSE, &error));
      g_assert_no_error (error);
    }

  if (cli != NULL && g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      const char *argv[] = { cli, "run", "--destructive", "--wipe-signatures", "--rw", "randwrite",
                             "--runtime", "1", "-o", output, device, NULL };
      int code = run_command (argv, &out, &err);

      g_test_message ("driveduel-cli run: exit %d, %s", code, err);
      g_assert_cmpint (code, ==, 1);
      g_assert_nonnull (strstr (err, mount_dir));
    }

  g_assert_cmpint (read (watch, &events, sizeof events), <, 0);
  close (watch);
}

static void
signature_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  if (!in_child ())
    return;
  before = device_sha256 (device);

  /* Without --destructive: the report already names the filesystem. */
  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_assert_cmpstr (report->signature, ==, "ext4");
  g_assert_nonnull (strstr (error->message, "--destructive"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HAS_SIGNATURE);
  g_assert_cmpstr (report->signature, ==, "ext4");
  g_assert_cmpstr (report->signature_usage, ==, "filesystem");
  g_assert_cmpstr (report->signature_label, ==, "duelsafety");
  g_assert_nonnull (strstr (error->message, "ext4"));
  g_assert_nonnull (strstr (error->message, "--wipe-signatures"));
  /* No article before the type's name ("a ext4"). */
  g_assert_nonnull (strstr (error->message, " holds a signature of type ext4 (filesystem, label “duelsafety”)."));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);
  assert_cli_refuses (device, "ext4");

  /* Read through an O_DIRECT descriptor (UDisks'), the same signature. */
  g_assert_false (check_through_fd (device, TRUE, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HAS_SIGNATURE);
  g_assert_cmpstr (report->signature, ==, "ext4");
  g_assert_cmpstr (report->signature_label, ==, "duelsafety");
  g_assert_nonnull (strstr (error->message, "--wipe-signatures"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);
  g_assert_true (check_through_fd (device, TRUE, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                   &report, &error));
  g_assert_no_error (error);
  g_clear_pointer (&report, duel_safety_report_free);

  /* The second confirmation allows it (the check itself writes nothing). */
  g_assert_true (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                          &report, &error));
  g_assert_no_error (error);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_ALLOWED);

  after = device_sha256 (device);
  g_assert_cmpstr (before, ==, after);
}

static void
exclusive_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  ExclusiveHolder holder = { 0 };

  if (!in_child ())
    return;
  before = device_sha256 (device);

  g_assert_true (exclusive_holder_start (device, &holder));
  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_BUSY);
  g_assert_nonnull (strstr (error->message, "exclusively"));
  assert_cli_refuses (device, "exclusively");
  exclusive_holder_stop (&holder);

  after = device_sha256 (device);
  g_assert_cmpstr (before, ==, after);
}

static void
swap_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;

  if (!in_child ())
    return;
  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_SWAP);
  g_assert_nonnull (strstr (error->message, "swap"));
}

static void
clean_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_DEVICE");
  const char *backing = g_getenv ("DUEL_TEST_BACKING");
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  if (!in_child ())
    return;
  before = device_sha256 (device);

  g_assert_false (duel_safety_check_write (device, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_assert_null (report->signature);
  g_assert_cmpstr (report->transport, ==, "loop");
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_assert_true (duel_safety_check_write (device, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_ALLOWED);
  g_assert_null (report->reason);
  g_clear_pointer (&report, duel_safety_report_free);

  g_assert_false (check_through_fd (device, TRUE, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);
  g_assert_true (check_through_fd (device, TRUE, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_ALLOWED);
  g_clear_pointer (&report, duel_safety_report_free);
  after = device_sha256 (device);
  g_assert_cmpstr (before, ==, after);

  /* The backing file of an attached loop device is somebody's disk. */
  g_assert_false (duel_safety_check_write (backing, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HELD);
  g_assert_nonnull (strstr (error->message, device));
  g_clear_error (&error);

  /* And the CLI does write to a clean device with --destructive. */
  if (cli != NULL && g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *written = NULL;
      const char *argv[] = { cli, "run", "--destructive", "--rw", "randwrite", "--bs", "4k",
                             "--size", "4m", device, NULL };

      g_assert_cmpint (run_command (argv, &out, &err), ==, 0);
      written = device_sha256 (device);
      g_assert_cmpstr (written, !=, before);
    }
}

static void
test_mounted (void)
{
  run_on_loop (SETUP_EXT4_MOUNTED, "/duel/safety/subprocess/mounted");
}

static void
test_signature (void)
{
  run_on_loop (SETUP_EXT4, "/duel/safety/subprocess/signature");
}

static void
test_exclusive (void)
{
  run_on_loop (SETUP_CLEAN, "/duel/safety/subprocess/exclusive");
}

static void
test_swap (void)
{
  run_on_loop (SETUP_SWAP, "/duel/safety/subprocess/swap");
}

static void
test_clean (void)
{
  run_on_loop (SETUP_CLEAN, "/duel/safety/subprocess/clean");
}

static void
test_output_on_target (void)
{
  run_on_loop (SETUP_EXT4_MOUNTED_RW, "/duel/safety/subprocess/output-on-target");
}

static void
test_output_on_partition (void)
{
  run_on_loop (SETUP_PARTITION_MOUNTED_RW, "/duel/safety/subprocess/output-on-target");
}

/* The disk under / is never a target, whatever the flags (no root needed:
 * the refusal comes before any open). */
static void
test_system_disk (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDevice) device = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  struct stat st;

  g_assert_cmpint (stat ("/", &st), ==, 0);
  if (major (st.st_dev) == 0)
    {
      g_test_skip ("/ is not on a block device here");
      return;
    }
  device = duel_device_new_for_devnum ("/", major (st.st_dev), minor (st.st_dev), NULL, NULL);
  if (device == NULL || !g_file_test (duel_device_get_device_path (device), G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no device node for the root filesystem");
      return;
    }
  g_assert_false (duel_safety_check_write (duel_device_get_device_path (device),
                                           DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_SYSTEM);
  g_assert_nonnull (strstr (error->message, "running system"));
}

static void
test_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-safety-files-XXXXXX", &error);
  g_autofree char *fresh = g_build_filename (dir, "new.img", NULL);
  g_autofree char *scratch = g_build_filename (dir, "scratch.img", NULL);
  g_autofree char *image = g_build_filename (dir, "disk.img", NULL);
  g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *made = g_build_filename (dir, "made.img", NULL);
  g_autofree char *zeros = g_malloc0 (8 * MiB);
  g_autofree guint8 *aligned = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (posix_memalign ((void **) &aligned, 4096, 4096), ==, 0);
  memset (aligned, 0xd0, 4096);

  /* A file the run creates. */
  g_assert_true (duel_safety_check_write (fresh, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_no_error (error);
  g_assert_false (report->is_block);
  g_clear_pointer (&report, duel_safety_report_free);

  /* An existing scratch file without signatures: no flags needed. */
  g_assert_true (g_file_set_contents (scratch, zeros, 8 * MiB, NULL));
  g_assert_true (duel_safety_check_write (scratch, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_cmpuint (report->size_bytes, ==, 8 * MiB);
  g_clear_pointer (&report, duel_safety_report_free);

  /* A file of someone's data: the same consent as a device. */
  g_assert_true (g_file_set_contents (notes, "my notes\n", -1, NULL));
  g_assert_false (duel_safety_check_write (notes, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_assert_nonnull (strstr (error->message, "did not write"));
  g_assert_nonnull (strstr (error->message, "--destructive"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);
  g_assert_true (duel_safety_check_write (notes, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_clear_pointer (&report, duel_safety_report_free);

  /* --wipe-signatures is no consent to overwrite data: only in addition. */
  g_assert_false (duel_safety_check_write (notes, DUEL_SAFETY_WIPE_SIGNATURES, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  /* A file Drive Duel wrote and closed holds only what it wrote: no consent
   * again, until something else writes to it. */
  {
    g_autoptr(DuelTarget) target = duel_target_open (made, DUEL_TARGET_OPEN_READ | DUEL_TARGET_OPEN_WRITE |
                                                     DUEL_TARGET_OPEN_CREATE, MiB, &error);

    g_assert_no_error (error);
    g_assert_cmpint (pwrite (duel_target_get_fd (target), aligned, 4096, 0), ==, 4096);
  }
  {
    g_autofree char *text = g_strnfill (MiB, 'x');
    int fd;

    g_assert_true (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, &report, &error));
    g_assert_no_error (error);
    g_clear_pointer (&report, duel_safety_report_free);

    /* The user's data written over it, in place: the record stays, but no
     * longer describes the file. */
    fd = open (made, O_WRONLY | O_CLOEXEC);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (pwrite (fd, text, MiB, 0), ==, MiB);
    close (fd);
    g_assert_false (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, &report, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
    g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
    g_assert_nonnull (strstr (error->message, "changed after Drive Duel last wrote it"));
    g_assert_nonnull (strstr (error->message, "--destructive"));
    g_clear_error (&error);
    g_clear_pointer (&report, duel_safety_report_free);

    /* An edit anywhere, with the size and the modification time put back
     * as they were (touch -d), is caught by the change time, which cannot
     * be put back: at the end, and in the middle. */
    for (guint at = 0; at < 2; at++)
      {
        struct stat before;
        struct timespec times[2];
        off_t offset = at == 0 ? MiB - 1 : MiB / 2;

        {
          g_autoptr(DuelTarget) target = duel_target_open (made, DUEL_TARGET_OPEN_WRITE, 0, &error);

          g_assert_no_error (error);
        }
        g_assert_true (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, NULL, NULL));
        g_assert_cmpint (stat (made, &before), ==, 0);
        fd = open (made, O_WRONLY | O_CLOEXEC);
        g_assert_cmpint (pwrite (fd, "y", 1, offset), ==, 1);
        close (fd);
        times[0] = before.st_atim;
        times[1] = before.st_mtim;
        g_assert_cmpint (utimensat (AT_FDCWD, made, times, 0), ==, 0);
        g_assert_false (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, &report, &error));
        g_assert_nonnull (strstr (error->message, "changed after Drive Duel last wrote it"));
        g_clear_error (&error);
        g_clear_pointer (&report, duel_safety_report_free);
      }

    /* A run killed while writing leaves "writing" with its size: the same
     * size is its own file, another size is not. */
    fd = open (made, O_RDWR | O_CLOEXEC);
    g_assert_cmpint (fd, >=, 0);
    duel_made_files_record_writing (fd);
    close (fd);
    g_assert_true (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, NULL, NULL));
    g_assert_cmpint (truncate (made, 2 * MiB), ==, 0);
    g_assert_false (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, NULL, NULL));

    /* The record lost (another user, a fresh state folder): asked again. */
    {
      g_autofree char *record = duel_made_files_dup_path ();

      fd = open (made, O_RDWR | O_CLOEXEC);
      duel_made_files_record (fd);
      close (fd);
      g_assert_true (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, NULL, NULL));
      g_assert_cmpint (g_unlink (record), ==, 0);
      g_assert_false (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, &report, &error));
      g_assert_nonnull (strstr (error->message, "did not write"));
      g_clear_error (&error);
      g_clear_pointer (&report, duel_safety_report_free);

      /* A record of another file that had this inode (born at another
       * time): nothing is known of this one, it is not "changed". */
      {
        struct statx stx;
        g_autofree char *line = NULL;

        g_assert_cmpint (statx (AT_FDCWD, made, 0, STATX_INO | STATX_BTIME, &stx), ==, 0);
        if (stx.stx_mask & STATX_BTIME)
          {
            line = g_strdup_printf ("driveduel-made-files 1\ndone %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                                    " 12.000000000 %" G_GUINT64_FORMAT " 12.000000000 12.000000000\n",
                                    ((guint64) stx.stx_dev_major << 32) | stx.stx_dev_minor,
                                    (guint64) stx.stx_ino, (guint64) stx.stx_size);
            g_assert_true (g_file_set_contents (record, line, -1, NULL));
            g_assert_false (duel_safety_check_write (made, DUEL_SAFETY_FLAGS_NONE, &report, &error));
            g_assert_nonnull (strstr (error->message, "did not write"));
            g_clear_error (&error);
            g_clear_pointer (&report, duel_safety_report_free);
          }
        else
          g_test_message ("no birth times here: a reused inode is not told apart");
      }
    }
  }

  /* A disk image: data (--destructive) and a signature (--wipe-signatures). */
  g_assert_true (g_file_set_contents (image, zeros, 8 * MiB, NULL));
  {
    const char *mkfs[] = { "mkfs.ext4", "-q", "-F", image, NULL };

    if (run_quiet (mkfs))
      {
        g_assert_false (duel_safety_check_write (image, DUEL_SAFETY_FLAGS_NONE, &report, &error));
        g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
        g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
        g_assert_nonnull (strstr (error->message, "--destructive and --wipe-signatures"));
        g_clear_error (&error);
        g_clear_pointer (&report, duel_safety_report_free);
        g_assert_false (duel_safety_check_write (image, DUEL_SAFETY_WIPE_SIGNATURES, &report, &error));
        g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
        g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
        g_clear_error (&error);
        g_clear_pointer (&report, duel_safety_report_free);
        g_assert_false (duel_safety_check_write (image, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
        g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
        g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HAS_SIGNATURE);
        g_assert_cmpstr (report->signature, ==, "ext4");
        g_assert_nonnull (strstr (error->message, " holds a signature of type ext4 (filesystem): "));
        g_clear_error (&error);
        g_clear_pointer (&report, duel_safety_report_free);
        g_assert_true (duel_safety_check_write (image, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                                &report, &error));
        g_clear_pointer (&report, duel_safety_report_free);
      }
    else
      g_test_message ("mkfs.ext4 missing: no disk-image check");
  }

  /* Not targets at all. */
  g_assert_false (duel_safety_check_write (dir, DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NOT_A_TARGET);
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_assert_false (duel_safety_check_write ("/dev/null", DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "character device"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_assert_false (duel_safety_check_write ("/dev/duel-no-such-device", DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_unlink (scratch);
  g_unlink (image);
  g_unlink (notes);
  g_unlink (made);
  g_rmdir (dir);
}

/* A path under /dev that does not exist: a typo of a device node when its
 * folder is /dev itself, a new file like any other when its folder is a
 * filesystem of its own mounted there (/dev/shm). */
static void
test_new_file_under_dev (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *name = g_strdup_printf ("duel-safety-%d-new.img", (int) getpid ());
  g_autofree char *fresh = g_build_filename ("/dev/shm", name, NULL);
  struct stat dev_st, shm_st;

  g_assert_false (duel_safety_check_write ("/dev/duel-no-such-device", DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_nonnull (strstr (error->message, "There is no device"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  if (stat ("/dev", &dev_st) != 0 || stat ("/dev/shm", &shm_st) != 0 || !S_ISDIR (shm_st.st_mode) ||
      shm_st.st_dev == dev_st.st_dev || access ("/dev/shm", W_OK) != 0)
    {
      g_test_skip ("no writable filesystem mounted on /dev/shm");
      return;
    }
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_true (duel_safety_check_write (fresh, DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_ALLOWED);
  g_assert_false (report->is_block);
}

/* What a signature is called in a sentence: "a signature of type …", the
 * article never before the type's own name (not "a ext4 signature"). */
static void
test_signature_words (void)
{
  static const struct { const char *type, *usage, *label, *text; } cases[] = {
    { "ext4", "filesystem", NULL, "a signature of type ext4 (filesystem)" },
    { "ext4", "filesystem", "", "a signature of type ext4 (filesystem)" },
    { "xfs", "filesystem", "backup", "a signature of type xfs (filesystem, label “backup”)" },
    { "gpt", "partition table", NULL, "a signature of type gpt (partition table)" },
    { "linux_raid_member", NULL, NULL, "a signature of type linux_raid_member (unknown use)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DuelSafetyReport report = {
        .signature = (char *) cases[i].type,
        .signature_usage = (char *) cases[i].usage,
        .signature_label = (char *) cases[i].label,
      };
      g_autofree char *text = duel_safety_report_describe_signature (&report);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/safety/signature-words", test_signature_words);
  g_test_add_func ("/duel/safety/files", test_files);
  g_test_add_func ("/duel/safety/new-file-under-dev", test_new_file_under_dev);
  g_test_add_func ("/duel/safety/system-disk", test_system_disk);
  g_test_add_func ("/duel/safety/mounted", test_mounted);
  g_test_add_func ("/duel/safety/signature", test_signature);
  g_test_add_func ("/duel/safety/exclusive", test_exclusive);
  g_test_add_func ("/duel/safety/swap", test_swap);
  g_test_add_func ("/duel/safety/clean", test_clean);
  g_test_add_func ("/duel/safety/output-on-target", test_output_on_target);
  g_test_add_func ("/duel/safety/output-on-partition", test_output_on_partition);
  g_test_add_func ("/duel/safety/subprocess/mounted", mounted_child);
  g_test_add_func ("/duel/safety/subprocess/signature", signature_child);
  g_test_add_func ("/duel/safety/subprocess/exclusive", exclusive_child);
  g_test_add_func ("/duel/safety/subprocess/swap", swap_child);
  g_test_add_func ("/duel/safety/subprocess/clean", clean_child);
  g_test_add_func ("/duel/safety/subprocess/output-on-target", output_on_target_child);

  return g_test_run ();
}
