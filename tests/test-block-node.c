/* test-block-node.c — a block device found by its /dev path when the node
 * is there, and by its kernel name when a sandbox hides it
 *
 * The hidden case runs in a child with a mount namespace of its own and an
 * empty tmpfs over /dev (needs root, else skipped): every block device the
 * kernel lists in /sys/class/block must then be found by "/dev/NAME" with
 * the number sysfs gives, and names the kernel does not have (seeded) must
 * not. The whole sandbox — bubblewrap, UDisks, polkit — is
 * tests/udisks/test-udisks-sandbox.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <gio/gio.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/duel-block-node.h"

#define SEED 20261205
#define N_MADE_UP_NAMES 200

/* NAME → "MAJOR:MINOR" for every block device the kernel has. */
static GHashTable *
kernel_block_devices (void)
{
  GHashTable *devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GDir) dir = g_dir_open ("/sys/class/block", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename ("/sys/class/block", name, "dev", NULL);
      g_autofree char *text = NULL;

      if (g_file_get_contents (file, &text, NULL, NULL))
        g_hash_table_insert (devices, g_strdup (name), g_strdup (g_strstrip (text)));
    }
  return devices;
}

static char *
devnum_text (dev_t devnum)
{
  return g_strdup_printf ("%u:%u", major (devnum), minor (devnum));
}

/* Names made from the letters of device names, none of them the kernel's. */
static GPtrArray *
made_up_names (GHashTable *devices)
{
  static const char letters[] = "abcdefghlmnopqrstuvxyz0123456789";
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  while (names->len < N_MADE_UP_NAMES)
    {
      int length = g_rand_int_range (rand, 1, 12);
      g_autofree char *name = g_malloc0 (length + 1);

      for (int i = 0; i < length; i++)
        name[i] = letters[g_rand_int_range (rand, 0, sizeof letters - 1)];
      if (!g_hash_table_contains (devices, name))
        g_ptr_array_add (names, g_steal_pointer (&name));
    }
  return names;
}

static void
test_visible (void)
{
  g_autoptr(GHashTable) devices = kernel_block_devices ();
  GHashTableIter iter;
  gpointer name, number;
  struct stat st;
  gboolean hidden = TRUE;
  guint checked = 0;

  g_assert_cmpint (duel_block_node_stat ("/dev/null", &st, &hidden), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  g_assert_false (hidden);

  /* A node that is there is stat()'s answer, whatever sysfs says. */
  g_hash_table_iter_init (&iter, devices);
  while (g_hash_table_iter_next (&iter, &name, &number))
    {
      g_autofree char *path = g_build_filename ("/dev", name, NULL);
      g_autofree char *text = NULL;
      struct stat node;

      if (stat (path, &node) != 0)
        continue;
      hidden = TRUE;
      g_assert_cmpint (duel_block_node_stat (path, &st, &hidden), ==, 0);
      g_assert_false (hidden);
      g_assert_true (S_ISBLK (st.st_mode));
      text = devnum_text (st.st_rdev);
      g_assert_cmpstr (text, ==, number);
      checked++;
    }
  g_test_message ("%u block devices with a node", checked);
}

static void
test_not_devices (void)
{
  static const char *paths[] = {
    "/dev/duel-no-such-device", "/dev/disk/by-id/duel-no-such-link", "/dev/", "/dev/.duel",
    "/nonexistent-duel/sda", "/dev/sda/x", "relative/dev/sda",
  };
  g_autoptr(GHashTable) devices = kernel_block_devices ();
  g_autoptr(GPtrArray) names = made_up_names (devices);
  struct stat st;
  gboolean hidden;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      struct stat real;

      if (stat (paths[i], &real) == 0)
        continue;       /* this machine has it after all */
      hidden = TRUE;
      errno = 0;
      g_assert_cmpint (duel_block_node_stat (paths[i], &st, &hidden), ==, -1);
      g_assert_cmpint (errno, !=, 0);
      g_assert_false (hidden);
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename ("/dev", g_ptr_array_index (names, i), NULL);
      struct stat real;

      if (stat (path, &real) == 0)
        continue;
      hidden = TRUE;
      g_assert_cmpint (duel_block_node_stat (path, &st, &hidden), ==, -1);
      g_assert_cmpint (errno, ==, ENOENT);
      g_assert_false (hidden);
    }
}

/* Another device's name than @name, in the same folder of sysfs when
 * there is one. */
static const char *
first_other (GHashTable *devices,
             const char *name)
{
  g_autofree char *link = g_build_filename ("/sys/class/block", name, NULL);
  g_autofree char *real = realpath (link, NULL);
  g_autofree char *folder = real != NULL ? g_path_get_dirname (real) : NULL;
  const char *other = NULL;
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, devices);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *other_link = NULL;
      g_autofree char *other_real = NULL;
      g_autofree char *other_folder = NULL;

      if (g_str_equal (key, name))
        continue;
      if (other == NULL)
        other = key;
      other_link = g_build_filename ("/sys/class/block", key, NULL);
      other_real = realpath (other_link, NULL);
      other_folder = other_real != NULL ? g_path_get_dirname (other_real) : NULL;
      if (folder != NULL && g_strcmp0 (folder, other_folder) == 0)
        return key;
    }
  return other != NULL ? other : "sda";
}

/* In the child: /dev is an empty tmpfs, as in a sandbox. Returns the
 * number of failures, each told on stderr. */
static int
check_hidden (GHashTable *devices,
              GPtrArray  *names)
{
  GHashTableIter iter;
  gpointer name, number;
  int failures = 0;

  g_hash_table_iter_init (&iter, devices);
  while (g_hash_table_iter_next (&iter, &name, &number))
    {
      g_autofree char *path = g_build_filename ("/dev", name, NULL);
      g_autofree char *below = g_build_filename (path, "x", NULL);
      /* Lexically /dev/OTHER, through sysfs a real device too (the loop
       * devices share a folder), but no name of one. */
      g_autofree char *through = g_strdup_printf ("%s/../%s", path, first_other (devices, name));
      g_autofree char *text = NULL;
      struct stat st;
      gboolean hidden = FALSE;

      if (duel_block_node_stat (path, &st, &hidden) != 0 || !hidden || !S_ISBLK (st.st_mode))
        {
          fprintf (stderr, "%s: not found as a hidden block device\n", path);
          failures++;
          continue;
        }
      text = devnum_text (st.st_rdev);
      if (strcmp (text, number) != 0)
        {
          fprintf (stderr, "%s: %s, sysfs says %s\n", path, text, (const char *) number);
          failures++;
        }
      if (duel_block_node_stat (below, &st, &hidden) == 0 || hidden)
        {
          fprintf (stderr, "%s: taken for a device\n", below);
          failures++;
        }
      if (duel_block_node_stat (through, &st, &hidden) == 0 || hidden)
        {
          fprintf (stderr, "%s: taken for a device\n", through);
          failures++;
        }
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename ("/dev", g_ptr_array_index (names, i), NULL);
      struct stat st;
      gboolean hidden = FALSE;

      if (duel_block_node_stat (path, &st, &hidden) == 0 || hidden || errno != ENOENT)
        {
          fprintf (stderr, "%s: the kernel has no such device, yet it was found\n", path);
          failures++;
        }
    }
  return failures;
}

static void
test_hidden (void)
{
  g_autoptr(GHashTable) devices = kernel_block_devices ();
  g_autoptr(GPtrArray) names = made_up_names (devices);
  int status;
  pid_t pid;

  if (getuid () != 0)
    {
      g_test_skip ("needs root: a mount namespace with an empty /dev");
      return;
    }
  if (g_hash_table_size (devices) == 0)
    {
      g_test_skip ("the kernel lists no block devices");
      return;
    }

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (unshare (CLONE_NEWNS) != 0 ||
          mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
          mount ("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k") != 0)
        {
          fprintf (stderr, "no private /dev: %s\n", g_strerror (errno));
          _exit (77);
        }
      _exit (MIN (check_hidden (devices, names), 76));
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) == 77)
    {
      g_test_skip ("this kernel gives no private mount namespace");
      return;
    }
  g_test_message ("%u block devices found by name under an empty /dev, %u made-up names refused",
                  g_hash_table_size (devices), names->len);
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/duel/block-node/visible", test_visible);
  g_test_add_func ("/duel/block-node/not-devices", test_not_devices);
  g_test_add_func ("/duel/block-node/hidden", test_hidden);

  return g_test_run ();
}
