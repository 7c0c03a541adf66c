// Crash safety of sharded saves with real processes: a writer process is
// killed with SIGKILL at a point of its save (it reports the point through a
// pipe and waits there), then the directory is read as a restore would. A
// killed first save leaves no checkpoint ("no tessera-index.json"); a killed
// re-save leaves the previous checkpoint whole: its index reads, its files
// verify and its pieces hold the previous bytes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint/sharded/files.h"
#include "core/checkpoint/sharded/index.h"
#include "core/checkpoint/sharded/writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sharded_testing.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint::sharded {
namespace {

using ::tessera::checkpoint::sharded::testing::FillFrom;
using ::tessera::checkpoint::sharded::testing::FreshDirectory;
using ::tessera::checkpoint::sharded::testing::ListDirectory;
using ::tessera::checkpoint::sharded::testing::PiecesHoldData;
using ::tessera::checkpoint::sharded::testing::SaveAll;
using ::tessera::checkpoint::sharded::testing::U8Tensor;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::tessera::testing::CpuMesh;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;

constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;
constexpr int kOldSeed = 1;
constexpr int kNewSeed = 2;

std::vector<SaveTensor> Tensors() {
  const MeshPtr mesh = CpuMesh({2, 2}, {"x", "y"});
  return {U8Tensor("w", {8, 6}, {"x", ""}, mesh), U8Tensor("v", {4, 4}, {"", "y"}, mesh),
          U8Tensor("b", {6}, {""}, mesh)};
}

// In the child: tells the parent the point is reached and waits to be killed.
[[noreturn]] void Reached(int fd) {
  const char byte = 'x';
  (void)!write(fd, &byte, 1);
  for (;;) pause();
}

// Runs `save` in a child process and kills it (SIGKILL) once it calls
// Reached. False when the child ended without reaching its point.
bool KillAtPoint(const std::function<void(int)>& save) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    save(fds[1]);
    _exit(0);  // the point was never reached
  }
  close(fds[1]);
  char byte = 0;
  const bool reached = read(fds[0], &byte, 1) == 1;
  close(fds[0]);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return reached && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// A fill that stops at byte `at` of the `piece`-th piece it is asked for.
FillPiece StopInPiece(const std::vector<SaveTensor>& tensors, int fd, int piece, uint64_t at) {
  auto seen = std::make_shared<int>(-1);
  return [&tensors, fd, piece, at, seen](const SavePiece& p, uint64_t offset, absl::Span<char> out) {
    if (offset == 0) ++*seen;
    if (*seen == piece && offset >= at) Reached(fd);
    return FillFrom(tensors, kNewSeed)(p, offset, out);
  };
}

// The crash points, each in a child process of the save of one process of
// `num_processes` (process `process` writes; others, if any, wrote already).
enum class Point { kDuringFileWrite, kAfterRenameBeforeIndex, kDuringIndexWrite };

void SaveUntil(Point point, const std::string& dir, const std::vector<SaveTensor>& tensors, int64_t process,
               int64_t num_processes, int fd) {
  const int64_t generation = Unwrap(NextGeneration(dir));
  // Small chunks: the kill lands between two writes of one piece.
  const WriteOptions options{process, num_processes, generation, 4};
  if (point == Point::kDuringFileWrite) {
    (void)WriteProcessFile(dir, tensors, options, StopInPiece(tensors, fd, 0, 8));
    return;
  }
  if (!WriteProcessFile(dir, tensors, options, FillFrom(tensors, kNewSeed)).ok()) return;
  if (point == Point::kAfterRenameBeforeIndex) Reached(fd);
  // As FinishSave writes the index: killed with half of it in the temporary file.
  absl::StatusOr<AtomicFile> index = AtomicFile::Create(IndexPath(dir));
  if (!index.ok() || !index->Append("{\"format\": \"tessera.checkpoint\", \"vers").ok()) return;
  Reached(fd);
}

void ExpectNoCheckpoint(const std::string& dir) {
  EXPECT_THAT(ReadIndex(dir), StatusIs(kPrecondition, HasSubstr("no tessera-index.json; the save did not finish")));
}

void ExpectOldCheckpointWhole(const std::string& dir) {
  const absl::StatusOr<Index> index = ReadIndex(dir);
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_TRUE(VerifyIndexFiles(*index, dir).ok());
  EXPECT_TRUE(PiecesHoldData(*index, dir, kOldSeed));
}

class SaveCrashTest : public ::testing::TestWithParam<Point> {};

TEST_P(SaveCrashTest, AKilledFirstSaveLeavesNoCheckpoint) {
  const std::string dir = FreshDirectory("crash-first");
  const std::vector<SaveTensor> tensors = Tensors();
  ASSERT_TRUE(KillAtPoint([&](int fd) { SaveUntil(GetParam(), dir, tensors, 0, 1, fd); }));
  ExpectNoCheckpoint(dir);
}

TEST_P(SaveCrashTest, AKilledReSaveLeavesThePreviousCheckpointWhole) {
  const std::string dir = FreshDirectory("crash-resave");
  const std::vector<SaveTensor> tensors = Tensors();
  SaveAll(dir, tensors, 1, kOldSeed);
  ASSERT_TRUE(KillAtPoint([&](int fd) { SaveUntil(GetParam(), dir, tensors, 0, 1, fd); }));
  ExpectOldCheckpointWhole(dir);
}

TEST_P(SaveCrashTest, TheNextSaveAfterACrashIsWholeAndRemovesWhatTheCrashLeft) {
  const std::string dir = FreshDirectory("crash-next");
  const std::vector<SaveTensor> tensors = Tensors();
  SaveAll(dir, tensors, 1, kOldSeed);
  ASSERT_TRUE(KillAtPoint([&](int fd) { SaveUntil(GetParam(), dir, tensors, 0, 1, fd); }));
  const Index index = SaveAll(dir, tensors, 1, kNewSeed);
  EXPECT_TRUE(PiecesHoldData(Unwrap(ReadIndex(dir)), dir, kNewSeed));
  EXPECT_THAT(ListDirectory(dir), ElementsAre(index.files[0], "tessera-index.json"));
}

INSTANTIATE_TEST_SUITE_P(Points, SaveCrashTest,
                         ::testing::Values(Point::kDuringFileWrite, Point::kAfterRenameBeforeIndex,
                                           Point::kDuringIndexWrite),
                         [](const ::testing::TestParamInfo<Point>& info) {
                           switch (info.param) {
                             case Point::kDuringFileWrite:
                               return "DuringFileWrite";
                             case Point::kAfterRenameBeforeIndex:
                               return "AfterRenameBeforeIndex";
                             case Point::kDuringIndexWrite:
                               return "DuringIndexWrite";
                           }
                           return "";
                         });

// Two processes: process 0 wrote its file, process 1 is killed mid-write;
// process 0's finish refuses, naming process 1's file.
TEST(SaveCrashJobTest, FinishRefusesWhileAKilledProcessHasNoFile) {
  const std::string dir = FreshDirectory("crash-job");
  const std::vector<SaveTensor> tensors = Tensors();
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 2, 0}, FillFrom(tensors, kNewSeed)));
  ASSERT_TRUE(KillAtPoint([&](int fd) { SaveUntil(Point::kDuringFileWrite, dir, tensors, 1, 2, fd); }));
  EXPECT_THAT(FinishSave(dir, tensors, 2, 0),
              StatusIs(kPrecondition, HasSubstr("process-00001-of-00002.safetensors: missing; process 1 has not "
                                                "written its file")));
  ExpectNoCheckpoint(dir);
}

TEST(SaveCrashJobTest, AKilledProcessOfAReSaveLeavesThePreviousCheckpointWhole) {
  const std::string dir = FreshDirectory("crash-job-resave");
  const std::vector<SaveTensor> tensors = Tensors();
  SaveAll(dir, tensors, 2, kOldSeed);
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 2, 1}, FillFrom(tensors, kNewSeed)));
  ASSERT_TRUE(KillAtPoint([&](int fd) { SaveUntil(Point::kDuringFileWrite, dir, tensors, 1, 2, fd); }));
  EXPECT_THAT(FinishSave(dir, tensors, 2, 1), StatusIs(kPrecondition, HasSubstr("missing; process 1")));
  ExpectOldCheckpointWhole(dir);
}

}  // namespace
}  // namespace tessera::checkpoint::sharded
