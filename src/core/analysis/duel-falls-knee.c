/* duel-falls-knee.c — where on the rows a fall began
 *
 * The grid reads the throughput over a point of capacity, so a fit's knee
 * can be half a point early, or on a row's border on coarse rows. The knee
 * is placed on the rows themselves, where they leave the level before for
 * good, with how far it may be off.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-falls-private.h"

/* The width of row @r in bytes; 0 outside the series. */
static double
row_width (const DuelFallsCumulative *raw,
           guint                      r)
{
  return r + 1 < raw->n ? raw->bytes[r + 1] - raw->bytes[r] : 0;
}

/* A row, or a row taken together with the next where the host counted
 * writes of the one in the other: where the knee is looked for. */
typedef struct
{
  double   from, to;        /* bytes */
  double   ops, s;
  gboolean joined;          /* a slow row and the one that caught up with it */
} Piece;

static double
piece_ln_rate (const Piece *p)
{
  return p->ops > 0 && p->s > 0 ? log (p->ops / p->s) : NAN;
}

/* The rows from the one that passes @from bytes to the one that passes
 * @to, rows narrower than @least taken together until they hold that
 * much (on fine rows, a single row's count is noise: a quarter of a grid
 * step holds enough of them). A piece off the level before (below @off,
 * in ln IOPS) followed by one faster than that level (above @level) is
 * the host reaping the writes of the first in the second, or catching up
 * after a stall: the two are one piece. */
static GArray *
pieces_of_rows (const DuelFallsCumulative *raw,
                double                     from,
                double                     to,
                double                     least,
                double                     level,
                double                     off)
{
  GArray *pieces = g_array_new (FALSE, TRUE, sizeof (Piece));
  guint first = _duel_falls_cumulative_row_passing (raw, MAX (from, 0));
  guint last = _duel_falls_cumulative_row_passing (raw, MIN (to, _duel_falls_cumulative_total (raw)));
  Piece p = { .from = raw->bytes[first] };
  gboolean joined = FALSE;  /* the last piece is two taken together */

  for (guint r = first; r <= last && r + 1 < raw->n; r++)
    {
      p.to = raw->bytes[r + 1];
      p.ops += raw->ops[r + 1] - raw->ops[r];
      p.s += (raw->ms[r + 1] - raw->ms[r]) / 1e3;
      if (p.to - p.from < least && r < last && r + 2 < raw->n)
        continue;
      if (pieces->len > 0 && !joined)
        {
          Piece *prev = &g_array_index (pieces, Piece, pieces->len - 1);

          if (piece_ln_rate (prev) < off && piece_ln_rate (&p) > level)
            {
              prev->to = p.to;
              prev->ops += p.ops;
              prev->s += p.s;
              prev->joined = joined = TRUE;
              p = (Piece) { .from = p.to };
              continue;
            }
        }
      g_array_append_val (pieces, p);
      joined = FALSE;
      p = (Piece) { .from = p.to };
    }
  return pieces;
}

/* Whether piece @i is on the level before (at or above @off, in ln
 * IOPS), and not a burst: a piece among pieces at the level after (both
 * neighbours below @low), or one faster than the level (above @above)
 * among pieces off it. */
static gboolean
piece_back_on (const Piece *pieces,
               guint        n,
               guint        i,
               double       off,
               double       low,
               double       above)
{
  double x = piece_ln_rate (&pieces[i]), left, right;

  if (!(x >= off))
    return FALSE;
  if (i == 0 || i + 1 >= n)
    return TRUE;
  left = piece_ln_rate (&pieces[i - 1]);
  right = piece_ln_rate (&pieces[i + 1]);
  if (left <= low && right <= low)
    return FALSE;
  return !(x > above && left < off && right < off);
}

/* Whether a piece after @i that begins before @foot is above @half
 * (ln IOPS). */
static gboolean
comes_back (const Piece *pieces,
            guint        n,
            guint        i,
            double       foot,
            double       half)
{
  for (guint q = i + 1; q < n && pieces[q].from < foot; q++)
    if (piece_ln_rate (&pieces[q]) > half)
      return TRUE;
  return FALSE;
}

/* Where a fall that takes pieces began: the line (IOPS over bytes, as
 * the chart draws them) through the pieces from @k to the first at the
 * level after (below @low, in ln IOPS) meets the level before, no earlier
 * than the end of the last piece before @k at that level (within 2 %).
 * The first piece that leaves the level by a tenth of the way is already
 * some way into a ramp. @k's start where the line does not fall. */
static double
ramp_start (const Piece *pieces,
            guint        n,
            guint        k,
            double       before_iops,
            double       low,
            double       drop)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, slope, start, floor_at = 0, origin = pieces[k].from;
  guint end = k;

  while (end < n && !(piece_ln_rate (&pieces[end]) <= low))
    end++;
  if (end - k < 2)
    return pieces[k].from;
  for (guint i = k; i < end; i++)
    {
      double x = (pieces[i].from + pieces[i].to) / 2 - origin, y = pieces[i].ops / pieces[i].s;

      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      m++;
    }
  slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  if (!(slope < 0))
    return pieces[k].from;
  /* A ramp goes down beyond its noise: on two pieces, the second below
   * the first by a tenth of the way; on more, the slope three standard
   * errors from level. Else the line through them says nothing. */
  if (m < 3)
    {
      if (!(piece_ln_rate (&pieces[k + 1]) < piece_ln_rate (&pieces[k]) - 0.1 * drop))
        return pieces[k].from;
    }
  else
    {
      double mean_x = sx / m, ss = 0, spread = sxx - sx * sx / m;

      for (guint i = k; i < end; i++)
        {
          double x = (pieces[i].from + pieces[i].to) / 2 - origin, y = pieces[i].ops / pieces[i].s;
          double fit = sy / m + slope * (x - mean_x);

          ss += (y - fit) * (y - fit);
        }
      if (!(-slope >= 3 * sqrt (ss / (m - 2)) / sqrt (MAX (spread, 1e-300))))
        return pieces[k].from;
    }
  start = origin + (sx / m) + (before_iops - sy / m) / slope;
  for (guint i = 0; i < k; i++)
    if (pieces[i].ops / pieces[i].s >= 0.98 * before_iops)
      floor_at = pieces[i].to;
  return CLAMP (start, MAX (floor_at, pieces[0].from), pieces[k].from);
}

static int
compare_pieces_by_rate (gconstpointer a,
                        gconstpointer b)
{
  double x = piece_ln_rate (a), y = piece_ln_rate (b);

  return (x > y) - (x < y);
}

/* The ln IOPS below which a tenth of the bytes of the pieces from @from
 * to @to (bytes) were written (pieces taken together left out); NAN for
 * none, or where one piece alone holds that tenth. */
static double
slow_tenth (const Piece *pieces,
            guint        n,
            double       from,
            double       to)
{
  g_autoptr(GArray) within = g_array_new (FALSE, FALSE, sizeof (Piece));
  double all = 0, sum = 0;

  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].to <= to && !pieces[i].joined && !isnan (piece_ln_rate (&pieces[i])))
      {
        g_array_append_val (within, pieces[i]);
        all += pieces[i].to - pieces[i].from;
      }
  if (within->len == 0)
    return NAN;
  g_array_sort (within, compare_pieces_by_rate);
  for (guint i = 0; i < within->len; i++)
    {
      sum += g_array_index (within, Piece, i).to - g_array_index (within, Piece, i).from;
      /* A single slow piece is a host's stall, not a level. */
      if (sum >= 0.1 * all)
        return i >= 1 ? piece_ln_rate (&g_array_index (within, Piece, i)) : NAN;
    }
  return NAN;
}

/* The share of the time of the pieces from @from to @to (bytes) that
 * is spent back on the level before (piece_back_on()), with one piece of
 * @typical time on either side counted in so that a short stretch says
 * little; between 0.5 % and 99.5 %. */
static double
share_back_on (const Piece *pieces,
               guint        n,
               double       from,
               double       to,
               double       typical,
               double       off,
               double       low,
               double       above)
{
  double on = typical, all = 2 * typical;

  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].to <= to && !pieces[i].joined && !isnan (piece_ln_rate (&pieces[i])))
      {
        all += pieces[i].s;
        if (piece_back_on (pieces, n, i, off, low, above))
          on += pieces[i].s;
      }
  return CLAMP (on / all, 0.005, 0.995);
}

/* The grid spreads each row's rate evenly over its bytes and reads the
 * throughput over a point of capacity, so the fit puts a knee up to half
 * a point early, or at a row's border on rows coarser than the grid. The
 * knee is placed on the rows, where they leave the level before for good.
 * Each row (rows narrower than a quarter of a grid step taken together:
 * pieces_of_rows()) is on that level or off it (a tenth of the way, in ln
 * IOPS, down to the level after). Before the fall, most rows are on it:
 * off are those a busy host slowed down; after it, few are, or many where
 * garbage collection leaves rows between its stalls at the old rate. How
 * many of each, by their bytes, is read on either side: over the
 * fall_hold_pct before the stretch looked at and after the foot. The knee
 * is at the start of the row where the rows before it are likeliest the
 * level before's and the rows after it the level after's (each row
 * costing −ln of the share of its kind on the side it is put on, by its
 * bytes), the first such. A host's slow row, with rows back at the level
 * after it, is not where the fall began; garbage collection's stalls, with
 * rows at the old rate between them, are. It is looked for from two points
 * of capacity before the fitted knee to two after the foot, and not in a
 * stall (a row below halfway with a row back above halfway after it,
 * before the foot: a fall does not go most of the way down and then back
 * up). If the row after the knee's is at the level after (within a tenth
 * of the way), the fall is a step inside the row, and its time against
 * the levels gives the share of its ops done before the step,
 * (t − o / after) / (o / before − o / after): the knee is there, exactly
 * so for a step. Otherwise the fall takes rows, and it began where the
 * line through them meets the level before (ramp_start()).
 * Returns the knee's bytes; @out_resolution gets how far it may be off:
 * that row's width and the one's before it (a fall that takes rows may
 * have begun in the row before, at a rate its mean cannot tell from the
 * level), up to the last row before the foot as fast as the knee's (the
 * fall had gone no further by then), and no less than half the @point of
 * capacity the fit reads. */
double
_duel_falls_knee_in_row (const DuelFallsCumulative *raw,
                         double                     knee,
                         double                     foot,
                         double                     before_iops,
                         double                     after_iops,
                         double                     step,
                         double                     point,
                         double                     hold,
                         double                    *out_resolution)
{
  double drop = log (before_iops / after_iops), total = _duel_falls_cumulative_total (raw);
  double off = log (before_iops) - 0.1 * drop, low = log (after_iops) + 0.1 * drop;
  double half = (log (before_iops) + log (after_iops)) / 2, above = log (before_iops) + 0.1 * drop;
  double from = MAX (knee - 2 * point, 0), to = MIN (foot + 2 * point, total);
  double typical, on_before, on_after, cost = 0, best = INFINITY;
  double cost_on_before, cost_off_before, cost_on_after, cost_off_after;
  g_autoptr(GArray) array = NULL;
  const Piece *pieces;
  guint n, knee_piece = G_MAXUINT;

  *out_resolution = point / 2;
  if (!(drop > 0) || raw->n < 2)
    return knee;
  array = pieces_of_rows (raw, from - hold, MIN (MAX (to, foot + hold), total), step / 4, log (before_iops), off);
  pieces = (const Piece *) (gpointer) array->data;
  n = array->len;
  if (n == 0)
    return knee;
  typical = 0;
  for (guint i = 0; i < n; i++)
    typical += pieces[i].s / n;
  /* A band before the fall (garbage collection making whole points fast
   * or slow) is left at its slow level: where a tenth of the bytes before
   * were written at a level still above halfway, that is the level the
   * rows leave (a host's slow rows write few). */
  {
    double lowest = slow_tenth (pieces, n, from - hold, from);

    if (lowest < off && lowest > half)
      off = lowest - 0.1 * (lowest - log (after_iops));
  }
  on_before = share_back_on (pieces, n, from - hold, from, typical, off, low, above);
  on_after = share_back_on (pieces, n, foot, foot + hold, typical, off, low, above);
  cost_on_before = -log (on_before);
  cost_off_before = -log (1 - on_before);
  cost_on_after = -log (on_after);
  cost_off_after = -log (1 - on_after);
  /* The cost of a knee at the start of the first piece looked at: every
   * piece looked at on the side after. */
  for (guint i = 0; i < n; i++)
    if (pieces[i].from >= from && pieces[i].from < to)
      if (!pieces[i].joined)
        cost += pieces[i].s * (piece_back_on (pieces, n, i, off, low, above) ? cost_on_after : cost_off_after);
  for (guint i = 0; i < n; i++)
    {
      double x = piece_ln_rate (&pieces[i]);
      gboolean on = piece_back_on (pieces, n, i, off, low, above);

      if (!(pieces[i].from >= from && pieces[i].from < to) || isnan (x))
        continue;
      /* Before this piece's start: the cost so far. The knee is in a
       * piece that is off the level, and not in a stall. A slow row and
       * the one that caught up with it cost nothing either side: the knee
       * is after them, unless the next costs more. */
      if (x < off && !(x < half && comes_back (pieces, n, i, foot, half)) &&
          (cost < best || (cost == best && knee_piece != G_MAXUINT && pieces[knee_piece].joined && knee_piece + 1 == i)))
        {
          best = cost;
          knee_piece = i;
        }
      if (!pieces[i].joined)
        cost += pieces[i].s * ((on ? cost_on_before : cost_off_before) - (on ? cost_on_after : cost_off_after));
    }
  if (knee_piece == G_MAXUINT)
    return knee;
  {
    const Piece *p = &pieces[knee_piece];
    double left = 0, width = p->to - p->from, reach = p->to, x = piece_ln_rate (p), knee_from = p->from;
    double next = knee_piece + 1 < n ? piece_ln_rate (&pieces[knee_piece + 1]) : NAN;
    double width_before = knee_piece > 0 ? pieces[knee_piece - 1].to - pieces[knee_piece - 1].from
                          : p->from > 0 ? row_width (raw, _duel_falls_cumulative_row_passing (raw, p->from - 1)) : 0;

    if (next < low && p->ops > 0 && p->s > 0)
      left = CLAMP ((p->s - p->ops / after_iops) / (p->ops / before_iops - p->ops / after_iops), 0, 1);
    else
      {
        double start = ramp_start (pieces, n, knee_piece, before_iops, low, drop);

        if (start < p->from)
          {
            knee_from = start;
            width_before = p->from - start;
          }
      }
    /* Before the foot, a piece as fast as this one (within a tenth of the
     * way) says the fall had gone no further: this one may have been the
     * host's, and the fall may have begun as late as that piece. */
    for (guint i = knee_piece + 1; i < n && pieces[i].from < foot; i++)
      if (piece_ln_rate (&pieces[i]) >= x - 0.1 * drop)
        reach = pieces[i].to;
    *out_resolution = MAX (width_before + MAX (width, reach - p->from), point / 2);
    return knee_from + left * width;
  }
}
