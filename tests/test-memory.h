/* test-memory.h — a load held to a bound on memory, deterministically
 *
 * The loaders promise that a file costs at most a bound in memory, or is
 * refused before the memory is spent (docs/result-format.md). A test
 * checks it without a clock or an RSS sample: the load runs in a
 * subprocess (g_test_trap_subprocess()) whose data segment — every
 * allocation, brk or mmap — is limited (RLIMIT_DATA) to what it holds
 * already plus the bound. A load that needs more gets NULL from malloc and
 * GLib aborts: the subprocess fails, whatever the machine. The same
 * allocations happen on every run, so the verdict is the same too.
 *
 * Not under AddressSanitizer, whose allocator maps far more than it hands
 * out: test_memory_limit() then returns FALSE and the test skips.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
# define TEST_MEMORY_SANITIZED 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define TEST_MEMORY_SANITIZED 1
# endif
#endif

/* The process's data segment now, from /proc/self/status (VmData). */
static inline guint64
test_memory_data_bytes (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "\nVmData:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmData:"), NULL, 10) * 1024;
}

/* In the subprocess: from now on, at most @bound more bytes of data
 * (plus @slack for what GLib and the test allocate around the load). FALSE
 * when it cannot be limited here (sanitizers, no /proc). */
static inline gboolean
test_memory_limit (guint64 bound,
                   guint64 slack)
{
#ifdef TEST_MEMORY_SANITIZED
  return FALSE;
#else
  guint64 now = test_memory_data_bytes ();
  struct rlimit limit;

  if (now == 0 || getrlimit (RLIMIT_DATA, &limit) != 0)
    return FALSE;
  limit.rlim_cur = now + bound + slack;
  return setrlimit (RLIMIT_DATA, &limit) == 0;
#endif
}

/* The loaders' documented bound (docs/result-format.md), restated here
 * rather than taken from the code it checks: three times the file, at
 * least 16 MiB, and 106 KiB for each of its @n_tests tests (one at least). */
static inline guint64
test_memory_documented_bound (guint64 file_bytes,
                              guint   n_tests)
{
  return MAX (3 * file_bytes, G_GUINT64_CONSTANT (16) << 20) + MAX (n_tests, 1) * (guint64) (106 << 10);
}

static inline gboolean
test_memory_can_limit (void)
{
#ifdef TEST_MEMORY_SANITIZED
  return FALSE;
#else
  return test_memory_data_bytes () > 0;
#endif
}

/* In the parent, before a hostile file is made: FALSE, with the test
 * skipped, where the data segment cannot be limited. */
static inline gboolean
test_memory_can_limit_or_skip (void)
{
  if (test_memory_can_limit ())
    return TRUE;
  g_test_skip ("the data segment cannot be limited here (a sanitizer build)");
  return FALSE;
}

/* In the parent: writes @text (@length bytes; freed here, it may be large)
 * to hostile.json in a new folder, names it in the environment @variable
 * and runs this test again as a subprocess (which limits itself and loads
 * the file); removes both, then asserts the subprocess passed. */
static inline void
test_memory_trap_load (const char *name,
                       const char *variable,
                       char       *text,
                       gsize       length)
{
  g_autofree char *dir = g_dir_make_tmp ("test-memory-XXXXXX", NULL);
  g_autofree char *path = NULL;

  g_assert_nonnull (dir);
  g_assert_nonnull (dir);
  path = g_build_filename (dir, "hostile.json", NULL);
  g_assert_true (g_file_set_contents (path, text, (gssize) length, NULL));
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", name, length);
  g_free (text);
  g_setenv (variable, path, TRUE);

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_unlink (path);
  g_rmdir (dir);
  g_test_trap_assert_passed ();
}
