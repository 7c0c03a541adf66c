// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TLS of the coordinator and its clients: the up-front certificate checks,
// the credentials built from TlsOptions, and how a failed handshake is
// classified and explained (certificate_check.h, tls_credentials.h,
// tls_probe.h, connect_retry.h). Certificates are testdata/coordinator_tls
// (gen.sh); servers are plain gRPC servers on 127.0.0.1.
#include <grpcpp/grpcpp.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "core/cluster/certificate_check.h"
#include "core/cluster/connect_retry.h"
#include "core/cluster/tls_credentials.h"
#include "core/cluster/tls_probe.h"
#include "tessera/v1/coordinator.grpc.pb.h"
#include "tests/core/coordinator_tls_files.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using ::testing::StartsWith;

// The dates gen.sh gave the certificates; regenerating them means updating
// these. expired_server.pem ends a day before it begins.
constexpr char kClientNotBefore[] = "Nov 30 08:53:17 2026 GMT";  // client.pem
constexpr char kExpiredNotAfter[] = "Nov 29 08:53:18 2026 GMT";  // expired_server.pem

absl::Time Now() { return absl::Now(); }

// --- certificate_check.h ---------------------------------------------------------

TEST(CheckKeyPairFiles, MatchingCurrentPairPasses) {
  EXPECT_THAT(CheckKeyPairFiles("coordinator", TlsFile("server.pem"), TlsFile("server.key"), Now()),
              IsOk());
}

TEST(CheckKeyPairFiles, ExpiredCertificateNamesTheFileAndNotAfter) {
  EXPECT_THAT(
      CheckKeyPairFiles("coordinator", TlsFile("expired_server.pem"), TlsFile("server.key"), Now()),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               absl::StrCat("coordinator: the certificate in tls_cert_file '",
                            TlsFile("expired_server.pem"), "' expired on ", kExpiredNotAfter,
                            " (notAfter)")));
}

TEST(CheckKeyPairFiles, CertificateNotValidYetNamesNotBefore) {
  const absl::Time before_issue = absl::FromCivil(absl::CivilDay(2020, 1, 1), absl::UTCTimeZone());
  EXPECT_THAT(
      CheckKeyPairFiles("client", TlsFile("client.pem"), TlsFile("client.key"), before_issue),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               absl::StrCat("client: the certificate in tls_cert_file '", TlsFile("client.pem"),
                            "' is not valid until ", kClientNotBefore,
                            " (notBefore); is this host's clock right?")));
}

TEST(CheckKeyPairFiles, KeyOfAnotherCertificateNamesBothFiles) {
  EXPECT_THAT(
      CheckKeyPairFiles("client", TlsFile("client.pem"), TlsFile("server.key"), Now()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               absl::StrCat("client: the key in tls_key_file '", TlsFile("server.key"),
                            "' does not match the certificate in tls_cert_file '",
                            TlsFile("client.pem"), "'")));
}

TEST(CheckKeyPairFiles, FileWithoutCertificateIsInvalidArgument) {
  EXPECT_THAT(
      CheckKeyPairFiles("client", TlsFile("client.key"), TlsFile("client.key"), Now()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               absl::StrCat("client: tls_cert_file '", TlsFile("client.key"),
                            "' holds no PEM certificate")));
}

TEST(CheckKeyPairFiles, MissingFileIsInvalidArgumentWithTheSystemError) {
  EXPECT_THAT(CheckKeyPairFiles("client", "/nonexistent/cert.pem", TlsFile("client.key"), Now()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "client: cannot read tls_cert_file '/nonexistent/cert.pem': No such file "
                       "or directory"));
}

// --- tls_credentials.h -----------------------------------------------------------

TEST(ChannelCredentials, ExpiredClientCertificateFailsBeforeDialling) {
  TlsOptions tls;
  tls.ca_file = TlsFile("ca.pem");
  tls.cert_file = TlsFile("expired_server.pem");
  tls.key_file = TlsFile("server.key");
  EXPECT_THAT(ChannelCredentials(tls).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       absl::StrCat("client: the certificate in tls_cert_file '",
                                    TlsFile("expired_server.pem"), "' expired on ",
                                    kExpiredNotAfter, " (notAfter)")));
}

TEST(ChannelCredentials, UnreadableCaFileIsInvalidArgument) {
  TlsOptions tls;
  tls.ca_file = "/nonexistent/ca.pem";
  EXPECT_THAT(ChannelCredentials(tls).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "client: cannot read tls_ca_file '/nonexistent/ca.pem': No such file or "
                       "directory"));
}

TEST(ServerCredentials, ClientCertificatesWithoutCaIsInvalidArgument) {
  TlsOptions tls;
  tls.cert_file = TlsFile("server.pem");
  tls.key_file = TlsFile("server.key");
  tls.require_client_cert = true;
  EXPECT_THAT(ServerCredentials(tls).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "tls_require_client_cert needs tls_ca_file to verify client certificates "
                       "with"));
}

// --- connect_retry.h: classification of gRPC 1.51's messages ----------------------

// What gRPC 1.51 (OpenSSL 3) reports, as seen from a TlsCredentials channel.
constexpr char kVerifyFailed[] =
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:5000: Tls handshake "
    "failed: SSL_ERROR_SSL: error:0A000086:SSL routines::certificate verify failed";
constexpr char kHostnameFailed[] =
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:5000: Custom "
    "verification check failed with error: UNAUTHENTICATED: Hostname Verification Check failed.";
constexpr char kWrongVersion[] =
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:5000: Tls handshake "
    "failed: SSL_ERROR_SSL: error:0A00010B:SSL routines::wrong version number";
constexpr char kSocketClosed[] =
    "failed to connect to all addresses; last error: UNAVAILABLE: ipv4:127.0.0.1:5000: Socket "
    "closed";

TEST(ClassifyTlsRejection, CertificateVerifyFailedIsTheServerCertificate) {
  EXPECT_EQ(ClassifyTlsRejection(absl::UnavailableError(kVerifyFailed)),
            TlsRejection::kServerCertificate);
}

TEST(ClassifyTlsRejection, BoringSslSpellingIsTheServerCertificate) {
  EXPECT_EQ(ClassifyTlsRejection(absl::UnavailableError(
                "Ssl handshake failed: SSL_ERROR_SSL: error:1000007d:SSL "
                "routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED")),
            TlsRejection::kServerCertificate);
}

TEST(ClassifyTlsRejection, HostnameVerificationIsTheServerName) {
  EXPECT_EQ(ClassifyTlsRejection(absl::UnavailableError(kHostnameFailed)),
            TlsRejection::kServerName);
}

TEST(ClassifyTlsRejection, SslCredentialsPeerNameCheckIsTheServerName) {
  EXPECT_EQ(ClassifyTlsRejection(
                absl::UnavailableError("Peer name 127.0.0.1 is not in peer certificate")),
            TlsRejection::kServerName);
}

TEST(ClassifyTlsRejection, WrongVersionNumberIsAServerWithoutTls) {
  EXPECT_EQ(ClassifyTlsRejection(absl::UnavailableError(kWrongVersion)), TlsRejection::kNotTls);
}

// A coordinator refusing our client certificate and one still starting both
// just close: not certain, so retried.
TEST(ClassifyTlsRejection, SocketClosedIsNotCertain) {
  EXPECT_EQ(ClassifyTlsRejection(absl::UnavailableError(kSocketClosed)), TlsRejection::kNone);
}

TEST(TlsHandshakeError, OtherFailuresPassThroughUnchanged) {
  const absl::Status refused = absl::UnavailableError(
      "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:1: Failed to "
      "connect to remote host: Connection refused");
  EXPECT_EQ(TlsHandshakeError("127.0.0.1:1", TlsOptions{}, refused), refused);
}

TEST(TlsHandshakeError, PlaintextServerIsUnauthenticatedAndNotRetried) {
  const absl::Status error =
      TlsHandshakeError("127.0.0.1:5000", TlsOptions{}, absl::UnavailableError(kWrongVersion));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kUnauthenticated,
                              absl::StrCat("TLS handshake with 127.0.0.1:5000 failed: the server "
                                           "does not speak TLS (a coordinator started without "
                                           "tls_cert_file?) [gRPC: ",
                                           kWrongVersion, "]")));
  EXPECT_FALSE(IsRetryableConnectError(error));
}

// The reported bug: "Tls handshake failed" read as "no response (firewall?)".
TEST(ClassifyConnectFailure, HandshakeFailureIsTlsNotNoResponse) {
  EXPECT_EQ(ClassifyConnectFailure(absl::UnavailableError(
                "Tls handshake failed: SSL_ERROR_SSL: error:0A000126:SSL routines::unexpected "
                "eof while reading")),
            ConnectFailure::kTls);
}

TEST(RegistrationTimeoutError, ClosedConnectionsPointAtTheTlsSettings) {
  EXPECT_THAT(
      RegistrationTimeoutError("127.0.0.1:5000", absl::Seconds(2), 3,
                               absl::UnavailableError(kSocketClosed)),
      StatusIs(absl::StatusCode::kUnavailable,
               absl::StrCat("could not register with the coordinator at 127.0.0.1:5000 within 2s "
                            "(3 attempts): the coordinator closed the connection during set-up "
                            "(a TLS coordinator does so to a client without TLS, and one "
                            "requiring client certificates when it refuses this process's: check "
                            "tls_ca_file, tls_cert_file and the coordinator's tls_ca_file); last "
                            "error: UNAVAILABLE: ",
                            kSocketClosed)));
}

// --- TlsHandshakeError against real servers: the reason from the probe ------------

class HandshakeTest : public ::testing::Test {
 protected:
  // A plain gRPC server on 127.0.0.1 serving `cert` (plaintext when ""),
  // requiring client certificates from ca.pem when `client_ca`.
  void Serve(const std::string& cert, const std::string& key, bool client_ca = false) {
    std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
    if (!cert.empty()) {
      grpc::SslServerCredentialsOptions options(
          client_ca ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                    : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
      options.pem_key_cert_pairs.push_back({Pem(key), Pem(cert)});
      if (client_ca) options.pem_root_certs = Pem("ca.pem");
      credentials = grpc::SslServerCredentials(options);
    }
    grpc::ServerBuilder builder;
    builder.RegisterService(&service_);
    builder.AddListeningPort("127.0.0.1:0", credentials, &port_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    address_ = absl::StrCat("127.0.0.1:", port_);
  }

  // One call through ChannelCredentials(tls), as the client makes it; then
  // the client's classification of its status.
  absl::Status Dial(const TlsOptions& tls) {
    absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials = ChannelCredentials(tls);
    if (!credentials.ok()) return credentials.status();
    return DialWith(tls, *credentials);
  }

  // The same with credentials the test keeps (a new connection each time).
  absl::Status DialWith(const TlsOptions& tls,
                        const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
    grpc::ChannelArguments args;
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    if (!tls.server_name.empty()) args.SetSslTargetNameOverride(tls.server_name);
    auto stub = v1::Coordinator::NewStub(grpc::CreateCustomChannel(address_, credentials, args));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::RegisterResponse response;
    const grpc::Status status = stub->Register(&context, v1::RegisterRequest(), &response);
    return TlsHandshakeError(
        address_, tls,
        absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message()));
  }

  TlsOptions TrustingCa() const {
    TlsOptions tls;
    tls.ca_file = TlsFile("ca.pem");
    return tls;
  }

  v1::Coordinator::CallbackService service_;  // every call UNIMPLEMENTED: only handshakes matter
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::string address_;
};

TEST_F(HandshakeTest, ExpiredServerCertificateIsExplainedWithItsNotAfter) {
  Serve("expired_server.pem", "server.key");
  const absl::Status error = Dial(TrustingCa());
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kUnauthenticated,
                              StartsWith(absl::StrCat(
                                  "TLS handshake with ", address_,
                                  " failed: the coordinator's certificate was refused: certificate "
                                  "has expired (notAfter ",
                                  kExpiredNotAfter, "), checked against tls_ca_file '",
                                  TlsFile("ca.pem"), "' [gRPC: "))));
  EXPECT_FALSE(IsRetryableConnectError(error));
}

TEST_F(HandshakeTest, ServerCertificateFromAnotherCaIsExplained) {
  Serve("other_server.pem", "other_server.key");
  EXPECT_THAT(Dial(TrustingCa()),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       StartsWith(absl::StrCat(
                           "TLS handshake with ", address_,
                           " failed: the coordinator's certificate was refused: unable to get "
                           "local issuer certificate, checked against tls_ca_file '",
                           TlsFile("ca.pem"), "' [gRPC: "))));
}

TEST_F(HandshakeTest, ServerNameNotInTheCertificateListsTheNamesItCarries) {
  Serve("server.pem", "server.key");
  TlsOptions tls = TrustingCa();
  tls.server_name = "elsewhere.invalid";
  EXPECT_THAT(Dial(tls), StatusIs(absl::StatusCode::kUnauthenticated,
                                  StartsWith(absl::StrCat(
                                      "TLS handshake with ", address_,
                                      " failed: the coordinator's certificate is not for "
                                      "'elsewhere.invalid' (it names DNS:localhost, IP:127.0.0.1); "
                                      "dial a name it carries, or set tls_server_name to one "
                                      "[gRPC: "))));
}

TEST_F(HandshakeTest, PlaintextServerIsNamedAsSuch) {
  Serve("", "");
  EXPECT_THAT(Dial(TrustingCa()),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       StartsWith(absl::StrCat("TLS handshake with ", address_,
                                               " failed: the server does not speak TLS"))));
}

TEST_F(HandshakeTest, TrustedServerIsReachedWithoutTlsError) {
  Serve("server.pem", "server.key");
  // The service has no handlers: UNIMPLEMENTED proves the handshake passed.
  EXPECT_THAT(Dial(TrustingCa()), StatusIs(absl::StatusCode::kUnimplemented, ::testing::_));
}

TEST_F(HandshakeTest, ProbeReportsTheVerdictAndTheNamesOfTheServersCertificate) {
  Serve("expired_server.pem", "server.key");
  const std::optional<ServerCertificateReport> report =
      ProbeServerCertificate(address_, TlsFile("ca.pem"), absl::Seconds(2));
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->verify_error,
            absl::StrCat("certificate has expired (notAfter ", kExpiredNotAfter, ")"));
  EXPECT_EQ(report->names, "DNS:localhost, IP:127.0.0.1");
}

TEST_F(HandshakeTest, ProbeAnswerIsReusedForTheSameAddressAndCaFile) {
  Serve("other_server.pem", "other_server.key");
  const std::optional<ServerCertificateReport> first =
      ProbeServerCertificate(address_, TlsFile("ca.pem"), absl::Seconds(2));
  ASSERT_TRUE(first.has_value());
  server_->Shutdown();
  server_.reset();  // nothing answers at the address now
  const std::optional<ServerCertificateReport> again =
      ProbeServerCertificate(address_, TlsFile("ca.pem"), absl::Seconds(2));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->verify_error, first->verify_error);
  // Another CA file is another question: probed, and nobody answers.
  EXPECT_FALSE(ProbeServerCertificate(address_, TlsFile("other_ca.pem"), absl::Seconds(2)));
}

TEST_F(HandshakeTest, HostNameDialledIsOneTheCertificateNames) {
  Serve("server.pem", "server.key");
  address_ = absl::StrCat("localhost:", port_);  // server.pem names DNS:localhost
  EXPECT_THAT(Dial(TrustingCa()), StatusIs(absl::StatusCode::kUnimplemented, ::testing::_));
}

TEST_F(HandshakeTest, ClientCertificateIsPresentedToAServerRequiringOne) {
  Serve("server.pem", "server.key", /*client_ca=*/true);
  TlsOptions tls = TrustingCa();
  tls.cert_file = TlsFile("client.pem");
  tls.key_file = TlsFile("client.key");
  EXPECT_THAT(Dial(tls), StatusIs(absl::StatusCode::kUnimplemented, ::testing::_));
}

// The client re-reads its CA file too: credentials made while it held the
// wrong CA trust the server once it holds the right one.
TEST_F(HandshakeTest, ClientCredentialsReloadTheirCaFile) {
  char pattern[] = "/tmp/tessera-tls-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const std::string ca = dir + "/ca.pem";
  std::ofstream(ca, std::ios::binary) << Pem("other_ca.pem");
  Serve("server.pem", "server.key");
  TlsOptions tls;
  tls.ca_file = ca;
  tls.reload_interval = absl::Seconds(1);
  std::shared_ptr<grpc::ChannelCredentials> credentials = Unwrap(ChannelCredentials(tls));
  EXPECT_THAT(DialWith(tls, credentials), StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
  std::ofstream(ca + ".new", std::ios::binary) << Pem("ca.pem");
  ASSERT_EQ(std::rename((ca + ".new").c_str(), ca.c_str()), 0);
  // gRPC re-reads once a second; 30 tries 100 ms apart bound the wait.
  absl::Status status = absl::UnknownError("not tried");
  for (int attempt = 0; attempt < 30 && status.code() != absl::StatusCode::kUnimplemented;
       ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = DialWith(tls, credentials);
  }
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kUnimplemented, ::testing::_));
  credentials.reset();
  std::remove(ca.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace tessera::cluster
