/* test-app-journey.c — one person's whole session in the window, under Xvfb
 *
 * The other GUI tests take one feature at a time; this one walks the path a
 * reviewer takes in one sitting, in one window, each step starting from what
 * the steps before left behind: a run started and stopped midway, run again
 * to its end, fio's output opened beside it, Compare from one drive to four
 * and back to two, a custom 70/30 test run and shown alone, the app closed
 * and opened again, the comparison exported into a folder that already holds
 * a file of the person's. After every step each text the window shows (every
 * mapped label, on every page and every Compare tab it has) is read as a
 * person reads it: no test id, no printf leftover, no "nan"; in Traditional
 * Chinese no English sentence left untranslated. Run once in English and
 * once in zh_TW (tests/meson.build).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-app-test.h"
#include <glib/gstdio.h>
#include <string.h>

#include "duel-chart-export.h"
#include "duel-comparison-view.h"
#include "duel-drive-item.h"
#include "duel-drives-view.h"
#include "duel-export-dialog.h"
#include "duel-history.h"
#include "duel-presets-view.h"
#include "duel-result-item.h"
#include "run/duel-run.h"
#include "duel-run-view.h"
#include "test-ids.h"

static DuelApplication *app;
static char *scratch_dir;
static gboolean chinese;

/* --- what the window shows ------------------------------------------------ */

static void
collect_labels (GtkWidget *widget,
                GPtrArray *out)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (text != NULL && *text != '\0')
        g_ptr_array_add (out, g_strdup (text));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

/* Two English words in a row (three letters or more each): a sentence left
 * in English on a page in Chinese. Names the person or the files gave
 * (@allowed) are not the window's words. */
static gboolean
has_english_words (const char         *text,
                   const char * const *allowed,
                   const char * const *more_allowed)
{
  g_autofree char *rest = g_strdup (text);
  g_autoptr(GRegex) words = g_regex_new ("\\b[A-Za-z]{3,}[ ]+[A-Za-z]{3,}\\b", 0, 0, NULL);

  for (guint list = 0; list < 2; list++)
    for (const char * const *name = list == 0 ? allowed : more_allowed; *name != NULL; name++)
      {
        g_auto(GStrv) parts = g_strsplit (rest, *name, -1);

        g_free (rest);
        rest = g_strjoinv (" · ", parts);
      }
  return g_regex_match (words, rest, 0, NULL);
}

/* Names that are the person's or a file's, or a product's, never a
 * sentence of the window's: left in the original. */
static const char * const own_names[] = {
  "CrystalDiskMark", "Drive Duel", "Journey Drive", "Custom Drive", "journey.img", "custom.img",
  "target.bin", "driveduel-fio", "SEQ1M", "RND4K", "SEQ128K", NULL,
};

/* The names of the drives Compare shows: a model's or a file's, never the
 * window's words. */
static GPtrArray *drive_names;

static void
remember_drive_names (DuelWindow *window)
{
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  for (guint i = 0; comparison != NULL && i < duel_comparison_get_n_drives (comparison); i++)
    {
      const char *name = duel_comparison_get_drive_name (comparison, i);

      gboolean known = FALSE;

      /* The array ends with NULL, for has_english_words(). */
      for (guint k = 0; k + 1 < drive_names->len && !known; k++)
        known = strcmp (drive_names->pdata[k], name) == 0;
      if (!known)
        g_ptr_array_insert (drive_names, drive_names->len - 1, g_strdup (name));
    }
}

/* One text as a person reads it; @where names the step for the log. */
static void
check_text (const char *text,
            const char *where)
{
  g_autoptr(GRegex) leftovers = g_regex_new ("%[-0-9.]*[sdufgl]|\\(null\\)|\\b-?nan\\b|\\b-?inf\\b|\\bNaN\\b",
                                             0, 0, NULL);
  const char *id = NULL, *tail = NULL;

  if (test_ids_in_text (text, &id, &tail))
    {
      g_test_message ("%s: “%s” shows the id %s (as “%s”)", where, text, id, tail);
      g_test_fail ();
    }
  if (g_regex_match (leftovers, text, 0, NULL))
    {
      g_test_message ("%s: “%s” shows a format's leftover", where, text);
      g_test_fail ();
    }
  if (chinese && has_english_words (text, own_names, (const char * const *) drive_names->pdata))
    {
      g_test_message ("%s: “%s” is not in Chinese", where, text);
      g_test_fail ();
    }
}

/* Every text @root shows now. */
static void
assert_texts_readable (GtkWidget  *root,
                       const char *where)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    check_text (g_ptr_array_index (texts, i), where);
  g_test_message ("%s: %u texts read", where, texts->len);
  if (texts->len == 0)
    g_error ("%s: no text shown", where);
}

/* The stack of Compare's tabs: the one with a "table". */
static GtkStack *
find_stack (GtkWidget *root)
{
  if (GTK_IS_STACK (root) && gtk_stack_get_child_by_name (GTK_STACK (root), "table") != NULL)
    return GTK_STACK (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkStack *found = find_stack (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every Compare tab the comparison has, each read as shown; the tab the
 * person had is shown again after. */
static void
assert_compare_readable (DuelWindow *window,
                         const char *where)
{
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  g_autofree char *was = g_strdup (duel_comparison_view_get_visible_tab (view));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GtkStack *stack;
  g_autoptr(GListModel) pages = NULL;

  duel_window_set_page (window, "compare");
  duel_app_test_spin (50);
  remember_drive_names (window);
  stack = find_stack (GTK_WIDGET (view));
  g_assert_nonnull (stack);
  pages = G_LIST_MODEL (gtk_stack_get_pages (stack));
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (pages, i);
      GtkStackPage *page = GTK_STACK_PAGE (item);
      const char *name = gtk_stack_page_get_name (page);

      if (name != NULL && gtk_widget_get_visible (gtk_stack_page_get_child (page)))
        g_ptr_array_add (names, g_strdup (name));
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *step = g_strdup_printf ("%s, Compare tab %s", where, (char *) names->pdata[i]);

      duel_comparison_view_set_visible_tab (view, names->pdata[i]);
      duel_app_test_spin (50);
      assert_texts_readable (GTK_WIDGET (window), step);
    }
  if (was != NULL)
    duel_comparison_view_set_visible_tab (view, was);
}

static gboolean
widget_mapped (gpointer user_data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (user_data));
}

/* A dialog, once drawn: with libadwaita 1.5 and later it is a widget in the
 * window (AdwDialog), mapped a frame after it is presented. */
static void
assert_dialog_readable (GtkWidget  *dialog,
                        const char *where)
{
  duel_app_test_wait (widget_mapped, dialog, 60, where);
  assert_texts_readable (dialog, where);
}

static void
assert_page_readable (DuelWindow *window,
                      const char *page,
                      const char *where)
{
  g_autofree char *step = g_strdup_printf ("%s, page %s", where, page);

  duel_window_set_page (window, page);
  duel_app_test_spin (50);
  assert_texts_readable (GTK_WIDGET (window), step);
}

/* --- the window ----------------------------------------------------------- */

static gboolean
run_started (gpointer user_data)
{
  DuelRun **before = user_data;
  DuelWindow *window = DUEL_WINDOW (before[1]);
  DuelRun *task = duel_window_get_run_task (window);

  return (task != NULL && task != before[0]) || duel_alert_find_any_shown () != NULL;
}

/* @action ("win.start-run", "win.run-again") starts a new run; returns it. */
static DuelRun *
start (DuelWindow *window,
       const char *action)
{
  gpointer before[2] = { duel_window_get_run_task (window), window };
  DuelRun *task;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  duel_app_test_wait (run_started, before, 30, "the run to start");
  if (duel_alert_find_any_shown () != NULL)
    {
      DuelAlert *alert = duel_alert_find_any_shown ();

      g_test_message ("%s: %s", duel_alert_get_heading (alert), duel_alert_get_body (alert));
      g_assert_not_reached ();
    }
  task = duel_window_get_run_task (window);
  g_assert_true (duel_run_is_running (task));
  g_assert_cmpstr (duel_window_get_page (window), ==, "run");
  return task;
}

static gboolean
run_ended (gpointer user_data)
{
  return !duel_run_is_running (DUEL_RUN (user_data));
}

static gboolean
run_measured (gpointer user_data)
{
  const DuelRunStatus *status = duel_run_get_status (DUEL_RUN (user_data));

  return status->state == DUEL_RUN_STATE_RUNNING && status->engine.n_intervals >= 8;
}

static guint
history_length (void)
{
  return g_list_model_get_n_items (duel_history_get_model (duel_application_get_history (app)));
}

/* The history holds GPOINTER_TO_UINT (@user_data) runs (it saves a run's
 * file off the main thread, then lists it). */
static gboolean
history_holds (gpointer user_data)
{
  return history_length () == GPOINTER_TO_UINT (user_data);
}

/* What a place is to hold: a run of this session, fio's file, one of the
 * review's reference drives, or nothing (None). */
typedef struct
{
  DuelRun    *run;
  const char *file;
  gboolean    reference;
} Pick;

static gboolean
item_is (DuelResultItem *item,
         const Pick     *pick)
{
  if (pick->run != NULL)
    return duel_result_item_get_result (item) == duel_run_get_result (pick->run);
  if (pick->file != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (pick->file);

      return g_file_equal (duel_result_item_get_file (item), file);
    }
  return pick->reference && duel_result_item_get_origin (item) == DUEL_RESULT_ORIGIN_REFERENCE;
}

static gboolean
item_is_pick (DuelResultItem *item,
              gconstpointer   pick)
{
  return item_is (item, pick);
}

/* Chooses @pick in place @slot's drop-down (NULL: None), then waits for the
 * comparison. */
static void
choose (DuelWindow *window,
        guint       slot,
        const Pick *pick)
{
  duel_app_test_choose (window, slot, item_is_pick, pick);
  duel_app_test_wait (duel_app_test_not_busy, window, 60, "the comparison");
}

static guint
n_compared (DuelWindow *window)
{
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  return comparison != NULL ? duel_comparison_get_n_drives (comparison) : 0;
}

static gboolean
fio_compared (gpointer user_data)
{
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (user_data));

  for (guint i = 0; comparison != NULL && i < duel_comparison_get_n_drives (comparison); i++)
    if (g_str_has_suffix (duel_comparison_get_drive_name (comparison, i), "(fio)"))
      return TRUE;
  return FALSE;
}

/* How many texts of the Compare table start with @prefix (@anywhere:
 * hold it anywhere). */
static guint
count_table_texts (DuelWindow *window,
                   const char *prefix,
                   gboolean    anywhere)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  guint n = 0;

  duel_window_set_page (window, "compare");
  duel_comparison_view_set_visible_tab (duel_window_get_comparison_view (window), "table");
  duel_app_test_spin (50);
  collect_labels (GTK_WIDGET (duel_window_get_comparison_view (window)), texts);
  for (guint i = 0; i < texts->len; i++)
    n += anywhere ? strstr (texts->pdata[i], prefix) != NULL : g_str_has_prefix (texts->pdata[i], prefix);
  return n;
}

static DuelExportDialog *
find_export_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) top = g_list_model_get_item (toplevels, i);

      if (DUEL_IS_EXPORT_DIALOG (top))
        return DUEL_EXPORT_DIALOG (top);
    }
  return NULL;
}

/* --- the journey ---------------------------------------------------------- */

static void
test_journey (void)
{
  g_autofree char *target = g_build_filename (scratch_dir, "journey.img", NULL);
  g_autofree char *fio = g_test_build_filename (G_TEST_DIST, "data", "fio", "randread-clat.json", NULL);
  g_autofree char *folder = g_build_filename (scratch_dir, "article", NULL);
  g_autofree char *mine = g_build_filename (folder, "summary.md", NULL);
  g_autofree char *mine_text = NULL;
  DuelPresetOptions options, shown;
  DuelWindow *window;
  DuelDriveItem *drive;
  DuelRun *stopped, *again, *custom;
  DuelResultItem *places[DUEL_COMPARISON_MAX_DRIVES];
  DuelExportDialog *dialog;
  g_autoptr(GFile) fio_file = g_file_new_for_path (fio);
  GFile *files[1] = { fio_file };
  int state = 0;

  duel_app_test_forget_state (app);

  /* A first start: nothing run yet. */
  window = duel_app_test_open_window (app, 1100);
  assert_page_readable (window, "drives", "first start");
    assert_page_readable (window, "history", "first start");

  /* 1. A file target and the consistency test, started and stopped midway. */
  drive = duel_drives_view_add_file (duel_window_get_drives_view (window), target);
  g_assert_nonnull (drive);
  g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), "consistency"));
  duel_app_test_small_options (&options);
  options.runtime_ms = 4000;
  duel_presets_view_set_options (duel_window_get_presets_view (window), &options);
  assert_page_readable (window, "drives", "consistency chosen");
  stopped = g_object_ref (start (window, "win.start-run"));
  duel_app_test_wait (run_measured, stopped, 120, "the run to measure a few intervals");
  assert_texts_readable (GTK_WIDGET (window), "running");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-run", NULL));
  duel_app_test_wait (run_ended, stopped, 120, "the run to stop");
  g_assert_cmpint (duel_run_get_state (stopped), ==, DUEL_RUN_STATE_STOPPED);
  duel_app_test_wait (history_holds, GUINT_TO_POINTER (1), 60, "the stopped run to be kept");
  assert_texts_readable (GTK_WIDGET (window), "stopped");

  /* 2. Again, the same plan, to its end. */
  again = g_object_ref (start (window, "win.run-again"));
  g_assert_true (again != stopped);
  duel_app_test_wait (run_ended, again, 300, "the run to finish");
  g_assert_cmpint (duel_run_get_state (again), ==, DUEL_RUN_STATE_FINISHED);
  duel_app_test_wait (history_holds, GUINT_TO_POINTER (2), 60, "the finished run to be kept");
  assert_texts_readable (GTK_WIDGET (window), "finished");
  {
    g_autofree char *name = g_strdup_printf ("journey-finished-%s", chinese ? "zh_TW" : "en");

    g_free (duel_app_test_screenshot (window, name));
  }
  assert_page_readable (window, "history", "after two runs");

  /* 3. fio's output opened beside them. */
  duel_window_open_files (window, files, 1);
  duel_app_test_wait (fio_compared, window, 60, "fio's output on the Compare page");
  assert_compare_readable (window, "fio's output opened");

  /* 4. Compare: one drive, four, then two, each chosen in its drop-down. */
  {
    const Pick finished = { again, NULL, FALSE }, cut = { stopped, NULL, FALSE };
    const Pick imported = { NULL, fio, FALSE }, published = { NULL, NULL, TRUE };

    choose (window, 0, &finished);
    for (guint slot = 1; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
      choose (window, slot, NULL);
    g_assert_cmpuint (n_compared (window), ==, 1);
    assert_compare_readable (window, "one drive");
    choose (window, 1, &cut);
    choose (window, 2, &imported);
    choose (window, 3, &published);
    g_assert_cmpuint (n_compared (window), ==, 4);
    assert_compare_readable (window, "four drives");
    /* The reference drive alone has ratings: one "Rated" column, not four
     * with three left empty. */
    {
      const char *format = g_dgettext (GETTEXT_PACKAGE, "Rated (%s)");
      g_autofree char *prefix = g_strndup (format, strstr (format, "%s") - format);

      g_assert_cmpuint (count_table_texts (window, prefix, FALSE), ==, 1);
    }
    choose (window, 1, NULL);
    choose (window, 3, NULL);
    g_assert_cmpuint (n_compared (window), ==, 2);
    assert_compare_readable (window, "two drives");
  }

  /* 5. A custom test, 70/30 at QD4, run and shown alone: its rows say 70/30. */
  g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), "custom"));
  duel_app_test_small_options (&options);
  duel_workload_init (&options.custom);
  options.custom.pattern = DUEL_PATTERN_RANDOM;
  options.custom.block_size = 4096;
  options.custom.queue_depth = 4;
  options.custom.numjobs = 1;
  options.custom.read_percent = 70;
  duel_presets_view_set_options (duel_window_get_presets_view (window), &options);
  assert_page_readable (window, "drives", "custom chosen");
  custom = g_object_ref (start (window, "win.start-run"));
  duel_app_test_wait (run_ended, custom, 300, "the custom test to finish");
  g_assert_cmpint (duel_run_get_state (custom), ==, DUEL_RUN_STATE_FINISHED);
  duel_app_test_wait (history_holds, GUINT_TO_POINTER (3), 60, "the custom run to be kept");
  {
    const Pick mine_custom = { custom, NULL, FALSE }, finished = { again, NULL, FALSE };

    choose (window, 0, &mine_custom);
    for (guint slot = 1; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
      choose (window, slot, NULL);
    g_assert_cmpuint (n_compared (window), ==, 1);
    g_assert_cmpuint (count_table_texts (window, "70/30", TRUE), >, 0);
    g_assert_cmpuint (count_table_texts (window, "50/50", TRUE), ==, 0);
    assert_compare_readable (window, "the custom test alone");
    /* Beside the consistency run: two drives that share no test, which
     * the comparison says. */
    choose (window, 1, &finished);
    g_assert_cmpuint (n_compared (window), ==, 2);
    assert_compare_readable (window, "custom beside consistency");
  }

  /* 6. Closed and opened again: the same drives in the same places (a
   * place left empty between them stays empty), the same test with its
   * parameters, the same target. */
  {
    const Pick finished = { again, NULL, FALSE }, cut = { stopped, NULL, FALSE };

    choose (window, 0, &finished);
    choose (window, 1, NULL);
    choose (window, 2, &cut);
    g_assert_cmpuint (n_compared (window), ==, 2);
  }
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      places[slot] = duel_comparison_view_get_item (duel_window_get_comparison_view (window), slot);
      if (places[slot] != NULL)
        g_object_ref (places[slot]);
    }
  duel_app_test_close_window (window);
  window = duel_app_test_open_window (app, 1100);
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      DuelResultItem *item = duel_comparison_view_get_item (duel_window_get_comparison_view (window), slot);

      if (places[slot] == NULL)
        g_assert_null (item);
      else
        g_assert_true (item != NULL && g_file_equal (duel_result_item_get_file (item),
                                                     duel_result_item_get_file (places[slot])));
      g_clear_object (&places[slot]);
    }
  g_assert_cmpstr (duel_presets_view_get_preset_name (duel_window_get_presets_view (window)), ==, "custom");
  g_assert_true (duel_presets_view_get_options (duel_window_get_presets_view (window), &shown, NULL));
  g_assert_cmpuint (shown.custom.read_percent, ==, 70);
  g_assert_cmpuint (shown.custom.queue_depth, ==, 4);
  {
    DuelDriveItem *selected = duel_drives_view_get_selected (duel_window_get_drives_view (window));

    g_assert_nonnull (selected);
    g_assert_cmpstr (duel_drive_item_get_path (selected), ==, target);
  }
  assert_compare_readable (window, "after the restart");

  /* 7. Exported into the person's article folder, which holds a summary of
   * theirs: asked before it is replaced, kept when told not to; nothing is
   * written until the answer. */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (mine, "My article.\n", -1, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
  dialog = find_export_dialog ();
  g_assert_nonnull (dialog);
  assert_dialog_readable (GTK_WIDGET (dialog), "the export dialog");
  duel_export_dialog_set_folder (dialog, folder);
  duel_export_dialog_set_formats (dialog, DUEL_CHART_EXPORT_PNG | DUEL_CHART_EXPORT_SVG | DUEL_CHART_EXPORT_PDF |
                                          DUEL_CHART_EXPORT_CSV | DUEL_CHART_EXPORT_MARKDOWN);
  g_signal_connect (dialog, "done", G_CALLBACK (duel_app_test_export_done_cb), &state);
  duel_export_dialog_export (dialog);
  duel_app_test_wait (duel_app_test_alert_shown, NULL, 60, "the question before replacing the person's summary");
  /* The question's words as it holds them: libadwaita's alert dialog
   * keeps them out of the widget tree a walk reaches. */
  check_text (duel_alert_get_heading (duel_alert_find_any_shown ()), "the question's heading");
  check_text (duel_alert_get_body (duel_alert_find_any_shown ()), "the question's body");
  g_assert_nonnull (strstr (duel_alert_get_body (duel_alert_find_any_shown ()), "summary.md"));
  duel_alert_respond (duel_alert_find_any_shown (), "cancel");
  g_assert_cmpint (state, ==, 0);
  g_assert_true (g_file_get_contents (mine, &mine_text, NULL, NULL));
  g_assert_cmpstr (mine_text, ==, "My article.\n");
  {
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
    guint n = 0;

    while (g_dir_read_name (dir) != NULL)
      n++;
    g_assert_cmpuint (n, ==, 1);
  }
  /* Told to replace it: every file written. */
  duel_export_dialog_export (dialog);
  duel_app_test_wait (duel_app_test_alert_shown, NULL, 60, "the question again");
  duel_alert_respond (duel_alert_find_any_shown (), "replace");
  duel_app_test_wait (duel_app_test_export_finished, &state, 120, "the export");
  g_assert_cmpint (state, ==, 1);
  g_assert_cmpuint (duel_export_dialog_get_files (dialog)->len, >=, 5);
  g_clear_pointer (&mine_text, g_free);
  g_assert_true (g_file_get_contents (mine, &mine_text, NULL, NULL));
  g_assert_cmpstr (mine_text, !=, "My article.\n");

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (stopped);
  g_object_unref (again);
  g_object_unref (custom);
  duel_app_test_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;
  const char *language = g_getenv ("LANGUAGE");

  if (!duel_app_test_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display\n");
      return 77;
    }
  chinese = language != NULL && g_str_has_prefix (language, "zh_TW");

  drive_names = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (drive_names, NULL);
  app = duel_app_test_new_application ();
  scratch_dir = duel_app_test_make_dir ();
  gtk_test_register_all_types ();

  g_test_add_func ("/duel/app/journey", test_journey);

  status = g_test_run ();

  test_dir_remove (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_object (&app);
  g_ptr_array_unref (drive_names);
  return status;
}
