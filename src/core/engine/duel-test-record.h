/* duel-test-record.h — everything one test of a run measured
 *
 * A reference-counted value: the engine fills one while it runs (only from its
 * own thread), presets add a summary, results hold a list of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "duel-histogram.h"
#include "duel-series.h"
#include "duel-workload.h"

G_BEGIN_DECLS

#define DUEL_TYPE_TEST_RECORD (duel_test_record_get_type ())

typedef enum
{
  DUEL_TEST_STATUS_PENDING,     /* not started yet */
  DUEL_TEST_STATUS_RUNNING,     /* a checkpoint taken during the run */
  DUEL_TEST_STATUS_COMPLETE,
  DUEL_TEST_STATUS_CANCELLED,   /* stopped by the user; what was measured is kept */
  DUEL_TEST_STATUS_FAILED,      /* stopped by an error; what was measured is kept */
} DuelTestStatus;

typedef enum
{
  DUEL_BETTER_NONE,
  DUEL_BETTER_HIGHER,
  DUEL_BETTER_LOWER,
} DuelBetter;

/* What the latency histograms measure. */
typedef enum
{
  DUEL_LATENCY_TOTAL,       /* fio's lat: from submission to completion, what the engine measures */
  DUEL_LATENCY_COMPLETION,  /* fio's clat: the device's part, the submission left out (a plain fio import) */
} DuelLatencyKind;

typedef struct _DuelTestRecord DuelTestRecord;

/* A pause of the process during a test: SIGSTOP, a suspend, a frozen VM
 * (duel-engine-ring.c). The engine's clock leaves its time out (no row
 * covers it), the latencies of the I/Os in flight across it stay out of
 * the histograms (their I/Os still count), and the rows it touched are
 * left out of the interval figures (duel_test_record_get_figure_series()). */
typedef struct
{
  guint64 at_ms;               /* the test's time when it began, earlier pauses left out */
  guint   row;                 /* the first row it touched */
  guint   rows;                /* rows touched from @row on: 1, more where jobs saw it across a row's end */
  double  fraction;            /* of the test done when it began, 0..1 */
  guint64 length_ns;
  guint64 latencies_left_out;  /* I/Os in flight across it */
} DuelPause;

/* Pauses kept one by one; later ones are added to the last. */
#define DUEL_TEST_RECORD_MAX_PAUSES 64

struct _DuelTestRecord
{
  /*< public, read-only outside the engine and the loader >*/
  char          *name;              /* e.g. "fill" or "randread-qd32" */
  char          *preset;            /* NULL for a plain run */
  DuelWorkload   workload;          /* as asked */
  guint64        span_offset;       /* as resolved against the target */
  guint64        span_length;
  guint64        byte_limit;        /* 0: bounded by time alone */
  gboolean       trimmed;           /* the span was discarded right before the run */
  GDateTime     *started;           /* wall clock, UTC */
  guint64        runtime_ns;        /* from the first submit to the last completion */
  DuelTestStatus status;
  char          *error_message;     /* why a failed run stopped */
  DuelSeries    *series;
  DuelHistogram *latency[DUEL_N_DIRECTIONS];
  DuelLatencyKind latency_kind;     /* what @latency and the series' lat_max_ns measure */
  GArray        *pauses;            /* DuelPause, in order; NULL: never paused */
  JsonObject    *summary;           /* derived figures; NULL until analysed */
  GBytes        *typed_summary;     /* the analysis's own summary, typed (a fill's
                                     * DuelSaturationSummary), set with @summary by
                                     * duel_analysis_apply() and never saved: NULL for a
                                     * loaded record, whose readers take the JSON */

  /*< private >*/
  gatomicrefcount ref_count;
};

GType           duel_test_record_get_type        (void) G_GNUC_CONST;
DuelTestRecord *duel_test_record_new             (const char           *name,
                                                  const DuelWorkload   *workload);
DuelTestRecord *duel_test_record_ref             (DuelTestRecord       *record);
void            duel_test_record_unref           (DuelTestRecord       *record);
const char     *duel_test_status_to_string       (DuelTestStatus        status);
/* The status in words, translated: "stopped" (the file says "cancelled"). */
const char     *duel_test_status_describe        (DuelTestStatus        status);
gboolean        duel_test_status_from_string     (const char           *text,
                                                  DuelTestStatus       *out_status);
/* "total" or "completion", as the file has it (docs/result-format.md). */
const char     *duel_latency_kind_to_string      (DuelLatencyKind       kind);
/* Anything but "completion" (absent, unknown) is total: files from before
 * the field existed hold Drive Duel's own total latency. */
DuelLatencyKind duel_latency_kind_from_string    (const char           *text);

/* Derived from the series and histograms, never stored separately. */
guint64         duel_test_record_get_ops         (const DuelTestRecord *record,
                                                  DuelDirection         direction);
guint64         duel_test_record_get_bytes       (const DuelTestRecord *record,
                                                  DuelDirection         direction);
double          duel_test_record_get_iops        (const DuelTestRecord *record,
                                                  DuelDirection         direction);
double          duel_test_record_get_bytes_per_second (const DuelTestRecord *record,
                                                       DuelDirection         direction);

/* A complete run has no row later than this: rows are timed in ms and the
 * runtime in ns, so a later row means a column in the wrong unit, or an
 * interval log from another run. */
guint64         duel_test_record_latest_row_ms   (const DuelTestRecord *record);
/* Whether @n_rows rows of @interval_ms may end at @last_t_ms: at most 64
 * intervals a row (an imported fio log leaves no line for a window without
 * I/O), whatever the status. The analysis' work grows with the time rows
 * span, so the loader and the journal refuse rows far apart. */
gboolean        duel_test_record_rows_span_fits  (guint                 n_rows,
                                                  guint32               interval_ms,
                                                  guint64               last_t_ms);

/* Records a pause; past DUEL_TEST_RECORD_MAX_PAUSES it is added to the
 * last one kept (its rows reach this one's, lengths and counts add up). */
void            duel_test_record_add_pause       (DuelTestRecord       *record,
                                                  const DuelPause      *pause);
guint           duel_test_record_get_n_pauses    (const DuelTestRecord *record);
const DuelPause *duel_test_record_get_pause      (const DuelTestRecord *record,
                                                  guint                 index);
/* Whether a pause touched row @index. */
gboolean        duel_test_record_row_paused      (const DuelTestRecord *record,
                                                  guint                 index);
/* The series the interval figures are computed from: @record's own, or
 * when it was paused, a view of it without the rows the pauses touched,
 * later rows moved back in time by their length (so every row is still one
 * interval), held in *@out_owned (duel_series_new_view(): no copy of the
 * rows; @record's series must outlive it). */
const DuelSeries *duel_test_record_get_figure_series (const DuelTestRecord *record,
                                                      DuelSeries          **out_owned);
/* The sentence about @record's pauses, translated ("The run was paused for
 * 60 s at 34 %; the rows of that time are left out of the figures."), or
 * NULL when it never paused. */
char           *duel_test_record_dup_pause_note  (const DuelTestRecord *record);

/* summary.figures[]: {key, value, unit, better}; the analysis owns the keys. */
void            duel_test_record_set_figure      (DuelTestRecord       *record,
                                                  const char           *key,
                                                  double                value,
                                                  const char           *unit,
                                                  DuelBetter            better);
/* FALSE when there is no figure @key; a figure that could not be computed
 * (NaN in memory, null in the file) gives TRUE and NAN. */
gboolean        duel_test_record_get_figure      (const DuelTestRecord *record,
                                                  const char           *key,
                                                  double               *out_value);
/* The figure @key of @record's summary; NAN when @record is NULL, has no
 * such figure, or it is null (could not be computed). */
double          duel_test_record_get_figure_value (const DuelTestRecord *record,
                                                   const char           *key);
/* summary.details: free-form per-preset structure (windows, verdicts, notes). */
JsonObject     *duel_test_record_get_details     (DuelTestRecord       *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelTestRecord, duel_test_record_unref)

G_END_DECLS
