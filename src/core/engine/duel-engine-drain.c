/* duel-engine-drain.c — what a stop waits for, and giving up the wait
 *
 * After a cancel, each engine loop (each job's) waits for its I/O in
 * flight: a run ends when the device has answered everything it was
 * asked. A device that does not answer (a hung drive, a FUSE server that
 * stopped) makes that wait endless. The loops report here what they wait
 * for, so that the run's owner can say it, and read here whether to give
 * the wait up. The state hangs on the run's cancellable, which every loop
 * of the run already has.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-engine-private.h"

struct _DuelDrain
{
  GMutex   lock;
  guint    stopping;          /* loops waiting for their I/O */
  guint    in_flight;         /* the I/Os they wait for */
  guint64  last_answer_ns;    /* the device's last answer, or the first stop */
  guint    abandoned;         /* I/Os left in flight */
  gint     given_up;          /* atomic: read once per pass */
};

static GQuark
drain_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("duel-engine-drain"));
  return (GQuark) quark;
}

static void
drain_free (gpointer data)
{
  DuelDrain *drain = data;

  g_mutex_clear (&drain->lock);
  g_free (drain);
}

DuelDrain *
_duel_drain_get (GCancellable *cancellable)
{
  static GMutex lock;
  DuelDrain *drain;

  if (cancellable == NULL)
    return NULL;
  g_mutex_lock (&lock);
  drain = g_object_get_qdata (G_OBJECT (cancellable), drain_quark ());
  if (drain == NULL)
    {
      drain = g_new0 (DuelDrain, 1);
      g_mutex_init (&drain->lock);
      g_object_set_qdata_full (G_OBJECT (cancellable), drain_quark (), drain, drain_free);
    }
  g_mutex_unlock (&lock);
  return drain;
}

void
_duel_drain_begin (DuelDrain *drain,
                   guint64    now_ns)
{
  g_mutex_lock (&drain->lock);
  /* The wait counts from the first loop's stop. */
  if (drain->stopping == 0)
    drain->last_answer_ns = now_ns;
  drain->stopping++;
  g_mutex_unlock (&drain->lock);
}

void
_duel_drain_update (DuelDrain *drain,
                    gint       delta,
                    gboolean   answered,
                    guint64    now_ns)
{
  g_mutex_lock (&drain->lock);
  drain->in_flight = (guint) MAX ((gint64) drain->in_flight + delta, 0);
  if (answered)
    drain->last_answer_ns = now_ns;
  g_mutex_unlock (&drain->lock);
}

void
_duel_drain_end (DuelDrain *drain,
                 guint      abandoned)
{
  g_mutex_lock (&drain->lock);
  drain->stopping--;
  drain->abandoned += abandoned;
  g_mutex_unlock (&drain->lock);
}

gboolean
_duel_drain_given_up (DuelDrain *drain)
{
  return g_atomic_int_get (&drain->given_up) != 0;
}

gboolean
duel_engine_get_drain (GCancellable *cancellable,
                       guint        *out_in_flight,
                       guint64      *out_unanswered_ns)
{
  DuelDrain *drain;
  gboolean waiting;
  guint64 now = _duel_engine_now_ns ();

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  drain = _duel_drain_get (cancellable);
  if (drain == NULL)
    return FALSE;
  g_mutex_lock (&drain->lock);
  waiting = drain->stopping > 0 && drain->in_flight > 0;
  if (waiting && out_in_flight != NULL)
    *out_in_flight = drain->in_flight;
  if (waiting && out_unanswered_ns != NULL)
    *out_unanswered_ns = now > drain->last_answer_ns ? now - drain->last_answer_ns : 0;
  g_mutex_unlock (&drain->lock);
  return waiting;
}

void
duel_engine_give_up (GCancellable *cancellable)
{
  g_return_if_fail (G_IS_CANCELLABLE (cancellable));

  g_atomic_int_set (&_duel_drain_get (cancellable)->given_up, 1);
}

guint
duel_engine_get_abandoned (GCancellable *cancellable)
{
  DuelDrain *drain;
  guint abandoned;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), 0);

  drain = _duel_drain_get (cancellable);
  if (drain == NULL)
    return 0;
  g_mutex_lock (&drain->lock);
  abandoned = drain->abandoned;
  g_mutex_unlock (&drain->lock);
  return abandoned;
}
