/* duel-engine-watchdog.c — tells a pause of the process from a loop held in a call
 *
 * A gap in a loop's clock (duel-engine-ring.c) has two causes. Either the
 * process did not run — SIGSTOP, a debugger, a frozen cgroup or VM: a pause,
 * whose time no row may cover — or the loop's thread was held in the kernel
 * while the process ran: io_uring's first submit on a FUSE file waits for the
 * server to answer a poll, so a server that stops there holds the loop for as
 * long as it is stopped. That is a device that stopped answering, and its
 * empty rows are the measurement. The loop cannot tell the two apart from its
 * own clock; another thread of the process can. The watchdog wakes every
 * 50 ms and notes every gap in its own ticks of PAUSE_MIN_NS or more (a
 * silence): a stopped process stops it too, a held loop does not. A loop
 * takes the part of its gap that a silence covers for a pause, and the rest
 * for what the device did.
 *
 * One per run, its jobs share it: a wake-up every 50 ms and nothing per
 * I/O; the loops ask it only when their own clock jumped by PAUSE_MIN_NS.
 * Constant memory: the last N_SILENCES silences. A suspend needs no
 * watchdog: CLOCK_BOOTTIME running ahead of CLOCK_MONOTONIC says it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-engine-private.h"
#include "duel-system.h"

#define TICK_NS     (50 * NS_PER_MS)
/* A loop's gap spans at most this many silences it can still see: a gap
 * that held more (each of 2 s or more) lets the oldest count as the device's. */
#define N_SILENCES  16

struct _DuelEngineWatchdog
{
  GThread        *thread;
  GMutex          lock;                /* everything below */
  GCond           cond;
  gboolean        stop;
  guint64         last_tick;           /* CLOCK_MONOTONIC */
  DuelEngineSpan  silences[N_SILENCES];/* silence k at k % N_SILENCES */
  guint64         n_silences;          /* noted since the start */
};

static gpointer
watchdog_thread (gpointer data)
{
  DuelEngineWatchdog *self = data;

  g_mutex_lock (&self->lock);
  while (!self->stop)
    {
      guint64 now;

      g_cond_wait_until (&self->cond, &self->lock,
                         g_get_monotonic_time () + (gint64) (TICK_NS / 1000));
      now = _duel_engine_now_ns ();
      if (now - self->last_tick >= PAUSE_MIN_NS)
        {
          DuelEngineSpan *silence = &self->silences[self->n_silences++ % N_SILENCES];

          silence->from = self->last_tick;
          silence->to = now;
          g_debug ("Engine: the watchdog did not run for %.3f s", (now - self->last_tick) / 1e9);
        }
      self->last_tick = now;
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

DuelEngineWatchdog *
_duel_engine_watchdog_start (void)
{
  g_autoptr(GError) error = NULL;
  DuelEngineWatchdog *self = g_new0 (DuelEngineWatchdog, 1);

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->last_tick = _duel_engine_now_ns ();
  self->thread = duel_thread_try_new ("duel-watchdog", watchdog_thread, self, &error);
  if (self->thread == NULL)
    {
      /* Out of threads or memory: the run goes on; a pause of the process
       * then shows as empty rows, as a stall of the device would. */
      g_debug ("Engine: no watchdog thread (%s): a pause of the process is not told from a stall of the device, only a suspend is",
               error->message);
      g_cond_clear (&self->cond);
      g_mutex_clear (&self->lock);
      g_free (self);
      return NULL;
    }
  return self;
}

void
_duel_engine_watchdog_stop (DuelEngineWatchdog *self)
{
  if (self == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->stop = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (self->thread);
  g_cond_clear (&self->cond);
  g_mutex_clear (&self->lock);
  g_free (self);
}

guint
_duel_engine_watchdog_silences (DuelEngineWatchdog *self,
                                guint64             from,
                                guint64             to,
                                DuelEngineSpan     *out,
                                guint               max)
{
  guint64 first;
  guint n = 0;

  if (self == NULL)
    return 0;
  g_mutex_lock (&self->lock);
  first = self->n_silences > N_SILENCES ? self->n_silences - N_SILENCES : 0;
  /* The last one is the silence still going on, when the process was
   * continued and this thread ran before the watchdog did. */
  for (guint64 k = first; k <= self->n_silences && n < max; k++)
    {
      DuelEngineSpan silence;

      if (k < self->n_silences)
        silence = self->silences[k % N_SILENCES];
      else
        silence = (DuelEngineSpan) { self->last_tick, MAX (self->last_tick, to) };
      silence.from = MAX (silence.from, from);
      silence.to = MIN (silence.to, to);
      if (silence.to > silence.from && silence.to - silence.from >= PAUSE_MIN_NS)
        out[n++] = silence;
    }
  g_mutex_unlock (&self->lock);
  return n;
}
