/* duel-system.h — when the system runs out: threads, memory, the last resort
 *
 * Threads and memory can run out at any point of any command (a per-user
 * process limit, `ulimit -v`, a container's cgroup). Drive Duel then ends
 * with one sentence and exit code 1, never a hang or an abort:
 *
 * - Workers run in threads of their own (duel_task_run_in_thread()), not in
 *   GLib's shared pool, which queues a task for ever when it cannot start a
 *   thread; a thread that cannot start is an error, in one sentence.
 * - Loading a file takes no more memory than the process may still map
 *   (duel_system_memory_room()).
 * - What GLib itself cannot survive (g_malloc() or g_thread_new() failing
 *   inside GLib, GTK or json-glib) ends in a handler installed at startup
 *   (duel_system_install_fatal_handler()), which writes a sentence prepared
 *   then and calls _exit(1).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* g_thread_try_new(), with the error in one sentence of Drive Duel's
 * (DUEL_ERROR_SYSTEM). The thread is joinable, as g_thread_try_new()'s,
 * and has a stack of its own for the crash handler. */
GThread *duel_thread_try_new            (const char       *name,
                                         GThreadFunc       func,
                                         gpointer          data,
                                         GError          **error);

/* g_task_new() for a task that duel_task_run_in_thread() runs. */
GTask   *duel_task_new                  (gpointer             source_object,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             callback_data);
/* Runs @func in a thread of its own. As with g_task_run_in_thread(), the
 * callback runs in the task's context once @func has returned (its
 * cleanups done: a target it opened is closed). When no thread can start,
 * the task returns duel_thread_try_new()'s error instead. */
void     duel_task_run_in_thread        (GTask            *task,
                                         GTaskThreadFunc   func);

/* Bytes a load (a result, a journal, an fio output) may take before
 * RLIMIT_AS or RLIMIT_DATA stops the process: the limit less what the
 * process held at startup (when duel_system_install_fatal_handler() ran)
 * and a reserve for what else runs meanwhile; G_MAXUINT64 without either
 * limit, or in a program that did not install the handler. */
guint64  duel_system_memory_room        (void);
/* The smaller of the two limits, in bytes; G_MAXUINT64 without either. */
guint64  duel_system_memory_limit       (void);

/* Installs, once, the handler of GLib's fatal errors for want of threads
 * or memory: it writes "@program: " and one sentence to stderr (the one
 * duel_system_set_kept_result() chose, if any) and calls _exit(1). Other
 * fatal errors abort as before. Call it after the locale is set. */
void     duel_system_install_fatal_handler (const char *program);
/* A run's result that a fatal error would leave on disk up to its last
 * checkpoint, named by the handler's sentence from now on; NULL forgets
 * it. @owner identifies the caller: only the same owner clears it. */
void     duel_system_set_kept_result    (gconstpointer     owner,
                                         const char       *result_path);

G_END_DECLS
