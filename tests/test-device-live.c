/* test-device-live.c — the device layer on this machine
 *
 * Capture and replay: runs tests/data/sysfs/capture-sysfs.sh on the live
 * system and checks
 * that the enumerator gives the same answer for the copy as for the real
 * /sys: the capture script copies everything the readers use, and the
 * readers take nothing from outside their root. Other tests may attach
 * loop devices meanwhile, so a mismatch is retried a few times.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/duel-device.h"
#include "device/duel-device-describe.h"
#include "device/duel-device-nvme.h"
#include "device/duel-device-snapshot.h"
#include "device/duel-device-thermometer.h"
#include "duel-error.h"
#include "test-device-helpers.h"
#include "test-dir.h"

static char *
enumerate_json (const char *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = duel_device_enumerate (root, &error);
  g_autoptr(JsonNode) node = NULL;

  g_assert_no_error (error);
  node = duel_device_list_to_json (devices);
  return json_to_string (node, TRUE);
}

static void
test_capture_replay (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "data", "sysfs", "capture-sysfs.sh", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  guint attempt;

  if (!g_file_test ("/sys/block", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no sysfs");
      return;
    }
  dir = g_dir_make_tmp ("duel-capture-XXXXXX", &error);
  g_assert_no_error (error);

  for (attempt = 0; attempt < 5; attempt++)
    {
      g_autofree char *out = g_build_filename (dir, "tree", NULL);
      g_autofree char *live = NULL;
      g_autofree char *replayed = NULL;
      const char *argv[] = { "sh", script, out, NULL };

      test_dir_remove (out);
      g_assert_true (run_quiet (argv));
      replayed = enumerate_json (out);
      live = enumerate_json ("/");
      if (g_strcmp0 (live, replayed) == 0)
        break;
      g_test_message ("attempt %u differed (devices changed meanwhile?)\nlive: %s\nreplayed: %s",
                      attempt, live, replayed);
      g_usleep (200000);
    }
  test_dir_remove (dir);
  g_assert_cmpuint (attempt, <, 5);
}

/* A file in the build tree: its filesystem and the block device under it,
 * as the mount table and sysfs say. */
static void
test_describe_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "duel-describe-probe", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(DuelDevice) device = NULL;
  JsonObject *fs;
  struct stat st;

  g_assert_true (g_file_set_contents (path, "probe", -1, NULL));
  g_assert_cmpint (stat (path, &st), ==, 0);
  object = duel_device_describe (path, &error);
  g_unlink (path);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, "file");
  g_assert_true (json_object_has_member (object, "filesystem"));
  fs = json_object_get_object_member (object, "filesystem");
  g_assert_cmpstr (json_object_get_string_member (fs, "mount_point"), !=, "");

  if (major (st.st_dev) == 0)
    {
      g_test_skip ("the build tree is on an anonymous device (btrfs, overlay)");
      return;
    }
  device = duel_device_new_for_devnum ("/", major (st.st_dev), minor (st.st_dev), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (object, "device_name"), ==, duel_device_get_name (device));
  g_assert_cmpint (json_object_get_int_member (object, "capacity_bytes"), ==,
                   (gint64) duel_device_get_size_bytes (device));
  g_assert_true (json_object_has_member (object, "link"));
  g_assert_true (json_object_has_member (object, "block_device"));
  /* The device holds the file's filesystem, so it is in use. */
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (object, "block_device"), "in_use"));

  /* A file still to be created is described through its folder. */
  g_clear_pointer (&object, json_object_unref);
  object = duel_device_describe (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (object, "device_name"), ==, duel_device_get_name (device));

  g_clear_pointer (&object, json_object_unref);
  g_assert_null (duel_device_describe ("/nonexistent-dir/x", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The kernel's own counters see what we write (fsync'ed through the page cache). */
static void
test_snapshot_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "duel-snapshot-probe", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceSnapshot) before = NULL;
  g_autoptr(DuelDeviceSnapshot) after = NULL;
  g_autoptr(JsonObject) device = json_object_new ();
  g_autofree char *data = g_malloc (4 * 1024 * 1024);
  JsonObject *delta;
  int fd;

  memset (data, 0x5a, 4 * 1024 * 1024);
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  before = duel_device_snapshot_take (path, &error);
  g_assert_no_error (error);
  if (!before->has_io_stats)
    {
      g_unlink (path);
      g_test_skip ("the build tree is not on a block device");
      return;
    }
  fd = open (path, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (write (fd, data, 4 * 1024 * 1024), ==, 4 * 1024 * 1024);
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);
  after = duel_device_snapshot_take (path, &error);
  g_unlink (path);
  g_assert_no_error (error);

  duel_device_snapshot_add_to_json (device, before, after, NAN);
  delta = json_object_get_object_member (device, "health_delta");
  g_assert_cmpint (json_object_get_int_member (delta, "kernel_written_bytes"), >=, 4 * 1024 * 1024);
  g_assert_cmpfloat (json_object_get_double_member (delta, "duration_s"), >=, 0);
  g_assert_true (json_object_has_member (json_object_get_object_member (device, "health_before"), "smart_unavailable") ||
                 json_object_has_member (json_object_get_object_member (device, "health_before"), "smart"));
}

/* Without a sensor every reading is NAN, and starting polls nothing. */
static void
test_thermometer_without_sensor (void)
{
  g_autofree char *dir = g_dir_make_tmp ("duel-thermo-XXXXXX", NULL);
  g_autoptr(DuelDeviceThermometer) thermometer = NULL;

  thermometer = duel_device_thermometer_new (dir);
  g_rmdir (dir);
  if (strcmp (duel_device_thermometer_get_source (thermometer), "none") != 0)
    {
      g_test_skip ("this machine's disk has a temperature sensor");
      return;
    }
  g_assert_true (isnan (duel_device_thermometer_read (thermometer)));
  g_assert_true (duel_device_thermometer_start (thermometer, 10, NULL));
  g_usleep (50000);
  g_assert_true (isnan (duel_device_thermometer_get_celsius (thermometer)));
  g_assert_true (isnan (duel_device_thermometer_get_peak_celsius (thermometer)));
  duel_device_thermometer_stop (thermometer);
}

/* A block device that is not NVMe answers the namespace-id ioctl with ENOTTY. */
static void
test_nvme_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  g_autofree char *file = g_test_build_filename (G_TEST_BUILT, "duel-not-nvme", NULL);
  g_autofree char *loop = NULL;

  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_null (duel_device_nvme_open (file, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  if (geteuid () != 0)
    {
      g_unlink (file);
      g_test_skip ("a loop device needs root");
      return;
    }
  g_assert_cmpint (truncate (file, 1024 * 1024), ==, 0);
  {
    const char *argv[] = { "losetup", "--find", "--show", file, NULL };

    if (run_command (argv, &loop, NULL) != 0)
      {
        g_unlink (file);
        g_test_skip ("no loop device");
        return;
      }
  }
  g_strstrip (loop);
  nvme = duel_device_nvme_open (loop, &error);
  {
    const char *argv[] = { "losetup", "--detach", loop, NULL };

    run_quiet (argv);
  }
  g_unlink (file);
  g_assert_null (nvme);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED);
  g_test_message ("%s", error->message);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/device/live/capture-replay", test_capture_replay);
  g_test_add_func ("/duel/device/live/describe-file", test_describe_file);
  g_test_add_func ("/duel/device/live/snapshot-file", test_snapshot_file);
  g_test_add_func ("/duel/device/live/thermometer-without-sensor", test_thermometer_without_sensor);
  g_test_add_func ("/duel/device/live/nvme-errors", test_nvme_errors);

  return g_test_run ();
}
