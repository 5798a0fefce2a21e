/* duel-application.c — the Drive Duel application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "duel-accessible.h"
#include "duel-adw-compat.h"
#include "duel-application.h"
#include "duel-chart.h"
#include "duel-comparison-view.h"
#include "duel-number.h"
#include "duel-preferences-window.h"
#include "duel-window.h"

struct _DuelApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  DuelHistory    *history;
  char           *screenshot_path;
  char           *start_page;
  char           *start_tab;
  guint           inhibit_cookie;
  guint           inhibit_count;
  gboolean        force_dark;
  GtkCssProvider *dark_css;
};

G_DEFINE_FINAL_TYPE (DuelApplication, duel_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Save a screenshot of the window as a PNG file once it is drawn, then quit"), N_("FILE") },
  { "page", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Open on this page: drives, run, compare or history"), N_("PAGE") },
  { "tab", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Show this tab of the Compare page: crystaldiskmark, write-curve, consistency, qos, standard or table"), N_("TAB") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Use the dark style"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

static DuelWindow *
get_window (DuelApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (DUEL_IS_WINDOW (window))
    return DUEL_WINDOW (window);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (DUEL_IS_WINDOW (l->data))
      return l->data;

  return duel_window_new (self);
}

static void
screenshot_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(DuelApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!duel_window_save_screenshot_finish (DUEL_WINDOW (object), result, &error))
    {
      g_printerr (_("driveduel: could not save the screenshot: %s\n"), error->message);
      g_application_set_default (NULL);
      gtk_window_destroy (GTK_WINDOW (object));
      g_application_quit (G_APPLICATION (self));
      return;
    }
  g_application_quit (G_APPLICATION (self));
}

static void
present_window (DuelApplication *self,
                DuelWindow      *window)
{
  if (self->start_page != NULL)
    {
      duel_window_set_page (window, self->start_page);
      g_clear_pointer (&self->start_page, g_free);
    }
  if (self->start_tab != NULL)
    {
      duel_comparison_view_set_visible_tab (duel_window_get_comparison_view (window), self->start_tab);
      g_clear_pointer (&self->start_tab, g_free);
    }
  gtk_window_present (GTK_WINDOW (window));

  if (self->screenshot_path != NULL)
    {
      g_autofree char *path = g_steal_pointer (&self->screenshot_path);

      duel_window_save_screenshot_async (window, path, NULL, screenshot_cb, g_object_ref (self));
    }
}

static void
duel_application_activate (GApplication *app)
{
  DuelApplication *self = DUEL_APPLICATION (app);

  present_window (self, get_window (self));
}

static void
duel_application_open (GApplication  *app,
                       GFile        **files,
                       int            n_files,
                       const char    *hint)
{
  DuelApplication *self = DUEL_APPLICATION (app);
  DuelWindow *window = get_window (self);

  duel_window_open_files (window, files, n_files);
  present_window (self, window);
}

static int
duel_application_handle_local_options (GApplication *app,
                                       GVariantDict *options)
{
  DuelApplication *self = DUEL_APPLICATION (app);
  const char *screenshot = NULL;
  const char *page = NULL;
  const char *tab = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("driveduel %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* Filenames are bytestrings: "^&ay", not "&s". */
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &screenshot))
    {
      g_free (self->screenshot_path);
      self->screenshot_path = g_canonicalize_filename (screenshot, NULL);
      /* A screenshot run must not hand itself over to a running instance. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  if (g_variant_dict_lookup (options, "page", "&s", &page))
    {
      if (!duel_window_is_page_name (page))
        {
          g_printerr (_("driveduel: unknown page “%s”; use drives, run, compare or history.\n"), page);
          return 2;
        }
      g_free (self->start_page);
      self->start_page = g_strdup (page);
    }
  if (g_variant_dict_lookup (options, "tab", "&s", &tab))
    {
      /* The CrystalDiskMark grid, each chart's tab, then the window's own
       * table (the export's "summary" is not a tab). */
      g_autoptr(GPtrArray) tabs = g_ptr_array_new ();
      g_autofree char *list = NULL;

      g_ptr_array_add (tabs, (gpointer) "crystaldiskmark");
      for (const char * const *id = duel_chart_get_kind_ids (); *id != NULL; id++)
        if (g_strcmp0 (*id, "summary") != 0)
          g_ptr_array_add (tabs, (gpointer) *id);
      g_ptr_array_add (tabs, (gpointer) "table");
      g_ptr_array_add (tabs, NULL);
      if (!g_strv_contains ((const char * const *) tabs->pdata, tab))
        {
          list = g_strjoinv (", ", (char **) tabs->pdata);
          g_printerr (_("driveduel: unknown tab “%s”; use one of %s.\n"), tab, list);
          return 2;
        }
      g_free (self->start_tab);
      self->start_tab = g_strdup (tab);
    }
  if (g_variant_dict_contains (options, "dark"))
    self->force_dark = TRUE;

  return G_APPLICATION_CLASS (duel_application_parent_class)->handle_local_options (app, options);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  DuelApplication *self = user_data;

  /* Closing each window lets a running benchmark ask first. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; )
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_close (window);
    }
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  DuelApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *developers[] = { _("The Drive Duel developers"), NULL };

  GtkWidget *about;

  about = g_object_new (DUEL_TYPE_ABOUT,
                        "application-name", _("Drive Duel"),
                        "application-icon", APP_ID,
                        "developer-name", _("The Drive Duel developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Compare up to four drives the way hardware reviewers do: "
                                      "4K random writes to twice the capacity, performance "
                                      "consistency, quality of service and the standard set."),
                        "website", "https://github.com/driveduel/driveduel",
                        "issue-url", "https://github.com/driveduel/driveduel/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "developers", developers,
                        /* Translators: your name(s), one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  duel_dialog_present (about, parent != NULL ? GTK_WIDGET (parent) : NULL);
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  DuelApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  DuelPreferencesWindow *preferences = duel_preferences_window_new (self->settings);

  duel_dialog_present (GTK_WIDGET (preferences), parent != NULL ? GTK_WIDGET (parent) : NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "about", about_activated },
  { "preferences", preferences_activated },
};

static void
apply_rate_unit (DuelApplication *self)
{
  g_autofree char *nick = g_settings_get_string (self->settings, "rate-unit");
  DuelRateUnit unit = DUEL_RATE_UNIT_MB_S;

  duel_rate_unit_from_nick (nick, &unit);
  duel_set_rate_unit (unit);
}

/* The dark style's drive colours. Loaded here rather than as the
 * style-dark.css AdwApplication picks up by name: libadwaita 1.6 deprecates
 * that file (for media queries in style.css, which GTK 4.8 does not have). */
static void
apply_dark_css (DuelApplication *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GdkDisplay *display = gdk_display_get_default ();

  if (display == NULL)
    return;
  if (self->dark_css == NULL)
    {
      self->dark_css = gtk_css_provider_new ();
      gtk_css_provider_load_from_resource (self->dark_css, "/io/github/driveduel/DriveDuel/dark.css");
    }
  /* Above style.css, which AdwApplication adds at the application's priority. */
  if (adw_style_manager_get_dark (manager))
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->dark_css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  else
    gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (self->dark_css));
}

static void
duel_application_startup (GApplication *app)
{
  DuelApplication *self = DUEL_APPLICATION (app);
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.add-file-target", { "<Control>n", NULL } },
    { "win.start-run", { "<Control>r", NULL } },
    /* Not Ctrl+. : its keycap looks like Preferences' Ctrl+, in the
     * shortcuts window. Shift turns Start into Stop. */
    { "win.cancel-run", { "<Control><Shift>r", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "win.show-page('drives')", { "<Alt>1", NULL } },
    { "win.show-page('run')", { "<Alt>2", NULL } },
    { "win.show-page('compare')", { "<Alt>3", NULL } },
    { "win.show-page('history')", { "<Alt>4", NULL } },
    /* Not Ctrl+S: GNOME keeps it for Save. */
    { "win.swap-drives", { "<Control><Shift>x", NULL } },
    { "win.copy-comparison", { "<Control><Shift>c", NULL } },
  };

  G_APPLICATION_CLASS (duel_application_parent_class)->startup (app);
  /* Before the first window: every control it shows is named. */
  duel_accessible_install ();

  self->settings = g_settings_new (APP_ID);
  /* Connected before any view's handler, so views rebuild in the new unit. */
  apply_rate_unit (self);
  g_signal_connect_object (self->settings, "changed::rate-unit", G_CALLBACK (apply_rate_unit), self,
                           G_CONNECT_SWAPPED);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  if (self->force_dark)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (apply_dark_css), self,
                           G_CONNECT_SWAPPED);
  apply_dark_css (self);
}

static void
duel_application_shutdown (GApplication *app)
{
  DuelApplication *self = DUEL_APPLICATION (app);

  if (self->inhibit_cookie != 0)
    {
      gtk_application_uninhibit (GTK_APPLICATION (self), self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }

  G_APPLICATION_CLASS (duel_application_parent_class)->shutdown (app);
}

static void
duel_application_finalize (GObject *object)
{
  DuelApplication *self = DUEL_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->history);
  g_clear_object (&self->dark_css);
  g_clear_pointer (&self->screenshot_path, g_free);
  g_clear_pointer (&self->start_page, g_free);
  g_clear_pointer (&self->start_tab, g_free);

  G_OBJECT_CLASS (duel_application_parent_class)->finalize (object);
}

static void
duel_application_class_init (DuelApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = duel_application_finalize;

  app_class->activate = duel_application_activate;
  app_class->open = duel_application_open;
  app_class->startup = duel_application_startup;
  app_class->shutdown = duel_application_shutdown;
  app_class->handle_local_options = duel_application_handle_local_options;
}

static void
duel_application_init (DuelApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[RESULT.json…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Compare up to four drives the way hardware reviewers do. "
                                              "Result files given on the command line open in the comparison."));
}

DuelApplication *
duel_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (DUEL_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       "resource-base-path", "/io/github/driveduel/DriveDuel",
                       NULL);
}

GSettings *
duel_application_get_settings (DuelApplication *self)
{
  g_return_val_if_fail (DUEL_IS_APPLICATION (self), NULL);
  return self->settings;
}

DuelHistory *
duel_application_get_history (DuelApplication *self)
{
  g_return_val_if_fail (DUEL_IS_APPLICATION (self), NULL);

  /* Made on first use, when the first window opens, not at start-up. */
  if (self->history == NULL)
    self->history = duel_history_new (NULL);
  return self->history;
}

gboolean
duel_application_check_schema (char **out_message)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  g_return_val_if_fail (out_message != NULL, FALSE);

  /* NULL when no schema is installed at all. */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL)
    return TRUE;
  *out_message = g_strdup_printf (
    /* TRANSLATORS: %s is the schema id (io.github.driveduel.DriveDuel);
     * keep GSETTINGS_SCHEMA_DIR and the meson command as they are */
    _("driveduel: its settings schema %s is not installed; run it from an installation, "
      "with GSETTINGS_SCHEMA_DIR set to the folder of the compiled schema (“data” in the "
      "build folder), or through “meson devenv -C BUILDDIR driveduel”."), APP_ID);
  return FALSE;
}

static gboolean
same_folder (const char *a,
             const char *b)
{
  GStatBuf a_st, b_st;

  return g_stat (a, &a_st) == 0 && S_ISDIR (a_st.st_mode) &&
         g_stat (b, &b_st) == 0 && S_ISDIR (b_st.st_mode) &&
         a_st.st_dev == b_st.st_dev && a_st.st_ino == b_st.st_ino;
}

char *
duel_application_get_devenv_launch_dir (const char *build_root,
                                        const char *pwd)
{
  GStatBuf st;

  /* meson devenv (1.0 and later) runs its command in the build folder
   * unless given --workdir, but leaves $PWD as the shell had it: file
   * arguments were typed relative to $PWD. An interactive devenv shell
   * keeps $PWD in step with its own folder, so this never applies there. */
  if (build_root == NULL || *build_root == '\0' || pwd == NULL || !g_path_is_absolute (pwd))
    return NULL;
  if (!same_folder (".", build_root))
    return NULL;
  if (g_stat (pwd, &st) != 0 || !S_ISDIR (st.st_mode) || same_folder (".", pwd))
    return NULL;
  return g_strdup (pwd);
}

char *
duel_application_get_reference_dir (void)
{
  const char *datadir = g_getenv ("DRIVEDUEL_DATADIR");

  if (datadir != NULL && *datadir != '\0')
    return g_build_filename (datadir, "reference", NULL);
  return g_build_filename (PKGDATADIR, "reference", NULL);
}

void
duel_application_inhibit_suspend (DuelApplication *self,
                                  GtkWindow       *window,
                                  const char      *reason)
{
  g_return_if_fail (DUEL_IS_APPLICATION (self));

  if (self->inhibit_count++ == 0)
    self->inhibit_cookie = gtk_application_inhibit (GTK_APPLICATION (self), window,
                                                    GTK_APPLICATION_INHIBIT_SUSPEND |
                                                    GTK_APPLICATION_INHIBIT_IDLE,
                                                    reason);
}

void
duel_application_uninhibit_suspend (DuelApplication *self)
{
  g_return_if_fail (DUEL_IS_APPLICATION (self));
  g_return_if_fail (self->inhibit_count > 0);

  if (--self->inhibit_count == 0)
    {
      if (self->inhibit_cookie != 0)
        gtk_application_uninhibit (GTK_APPLICATION (self), self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }
}

gboolean
duel_application_is_inhibited (DuelApplication *self)
{
  g_return_val_if_fail (DUEL_IS_APPLICATION (self), FALSE);
  return self->inhibit_count > 0;
}
