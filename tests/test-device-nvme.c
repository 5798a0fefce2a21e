/* test-device-nvme.c — identity, SMART, link and safety on a real NVMe driver
 *
 * Runs inside the throw-away QEMU guest that tests/nvme/run-nvme-test.sh
 * boots: QEMU's emulated NVMe controller behind a pcie-root-port, the
 * kernel's nvme driver, libnvme admin commands. The host only builds it;
 * without DUEL_NVME_DEVICE (or its node) every case skips.
 *
 * Environment: DUEL_NVME_DEVICE (/dev/nvme0n1), DUEL_NVME_SERIAL (the serial
 * given to QEMU), DRIVEDUEL_CLI, DUEL_CAPTURE_SCRIPT (tests/data/sysfs/
 * capture-sysfs.sh), DUEL_CAPTURE_EXPORT=1 to print the captured sysfs tree
 * and the raw NVMe pages as base64 TAP comments (for tests/data).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <linux/fs.h>
#include <math.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/duel-device.h"
#include "device/duel-device-describe.h"
#include "device/duel-device-nvme.h"
#include "device/duel-device-snapshot.h"
#include "device/duel-device-thermometer.h"
#include "duel-error.h"
#include "device/duel-safety.h"
#include "test-device-helpers.h"

#define MiB (1024 * 1024)
#define QEMU_MODEL "QEMU NVMe Ctrl"
/* QEMU 7.2 reports a fixed 323 K. */
#define QEMU_TEMPERATURE_C (323 - 273.15)
#define MOUNT_DIR "/tmp/duel-nvme-mnt"

static const char *
nvme_device (void)
{
  const char *device = g_getenv ("DUEL_NVME_DEVICE");

  return device != NULL ? device : "/dev/nvme0n1";
}

static gboolean
have_device (void)
{
  struct stat st;

  if (stat (nvme_device (), &st) != 0 || !S_ISBLK (st.st_mode))
    {
      g_test_skip ("no NVMe namespace (this runs in the QEMU guest)");
      return FALSE;
    }
  return TRUE;
}

static const char *
expected_serial (void)
{
  const char *serial = g_getenv ("DUEL_NVME_SERIAL");

  return serial != NULL ? serial : "NVMEVM0000";
}

static void
wipe_start (void)
{
  g_autofree guint8 *zeros = g_malloc0 (MiB);
  int fd = open (nvme_device (), O_WRONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, zeros, MiB, 0), ==, MiB);
  g_assert_cmpint (fsync (fd), ==, 0);
  /* Drop partitions the kernel knew of; EINVAL when there were none is fine. */
  ioctl (fd, BLKRRPART);
  close (fd);
}

/* ------------------------------------------------------------------ identity */

static void
test_identify (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  g_autofree char *version = NULL;
  DuelNvmeController controller;
  DuelNvmeNamespace ns;
  guint64 size = 0;
  int fd;

  if (!have_device ())
    return;

  nvme = duel_device_nvme_open (nvme_device (), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_device_nvme_get_nsid (nvme), ==, 1);

  g_assert_true (duel_device_nvme_identify_controller (nvme, &controller, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (controller.model, ==, QEMU_MODEL);
  g_assert_cmpstr (controller.serial, ==, expected_serial ());
  g_assert_cmpstr (controller.firmware, !=, "");
  version = duel_nvme_controller_version_string (&controller);
  g_assert_cmpstr (version, ==, "1.4");
  g_assert_cmphex (controller.vendor_id, ==, 0x1b36);
  g_assert_true (duel_nvme_controller_supports_format (&controller));
  g_assert_false (duel_nvme_controller_supports_sanitize (&controller));
  g_assert_true (duel_nvme_controller_has_volatile_write_cache (&controller));
  g_assert_cmpuint (controller.warning_temperature_k, ==, 343);
  g_assert_cmpuint (controller.critical_temperature_k, ==, 373);

  g_assert_true (duel_device_nvme_identify_namespace (nvme, &ns, &error));
  g_assert_no_error (error);
  fd = open (nvme_device (), O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (ioctl (fd, BLKGETSIZE64, &size), ==, 0);
  close (fd);
  g_assert_cmpuint (ns.block_bytes, ==, 512);
  g_assert_cmpuint (ns.size_blocks * ns.block_bytes, ==, size);
  g_assert_cmpuint (ns.n_formats, ==, 8);
  g_assert_cmpuint (ns.format_index, ==, 0);
}

/* The kernel's NVMe admin ioctl, which a build without libnvme uses
 * (DUEL_NVME_TRANSPORT=ioctl picks it in a build with it), reads the same
 * pages: identify controller and namespace byte for byte, and a SMART log
 * taken right after the other one's with the same counters that do not
 * move at rest. */
static void
test_identify_ioctl (void)
{
  guint8 pages[2][3][DUEL_NVME_IDENTIFY_BYTES];
  DuelNvmeHealth health[2];
  static const char *names[3] = { "id-ctrl", "id-ns", "smart" };

  if (!have_device ())
    return;

  for (guint t = 0; t < 2; t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelDeviceNvme) nvme = NULL;

      /* First as the build does by default, then through the ioctl. */
      if (t == 1)
        g_setenv ("DUEL_NVME_TRANSPORT", "ioctl", TRUE);
      nvme = duel_device_nvme_open (nvme_device (), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (duel_device_nvme_get_nsid (nvme), ==, 1);
      memset (pages[t], 0, sizeof pages[t]);
      for (guint p = 0; p < 3; p++)
        {
          g_assert_true (duel_device_nvme_read_raw (nvme, names[p], pages[t][p], &error));
          g_assert_no_error (error);
        }
      g_assert_true (duel_device_nvme_get_health (nvme, &health[t], &error));
      g_assert_no_error (error);
    }
  g_unsetenv ("DUEL_NVME_TRANSPORT");

  g_assert_cmpmem (pages[0][0], DUEL_NVME_IDENTIFY_BYTES, pages[1][0], DUEL_NVME_IDENTIFY_BYTES);
  g_assert_cmpmem (pages[0][1], DUEL_NVME_IDENTIFY_BYTES, pages[1][1], DUEL_NVME_IDENTIFY_BYTES);
  g_assert_cmpfloat (health[0].temperature_c, ==, health[1].temperature_c);
  g_assert_cmpuint (health[0].power_cycles, ==, health[1].power_cycles);
  g_assert_cmpuint (health[0].percentage_used, ==, health[1].percentage_used);
  g_assert_cmpuint (health[0].available_spare_percent, ==, health[1].available_spare_percent);
  g_assert_cmpuint (health[0].media_errors, ==, health[1].media_errors);
  /* Commands counted between the two reads: the second saw at least as many. */
  g_assert_cmpuint (health[1].host_read_commands, >=, health[0].host_read_commands);

  /* A bad log page is the drive's refusal, said in words either way. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DuelDeviceNvme) nvme = NULL;
    guint8 buffer[512];

    g_setenv ("DUEL_NVME_TRANSPORT", "ioctl", TRUE);
    nvme = duel_device_nvme_open (nvme_device (), &error);
    g_assert_no_error (error);
    g_assert_false (duel_device_nvme_get_log (nvme, 0x7f, buffer, sizeof buffer, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_NVME);
    g_test_message ("%s", error->message);
    g_unsetenv ("DUEL_NVME_TRANSPORT");
  }
}

static void
test_sysfs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *partition = NULL;
  const DuelDeviceLink *link;
  const DuelPcieHop *endpoint, *port;

  if (!have_device ())
    return;

  device = duel_device_new_for_path (nvme_device (), &partition, &error);
  g_assert_no_error (error);
  g_assert_null (partition);
  g_assert_cmpint (duel_device_get_transport (device), ==, DUEL_TRANSPORT_NVME);
  g_assert_cmpstr (duel_device_get_model (device), ==, QEMU_MODEL);
  g_assert_cmpstr (duel_device_get_serial (device), ==, expected_serial ());
  g_assert_cmpstr (duel_device_get_controller (device), ==, "nvme0");
  g_assert_cmpuint (duel_device_get_nsid (device), ==, 1);
  g_assert_false (duel_device_get_rotational (device));

  /* -L 16,4: a pcie-root-port able to do 16 GT/s x4; QEMU's endpoint trains Gen1 x1. */
  link = duel_device_get_link (device);
  g_assert_cmpint (link->kind, ==, DUEL_LINK_PCIE);
  g_assert_cmpuint (link->hops->len, ==, 2);
  endpoint = &g_array_index (link->hops, DuelPcieHop, 0);
  port = &g_array_index (link->hops, DuelPcieHop, 1);
  g_assert_cmpint (endpoint->class_code >> 8, ==, 0x0108);
  g_assert_cmpfloat (endpoint->current_gt_s, ==, 2.5);
  g_assert_cmpuint (endpoint->current_width, ==, 1);
  g_assert_cmpfloat (endpoint->max_gt_s, ==, 2.5);
  g_assert_false (link->downtrained);
  g_assert_cmpint (port->class_code >> 8, ==, 0x0604);
  g_assert_cmpfloat (port->max_gt_s, ==, 16.0);
  g_assert_cmpuint (port->max_width, ==, 4);
  g_assert_true (port->below_max);
  g_assert_cmpstr (link->root_bus, ==, "0000:00");
  g_assert_cmpfloat_with_epsilon (link->ceiling_bytes_per_second, 250e6, 1);
}

/* libnvme's two kinds of failure map to two error codes. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  g_autoptr(DuelDeviceNvme) controller_node = NULL;
  g_autofree char *controller_path = NULL;
  g_autofree guint8 *buffer = g_malloc0 (DUEL_NVME_IDENTIFY_BYTES);
  DuelNvmeController controller;

  if (!have_device ())
    return;

  nvme = duel_device_nvme_open (nvme_device (), &error);
  g_assert_no_error (error);
  /* The error information log exists ... */
  g_assert_true (duel_device_nvme_get_log (nvme, 0x01, buffer, 64, &error));
  g_assert_no_error (error);
  /* ... log page 0x7f does not: the controller answers with a status. */
  g_assert_false (duel_device_nvme_get_log (nvme, 0x7f, buffer, 512, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_NVME);
  g_assert_nonnull (strstr (error->message, "status 0x"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* The controller's character device takes admin commands but has no namespace. */
  controller_path = g_strdup ("/dev/nvme0");
  controller_node = duel_device_nvme_open (controller_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_device_nvme_get_nsid (controller_node), ==, 0);
  g_assert_true (duel_device_nvme_identify_controller (controller_node, &controller, &error));
  g_assert_cmpstr (controller.serial, ==, expected_serial ());
  g_assert_false (duel_device_nvme_read_raw (controller_node, "id-ns", buffer, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Not a device at all: no ioctl is tried. */
  g_assert_true (g_file_set_contents ("/tmp/duel-not-nvme", "x", 1, NULL));
  g_assert_null (duel_device_nvme_open ("/tmp/duel-not-nvme", &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED);
  g_unlink ("/tmp/duel-not-nvme");
}

/* ------------------------------------------------------------------ health */

static void
test_smart_delta (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceSnapshot) before = NULL;
  g_autoptr(DuelDeviceSnapshot) after = NULL;
  g_autoptr(JsonObject) delta = NULL;
  g_autofree guint8 *buffer = NULL;
  const guint64 written = 8 * MiB;
  int fd;

  if (!have_device ())
    return;

  before = duel_device_snapshot_take (nvme_device (), &error);
  g_assert_no_error (error);
  g_assert_true (before->has_health);
  g_assert_cmpfloat_with_epsilon (before->health.temperature_c, QEMU_TEMPERATURE_C, 0.01);
  g_assert_cmpuint (before->health.critical_warning, ==, 0);
  g_assert_cmpuint (before->health.media_errors, ==, 0);

  buffer = g_malloc (MiB);
  memset (buffer, 0xa5, MiB);
  fd = open (nvme_device (), O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  for (guint64 offset = 0; offset < written; offset += MiB)
    g_assert_cmpint (pwrite (fd, buffer, MiB, offset), ==, MiB);
  g_assert_cmpint (fsync (fd), ==, 0);
  close (fd);

  after = duel_device_snapshot_take (nvme_device (), &error);
  g_assert_no_error (error);
  delta = duel_device_snapshot_delta_to_json (before, after, NAN);
  /* The drive counts units of 512 000 bytes, rounded up. */
  g_assert_cmpint (json_object_get_int_member (delta, "data_written_bytes"), >=, (gint64) written - 512000);
  g_assert_cmpint (json_object_get_int_member (delta, "data_written_bytes"), <=, (gint64) written + 2 * 512000);
  g_assert_cmpint (json_object_get_int_member (delta, "kernel_written_bytes"), >=, (gint64) written);
  g_assert_cmpint (json_object_get_int_member (delta, "host_write_commands"), >=, 8);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (delta, "peak_temperature_c"), 49.85, 0.01);
  g_assert_false (json_object_get_boolean_member (delta, "throttled"));
  wipe_start ();
}

static void
test_thermometer (void)
{
  g_autoptr(DuelDeviceThermometer) thermometer = NULL;
  gint64 deadline;

  if (!have_device ())
    return;

  thermometer = duel_device_thermometer_new (nvme_device ());
  /* The cloud kernel has no NVMe hwmon: the SMART log it is. */
  g_assert_cmpstr (duel_device_thermometer_get_source (thermometer), ==, "nvme-smart");
  g_assert_cmpfloat_with_epsilon (duel_device_thermometer_read (thermometer), QEMU_TEMPERATURE_C, 0.01);
  g_assert_true (isnan (duel_device_thermometer_get_celsius (thermometer)));

  g_assert_true (duel_device_thermometer_start (thermometer, 50, NULL));
  /* A cap for a thermometer that never reads, not a time it must keep: the
   * guest runs under emulation, on a host that may be loaded. */
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (isnan (duel_device_thermometer_get_celsius (thermometer)) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  g_assert_cmpfloat_with_epsilon (duel_device_thermometer_get_celsius (thermometer), QEMU_TEMPERATURE_C, 0.01);
  g_assert_cmpfloat_with_epsilon (duel_device_thermometer_get_peak_celsius (thermometer), QEMU_TEMPERATURE_C, 0.01);
  duel_device_thermometer_stop (thermometer);
}

static void
check_described (JsonObject *object)
{
  JsonObject *controller, *smart, *link, *hop;

  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, "block");
  g_assert_cmpstr (json_object_get_string_member (object, "serial"), ==, expected_serial ());
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, QEMU_MODEL);
  g_assert_cmpstr (json_object_get_string_member (object, "transport"), ==, "nvme");
  controller = json_object_get_object_member (json_object_get_object_member (object, "nvme"), "controller");
  g_assert_cmpstr (json_object_get_string_member (controller, "serial"), ==, expected_serial ());
  g_assert_cmpstr (json_object_get_string_member (controller, "nvme_version"), ==, "1.4");
  g_assert_true (json_object_get_boolean_member (
    json_object_get_object_member (controller, "optional_admin_commands"), "format"));
  smart = json_object_get_object_member (object, "smart");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (smart, "temperature_c"), 49.85, 0.01);
  g_assert_cmpint (json_object_get_int_member (smart, "critical_warning"), ==, 0);
  g_assert_true (json_object_has_member (smart, "data_units_written"));
  g_assert_true (json_object_has_member (smart, "thermal_transitions_1"));
  g_assert_cmpint (json_object_get_int_member (smart, "available_spare_percent"), ==, 0);
  link = json_object_get_object_member (object, "link");
  g_assert_cmpstr (json_object_get_string_member (link, "kind"), ==, "pcie");
  hop = json_array_get_object_element (json_object_get_array_member (link, "hops"), 0);
  g_assert_cmpfloat (json_object_get_double_member (hop, "current_gt_s"), ==, 2.5);
  g_assert_cmpint (json_object_get_int_member (hop, "current_width"), ==, 1);
  g_assert_false (json_object_has_member (object, "notes"));
}

static void
test_describe (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;

  if (!have_device ())
    return;

  object = duel_device_describe (nvme_device (), &error);
  g_assert_no_error (error);
  check_described (object);
}

/* In a sandbox the namespace's node is missing and the run has UDisks'
 * descriptor: the identity and the health come through that descriptor.
 * Here a child opens the namespace as UDisks would (O_RDWR, O_DIRECT,
 * O_EXCL), then hides /dev under an empty tmpfs in a mount namespace of
 * its own. */
static void
describe_hidden_child (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) without = NULL;
  g_autoptr(JsonObject) with = NULL;
  g_autoptr(DuelDeviceSnapshot) snapshot = NULL;
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  DuelNvmeController controller;
  JsonArray *notes;
  struct stat st;
  int fd;

  fd = open (nvme_device (), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (unshare (CLONE_NEWNS), ==, 0);
  g_assert_cmpint (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), ==, 0);
  g_assert_cmpint (mount ("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k"), ==, 0);
  g_assert_cmpint (stat (nvme_device (), &st), !=, 0);

  /* Without the descriptor: what sysfs tells, and a note of why no more. */
  without = duel_device_describe (nvme_device (), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (without, "model"), ==, QEMU_MODEL);
  g_assert_false (json_object_has_member (without, "nvme"));
  notes = json_object_get_array_member (without, "notes");
  g_assert_nonnull (notes);
  g_assert_nonnull (strstr (json_array_get_string_element (notes, 0), "is not visible in this sandbox"));

  /* With it: all of it, as with the node. */
  with = duel_device_describe_with_fd (nvme_device (), fd, &error);
  g_assert_no_error (error);
  check_described (with);
  snapshot = duel_device_snapshot_take_with_fd (nvme_device (), fd, &error);
  g_assert_no_error (error);
  g_assert_true (snapshot->has_health);
  g_assert_cmpfloat_with_epsilon (snapshot->temperature_c, QEMU_TEMPERATURE_C, 0.01);

  /* The reader keeps a copy: closing the run's descriptor does not end it. */
  nvme = duel_device_nvme_open_fd (nvme_device (), fd, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_cmpuint (duel_device_nvme_get_nsid (nvme), ==, 1);
  g_assert_true (duel_device_nvme_identify_controller (nvme, &controller, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (controller.serial, ==, expected_serial ());
}

static void
test_describe_hidden (void)
{
  int status;
  pid_t pid;

  if (!have_device ())
    return;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      describe_hidden_child ();
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
test_cli_info (void)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonObject) object = NULL;

  if (!have_device ())
    return;
  if (cli == NULL)
    {
      g_test_skip ("DRIVEDUEL_CLI is not set");
      return;
    }

  {
    const char *argv[] = { cli, "info", "--json", nvme_device (), NULL };

    g_assert_cmpint (run_command (argv, &out, &err), ==, 0);
  }
  object = parse_object (out);
  check_described (object);
  /* A clean namespace: writing needs --destructive and nothing else. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "write_check"), "verdict"),
                   ==, "needs-destructive");
}

/* ------------------------------------------------------------------ safety */

static void
test_safety_clean (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autoptr(DuelSafetyReport) allowed = NULL;

  if (!have_device ())
    return;
  wipe_start ();

  g_assert_false (duel_safety_check_write (nvme_device (), DUEL_SAFETY_FLAGS_NONE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
  g_assert_cmpstr (report->model, ==, QEMU_MODEL);
  g_assert_cmpstr (report->serial, ==, expected_serial ());
  g_assert_nonnull (strstr (error->message, expected_serial ()));
  g_assert_null (report->signature);
  g_clear_error (&error);

  g_assert_true (duel_safety_check_write (nvme_device (), DUEL_SAFETY_DESTRUCTIVE, &allowed, &error));
  g_assert_no_error (error);
  g_assert_cmpint (allowed->verdict, ==, DUEL_SAFETY_ALLOWED);
}

static void
make_ext2 (const char *device)
{
  const char *argv[] = { "mke2fs", "-L", "duelguest", device, NULL };

  g_assert_true (run_quiet (argv));
}

static void
test_safety_signature_and_mount (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *sum_before = NULL;
  g_autofree char *sum_after = NULL;

  if (!have_device ())
    return;

  make_ext2 (nvme_device ());
  g_assert_false (duel_safety_check_write (nvme_device (), DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HAS_SIGNATURE);
  g_assert_cmpstr (report->signature, ==, "ext2");
  g_assert_cmpstr (report->signature_label, ==, "duelguest");
  g_assert_nonnull (strstr (error->message, "ext2"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  g_mkdir_with_parents (MOUNT_DIR, 0755);
  {
    /* Read-only: an ext2 mounted read-write by the ext4 driver changes under us. */
    const char *mount_argv[] = { "mount", "-o", "ro", nvme_device (), MOUNT_DIR, NULL };
    const char *umount_argv[] = { "umount", MOUNT_DIR, NULL };

    /* Mounting may write the superblock: compare while mounted. */
    g_assert_true (run_quiet (mount_argv));
    sum_before = device_sha256 (nvme_device ());
    g_assert_false (duel_safety_check_write (nvme_device (), DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                             &report, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
    g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_MOUNTED);
    g_assert_nonnull (strstr (error->message, MOUNT_DIR));
    sum_after = device_sha256 (nvme_device ());
    g_assert_true (run_quiet (umount_argv));
  }
  g_assert_cmpstr (sum_before, ==, sum_after);
}

/* An MBR with two partitions: half for an ext2 filesystem, half for swap. */
static void
write_two_partitions (void)
{
  guint8 mbr[512] = { 0 };
  guint64 size = 0;
  guint32 sectors, half;
  int fd = open (nvme_device (), O_RDWR | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ioctl (fd, BLKGETSIZE64, &size), ==, 0);
  sectors = (guint32) (size / 512);
  half = (sectors - 2048) / 2;
  for (guint i = 0; i < 2; i++)
    {
      guint8 *entry = mbr + 446 + 16 * i;
      guint32 start = 2048 + i * half;
      guint32 start_le = GUINT32_TO_LE (start);
      guint32 count_le = GUINT32_TO_LE (half);

      entry[4] = i == 0 ? 0x83 : 0x82;
      memcpy (entry + 8, &start_le, 4);
      memcpy (entry + 12, &count_le, 4);
    }
  mbr[510] = 0x55;
  mbr[511] = 0xaa;
  g_assert_cmpint (pwrite (fd, mbr, sizeof mbr, 0), ==, sizeof mbr);
  g_assert_cmpint (fsync (fd), ==, 0);
  g_assert_cmpint (ioctl (fd, BLKRRPART), ==, 0);
  close (fd);
}

static void
wait_for_node (const char *path)
{
  /* A cap (60 s) for a node that never comes. */
  for (guint i = 0; i < 6000 && !g_file_test (path, G_FILE_TEST_EXISTS); i++)
    g_usleep (10000);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

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

/* Copies the tree with the capture script and replays it; with
 * DUEL_CAPTURE_EXPORT the tree goes to stdout as base64 TAP comments. */
static void
capture_and_replay (void)
{
  const char *script = g_getenv ("DUEL_CAPTURE_SCRIPT");
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *live = NULL;
  g_autofree char *replayed = NULL;
  const char *dir = "/tmp/duel-capture";

  if (script == NULL || cli == NULL)
    {
      g_test_skip ("no DUEL_CAPTURE_SCRIPT or DRIVEDUEL_CLI: not capturing");
      return;
    }
  {
    const char *argv[] = { "sh", script, dir, cli, "list", "--all", "--json", NULL };

    g_assert_true (run_quiet (argv));
  }
  live = enumerate_json ("/");
  replayed = enumerate_json (dir);
  g_assert_cmpstr (live, ==, replayed);

  if (g_getenv ("DUEL_CAPTURE_EXPORT") != NULL)
    {
      g_autoptr(DuelDeviceNvme) nvme = duel_device_nvme_open (nvme_device (), NULL);
      const char *pages[] = { "id-ctrl", "id-ns", "smart" };
      const char *tar_argv[] = { "sh", "-c", "cd /tmp/duel-capture && tar -cf - . | gzip -9 | base64", NULL };
      g_autofree char *out = NULL;
      g_auto(GStrv) lines = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
        {
          guint8 buffer[DUEL_NVME_IDENTIFY_BYTES] = { 0 };
          g_autofree char *name = g_strdup_printf ("%s/qemu-%s.bin", dir, pages[i]);

          g_assert_true (duel_device_nvme_read_raw (nvme, pages[i], buffer, NULL));
          g_assert_true (g_file_set_contents (name, (char *) buffer,
                                              strcmp (pages[i], "smart") == 0 ? DUEL_NVME_SMART_LOG_BYTES
                                                                              : DUEL_NVME_IDENTIFY_BYTES, NULL));
        }
      g_assert_cmpint (run_command (tar_argv, &out, NULL), ==, 0);
      lines = g_strsplit (out, "\n", -1);
      printf ("# CAPTURE-BEGIN\n");
      for (guint i = 0; lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          printf ("# %s\n", lines[i]);
      printf ("# CAPTURE-END\n");
      fflush (stdout);
    }
}

static void
test_safety_partitions (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autofree char *p1 = g_strdup_printf ("%sp1", nvme_device ());
  g_autofree char *p2 = g_strdup_printf ("%sp2", nvme_device ());
  g_autofree char *sum_before = NULL;
  g_autofree char *sum_after = NULL;
  const char *mount_argv[] = { "mount", "-o", "ro", p1, MOUNT_DIR, NULL };
  const char *umount_argv[] = { "umount", MOUNT_DIR, NULL };
  const char *mkswap_argv[] = { "mkswap", p2, NULL };
  const char *swapon_argv[] = { "swapon", p2, NULL };
  const char *swapoff_argv[] = { "swapoff", p2, NULL };

  if (!have_device ())
    return;

  wipe_start ();
  write_two_partitions ();
  wait_for_node (p1);
  wait_for_node (p2);
  make_ext2 (p1);
  g_assert_true (run_quiet (mkswap_argv));
  g_mkdir_with_parents (MOUNT_DIR, 0755);
  g_assert_true (run_quiet (mount_argv));
  g_assert_true (run_quiet (swapon_argv));
  sum_before = device_sha256 (nvme_device ());

  /* The whole disk: a partition is mounted. */
  g_assert_false (duel_safety_check_write (nvme_device (), DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_MOUNTED);
  g_assert_nonnull (strstr (error->message, "nvme0n1p1"));
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  /* The swap partition on its own. */
  g_assert_false (duel_safety_check_write (p2, DUEL_SAFETY_DESTRUCTIVE | DUEL_SAFETY_WIPE_SIGNATURES,
                                           &report, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED);
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_SWAP);
  g_assert_cmpstr (report->partition, ==, "nvme0n1p2");
  g_assert_cmpstr (report->device_name, ==, "nvme0n1");
  g_clear_error (&error);
  g_clear_pointer (&report, duel_safety_report_free);

  capture_and_replay ();

  sum_after = device_sha256 (nvme_device ());
  g_assert_true (run_quiet (swapoff_argv));
  g_assert_true (run_quiet (umount_argv));
  g_assert_cmpstr (sum_before, ==, sum_after);

  /* Unmounted, the partition table alone still needs --wipe-signatures. */
  g_assert_false (duel_safety_check_write (nvme_device (), DUEL_SAFETY_DESTRUCTIVE, &report, &error));
  g_assert_cmpint (report->verdict, ==, DUEL_SAFETY_HAS_SIGNATURE);
  g_assert_cmpstr (report->signature, ==, "dos");
  g_clear_error (&error);
  wipe_start ();
}

static void
test_cli_run (void)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *device;
  const char *result = "/tmp/duel-nvme-run.json";

  if (!have_device ())
    return;
  if (cli == NULL)
    {
      g_test_skip ("DRIVEDUEL_CLI is not set");
      return;
    }

  wipe_start ();
  {
    const char *argv[] = { cli, "run", "--rw", "randwrite", "--destructive", "--bs", "4k", "--iodepth", "8",
                           "--runtime", "2", "--interval-ms", "500", "-o", result, nvme_device (), NULL };
    int code = run_command (argv, &out, &err);

    g_test_message ("run: %s%s", out, err);
    g_assert_cmpint (code, ==, 0);
  }
  json_parser_load_from_file (parser, result, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "device"));
  device = json_object_get_object_member (root, "device");
  g_assert_cmpstr (json_object_get_string_member (device, "serial"), ==, expected_serial ());
  g_assert_true (json_object_has_member (device, "health_delta"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (device, "health_delta"),
                                               "data_written_bytes"), >, 0);
}

/* Bytes @length at @offset of the namespace all equal @value (read past the page cache). */
static gboolean
reads_as (int      fd,
          guint64  offset,
          gsize    length,
          guint8   value)
{
  g_autofree guint8 *buffer = g_malloc (length);

  g_assert_cmpint (pread (fd, buffer, length, offset), ==, (gssize) length);
  for (gsize i = 0; i < length; i++)
    if (buffer[i] != value)
      return FALSE;
  return TRUE;
}

/* SNIA's purge: Format NVM with user data erase leaves the namespace's
 * size and block size as they were and every block read as zeros (what
 * QEMU's controller erases to); data written before it is gone. */
static void
test_format_erase (void)
{
  g_autofree guint8 *pattern = g_malloc (MiB);
  g_autoptr(DuelDeviceNvme) nvme = NULL;
  g_autoptr(GError) error = NULL;
  DuelNvmeNamespace before, after;
  guint64 size = 0;
  int fd;

  if (!have_device ())
    return;
  fd = open (nvme_device (), O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ioctl (fd, BLKGETSIZE64, &size), ==, 0);
  memset (pattern, 0xa5, MiB);
  g_assert_cmpint (pwrite (fd, pattern, MiB, 0), ==, MiB);
  g_assert_cmpint (pwrite (fd, pattern, MiB, size - MiB), ==, MiB);
  g_assert_cmpint (fsync (fd), ==, 0);
  g_assert_cmpint (ioctl (fd, BLKFLSBUF, 0), ==, 0);
  g_assert_true (reads_as (fd, 0, MiB, 0xa5));

  nvme = duel_device_nvme_open_fd (nvme_device (), fd, &error);
  g_assert_no_error (error);
  g_assert_true (duel_device_nvme_identify_namespace (nvme, &before, &error));
  g_assert_true (duel_device_nvme_format_erase (nvme, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ioctl (fd, BLKFLSBUF, 0), ==, 0);
  g_assert_true (reads_as (fd, 0, MiB, 0));
  g_assert_true (reads_as (fd, size - MiB, MiB, 0));
  g_assert_true (duel_device_nvme_identify_namespace (nvme, &after, &error));
  g_assert_cmpuint (after.size_blocks, ==, before.size_blocks);
  g_assert_cmpuint (after.block_bytes, ==, before.block_bytes);
  g_assert_cmpuint (after.format_index, ==, before.format_index);
  close (fd);
}

/* A SNIA test on the whole namespace purges it by a format and says so;
 * the same test on part of it trims, and says that. */
static void
test_cli_pts_purge (void)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  const char *result = "/tmp/duel-nvme-pts.json";

  if (!have_device ())
    return;
  if (cli == NULL)
    {
      g_test_skip ("DRIVEDUEL_CLI is not set");
      return;
    }
  for (guint whole = 0; whole < 2; whole++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonArray *tests;
      const char *method = NULL;

      wipe_start ();
      {
        const char *argv[] = { cli, "run", "--preset", "pts-latency", "--destructive", "--runtime", "0.2",
                               "--interval-ms", "100", "--rounds", "5", "--block-sizes", "4k", "--mixes", "0",
                               "--overwrite-output", "-o", result,
                               whole ? nvme_device () : "--span", whole ? NULL : "32m", nvme_device (), NULL };
        int code = run_command (argv, &out, &err);

        g_test_message ("run: %s%s", out, err);
        g_assert_cmpint (code, ==, 0);
      }
      json_parser_load_from_file (parser, result, &error);
      g_assert_no_error (error);
      tests = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests");
      for (guint i = 0; i < json_array_get_length (tests) && method == NULL; i++)
        {
          JsonObject *summary = json_object_get_object_member (json_array_get_object_element (tests, i), "summary");
          JsonObject *details = summary != NULL && json_object_has_member (summary, "details")
                                ? json_object_get_object_member (summary, "details") : NULL;

          if (details != NULL && json_object_has_member (details, "discard"))
            method = json_object_get_string_member (json_object_get_object_member (details, "discard"), "method");
        }
      g_assert_cmpstr (method, ==, whole ? "nvme-format" : "BLKDISCARD");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/duel/nvme/identify", test_identify);
  g_test_add_func ("/duel/nvme/identify-ioctl", test_identify_ioctl);
  g_test_add_func ("/duel/nvme/sysfs", test_sysfs);
  g_test_add_func ("/duel/nvme/errors", test_errors);
  g_test_add_func ("/duel/nvme/smart-delta", test_smart_delta);
  g_test_add_func ("/duel/nvme/thermometer", test_thermometer);
  g_test_add_func ("/duel/nvme/describe", test_describe);
  g_test_add_func ("/duel/nvme/describe-hidden", test_describe_hidden);
  g_test_add_func ("/duel/nvme/cli-info", test_cli_info);
  g_test_add_func ("/duel/nvme/safety-clean", test_safety_clean);
  g_test_add_func ("/duel/nvme/safety-signature-and-mount", test_safety_signature_and_mount);
  g_test_add_func ("/duel/nvme/safety-partitions", test_safety_partitions);
  g_test_add_func ("/duel/nvme/cli-run", test_cli_run);
  g_test_add_func ("/duel/nvme/format-erase", test_format_erase);
  g_test_add_func ("/duel/nvme/cli-pts-purge", test_cli_pts_purge);

  return g_test_run ();
}
