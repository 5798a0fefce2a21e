/* duel-comparison-checks.c — what the comparison says beside its rows
 *
 * Where the runs were not set up alike (fairness), tests one drive alone
 * ran, a file against a block device, figures faster than the drive's
 * link and filesystems that measure something else (honesty), and the
 * notes on a test's rows; the warnings grouped by cause for a short
 * display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-comparison-private.h"
#include "duel-sequential-write.h"
#include "device/duel-device-link.h"
#include "device/duel-filesystem-note.h"
#include "duel-json.h"
#include "duel-passes.h"
#include "duel-size.h"
#include "review/duel-review-test.h"

/* ---- Fairness ---------------------------------------------------------------- */

static void
warn (DuelComparison *self,
      const char     *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
add_warning (DuelComparison *self,
             const char     *cause,
             const char     *title,
             const char     *format,
             va_list         args) G_GNUC_PRINTF (4, 0);

static void
add_warning (DuelComparison *self,
             const char     *cause,
             const char     *title,
             const char     *format,
             va_list         args)
{
  DuelWarningOrigin origin = { cause, title };

  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  g_array_append_val (self->origins, origin);
}

static void
warn (DuelComparison *self,
      const char     *format,
      ...)
{
  va_list args;

  va_start (args, format);
  add_warning (self, NULL, NULL, format, args);
  va_end (args);
}

/* A warning about one test for one cause: the same causes group into one
 * line (duel_comparison_dup_warning_lines()). */
static void warn_about (DuelComparison *self,
                        const char     *cause,
                        const char     *title,
                        const char     *format,
                        ...) G_GNUC_PRINTF (4, 5);

static void
warn_about (DuelComparison *self,
            const char     *cause,
            const char     *title,
            const char     *format,
            ...)
{
  va_list args;

  va_start (args, format);
  add_warning (self, cause, title, format, args);
  va_end (args);
}

/* A test drive @drive did not run: the tests one drive lacks group into
 * one line ("Intel SSD 750 has no results on 9 tests: …"). The cause is
 * that drive's own sentence, already translated. */
void
_duel_comparison_warn_missing (DuelComparison *self,
                               const char     *test,
                               guint           drive)
{
  const char *title = duel_comparison_get_section_title (self, test);

  if (self->missing_causes[drive] == NULL)
    /* TRANSLATORS: the start of a grouped warning, "%s has no results on 9 tests: …"; %s is a drive */
    self->missing_causes[drive] = g_strdup_printf (_("%s has no results"), self->names[drive]);
  warn_about (self, self->missing_causes[drive], title, _("%s was not run on %s; its rows are empty there."),
              title, self->names[drive]);
}

static double
span_fraction (DuelResult           *result,
               const DuelTestRecord *record)
{
  const DuelTargetInfo *target = duel_result_get_target (result);

  if (target == NULL || target->size_bytes == 0 || record->span_length == 0)
    return NAN;
  return (double) record->span_length / (double) target->size_bytes;
}

/* The multiple of the span a test was asked to transfer, or NAN. */
static double
capacity_multiple (const DuelTestRecord *record)
{
  if (record->workload.size_multiple > 0)
    return record->workload.size_multiple;
  if (record->byte_limit > 0 && record->span_length > 0)
    return (double) record->byte_limit / (double) record->span_length;
  return NAN;
}

/* Whether a span covering @fraction of @result's target is a whole drive. */
static gboolean
whole_drive (DuelResult *result,
             double      fraction)
{
  const DuelTargetInfo *target = duel_result_get_target (result);

  return target != NULL && target->kind == DUEL_TARGET_KIND_BLOCK && isfinite (fraction) && fraction > 0.99;
}

/* The multiple of the span a test bounded by one did transfer (a fill
 * stopped early reached less than it asked), or NAN; NAN too for a write
 * that ends once its rate falls (the cache after idle), whose length is
 * what it measures. */
static double
reached_multiple (const DuelTestRecord *record)
{
  const DuelReviewStep *step = NULL;
  DuelSeriesRow total;

  if (!isfinite (capacity_multiple (record)) || record->span_length == 0 ||
      duel_series_get_length (record->series) == 0)
    return NAN;
  if (duel_review_test_find_step (record->name, NULL, &step) && step->until_fall_share > 0)
    return NAN;
  duel_series_sum (record->series, &total);
  return (double) (total.bytes[DUEL_DIRECTION_READ] + total.bytes[DUEL_DIRECTION_WRITE]) /
         (double) record->span_length;
}

/* Whether @record's figures are read from latencies it holds (a published
 * reference holds none). */
static gboolean
has_latencies (const DuelTestRecord *record)
{
  DuelAnalysisKind kind = duel_analysis_kind_of_record (record);

  if (kind != DUEL_ANALYSIS_QOS && kind != DUEL_ANALYSIS_CONSISTENCY)
    return FALSE;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    if (record->latency[d] != NULL && record->latency[d]->count > 0)
      return TRUE;
  return FALSE;
}

/* How long the drive rested before @record (recovery after idle), as
 * asked; 0 when no idle came before it. */
static double
idle_planned_ms (DuelTestRecord *record)
{
  JsonObject *recovery = duel_json_get_object (duel_test_record_get_details (record), "recovery");
  double ms = 0;

  return duel_json_get_number (recovery, "idle_planned_ms", &ms) ? ms : 0;
}

/* Drive @j's run of @test against drive @i's (the first drive that ran it). */
void
_duel_comparison_check_fairness (DuelComparison *self,
                                 const char     *test,
                                 guint           i,
                                 guint           j)
{
  DuelTestRecord *a = duel_result_find_test (self->results[i], test);
  DuelTestRecord *b = duel_result_find_test (self->results[j], test);
  const char *name_a = self->names[i], *name_b = self->names[j];
  /* The test as people know it, never its record name. */
  const char *title = duel_comparison_get_section_title (self, test);
  double fa, fb, ma, mb, ra, rb;
  gboolean measured;

  if (a == NULL || b == NULL)
    return;

  /* Published figures say what the review printed, not how it ran. */
  measured = !duel_result_is_published (self->results[i]) && !duel_result_is_published (self->results[j]);
  fa = span_fraction (self->results[i], a);
  fb = span_fraction (self->results[j], b);
  /* The span's size as well as its share of the target: a fill over 1 GiB
   * meets a cache of the same size differently from one over 256 MiB. Two
   * whole drives of different sizes are the review's own method. */
  if (measured && a->span_length > 0 && b->span_length > 0 &&
      fabs ((double) a->span_length - (double) b->span_length) > 0.01 * MAX (a->span_length, b->span_length) &&
      !(whole_drive (self->results[i], fa) && whole_drive (self->results[j], fb)))
    {
      g_autofree char *size_a = duel_format_size (a->span_length);
      g_autofree char *size_b = duel_format_size (b->span_length);

      warn_about (self, N_("The spans differ"), title, _("%s: the spans differ (%s on %s, %s on %s)."),
                  title, size_a, name_a, size_b, name_b);
    }
  if (isfinite (fa) && isfinite (fb) && fabs (fa - fb) > 0.01)
    warn_about (self, N_("The spans differ"), title,
                _("%s: the span covers %.0f %% of %s but %.0f %% of %s."),
          title, fa * 100, name_a, fb * 100, name_b);

  ma = capacity_multiple (a);
  mb = capacity_multiple (b);
  ra = reached_multiple (a);
  rb = reached_multiple (b);
  if (isfinite (ma) && isfinite (mb) && fabs (ma - mb) > 0.01 * MAX (ma, mb))
    warn_about (self, N_("The amounts written differ"), title,
                _("%s: %s wrote %.2g× its span but %s wrote %.2g×."), title, name_a, ma, name_b, mb);
  else if (isfinite (ma) != isfinite (mb) && !duel_result_is_published (self->results[i]) &&
           !duel_result_is_published (self->results[j]))
    warn_about (self, N_("The amounts written differ"), title,
                _("%s: one run was bounded by a capacity multiple, the other was not."), title);
  /* Asked alike, but one stopped early: its curve ends where the other's
   * goes on (a fill stopped at 147 % against one at 200 %). */
  else if (measured && isfinite (ra) && isfinite (rb) && fabs (ra - rb) > 0.01 * MAX (ra, rb))
    warn_about (self, N_("The amounts written differ"), title,
                /* TRANSLATORS: a test's title, then the percentage of its span each drive's run reached */
                _("%s: the run on %s reached %.0f %% of its span, the run on %s %.0f %%."),
                title, name_a, ra * 100, name_b, rb * 100);

  /* A slowest interval of 100 ms is not one of 1 s, nor is a curve's noise. */
  if (measured && a->workload.interval_ms > 0 && b->workload.interval_ms > 0 &&
      a->workload.interval_ms != b->workload.interval_ms &&
      duel_series_get_length (a->series) > 0 && duel_series_get_length (b->series) > 0)
    warn_about (self, N_("The intervals differ"), title,
                _("%s: the intervals differ (%u ms on %s, %u ms on %s)."),
                title, a->workload.interval_ms, name_a, b->workload.interval_ms, name_b);

  if (a->workload.runtime_ms > 0 && b->workload.runtime_ms > 0 &&
      a->workload.runtime_ms != b->workload.runtime_ms)
    warn_about (self, N_("The run lengths differ"), title,
                _("%s: the run lengths differ (%.0f s on %s, %.0f s on %s)."),
          title, a->workload.runtime_ms / 1000.0, name_a, b->workload.runtime_ms / 1000.0, name_b);
  /* Runs asked for the same time end within a drain of it: their measured
   * lengths are compared only when no time bounded them. */
  else if (a->runtime_ns > 0 && b->runtime_ns > 0 &&
           !(a->workload.runtime_ms > 0 && a->workload.runtime_ms == b->workload.runtime_ms) &&
           a->workload.size_multiple == 0 && b->workload.size_multiple == 0 &&
           a->workload.size_bytes == 0 && b->workload.size_bytes == 0 &&
           fabs ((double) a->runtime_ns - (double) b->runtime_ns) > 0.10 * MAX (a->runtime_ns, b->runtime_ns))
    warn_about (self, N_("The run lengths differ"), title,
                _("%s: the runs lasted %.3g s on %s and %.3g s on %s."),
          title, a->runtime_ns / 1e9, name_a, b->runtime_ns / 1e9, name_b);

  /* A drive that rested longer had more time to recover. */
  if (idle_planned_ms (a) > 0 && idle_planned_ms (b) > 0 && idle_planned_ms (a) != idle_planned_ms (b))
    warn_about (self, N_("The idle periods differ"), title,
                /* TRANSLATORS: a test's title, then how long each drive rested before it, in seconds */
                _("%s: the drives rested for different times before it (%.0f s on %s, %.0f s on %s)."),
                title, idle_planned_ms (a) / 1e3, name_a, idle_planned_ms (b) / 1e3, name_b);

  if (a->trimmed != b->trimmed && !duel_result_is_published (self->results[i]) &&
      !duel_result_is_published (self->results[j]))
    warn_about (self, N_("The trim before the run differs"), title,
                _("%s: the span was trimmed before the run on %s only."), title, a->trimmed ? name_a : name_b);

  /* fio's clat leaves the submission out: lower than the same I/Os' total
   * latency, so the two are not set against each other silently. */
  if (a->latency_kind != b->latency_kind && has_latencies (a) && has_latencies (b))
    warn_about (self, N_("The latencies are measured differently"), title,
                /* TRANSLATORS: completion latency is fio's clat (without the submission); total is from submission to completion */
                _("%s: latency measured differently: completion latency (fio clat) on %s, total on %s."), title,
                a->latency_kind == DUEL_LATENCY_COMPLETION ? name_a : name_b,
                a->latency_kind == DUEL_LATENCY_COMPLETION ? name_b : name_a);

  if (a->workload.block_size != b->workload.block_size)
    {
      g_autofree char *bs_a = duel_workload_format_block_size (a->workload.block_size);
      g_autofree char *bs_b = duel_workload_format_block_size (b->workload.block_size);

      warn_about (self, N_("The block sizes differ"), title,
                  /* TRANSLATORS: a test's title, then a block size ("4 KiB") and a drive, twice */
                  _("%s: the block sizes differ (%s on %s, %s on %s)."),
                  title, bs_a, name_a, bs_b, name_b);
    }

  if (a->workload.queue_depth != b->workload.queue_depth)
    warn_about (self, N_("The queue depths differ"), title,
                _("%s: the queue depths differ (%u on %s, %u on %s)."),
          title, a->workload.queue_depth, name_a, b->workload.queue_depth, name_b);

  if (a->workload.numjobs != b->workload.numjobs)
    warn_about (self, N_("The numbers of jobs differ"), title,
                _("%s: the numbers of jobs differ (%u on %s, %u on %s)."),
          title, a->workload.numjobs, name_a, b->workload.numjobs, name_b);

  if (a->workload.read_percent != b->workload.read_percent || a->workload.pattern != b->workload.pattern)
    {
      /* In the words of the figures' labels, not fio's ("randrw"). */
      g_autofree char *mix_a = duel_workload_describe_mix (&a->workload);
      g_autofree char *mix_b = duel_workload_describe_mix (&b->workload);

      warn_about (self, N_("The access patterns differ"), title,
                  /* TRANSLATORS: a test's title, then an access ("random 70/30 read/write") and a drive, twice */
                  _("%s: the access patterns differ (%s on %s, %s on %s)."),
                  title, mix_a, name_a, mix_b, name_b);
    }

  {
    g_autoptr(GPtrArray) passes_a = duel_passes_find_records (self->results[i], test);
    g_autoptr(GPtrArray) passes_b = duel_passes_find_records (self->results[j], test);

    /* The best of five against a single run favours the five. */
    if (passes_a->len != passes_b->len)
      warn_about (self, N_("The numbers of passes differ"), title,
                _("%s: the best of %u passes on %s is set against the best of %u on %s."),
            title, passes_a->len, name_a, passes_b->len, name_b);
  }

  if (a->status != DUEL_TEST_STATUS_COMPLETE || b->status != DUEL_TEST_STATUS_COMPLETE)
    warn_about (self, N_("A run did not complete"), title,
                _("%s: the run on %s did not complete (%s)."), title,
          a->status != DUEL_TEST_STATUS_COMPLETE ? name_a : name_b,
          duel_test_status_describe (a->status != DUEL_TEST_STATUS_COMPLETE ? a->status : b->status));
}

/* A file against a block device: the file's filesystem (its cache, its
 * allocation) stands between the test and the drive on one side only. */
void
_duel_comparison_check_target_kinds (DuelComparison *self)
{
  const DuelTargetInfo *first = NULL;
  guint f = 0;

  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelTargetInfo *target = duel_result_get_target (self->results[d]);

      if (target == NULL || target->path == NULL || duel_result_is_published (self->results[d]))
        continue;
      if (first == NULL)
        {
          first = target;
          f = d;
          continue;
        }
      if (target->kind == first->kind)
        continue;
      warn (self,
            /* TRANSLATORS: the drive measured through a file, then the one measured as a block device */
            _("%s was measured through a file and %s as a block device: the file’s filesystem stands "
              "between the test and the drive on one side only."),
            first->kind == DUEL_TARGET_KIND_FILE ? self->names[f] : self->names[d],
            first->kind == DUEL_TARGET_KIND_FILE ? self->names[d] : self->names[f]);
    }
}

/* The tests one drive alone ran (@only: their titles, per drive), left out
 * of the comparison: one sentence per drive, however many; and, when no
 * test was compared, that only the identities were. */
void
_duel_comparison_warn_left_out (DuelComparison *self,
                                GPtrArray      *only[DUEL_COMPARISON_MAX_DRIVES])
{
  if (self->n_drives <= 1)
    return;
  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *list = NULL;

      if (only[d]->len == 0)
        continue;
      g_ptr_array_add (only[d], NULL);
      list = g_strjoinv (", ", (char **) only[d]->pdata);
      warn (self, g_dngettext (GETTEXT_PACKAGE,
                               "%s was run on %s only; it is left out of the comparison.",
                               "%s were run on %s only; they are left out of the comparison.",
                               only[d]->len - 1),
            list, self->names[d]);
    }
  if (self->tests->len == 0)
    warn (self, self->n_drives == 2
                ? _("The two results have no test in common: only their identities can be compared.")
                : _("No two of the results have a test in common: only their identities can be compared."));
}

/* ---- Notes -------------------------------------------------------------------- */

static void
add_drive_note (DuelComparison *self,
                GPtrArray      *notes,
                guint           drive,
                const char     *note)
{
  if (self->n_drives > 1)
    /* TRANSLATORS: a note on one drive's figures: the drive's name, the note */
    g_ptr_array_add (notes, g_strdup_printf (_("%s: %s"), self->names[drive], note));
  else
    g_ptr_array_add (notes, g_strdup (note));
}

/* The notes on @test's rows: the falls and declines of a fill, and a
 * consistency run whose last interval was cut short and left out of its
 * figures. */
void
_duel_comparison_add_notes (DuelComparison *self,
                            const char     *test)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  for (guint d = 0; d < self->n_drives; d++)
    {
      DuelTestRecord *record = duel_result_find_test (self->results[d], test);
      DuelAnalysisKind kind;
      g_autofree char *note = NULL;

      if (record == NULL)
        continue;
      /* The process was paused: said on the test's rows, and as a warning
       * that the exports (Markdown, PDF) carry. */
      {
        g_autofree char *paused = duel_test_record_dup_pause_note (record);

        if (paused != NULL)
          {
            add_drive_note (self, notes, d, paused);
            /* TRANSLATORS: a warning: the test's title, the drive's name, the sentence about the pause */
            warn (self, _("%s on %s: %s"), duel_comparison_get_section_title (self, test), self->names[d], paused);
          }
      }
      kind = duel_analysis_kind_of_record (record);
      if (kind == DUEL_ANALYSIS_SATURATION)
        {
          /* Each fall and decline of the fill, in a sentence. */
          g_auto(GStrv) falls = duel_saturation_dup_falls_text (duel_json_get_object (record->summary, "details"));

          for (guint i = 0; falls[i] != NULL; i++)
            add_drive_note (self, notes, d, falls[i]);
          continue;
        }
      if (kind == DUEL_ANALYSIS_SEQUENTIAL_WRITE)
        {
          /* Where the cache ran out, or that the write held one speed. */
          g_auto(GStrv) lines = duel_sequential_write_dup_text (duel_json_get_object (record->summary, "details"));

          for (guint i = 0; lines[i] != NULL; i++)
            add_drive_note (self, notes, d, lines[i]);
          continue;
        }
      if (kind != DUEL_ANALYSIS_CONSISTENCY)
        continue;
      note = duel_analysis_consistency_dup_partial_note (record);
      if (note != NULL)
        add_drive_note (self, notes, d, note);
    }
  g_ptr_array_add (notes, NULL);
  g_hash_table_replace (self->notes, g_strdup (test), notes);
}

/* ---- Honest numbers ------------------------------------------------------------ */

/* A throughput above its drive's link ceiling came from a cache; a file on
 * tmpfs, NFS, ZFS… measures more than the drive. Both are said as warnings,
 * so every output that prints them (the window, compare, the exports) does. */
void
_duel_comparison_check_honesty (DuelComparison *self)
{
  for (guint d = 0; d < self->n_drives; d++)
    {
      JsonObject *device = duel_result_get_device (self->results[d]);
      JsonObject *fs = duel_json_get_object (device, "filesystem");
      double ceiling = duel_device_link_ceiling_from_json (device);
      const char *note = duel_filesystem_note (duel_json_get_string (fs, "type"),
                                               duel_json_get_string (fs, "options"));

      if (note != NULL && self->n_drives > 1)
        /* TRANSLATORS: a drive's name, then what its file target's filesystem measures */
        warn (self, _("%s: %s"), self->names[d], note);
      else if (note != NULL)
        warn (self, "%s", note);

      for (guint i = 0; ceiling > 0 && i < self->rows->len; i++)
        {
          DuelComparisonRow *row = &g_array_index (self->rows, DuelComparisonRow, i);
          g_autofree char *sentence = NULL;
          const char *title;

          if (row->kind != DUEL_COMPARISON_ROW_FIGURE || g_strcmp0 (row->unit, "MB/s") != 0 ||
              g_strcmp0 (row->test, DUEL_COMPARISON_RATED_SECTION) == 0 || !row->has_value[d] ||
              !duel_link_ceiling_is_exceeded (ceiling, row->value[d] * 1e6))
            continue;
          row->above_ceiling[d] = TRUE;
          /* Marked where it is printed (the window, the tables, the exports);
           * the warning says why. */
          {
            char *marked = g_strconcat (row->text[d] != NULL ? row->text[d] : "", " ⚠", NULL);

            g_free (row->text[d]);
            row->text[d] = marked;
          }
          title = duel_comparison_get_section_title (self, row->test);
          sentence = duel_analysis_dup_ceiling_note (row->label, row->value[d], ceiling);
          /* TRANSLATORS: the test's title, the drive's name, then a sentence
           * ("Sequential read: 2,000.0 MB/s is faster than the link …") */
          warn_about (self, N_("A figure is faster than the drive’s link"), title,
                      _("%s on %s: %s"), title, self->names[d], sentence);
        }
    }
}

/* ---- Warnings for a short display --------------------------------------------- */

/* How many test titles a grouped line names before "and N more". */
#define GROUP_TITLES_SHOWN 3

/* The warnings of one cause (or one warning with none): where it was first
 * met, and its tests, once each. */
typedef struct
{
  guint       first;
  GPtrArray  *titles;     /* const char*, the comparison's own strings */
} WarningGroup;

static void
warning_group_free (WarningGroup *group)
{
  g_ptr_array_unref (group->titles);
  g_free (group);
}

/* One cause's line: its sentence when it concerns one test, else the cause,
 * how many tests and which. */
static char *
group_line (DuelComparison     *self,
            const WarningGroup *group)
{
  const char *cause = g_array_index (self->origins, DuelWarningOrigin, group->first).cause;
  guint n_tests = group->titles->len;
  g_autoptr(GString) titles = g_string_new (NULL);

  if (n_tests == 1)
    return g_strdup (g_ptr_array_index (self->warnings, group->first));
  for (guint t = 0; t < MIN (n_tests, GROUP_TITLES_SHOWN); t++)
    g_string_append_printf (titles, "%s%s", t > 0 ? _(", ") : "", (const char *) g_ptr_array_index (group->titles, t));
  if (n_tests > GROUP_TITLES_SHOWN)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more", "%s and %u more",
                                                            n_tests - GROUP_TITLES_SHOWN),
                                               titles->str, n_tests - GROUP_TITLES_SHOWN);

      g_string_assign (titles, more);
    }
  /* TRANSLATORS: a cause ("The run lengths differ"), how many tests, which ones */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s on %u test: %s.", "%s on %u tests: %s.", n_tests),
                          g_dgettext (GETTEXT_PACKAGE, cause), n_tests, titles->str);
}

char **
duel_comparison_dup_warning_lines (DuelComparison *self)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr(GHashTable) by_cause = NULL;  /* cause → its group in @groups */
  g_autoptr(GPtrArray) groups = NULL;     /* WarningGroup, in the order met */

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  by_cause = g_hash_table_new (g_str_hash, g_str_equal);
  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) warning_group_free);
  /* One line per cause, where it is first met; a test met twice for it
   * (drives C and D against A) counts once. A warning with no cause is a
   * group of its own. */
  for (guint i = 0; i < self->origins->len; i++)
    {
      const DuelWarningOrigin *origin = &g_array_index (self->origins, DuelWarningOrigin, i);
      WarningGroup *group = origin->cause != NULL ? g_hash_table_lookup (by_cause, origin->cause) : NULL;

      if (group == NULL)
        {
          group = g_new0 (WarningGroup, 1);
          group->first = i;
          group->titles = g_ptr_array_new ();
          g_ptr_array_add (groups, group);
          if (origin->cause != NULL)
            g_hash_table_insert (by_cause, (gpointer) origin->cause, group);
        }
      if (!g_ptr_array_find_with_equal_func (group->titles, origin->title, g_str_equal, NULL))
        g_ptr_array_add (group->titles, (gpointer) origin->title);
    }

  for (guint k = 0; k < groups->len; k++)
    {
      g_autofree char *line = group_line (self, g_ptr_array_index (groups, k));

      g_strv_builder_add (lines, line);
    }
  return g_strv_builder_end (lines);
}
