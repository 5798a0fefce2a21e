/* duel-offsets.h — where the next I/O goes: uniform random or sequential with wrap
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-rng.h"
#include "duel-workload.h"

G_BEGIN_DECLS

typedef struct
{
  DuelRng     rng;           /* offsets */
  DuelRng     mix_rng;       /* read/write decisions, separate so the offsets do not depend on the mix */
  DuelPattern pattern;
  guint64     span_offset;
  guint64     n_blocks;      /* span length / block size */
  guint32     block_size;
  guint       read_percent;
  guint64     next_block;    /* sequential cursor */
} DuelOffsets;

static inline void
duel_offsets_init (DuelOffsets *offsets,
                   DuelPattern  pattern,
                   guint64      span_offset,
                   guint64      span_length,
                   guint32      block_size,
                   guint        read_percent,
                   guint64      seed)
{
  duel_rng_init (&offsets->rng, seed);
  duel_rng_init (&offsets->mix_rng, seed ^ G_GUINT64_CONSTANT (0x6d69782d726e67));
  offsets->pattern = pattern;
  offsets->span_offset = span_offset;
  offsets->n_blocks = span_length / block_size;
  offsets->block_size = block_size;
  offsets->read_percent = read_percent;
  offsets->next_block = 0;
}

/* Block-aligned, inside [span_offset, span_offset + n_blocks * block_size). */
static inline guint64
duel_offsets_next (DuelOffsets *offsets)
{
  guint64 block;

  if (offsets->pattern == DUEL_PATTERN_RANDOM)
    block = duel_rng_below (&offsets->rng, offsets->n_blocks);
  else
    {
      block = offsets->next_block++;
      if (offsets->next_block == offsets->n_blocks)
        offsets->next_block = 0;
    }
  return offsets->span_offset + block * offsets->block_size;
}

static inline gboolean
duel_offsets_next_is_read (DuelOffsets *offsets)
{
  if (offsets->read_percent >= 100)
    return TRUE;
  if (offsets->read_percent == 0)
    return FALSE;
  return duel_rng_below (&offsets->mix_rng, 100) < offsets->read_percent;
}

G_END_DECLS
