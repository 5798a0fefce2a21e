/* duel-system.c — when the system runs out: threads, memory, the last resort
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-system.h"
#include "duel-text.h"

/* Kept back from the room a load may take, at most (a quarter under a
 * tighter limit): what other threads (the window, a run's checkpoints)
 * allocate meanwhile, and a thread's stack. */
#define MEMORY_RESERVE (G_GUINT64_CONSTANT (16) << 20)
/* A crash with less than this left under RLIMIT_AS is taken for want of
 * memory: a thread's malloc arena (64 MiB) or stack (8 MiB) did not fit. */
#define CRASH_NEAR_LIMIT (G_GUINT64_CONSTANT (80) << 20)
#define ALT_STACK_SIZE   (64u << 10)

/* --- threads ------------------------------------------------------------------ */

static const char *
thread_sentence (void)
{
  /* pthread_create() says EAGAIN for a process limit and for a stack it
   * cannot map alike. */
  return _("Drive Duel could not start a thread: this user’s limit on processes or memory is reached.");
}

/* A stack for the crash handler (crash_handler()), per thread: GLib's
 * logging recurses without end when formatting its own "failed to
 * allocate" fails, and the overflow it ends in would leave the handler no
 * stack of its own. FALSE without the memory for it. */
static gboolean
alt_stack_begin (stack_t *stack)
{
  memset (stack, 0, sizeof *stack);
  stack->ss_size = ALT_STACK_SIZE;
  stack->ss_sp = malloc (stack->ss_size);
  if (stack->ss_sp == NULL || sigaltstack (stack, NULL) != 0)
    {
      free (stack->ss_sp);
      stack->ss_sp = NULL;
      return FALSE;
    }
  return TRUE;
}

static void
alt_stack_end (stack_t *stack)
{
  stack_t off = { .ss_flags = SS_DISABLE };

  if (stack->ss_sp == NULL)
    return;
  sigaltstack (&off, NULL);
  free (stack->ss_sp);
}

typedef struct
{
  GThreadFunc func;
  gpointer    data;
} ThreadStart;

static gpointer
thread_start (gpointer user_data)
{
  ThreadStart start = *(ThreadStart *) user_data;
  gpointer ret;
  stack_t stack;

  g_free (user_data);
  alt_stack_begin (&stack);
  ret = start.func (start.data);
  alt_stack_end (&stack);
  return ret;
}

GThread *
duel_thread_try_new (const char  *name,
                     GThreadFunc  func,
                     gpointer     data,
                     GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  ThreadStart *start;
  GThread *thread;

  g_return_val_if_fail (func != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  start = g_new (ThreadStart, 1);
  start->func = func;
  start->data = data;
  thread = g_thread_try_new (name, thread_start, start, &local_error);
  if (thread == NULL)
    {
      g_free (start);
      g_debug ("Thread %s: %s", name != NULL ? name : "", local_error->message);
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_SYSTEM, thread_sentence ());
    }
  return thread;
}

/* The caller's callback, given to the task only once both the task has
 * returned and its function has: GTask itself calls it when the task
 * returns, which for a task it did not start itself may be before the
 * function's cleanups ran. */
typedef struct
{
  GAsyncReadyCallback callback;
  gpointer            callback_data;
  GTaskThreadFunc     func;
  GMutex              lock;
  gboolean            returned;    /* the task returned, in its context */
  gboolean            func_done;   /* the function returned */
} Relay;

static GQuark
relay_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("duel-task-relay"));
  return (GQuark) quark;
}

static void
relay_free (gpointer data)
{
  Relay *relay = data;

  g_mutex_clear (&relay->lock);
  g_free (relay);
}

static void
relay_deliver (GTask *task,
               Relay *relay)
{
  if (relay->callback != NULL)
    relay->callback (g_task_get_source_object (task), G_ASYNC_RESULT (task), relay->callback_data);
}

/* GTask's callback: the task returned. */
static void
relay_returned_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = G_TASK (result);
  Relay *relay = g_object_get_qdata (G_OBJECT (task), relay_quark ());
  gboolean now;

  g_assert (relay != NULL);
  g_mutex_lock (&relay->lock);
  relay->returned = TRUE;
  now = relay->func_done;
  g_mutex_unlock (&relay->lock);
  /* Else the thread delivers it once its function is done. */
  if (now)
    relay_deliver (task, relay);
}

static gboolean
relay_late_cb (gpointer user_data)
{
  GTask *task = user_data;

  relay_deliver (task, g_object_get_qdata (G_OBJECT (task), relay_quark ()));
  return G_SOURCE_REMOVE;
}

static gpointer
task_thread (gpointer data)
{
  GTask *task = data;
  Relay *relay = g_object_get_qdata (G_OBJECT (task), relay_quark ());
  gboolean late;

  relay->func (task, g_task_get_source_object (task), g_task_get_task_data (task), g_task_get_cancellable (task));

  g_mutex_lock (&relay->lock);
  relay->func_done = TRUE;
  late = relay->returned;
  g_mutex_unlock (&relay->lock);
  if (late)
    {
      GSource *idle = g_idle_source_new ();

      g_source_set_priority (idle, g_task_get_priority (task));
      g_source_set_callback (idle, relay_late_cb, g_object_ref (task), g_object_unref);
      g_source_set_static_name (idle, "[driveduel] task callback");
      g_source_attach (idle, g_task_get_context (task));
      g_source_unref (idle);
    }
  g_object_unref (task);
  return NULL;
}

GTask *
duel_task_new (gpointer             source_object,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             callback_data)
{
  GTask *task = g_task_new (source_object, cancellable, relay_returned_cb, NULL);
  Relay *relay = g_new0 (Relay, 1);

  g_mutex_init (&relay->lock);
  relay->callback = callback;
  relay->callback_data = callback_data;
  g_object_set_qdata_full (G_OBJECT (task), relay_quark (), relay, relay_free);
  return task;
}

void
duel_task_run_in_thread (GTask           *task,
                         GTaskThreadFunc  func)
{
  Relay *relay;
  GThread *thread;
  GError *error = NULL;

  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (func != NULL);
  relay = g_object_get_qdata (G_OBJECT (task), relay_quark ());
  g_return_if_fail (relay != NULL && relay->func == NULL);

  relay->func = func;
  thread = duel_thread_try_new (g_task_get_name (task) != NULL ? g_task_get_name (task) : "duel-worker",
                                task_thread, g_object_ref (task), &error);
  if (thread == NULL)
    {
      g_object_unref (task);
      relay->func_done = TRUE;
      /* In a later turn of the task's context, as any return. */
      g_task_return_error (task, error);
      return;
    }
  g_thread_unref (thread);
}

/* --- memory ------------------------------------------------------------------- */

/* VmSize and VmData of this process, in bytes; FALSE when /proc is not there. */
static gboolean
read_vm (guint64 *size,
         guint64 *data)
{
  g_autofree char *status = NULL;
  gboolean have_size = FALSE, have_data = FALSE;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return FALSE;
  for (char *line = status; line != NULL && *line != '\0';)
    {
      char *end = strchr (line, '\n');
      guint64 kib;

      if (sscanf (line, "VmSize: %" G_GUINT64_FORMAT " kB", &kib) == 1)
        *size = kib << 10, have_size = TRUE;
      else if (sscanf (line, "VmData: %" G_GUINT64_FORMAT " kB", &kib) == 1)
        *data = kib << 10, have_data = TRUE;
      line = end != NULL ? end + 1 : NULL;
    }
  return have_size && have_data;
}

static guint64
soft_limit (int resource)
{
  struct rlimit limit;

  if (getrlimit (resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return G_MAXUINT64;
  return (guint64) limit.rlim_cur;
}

guint64
duel_system_memory_limit (void)
{
  return MIN (soft_limit (RLIMIT_AS), soft_limit (RLIMIT_DATA));
}

/* What the process held at startup, before it loaded anything
 * (duel_system_install_fatal_handler()): a load's memory is measured from
 * there, whatever it already allocated when the loader asks. */
static gboolean have_baseline;
static guint64 baseline_size, baseline_data;

guint64
duel_system_memory_room (void)
{
  guint64 as = soft_limit (RLIMIT_AS), data = soft_limit (RLIMIT_DATA);
  guint64 room = G_MAXUINT64;

  /* A program that did not say where it started (a test that limits its
   * own data segment to a load's bound) is left to that limit. */
  if (!have_baseline || (as == G_MAXUINT64 && data == G_MAXUINT64))
    return G_MAXUINT64;
  if (as != G_MAXUINT64)
    room = MIN (room, as > baseline_size ? as - baseline_size : 0);
  if (data != G_MAXUINT64)
    room = MIN (room, data > baseline_data ? data - baseline_data : 0);
  return room - MIN (room / 4, MEMORY_RESERVE);
}

/* --- the last resort ------------------------------------------------------------ */

/* Lines made while memory was there: "program: sentence\n". */
typedef struct
{
  gconstpointer owner;
  char         *threads;
  char         *memory;
} Lines;

static Lines *plain_lines;        /* set once */
static Lines *kept_lines;         /* a run's, or NULL; atomic */
static Lines *retired_lines;      /* the one before, freed at the next change */
static char  *program_name;
static guint64 page_size = 4096;
static gboolean stdout_is_tty;
static gint said;                 /* atomic: one thread says it, whichever fails first */
static GMutex kept_lock;          /* between setters; the handler reads atomically */

static void
lines_free (Lines *lines)
{
  if (lines == NULL)
    return;
  g_free (lines->threads);
  g_free (lines->memory);
  g_free (lines);
}

static void
write_fully (int         fd,
             const char *text)
{
  size_t left = strlen (text);

  while (left > 0)
    {
      ssize_t n = write (fd, text, left);

      if (n <= 0)
        return;
      text += n;
      left -= (size_t) n;
    }
}

/* The last words, once, however many threads fail at the same time (each
 * ends here): no allocation, no lock. */
static void G_GNUC_NORETURN
say_and_exit (const char *line)
{
  if (g_atomic_int_compare_and_exchange (&said, 0, 1))
    {
      /* Off the progress line a terminal may show. */
      if (stdout_is_tty)
        write_fully (STDOUT_FILENO, "\r\033[K");
      write_fully (STDERR_FILENO, line);
      _exit (1);
    }
  /* Another thread is saying it: its _exit() ends this one too. Exiting
   * here would end the process before its line is written (a report out
   * of memory in two threads at once exited 1 with nothing said). A cap,
   * should that thread never get to its end. */
  for (guint i = 0; i < 200; i++)
    {
      struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

      nanosleep (&ten_ms, NULL);
    }
  _exit (1);
}

/* In whichever thread failed; no allocation, no lock. */
static void
fatal_handler (const char     *log_domain,
               GLogLevelFlags  log_level,
               const char     *message,
               gpointer        user_data)
{
  Lines *lines = g_atomic_pointer_get (&kept_lines);
  const char *line = NULL;

  if (lines == NULL)
    lines = plain_lines;
  if (message != NULL && strstr (message, "creating thread") != NULL)
    line = lines->threads;
  else if (message != NULL && (strstr (message, "failed to allocate") != NULL ||
                               strstr (message, "overflow allocating") != NULL))
    line = lines->memory;
  if (line == NULL)
    {
      /* Not for want of threads or memory: GLib's own report and abort. */
      g_log_default_handler (log_domain, log_level, message, user_data);
      return;
    }
  say_and_exit (line);
}

/* What this process maps (VmSize) and its data (VmData and the stack),
 * from /proc/self/statm, by system calls alone (a signal handler's);
 * FALSE when unknown. */
static gboolean
mapped_now (guint64 *size,
            guint64 *data)
{
  char buffer[128];
  guint64 fields[6] = { 0 };
  guint field = 0;
  ssize_t n;
  int fd = open ("/proc/self/statm", O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  n = read (fd, buffer, sizeof buffer - 1);
  close (fd);
  for (ssize_t i = 0; i < n && field < G_N_ELEMENTS (fields); i++)
    {
      if (buffer[i] >= '0' && buffer[i] <= '9')
        fields[field] = fields[field] * 10 + (guint64) (buffer[i] - '0');
      else
        field++;
    }
  if (field < G_N_ELEMENTS (fields))
    return FALSE;
  *size = fields[0] * page_size;
  *data = fields[5] * page_size;
  return TRUE;
}

static gboolean
near_limit (int     resource,
            guint64 used)
{
  struct rlimit limit;

  return getrlimit (resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
         used + CRASH_NEAR_LIMIT >= (guint64) limit.rlim_cur;
}

/* Libraries that do not check malloc() (fontconfig under Pango) crash
 * when memory runs out. A crash close to a memory limit is said as that;
 * any other is left to crash, with its core, as before. (Not installed
 * under a sanitizer, which reports crashes itself.) */
G_GNUC_UNUSED static void
crash_handler (int signum)
{
  Lines *lines = g_atomic_pointer_get (&kept_lines);
  guint64 size, data;

  if (mapped_now (&size, &data) && (near_limit (RLIMIT_AS, size) || near_limit (RLIMIT_DATA, data)))
    say_and_exit ((lines != NULL ? lines : plain_lines)->memory);
  /* The default back, for every thread: the fault happens again and dumps.
   * (Not SA_RESETHAND: two threads failing at once must both end here.) */
  signal (signum, SIG_DFL);
}

void
duel_system_install_fatal_handler (const char *program)
{
  g_return_if_fail (program != NULL);

  if (plain_lines != NULL)
    return;
  have_baseline = read_vm (&baseline_size, &baseline_data);
  program_name = g_strdup (program);
  stdout_is_tty = isatty (STDOUT_FILENO);
  plain_lines = g_new0 (Lines, 1);
  plain_lines->threads = g_strdup_printf ("%s: %s\n", program, thread_sentence ());
  plain_lines->memory = g_strdup_printf ("%s: %s\n", program,
                                         _("Drive Duel ran out of memory: the memory limit of this process or of the system is reached."));
  g_log_set_handler ("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION, fatal_handler, NULL);

  /* Sanitizers report crashes themselves, and need no memory limit. */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  {
    struct sigaction action = { 0 };

    static stack_t main_stack;

    page_size = (guint64) sysconf (_SC_PAGESIZE);
    alt_stack_begin (&main_stack);
    action.sa_handler = crash_handler;
    action.sa_flags = SA_NODEFER | SA_ONSTACK;
    sigemptyset (&action.sa_mask);
    sigaction (SIGSEGV, &action, NULL);
    sigaction (SIGBUS, &action, NULL);
  }
#endif
}

void
duel_system_set_kept_result (gconstpointer  owner,
                             const char    *result_path)
{
  Lines *lines = NULL;
  Lines *old;

  if (program_name == NULL)
    return;
  if (result_path != NULL)
    {
      g_autofree char *display = g_filename_display_name (result_path);
      g_autofree char *shown = duel_text_escape (display);

      g_autofree char *threads = NULL;
      g_autofree char *memory = NULL;

      /* TRANSLATORS: the result file; the journal beside it is synced every 2 s */
      threads = g_strdup_printf (_("Drive Duel could not start a thread (this user’s limit on processes or memory "
                                   "is reached) and stopped; what was measured is kept in “%s” up to its last "
                                   "checkpoint, at most 2 s before."), shown);
      /* TRANSLATORS: the result file; the journal beside it is synced every 2 s */
      memory = g_strdup_printf (_("Drive Duel ran out of memory and stopped; what was measured is kept in “%s” "
                                  "up to its last checkpoint, at most 2 s before."), shown);
      lines = g_new0 (Lines, 1);
      lines->owner = owner;
      lines->threads = g_strdup_printf ("%s: %s\n", program_name, threads);
      lines->memory = g_strdup_printf ("%s: %s\n", program_name, memory);
    }

  g_mutex_lock (&kept_lock);
  old = g_atomic_pointer_get (&kept_lines);
  if (lines == NULL && (old == NULL || old->owner != owner))
    {
      g_mutex_unlock (&kept_lock);
      return;
    }
  g_atomic_pointer_set (&kept_lines, lines);
  /* A handler may still be reading the previous one: freed one change later. */
  lines_free (retired_lines);
  retired_lines = old;
  g_mutex_unlock (&kept_lock);
}
