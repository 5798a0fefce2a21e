/* test-device-sysfs.c — the sysfs readers against captured and hand-made trees
 *
 * tests/data/sysfs/ holds trees captured from real machines (this host's
 * virtio, loop and zram devices; the QEMU guest's NVMe namespace) with the
 * enumerator's output at capture time, and hand-made trees for what no
 * machine here has (a Gen3 x4 link behind a switch; SATA, USB, SD). See the
 * README there. Also: the link ceilings, mount tables, and NVMe pages
 * captured from the guest's controller.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "device/duel-device.h"
#include "device/duel-device-link.h"
#include "device/duel-device-mounts.h"
#include "device/duel-device-nvme.h"
#include "duel-error.h"
#include "test-dir.h"

static char *
tree (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "sysfs", name, NULL);
}

static char *
enumerate_json (const char *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = duel_device_enumerate (root, &error);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_assert_no_error (error);
  node = duel_device_list_to_json (devices);
  /* As `driveduel-cli list --all --json` prints it. */
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static DuelDevice *
find_device (GPtrArray  *devices,
             const char *name)
{
  for (guint i = 0; i < devices->len; i++)
    {
      if (strcmp (duel_device_get_name (g_ptr_array_index (devices, i)), name) == 0)
        return g_ptr_array_index (devices, i);
    }
  g_assert_not_reached ();
}

static GPtrArray *
enumerate (const char *name)
{
  g_autofree char *root = tree (name);
  g_autoptr(GError) error = NULL;
  GPtrArray *devices = duel_device_enumerate (root, &error);

  g_assert_no_error (error);
  g_assert_nonnull (devices);
  return devices;
}

/* Every tree replays to what the enumerator said when it was captured. */
static void
test_golden (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "sysfs", NULL);
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_trees = 0;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *root = g_build_filename (dir, name, NULL);
      g_autofree char *expected_path = g_build_filename (root, "expected.json", NULL);
      g_autofree char *expected = NULL;
      g_autofree char *actual = NULL;

      if (!g_file_test (expected_path, G_FILE_TEST_IS_REGULAR))
        continue;
      g_test_message ("tree %s", name);
      g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
      g_strchomp (expected);
      actual = enumerate_json (root);
      g_assert_cmpstr (actual, ==, expected);
      n_trees++;
    }
  g_assert_cmpuint (n_trees, >=, 4);
}

static void
test_host_capture (void)
{
  g_autoptr(GPtrArray) devices = enumerate ("host-virtio-loop-zram");
  DuelDevice *vda = find_device (devices, "vda");
  DuelDevice *zram = find_device (devices, "zram2");
  DuelDevice *loop = find_device (devices, "loop2");
  const DuelDeviceLink *link;

  g_assert_cmpint (duel_device_get_transport (vda), ==, DUEL_TRANSPORT_VIRTIO);
  g_assert_cmpstr (duel_device_get_serial (vda), ==, "overlayblk");
  g_assert_cmpstr (duel_device_get_mount_points (vda)[0], ==, "/");
  g_assert_cmpuint (duel_device_get_logical_block_size (vda), ==, 512);
  g_assert_cmpuint (duel_device_get_physical_block_size (vda), ==, 4096);
  g_assert_true (duel_device_is_in_use (vda));
  /* A virtio disk straight on the root bus: no root port, no link speed. */
  link = duel_device_get_link (vda);
  g_assert_cmpint (link->kind, ==, DUEL_LINK_PCIE);
  g_assert_cmpuint (link->hops->len, ==, 1);
  g_assert_cmpfloat (link->ceiling_bytes_per_second, ==, 0);

  g_assert_cmpint (duel_device_get_transport (zram), ==, DUEL_TRANSPORT_ZRAM);
  g_assert_true (duel_device_get_swap (zram));
  g_assert_cmpuint (duel_device_get_size_bytes (zram), ==, 64 * 1024 * 1024);
  g_assert_cmpint (duel_device_get_link (zram)->kind, ==, DUEL_LINK_NONE);

  g_assert_cmpint (duel_device_get_transport (loop), ==, DUEL_TRANSPORT_LOOP);
  g_assert_cmpstr (duel_device_get_backing_file (loop), ==, "/tmp/dd/cap-ext4.img");
  g_assert_cmpstr (duel_device_get_mount_points (loop)[0], ==, "/tmp/dd/capture-mnt");
}

static void
test_qemu_nvme_capture (void)
{
  g_autoptr(GPtrArray) devices = enumerate ("qemu-nvme");
  DuelDevice *nvme = find_device (devices, "nvme0n1");
  const DuelDeviceLink *link = duel_device_get_link (nvme);
  const DuelPcieHop *endpoint, *port;
  GPtrArray *partitions = duel_device_get_partitions (nvme);
  const DuelDevicePartition *p1, *p2;

  g_assert_cmpint (duel_device_get_transport (nvme), ==, DUEL_TRANSPORT_NVME);
  g_assert_cmpstr (duel_device_get_model (nvme), ==, "QEMU NVMe Ctrl");
  g_assert_cmpstr (duel_device_get_serial (nvme), ==, "NVMEVM0000");
  g_assert_cmpstr (duel_device_get_controller (nvme), ==, "nvme0");
  g_assert_cmpuint (duel_device_get_nsid (nvme), ==, 1);
  g_assert_cmpuint (duel_device_get_size_bytes (nvme), ==, 64 * 1024 * 1024);

  g_assert_cmpuint (link->hops->len, ==, 2);
  endpoint = &g_array_index (link->hops, DuelPcieHop, 0);
  port = &g_array_index (link->hops, DuelPcieHop, 1);
  g_assert_cmpstr (endpoint->address, ==, "0000:01:00.0");
  g_assert_cmpfloat (endpoint->current_gt_s, ==, 2.5);
  g_assert_cmpuint (endpoint->current_width, ==, 1);
  g_assert_cmpstr (port->address, ==, "0000:00:01.0");
  g_assert_cmpfloat (port->max_gt_s, ==, 16.0);
  g_assert_cmpuint (port->max_width, ==, 4);
  g_assert_false (link->downtrained);
  g_assert_cmpfloat_with_epsilon (link->ceiling_bytes_per_second, 250e6, 1);

  /* Captured with p1 (ext2) mounted and p2 as swap. */
  g_assert_cmpuint (partitions->len, ==, 2);
  p1 = g_ptr_array_index (partitions, 0);
  p2 = g_ptr_array_index (partitions, 1);
  g_assert_cmpstr (p1->name, ==, "nvme0n1p1");
  g_assert_cmpuint (p1->start_bytes, ==, 2048 * 512);
  g_assert_cmpstr (p1->mount_points[0], ==, "/tmp/duel-nvme-mnt");
  g_assert_false (p1->swap);
  g_assert_cmpstr (p2->name, ==, "nvme0n1p2");
  g_assert_true (p2->swap);
  g_assert_true (duel_device_is_in_use (nvme));
}

static void
test_pcie_switch (void)
{
  g_autofree char *root = tree ("synthetic-pcie-switch");
  g_autoptr(GPtrArray) devices = enumerate ("synthetic-pcie-switch");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDevice) by_number = NULL;
  g_autoptr(DuelDevice) by_name = NULL;
  g_autofree char *partition = NULL;
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  DuelDevice *nvme = find_device (devices, "nvme0n1");
  DuelDevice *dm = find_device (devices, "dm-0");
  const DuelDeviceLink *link = duel_device_get_link (nvme);
  const DuelDevicePartition *p1, *p2;

  g_assert_cmpuint (link->hops->len, ==, 4);
  g_assert_cmpstr (g_array_index (link->hops, DuelPcieHop, 0).address, ==, "0000:03:00.0");
  g_assert_cmpstr (g_array_index (link->hops, DuelPcieHop, 3).address, ==, "0000:00:01.1");
  g_assert_cmpstr (link->root_bus, ==, "0000:00");
  /* PCIe 3.0 x4: 8 GT/s × 4 × 128/130 ÷ 8 */
  g_assert_cmpfloat_with_epsilon (link->ceiling_bytes_per_second, 3938461538.46, 1);
  /* A Gen4 drive behind a Gen3 switch port. */
  g_assert_true (link->downtrained);
  g_assert_nonnull (strstr (link->downtrained_reason, "at most 8.0 GT/s"));
  /* The switch's uplink is x4 of its x8. */
  g_assert_true (g_array_index (link->hops, DuelPcieHop, 2).below_max);
  g_assert_false (g_array_index (link->hops, DuelPcieHop, 1).below_max);

  text = duel_device_link_describe (link);
  g_assert_nonnull (strstr (text, "root port, bus 0000:00"));
  g_assert_nonnull (strstr (text, "3938 MB/s"));

  g_assert_false (duel_device_link_is_cache_artefact (link, 3.5e9, NULL));
  g_assert_true (duel_device_link_is_cache_artefact (link, 6.8e9, &message));
  g_assert_nonnull (strstr (message, "3938"));

  g_assert_cmpstr (duel_device_get_model (nvme), ==, "Samsung SSD 980 PRO 1TB");
  g_assert_cmpstr (duel_device_get_serial (nvme), ==, "S5GXNF0R000000X");
  g_assert_cmpstr (duel_device_get_firmware (nvme), ==, "5B2QGXA7");
  p1 = duel_device_find_partition (nvme, "nvme0n1p1");
  p2 = duel_device_find_partition (nvme, "nvme0n1p2");
  g_assert_cmpstr (p1->mount_points[0], ==, "/boot/efi");
  g_assert_cmpstr (p1->mount_points[1], ==, "/mnt/efi copy");
  g_assert_cmpstr (p2->holders[0], ==, "dm-0");
  g_assert_cmpuint (p2->start_bytes, ==, 1050624ull * 512);
  g_assert_true (duel_device_is_in_use (nvme));
  g_assert_cmpstr (duel_device_get_mount_points (dm)[0], ==, "/");

  by_number = duel_device_new_for_devnum (root, 259, 2, &partition, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (duel_device_get_name (by_number), ==, "nvme0n1");
  g_assert_cmpstr (partition, ==, "nvme0n1p2");
  by_name = duel_device_new_for_name (root, "nvme0n1p1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (duel_device_get_name (by_name), ==, "nvme0n1");

  g_assert_null (duel_device_new_for_devnum (root, 8, 0, NULL, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_TARGET);
}

static void
test_sata_usb_mmc (void)
{
  g_autoptr(GPtrArray) devices = enumerate ("synthetic-sata-usb-mmc");
  DuelDevice *sda = find_device (devices, "sda");
  DuelDevice *sdb = find_device (devices, "sdb");
  DuelDevice *sdc = find_device (devices, "sdc");
  DuelDevice *mmc = find_device (devices, "mmcblk0");

  g_assert_cmpint (duel_device_get_transport (sda), ==, DUEL_TRANSPORT_SATA);
  g_assert_cmpstr (duel_device_get_model (sda), ==, "Samsung SSD 860 EVO 500GB");
  /* From the binary VPD page 0x80. */
  g_assert_cmpstr (duel_device_get_serial (sda), ==, "S3Z1NB0K000000A");
  g_assert_cmpstr (duel_device_get_firmware (sda), ==, "4B6Q");
  g_assert_cmpint (duel_device_get_link (sda)->kind, ==, DUEL_LINK_SATA);
  g_assert_cmpfloat_with_epsilon (duel_device_get_link (sda)->ceiling_bytes_per_second, 600e6, 1);
  g_assert_cmpstr (duel_device_find_partition (sda, "sda1")->mount_points[0], ==, "/");

  g_assert_true (duel_device_get_rotational (sdb));
  g_assert_cmpfloat_with_epsilon (duel_device_get_link (sdb)->ceiling_bytes_per_second, 300e6, 1);
  g_assert_null (duel_device_get_serial (sdb));

  g_assert_cmpint (duel_device_get_transport (sdc), ==, DUEL_TRANSPORT_USB);
  g_assert_cmpint (duel_device_get_link (sdc)->kind, ==, DUEL_LINK_USB);
  g_assert_cmpfloat_with_epsilon (duel_device_get_link (sdc)->line_rate_gbps, 5.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (duel_device_get_link (sdc)->ceiling_bytes_per_second, 500e6, 1);

  g_assert_cmpint (duel_device_get_transport (mmc), ==, DUEL_TRANSPORT_MMC);
  g_assert_true (duel_device_get_removable (mmc));
  g_assert_cmpstr (duel_device_get_model (mmc), ==, "SC64G");
  g_assert_cmpint (duel_device_get_link (mmc)->kind, ==, DUEL_LINK_MMC);
  g_assert_cmpstr (duel_device_find_partition (mmc, "mmcblk0p1")->mount_points[0], ==, "/media/user/SD CARD");
  /* A swap file is not a swap device. */
  for (guint i = 0; i < devices->len; i++)
    g_assert_false (duel_device_get_swap (g_ptr_array_index (devices, i)));
}

static void
test_ceilings (void)
{
  g_assert_cmpfloat_with_epsilon (duel_pcie_ceiling_bytes_per_second (2.5, 1), 250e6, 1);
  g_assert_cmpfloat_with_epsilon (duel_pcie_ceiling_bytes_per_second (5.0, 4), 2000e6, 1);
  g_assert_cmpfloat_with_epsilon (duel_pcie_ceiling_bytes_per_second (8.0, 4), 3938.4615e6, 1e3);
  g_assert_cmpfloat_with_epsilon (duel_pcie_ceiling_bytes_per_second (16.0, 4), 7876.923e6, 1e3);
  g_assert_cmpfloat_with_epsilon (duel_pcie_ceiling_bytes_per_second (32.0, 4), 15753.846e6, 1e3);
  g_assert_cmpfloat (duel_pcie_ceiling_bytes_per_second (8.0, 0), ==, 0);
  g_assert_cmpfloat (duel_pcie_ceiling_bytes_per_second (0, 4), ==, 0);
  g_assert_cmpfloat_with_epsilon (duel_sata_ceiling_bytes_per_second (6.0), 600e6, 1);
  g_assert_cmpfloat_with_epsilon (duel_sata_ceiling_bytes_per_second (1.5), 150e6, 1);
  g_assert_cmpfloat_with_epsilon (duel_usb_ceiling_bytes_per_second (5.0), 500e6, 1);
  g_assert_cmpfloat_with_epsilon (duel_usb_ceiling_bytes_per_second (10.0), 1212.1212e6, 1e3);
  g_assert_cmpfloat_with_epsilon (duel_usb_ceiling_bytes_per_second (0.48), 60e6, 1);

  g_assert_cmpfloat (duel_pcie_parse_speed ("8.0 GT/s PCIe"), ==, 8.0);
  g_assert_cmpfloat (duel_pcie_parse_speed ("2.5 GT/s"), ==, 2.5);
  g_assert_cmpfloat (duel_pcie_parse_speed ("Unknown"), ==, 0);
  g_assert_cmpfloat (duel_pcie_parse_speed (NULL), ==, 0);
  g_assert_cmpstr (duel_pcie_generation_name (8.0), ==, "PCIe 3.0");
  g_assert_cmpstr (duel_pcie_generation_name (16.0), ==, "PCIe 4.0");
  g_assert_null (duel_pcie_generation_name (3.0));
}

static void
test_mounts (void)
{
  g_autofree char *root = tree ("synthetic-pcie-switch");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load (root, &error);
  g_autofree char *unescaped = duel_device_mounts_unescape ("/a\\040b\\011c\\134d\\012");
  g_auto(GStrv) points = NULL;
  const DuelDeviceMount *mount;

  g_assert_no_error (error);
  g_assert_cmpuint (duel_device_mounts_get_n_mounts (mounts), ==, 3);
  g_assert_cmpstr (unescaped, ==, "/a b\tc\\d\n");

  points = duel_device_mounts_find_mount_points (mounts, 259, 1);
  g_assert_cmpuint (g_strv_length (points), ==, 2);
  mount = duel_device_mounts_find_for_path (mounts, "/boot/efi/EFI/BOOT/bootx64.efi");
  g_assert_cmpstr (mount->mount_point, ==, "/boot/efi");
  g_assert_cmpstr (mount->fstype, ==, "vfat");
  mount = duel_device_mounts_find_for_path (mounts, "/boot/efiX");
  g_assert_cmpstr (mount->mount_point, ==, "/");
  g_assert_cmpstr (mount->source, ==, "/dev/mapper/vg0-root");

  g_clear_pointer (&mounts, duel_device_mounts_free);
  mounts = duel_device_mounts_load ("/nonexistent-root", &error);
  g_assert_null (mounts);
  g_assert_nonnull (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *empty = g_dir_make_tmp ("duel-sysfs-XXXXXX", &error);
  g_autofree char *proc = NULL;

  g_assert_no_error (error);
  g_assert_null (duel_device_enumerate ("/nonexistent-root", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* A root with a mount table but no sysfs. */
  proc = g_build_filename (empty, "proc", "self", NULL);
  g_assert_cmpint (g_mkdir_with_parents (proc, 0755), ==, 0);
  {
    g_autofree char *mountinfo = g_build_filename (proc, "mountinfo", NULL);

    g_assert_true (g_file_set_contents (mountinfo, "", 0, NULL));
  }
  g_assert_null (duel_device_enumerate (empty, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_null (duel_device_new_for_name (empty, "sda", &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_TARGET);
  test_dir_remove (empty);
}

static GBytes *
read_page (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "nvme", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

/* Pages the guest's emulated controller returned (QEMU 7.2, serial NVMEVM0000). */
static void
test_nvme_pages (void)
{
  g_autoptr(GBytes) id_ctrl = read_page ("qemu-id-ctrl.bin");
  g_autoptr(GBytes) id_ns = read_page ("qemu-id-ns.bin");
  g_autoptr(GBytes) smart = read_page ("qemu-smart.bin");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autofree char *version = NULL;
  DuelNvmeController controller;
  DuelNvmeNamespace ns;
  DuelNvmeHealth health;
  gsize length;
  const guint8 *data;

  data = g_bytes_get_data (id_ctrl, &length);
  g_assert_true (duel_nvme_controller_parse (data, length, &controller, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (controller.model, ==, "QEMU NVMe Ctrl");
  g_assert_cmpstr (controller.serial, ==, "NVMEVM0000");
  g_assert_cmpstr (controller.firmware, ==, "7.2.22");
  g_assert_cmphex (controller.vendor_id, ==, 0x1b36);
  g_assert_cmphex (controller.subsystem_vendor_id, ==, 0x1af4);
  g_assert_cmphex (controller.oacs, ==, 0x10a);
  g_assert_true (duel_nvme_controller_supports_format (&controller));
  g_assert_false (duel_nvme_controller_supports_sanitize (&controller));
  g_assert_true (duel_nvme_controller_has_volatile_write_cache (&controller));
  g_assert_cmpuint (controller.mdts, ==, 7);
  g_assert_cmpuint (controller.n_namespaces, ==, 256);
  g_assert_cmpstr (controller.subnqn, ==, "nqn.2019-08.org.qemu:NVMEVM0000");
  version = duel_nvme_controller_version_string (&controller);
  g_assert_cmpstr (version, ==, "1.4");
  object = duel_nvme_controller_to_json (&controller);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "warning_temperature_c"), 69.85, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "critical_temperature_c"), 99.85, 1e-9);

  data = g_bytes_get_data (id_ns, &length);
  g_assert_true (duel_nvme_namespace_parse (data, length, 1, &ns, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ns.size_blocks, ==, 64 * 1024 * 1024 / 512);
  g_assert_cmpuint (ns.n_formats, ==, 8);
  g_assert_cmpuint (ns.block_bytes, ==, 512);
  g_assert_cmpuint (ns.metadata_bytes, ==, 0);

  data = g_bytes_get_data (smart, &length);
  g_assert_true (duel_nvme_health_parse (data, length, &health, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (health.temperature_c, 49.85, 1e-9);
  g_assert_cmpuint (health.critical_warning, ==, 0);
  g_assert_cmpuint (health.available_spare_percent, ==, 0);
  g_assert_cmpuint (health.media_errors, ==, 0);
  /* The capture happened after the guest test had written to the namespace. */
  g_assert_cmpuint (health.data_units_written, >, 0);
  g_assert_cmpuint (health.host_write_commands, >, 0);
  g_assert_true (isnan (health.sensor_c[0]));

  /* A short page is a format error, not a crash. */
  g_assert_false (duel_nvme_health_parse (data, 100, &health, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
}

/* 128-bit counters and the temperature field at their byte offsets. */
static void
test_nvme_smart_layout (void)
{
  guint8 page[DUEL_NVME_SMART_LOG_BYTES] = { 0 };
  g_autoptr(GError) error = NULL;
  DuelNvmeHealth health;

  page[0] = 0x06;                         /* critical warning: temperature, reliability */
  page[1] = 0x5c; page[2] = 0x01;         /* 348 K */
  page[3] = 97; page[4] = 10; page[5] = 3;
  page[48] = 0x10; page[49] = 0x27;       /* data units written = 10000 */
  page[128] = 42;                         /* power-on hours */
  page[160] = 1;                          /* media errors: 1 + 2^64 saturates */
  page[168] = 1;
  page[200] = 0x5a; page[201] = 0x01;     /* sensor 1: 346 K */
  page[216] = 7;                          /* thermal transitions 1 */
  page[224] = 0x2c; page[225] = 0x01;     /* 300 s */

  g_assert_true (duel_nvme_health_parse (page, sizeof page, &health, &error));
  g_assert_cmpuint (health.critical_warning, ==, 6);
  g_assert_cmpfloat_with_epsilon (health.temperature_c, 74.85, 1e-9);
  g_assert_cmpuint (health.available_spare_percent, ==, 97);
  g_assert_cmpuint (health.available_spare_threshold_percent, ==, 10);
  g_assert_cmpuint (health.percentage_used, ==, 3);
  g_assert_cmpuint (health.data_units_written, ==, 10000);
  g_assert_cmpuint (health.power_on_hours, ==, 42);
  g_assert_cmpuint (health.media_errors, ==, G_MAXUINT64);
  g_assert_cmpfloat_with_epsilon (health.sensor_c[0], 72.85, 1e-9);
  g_assert_true (isnan (health.sensor_c[1]));
  g_assert_cmpuint (health.thermal_transitions[0], ==, 7);
  g_assert_cmpuint (health.thermal_seconds[0], ==, 300);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/device/sysfs/golden", test_golden);
  g_test_add_func ("/duel/device/sysfs/host-capture", test_host_capture);
  g_test_add_func ("/duel/device/sysfs/qemu-nvme-capture", test_qemu_nvme_capture);
  g_test_add_func ("/duel/device/sysfs/pcie-switch", test_pcie_switch);
  g_test_add_func ("/duel/device/sysfs/sata-usb-mmc", test_sata_usb_mmc);
  g_test_add_func ("/duel/device/sysfs/errors", test_errors);
  g_test_add_func ("/duel/device/link/ceilings", test_ceilings);
  g_test_add_func ("/duel/device/mounts", test_mounts);
  g_test_add_func ("/duel/device/nvme/pages", test_nvme_pages);
  g_test_add_func ("/duel/device/nvme/smart-layout", test_nvme_smart_layout);

  return g_test_run ();
}
