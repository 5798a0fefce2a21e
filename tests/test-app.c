/* test-app.c — the window, the comparison, exports and the confirmation, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "duel-app-test.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "duel-adw-compat.h"
#include "duel-chart-export.h"
#include "duel-cdm-view.h"
#include "duel-comparison-view.h"
#include "duel-confirm-dialog.h"
#include "duel-drive-item.h"
#include "duel-drives-view.h"
#include "duel-export-dialog.h"
#include "duel-history.h"
#include "duel-history-view.h"
#include "duel-presets-view.h"
#include "duel-preferences-window.h"
#include "test-ids.h"

static DuelApplication *app;
static char *scratch_dir;
static char *result_a;
static char *result_b;

static void
ensure_results (void)
{
  if (result_a != NULL)
    return;
  result_a = duel_app_test_make_result (scratch_dir, "Drive One");
  result_b = duel_app_test_make_result (scratch_dir, "Drive Two");
}

/* A window @width px wide, its history and references loaded. */
static DuelWindow *
new_window_sized (int width)
{
  DuelWindow *window;

  duel_app_test_forget_state (app);
  window = duel_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), width, 760);
  gtk_window_present (GTK_WINDOW (window));
  duel_app_test_wait (duel_app_test_not_busy, window, 30, "the history and references to load");
  return window;
}

static DuelWindow *
new_window (void)
{
  return new_window_sized (1100);
}

static GtkWidget *find_widget (GtkWidget     *root,
                               gboolean     (*matches) (GtkWidget  *widget,
                                                        const char *text),
                               const char    *text);

static gboolean
is_start_button (GtkWidget  *widget,
                 const char *unused)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.start-run") == 0;
}

static void
test_window_builds (void)
{
  DuelWindow *window = new_window ();
  const char *pages[] = { "drives", "run", "compare", "history" };
  GActionGroup *group;

  g_assert_true (DUEL_IS_DRIVES_VIEW (duel_window_get_drives_view (window)));
  g_assert_true (DUEL_IS_PRESETS_VIEW (duel_window_get_presets_view (window)));
  g_assert_true (DUEL_IS_COMPARISON_VIEW (duel_window_get_comparison_view (window)));
  g_assert_true (DUEL_IS_HISTORY_VIEW (duel_window_get_history_view (window)));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  /* Every page through its action, as Alt+1..4 do. */
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", pages[i]);
      g_assert_cmpstr (duel_window_get_page (window), ==, pages[i]);
    }

  /* Start Run is on screen at the default size, whatever the settings above it take. */
  {
    GtkWidget *start;
    graphene_rect_t bounds;

    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "drives");
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    start = find_widget (GTK_WIDGET (window), is_start_button, NULL);
    g_assert_nonnull (start);
    g_assert_true (gtk_widget_compute_bounds (start, GTK_WIDGET (window), &bounds));
    g_test_message ("Start Run at y %.0f–%.0f in a window %d high", bounds.origin.y,
                    bounds.origin.y + bounds.size.height, gtk_widget_get_height (GTK_WIDGET (window)));
    g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)));
    g_assert_cmpfloat (bounds.size.height, >, 0);
  }

  /* The scratch file is always offered, and choosing it enables the run. */
  {
    GListModel *drives = duel_drives_view_get_model (duel_window_get_drives_view (window));
    g_autoptr(DuelDriveItem) last = g_list_model_get_item (drives, g_list_model_get_n_items (drives) - 1);

    g_assert_cmpint (duel_drive_item_get_kind (last), ==, DUEL_TARGET_KIND_FILE);
    g_assert_true (g_str_has_suffix (duel_drive_item_get_path (last), "scratch.img"));
    duel_drives_view_set_selected (duel_window_get_drives_view (window), last);
  }

  /* Every preset of the core has a title and a description in the combo. */
  for (const char * const *name = duel_preset_get_names (); *name != NULL; name++)
    {
      DuelPresetsView *presets = duel_window_get_presets_view (window);

      g_assert_true (duel_presets_view_set_preset_name (presets, *name));
      g_assert_cmpstr (duel_presets_view_get_preset_name (presets), ==, *name);
      g_assert_nonnull (duel_presets_view_get_preset_title (presets));
    }

  /* App actions: keyboard shortcuts are installed; About and Preferences open. */
  group = G_ACTION_GROUP (app);
  g_assert_true (g_action_group_has_action (group, "about"));
  g_assert_true (g_action_group_has_action (group, "preferences"));
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open");
    g_auto(GStrv) swap = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.swap-drives");
    g_auto(GStrv) save = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "<Control>s");

    g_assert_cmpstr (accels[0], ==, "<Control>o");
    g_assert_cmpstr (swap[0], ==, "<Shift><Control>x");
    /* GNOME keeps Ctrl+S for Save: nothing else takes it. */
    g_assert_null (save[0]);
  }
  /* No two shortcuts look alike in the shortcuts window: the keycaps of
   * "," and "." (and ";" and ":") are a dot apart. */
  {
    g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
    g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

    for (guint i = 0; actions[i] != NULL; i++)
      {
        g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

        for (guint k = 0; accels[k] != NULL; k++)
          {
            guint key;
            GdkModifierType mods;
            g_autofree char *label = NULL;
            char *look;

            g_assert_true (gtk_accelerator_parse (accels[k], &key, &mods));
            label = gtk_accelerator_get_label (key, mods);
            look = g_strdup (label);
            g_strdelimit (look, ",;:", '.');
            g_test_message ("%s: %s", actions[i], label);
            g_assert_null (g_hash_table_lookup (seen, look));
            g_hash_table_insert (seen, look, g_strdup (actions[i]));
          }
      }
  }
  g_action_group_activate_action (group, "about", NULL);
  duel_app_test_spin (50);
  {
    GtkWidget *about = duel_dialog_find_shown (DUEL_TYPE_ABOUT);
    g_autofree char *comments = NULL;

    g_assert_nonnull (about);
    g_object_get (about, "comments", &comments, NULL);
    g_assert_nonnull (strstr (comments, "up to four drives"));
    duel_dialog_close (about);
  }

  {
    DuelPreferencesWindow *preferences = duel_preferences_window_new (duel_application_get_settings (app));
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autofree char *folder = NULL;

    duel_dialog_present (GTK_WIDGET (preferences), GTK_WIDGET (window));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (preferences));
    g_assert_true (duel_dialog_find_shown (DUEL_TYPE_PREFERENCES_WINDOW) == GTK_WIDGET (preferences));
    folder = duel_preferences_get_results_folder (settings);
    g_assert_true (g_str_has_suffix (folder, "Drive Duel"));
    duel_dialog_close (GTK_WIDGET (preferences));
  }

  /* The help overlay comes from the GResource (gtk/help-overlay.ui). */
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
comparison_ready (gpointer user_data)
{
  DuelWindow *window = user_data;
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  return !duel_window_is_busy (window) && comparison != NULL &&
         duel_comparison_get_n_drives (comparison) == 2;
}

static DuelWindow *
window_sized_with_two_files (int width)
{
  DuelWindow *window = new_window_sized (width);
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  GFile *files[2];

  ensure_results ();
  a = g_file_new_for_path (result_a);
  b = g_file_new_for_path (result_b);
  files[0] = a;
  files[1] = b;
  duel_window_open_files (window, files, 2);
  duel_app_test_wait (comparison_ready, window, 30, "the comparison of two files");
  return window;
}

static DuelWindow *
window_with_two_files (void)
{
  return window_sized_with_two_files (1100);
}

typedef struct
{
  char    *text;
  gboolean done;
} CopiedText;

static void
clipboard_text_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  CopiedText *copied = user_data;

  copied->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  copied->done = TRUE;
}

static gboolean
copied_text_done (gpointer user_data)
{
  return ((CopiedText *) user_data)->done;
}

/* The first widget under @root, @root included, that @matches. */
static GtkWidget *
find_widget (GtkWidget     *root,
             gboolean     (*matches) (GtkWidget  *widget,
                                  const char *text),
             const char    *text)
{
  if (matches (root, text))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, matches, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every widget under @root that @matches, in tree order, into @out. */
static void
collect_widgets (GtkWidget  *root,
                 gboolean  (*matches) (GtkWidget  *widget,
                                       const char *text),
                 GPtrArray  *out)
{
  if (matches (root, NULL))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, matches, out);
}

static gboolean
has_name (GtkWidget  *widget,
          const char *name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

static gboolean
label_holds (GtkWidget  *widget,
             const char *needle)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), needle) != NULL;
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  return find_widget (root, has_name, name);
}

/* The first label under @widget whose text holds @needle. */
static GtkWidget *
find_label_text (GtkWidget  *widget,
                 const char *needle)
{
  return find_widget (widget, label_holds, needle);
}

static gboolean
is_expander_titled (GtkWidget  *widget,
                    const char *title)
{
  return GTK_IS_EXPANDER (widget) && g_strcmp0 (gtk_expander_get_label (GTK_EXPANDER (widget)), title) == 0;
}

static gboolean
is_units_row (GtkWidget  *widget,
              const char *unused)
{
  return ADW_IS_COMBO_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), "_Rates in") == 0;
}

static void
test_two_files_fill_comparison (void)
{
  DuelWindow *window = window_with_two_files ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  DuelComparison *comparison = duel_comparison_view_get_comparison (view);
  GPtrArray *charts = duel_comparison_view_get_charts (view);

  g_assert_cmpstr (duel_window_get_page (window), ==, "compare");
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 0), ==, "Drive One");
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 1), ==, "Drive Two");
  g_assert_nonnull (duel_comparison_view_get_item (view, 0));
  g_assert_nonnull (duel_comparison_view_get_item (view, 1));

  /* A tab per chart, each with data from both runs, and the table with winners. */
  g_assert_cmpuint (charts->len, ==, 4);
  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);

      g_assert_true (duel_chart_has_data (chart));
      duel_comparison_view_set_visible_tab (view, duel_chart_get_id (chart));
      g_assert_cmpstr (duel_comparison_view_get_visible_tab (view), ==, duel_chart_get_id (chart));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }
  /* The QoS tab switches between the review's two depths. */
  duel_comparison_view_set_visible_tab (view, "qos");
  for (guint k = 0; k < 2; k++)
    {
      guint depth = k == 0 ? 1 : 32;
      g_autofree char *name = g_strdup_printf ("qos-qd%u", depth);
      g_autofree char *want = g_strdup_printf ("QD%u;", depth);
      GtkWidget *button = find_named (GTK_WIDGET (view), name);
      DuelChart *qos = NULL;
      g_autofree char *subtitle = NULL;
      guint shown = 0;

      g_assert_nonnull (button);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
      for (guint i = 0; i < charts->len; i++)
        if (g_strcmp0 (G_OBJECT_TYPE_NAME (g_ptr_array_index (charts, i)), "DuelChartQos") == 0)
          qos = g_ptr_array_index (charts, i);
      g_assert_nonnull (qos);
      g_object_get (qos, "queue-depth", &shown, NULL);
      g_assert_cmpuint (shown, ==, depth);
      subtitle = duel_chart_get_subtitle (qos);
      g_assert_nonnull (strstr (subtitle, want));
      g_assert_true (duel_chart_has_data (qos));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    }

  duel_comparison_view_set_visible_tab (view, "table");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpuint (duel_comparison_get_n_rows (comparison), >, 10);
  g_assert_cmpuint (duel_comparison_view_get_n_winner_rows (view), >, 0);
  /* The review's figures lead the table: the quick preset's whole review
   * holds all fifteen (points, cliff, plateau, read score, consistency,
   * QoS 99.99 % at QD1 and QD32), unless a flat file curve has no cliff. */
  {
    guint n_headline = 0;

    duel_comparison_get_headline (comparison, &n_headline);
    g_assert_cmpuint (duel_comparison_view_get_n_headline_rows (view), ==, n_headline);
    g_assert_cmpuint (n_headline, >=, 14);
  }

  /* The detail groups fold: the write-saturation group's cells hide under
   * its title's arrow and come back; the headline stays. */
  {
    const char *section = duel_comparison_get_section_title (comparison, DUEL_TEST_WSAT_FILL);
    GtkWidget *title = find_widget (GTK_WIDGET (view), is_expander_titled, section);
    GPtrArray *cells;

    g_assert_nonnull (title);
    cells = g_object_get_data (G_OBJECT (title), "duel-group-widgets");
    g_assert_nonnull (cells);
    g_assert_cmpuint (cells->len, >, 10);
    g_assert_true (gtk_widget_get_visible (g_ptr_array_index (cells, 0)));
    gtk_expander_set_expanded (GTK_EXPANDER (title), FALSE);
    for (guint i = 0; i < cells->len; i++)
      g_assert_false (gtk_widget_get_visible (g_ptr_array_index (cells, i)));
    g_assert_true (gtk_widget_get_visible (find_label_text (GTK_WIDGET (view), "Headline")));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    gtk_expander_set_expanded (GTK_EXPANDER (title), TRUE);
    g_assert_true (gtk_widget_get_visible (g_ptr_array_index (cells, cells->len - 1)));
  }

  /* Copy as text: the clipboard holds the Markdown the export writes. */
  {
    GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (window));
    g_autofree char *expected = duel_chart_export_markdown (comparison);
    CopiedText copied = { NULL, FALSE };

    gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-comparison", NULL);
    gdk_clipboard_read_text_async (clipboard, NULL, clipboard_text_cb, &copied);
    duel_app_test_wait (copied_text_done, &copied, 10, "the clipboard's text");
    g_assert_cmpstr (copied.text, ==, expected);
    g_assert_nonnull (strstr (copied.text, "### Headline"));
    g_free (copied.text);
  }

  /* Rates in MiB/s, chosen in the preferences: the table is made again in
   * the new unit, and the standard chart says it. */
  {
    DuelPreferencesWindow *preferences = duel_preferences_window_new (duel_application_get_settings (app));
    GtkWidget *row;

    /* As a person sees it: shown over the window (an AdwDialog lays out its pages then). */
    duel_dialog_present (GTK_WIDGET (preferences), GTK_WIDGET (window));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (preferences));
    row = find_widget (GTK_WIDGET (preferences), is_units_row, NULL);

    g_assert_null (find_label_text (GTK_WIDGET (view), " MiB/s"));
    g_assert_nonnull (find_label_text (GTK_WIDGET (view), " MB/s"));
    g_assert_nonnull (row);
    adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
    gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
    g_assert_nonnull (find_label_text (GTK_WIDGET (view), " MiB/s"));
    g_assert_null (find_label_text (GTK_WIDGET (view), " MB/s"));
    for (guint i = 0; i < duel_comparison_view_get_charts (view)->len; i++)
      {
        DuelChart *chart = g_ptr_array_index (duel_comparison_view_get_charts (view), i);
        g_autofree char *title = duel_chart_get_title (chart);

        if (g_strcmp0 (duel_chart_get_id (chart), "standard") == 0)
          g_assert_nonnull (strstr (title, "MiB/s"));
      }
    adw_combo_row_set_selected (ADW_COMBO_ROW (row), 0);
    duel_dialog_close (GTK_WIDGET (preferences));
    g_assert_nonnull (find_label_text (GTK_WIDGET (view), " MB/s"));
  }

  /* A third drive in slot C (the first run again): three columns, three
   * drives in every chart, and back to two when C is cleared. */
  duel_comparison_view_set_item (view, 2, duel_comparison_view_get_item (view, 0));
  comparison = duel_comparison_view_get_comparison (view);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 3);
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 2), ==, "Drive One (2)");
  duel_comparison_view_set_visible_tab (view, "table");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_nonnull (find_label_text (GTK_WIDGET (view), "Drive One (2)"));
  for (guint i = 0; i < duel_comparison_view_get_charts (view)->len; i++)
    g_assert_true (duel_chart_has_data (g_ptr_array_index (duel_comparison_view_get_charts (view), i)));
  duel_comparison_view_set_visible_tab (view, "write-curve");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  duel_comparison_view_set_item (view, 2, NULL);
  comparison = duel_comparison_view_get_comparison (view);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 2);

  /* Swapping sides swaps the drives. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.swap-drives", NULL);
  comparison = duel_comparison_view_get_comparison (view);
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 0), ==, "Drive Two");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* @path's result again as @name.json in the scratch folder, its consistency
 * run replaced by ten whole intervals and, when @last_ms is not 0, a last
 * one of @last_ms: the run stopped inside it. Returns the copy's path. */
static char *
copy_with_consistency (const char *path,
                       const char *name,
                       guint       last_ms)
{
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(DuelSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_strdup_printf ("%s.json", name);
  char *copy = g_build_filename (scratch_dir, file, NULL);
  DuelTestRecord *record;
  DuelAnalysisKind kind;
  guint interval_ms;
  guint64 t_ms = 0;

  result = duel_result_load (path, &error);
  g_assert_no_error (error);
  duel_result_set_name (result, name);
  record = duel_result_find_test (result, DUEL_TEST_CONSISTENCY);
  g_assert_nonnull (record);
  interval_ms = record->workload.interval_ms;
  duel_series_free (record->series);
  record->series = duel_series_new ();
  for (guint i = 0; i < 10 + (last_ms > 0); i++)
    {
      DuelSeriesRow row = { 0, };

      t_ms += i < 10 ? interval_ms : last_ms;
      row.t_ms = t_ms;
      row.ops[DUEL_DIRECTION_READ] = 40 + i;
      row.ops[DUEL_DIRECTION_WRITE] = 40 - i;
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.bytes[d] = row.ops[d] * record->workload.block_size;
          row.lat_max_ns[d] = 500000;
        }
      row.temperature_c = NAN;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = t_ms * G_GUINT64_CONSTANT (1000000);
  summary = duel_analysis_resummarize (record, &kind, &error);
  g_assert_no_error (error);
  duel_analysis_apply (record, kind, NULL, summary);
  duel_result_save (result, copy, &error);
  g_assert_no_error (error);
  return copy;
}

static gboolean
is_note_label (GtkWidget  *widget,
               const char *unused)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), "The last interval") != NULL;
}

static guint
count_widgets (GtkWidget  *root,
               gboolean  (*matches) (GtkWidget  *widget,
                                     const char *text),
               const char *text)
{
  guint n = matches (root, text) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_widgets (child, matches, text);
  return n;
}

/* A consistency run whose last interval was cut short: the table says so
 * under the consistency figures, for that drive alone, and the note folds
 * with them. */
static gboolean
is_stack_switcher (GtkWidget  *widget,
                   const char *unused)
{
  return GTK_IS_STACK_SWITCHER (widget);
}

/* Two runs whose timed tests ran for different lengths: the fairness banner
 * holds one line for that cause (not one per test), at most three lines and
 * a button for every sentence; Tab walks from that button to the chart tabs
 * (an expander there used to hold the focus). */
static void
test_fairness_banner (void)
{
  g_autofree char *longer = g_build_filename (scratch_dir, "Drive Three.json", NULL);
  g_autoptr(DuelResult) three = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  GFile *files[2];
  DuelComparisonView *view;
  DuelComparison *comparison;
  DuelWindow *window;
  GtkWidget *button, *switcher, *focus = NULL;
  guint n_rows = 0, n_timed = 0;
  gboolean reached = FALSE;
  GPtrArray *tests;

  ensure_results ();
  three = duel_result_load (result_b, &error);
  g_assert_no_error (error);
  duel_result_set_name (three, "Drive Three");
  tests = duel_result_get_tests (three);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (record->workload.runtime_ms > 0)
        {
          record->workload.runtime_ms += 5000;
          n_timed++;
        }
    }
  g_assert_cmpuint (n_timed, >, 3);
  g_assert_true (duel_result_save (three, longer, &error));
  g_assert_no_error (error);

  window = new_window ();
  a = g_file_new_for_path (result_a);
  b = g_file_new_for_path (longer);
  files[0] = a;
  files[1] = b;
  duel_window_open_files (window, files, 2);
  duel_app_test_wait (comparison_ready, window, 30, "the comparison of two files");
  view = duel_window_get_comparison_view (window);
  comparison = duel_comparison_view_get_comparison (view);
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_warnings (comparison)), >=, n_timed);

  /* One line says it, with a button for every sentence. */
  g_assert_nonnull (find_label_text (GTK_WIDGET (view), "The run lengths differ on "));
  button = find_named (GTK_WIDGET (view), "all-fairness-warnings");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  for (GtkWidget *child = gtk_widget_get_first_child (gtk_widget_get_parent (button)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BOX (child))
      n_rows++;
  g_assert_cmpuint (n_rows, <=, 3);
  /* Each of one line, whole in its tooltip, so that four drives' causes
   * do not push the charts away. */
  for (GtkWidget *child = gtk_widget_get_first_child (gtk_widget_get_parent (button)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BOX (child))
      {
        GtkWidget *label = gtk_widget_get_last_child (child);

        g_assert_true (GTK_IS_LABEL (label));
        g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (label)), ==, PANGO_ELLIPSIZE_END);
        g_assert_true (gtk_label_get_single_line_mode (GTK_LABEL (label)));
        g_assert_cmpstr (gtk_widget_get_tooltip_text (label), ==, gtk_label_get_text (GTK_LABEL (label)));
      }

  /* Tab from the button reaches the chart tabs. */
  switcher = find_widget (GTK_WIDGET (view), is_stack_switcher, NULL);
  g_assert_nonnull (switcher);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_true (gtk_widget_grab_focus (button));
  for (guint step = 0; step < 60 && !reached; step++)
    {
      /* What Tab does: the next focusable widget, wrapping at the end. */
      if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
        {
          gtk_root_set_focus (GTK_ROOT (window), NULL);
          gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
        }
      focus = gtk_root_get_focus (GTK_ROOT (window));
      reached = focus != NULL && gtk_widget_is_ancestor (focus, switcher);
    }
  g_assert_true (reached);

  /* The button opens every sentence. */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  g_assert_nonnull (find_label_text (GTK_WIDGET (view), "the run lengths differ ("));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (longer);
}

static gboolean
is_drop_down (GtkWidget  *widget,
              const char *unused)
{
  return GTK_IS_DROP_DOWN (widget);
}

static gboolean
is_drive_choice (GtkWidget  *widget,
                 const char *unused)
{
  return g_strcmp0 (gtk_widget_get_name (widget), "drive-choice") == 0 && gtk_widget_get_mapped (widget);
}

static gboolean
drive_choices_shown (gpointer user_data)
{
  return find_widget (GTK_WIDGET (user_data), is_drive_choice, NULL) != NULL;
}

static gboolean
drive_choices_hidden (gpointer user_data)
{
  return !drive_choices_shown (user_data);
}

/* A drive picker's list is as wide as the names in it, whatever the width
 * of its button: each row's title as wide as the same text set alone. */
static void
test_picker_list_width (void)
{
  DuelWindow *window = window_with_two_files ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  GtkWidget *dropdown = find_widget (GTK_WIDGET (view), is_drop_down, NULL);
  GtkWidget *popover;
  guint n_rows = 0;

  g_assert_nonnull (dropdown);
  /* Narrow, as the C and D pickers are beside A and B. */
  gtk_widget_set_size_request (dropdown, 80, -1);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  duel_app_test_popover_begin ();
  g_signal_emit_by_name (dropdown, "activate");
  duel_app_test_wait (drive_choices_shown, dropdown, 10, "the picker's list");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  for (GtkWidget *row = find_widget (dropdown, is_drive_choice, NULL); row != NULL;
       row = gtk_widget_get_next_sibling (gtk_widget_get_parent (row)) != NULL
             ? gtk_widget_get_first_child (gtk_widget_get_next_sibling (gtk_widget_get_parent (row))) : NULL)
    {
      GtkWidget *title = gtk_widget_get_first_child (row);
      g_autoptr(GtkWidget) alone = g_object_ref_sink (gtk_label_new (gtk_label_get_text (GTK_LABEL (title))));
      int natural = 0;

      if (!GTK_IS_LABEL (title))
        break;
      gtk_widget_measure (alone, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_test_message ("%s: %d px shown, %d px alone", gtk_label_get_text (GTK_LABEL (title)),
                      gtk_widget_get_width (title), natural);
      g_assert_cmpint (gtk_widget_get_width (title), >=, natural);
      n_rows++;
    }
  g_assert_cmpuint (n_rows, >=, 2);

  /* Closed before its window goes, as a person closes it: a popover left
   * open over a destroyed window takes GDK down with it (GTK 4.8). */
  popover = gtk_widget_get_ancestor (find_widget (dropdown, is_drive_choice, NULL), GTK_TYPE_POPOVER);
  g_assert_nonnull (popover);
  gtk_popover_popdown (GTK_POPOVER (popover));
  duel_app_test_wait (drive_choices_hidden, dropdown, 10, "the picker's list to close");
  duel_app_test_spin (200);
  gtk_widget_set_size_request (dropdown, -1, -1);
  gtk_window_destroy (GTK_WINDOW (window));
  duel_app_test_spin (200);
  duel_app_test_popover_end ();
}

static gboolean
is_label (GtkWidget  *widget,
          const char *unused)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget);
}

/* Each picker's name sits in the middle of its button (it sat 6–8 px
 * high: the button is as tall as the badge beside it). */
static void
test_picker_label_centred (void)
{
  DuelWindow *window = window_with_two_files ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  guint n_pickers = 0;

  g_autoptr(GPtrArray) pickers = g_ptr_array_new ();

  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  collect_widgets (GTK_WIDGET (view), is_drop_down, pickers);
  for (guint i = 0; i < pickers->len; i++)
    {
      GtkWidget *picker = g_ptr_array_index (pickers, i);
      GtkWidget *label;
      graphene_rect_t bounds;
      double middle;

      label = find_widget (picker, is_label, NULL);
      g_assert_nonnull (label);
      g_assert_true (gtk_widget_compute_bounds (label, picker, &bounds));
      middle = bounds.origin.y + bounds.size.height / 2;
      g_test_message ("“%s”: middle %.1f px of %d", gtk_label_get_text (GTK_LABEL (label)), middle,
                      gtk_widget_get_height (picker));
      g_assert_cmpfloat (fabs (middle - gtk_widget_get_height (picker) / 2.0), <=, 2.0);
      n_pickers++;
    }
  g_assert_cmpuint (n_pickers, ==, 4);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
label_is_whole (GtkWidget  *widget,
                const char *text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* Every preset's name shows whole in its row (AdwComboRow's own label
 * ends at 20 characters: "Performance Consiste…"). */
static void
test_preset_names_whole (void)
{
  DuelWindow *window = new_window ();
  DuelPresetsView *presets = duel_window_get_presets_view (window);

  duel_window_set_page (window, "drives");
  for (const char * const *name = duel_preset_get_names (); *name != NULL; name++)
    {
      GtkWidget *label;

      g_assert_true (duel_presets_view_set_preset_name (presets, *name));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
      label = find_widget (GTK_WIDGET (presets), label_is_whole, duel_preset_title (*name));
      g_assert_nonnull (label);
      g_test_message ("%s: %d px", duel_preset_title (*name), gtk_widget_get_width (label));
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_switcher_bar (GtkWidget  *widget,
                 const char *unused)
{
  return ADW_IS_VIEW_SWITCHER_BAR (widget);
}

static gboolean
is_header_bar (GtkWidget  *widget,
               const char *unused)
{
  return ADW_IS_HEADER_BAR (widget);
}

/* The content is no taller than the window's least height at its width: a
 * breakpoint (libadwaita 1.4 and newer) warns when it is. */
static void
assert_fits_min_height (DuelWindow *window,
                        GtkWidget  *content,
                        const char *page)
{
  int least_height = 0, minimum = 0;

  gtk_widget_get_size_request (GTK_WIDGET (window), NULL, &least_height);
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (content), &minimum, NULL, NULL, NULL);
  g_test_message ("%s: %d px high at least (the window: %d)", page, minimum, least_height);
  g_assert_cmpint (minimum, <=, least_height);
}

/* The window goes down to 360 px, a phone's width: every page fits (the
 * chart tabs and the table scroll sideways), C and D go under A and B,
 * and the pages' switcher moves to the bottom. It stopped at 676 px. */
static void
test_narrow_window (void)
{
  static const char *pages[] = { "drives", "run", "compare", "history" };
  g_autoptr(GPtrArray) pickers = g_ptr_array_new ();
  DuelWindow *window;
  GtkWidget *content;
  graphene_rect_t first, third;

  /* Below libadwaita's width for the header's switcher, GTK 4.8's
   * GtkActionBar warns about its revealer's first frame (width 0, height
   * -1): theirs, not fatal here; criticals still are. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  window = window_sized_with_two_files (360);

  content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      int minimum = 0;

      duel_window_set_page (window, pages[i]);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
      gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      g_test_message ("%s: %d px wide, %d px at least", pages[i], gtk_widget_get_width (content), minimum);
      g_assert_cmpint (minimum, <=, 360);
      g_assert_cmpint (gtk_widget_get_width (content), <=, 360);
      assert_fits_min_height (window, content, pages[i]);
    }

  /* C and D on a line of their own, under A and B. */
  collect_widgets (GTK_WIDGET (duel_window_get_comparison_view (window)), is_drop_down, pickers);
  g_assert_cmpuint (pickers->len, ==, 4);
  g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (pickers, 0), content, &first));
  g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (pickers, 2), content, &third));
  g_assert_cmpfloat (third.origin.y, >=, first.origin.y + first.size.height);
  /* The pages' switcher at the bottom. */
  g_assert_true (adw_view_switcher_bar_get_reveal (ADW_VIEW_SWITCHER_BAR (find_widget (GTK_WIDGET (window), is_switcher_bar, NULL))));
  gtk_window_destroy (GTK_WINDOW (window));

  /* In a wide window it is in the header, and the bottom bar is hidden. */
  window = window_sized_with_two_files (1000);
  content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      duel_window_set_page (window, pages[i]);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
      assert_fits_min_height (window, content, pages[i]);
    }
  g_assert_false (adw_view_switcher_bar_get_reveal (ADW_VIEW_SWITCHER_BAR (find_widget (GTK_WIDGET (window), is_switcher_bar, NULL))));
  g_assert_nonnull (adw_header_bar_get_title_widget (ADW_HEADER_BAR (find_widget (GTK_WIDGET (window), is_header_bar, NULL))));
  gtk_window_destroy (GTK_WINDOW (window));
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

static gboolean
is_drive_a_header (GtkWidget  *widget,
                   const char *unused)
{
  return gtk_widget_has_css_class (widget, "table-header") && gtk_widget_has_css_class (widget, "drive-a");
}

static char *
drive_a_header_color (DuelWindow *window)
{
  GtkWidget *header = find_widget (GTK_WIDGET (window), is_drive_a_header, NULL);
  GdkRGBA color;

  g_assert_nonnull (header);
  gtk_style_context_get_color (gtk_widget_get_style_context (header), &color);
  return gdk_rgba_to_string (&color);
}

/* Drive A's colour follows the style: the dark one's CSS is the app's own
 * (libadwaita 1.6 deprecates the style-dark.css it used to load). */
static void
test_dark_style_colors (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  DuelWindow *window = window_with_two_files ();
  g_autofree char *light = NULL;
  g_autofree char *dark = NULL;
  g_autofree char *light_again = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  light = drive_a_header_color (window);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  dark = drive_a_header_color (window);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  light_again = drive_a_header_color (window);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  g_assert_cmpstr (light, ==, "rgb(0,114,178)");     /* #0072b2 */
  g_assert_cmpstr (dark, ==, "rgb(86,180,233)");     /* #56b4e9 */
  g_assert_cmpstr (light_again, ==, light);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Published figures alone on the Compare page (the first start): a note
 * says so and leads to the Drives page; a result of one's own beside them
 * and the note is gone. */
static void
test_reference_note (void)
{
  DuelWindow *window = window_with_two_files ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  GtkWidget *dropdown = find_widget (GTK_WIDGET (view), is_drop_down, NULL);
  g_autoptr(DuelResultItem) own = g_object_ref (duel_comparison_view_get_item (view, 0));
  GListModel *choices = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  DuelResultItem *references[2] = { NULL, NULL };
  GtkWidget *label, *note, *button;
  guint n_references = 0;

  for (guint i = 0; i < g_list_model_get_n_items (choices) && n_references < 2; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (choices, i);

      if (DUEL_IS_RESULT_ITEM (item) &&
          duel_result_item_get_origin (DUEL_RESULT_ITEM (item)) == DUEL_RESULT_ORIGIN_REFERENCE)
        references[n_references++] = DUEL_RESULT_ITEM (item);
    }
  g_assert_cmpuint (n_references, ==, 2);

  label = find_label_text (GTK_WIDGET (view), "published figures");
  g_assert_nonnull (label);
  note = gtk_widget_get_parent (label);
  /* Two results of one's own: no note. */
  g_assert_false (gtk_widget_get_visible (note));

  duel_comparison_view_set_item (view, 0, references[0]);
  duel_comparison_view_set_item (view, 1, references[1]);
  g_assert_true (gtk_widget_get_visible (note));
  button = gtk_widget_get_last_child (note);
  g_assert_true (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (duel_window_get_page (window), ==, "drives");

  duel_comparison_view_set_item (view, 1, own);
  g_assert_false (gtk_widget_get_visible (note));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_partial_interval_note (void)
{
  DuelWindow *window = new_window ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  g_autofree char *whole = NULL;
  g_autofree char *cut = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  GFile *files[2];
  DuelComparison *comparison;
  const char *section;
  GtkWidget *title, *note;
  GPtrArray *cells;

  ensure_results ();
  whole = copy_with_consistency (result_a, "Drive Whole", 0);
  cut = copy_with_consistency (result_b, "Drive Cut", 40);
  a = g_file_new_for_path (whole);
  b = g_file_new_for_path (cut);
  files[0] = a;
  files[1] = b;
  duel_window_open_files (window, files, 2);
  duel_app_test_wait (comparison_ready, window, 30, "the comparison of two files");
  comparison = duel_comparison_view_get_comparison (view);
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 1), ==, "Drive Cut");

  duel_comparison_view_set_visible_tab (view, "table");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpuint (count_widgets (GTK_WIDGET (view), is_note_label, NULL), ==, 1);
  note = find_widget (GTK_WIDGET (view), is_note_label, NULL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (note)), ==,
                   "Drive Cut: The last interval (0.04 s) was shorter than 0.1 s "
                   "and is not counted in the consistency figures.");

  /* It belongs to the consistency group: it folds with its rows. */
  section = duel_comparison_get_section_title (comparison, DUEL_TEST_CONSISTENCY);
  title = find_widget (GTK_WIDGET (view), is_expander_titled, section);
  g_assert_nonnull (title);
  cells = g_object_get_data (G_OBJECT (title), "duel-group-widgets");
  g_assert_true (g_ptr_array_find (cells, note, NULL));
  gtk_expander_set_expanded (GTK_EXPANDER (title), FALSE);
  g_assert_false (gtk_widget_get_visible (note));
  gtk_expander_set_expanded (GTK_EXPANDER (title), TRUE);
  g_assert_true (gtk_widget_get_visible (note));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (whole);
  g_unlink (cut);
}

/* Any test id in @text (test-ids.h). */
static gboolean
holds_id (const char  *text,
          const char **out_id)
{
  const char *tail;

  return test_ids_in_text (text, out_id, &tail);
}

/* The text a widget shows: a label's, a row's title and subtitle, a button's. */
static void
check_widget_text (GtkWidget *widget,
                   guint     *n_texts)
{
  const char *texts[3] = { NULL, };
  const char *id = NULL;

  if (GTK_IS_LABEL (widget))
    texts[0] = gtk_label_get_text (GTK_LABEL (widget));
  else if (ADW_IS_PREFERENCES_ROW (widget))
    texts[0] = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget));
  if (ADW_IS_ACTION_ROW (widget))
    texts[1] = adw_action_row_get_subtitle (ADW_ACTION_ROW (widget));
  if (GTK_IS_BUTTON (widget))
    texts[2] = gtk_button_get_label (GTK_BUTTON (widget));
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      if (texts[i] == NULL || *texts[i] == '\0')
        continue;
      (*n_texts)++;
      if (holds_id (texts[i], &id))
        g_error ("a %s shows the id “%s”: “%s”", G_OBJECT_TYPE_NAME (widget), id, texts[i]);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_widget_text (child, n_texts);
}

/* Nothing the window shows, on any page, holds a test id, with two quick
 * reviews compared (every review test's rows, sections and charts). */
static void
test_no_ids_in_window (void)
{
  DuelWindow *window = window_with_two_files ();
  GPtrArray *charts = duel_comparison_view_get_charts (duel_window_get_comparison_view (window));
  guint n_texts = 0;
  const char *id = NULL;

  check_widget_text (GTK_WIDGET (window), &n_texts);
  /* Hundreds of labels: the table alone has a row per figure. */
  g_assert_cmpuint (n_texts, >, 200);
  g_assert_false (holds_id (gtk_window_get_title (GTK_WINDOW (window)), &id));
  for (guint i = 0; i < charts->len; i++)
    {
      g_autofree char *title = duel_chart_get_title (g_ptr_array_index (charts, i));

      if (holds_id (title, &id))
        g_error ("a chart's title shows the id “%s”: “%s”", id, title);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_spin_button (GtkWidget  *widget,
                const char *unused)
{
  return GTK_IS_SPIN_BUTTON (widget);
}

static gboolean
is_row_titled (GtkWidget  *widget,
               const char *title)
{
  return ADW_IS_PREFERENCES_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0;
}

/* The spin button of the row titled @title under @root. */
static GtkSpinButton *
row_spin (GtkWidget  *root,
          const char *title)
{
  GtkWidget *row = find_widget (root, is_row_titled, title);

  g_assert_nonnull (row);
  return GTK_SPIN_BUTTON (find_widget (row, is_spin_button, NULL));
}

/* The custom test's rows show for it alone and make its preset: the
 * workload set in the window is the one its step runs; a fill preset
 * keeps its passes row insensitive. */
static void
test_custom_test_rows (void)
{
  DuelWindow *window = new_window ();
  DuelPresetsView *presets = duel_window_get_presets_view (window);
  GtkWidget *root = GTK_WIDGET (presets);
  GtkWidget *access, *block, *passes_row;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  const DuelPresetStep *step;

  access = find_widget (root, is_row_titled, "A_ccess");
  block = find_widget (root, is_row_titled, "_Block size");
  passes_row = find_widget (root, is_row_titled, "P_asses");
  g_assert_nonnull (access);
  g_assert_nonnull (block);
  g_assert_nonnull (passes_row);

  g_assert_true (duel_presets_view_set_preset_name (presets, "quick"));
  g_assert_false (gtk_widget_is_visible (access));
  g_assert_false (gtk_widget_get_sensitive (passes_row));
  g_assert_true (duel_presets_view_set_preset_name (presets, "crystaldiskmark"));
  g_assert_true (gtk_widget_get_sensitive (passes_row));

  g_assert_true (duel_presets_view_set_preset_name (presets, "custom"));
  g_assert_true (gtk_widget_is_visible (access));
  adw_combo_row_set_selected (ADW_COMBO_ROW (access), 1);                 /* Sequential */
  adw_combo_row_set_selected (ADW_COMBO_ROW (block), 6);                  /* 128 KiB */
  gtk_spin_button_set_value (row_spin (root, "_Reads (%)"), 70);
  gtk_spin_button_set_value (row_spin (root, "_Queue depth"), 8);
  gtk_spin_button_set_value (row_spin (root, "_Jobs"), 3);
  gtk_spin_button_set_value (row_spin (root, "P_asses"), 4);
  gtk_spin_button_set_value (row_spin (root, "Test _length"), 2);

  preset = duel_presets_view_create_preset (presets, &error);
  g_assert_no_error (error);
  g_assert_true (duel_preset_prepare_for_size (preset, G_GUINT64_CONSTANT (1) << 30, 512, "test", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, 4);
  step = duel_preset_get_step (preset, 0);
  g_assert_cmpint (step->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
  g_assert_cmpuint (step->workload.block_size, ==, 128 * 1024);
  g_assert_cmpuint (step->workload.read_percent, ==, 70);
  g_assert_cmpuint (step->workload.queue_depth, ==, 8);
  g_assert_cmpuint (step->workload.numjobs, ==, 3);
  g_assert_cmpuint (step->workload.runtime_ms, ==, 2000);
  g_assert_cmpuint (step->passes, ==, 4);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
comparison_has_drives (gpointer user_data)
{
  DuelWindow *window = user_data;
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  return !duel_window_is_busy (window) && comparison != NULL &&
         duel_comparison_get_n_drives (comparison) ==
           GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (window), "duel-test-drives"));
}

/* Result files given on the command line (GApplication::open), then one
 * dropped on the window: the first is drive A, the dropped one drive B. */
static void
test_open_and_drop (void)
{
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  g_autoptr(GSList) list = NULL;
  GListModel *controllers;
  GtkDropTarget *drop = NULL;
  DuelWindow *window;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;
  DuelComparison *comparison;

  ensure_results ();
  a = g_file_new_for_path (result_a);
  b = g_file_new_for_path (result_b);

  g_application_open (G_APPLICATION (app), &a, 1, "");
  window = DUEL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_true (DUEL_IS_WINDOW (window));
  g_object_set_data (G_OBJECT (window), "duel-test-drives", GUINT_TO_POINTER (1));
  duel_app_test_wait (comparison_has_drives, window, 30, "the opened file");
  g_assert_cmpstr (duel_comparison_get_drive_name (duel_comparison_view_get_comparison (duel_window_get_comparison_view (window)), 0),
                   ==, "Drive One");

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        drop = GTK_DROP_TARGET (controller);
    }
  g_object_unref (controllers);
  g_assert_nonnull (drop);

  list = g_slist_append (NULL, b);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (list));
  g_signal_emit_by_name (drop, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  g_object_set_data (G_OBJECT (window), "duel-test-drives", GUINT_TO_POINTER (2));
  duel_app_test_wait (comparison_has_drives, window, 30, "the dropped file");
  comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 0), ==, "Drive One");
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 1), ==, "Drive Two");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* fio's JSON output opened beside a result: imported as the CLI's import
 * does, a drive named from fio's target (its "filename"), its latencies
 * fio's completion latency (a plain json+ run). */
static void
test_open_fio_json (void)
{
  DuelWindow *window = new_window ();
  g_autofree char *fio = g_test_build_filename (G_TEST_DIST, "data", "fio", "randread-clat.json", NULL);
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  GFile *files[2];
  DuelComparison *comparison;
  DuelTestRecord *record;

  ensure_results ();
  a = g_file_new_for_path (result_a);
  b = g_file_new_for_path (fio);
  files[0] = a;
  files[1] = b;
  g_object_set_data (G_OBJECT (window), "duel-test-drives", GUINT_TO_POINTER (2));
  duel_window_open_files (window, files, 2);
  duel_app_test_wait (comparison_has_drives, window, 30, "the result and the fio output");
  comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 0), ==, "Drive One");
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 1), ==, "/tmp/driveduel-fio/target.bin (fio)");
  record = duel_result_find_test (duel_comparison_get_result (comparison, 1), "randread-clat");
  g_assert_nonnull (record);
  g_assert_cmpint (record->latency_kind, ==, DUEL_LATENCY_COMPLETION);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_file_starts_with (const char *path,
                         const char *magic,
                         gsize       length)
{
  g_autofree char *contents = NULL;
  gsize size = 0;

  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  g_assert_cmpuint (size, >=, length);
  g_assert_cmpmem (contents, length, magic, length);
}

static void
test_export_writes_files (void)
{
  DuelWindow *window = window_with_two_files ();
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));
  g_autofree char *folder = g_build_filename (scratch_dir, "export", NULL);
  g_autofree char *png = g_build_filename (folder, "write-curve.png", NULL);
  g_autofree char *svg = g_build_filename (folder, "write-curve.svg", NULL);
  g_autofree char *pdf = g_build_filename (folder, "report.pdf", NULL);
  g_autofree char *md = g_build_filename (folder, "summary.md", NULL);
  g_autofree char *csv = g_build_filename (folder, "summary.csv", NULL);
  DuelExportDialog *dialog = NULL;
  GListModel *toplevels;
  int state = 0;

  /* The window's action opens the dialog for the comparison shown. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) top = g_list_model_get_item (toplevels, i);

      if (DUEL_IS_EXPORT_DIALOG (top))
        dialog = DUEL_EXPORT_DIALOG (top);
    }
  g_assert_nonnull (dialog);
  g_assert_nonnull (comparison);
  /* The default folder names both drives. */
  g_assert_nonnull (strstr (duel_export_dialog_get_folder (dialog), "Drive One"));

  duel_export_dialog_set_folder (dialog, folder);
  duel_export_dialog_set_formats (dialog, DUEL_CHART_EXPORT_PNG | DUEL_CHART_EXPORT_SVG |
                                          DUEL_CHART_EXPORT_PDF | DUEL_CHART_EXPORT_CSV |
                                          DUEL_CHART_EXPORT_MARKDOWN);
  g_signal_connect (dialog, "done", G_CALLBACK (duel_app_test_export_done_cb), &state);
  duel_export_dialog_export (dialog);
  duel_app_test_wait (duel_app_test_export_finished, &state, 60, "the export");
  g_assert_cmpint (state, ==, 1);

  g_assert_cmpuint (duel_export_dialog_get_files (dialog)->len, >=, 10);
  assert_file_starts_with (png, "\x89PNG\r\n\x1a\n", 8);
  assert_file_starts_with (pdf, "%PDF-", 5);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (md, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (csv, G_FILE_TEST_IS_REGULAR));

  /* The choice is remembered for the next export. */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_auto(GStrv) formats = g_settings_get_strv (settings, "export-formats");

    g_assert_true (g_strv_contains ((const char * const *) formats, "pdf"));
    g_assert_false (g_strv_contains ((const char * const *) formats, "fio"));
  }

  /* Again into the same folder: its own files are replaced without a question. */
  state = 0;
  duel_export_dialog_export (dialog);
  duel_app_test_wait (duel_app_test_export_finished, &state, 60, "the second export");
  g_assert_cmpint (state, ==, 1);

  /* The summary edited by the person: the app asks before replacing it,
   * names it, and leaves it as it is when told not to. */
  {
    g_autofree char *edited = NULL;
    DuelAlert *alert;

    g_assert_true (g_file_set_contents (md, "My article, edited.\n", -1, NULL));
    state = 0;
    duel_export_dialog_export (dialog);
    duel_app_test_wait (duel_app_test_alert_shown, NULL, 60, "the question before replacing files");
    alert = duel_alert_find_any_shown ();
    g_assert_cmpstr (duel_alert_get_heading (alert), ==, "Replace Files?");
    g_assert_nonnull (strstr (duel_alert_get_body (alert), "summary.md"));
    duel_alert_respond (alert, "cancel");
    g_assert_cmpint (state, ==, 0);
    g_assert_true (g_file_get_contents (md, &edited, NULL, NULL));
    g_assert_cmpstr (edited, ==, "My article, edited.\n");

    /* Told to replace it, it does. */
    duel_export_dialog_export (dialog);
    duel_app_test_wait (duel_app_test_alert_shown, NULL, 60, "the question before replacing files");
    duel_alert_respond (duel_alert_find_any_shown (), "replace");
    duel_app_test_wait (duel_app_test_export_finished, &state, 60, "the export after the question");
    g_assert_cmpint (state, ==, 1);
    g_clear_pointer (&edited, g_free);
    g_assert_true (g_file_get_contents (md, &edited, NULL, NULL));
    g_assert_cmpstr (edited, !=, "My article, edited.\n");
  }

  /* A link planted among the files: no question, since a link is never
   * written through; the export fails saying so, and writes nothing. */
  {
    g_autofree char *precious = g_build_filename (scratch_dir, "precious.txt", NULL);
    g_autofree char *text = NULL;

    g_assert_true (g_file_set_contents (precious, "keep me\n", -1, NULL));
    g_assert_cmpint (g_unlink (csv), ==, 0);
    g_assert_cmpint (symlink (precious, csv), ==, 0);
    state = 0;
    duel_export_dialog_export (dialog);
    duel_app_test_wait (duel_app_test_export_finished, &state, 60, "the export onto a link");
    g_assert_cmpint (state, ==, -1);
    g_assert_null (duel_alert_find_any_shown ());
    g_assert_true (g_file_get_contents (precious, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "keep me\n");
    g_assert_true (g_file_test (csv, G_FILE_TEST_IS_SYMLINK));
  }

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_confirm_dialog (void)
{
  g_autofree char *path = g_build_filename (scratch_dir, "confirm.img", NULL);
  g_autoptr(DuelDriveItem) drive = duel_drive_item_new_for_file (path, 1 << 20);
  DuelConfirmDialog *dialog = duel_confirm_dialog_new (drive, "Write Saturation");
  DuelConfirmDialog *second;
  GtkEditable *entry = duel_confirm_dialog_get_entry (dialog);
  const char *body;

  /* It names the file, its path and size, and says what is lost: the
   * file's contents, not a drive's partitions and filesystems. */
  body = duel_alert_get_body (DUEL_ALERT (dialog));
  g_test_message ("%s", body);
  g_assert_nonnull (strstr (body, path));
  g_assert_nonnull (strstr (body, "Size: 1\u00a0MiB"));
  g_assert_nonnull (strstr (body, "writes over the contents of this file"));
  g_assert_nonnull (strstr (body, "type the file name <b><tt>confirm.img</tt></b>"));
  g_assert_null (strstr (body, "whole drive"));
  g_assert_null (strstr (body, "partitions"));
  g_assert_null (strstr (body, "Device"));
  g_assert_null (strstr (body, "Serial number"));
  g_assert_null (strstr (body, "device name"));
  g_assert_nonnull (strstr (duel_alert_get_heading (DUEL_ALERT (dialog)), "Overwrite confirm.img?"));
  g_assert_cmpstr (duel_confirm_dialog_get_expected_text (dialog), ==, "confirm.img");

  /* Erasing stays disabled until the exact name is typed. */
  g_assert_false (duel_alert_get_response_enabled (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_ERASE));
  gtk_editable_set_text (entry, "confirm");
  g_assert_false (duel_alert_get_response_enabled (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_ERASE));
  gtk_editable_set_text (entry, "confirm.img");
  g_assert_true (duel_alert_get_response_enabled (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_ERASE));
  g_assert_cmpstr (duel_alert_get_close_response (DUEL_ALERT (dialog)), ==,
                   DUEL_CONFIRM_RESPONSE_CANCEL);
  duel_dialog_close (GTK_WIDGET (dialog));

  /* The second confirmation names the signature found, in a file. */
  second = duel_confirm_dialog_new_for_signature (drive, "an ext4 filesystem");
  g_assert_nonnull (strstr (duel_alert_get_body (DUEL_ALERT (second)), "ext4"));
  g_assert_nonnull (strstr (duel_alert_get_body (DUEL_ALERT (second)), "disk image"));
  g_assert_null (strstr (duel_alert_get_heading (DUEL_ALERT (second)), "Drive"));
  g_assert_false (duel_alert_get_response_enabled (DUEL_ALERT (second), DUEL_CONFIRM_RESPONSE_ERASE));
  duel_dialog_close (GTK_WIDGET (second));
}

static gboolean
history_loaded (gpointer user_data)
{
  return duel_history_is_loaded (DUEL_HISTORY (user_data));
}

static void
reload_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  duel_history_reload_finish (DUEL_HISTORY (object), result, &error);
  g_assert_no_error (error);
}

static void
test_history_rename_delete (void)
{
  g_autofree char *dir = g_build_filename (scratch_dir, "history", NULL);
  g_autoptr(DuelHistory) history = duel_history_new (dir);
  g_autoptr(DuelHistory) again = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  DuelResultItem *item;

  ensure_results ();
  result = duel_result_load (result_a, &error);
  g_assert_no_error (error);

  path = duel_history_new_path (history, "Drive One", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (path, dir));
  g_assert_true (g_str_has_suffix (path, "-drive-one.json"));
  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  item = duel_history_add (history, path, result);
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, 1);

  /* Its row carries the run's headline figures, as the table prints them. */
  {
    GtkWidget *window = gtk_window_new ();
    GtkWidget *view = g_object_new (DUEL_TYPE_HISTORY_VIEW, NULL);
    g_autofree char *start = NULL;
    g_autofree char *figure = NULL;
    double value = NAN;
    GtkWidget *label;
    GPtrArray *tests = duel_result_get_tests (result);

    for (guint i = 0; i < tests->len && !isfinite (value); i++)
      value = duel_test_record_get_figure_value (g_ptr_array_index (tests, i), "iops_at_0pct");
    g_assert_true (isfinite (value));
    figure = duel_figure_format ("iops_at_0pct", value);
    start = g_strconcat ("start ", figure, NULL);
    duel_history_view_set_history (DUEL_HISTORY_VIEW (view), history);
    gtk_window_set_child (GTK_WINDOW (window), view);
    gtk_window_present (GTK_WINDOW (window));
    gtk_test_widget_wait_for_draw (window);
    g_test_message ("%s", duel_result_item_get_figures (item));
    g_assert_nonnull (strstr (duel_result_item_get_figures (item), start));
    label = find_label_text (window, start);
    g_assert_nonnull (label);
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "read score "));
    gtk_window_destroy (GTK_WINDOW (window));
  }

  /* Renaming changes the name inside the file, atomically. */
  g_assert_true (duel_history_rename (history, item, "  Renamed Drive ", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (duel_result_item_get_title (item), ==, "Renamed Drive");
  g_assert_false (duel_history_rename (history, item, "   ", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* A fresh history reads it back from the folder. */
  again = duel_history_new (dir);
  duel_history_reload_async (again, NULL, reload_done_cb, NULL);
  duel_app_test_wait (history_loaded, again, 10, "the history to load");
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (again)), ==, 1);
  {
    g_autoptr(DuelResultItem) loaded = g_list_model_get_item (duel_history_get_model (again), 0);
    g_assert_cmpstr (duel_result_item_get_title (loaded), ==, "Renamed Drive");
  }

  g_assert_true (duel_history_delete (history, item, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, 0);
}

typedef struct
{
  DuelHistory *history;
  guint        count;
  const char  *path;   /* …and, if set, this file among them, finished */
} HistoryCount;

typedef struct
{
  DuelHistory *history;
  const char  *status;  /* a word the first row's subtitle ends with */
} HistoryStatus;

static gboolean
history_first_says (gpointer user_data)
{
  const HistoryStatus *want = user_data;
  GListModel *model = duel_history_get_model (want->history);
  g_autoptr(DuelResultItem) item = NULL;

  if (g_list_model_get_n_items (model) == 0)
    return FALSE;
  item = g_list_model_get_item (model, 0);
  return g_str_has_suffix (duel_result_item_get_subtitle (item), want->status);
}

/* Starts the CLI in the background: a run of @seconds on @target with the
 * data folder @data_home. */
static GPid
spawn_cli_run (const char *data_home,
               const char *target,
               const char *seconds)
{
  const char *argv[] = { g_getenv ("DRIVEDUEL_CLI"), "run", "--rw", "randread", "--runtime", seconds,
                         "--interval-ms", "100", "--span", "8m", target, NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", data_home, TRUE);
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, (char **) argv, envp,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

static void
reap_cli (GPid pid)
{
  int status;

  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
}

static gboolean
history_has (gpointer user_data)
{
  const HistoryCount *want = user_data;
  GListModel *model = duel_history_get_model (want->history);
  guint n = g_list_model_get_n_items (model);

  if (n != want->count)
    return FALSE;
  for (guint i = 0; want->path != NULL && i < n; i++)
    {
      g_autoptr(DuelResultItem) item = g_list_model_get_item (model, i);
      g_autofree char *path = g_file_get_path (duel_result_item_get_file (item));
      DuelResult *result = duel_result_item_get_result (item);

      if (g_strcmp0 (path, want->path) == 0 && result != NULL && duel_result_get_tests (result)->len == 1)
        return TRUE;
    }
  return want->path == NULL;
}

/* A run of the CLI without --output joins the history the app lists while
 * the app is open: the real CLI runs with the app's data folder, the list
 * gains its result without a reload, in its final form; removing the file
 * in a file manager takes it off. The app's own run (a name the history
 * gave) is left for the window to file when it ends. */
static void
test_history_cli_run_joins (void)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *data_home = g_build_filename (scratch_dir, "cli-data", NULL);
  g_autofree char *dir = g_build_filename (data_home, "driveduel", "history", NULL);
  g_autofree char *target = g_build_filename (scratch_dir, "cli-target.img", NULL);
  g_autoptr(DuelHistory) history = duel_history_new (dir);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", data_home, TRUE);
  const char *kept = "The result is kept in the history the app lists: ";
  const char *argv[] = { cli, "run", "--rw", "randwrite", "--size", "2m", "--span", "8m", "--name", "From the CLI",
                         target, NULL };
  HistoryCount want = { .history = history };
  int status;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_CLI is not set");
      return;
    }
  /* The folder does not exist yet: the app makes it to watch it. */
  duel_history_reload_async (history, NULL, reload_done_cb, NULL);
  duel_app_test_wait (history_loaded, history, 10, "the history to load");
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, 0);

  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, kept));
  path = g_strndup (strstr (out, kept) + strlen (kept), strcspn (strstr (out, kept) + strlen (kept), "\n"));
  g_assert_true (g_str_has_prefix (path, dir));

  want.count = 1;
  want.path = path;
  duel_app_test_wait (history_has, &want, 30, "the CLI's run in the history");
  {
    g_autoptr(DuelResultItem) item = g_list_model_get_item (duel_history_get_model (history), 0);

    g_assert_cmpstr (duel_result_item_get_title (item), ==, "From the CLI");
  }

  /* The app's own run, saved where the history told it: not listed by the
   * watch (the window files it when the run ends). */
  {
    g_autofree char *own = duel_history_new_path (history, "Own Run", &error);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (own, contents, length, NULL));
    /* The CLI's file gone: the list follows, and the own run is not in it. */
    g_assert_cmpint (g_unlink (path), ==, 0);
    want.count = 0;
    want.path = NULL;
    duel_app_test_wait (history_has, &want, 30, "the removed file to leave the history");
    duel_app_test_spin (2500);
    g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, 0);
    g_unlink (own);
  }

  /* A run in progress reads "running" while the CLI holds its result, and
   * is read again as its journal grows, until it finishes; one killed says
   * "interrupted" once its lock is let go, though it saves nothing more. */
  {
    HistoryStatus says = { .history = history };
    GPid pid = spawn_cli_run (data_home, target, "4");

    says.status = "running";
    duel_app_test_wait (history_first_says, &says, 30, "a run of the CLI listed as running");
    reap_cli (pid);
    says.status = "1 test";
    duel_app_test_wait (history_first_says, &says, 30, "the finished run of the CLI");

    pid = spawn_cli_run (data_home, target, "60");
    says.status = "running";
    duel_app_test_wait (history_first_says, &says, 30, "a second run of the CLI listed as running");
    kill (pid, SIGKILL);
    reap_cli (pid);
    says.status = "interrupted";
    duel_app_test_wait (history_first_says, &says, 30, "the killed run listed as interrupted");
  }
  g_unlink (target);
}

static gboolean
has_two_references (gpointer user_data)
{
  g_autofree char *dir = duel_application_get_reference_dir ();
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    n += g_str_has_suffix (name, ".json");
  return n >= 2;
}

/* The comparison view as a user first sees it: with no history, the bundled
 * references side by side (or, without them, two measured runs). */
/* The first widget under @widget of @type whose label is @label. */
static GtkWidget *
find_labelled (GtkWidget  *widget,
               GType       type,
               const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, type, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
estimate_measured (gpointer user_data)
{
  const char *text = duel_presets_view_get_estimate (user_data);

  return text != NULL && g_str_has_prefix (text, "At least ");
}

static gboolean
estimate_by_test (gpointer user_data)
{
  const char *text = duel_presets_view_get_estimate (user_data);

  return text != NULL && strstr (text, "\nRecovery after idle: ") != NULL;
}

static gboolean
toast_shows_parse_error (gpointer user_data)
{
  return find_label_text (user_data, "<1>.json") != NULL;
}

static gboolean
toast_names_other (gpointer user_data)
{
  return find_label_text (user_data, "other.json") != NULL;
}

static GtkWidget *
find_message_dialog (void)
{
  return GTK_WIDGET (duel_alert_find_any_shown ());
}

static gboolean
details_dialog_shown (gpointer user_data)
{
  return find_message_dialog () != NULL;
}

/* A truncated result opened in the app: the toast says where the text
 * breaks in words of its own (json-glib's English "<data>:1:42: Parse
 * error: …" is not for people), the file name shows as it is (a toast's
 * title is markup: "<1>" used to read as a broken tag, an empty black
 * toast), and a message longer than a toast's line is whole behind its
 * Details button. */
static void
test_bad_file_toast (void)
{
  DuelWindow *window = new_window ();
  g_autofree char *dir = duel_app_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "cut<1>.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *label;
  GtkWidget *dialog;
  const char *text;

  g_assert_true (g_file_set_contents (path, "{\"format\": \"driveduel-result\", \"tests\": [", -1, NULL));
  duel_window_open_files (window, &file, 1);
  duel_app_test_wait (toast_shows_parse_error, window, 30, "the toast");
  label = find_label_text (GTK_WIDGET (window), "<1>.json");
  text = gtk_label_get_text (GTK_LABEL (label));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "not valid JSON"));
  g_assert_nonnull (strstr (text, "line 1, column"));
  g_assert_null (strstr (text, "<data>"));
  g_assert_null (strstr (text, "Parse error"));

  /* The whole message, behind the toast's button. */
  g_assert_nonnull (find_labelled (GTK_WIDGET (window), GTK_TYPE_BUTTON, "_Details"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-details", "s", text);
  duel_app_test_wait (details_dialog_shown, window, 30, "the details");
  dialog = find_message_dialog ();
  g_assert_cmpstr (duel_alert_get_body (DUEL_ALERT (dialog)), ==, text);
  duel_dialog_close (dialog);

  /* Two bad files: a message each, the second once the first has gone. */
  {
    g_autofree char *other = g_build_filename (dir, "other.json", NULL);
    g_autoptr(GFile) other_file = g_file_new_for_path (other);
    GFile *both[2] = { file, other_file };

    g_assert_true (g_file_set_contents (other, "{\"format\": \"driveduel-result\", \"version\": ", -1, NULL));
    duel_window_open_files (window, both, 2);
    duel_app_test_wait (toast_names_other, window, 40, "the second file's toast");
    g_unlink (other);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
opening_toast_gone (gpointer user_data)
{
  return find_label_text (user_data, "Opening ") == NULL &&
         duel_comparison_view_get_item (duel_window_get_comparison_view (user_data), 0) != NULL;
}

/* A result file of 40 MB (a measured result and white space after it, as
 * JSON allows) takes a while to read and check: a toast names it and its
 * size from the moment it is asked for until it is open, then goes. A
 * small file opens with no such toast. */
static void
test_large_file_toast (void)
{
  DuelWindow *window = new_window ();
  g_autofree char *dir = duel_app_test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "large.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) small = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GString) padded = NULL;
  gsize length;
  GtkWidget *label;

  ensure_results ();
  g_assert_true (g_file_get_contents (result_a, &contents, &length, NULL));
  padded = g_string_new_len (contents, (gssize) length);
  while (padded->len < 40 * 1000 * 1000)
    g_string_append_c (padded, padded->len % 80 == 0 ? '\n' : ' ');
  g_assert_true (g_file_set_contents (path, padded->str, (gssize) padded->len, NULL));

  duel_window_open_files (window, &file, 1);
  /* g_format_size() puts a no-break space before the unit. */
  label = find_label_text (GTK_WIDGET (window), "Opening large.json (40.0\u00a0MB)");
  g_assert_nonnull (label);
  duel_app_test_wait (opening_toast_gone, window, 100, "the large file");

  small = g_file_new_for_path (result_b);
  duel_window_open_files (window, &small, 1);
  g_assert_null (find_label_text (GTK_WIDGET (window), "Opening "));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* "Measure" on the scratch file in a fresh home, where the cache folder does
 * not exist yet: it makes the folder and the file, and the estimate comes
 * from the measured pace (it used to stay on "measure to estimate"). */
static void
test_measure_fresh_home (void)
{
  DuelWindow *window = new_window ();
  DuelPresetsView *presets = duel_window_get_presets_view (window);
  GListModel *drives = duel_drives_view_get_model (duel_window_get_drives_view (window));
  g_autoptr(DuelDriveItem) scratch = g_list_model_get_item (drives, g_list_model_get_n_items (drives) - 1);
  g_autofree char *folder = g_build_filename (g_get_user_cache_dir (), "driveduel", NULL);
  GtkWidget *measure;

  g_assert_true (g_str_has_suffix (duel_drive_item_get_path (scratch), "scratch.img"));
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  duel_drives_view_set_selected (duel_window_get_drives_view (window), scratch);
  g_assert_true (duel_presets_view_set_preset_name (presets, "write-saturation"));
  measure = find_labelled (GTK_WIDGET (presets), GTK_TYPE_BUTTON, "_Measure");
  g_assert_nonnull (measure);
  duel_app_test_spin (10);
  g_assert_true (gtk_widget_get_visible (measure));
  g_signal_emit_by_name (measure, "clicked");
  duel_app_test_wait (estimate_measured, presets, 60, "the measured estimate");
  g_test_message ("%s", duel_presets_view_get_estimate (presets));
  /* The probe's IOPS grouped by threes, as the charts print them. */
  g_assert_true (g_regex_match_simple ("at [0-9]{1,3}(,[0-9]{3})* IOPS takes",
                                       duel_presets_view_get_estimate (presets), 0, 0));
  g_assert_true (g_file_test (duel_drive_item_get_path (scratch), G_FILE_TEST_IS_REGULAR));

  /* A preset of several tests: each one's part on a line of its own, as
   * the CLI prints them, the idle within recovery's. */
  g_assert_true (duel_presets_view_set_preset_name (presets, "modern-review"));
  duel_app_test_wait (estimate_by_test, presets, 60, "the estimate test by test");
  {
    g_auto(GStrv) lines = g_strsplit (duel_presets_view_get_estimate (presets), "\n", -1);

    g_test_message ("%s", duel_presets_view_get_estimate (presets));
    g_assert_cmpuint (g_strv_length (lines), ==, 5);
    g_assert_true (g_str_has_prefix (lines[1], "Sustained sequential write: "));
    g_assert_true (g_str_has_prefix (lines[2], "Recovery after idle: "));
    g_assert_true (g_str_has_suffix (lines[2], "35 min 00 s of it idle"));
    g_assert_true (g_str_has_prefix (lines[3], "Performance consistency: "));
    g_assert_true (g_str_has_prefix (lines[4], "Quality of service: "));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}


/* ---- the CrystalDiskMark tab ------------------------------------------------------------ */

/* A result of the set's default profile, two passes of each step, made by
 * hand: pass p moves ops[p] blocks in 1 s, each I/O taking lat_us[p] µs. */
static char *
write_cdm_result (void)
{
  static const struct { const char *name; guint32 bs; DuelPattern pattern; guint qd, jobs, read; } steps[] = {
    { "cdm-seq1m-q8t1-write",   1048576, DUEL_PATTERN_SEQUENTIAL, 8,  1,  0 },
    { "cdm-seq1m-q8t1-read",    1048576, DUEL_PATTERN_SEQUENTIAL, 8,  1,  100 },
    { "cdm-seq1m-q1t1-write",   1048576, DUEL_PATTERN_SEQUENTIAL, 1,  1,  0 },
    { "cdm-seq1m-q1t1-read",    1048576, DUEL_PATTERN_SEQUENTIAL, 1,  1,  100 },
    { "cdm-rnd4k-q32t16-write", 4096,    DUEL_PATTERN_RANDOM,     32, 16, 0 },
    { "cdm-rnd4k-q32t16-read",  4096,    DUEL_PATTERN_RANDOM,     32, 16, 100 },
    { "cdm-rnd4k-q1t1-write",   4096,    DUEL_PATTERN_RANDOM,     1,  1,  0 },
    { "cdm-rnd4k-q1t1-read",    4096,    DUEL_PATTERN_RANDOM,     1,  1,  100 },
  };
  static const guint64 ops[] = { 1000, 1500 };
  static const guint64 lat_us[] = { 2400, 2000 };
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (scratch_dir, "cdm.json", NULL);

  duel_result_set_name (result, "CDM Drive");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    for (guint p = 0; p < G_N_ELEMENTS (ops); p++)
      {
        DuelDirection d = steps[i].read == 100 ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
        DuelSeriesRow row = { .t_ms = 1000, .temperature_c = NAN };
        DuelWorkload workload;
        g_autoptr(DuelTestRecord) record = NULL;
        g_autoptr(DuelSummary) summary = NULL;
        JsonObject *details;

        duel_workload_init (&workload);
        workload.pattern = steps[i].pattern;
        workload.block_size = steps[i].bs;
        workload.queue_depth = steps[i].qd;
        workload.numjobs = steps[i].jobs;
        workload.read_percent = steps[i].read;
        workload.runtime_ms = 1000;
        record = duel_test_record_new (steps[i].name, &workload);
        record->preset = g_strdup ("crystaldiskmark");
        record->status = DUEL_TEST_STATUS_COMPLETE;
        record->runtime_ns = G_GUINT64_CONSTANT (1000000000);
        record->span_length = G_GUINT64_CONSTANT (1) << 30;
        row.ops[d] = ops[p];
        row.bytes[d] = ops[p] * steps[i].bs;
        duel_series_append (record->series, &row);
        duel_histogram_add (record->latency[d], lat_us[p] * 1000);
        summary = duel_analysis_summarize (record, DUEL_ANALYSIS_STANDARD, NULL);
        duel_analysis_apply (record, DUEL_ANALYSIS_STANDARD, NULL, summary);
        details = duel_test_record_get_details (record);
        json_object_set_string_member (details, "section", "crystaldiskmark");
        json_object_set_int_member (details, "pass", p + 1);
        json_object_set_int_member (details, "passes", G_N_ELEMENTS (ops));
        duel_result_add_test (result, record);
      }
  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  return path;
}

/* The file is in a place of the comparison (the first, or beside the
 * review's drive the window starts with). */
static gboolean
cdm_drive_ready (gpointer user_data)
{
  DuelWindow *window = user_data;
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  if (duel_window_is_busy (window) || comparison == NULL)
    return FALSE;
  for (guint d = 0; d < duel_comparison_get_n_drives (comparison); d++)
    if (g_strcmp0 (duel_comparison_get_drive_name (comparison, d), "CDM Drive") == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_cdm_view (GtkWidget  *widget,
             const char *unused)
{
  return DUEL_IS_CDM_VIEW (widget);
}

static gboolean
label_is (GtkWidget  *widget,
          const char *text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* A CrystalDiskMark result opens on a tab of that name: its grid, Read and
 * Write by CrystalDiskMark's steps (T16 kept), the best pass in MB/s, then
 * IOPS and µs from the units switch, and "Copy as Text" copies the grid's
 * text in the unit shown. */
static void
test_crystaldiskmark_grid (void)
{
  DuelWindow *window = new_window ();
  DuelComparisonView *view = duel_window_get_comparison_view (window);
  g_autofree char *path = write_cdm_result ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GFile *files[1] = { file };
  GtkWidget *cdm, *units, *copy_button, *stack;
  GtkStackPage *page;
  GLogLevelFlags fatal;

  /* GTK 4.24 (Debian unstable) warns that it measures the grid's page
   * under its minimum height, a warning of its own layout (structured, so
   * no test handler sees it); criticals stay fatal here, and the layout is
   * left to look into. */
  fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  duel_window_open_files (window, files, 1);
  duel_app_test_wait (cdm_drive_ready, window, 30, "the CrystalDiskMark result");
  duel_comparison_view_set_visible_tab (view, "crystaldiskmark");
  g_assert_cmpstr (duel_comparison_view_get_visible_tab (view), ==, "crystaldiskmark");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  cdm = find_widget (GTK_WIDGET (view), is_cdm_view, NULL);
  g_assert_nonnull (cdm);
  /* The stack's page holds the grid in a scrolled window. */
  stack = gtk_widget_get_ancestor (cdm, GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  {
    GtkWidget *child = cdm;

    while (gtk_widget_get_parent (child) != stack)
      child = gtk_widget_get_parent (child);
    page = gtk_stack_get_page (GTK_STACK (stack), child);
  }
  g_assert_cmpstr (gtk_stack_page_get_title (page), ==, "CrystalDiskMark");
  g_assert_true (gtk_widget_get_mapped (cdm));

  /* The four steps in CrystalDiskMark's notation, whole. */
  g_assert_nonnull (find_widget (cdm, label_is, "SEQ1M Q8T1"));
  g_assert_nonnull (find_widget (cdm, label_is, "SEQ1M Q1T1"));
  g_assert_nonnull (find_widget (cdm, label_is, "RND4K Q32T16"));
  g_assert_nonnull (find_widget (cdm, label_is, "RND4K Q1T1"));
  g_assert_nonnull (find_widget (cdm, label_is, "Read"));
  g_assert_nonnull (find_widget (cdm, label_is, "Write"));
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (find_widget (cdm, label_is, "RND4K Q32T16"))), ==,
                   PANGO_ELLIPSIZE_NONE);

  /* MB/s: pass 2, 1500 MiB in 1 s; RND4K: 1500 × 4096 bytes. */
  g_assert_cmpuint (duel_cdm_view_get_unit (DUEL_CDM_VIEW (cdm)), ==, DUEL_CDM_UNIT_MB_S);
  g_assert_nonnull (find_widget (cdm, label_is, "1,572.86"));
  g_assert_nonnull (find_widget (cdm, label_is, "6.14"));
  g_assert_nonnull (find_label_text (cdm, "best of 2 (pass 2), mean 1,310.72, spread 1,048.58–1,572.86 MB/s (40 %)"));

  units = find_named (cdm, "cdm-units");
  g_assert_true (GTK_IS_DROP_DOWN (units));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (units), DUEL_CDM_UNIT_IOPS);
  g_assert_cmpuint (duel_cdm_view_get_unit (DUEL_CDM_VIEW (cdm)), ==, DUEL_CDM_UNIT_IOPS);
  g_assert_nonnull (find_widget (cdm, label_is, "1,500.0"));
  g_assert_null (find_widget (cdm, label_is, "1,572.86"));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (units), DUEL_CDM_UNIT_US);
  g_assert_nonnull (find_widget (cdm, label_is, "2,000.00"));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  /* Copy as Text: the grid's text in µs, the unit shown. */
  {
    GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (window));
    g_autofree char *expected = duel_cdm_grid_to_text (duel_cdm_view_get_grid (DUEL_CDM_VIEW (cdm)),
                                                       DUEL_CDM_UNIT_US, DUEL_CDM_TEXT_PLAIN);
    CopiedText copied = { NULL, FALSE };

    copy_button = find_named (cdm, "cdm-copy-text");
    g_assert_nonnull (copy_button);
    g_signal_emit_by_name (copy_button, "clicked");
    gdk_clipboard_read_text_async (clipboard, NULL, clipboard_text_cb, &copied);
    duel_app_test_wait (copied_text_done, &copied, 10, "the clipboard's text");
    g_assert_cmpstr (copied.text, ==, expected);
    g_assert_nonnull (strstr (copied.text, "  RND4K Q32T16 "));
    g_assert_nonnull (strstr (copied.text, " µs (18 %)\n"));
    g_free (copied.text);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_log_set_always_fatal (fatal);
}

static void
test_screenshot_comparison (void)
{
  DuelWindow *window;
  DuelComparisonView *view;
  g_autofree char *chart = NULL;
  g_autofree char *table = NULL;

  if (has_two_references (NULL))
    window = new_window ();
  else
    window = window_with_two_files ();
  view = duel_window_get_comparison_view (window);
  g_assert_nonnull (duel_comparison_view_get_comparison (view));
  g_assert_cmpstr (duel_window_get_page (window), ==, "compare");

  duel_comparison_view_set_visible_tab (view, "write-curve");
  chart = duel_app_test_screenshot (window, "comparison");
  duel_comparison_view_set_visible_tab (view, "table");
  table = duel_app_test_screenshot (window, "comparison-table");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (!duel_app_test_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display\n");
      return 77;
    }

  app = duel_app_test_new_application ();
  scratch_dir = duel_app_test_make_dir ();

  g_test_add_func ("/duel/app/window-builds", test_window_builds);
  g_test_add_func ("/duel/app/confirm-dialog", test_confirm_dialog);
  g_test_add_func ("/duel/app/screenshot-comparison", test_screenshot_comparison);
  g_test_add_func ("/duel/app/two-files-fill-comparison", test_two_files_fill_comparison);
  g_test_add_func ("/duel/app/crystaldiskmark-grid", test_crystaldiskmark_grid);
  g_test_add_func ("/duel/app/open-and-drop", test_open_and_drop);
  g_test_add_func ("/duel/app/open-fio-json", test_open_fio_json);
  g_test_add_func ("/duel/app/no-ids-in-window", test_no_ids_in_window);
  g_test_add_func ("/duel/app/custom-test-rows", test_custom_test_rows);
  g_test_add_func ("/duel/app/partial-interval-note", test_partial_interval_note);
  g_test_add_func ("/duel/app/fairness-banner", test_fairness_banner);
  g_test_add_func ("/duel/app/picker-list-width", test_picker_list_width);
  g_test_add_func ("/duel/app/picker-label-centred", test_picker_label_centred);
  g_test_add_func ("/duel/app/preset-names-whole", test_preset_names_whole);
  g_test_add_func ("/duel/app/narrow-window", test_narrow_window);
  g_test_add_func ("/duel/app/dark-style-colors", test_dark_style_colors);
  g_test_add_func ("/duel/app/reference-note", test_reference_note);
  g_test_add_func ("/duel/app/export-writes-files", test_export_writes_files);
  g_test_add_func ("/duel/app/history-rename-delete", test_history_rename_delete);
  g_test_add_func ("/duel/app/history-cli-run-joins", test_history_cli_run_joins);
  g_test_add_func ("/duel/app/measure-fresh-home", test_measure_fresh_home);
  g_test_add_func ("/duel/app/bad-file-toast", test_bad_file_toast);
  g_test_add_func ("/duel/app/large-file-toast", test_large_file_toast);

  status = g_test_run ();

  test_dir_remove (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_pointer (&result_a, g_free);
  g_clear_pointer (&result_b, g_free);
  g_clear_object (&app);
  return status;
}
