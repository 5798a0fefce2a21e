/* test-system.c — workers in threads of their own, and the system running out
 *
 * duel_task_run_in_thread() gives the task's callback only once the thread
 * function has returned (its cleanups done), as GTask's own pool does; when
 * no thread can start (an address-space limit too small for a thread's
 * stack, set in a subprocess) the callback gets one sentence, not a task
 * queued for ever. duel_system_memory_room() follows RLIMIT_AS.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-system.h"

/* An owner for duel_system_set_kept_result(). */
static const char kept_owner[] = "test-system";
/* Where a crash writes: opaque to the compiler. */
static volatile int *volatile crash_address;

typedef struct
{
  GMutex    lock;
  GCond     cond;
  gboolean  returned;      /* the function returned its value */
  gboolean  may_finish;    /* the test lets the function return */
  gboolean  func_done;     /* the function is past its last line */
  gboolean  func_done_at_callback;
  gboolean  called;
  GError   *error;
  int       value;
} Probe;

static void
slow_cleanup_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  Probe *probe = task_data;

  g_task_return_int (task, 42);
  /* A cleanup after the return, held until the test's main loop has had
   * every chance to run the callback. */
  g_mutex_lock (&probe->lock);
  probe->returned = TRUE;
  g_cond_broadcast (&probe->cond);
  while (!probe->may_finish)
    g_cond_wait (&probe->cond, &probe->lock);
  probe->func_done = TRUE;
  g_mutex_unlock (&probe->lock);
}

static void
probe_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Probe *probe = user_data;

  g_mutex_lock (&probe->lock);
  probe->func_done_at_callback = probe->func_done;
  g_mutex_unlock (&probe->lock);
  probe->value = (int) g_task_propagate_int (G_TASK (result), &probe->error);
  probe->called = TRUE;
}

/* The callback waits for the function's end, though the task returned before. */
static void
test_callback_after_function (void)
{
  Probe probe = { 0 };
  g_autoptr(GTask) task = NULL;

  g_mutex_init (&probe.lock);
  g_cond_init (&probe.cond);
  task = duel_task_new (NULL, NULL, probe_done_cb, &probe);
  g_task_set_task_data (task, &probe, NULL);
  duel_task_run_in_thread (task, slow_cleanup_thread);

  g_mutex_lock (&probe.lock);
  while (!probe.returned)
    g_cond_wait (&probe.cond, &probe.lock);
  g_mutex_unlock (&probe.lock);
  /* GTask's return idle is pending: dispatched, it must not call back. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_false (probe.called);

  g_mutex_lock (&probe.lock);
  probe.may_finish = TRUE;
  g_cond_broadcast (&probe.cond);
  g_mutex_unlock (&probe.lock);
  while (!probe.called)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (probe.func_done_at_callback);
  g_assert_no_error (probe.error);
  g_assert_cmpint (probe.value, ==, 42);

  g_mutex_clear (&probe.lock);
  g_cond_clear (&probe.cond);
}

/* --- an address-space limit ----------------------------------------------------- */

/* TRUE once every thread but this one sleeps (in poll() or on a lock):
 * GLib's worker and pool threads have made their first allocations, which
 * would fail under the limit and abort the process before the code under
 * test runs (a thread's first malloc() maps a 64 MiB arena). */
static gboolean
other_threads_asleep (void)
{
  g_autoptr(GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  g_autofree char *self = g_strdup_printf ("%d", (int) gettid ());
  const char *tid;

  g_assert_nonnull (tasks);
  while ((tid = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *end;

      if (strcmp (tid, self) == 0)
        continue;
      /* Gone since the listing: not running either. */
      if (!g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      /* "tid (name) S ...": the name may hold spaces and brackets. */
      end = strrchr (stat, ')');
      g_assert_nonnull (end);
      if (end[1] != ' ' || end[2] != 'S')
        return FALSE;
    }
  return TRUE;
}

/* Limits the address space to @margin bytes above what the process maps
 * now, once GLib's own threads are idle; returns the limit. */
static guint64
limit_address_space (guint64 margin)
{
  g_autofree char *status = NULL;
  struct rlimit limit;
  const char *line;
  guint64 size;

  while (!other_threads_asleep ())
    g_usleep (1000);
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmSize:");
  g_assert_nonnull (line);
  size = g_ascii_strtoull (line + strlen ("VmSize:"), NULL, 10) << 10;
  limit.rlim_cur = limit.rlim_max = size + margin;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &limit), ==, 0);
  return size + margin;
}

static void
never_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  g_assert_not_reached ();
}

static void
no_thread_child (void)
{
  Probe probe = { 0 };
  g_autoptr(GTask) task = NULL;

  /* GTask's class starts GLib's worker thread (its pool's manager) the
   * first time: before the limit, as in any program that used a GTask. */
  g_type_ensure (G_TYPE_TASK);
  /* Room for a few MiB more, not for a thread's stack (8 MiB or the
   * stack limit, mapped whole). */
  g_assert_cmpuint (limit_address_space (2 << 20), ==, duel_system_memory_limit ());

  task = duel_task_new (NULL, NULL, probe_done_cb, &probe);
  duel_task_run_in_thread (task, never_thread);
  /* Never in the call itself: in a later turn of the context, as any return. */
  g_assert_false (probe.called);
  while (!probe.called)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (probe.error, DUEL_ERROR, DUEL_ERROR_SYSTEM);
  g_print ("%s\n", probe.error->message);
  g_clear_error (&probe.error);
}

/* ASan maps terabytes of shadow memory: an address-space limit a few MiB
 * above the process cannot be set under it. */
#if defined(__SANITIZE_ADDRESS__)
# define ADDRESS_SPACE_FIXED 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define ADDRESS_SPACE_FIXED 1
# endif
#endif

static gboolean
address_space_can_limit_or_skip (void)
{
#ifdef ADDRESS_SPACE_FIXED
  g_test_skip ("the address space cannot be limited under AddressSanitizer");
  return FALSE;
#else
  return TRUE;
#endif
}

/* No thread: the callback gets the sentence, in a subprocess whose address
 * space is too small for a thread's stack. */
static void
test_no_thread (void)
{
  if (!address_space_can_limit_or_skip ())
    return;
  /* The child's stderr in the log: why it failed, if it does. */
  g_test_trap_subprocess ("/duel/system/subprocess/no-thread", 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*could not start a thread*");
}

/* --- the last resort ------------------------------------------------------------ */

static gpointer
nothing_thread (gpointer data)
{
  return NULL;
}

/* GLib's own g_thread_new() cannot start a thread: the sentence, exit 1. */
static void
fatal_thread_child (void)
{
  duel_system_install_fatal_handler ("test-system");
  if (g_strcmp0 (g_getenv ("DUEL_TEST_KEPT"), "1") == 0)
    duel_system_set_kept_result (kept_owner, "/nowhere/r.json");
  limit_address_space (4 << 20);
  g_thread_unref (g_thread_new ("doomed", nothing_thread, NULL));
  g_assert_not_reached ();
}

/* GLib's g_malloc() cannot allocate: the sentence, exit 1. */
static void
fatal_memory_child (void)
{
  duel_system_install_fatal_handler ("test-system");
  if (g_strcmp0 (g_getenv ("DUEL_TEST_KEPT"), "1") == 0)
    duel_system_set_kept_result (kept_owner, "/nowhere/r.json");
  limit_address_space (4 << 20);
  g_free (g_malloc (64 << 20));
  g_assert_not_reached ();
}

/* A crash close to the limit, as fontconfig's on a failed malloc(). */
static void
crash_near_limit_child (void)
{
  duel_system_install_fatal_handler ("test-system");
  limit_address_space (4 << 20);
  *crash_address = 1;
  g_assert_not_reached ();
}

/* Any other crash is not hidden: it dumps, as before. */
static void
crash_child (void)
{
  duel_system_install_fatal_handler ("test-system");
  *crash_address = 1;
  g_assert_not_reached ();
}

static void
test_fatal_thread (void)
{
  if (!address_space_can_limit_or_skip ())
    return;
  g_test_trap_subprocess ("/duel/system/subprocess/fatal-thread", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("test-system: Drive Duel could not start a thread: this user’s limit on processes "
                             "or memory is reached.\n");

  g_setenv ("DUEL_TEST_KEPT", "1", TRUE);
  g_test_trap_subprocess ("/duel/system/subprocess/fatal-thread", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_unsetenv ("DUEL_TEST_KEPT");
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("test-system: Drive Duel could not start a thread (this user’s limit on processes "
                             "or memory is reached) and stopped; what was measured is kept in “/nowhere/r.json” "
                             "up to its last checkpoint, at most 2 s before.\n");
}

static void
test_fatal_memory (void)
{
  if (!address_space_can_limit_or_skip ())
    return;
  g_test_trap_subprocess ("/duel/system/subprocess/fatal-memory", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("test-system: Drive Duel ran out of memory: the memory limit of this process or of "
                             "the system is reached.\n");

  g_setenv ("DUEL_TEST_KEPT", "1", TRUE);
  g_test_trap_subprocess ("/duel/system/subprocess/fatal-memory", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_unsetenv ("DUEL_TEST_KEPT");
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("test-system: Drive Duel ran out of memory and stopped; what was measured is kept in "
                             "“/nowhere/r.json” up to its last checkpoint, at most 2 s before.\n");
}

static void
test_crash (void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  g_test_skip ("a sanitizer reports crashes itself");
#else
  g_test_trap_subprocess ("/duel/system/subprocess/crash-near-limit", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("test-system: Drive Duel ran out of memory: *");

  /* Killed by the signal, without the sentence. */
  g_test_trap_subprocess ("/duel/system/subprocess/crash", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("");
#endif
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/system/callback-after-function", test_callback_after_function);
  g_test_add_func ("/duel/system/no-thread", test_no_thread);
  g_test_add_func ("/duel/system/subprocess/no-thread", no_thread_child);
  g_test_add_func ("/duel/system/fatal-thread", test_fatal_thread);
  g_test_add_func ("/duel/system/subprocess/fatal-thread", fatal_thread_child);
  g_test_add_func ("/duel/system/fatal-memory", test_fatal_memory);
  g_test_add_func ("/duel/system/subprocess/fatal-memory", fatal_memory_child);
  g_test_add_func ("/duel/system/crash", test_crash);
  g_test_add_func ("/duel/system/subprocess/crash-near-limit", crash_near_limit_child);
  g_test_add_func ("/duel/system/subprocess/crash", crash_child);

  return g_test_run ();
}
