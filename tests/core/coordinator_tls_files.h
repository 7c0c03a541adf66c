// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The test certificates of tests/core/testdata/coordinator_tls (made by its
// gen.sh). Meson points TESSERA_COORDINATOR_TLS_DIR at them; the fallback
// serves a run from the source root.
#ifndef TESSERA_TESTS_CORE_COORDINATOR_TLS_FILES_H_
#define TESSERA_TESTS_CORE_COORDINATOR_TLS_FILES_H_

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"

namespace tessera::cluster {

inline std::string TlsFile(const std::string& name) {
  const char* dir = std::getenv("TESSERA_COORDINATOR_TLS_DIR");
  return absl::StrCat(dir != nullptr ? dir : "tests/core/testdata/coordinator_tls", "/", name);
}

// The file's text; empty when it cannot be read.
inline std::string Pem(const std::string& name) {
  std::ifstream in(TlsFile(name));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tessera::cluster

#endif  // TESSERA_TESTS_CORE_COORDINATOR_TLS_FILES_H_
