// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python `re` patterns in RE2 syntax: one test per row of the table in
// docs/python-regex.md (the exact RE2 pattern, or the exact refusal).
#include "core/python_regex.h"

#include <string>

#include "gtest/gtest.h"
#include "re2/re2.h"

namespace tessera {
namespace {

constexpr char kPythonRefuses[] = "error: not a valid Python regular expression: ";
constexpr char kRe2CannotRun[] = "error: a Python regular expression RE2 cannot run: ";

// The RE2 pattern, or "error: " and the message.
std::string Re2(const std::string& python, PythonRegexUse use = PythonRegexUse::kSearch) {
  absl::StatusOr<std::string> out = TranslatePythonRegex(python, use);
  if (!out.ok()) {
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    return "error: " + std::string(out.status().message());
  }
  EXPECT_TRUE(RE2(*out).ok()) << *out;
  return *out;
}

bool Search(const std::string& python, const std::string& text) {
  return RE2::PartialMatch(text, RE2(Re2(python)));
}

bool FullMatch(const std::string& python, const std::string& text) {
  return RE2::FullMatch(text, RE2(Re2(python, PythonRegexUse::kFullMatch)));
}

// Row: `$` without (?m).
TEST(PythonRegexTest, FinalDollarAlsoMatchesBeforeAFinalNewlineInSearch) {
  EXPECT_EQ(Re2("kernel$"), "kernel\\n?\\z");
  EXPECT_TRUE(Search("kernel$", "dense/kernel\n"));
  EXPECT_FALSE(Search("kernel$", "dense/kernel\n\n"));
}

TEST(PythonRegexTest, FinalDollarIsTheEndOfTextInFullMatch) {
  EXPECT_EQ(Re2("kernel$", PythonRegexUse::kFullMatch), "kernel\\z");
  EXPECT_FALSE(FullMatch("kernel$", "kernel\n"));
}

TEST(PythonRegexTest, DollarEndingEveryAlternativeIsFinal) {
  EXPECT_EQ(Re2("(kernel|bias)$"), "(?:kernel|bias)\\n?\\z");
}

TEST(PythonRegexTest, DollarFollowedByMorePatternIsRefused) {
  EXPECT_EQ(Re2("a$b"), std::string(kRe2CannotRun) +
                            "'$' followed by more of the pattern at byte 1 (Python's '$' also "
                            "matches before a final newline, which RE2 can express only at the end "
                            "of the pattern; use \\Z for the end of the path)");
}

TEST(PythonRegexTest, DollarInARepeatedGroupIsNotFinal) {
  EXPECT_EQ(Re2("(?:a$)*"), std::string(kRe2CannotRun) +
                                "'$' followed by more of the pattern at byte 4 (Python's '$' also "
                                "matches before a final newline, which RE2 can express only at the "
                                "end of the pattern; use \\Z for the end of the path)");
}

// Row: \Z.
TEST(PythonRegexTest, BackslashCapitalZIsTheEndOfText) { EXPECT_EQ(Re2("x\\Z"), "x\\z"); }

// Row: \A and ^.
TEST(PythonRegexTest, StartAnchorsStayAsTheyAre) {
  EXPECT_EQ(Re2("\\Ax"), "\\Ax");
  EXPECT_EQ(Re2("^x"), "^x");
}

// Row: (?m).
TEST(PythonRegexTest, MultilineAnchorsAreScopedToTheirConstruct) {
  EXPECT_EQ(Re2("(?m)^a$"), "(?m:^)a(?m:$)");
}

// Row: RE2-only escapes.
TEST(PythonRegexTest, LowercaseZEscapeIsPythonsBadEscape) {
  EXPECT_EQ(Re2("\\z"), std::string(kPythonRefuses) + "bad escape \\z at position 0");
}

TEST(PythonRegexTest, UnicodePropertyEscapeIsPythonsBadEscape) {
  EXPECT_EQ(Re2("a\\pL"), std::string(kPythonRefuses) + "bad escape \\p at position 1");
}

TEST(PythonRegexTest, QuoteEscapeIsPythonsBadEscape) {
  EXPECT_EQ(Re2("\\Qa.b\\E"), std::string(kPythonRefuses) + "bad escape \\Q at position 0");
}

TEST(PythonRegexTest, AnyByteEscapeIsPythonsBadEscape) {
  EXPECT_EQ(Re2("\\C"), std::string(kPythonRefuses) + "bad escape \\C at position 0");
}

TEST(PythonRegexTest, BracedHexEscapeIsPythonsIncompleteEscape) {
  EXPECT_EQ(Re2("\\x{41}"), std::string(kPythonRefuses) + "incomplete escape \\x at position 0");
}

// Row: RE2-only group syntax.
TEST(PythonRegexTest, AngleNamedGroupIsPythonsUnknownExtension) {
  EXPECT_EQ(Re2("(?<n>x)"), std::string(kPythonRefuses) + "unknown extension ?<n at position 1");
}

TEST(PythonRegexTest, UngreedyFlagIsPythonsUnknownExtension) {
  EXPECT_EQ(Re2("(?U)x"), std::string(kPythonRefuses) + "unknown extension ?U at position 1");
}

// Row: a{,3}.
TEST(PythonRegexTest, MissingLowerBoundIsZero) {
  EXPECT_EQ(Re2("a{,3}"), "(?:a){0,3}");
  EXPECT_EQ(Re2("a{,}"), "(?:a)*");
}

// Row: braces that are not quantifiers.
TEST(PythonRegexTest, IncompleteBracesAreLiteralText) {
  EXPECT_EQ(Re2("a{"), "a\\x{7B}");
  EXPECT_EQ(Re2("a{1,2"), "a\\x{7B}1\\x{2C}2");
  EXPECT_EQ(Re2("a{}"), "a\\x{7B}\\x{7D}");
  EXPECT_EQ(Re2("a{x}"), "a\\x{7B}x\\x{7D}");
}

// Row: [[:alpha:]].
TEST(PythonRegexTest, PosixClassSyntaxIsASetFollowedByABracket) {
  EXPECT_EQ(Re2("[[:alpha:]]"), "[\\x{3A}\\x{5B}ahlp]\\x{5D}");
  EXPECT_TRUE(Search("[[:alpha:]]", "p]"));
  EXPECT_FALSE(Search("[[:alpha:]]", "b"));
}

TEST(PythonRegexTest, SetOperationSyntaxIsLiteral) { EXPECT_EQ(Re2("[a&&b]"), "[\\x{26}ab]"); }

// Row: ] and - in sets.
TEST(PythonRegexTest, LeadingBracketAndTrailingDashAreLiterals) {
  EXPECT_EQ(Re2("[]a]"), "[\\x{5D}a]");
  EXPECT_EQ(Re2("[^]a]"), "[\\x{0}-\\x{5C}\\x{5E}-\\x{60}b-\\x{10FFFF}]");
  EXPECT_EQ(Re2("[a-]"), "[\\x{2D}a]");
}

// Row: \d.
TEST(PythonRegexTest, DigitIsUnicodeDecimal) {
  EXPECT_EQ(Re2("\\d"), "[\\p{Nd}]");
  EXPECT_TRUE(Search("\\d", "\xD9\xA3"));  // U+0663 ARABIC-INDIC DIGIT THREE
}

// Row: \w.
TEST(PythonRegexTest, WordIsUnicodeLettersNumbersAndUnderscore) {
  EXPECT_EQ(Re2("\\w"), "[\\p{L}\\p{N}_]");
  EXPECT_TRUE(Search("\\w", "\xC2\xBD"));  // U+00BD VULGAR FRACTION ONE HALF (No)
}

// Row: \s.
TEST(PythonRegexTest, SpaceIsPythonsWhitespace) {
  EXPECT_EQ(Re2("\\s"),
            "[\\x{9}-\\x{D}\\x{1C}-\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}"
            "\\x{2029}\\x{202F}\\x{205F}\\x{3000}]");
  EXPECT_TRUE(Search("\\s", "\v"));
}

// Row: complements and mixed sets.
TEST(PythonRegexTest, NegatedCategoriesAreComplements) {
  EXPECT_EQ(Re2("\\D"), "\\P{Nd}");
  EXPECT_EQ(Re2("\\W"), "[^\\p{L}\\p{N}_]");
  EXPECT_EQ(Re2("\\S"),
            "[\\x{0}-\\x{8}\\x{E}-\\x{1B}\\x{21}-\\x{84}\\x{86}-\\x{9F}\\x{A1}-\\x{167F}"
            "\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}"
            "\\x{2060}-\\x{2FFF}\\x{3001}-\\x{10FFFF}]");
}

TEST(PythonRegexTest, SetWithANegatedCategoryIsAnAlternation) {
  EXPECT_EQ(Re2("[\\Wa]"), "(?:[a]|[^\\p{L}\\p{N}_])");
}

TEST(PythonRegexTest, NegatedSetWithANegatedCategorySubtractsFromEachPart) {
  EXPECT_EQ(Re2("[^\\W\\d]"),
            "(?:[^\\P{L}\\p{Nd}]|[^\\P{N}\\p{Nd}]|[^\\x{0}-\\x{5E}\\x{60}-\\x{10FFFF}\\p{Nd}])");
  EXPECT_TRUE(Search("[^\\W\\d]", "_"));
  EXPECT_FALSE(Search("[^\\W\\d]", "7"));
}

// Row: (?a).
TEST(PythonRegexTest, AsciiFlagGivesAsciiCategories) {
  EXPECT_EQ(Re2("(?a)\\d\\w\\s"), "[0-9][0-9A-Z\\x{5F}a-z][\\x{9}-\\x{D}\\x{20}]");
}

TEST(PythonRegexTest, AsciiFlagAllowsRe2WordBoundaries) { EXPECT_EQ(Re2("(?a)\\bx\\B"), "\\bx\\B"); }

// Row: Unicode \b \B.
TEST(PythonRegexTest, UnicodeWordBoundaryIsRefused) {
  EXPECT_EQ(Re2("x\\b"), std::string(kRe2CannotRun) +
                             "word boundary '\\b' at byte 1 (Python's counts non-ASCII letters and "
                             "digits as word characters, RE2's only ASCII ones; write (?a) for ASCII "
                             "word boundaries)");
}

TEST(PythonRegexTest, UnicodeNonBoundaryIsRefused) {
  EXPECT_EQ(Re2("\\B"), std::string(kRe2CannotRun) +
                            "non-boundary '\\B' at byte 0 (Python's counts non-ASCII letters and "
                            "digits as word characters, RE2's only ASCII ones; write (?a) for ASCII "
                            "word boundaries)");
}

// Row: \B on an empty path (RE2's answer, which Python 3.14 shares).
TEST(PythonRegexTest, AsciiNonBoundaryMatchesAnEmptyPath) { EXPECT_TRUE(Search("(?a)\\B", "")); }

// Row: (?i).
TEST(PythonRegexTest, IgnoreCaseFoldsAsPythonDoes) {
  EXPECT_EQ(Re2("(?i)kis"), "[Kk\\x{212A}][Ii\\x{130}\\x{131}][Ss\\x{17F}]");
  EXPECT_EQ(Re2("(?i)[a-c]"), "[A-Ca-c]");
  EXPECT_EQ(Re2("(?i)[^k]"), "[\\x{0}-JL-jl-\\x{2129}\\x{212B}-\\x{10FFFF}]");
}

TEST(PythonRegexTest, IgnoreCaseWithAsciiFlagFoldsOnlyAscii) { EXPECT_EQ(Re2("(?ai)k"), "[Kk]"); }

TEST(PythonRegexTest, IgnoreCaseOfANonAsciiCharacterIsRefused) {
  EXPECT_EQ(Re2("(?i)\xC3\xA9"),  // é
            std::string(kRe2CannotRun) +
                "case-insensitive non-ASCII character at byte 4 (Python folds case with its own "
                "Unicode tables; write the cases out, or add (?a) for ASCII-only folding)");
}

// Row: (?x).
TEST(PythonRegexTest, VerboseDropsWhitespaceAndComments) {
  EXPECT_EQ(Re2("(?x) a b # comment"), "ab");
  EXPECT_EQ(Re2("(?x)[ ]"), "\\x{20}");
}

// Row: (?#...).
TEST(PythonRegexTest, CommentGroupIsDropped) { EXPECT_EQ(Re2("a(?#note)b"), "ab"); }

// Row: (?s) and scoped flags.
TEST(PythonRegexTest, FlagsApplyToTheirConstructs) {
  EXPECT_EQ(Re2("(?s)."), "(?s:.)");
  EXPECT_EQ(Re2("(?s:.)(?-s:.)"), "(?:(?s:.))(?:[^\\n])");
  EXPECT_EQ(Re2("(?i:a)b"), "(?:[Aa])b");
}

// Row: `.`.
TEST(PythonRegexTest, DotIsAnythingButNewline) { EXPECT_EQ(Re2("."), "[^\\n]"); }

// Row: `.*` opening an alternative in re.search.
TEST(PythonRegexTest, LeadingDotStarIsDroppedInSearch) {
  EXPECT_EQ(Re2(".*kernel.*"), "kernel(?:[^\\n])*");
  EXPECT_EQ(Re2("(?s).*?.*a|.*b"), "a|b");
  EXPECT_TRUE(Search(".*kernel", "dense\nkernel"));  // Python: the search starts after the newline
}

TEST(PythonRegexTest, LeadingDotStarStaysInFullMatch) {
  EXPECT_EQ(Re2(".*kernel", PythonRegexUse::kFullMatch), "(?:[^\\n])*kernel");
}

TEST(PythonRegexTest, DotStarAfterAnAnchorOrInAGroupStays) {
  EXPECT_EQ(Re2("^.*a"), "^(?:[^\\n])*a");
  EXPECT_EQ(Re2("(.*)a"), "(?:(?:[^\\n])*)a");
  EXPECT_FALSE(Search("^.*a", "b\na"));
}

TEST(PythonRegexTest, LeadingPossessiveDotStarIsStillRefused) {
  EXPECT_EQ(Re2(".*+a"), std::string(kRe2CannotRun) +
                             "possessive quantifier '*+' at byte 1 (RE2 has no possessive quantifiers)");
}

// Row: \u \U \x.
TEST(PythonRegexTest, UnicodeEscapesBecomeCodePoints) {
  EXPECT_EQ(Re2("\\u00e9\\U0001F600\\x41"), "\\x{E9}\\x{1F600}A");
}

// Row: octal escapes.
TEST(PythonRegexTest, OctalEscapesAreThePythonCharacter) {
  EXPECT_EQ(Re2("\\0\\012\\101"), "\\x{0}\\x{A}A");
}

// Row: \N{...}.
TEST(PythonRegexTest, NamedCharacterEscapeIsRefused) {
  EXPECT_EQ(Re2("\\N{EM DASH}"), std::string(kRe2CannotRun) +
                                     "named character escape '\\N{EM DASH}' at byte 0 (Tessera has "
                                     "no Unicode name table; write the character or \\uXXXX)");
}

// Row: groups.
TEST(PythonRegexTest, GroupsDoNotCapture) { EXPECT_EQ(Re2("(a)(?P<n>b)"), "(?:a)(?:b)"); }

// Row: lazy quantifiers.
TEST(PythonRegexTest, LazyQuantifiersBecomeGreedy) {
  EXPECT_EQ(Re2("a*?b+?c??"), "(?:a)*(?:b)+(?:c)?");
}

// Row: RE2's repetition limit.
TEST(PythonRegexTest, RepetitionAboveRe2sLimitIsRefused) {
  EXPECT_EQ(Re2("a{1001}"), std::string(kRe2CannotRun) +
                                "repetition count '{1001}' above 1000 at byte 1 (RE2's limit)");
}

TEST(PythonRegexTest, NestedRepetitionsPastRe2sLimitAreRefused) {
  EXPECT_EQ(Re2("(?:a{10}){101}"),
            std::string(kRe2CannotRun) +
                "repetition '{10}' nested in counts multiplying past 1000 at byte 4 (RE2's limit)");
}

// Rows: what RE2 has no form for.
TEST(PythonRegexTest, LookaheadIsRefused) {
  EXPECT_EQ(Re2("a(?=b)"), std::string(kRe2CannotRun) +
                               "lookahead assertion '(?=' at byte 1 (RE2 has no lookarounds)");
  EXPECT_EQ(Re2("(?!b)"), std::string(kRe2CannotRun) +
                              "lookahead assertion '(?!' at byte 0 (RE2 has no lookarounds)");
}

TEST(PythonRegexTest, LookbehindIsRefused) {
  EXPECT_EQ(Re2("(?<=a)b"), std::string(kRe2CannotRun) +
                                "lookbehind assertion '(?<=' at byte 0 (RE2 has no lookarounds)");
  EXPECT_EQ(Re2("(?<!a)b"), std::string(kRe2CannotRun) +
                                "lookbehind assertion '(?<!' at byte 0 (RE2 has no lookarounds)");
}

TEST(PythonRegexTest, BackreferencesAreRefused) {
  EXPECT_EQ(Re2("(a)\\1"), std::string(kRe2CannotRun) +
                               "backreference '\\1' at byte 3 (RE2 has no backreferences)");
  EXPECT_EQ(Re2("(?P<n>a)(?P=n)"), std::string(kRe2CannotRun) +
                                       "backreference '(?P=n)' at byte 8 (RE2 has no backreferences)");
}

TEST(PythonRegexTest, AtomicGroupIsRefused) {
  EXPECT_EQ(Re2("(?>a)"),
            std::string(kRe2CannotRun) + "atomic group '(?>' at byte 0 (RE2 has no atomic groups)");
}

TEST(PythonRegexTest, PossessiveQuantifierIsRefused) {
  EXPECT_EQ(Re2("a*+"), std::string(kRe2CannotRun) +
                            "possessive quantifier '*+' at byte 1 (RE2 has no possessive quantifiers)");
}

TEST(PythonRegexTest, ConditionalIsRefused) {
  EXPECT_EQ(Re2("(a)(?(1)b|c)"), std::string(kRe2CannotRun) +
                                     "conditional group '(?(' at byte 3 (RE2 has no conditionals)");
}

TEST(PythonRegexTest, TemplateFlagIsRefused) {
  EXPECT_EQ(Re2("(?t)a"), std::string(kRe2CannotRun) +
                              "the TEMPLATE flag '(?t)' at byte 0 (Python's undocumented, deprecated "
                              "flag)");
}

TEST(PythonRegexTest, NonAsciiGroupNameIsRefused) {
  EXPECT_EQ(Re2("(?P<\xC3\xA9>a)"), std::string(kRe2CannotRun) +
                                        "group name '\xC3\xA9' at byte 4 (Python's Unicode identifier "
                                        "rules are not reproduced; use an ASCII name)");
}

TEST(PythonRegexTest, GroupsNestedDeeperThan200AreRefused) {
  EXPECT_EQ(Re2(std::string(201, '(') + std::string(201, ')')),
            std::string(kRe2CannotRun) +
                "group nesting deeper than 200 at byte 200 (Tessera's limit; Python itself gives up "
                "near 400)");
  EXPECT_EQ(Re2(std::string(200, '(') + "a" + std::string(200, ')')).size(), 3u * 200 + 1 + 200);
}

TEST(PythonRegexTest, InvalidUtf8IsRefused) {
  EXPECT_EQ(Re2("a\xFF"), std::string(kPythonRefuses) + "it is not valid UTF-8");
}

// What Python refuses: its message and position.
TEST(PythonRegexTest, PythonErrorsKeepPythonsMessage) {
  EXPECT_EQ(Re2("*"), std::string(kPythonRefuses) + "nothing to repeat at position 0");
  EXPECT_EQ(Re2("a**"), std::string(kPythonRefuses) + "multiple repeat at position 2");
  EXPECT_EQ(Re2("a|(?i)b"),
            std::string(kPythonRefuses) + "global flags not at the start of the expression at position 2");
  EXPECT_EQ(Re2("(?a)(?u)x"), std::string(kPythonRefuses) + "ASCII and UNICODE flags are incompatible");
}

TEST(PythonRegexTest, PythonErrorPositionsCountCharactersAndGiveTheByte) {
  EXPECT_EQ(Re2("\xC3\xA9("),
            std::string(kPythonRefuses) + "missing ), unterminated subpattern at position 1 (byte 2)");
}

TEST(PythonRegexTest, PythonErrorsInMultilinePatternsGiveLineAndColumn) {
  EXPECT_EQ(Re2("a\n**"),
            std::string(kPythonRefuses) + "multiple repeat at position 3 (line 2, column 2)");
}

}  // namespace
}  // namespace tessera
