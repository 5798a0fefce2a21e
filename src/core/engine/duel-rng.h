/* duel-rng.h — xoshiro256** seeded by splitmix64: fast, reproducible from one seed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 s[4];
} DuelRng;

static inline guint64
duel_rng_splitmix64 (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static inline void
duel_rng_init (DuelRng *rng,
               guint64  seed)
{
  guint64 sm = seed;
  for (guint i = 0; i < 4; i++)
    rng->s[i] = duel_rng_splitmix64 (&sm);
}

static inline guint64
duel_rng_rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
duel_rng_next (DuelRng *rng)
{
  guint64 *s = rng->s;
  guint64 result = duel_rng_rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = duel_rng_rotl (s[3], 45);

  return result;
}

/* Uniform in [0, bound) without modulo bias (Lemire's multiply-shift with rejection). */
static inline guint64
duel_rng_below (DuelRng *rng,
                guint64  bound)
{
  unsigned __int128 m;
  guint64 low;

  if (bound <= 1)
    return 0;

  m = (unsigned __int128) duel_rng_next (rng) * bound;
  low = (guint64) m;
  if (G_UNLIKELY (low < bound))
    {
      guint64 threshold = -bound % bound;
      while (low < threshold)
        {
          m = (unsigned __int128) duel_rng_next (rng) * bound;
          low = (guint64) m;
        }
    }
  return (guint64) (m >> 64);
}

G_END_DECLS
