/* test-cli-honest.c — the CLI says what a tmpfs file measures, and flags
 * figures faster than the link
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "test-cli.h"
#include "test-chart-helpers.h"

/* A file on tmpfs: the run says, before it starts, that it measures RAM
 * (tmpfs refuses O_DIRECT on older kernels: the note comes first anyway). */
static void
test_tmpfs_note (void)
{
  struct statfs fs;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *data = g_malloc0 (1 << 20);

  if (statfs ("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC)
    {
      g_test_skip ("/dev/shm is not tmpfs");
      return;
    }
  dir = g_strdup ("/dev/shm/driveduel-honest-XXXXXX");
  if (g_mkdtemp (dir) == NULL)
    {
      g_test_skip ("cannot make a folder in /dev/shm");
      return;
    }
  path = g_build_filename (dir, "target.img", NULL);
  g_assert_true (g_file_set_contents (path, data, 1 << 20, NULL));

  if (run_cli (&out, &err, "run", "--runtime=1", "--rw=randread", "--size=1m", path, NULL) < 0)
    return;
  g_test_message ("stderr: %s", err);
  g_assert_nonnull (strstr (err, "The file is in memory (tmpfs): this measures RAM, not a drive."));

  g_unlink (path);
  g_rmdir (dir);
}

/* A result whose sequential read (2,000 MB/s) is above its SATA link (500 MB/s). */
static void
test_analyze_flags (void)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  DuelTargetInfo target = { (char *) "/dev/sda", DUEL_TARGET_KIND_BLOCK, G_GUINT64_CONSTANT (64) << 30, 512, 4096 };
  g_autoptr(JsonObject) device = json_object_new ();
  JsonObject *link = json_object_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("driveduel-honest-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "sata.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  DuelTestRecord *record;

  duel_result_set_target (result, &target);
  duel_result_set_name (result, "Cached");
  json_object_set_string_member (link, "kind", "sata");
  json_object_set_double_member (link, "ceiling_bytes_per_second", 500e6);
  json_object_set_object_member (device, "link", link);
  duel_result_set_device (result, device);
  record = test_new_record ("std-seq-read", "read", 131072, 32, 100);
  record->workload.runtime_ms = 10000;
  test_add_rows (record, rand, 10, 2000e6 / 131072, 0, 200000);
  test_fill_histogram (record->latency[DUEL_DIRECTION_READ], rand, 200000, 2000);
  test_analyse (record);
  duel_result_add_test (result, record);
  duel_test_record_unref (record);
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);

  if (run_cli (&out, &err, "analyze", path, NULL) < 0)
    return;
  g_test_message ("stdout: %s", out);
  g_assert_nonnull (strstr (out, "is faster than the link (500 MB/s): a cache, not the drive."));

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-honest/tmpfs-note", test_tmpfs_note);
  g_test_add_func ("/cli-honest/analyze-flags", test_analyze_flags);
  return g_test_run ();
}
