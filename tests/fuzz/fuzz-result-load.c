/* fuzz-result-load.c — libFuzzer target: the result-file loader
 *
 * Any input either loads or fails with a DUEL_ERROR_FORMAT error that names
 * the file. What loads is then saved, reloaded, analysed, compared and
 * exported (fuzz-common.h). Run it with tests/fuzz/run-fuzz.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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
  g_autoptr(DuelResult) result = NULL;

  result = duel_result_load_from_data ((const char *) data, size, "fuzz.json", &error);
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
