/* fuzz-fio-import.c — libFuzzer target: the import of fio's json+ output
 *
 * The input is fio's JSON, optionally followed by a NUL byte and the text of
 * an IOPS log (what `driveduel-cli import FIO.json --iops-log LOG` reads).
 * It either imports or fails with a DUEL_ERROR_FORMAT error; what imports is
 * saved, reloaded, analysed, compared and exported (fuzz-common.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fio/duel-fio-import.h"
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
  g_autofree char *json = NULL;
  g_autofree char *log = NULL;
  const uint8_t *nul = memchr (data, '\0', size);
  gsize json_length = nul ? (gsize) (nul - data) : size;

  /* Copies of exactly the parts, so ASan sees any read past either end. */
  json = g_malloc (json_length + 1);
  memcpy (json, data, json_length);
  json[json_length] = '\0';
  if (nul != NULL)
    log = g_strndup ((const char *) nul + 1, size - json_length - 1);

  /* The file-level entry point checks UTF-8 before handing over. */
  if (!g_utf8_validate_len (json, json_length, NULL))
    return 0;

  result = duel_fio_import_data (json, json_length, "fuzz.json", log,
                                 log ? "job_iops.1.log" : NULL, &error);
  if (result == NULL)
    {
      if (error == NULL || !g_error_matches (error, DUEL_ERROR, DUEL_ERROR_FORMAT))
        fuzz_fail ("a failed import gave no DUEL_ERROR_FORMAT error", error ? error->message : NULL);
      return 0;
    }

  fuzz_exercise_result (result);
  return 0;
}
