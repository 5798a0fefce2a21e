/* test-devices.h — the loop and zram devices a test makes for itself
 *
 * Each is made before the test's subprocess runs on it and removed after,
 * pass or fail (the subprocess cannot leave it behind when it aborts).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* Runs @argv (searched in PATH, stderr dropped): TRUE when it exited 0. */
static inline gboolean
test_spawn_ok (const char * const *argv,
               char              **out)
{
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, out, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* Writes @value to the sysfs attribute @path; why not, in the test log. */
static inline gboolean
test_write_sysfs (const char *path,
                  const char *value)
{
  gsize length = strlen (value);
  gboolean ok;
  int fd = open (path, O_WRONLY | O_CLOEXEC);

  if (fd < 0)
    {
      g_test_message ("%s: %s", path, g_strerror (errno));
      return FALSE;
    }
  ok = write (fd, value, length) == (gssize) length;
  if (!ok)
    g_test_message ("writing '%s' to %s: %s", value, path, g_strerror (errno));
  close (fd);
  return ok;
}

/* A loop device with direct I/O over @backing, which is first made @size
 * bytes; NULL when losetup cannot make one. */
static inline char *
test_loop_attach (const char *backing,
                  goffset     size)
{
  const char *argv[] = { "losetup", "--find", "--show", "--direct-io=on", backing, NULL };
  char *device = NULL;
  int fd = open (backing, O_CREAT | O_RDWR | O_CLOEXEC, 0600);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fallocate (fd, 0, 0, size), ==, 0);
  close (fd);
  if (!test_spawn_ok (argv, &device))
    {
      g_free (device);
      return NULL;
    }
  return g_strstrip (device);
}

/* Detached once no run holds it (at most 10 s): a run killed a moment
 * ago keeps the device open until its ring lets go, and its lock goes
 * with it. Detached while still open, the kernel leaves the clearing to
 * the last close; once in 250 runs of cli-lock, the next test's run then
 * found the device of the same number empty (0 bytes). */
static inline void
test_loop_detach (const char *device)
{
  const char *argv[] = { "losetup", "--detach", device, NULL };
  int fd = open (device, O_RDONLY | O_CLOEXEC);
  guint waited = 0;

  while (fd >= 0 && waited < 500 && flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      g_usleep (20 * 1000);
      waited++;
    }
  if (fd >= 0)
    close (fd);
  /* The lock goes a moment before the ring's last close of the device. */
  if (waited > 0)
    g_usleep (20 * 1000);
  test_spawn_ok (argv, NULL);
}

/* A loop device as test_loop_attach() makes it, whose requests the kernel
 * counts one by one as they were made: udev's probe of it done first (it
 * reads the device; without udev there is nothing to wait for) and request
 * merging off. NULL, with the reason for a skip in @out_skip, when it
 * cannot be made so (the device is then detached again). */
static inline char *
test_loop_attach_counted (const char  *backing,
                          goffset      size,
                          const char **out_skip)
{
  const char *settle_argv[] = { "udevadm", "settle", NULL };
  g_autofree char *base = NULL;
  g_autofree char *nomerges = NULL;
  char *device = test_loop_attach (backing, size);

  if (device == NULL)
    {
      *out_skip = "no loop device (losetup failed)";
      return NULL;
    }
  test_spawn_ok (settle_argv, NULL);
  base = g_path_get_basename (device);
  nomerges = g_build_filename ("/sys/block", base, "queue", "nomerges", NULL);
  if (!test_write_sysfs (nomerges, "2"))
    {
      test_loop_detach (device);
      g_free (device);
      *out_skip = "cannot turn off request merging on the loop device";
      return NULL;
    }
  return device;
}

/* A new zram device: its number and /dev path, FALSE without zram. */
static inline gboolean
test_zram_add (guint64  *out_id,
               char    **out_device)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/sys/class/zram-control/hot_add", &text, NULL, NULL))
    return FALSE;
  *out_id = g_ascii_strtoull (text, NULL, 10);
  *out_device = g_strdup_printf ("/dev/zram%" G_GUINT64_FORMAT, *out_id);
  return TRUE;
}

/* Sets /sys/block/zramN/@attribute. */
static inline gboolean
test_zram_set (guint64     id,
               const char *attribute,
               const char *value)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/zram%" G_GUINT64_FORMAT "/%s", id, attribute);

  return test_write_sysfs (path, value);
}

/* Removes zram device @id. udev (or any program listing devices) may still
 * hold it after the subprocess wrote it: retried for up to 30 s. */
static inline gboolean
test_zram_remove (guint64 id)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, id);

  for (guint i = 0; i < 300; i++)
    {
      if (test_write_sysfs ("/sys/class/zram-control/hot_remove", text))
        return TRUE;
      g_usleep (100000);
    }
  return FALSE;
}
