/* duel-target-lock.h — one run at a time on a target
 *
 * Two runs on one target would each measure the other's I/O. A run locks
 * its target's open file (flock(2), exclusive) before anything is written
 * to it, and holds the lock as long as the descriptor: the kernel drops it
 * when the run closes the target or its process dies, so a killed run
 * leaves nothing to clean up. Read runs lock too: they would measure a
 * writer's I/O as well.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Locks @fd, the target @path open for a run; waits up to 10 s while the
 * holder is a run that has ended (killed a moment ago). FALSE with one
 * sentence (DUEL_ERROR_REFUSED) naming the process that holds it, where the
 * system says which: "“t.img” is in use by another Drive Duel run (pid
 * 123); …". */
gboolean duel_target_lock_fd (int          fd,
                              const char  *path,
                              GError     **error);

/* A run killed a moment ago keeps its target until its ring lets go of it
 * (io_uring's exit work, once its I/O is done): TRUE when @path was locked
 * by a process that has ended and it let go within 10 s, or when no lock
 * is seen at all (a poll later: the ring drops its lock a moment before
 * its claim on a device), so that opening it again may work. Waits; not
 * for the owner's thread. */
gboolean duel_target_lock_wait_for_ended_run (const char *path);
/* The refusal above when a Drive Duel run holds the lock of @path (a
 * block device another run opened exclusively, so that this one cannot
 * open it to lock it); NULL otherwise. */
char    *duel_target_lock_describe_holder (const char *path);
/* Whether a live process holds a flock on @path, as /proc/locks lists it
 * (nothing is locked to find out: a run starting meanwhile is not in its
 * way); FALSE where the holder is in another PID namespace. */
gboolean duel_target_lock_is_held (const char *path);

G_END_DECLS
