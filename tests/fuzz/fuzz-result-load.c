/* fuzz-result-load.c — libFuzzer target: the result-file loader
 *
 * Any input either loads or fails with a DUEL_ERROR_FORMAT error that names
 * the file, and exactly as it does when every series column is parsed in
 * json-glib's tree instead of straight from the text: the same error, or
 * a result that saves to the same text. What loads is then saved,
 * reloaded, analysed, compared and exported (fuzz-common.h). Run it with tests/fuzz/run-fuzz.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "result/duel-result-private.h"
#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) tree_error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(DuelResult) in_tree = NULL;

  result = duel_result_load_from_data ((const char *) data, size, "fuzz.json", &error);
  in_tree = _duel_result_load_from_data_in_tree ((const char *) data, size, "fuzz.json", &tree_error);
  if ((result == NULL) != (in_tree == NULL))
    fuzz_fail ("the columns taken from the text and the tree disagree on loading",
               error ? error->message : tree_error->message);
  if (result == NULL && g_strcmp0 (error ? error->message : NULL, tree_error ? tree_error->message : NULL) != 0)
    fuzz_fail ("the columns taken from the text and the tree give different errors", error ? error->message : NULL);
  if (result != NULL)
    {
      g_autofree char *text = fuzz_result_to_text (result);
      g_autofree char *tree_text = fuzz_result_to_text (in_tree);

      if (g_strcmp0 (text, tree_text) != 0)
        fuzz_fail ("the columns taken from the text and the tree load different results", NULL);
    }
  if (result == NULL)
    {
      if (error == NULL || !g_error_matches (error, DUEL_ERROR, DUEL_ERROR_FORMAT))
        fuzz_fail ("a failed load gave no DUEL_ERROR_FORMAT error", error ? error->message : NULL);
      if (!g_str_has_prefix (error->message, "fuzz.json: "))
        fuzz_fail ("the error does not name the file", error->message);
      return 0;
    }

  fuzz_exercise_result (result);
  return 0;
}
