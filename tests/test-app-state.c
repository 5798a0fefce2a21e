/* test-app-state.c — what the window keeps: Compare's places exactly as
 * chosen, and across a restart the preset, the custom test, the target and
 * the comparison, under Xvfb
 *
 * A restart is a new window of the application, its views made afresh and
 * read from the settings the last one wrote (GSETTINGS_BACKEND=memory keeps
 * them for the process, as dconf keeps them for a session).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "duel-app-test.h"

#include <glib/gstdio.h>
#include <string.h>

#include "duel-adw-compat.h"
#include "duel-comparison-view.h"
#include "duel-confirm-dialog.h"
#include "device/duel-device.h"
#include "duel-drive-item.h"
#include "duel-drives-view.h"
#include "duel-history.h"
#include "duel-presets-view.h"
#include "duel-result-item.h"

static DuelApplication *app;
static char *scratch_dir;
static char *quick_a;    /* quick reviews, scaled down */
static char *quick_b;
static char *custom_a;   /* a custom test: no test in common with the quick review */

static void
ensure_results (void)
{
  DuelPresetOptions options;
  g_autofree char *target = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelTarget) file = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (quick_a != NULL)
    return;
  quick_a = duel_app_test_make_result (scratch_dir, "Drive One");
  quick_b = duel_app_test_make_result (scratch_dir, "Drive Two");

  /* The custom test, as its preset runs it; made last, it is the newest. */
  duel_app_test_small_options (&options);
  duel_workload_init (&options.custom);
  options.custom.pattern = DUEL_PATTERN_RANDOM;
  options.custom.block_size = 4096;
  options.custom.queue_depth = 4;
  options.custom.numjobs = 1;
  options.custom.read_percent = 70;
  preset = duel_preset_new ("custom", &options, &error);
  g_assert_no_error (error);
  target = g_build_filename (scratch_dir, "custom.img", NULL);
  file = duel_target_open (target, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE,
                           options.span_bytes, &error);
  g_assert_no_error (error);
  result = duel_result_new ();
  duel_result_set_target_from (result, file);
  duel_result_set_name (result, "Drive Custom");
  test_run_plan (preset, file, result, NULL, NULL, &error);
  g_assert_no_error (error);
  custom_a = g_build_filename (scratch_dir, "Drive Custom.json", NULL);
  duel_result_save (result, custom_a, &error);
  g_assert_no_error (error);
  g_unlink (target);
}

/* --- the history and windows -------------------------------------------- */

static DuelHistory *
history (void)
{
  return duel_application_get_history (app);
}

/* @source copied into the history's folder as @name; returns its path. */
static char *
history_put (const char *source,
             const char *name)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  char *path;

  g_assert_cmpint (g_mkdir_with_parents (duel_history_get_directory (history ()), 0700), ==, 0);
  path = g_build_filename (duel_history_get_directory (history ()), name, NULL);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  return path;
}

/* Each test's runs alone in the history. */
static void
history_clear (void)
{
  g_autoptr(GDir) dir = g_dir_open (duel_history_get_directory (history ()), 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (duel_history_get_directory (history ()), name, NULL);

      g_unlink (path);
    }
}

static void
reload_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  duel_history_reload_finish (DUEL_HISTORY (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer user_data)
{
  return *(gboolean *) user_data;
}

static void
reload_history (void)
{
  gboolean done = FALSE;

  duel_history_reload_async (history (), NULL, reload_done_cb, &done);
  duel_app_test_wait (flag_set, &done, 30, "the history to reload");
}

/* --- Compare's drop-downs ------------------------------------------------- */

static gboolean
item_is_file (DuelResultItem *item,
              const char     *path)
{
  g_autoptr(GFile) file = NULL;

  if (item == NULL || path == NULL)
    return item == NULL && path == NULL;
  file = g_file_new_for_path (path);
  return g_file_equal (duel_result_item_get_file (item), file);
}

static gboolean
item_is_path (DuelResultItem *item,
              gconstpointer   path)
{
  return item_is_file (item, path);
}

/* Picks @path's result in @slot's drop-down (NULL: "None"). */
static void
pick (DuelWindow *window,
      guint       slot,
      const char *path)
{
  duel_app_test_choose (window, slot, item_is_path, path);
}

static guint
n_drives (DuelWindow *window)
{
  DuelComparison *comparison = duel_comparison_view_get_comparison (duel_window_get_comparison_view (window));

  return comparison != NULL ? duel_comparison_get_n_drives (comparison) : 0;
}

/* Each place holds the result of @paths (NULL: none), and its drop-down shows it. */
static void
assert_places (DuelWindow         *window,
               const char * const *paths)
{
  DuelComparisonView *view = duel_window_get_comparison_view (window);

  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      DuelResultItem *item = duel_comparison_view_get_item (view, slot);
      GtkDropDown *dropdown = duel_app_test_slot_dropdown (window, slot);
      gpointer shown = gtk_drop_down_get_selected_item (dropdown);

      g_test_message ("place %c: %s", 'A' + slot,
                      item != NULL ? duel_result_item_get_title (item) : "none");
      g_assert_true (item_is_file (item, paths[slot]));
      if (item == NULL)
        g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
      else
        g_assert_true (shown == (gpointer) item);
    }
}

/* From four drives to three, two and one, a drop-down at a time, None
 * chosen as a person chooses it (it used to snap back to the drive); the
 * places keep their drives while the lists change under them: the history
 * read again (new items for the same files), a run added above them; a run
 * deleted from the history leaves its place empty, not to its neighbour. */
static void
test_compare_slots_keep_choice (void)
{
  g_autofree char *one = NULL;
  g_autofree char *two = NULL;
  g_autofree char *three = NULL;
  g_autoptr(DuelResultItem) before = NULL;
  g_autoptr(DuelResult) newest = NULL;
  g_autoptr(GError) error = NULL;
  DuelComparisonView *view;
  DuelWindow *window;

  ensure_results ();
  history_clear ();
  one = history_put (quick_a, "20240101-000001-one.json");
  two = history_put (quick_b, "20240101-000002-two.json");
  duel_app_test_forget_state (app);
  window = duel_app_test_open_window (app, 1100);
  view = duel_window_get_comparison_view (window);
  duel_window_set_page (window, "compare");

  pick (window, 0, one);
  pick (window, 1, two);
  pick (window, 2, one);
  pick (window, 3, two);
  g_assert_cmpuint (n_drives (window), ==, 4);
  assert_places (window, (const char *[]) { one, two, one, two });

  pick (window, 3, NULL);
  g_assert_cmpuint (n_drives (window), ==, 3);
  assert_places (window, (const char *[]) { one, two, one, NULL });
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  pick (window, 2, NULL);
  g_assert_cmpuint (n_drives (window), ==, 2);
  assert_places (window, (const char *[]) { one, two, NULL, NULL });
  pick (window, 1, NULL);
  g_assert_cmpuint (n_drives (window), ==, 1);
  assert_places (window, (const char *[]) { one, NULL, NULL, NULL });
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  pick (window, 1, two);
  g_assert_cmpuint (n_drives (window), ==, 2);

  /* The history read again: every item new, each place its file's. */
  before = g_object_ref (duel_comparison_view_get_item (view, 0));
  reload_history ();
  g_assert_true (duel_comparison_view_get_item (view, 0) != before);
  g_assert_cmpuint (n_drives (window), ==, 2);
  assert_places (window, (const char *[]) { one, two, NULL, NULL });

  /* A run filed above them, as a finished run is. */
  three = history_put (custom_a, "20240101-000003-three.json");
  newest = duel_result_load (three, &error);
  g_assert_no_error (error);
  g_assert_nonnull (duel_history_add (history (), three, newest));
  g_assert_cmpuint (n_drives (window), ==, 2);
  assert_places (window, (const char *[]) { one, two, NULL, NULL });

  /* Drive B's run deleted: B is empty, A alone. */
  g_assert_true (duel_history_delete (history (), duel_comparison_view_get_item (view, 1), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_drives (window), ==, 1);
  assert_places (window, (const char *[]) { one, NULL, NULL, NULL });

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear ();
  reload_history ();
}

/* --- the settings of a run -------------------------------------------------- */

static gboolean
is_row_titled (GtkWidget  *widget,
               const char *title)
{
  return ADW_IS_PREFERENCES_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0;
}

static GtkWidget *
find_widget (GtkWidget  *root,
             gboolean  (*matches) (GtkWidget  *widget,
                                   const char *text),
             const char *text)
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

static gboolean
is_type (GtkWidget  *widget,
         const char *type_name)
{
  return g_type_is_a (G_OBJECT_TYPE (widget), g_type_from_name (type_name));
}

/* The widget of type @type_name in the row titled @title. */
static gpointer
row_child (GtkWidget  *root,
           const char *title,
           const char *type_name)
{
  GtkWidget *row = find_widget (root, is_row_titled, title);
  GtkWidget *child;

  g_assert_nonnull (row);
  child = find_widget (row, is_type, type_name);
  g_assert_nonnull (child);
  return child;
}

static AdwComboRow *
combo_row (GtkWidget  *root,
           const char *title)
{
  GtkWidget *row = find_widget (root, is_row_titled, title);

  g_assert_true (ADW_IS_COMBO_ROW (row));
  return ADW_COMBO_ROW (row);
}

/* The preset, the custom test's access, read share, block size, queue
 * depth and jobs, its length and passes, the span, the fill's multiple and
 * trim, and the target, set as a person sets them: all there after a
 * restart (they used to be the defaults again). */
static void
test_restart_keeps_settings (void)
{
  g_autofree char *target = g_build_filename (scratch_dir, "remembered.img", NULL);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  const DuelPresetStep *step;
  DuelPresetsView *presets;
  DuelDriveItem *drive;
  DuelWindow *window;
  GtkWidget *root;

  history_clear ();
  duel_app_test_forget_state (app);
  window = duel_app_test_open_window (app, 1100);
  presets = duel_window_get_presets_view (window);
  root = GTK_WIDGET (presets);
  g_assert_cmpstr (duel_presets_view_get_preset_name (presets), ==, "quick");

  g_assert_true (duel_presets_view_set_preset_name (presets, "write-saturation"));
  gtk_spin_button_set_value (row_child (root, "Capacity _multiple", "GtkSpinButton"), 3.5);
  gtk_switch_set_active (row_child (root, "_Trim first", "GtkSwitch"), FALSE);
  gtk_editable_set_text (row_child (root, "_Span", "GtkEntry"), "64 MiB");

  g_assert_true (duel_presets_view_set_preset_name (presets, "custom"));
  adw_combo_row_set_selected (combo_row (root, "A_ccess"), 1);       /* Sequential */
  adw_combo_row_set_selected (combo_row (root, "_Block size"), 6);   /* 128 KiB */
  gtk_spin_button_set_value (row_child (root, "_Reads (%)", "GtkSpinButton"), 70);
  gtk_spin_button_set_value (row_child (root, "_Queue depth", "GtkSpinButton"), 8);
  gtk_spin_button_set_value (row_child (root, "_Jobs", "GtkSpinButton"), 3);
  gtk_spin_button_set_value (row_child (root, "P_asses", "GtkSpinButton"), 4);
  gtk_spin_button_set_value (row_child (root, "Test _length", "GtkSpinButton"), 12);
  drive = duel_drives_view_add_file (duel_window_get_drives_view (window), target);
  g_assert_true (duel_drives_view_get_selected (duel_window_get_drives_view (window)) == drive);
  duel_app_test_close_window (window);

  window = duel_app_test_open_window (app, 1100);
  presets = duel_window_get_presets_view (window);
  root = GTK_WIDGET (presets);
  g_assert_cmpstr (duel_presets_view_get_preset_name (presets), ==, "custom");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (combo_row (root, "A_ccess"))));
  g_assert_cmpuint (adw_combo_row_get_selected (combo_row (root, "A_ccess")), ==, 1);
  g_assert_cmpuint (adw_combo_row_get_selected (combo_row (root, "_Block size")), ==, 6);
  g_assert_cmpfloat (gtk_spin_button_get_value (row_child (root, "Capacity _multiple", "GtkSpinButton")), ==, 3.5);
  g_assert_false (gtk_switch_get_active (row_child (root, "_Trim first", "GtkSwitch")));
  g_assert_cmpstr (gtk_editable_get_text (row_child (root, "_Span", "GtkEntry")), ==, "64 MiB");

  /* What Start would run. */
  g_assert_true (duel_presets_view_get_options (presets, &options, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (options.span_bytes, ==, 64 * 1024 * 1024);
  preset = duel_presets_view_create_preset (presets, &error);
  g_assert_no_error (error);
  g_assert_true (duel_preset_prepare_for_size (preset, G_GUINT64_CONSTANT (1) << 30, 512, "test", &error));
  g_assert_no_error (error);
  step = duel_preset_get_step (preset, 0);
  g_assert_cmpint (step->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
  g_assert_cmpuint (step->workload.block_size, ==, 128 * 1024);
  g_assert_cmpuint (step->workload.read_percent, ==, 70);
  g_assert_cmpuint (step->workload.queue_depth, ==, 8);
  g_assert_cmpuint (step->workload.numjobs, ==, 3);
  g_assert_cmpuint (step->workload.runtime_ms, ==, 12000);
  g_assert_cmpuint (step->passes, ==, 4);

  /* The target, chosen again: Start is ready. */
  drive = duel_drives_view_get_selected (duel_window_get_drives_view (window));
  g_assert_nonnull (drive);
  g_assert_cmpstr (duel_drive_item_get_path (drive), ==, target);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "drives"));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  gtk_window_destroy (GTK_WINDOW (window));
  duel_app_test_forget_state (app);
}

typedef struct
{
  DuelDrivesView *view;
  const char     *path;
} FindDrive;

static DuelDriveItem *
lookup_drive (DuelDrivesView *view,
              const char     *path)
{
  GListModel *model = duel_drives_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (duel_drive_item_get_path (item), path) == 0)
        return item;
    }
  return NULL;
}

static gboolean
drive_listed (gpointer user_data)
{
  FindDrive *find = user_data;

  return lookup_drive (find->view, find->path) != NULL;
}

/* A drive is chosen again by its path and serial number: the same path
 * with another serial (another drive after a reboot) is not chosen. */
static void
test_restart_drive_by_serial (void)
{
  g_autoptr(GPtrArray) devices = duel_device_enumerate ("/", NULL);
  GSettings *settings = duel_application_get_settings (app);
  DuelDevice *device = NULL;
  const char *serial;
  FindDrive find;
  DuelWindow *window;

  /* A drive the window lists (as duel-drives-view.c picks them). */
  for (guint i = 0; devices != NULL && i < devices->len && device == NULL; i++)
    {
      DuelDevice *candidate = g_ptr_array_index (devices, i);
      DuelTransport transport = duel_device_get_transport (candidate);

      if (duel_device_get_size_bytes (candidate) > 0 && !duel_device_get_read_only (candidate) &&
          transport != DUEL_TRANSPORT_DM && transport != DUEL_TRANSPORT_MD)
        device = candidate;
    }
  if (device == NULL)
    {
      g_test_skip ("no block device is listed here");
      return;
    }
  serial = duel_device_get_serial (device) != NULL ? duel_device_get_serial (device) : "";
  g_test_message ("%s, serial “%s”", duel_device_get_device_path (device), serial);

  for (guint same = 0; same < 2; same++)
    {
      g_autofree char *other = g_strconcat (serial, "-another", NULL);
      DuelDriveItem *chosen;

      duel_app_test_forget_state (app);
      g_settings_set_string (settings, "target", duel_device_get_device_path (device));
      g_settings_set_string (settings, "target-serial", same ? serial : other);
      window = duel_app_test_open_window (app, 1100);
      find.view = duel_window_get_drives_view (window);
      find.path = duel_device_get_device_path (device);
      duel_app_test_wait (drive_listed, &find, 60, "the drive in the list");
      chosen = duel_drives_view_get_selected (find.view);
      if (same)
        g_assert_true (chosen == lookup_drive (find.view, find.path));
      else
        g_assert_null (chosen);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  duel_app_test_forget_state (app);
}

/* --- Compare at the start ----------------------------------------------------- */

static gboolean
warned (DuelComparison *comparison,
        const char     *needle)
{
  const char * const *warnings = duel_comparison_get_warnings (comparison);

  for (guint i = 0; warnings[i] != NULL; i++)
    if (strstr (warnings[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

/* A first start with runs: the newest run is a custom test, which no other
 * result ran; Compare pairs the runs that share a test (it used to pair the
 * newest run with a reference drive: "no test in common"). */
static void
test_start_pairs_shared_tests (void)
{
  g_autofree char *quick = NULL;
  g_autofree char *custom = NULL;
  DuelComparisonView *view;
  DuelComparison *comparison;
  DuelWindow *window;

  ensure_results ();
  history_clear ();
  quick = history_put (quick_a, "20240101-000001-quick.json");
  custom = history_put (custom_a, "20240101-000002-custom.json");
  duel_app_test_forget_state (app);
  window = duel_app_test_open_window (app, 1100);
  view = duel_window_get_comparison_view (window);
  comparison = duel_comparison_view_get_comparison (view);

  g_assert_nonnull (comparison);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 2);
  g_assert_false (warned (comparison, "no test in common"));
  g_assert_nonnull (duel_comparison_get_tests (comparison)[0]);
  /* The quick review, the newest run that shares a test, beside a reference. */
  g_assert_true (item_is_file (duel_comparison_view_get_item (view, 0), quick));
  g_assert_cmpint (duel_result_item_get_origin (duel_comparison_view_get_item (view, 1)), ==,
                   DUEL_RESULT_ORIGIN_REFERENCE);

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear ();
  reload_history ();
}

/* What was compared comes back at the next start, None in its places and
 * an opened file too; a remembered set with a drive that shares no test
 * gives way to the runs that share one. */
static void
test_restart_keeps_comparison (void)
{
  g_autofree char *one = NULL;
  g_autofree char *two = NULL;
  g_autofree char *custom = NULL;
  g_autofree char *opened = g_build_filename (scratch_dir, "opened.json", NULL);
  g_autoptr(GFile) opened_file = g_file_new_for_path (opened);
  g_autofree char *contents = NULL;
  gsize length = 0;
  DuelWindow *window;

  ensure_results ();
  history_clear ();
  one = history_put (quick_a, "20240101-000001-one.json");
  two = history_put (quick_b, "20240101-000002-two.json");
  custom = history_put (custom_a, "20240101-000003-custom.json");
  g_assert_true (g_file_get_contents (quick_b, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (opened, contents, (gssize) length, NULL));
  duel_app_test_forget_state (app);

  /* Two runs and an opened file; C and D none. */
  window = duel_app_test_open_window (app, 1100);
  pick (window, 0, two);
  pick (window, 1, NULL);
  pick (window, 2, NULL);
  pick (window, 3, NULL);
  duel_window_open_files (window, (GFile *[]) { opened_file }, 1);
  duel_app_test_wait (duel_app_test_not_busy, window, 30, "the opened file");
  pick (window, 2, one);
  assert_places (window, (const char *[]) { two, opened, one, NULL });
  duel_app_test_close_window (window);

  window = duel_app_test_open_window (app, 1100);
  g_assert_cmpuint (n_drives (window), ==, 3);
  assert_places (window, (const char *[]) { two, opened, one, NULL });
  /* Back to two, and so at the next start. */
  pick (window, 2, NULL);
  duel_app_test_close_window (window);
  window = duel_app_test_open_window (app, 1100);
  g_assert_cmpuint (n_drives (window), ==, 2);
  assert_places (window, (const char *[]) { two, opened, NULL, NULL });

  /* One drive alone stays alone. */
  pick (window, 1, NULL);
  duel_app_test_close_window (window);
  window = duel_app_test_open_window (app, 1100);
  assert_places (window, (const char *[]) { two, NULL, NULL, NULL });

  /* The custom test beside a quick review shares nothing: not shown again. */
  pick (window, 0, custom);
  pick (window, 1, one);
  g_assert_true (warned (duel_comparison_view_get_comparison (duel_window_get_comparison_view (window)),
                         "no test in common"));
  duel_app_test_close_window (window);
  window = duel_app_test_open_window (app, 1100);
  g_assert_cmpuint (n_drives (window), ==, 2);
  g_assert_false (warned (duel_comparison_view_get_comparison (duel_window_get_comparison_view (window)),
                          "no test in common"));

  gtk_window_destroy (GTK_WINDOW (window));
  duel_app_test_forget_state (app);
  history_clear ();
  reload_history ();
  g_unlink (opened);
}

/* --- screenshots -------------------------------------------------------------- */

/* @widget's own surface (a dialog that is a window of its own) as
 * tests/screenshots/NAME.png in the build tree. */
static void
save_native_screenshot (GtkWidget  *widget,
                        const char *name)
{
  g_autofree char *shots = g_build_filename (g_test_get_dir (G_TEST_BUILT), "screenshots", NULL);
  g_autofree char *file = g_strdup_printf ("%s.png", name);
  g_autofree char *path = g_build_filename (shots, file, NULL);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  int width, height;

  g_mkdir_with_parents (shots, 0755);
  gtk_test_widget_wait_for_draw (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                        &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("Screenshot: %s", path);
}

/* What these tests change, as it looks in the session's language (run
 * with LANGUAGE=zh_TW for the Chinese), 360 px and 1100 px wide, light and
 * dark: Compare with C and D set to None, the Drives page with the custom
 * test as a restart shows it, the consent to write over an existing file. */
static void
test_screenshots (void)
{
  static const int widths[] = { 360, 1100 };
  const char *language = g_getenv ("LANGUAGE") != NULL && *g_getenv ("LANGUAGE") != '\0'
                         ? g_getenv ("LANGUAGE") : "en";
  g_autofree char *one = NULL;
  g_autofree char *two = NULL;
  g_autofree char *existing = g_build_filename (scratch_dir, "someone’s data.img", NULL);
  g_autofree char *data = g_strnfill (64 * 1024, 'x');
  AdwStyleManager *style = adw_style_manager_get_default ();

  ensure_results ();
  history_clear ();
  one = history_put (quick_a, "20240101-000001-one.json");
  two = history_put (quick_b, "20240101-000002-two.json");
  g_assert_true (g_file_set_contents (existing, data, -1, NULL));
  /* GTK 4.8's action bar warns of its first frame below 400 px; criticals stay fatal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  for (guint dark = 0; dark < 2; dark++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        g_autofree char *suffix = g_strdup_printf ("%s-%d%s", language, widths[w], dark ? "-dark" : "");
        g_autofree char *compare = g_strdup_printf ("state-compare-none-%s", suffix);
        g_autofree char *drives = g_strdup_printf ("state-drives-restored-%s", suffix);
        g_autofree char *consent = g_strdup_printf ("state-file-consent-%s", suffix);
        g_autofree char *history_shot = g_strdup_printf ("state-history-%s", suffix);
        g_autoptr(DuelDriveItem) drive = duel_drive_item_new_for_file (existing, 0);
        g_autofree char *shot = NULL;
        DuelConfirmDialog *dialog;
        DuelWindow *window;

        adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
        duel_app_test_forget_state (app);
        window = duel_app_test_open_window (app, widths[w]);
        pick (window, 0, one);
        pick (window, 1, two);
        pick (window, 2, one);
        pick (window, 2, NULL);
        g_assert_cmpuint (n_drives (window), ==, 2);
        duel_window_set_page (window, "compare");
        shot = duel_app_test_screenshot (window, compare);
        g_clear_pointer (&shot, g_free);
        duel_window_set_page (window, "history");
        shot = duel_app_test_screenshot (window, history_shot);
        g_clear_pointer (&shot, g_free);
        g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), "custom"));
        duel_app_test_close_window (window);

        window = duel_app_test_open_window (app, widths[w]);
        duel_drives_view_add_file (duel_window_get_drives_view (window), existing);
        duel_window_set_page (window, "drives");
        shot = duel_app_test_screenshot (window, drives);
        g_clear_pointer (&shot, g_free);

        dialog = duel_confirm_dialog_new (drive, duel_preset_get_title_for_name ("quick"));
        duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (window));
        if (GTK_IS_NATIVE (dialog))
          save_native_screenshot (GTK_WIDGET (dialog), consent);
        else
          shot = duel_app_test_screenshot (window, consent);
        duel_dialog_close (GTK_WIDGET (dialog));
        gtk_window_destroy (GTK_WINDOW (window));
      }

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  duel_app_test_forget_state (app);
  history_clear ();
  reload_history ();
  g_unlink (existing);
}

/* Every run of one file target had the same name in the drop-downs: the
 * label says what ran, when (a date that reads one way) and how it ended. */
static void
test_run_names_tell_apart (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/run.json");
  g_autoptr(DuelResultItem) quick = NULL;
  g_autoptr(DuelResultItem) stopped = NULL;
  g_autoptr(DuelResultItem) plain = NULL;
  const char *presets[] = { "quick", "quick", NULL };
  DuelTestStatus statuses[] = { DUEL_TEST_STATUS_COMPLETE, DUEL_TEST_STATUS_CANCELLED, DUEL_TEST_STATUS_COMPLETE };
  DuelResultItem **items[] = { &quick, &stopped, &plain };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(DuelResult) result = duel_result_new ();
      g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 6, 9 + i, 30, 0);
      DuelWorkload workload;
      g_autoptr(DuelTestRecord) record = NULL;

      duel_workload_init (&workload);
      record = duel_test_record_new ("wsat-fill", &workload);
      record->preset = g_strdup (presets[i]);
      record->status = statuses[i];
      duel_result_add_test (result, record);
      duel_result_set_name (result, "scratch.img");
      duel_result_set_created (result, when);
      *items[i] = duel_result_item_new (file, DUEL_RESULT_ORIGIN_HISTORY, result);
      g_test_message ("%s", duel_result_item_get_label (*items[i]));
    }
  g_assert_cmpstr (duel_result_item_get_label (quick), !=, duel_result_item_get_label (stopped));
  g_assert_cmpstr (duel_result_item_get_label (quick), !=, duel_result_item_get_label (plain));
  g_assert_true (g_str_has_prefix (duel_result_item_get_label (quick), "scratch.img · Quick"));
  g_assert_true (g_str_has_suffix (duel_result_item_get_label (stopped), " · stopped"));
  /* The year in full and the month by name: "Dec 6, 2026", never "12/06/26". */
  g_assert_nonnull (strstr (duel_result_item_get_label (plain), "2026"));
  g_assert_null (strstr (duel_result_item_get_label (plain), "/"));
}

/* A drive alone whose run has no fill (a custom 70/30 mix) opens on a page
 * with something drawn, not on an empty write curve. */
static void
test_first_tab_has_data (void)
{
  g_autofree char *custom = NULL;
  DuelWindow *window;
  DuelComparisonView *view;

  g_autofree char *quick = NULL;

  ensure_results ();
  history_clear ();
  quick = history_put (quick_a, "20240101-000001-quick.json");
  custom = history_put (custom_a, "20240101-000003-custom.json");
  duel_app_test_forget_state (app);
  window = duel_app_test_open_window (app, 1100);
  view = duel_window_get_comparison_view (window);
  /* The write curve of a quick review, shown... */
  pick (window, 0, quick);
  for (guint slot = 1; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    pick (window, slot, NULL);
  duel_comparison_view_set_visible_tab (view, "write-curve");
  g_assert_cmpstr (duel_comparison_view_get_visible_tab (view), ==, "write-curve");
  /* ...then the custom run alone: it has none to draw. */
  pick (window, 0, custom);
  g_test_message ("shown: %s", duel_comparison_view_get_visible_tab (view));
  g_assert_cmpstr (duel_comparison_view_get_visible_tab (view), !=, "write-curve");
  duel_app_test_close_window (window);
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
  gtk_test_register_all_types ();

  g_test_add_func ("/duel/app/state/compare-slots-keep-choice", test_compare_slots_keep_choice);
  g_test_add_func ("/duel/app/state/restart-keeps-settings", test_restart_keeps_settings);
  g_test_add_func ("/duel/app/state/restart-drive-by-serial", test_restart_drive_by_serial);
  g_test_add_func ("/duel/app/state/start-pairs-shared-tests", test_start_pairs_shared_tests);
  g_test_add_func ("/duel/app/state/restart-keeps-comparison", test_restart_keeps_comparison);
  g_test_add_func ("/duel/app/state/screenshots", test_screenshots);
  g_test_add_func ("/duel/app/state/run-names-tell-apart", test_run_names_tell_apart);
  g_test_add_func ("/duel/app/state/first-tab-has-data", test_first_tab_has_data);

  status = g_test_run ();

  test_dir_remove (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_pointer (&quick_a, g_free);
  g_clear_pointer (&quick_b, g_free);
  g_clear_pointer (&custom_a, g_free);
  g_clear_object (&app);
  return status;
}
