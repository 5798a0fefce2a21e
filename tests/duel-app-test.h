/* duel-app-test.h — what the GUI tests share: start-up, waiting, result files
 *
 * The GUI tests drive the real application: a DuelApplication registered
 * without a bus name (G_APPLICATION_NON_UNIQUE), its real window, the real
 * engine on file targets in the test's own temporary folders.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <time.h>
#include <unistd.h>

#include "duel-adw-compat.h"
#include "duel-application.h"
#include "run/duel-preset.h"
#include "duel-result-item.h"
#include "duel-window.h"
#include "test-dir.h"
#include "test-run-plan.h"

/* Initialises GLib testing, GTK and libadwaita; FALSE when there is no display. */
static inline gboolean
duel_app_test_init (int    *argc,
                    char ***argv)
{
  const char *data_dirs = g_getenv ("XDG_DATA_DIRS");
  g_autofree char *system_data_dirs = g_strdup (data_dirs != NULL && *data_dirs != '\0'
                                                ? data_dirs : "/usr/local/share/:/usr/share/");
  /* The build's catalogue, as the app reads it under `meson devenv`. */
  const char *localedir = g_getenv ("DRIVEDUEL_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  /* The templates' strings are looked up in the default domain, as main() sets it. */
  textdomain (GETTEXT_PACKAGE);
  /* The user's folders (history, settings, caches) are private to the test… */
  g_test_init (argc, argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* …but the system's are needed: the icon theme and the MIME database that
   * tells gdk-pixbuf an SVG icon is an SVG. */
  g_setenv ("XDG_DATA_DIRS", system_data_dirs, TRUE);
  if (!gtk_init_check ())
    return FALSE;
  /* Both are read once: done now, before each test isolates XDG_DATA_DIRS again. */
  gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_free (g_content_type_guess ("probe.svg", NULL, 0, NULL));
  adw_init ();
  /* Deterministic frames: toasts and transitions jump to their end. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return TRUE;
}

typedef gboolean (*DuelAppTestCondition) (gpointer user_data);

static gboolean
duel_app_test_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* A wait's cap only turns a hang into a clear failure, never a verdict on
 * speed: what takes a second on a quiet host may take a minute on a loaded
 * one. No wait gives up sooner than this. */
#define DUEL_APP_TEST_WAIT_MIN_S 180

/* Runs the main loop until @condition holds; fails the test after @seconds
 * (at least DUEL_APP_TEST_WAIT_MIN_S). */
static inline void
duel_app_test_wait (DuelAppTestCondition  condition,
                    gpointer              user_data,
                    guint                 seconds,
                    const char           *what)
{
  gboolean timed_out = FALSE;
  guint id;

  seconds = MAX (seconds, DUEL_APP_TEST_WAIT_MIN_S);
  id = g_timeout_add_seconds (seconds, duel_app_test_timeout_cb, &timed_out);

  while (!condition (user_data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  if (timed_out)
    g_error ("Timed out after %u s waiting for %s", seconds, what);
}

static gboolean
duel_app_test_not_busy (gpointer user_data)
{
  return !duel_window_is_busy (DUEL_WINDOW (user_data));
}

/* Lets pending idles and redraws run for @ms. */
static inline void
duel_app_test_spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
}

/* While a popover is up, GTK 4.10 and newer on Xvfb warn of their own frame
 * clock ("gdk_frame_timings_submitted() called on submitted frame", seen
 * with GTK 4.24): a structured warning no test handler can filter, so
 * warnings are not fatal in between (criticals stay fatal). GTK 4.8 does not
 * warn, and there they stay fatal. */
static inline void
duel_app_test_popover_begin (void)
{
  if (gtk_get_minor_version () >= 10)
    g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
}

static inline void
duel_app_test_popover_end (void)
{
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* A window as the app opens one, @width wide: its history, references and
 * remembered files loaded. */
static inline DuelWindow *
duel_app_test_open_window (DuelApplication *app,
                           int              width)
{
  DuelWindow *window = duel_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, 760);
  gtk_window_present (GTK_WINDOW (window));
  duel_app_test_wait (duel_app_test_not_busy, window, 60, "the history, references and files to load");
  return window;
}

/* As the person closes it: its close request, then gone. */
static inline void
duel_app_test_close_window (DuelWindow *window)
{
  g_autoptr(GtkWidget) watch = g_object_ref (GTK_WIDGET (window));

  gtk_window_close (GTK_WINDOW (window));
  g_assert_false (gtk_widget_get_visible (watch));
}

/* An export's "done" into an int: 1 written, -1 failed (0 until then). */
static inline void
duel_app_test_export_done_cb (GtkWidget *dialog,
                              gboolean   success,
                              gpointer   user_data)
{
  *(int *) user_data = success ? 1 : -1;
}

static inline gboolean
duel_app_test_export_finished (gpointer user_data)
{
  return *(int *) user_data != 0;
}

static inline gboolean
duel_app_test_alert_shown (gpointer user_data)
{
  return duel_alert_find_any_shown () != NULL;
}

/* The drop-downs under @root, in the page's order. */
static inline void
duel_app_test_collect_dropdowns (GtkWidget *root,
                                 GPtrArray *out)
{
  if (GTK_IS_DROP_DOWN (root))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    duel_app_test_collect_dropdowns (child, out);
}

/* Compare's drop-down of place @slot: A, B, C and D in the page's order. */
static inline GtkDropDown *
duel_app_test_slot_dropdown (DuelWindow *window,
                             guint       slot)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  duel_app_test_collect_dropdowns (GTK_WIDGET (duel_window_get_comparison_view (window)), all);
  g_assert_cmpuint (all->len, ==, DUEL_COMPARISON_MAX_DRIVES);
  return g_ptr_array_index (all, slot);
}

/* Whether a drop-down's item is the one a test wants. */
typedef gboolean (*DuelAppTestItemMatch) (DuelResultItem *item,
                                          gconstpointer   wanted);

/* Chooses in Compare's place @slot the first item @match takes for
 * @wanted (@wanted NULL: "None"), as a click on its row does (GtkDropDown's
 * row-activated sets the selected position). */
static inline void
duel_app_test_choose (DuelWindow           *window,
                      guint                 slot,
                      DuelAppTestItemMatch  match,
                      gconstpointer         wanted)
{
  GtkDropDown *dropdown = duel_app_test_slot_dropdown (window, slot);
  GListModel *model = gtk_drop_down_get_model (dropdown);
  guint position = wanted == NULL ? 0 : GTK_INVALID_LIST_POSITION;

  for (guint i = 1; wanted != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (DUEL_IS_RESULT_ITEM (item) && match (DUEL_RESULT_ITEM (item), wanted))
        {
          position = i;
          break;
        }
    }
  g_assert_cmpuint (position, !=, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (dropdown, position);
}

static inline DuelApplication *
duel_app_test_new_application (void)
{
  DuelApplication *app = duel_application_new (G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;

  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  return app;
}

/* What a window remembers for the next start (the target, the preset and
 * its parameters, Compare's drives), forgotten: the tests share one settings
 * backend, and each window starts as a first start unless a test says. */
static inline void
duel_app_test_forget_state (DuelApplication *app)
{
  static const char * const keys[] = {
    "target", "target-serial", "preset", "span", "capacity-multiple", "test-length", "passes",
    "trim-first", "custom-access", "custom-read-percent", "custom-block-size",
    "custom-queue-depth", "custom-jobs", "compared-results",
  };
  GSettings *settings = duel_application_get_settings (app);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

/* The scratch folders of runs that died before they could remove their own
 * (an assertion, a timeout's SIGTERM): each names its process in "owner";
 * one whose process is gone, or an older one without that file a day old,
 * is removed. Their target files are up to 1 GiB. */
static inline void
duel_app_test_remove_stale_dirs (const char *parent)
{
  g_autoptr(GDir) dir = g_dir_open (parent, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *owner_file = NULL;
      g_autofree char *owner = NULL;
      gboolean stale;
      GStatBuf st;

      if (!g_str_has_prefix (name, "app-test-"))
        continue;
      path = g_build_filename (parent, name, NULL);
      owner_file = g_build_filename (path, "owner", NULL);
      if (g_file_get_contents (owner_file, &owner, NULL, NULL))
        {
          g_autofree char *proc = g_strdup_printf ("/proc/%s", g_strstrip (owner));

          stale = !g_file_test (proc, G_FILE_TEST_IS_DIR);
        }
      else
        stale = g_stat (path, &st) == 0 && st.st_mtime < time (NULL) - 24 * 3600;
      if (stale)
        test_dir_remove (path);
    }
}

/* A scratch folder on the build tree's filesystem: file targets need
 * O_DIRECT, which a tmpfs /tmp would refuse. Removed by
 * test_dir_remove(), or by the next test run if this one dies first. */
static inline char *
duel_app_test_make_dir (void)
{
  g_autofree char *template = g_build_filename (g_test_get_dir (G_TEST_BUILT), "app-test-XXXXXX", NULL);
  g_autofree char *owner_file = NULL;
  g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());
  char *dir;

  duel_app_test_remove_stale_dirs (g_test_get_dir (G_TEST_BUILT));
  dir = g_mkdtemp (g_steal_pointer (&template));
  g_assert_nonnull (dir);
  owner_file = g_build_filename (dir, "owner", NULL);
  g_assert_true (g_file_set_contents (owner_file, pid, -1, NULL));
  return dir;
}

/* A small preset's options: a run of a few seconds on a file target. */
static inline void
duel_app_test_small_options (DuelPresetOptions *options)
{
  duel_preset_options_init (options);
  options->span_bytes = 16 * 1024 * 1024;
  options->capacity_multiple = 1.0;
  options->runtime_ms = 300;
  options->interval_ms = 100;
  options->round_ms = 100;
}

/* Runs the quick review, scaled down, on a new file in @dir with the real
 * engine, and saves the result as @name.json there. Returns its path. */
static inline char *
duel_app_test_make_result (const char *dir,
                           const char *name)
{
  g_autofree char *target_path = g_strdup_printf ("%s/%s.img", dir, name);
  g_autofree char *json_name = g_strdup_printf ("%s.json", name);
  char *path = g_build_filename (dir, json_name, NULL);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;

  duel_app_test_small_options (&options);
  preset = duel_preset_new ("quick", &options, &error);
  g_assert_no_error (error);
  target = duel_target_open (target_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE,
                             options.span_bytes, &error);
  g_assert_no_error (error);
  result = duel_result_new ();
  duel_result_set_target_from (result, target);
  duel_result_set_name (result, name);
  test_run_plan (preset, target, result, NULL, NULL, &error);
  g_assert_no_error (error);
  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  g_unlink (target_path);
  return path;
}

static void
duel_app_test_screenshot_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  int *state = user_data;
  g_autoptr(GError) error = NULL;

  *state = duel_window_save_screenshot_finish (DUEL_WINDOW (object), result, &error) ? 1 : -1;
  g_assert_no_error (error);
}

static gboolean
duel_app_test_state_set (gpointer user_data)
{
  return *(int *) user_data != 0;
}

/* Saves the window as tests/screenshots/NAME.png in the build tree and checks
 * it is a PNG; returns its path. */
static inline char *
duel_app_test_screenshot (DuelWindow *window,
                          const char *name)
{
  g_autofree char *shots = g_build_filename (g_test_get_dir (G_TEST_BUILT), "screenshots", NULL);
  g_autofree char *file = g_strdup_printf ("%s.png", name);
  char *path = g_build_filename (shots, file, NULL);
  g_autofree char *contents = NULL;
  gsize size = 0;
  int state = 0;

  g_mkdir_with_parents (shots, 0755);
  g_unlink (path);
  duel_window_save_screenshot_async (window, path, NULL, duel_app_test_screenshot_cb, &state);
  duel_app_test_wait (duel_app_test_state_set, &state, 30, "the screenshot");
  g_assert_cmpint (state, ==, 1);
  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  g_assert_cmpuint (size, >, 1000);
  g_assert_cmpmem (contents, 8, "\x89PNG\r\n\x1a\n", 8);
  g_test_message ("Screenshot: %s", path);
  return path;
}
