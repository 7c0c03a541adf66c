/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Layout-map rules are Python `re` patterns: through the C ABI a rule selects
 * exactly the paths Python's re.search (or re.fullmatch) selects, and what RE2
 * cannot run is refused naming the construct (docs/python-regex.md). The
 * expected answers are CPython 3.11's. */
#include <stddef.h>

#include "harness.h"
#include "tessera/tessera.h"

/* 1 when the rule `key` selects `path`, 0 when not, -1 when `key` is refused. */
static int selects(tessera_key_match_t match, const char* key, const char* path) {
  tessera_layout_map* map = tessera_layout_map_create(NULL, match, NULL);
  tessera_layout* layout = tessera_layout_create(NULL, 0, NULL, NULL);
  size_t index = 0;
  int answer = -1;
  if (tessera_layout_map_set(map, key, layout, NULL) &&
      tessera_layout_map_lookup_rule(map, path, &index, NULL)) {
    answer = index == TESSERA_NO_INDEX ? 0 : 1;
  }
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  return answer;
}

static int search(const char* key, const char* path) {
  return selects(TESSERA_KEY_MATCH_SEARCH, key, path);
}

/* The error tessera_layout_map_set gives for `key`; the caller destroys it. */
static tessera_error* set_error(const char* key) {
  tessera_error* err = NULL;
  tessera_layout_map* map = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = tessera_layout_create(NULL, 0, NULL, NULL);
  tessera_layout_map_set(map, key, layout, &err);
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  return err;
}

static void dollar_also_matches_before_a_final_newline(void) {
  ASSERT_EQ(1, search("kernel$", "dense/kernel\n"));
  ASSERT_EQ(0, search("kernel$", "dense/kernel\n\n"));
}

static void dollar_in_full_match_mode_needs_the_whole_path(void) {
  ASSERT_EQ(0, selects(TESSERA_KEY_MATCH_FULL, "dense/kernel$", "dense/kernel\n"));
  ASSERT_EQ(1, selects(TESSERA_KEY_MATCH_FULL, "dense/kernel$", "dense/kernel"));
}

static void backslash_capital_z_is_only_the_end(void) {
  ASSERT_EQ(0, search("kernel\\Z", "kernel\n"));
  ASSERT_EQ(1, search("kernel\\Z", "dense/kernel"));
}

static void missing_lower_bound_repeats_from_zero(void) {
  ASSERT_EQ(1, search("^a{,2}b", "b"));
  ASSERT_EQ(1, search("^a{,2}b", "aab"));
  ASSERT_EQ(0, search("^a{,2}b", "aaab"));
  ASSERT_EQ(0, search("^a{,2}b", "a{,2}b"));
}

static void posix_class_syntax_is_a_set_then_a_bracket(void) {
  ASSERT_EQ(1, search("[[:alpha:]]", "p]"));
  ASSERT_EQ(0, search("[[:alpha:]]", "b"));
}

static void digit_matches_unicode_decimal_digits(void) {
  ASSERT_EQ(1, search("layer_\\d", "layer_\xD9\xA3")); /* U+0663 */
}

static void word_matches_unicode_letters(void) {
  ASSERT_EQ(1, search("^\\w+$", "caf\xC3\xA9"));
}

static void space_matches_pythons_whitespace(void) {
  ASSERT_EQ(1, search("a\\sb", "a\vb"));
  ASSERT_EQ(1, search("a\\sb", "a\xE3\x80\x80" "b")); /* U+3000 */
}

static void ascii_flag_keeps_digits_ascii(void) {
  ASSERT_EQ(0, search("(?a)layer_\\d", "layer_\xD9\xA3"));
  ASSERT_EQ(1, search("(?a)layer_\\d", "layer_3"));
}

static void ignore_case_folds_as_python_does(void) {
  ASSERT_EQ(1, search("(?i)KERNEL", "dense/kernel"));
  ASSERT_EQ(1, search("(?i)kernel", "\xE2\x84\xAA" "ernel")); /* U+212A KELVIN SIGN */
  ASSERT_EQ(0, search("(?ai)kernel", "\xE2\x84\xAA" "ernel"));
}

static void verbose_pattern_ignores_whitespace_and_comments(void) {
  ASSERT_EQ(1, search("(?x) dense / kernel  # the weights", "dense/kernel"));
}

static void comment_group_is_ignored(void) {
  ASSERT_EQ(1, search("dense(?#the layer)/kernel", "dense/kernel"));
}

static void unicode_escape_matches_its_character(void) {
  ASSERT_EQ(1, search("caf\\u00e9", "caf\xC3\xA9"));
}

static void groups_names_and_lazy_quantifiers_keep_their_answers(void) {
  ASSERT_EQ(1, search("(?P<layer>dense)_\\d+?/kernel", "dense_12/kernel"));
}

static void lookahead_is_refused_naming_it_and_its_byte(void) {
  tessera_error* err = set_error("dense(?!_1)/kernel");
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'key' 'dense(?!_1)/kernel' is a Python regular expression RE2 cannot run: "
               "lookahead assertion '(?!' at byte 5 (RE2 has no lookarounds)");
}

static void re2_only_escape_is_pythons_bad_escape(void) {
  tessera_error* err = set_error("kernel\\z");
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'key' 'kernel\\\\z' is not a valid Python regular expression: "
               "bad escape \\z at position 6");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(dollar_also_matches_before_a_final_newline),
      HARNESS_TEST(dollar_in_full_match_mode_needs_the_whole_path),
      HARNESS_TEST(backslash_capital_z_is_only_the_end),
      HARNESS_TEST(missing_lower_bound_repeats_from_zero),
      HARNESS_TEST(posix_class_syntax_is_a_set_then_a_bracket),
      HARNESS_TEST(digit_matches_unicode_decimal_digits),
      HARNESS_TEST(word_matches_unicode_letters),
      HARNESS_TEST(space_matches_pythons_whitespace),
      HARNESS_TEST(ascii_flag_keeps_digits_ascii),
      HARNESS_TEST(ignore_case_folds_as_python_does),
      HARNESS_TEST(verbose_pattern_ignores_whitespace_and_comments),
      HARNESS_TEST(comment_group_is_ignored),
      HARNESS_TEST(unicode_escape_matches_its_character),
      HARNESS_TEST(groups_names_and_lazy_quantifiers_keep_their_answers),
      HARNESS_TEST(lookahead_is_refused_naming_it_and_its_byte),
      HARNESS_TEST(re2_only_escape_is_pythons_bad_escape),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
