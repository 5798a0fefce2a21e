/* test-honest.c — figures faster than the link, and what a file's filesystem measures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo.h>
#include <locale.h>
#include <string.h>

#include "duel-chart-export.h"
#include "duel-chart-standard.h"
#include "analysis/duel-comparison.h"
#include "device/duel-device-link.h"
#include "device/duel-filesystem-note.h"
#include "test-chart-helpers.h"

/* ---- The filesystem table ---------------------------------------------------- */

static void
test_filesystem_table (void)
{
  static const char *noted[] = {
    "zfs", "fuse", "fuseblk", "fuse.sshfs", "fuse.gvfsd-fuse", "nfs", "nfs4", "cifs", "smb3",
    "overlay", "tmpfs", "ramfs",
  };
  static const char *plain[] = { "ext4", "xfs", "f2fs", "vfat", "fusectl", "fuse.", "" };

  for (guint i = 0; i < G_N_ELEMENTS (noted); i++)
    {
      const char *note = duel_filesystem_note (noted[i], "rw,relatime");

      g_assert_nonnull (note);
      g_assert_cmpuint (strlen (note), >, 20);
    }
  g_assert_nonnull (strstr (duel_filesystem_note ("tmpfs", NULL), "RAM"));
  g_assert_nonnull (strstr (duel_filesystem_note ("zfs", NULL), "ARC"));
  g_assert_nonnull (strstr (duel_filesystem_note ("fuseblk", NULL), "FUSE"));
  g_assert_nonnull (strstr (duel_filesystem_note ("nfs4", NULL), "network"));
  g_assert_nonnull (strstr (duel_filesystem_note ("overlay", NULL), "overlay"));

  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    g_assert_null (duel_filesystem_note (plain[i], "rw,relatime"));
  g_assert_null (duel_filesystem_note (NULL, NULL));

  /* btrfs: only when it compresses. */
  g_assert_null (duel_filesystem_note ("btrfs", NULL));
  g_assert_null (duel_filesystem_note ("btrfs", "rw,relatime,ssd,space_cache=v2,subvolid=5,subvol=/"));
  g_assert_null (duel_filesystem_note ("btrfs", "rw,compress=no"));
  g_assert_nonnull (duel_filesystem_note ("btrfs", "rw,relatime,compress=zstd:3,ssd,subvol=/"));
  g_assert_nonnull (duel_filesystem_note ("btrfs", "rw,compress-force=lzo"));
  g_assert_nonnull (strstr (duel_filesystem_note ("btrfs", "rw,compress=zstd"), "compress"));
  /* The options are not a type's business elsewhere. */
  g_assert_null (duel_filesystem_note ("ext4", "rw,compress=zstd"));
}

static void
test_ceiling_margin (void)
{
  g_assert_false (duel_link_ceiling_is_exceeded (0, 1e12));
  g_assert_false (duel_link_ceiling_is_exceeded (500e6, 450e6));
  g_assert_false (duel_link_ceiling_is_exceeded (500e6, 504e6));   /* within 1 % */
  g_assert_true (duel_link_ceiling_is_exceeded (500e6, 506e6));
  g_assert_true (duel_link_ceiling_is_exceeded (500e6, 2000e6));
}

/* ---- A SATA drive and its sequential read ------------------------------------ */

/* A result on a SATA link of 500 MB/s whose sequential read ran at @mb_s;
 * on a file of @fs_type when not NULL. */
static DuelResult *
make_sata_result (const char *name,
                  double      mb_s,
                  const char *fs_type,
                  const char *fs_options)
{
  DuelResult *result = duel_result_new ();
  DuelTargetInfo target = { (char *) "/dev/sda", DUEL_TARGET_KIND_BLOCK, G_GUINT64_CONSTANT (64) << 30, 512, 4096 };
  JsonObject *device = json_object_new ();
  JsonObject *link = json_object_new ();
  JsonObject *fs;
  DuelTestRecord *record;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  /* As test_make_result() does, with a SATA link: 6 Gbit/s would be 600 MB/s. */
  duel_result_set_target (result, &target);
  duel_result_set_name (result, name);
  json_object_set_string_member (device, "model", name);
  json_object_set_string_member (device, "transport", "sata");
  json_object_set_string_member (link, "kind", "sata");
  json_object_set_double_member (link, "ceiling_bytes_per_second", 500e6);
  json_object_set_object_member (device, "link", link);
  if (fs_type != NULL)
    {
      fs = json_object_new ();
      json_object_set_string_member (fs, "type", fs_type);
      json_object_set_string_member (fs, "mount_point", "/mnt");
      json_object_set_string_member (fs, "source", "pool");
      if (fs_options != NULL)
        json_object_set_string_member (fs, "options", fs_options);
      json_object_set_object_member (device, "filesystem", fs);
    }
  duel_result_set_device (result, device);
  json_object_unref (device);

  record = test_new_record ("std-seq-read", "read", 131072, 32, 100);
  record->workload.runtime_ms = 10000;
  test_add_rows (record, rand, 10, mb_s * 1e6 / 131072, 0, 200000);
  test_fill_histogram (record->latency[DUEL_DIRECTION_READ], rand, 200000, 2000);
  test_analyse (record);
  duel_result_add_test (result, record);
  duel_test_record_unref (record);
  return result;
}

static const DuelComparisonRow *
seq_read_row (DuelComparison *comparison)
{
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (g_strcmp0 (row->test, "std-seq-read") == 0 && g_strcmp0 (row->key, "seq_read_mbps") == 0)
        return row;
    }
  g_assert_not_reached ();
}

static void
render_standard (DuelComparison *comparison)
{
  g_autoptr(DuelChart) chart = duel_chart_standard_new (comparison);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 400);
  cairo_t *cr = cairo_create (surface);

  duel_chart_draw (chart, cr, 800, 400);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_ceiling_flagged (void)
{
  g_autoptr(DuelResult) fast = make_sata_result ("Fast", 2000, NULL, NULL);
  g_autoptr(DuelResult) honest = make_sata_result ("Honest", 450, NULL, NULL);
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) notes = NULL;
  const DuelComparisonRow *row;

  comparison = duel_comparison_new (fast, honest, &error);
  g_assert_no_error (error);
  row = seq_read_row (comparison);
  g_assert_cmpfloat_with_epsilon (row->value[0], 2000, 20);
  g_assert_cmpfloat_with_epsilon (row->value[1], 450, 5);
  g_assert_true (row->above_ceiling[0]);
  g_assert_false (row->above_ceiling[1]);
  g_assert_true (g_str_has_suffix (row->text[0], " ⚠"));
  g_assert_false (g_str_has_suffix (row->text[1], " ⚠"));
  g_assert_true (test_has_warning (comparison, "faster than the link (500 MB/s): a cache, not the drive"));
  g_assert_true (test_has_warning (comparison, "Fast"));
  g_assert_false (test_has_warning (comparison, "on Honest"));

  /* Every output that prints the warnings carries it. */
  markdown = duel_chart_export_markdown (comparison);
  g_assert_nonnull (strstr (markdown, "faster than the link (500 MB/s)"));
  g_assert_nonnull (strstr (markdown, "⚠"));
  lines = duel_comparison_dup_warning_lines (comparison);
  g_assert_cmpuint (g_strv_length (lines), >=, 1);
  render_standard (comparison);

  /* The figures of one record, as the CLI prints them. */
  notes = duel_analysis_dup_ceiling_notes (duel_result_find_test (fast, "std-seq-read"), NULL, 500e6);
  g_assert_cmpuint (g_strv_length (notes), ==, 1);
  g_assert_nonnull (strstr (notes[0], "a cache, not the drive"));
  g_clear_pointer (&notes, g_strfreev);
  notes = duel_analysis_dup_ceiling_notes (duel_result_find_test (honest, "std-seq-read"), NULL, 500e6);
  g_assert_cmpuint (g_strv_length (notes), ==, 0);
  g_clear_pointer (&notes, g_strfreev);
  notes = duel_analysis_dup_ceiling_notes (duel_result_find_test (fast, "std-seq-read"), NULL, 0);
  g_assert_cmpuint (g_strv_length (notes), ==, 0);
}

static void
test_ceiling_not_flagged (void)
{
  g_autoptr(DuelResult) honest = make_sata_result ("Honest", 450, NULL, NULL);
  g_autoptr(DuelComparison) comparison = duel_comparison_new (honest, NULL, NULL);
  const DuelComparisonRow *row = seq_read_row (comparison);

  g_assert_false (row->above_ceiling[0]);
  g_assert_false (test_has_warning (comparison, "faster than the link"));
  render_standard (comparison);
}

static void
test_filesystem_warning (void)
{
  g_autoptr(DuelResult) zfs = make_sata_result ("Pool", 450, "zfs", "rw,xattr,noacl");
  g_autoptr(DuelResult) btrfs = make_sata_result ("Plain btrfs", 450, "btrfs", "rw,relatime,ssd");
  g_autoptr(DuelResult) packed = make_sata_result ("Packed", 450, "btrfs", "rw,compress=zstd:3");
  g_autoptr(DuelComparison) one = duel_comparison_new (zfs, NULL, NULL);
  g_autoptr(DuelComparison) two = duel_comparison_new (btrfs, packed, NULL);

  g_assert_true (test_has_warning (one, "ARC"));
  g_assert_true (test_has_warning (two, "Packed: The file is on btrfs"));
  g_assert_false (test_has_warning (two, "Plain btrfs: "));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/honest/filesystem-table", test_filesystem_table);
  g_test_add_func ("/honest/ceiling-margin", test_ceiling_margin);
  g_test_add_func ("/honest/ceiling-flagged", test_ceiling_flagged);
  g_test_add_func ("/honest/ceiling-not-flagged", test_ceiling_not_flagged);
  g_test_add_func ("/honest/filesystem-warning", test_filesystem_warning);
  return g_test_run ();
}
