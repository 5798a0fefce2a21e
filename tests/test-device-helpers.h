/* test-device-helpers.h — what the device and safety tests share
 *
 * Checksums of whole devices, running commands, and a child process that
 * holds a device open exclusively.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* sha256 of everything readable at PATH (a device or a file). */
G_GNUC_UNUSED static char *
device_sha256 (const char *path)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buffer = g_malloc (1024 * 1024);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize n;

  g_assert_cmpint (fd, >=, 0);
  while ((n = read (fd, buffer, 1024 * 1024)) > 0)
    g_checksum_update (checksum, buffer, n);
  g_assert_cmpint (n, ==, 0);
  close (fd);
  return g_strdup (g_checksum_get_string (checksum));
}

/* Runs ARGV (searched in PATH); returns the exit code, -1 when it could not run. */
G_GNUC_UNUSED static int
run_command (const char * const *argv,
             char              **out_stdout,
             char              **out_stderr)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     out_stdout, out_stderr, &status, &error))
    {
      g_test_message ("cannot run %s: %s", argv[0], error->message);
      return -1;
    }
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return -1;
}

G_GNUC_UNUSED static gboolean
run_quiet (const char * const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int code = run_command (argv, &out, &err);

  if (code != 0)
    g_test_message ("%s exited with %d: %s%s", argv[0], code, out ? out : "", err ? err : "");
  return code == 0;
}

typedef struct
{
  GPid pid;
  int  release_fd;     /* closing it lets the child exit */
} ExclusiveHolder;

/* A child process opens PATH with O_EXCL and keeps it until released. */
G_GNUC_UNUSED static gboolean
exclusive_holder_start (const char      *path,
                        ExclusiveHolder *holder)
{
  int ready[2], release[2];
  char status = 0;
  pid_t pid;

  g_assert_cmpint (pipe2 (ready, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (release, O_CLOEXEC), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* Only async-signal-safe calls between fork and _exit. */
      int fd = open (path, O_RDONLY | O_EXCL | O_CLOEXEC);
      char c = fd >= 0 ? 'y' : 'n';

      close (ready[0]);
      close (release[1]);
      if (write (ready[1], &c, 1) != 1)
        _exit (2);
      if (read (release[0], &c, 1) < 0)
        _exit (3);
      _exit (0);
    }
  close (ready[1]);
  close (release[0]);
  if (read (ready[0], &status, 1) != 1)
    status = 'n';
  close (ready[0]);
  holder->pid = pid;
  holder->release_fd = release[1];
  return status == 'y';
}

G_GNUC_UNUSED static void
exclusive_holder_stop (ExclusiveHolder *holder)
{
  int status;

  if (holder->pid <= 0)
    return;
  close (holder->release_fd);
  waitpid (holder->pid, &status, 0);
  holder->pid = 0;
}
