import Foundation
import Testing

/// Whether this test process may make cgroup v1 memory cgroups.
enum MemoryCgroups {
  static let hierarchy = "/sys/fs/cgroup/memory"

  static var canMake: Bool {
    FileManager.default.fileExists(atPath: hierarchy + "/memory.limit_in_bytes")
      && FileManager.default.isWritableFile(atPath: hierarchy)
  }
}

/// `replay --max-memory`'s default follows the process's cgroup memory limit
/// (`MemoryLimit`), checked in a real cgroup where the test may make one: cgroup v1's
/// memory hierarchy at `/sys/fs/cgroup/memory`, writable (root on a machine without cgroup
/// namespaces, as the project's VM). Elsewhere the suite is skipped, visibly; the parsing
/// of v1 and v2 is checked everywhere by `MemoryLimitTests`.
@Suite(
  "Memory limit, end to end: replay's default budget is a quarter of its cgroup's limit",
  .enabled(if: MemoryCgroups.canMake))
struct MemoryLimitCommandTests {
  static let hierarchy = MemoryCgroups.hierarchy

  /// Runs `smartstack ARGS` in `folder` inside the cgroup `group` (the shell moves itself
  /// in, then becomes the binary), with `environment` added; returns its exit status
  /// (the signal's number when killed) and standard error.
  func runInCgroup(
    _ group: String, _ arguments: [String], in folder: URL, environment: [String: String]
  ) throws -> (
    status: Int32, stderr: String
  ) {
    let result = try CLI.run(
      arguments, in: folder, environment: environment, launcher: CLI.inCgroup(group))
    return (result.status, result.stderr)
  }

  /// A tiny donation log and a visit log of 100 MB of rows of a name with no donation
  /// (ignored: a replay of them is quick), in `folder`.
  func bigVisitLog(in folder: URL) throws -> (log: String, visits: String) {
    let log = try CLI.write(
      "timestamp,user,kind\n2026-03-02T08:00:00Z,ana,Weather\n2026-03-02T09:00:00Z,ana,News\n",
      to: "log.csv", in: folder)
    let visits = folder.appendingPathComponent("visits.csv")
    let chunk = Data(String(repeating: "2026-03-02T08:30:00Z,ghost\n", count: 40_000).utf8)
    try #require(
      FileManager.default.createFile(atPath: visits.path, contents: Data("timestamp,user\n".utf8)))
    let handle = try FileHandle(forWritingTo: visits)
    try handle.seekToEnd()
    while try handle.offset() < 100_000_000 { try handle.write(contentsOf: chunk) }
    try handle.close()
    return (log, visits.path)
  }

  /// A new memory cgroup limited to `bytes`; the caller removes it (`rmdir`).
  func cgroup(limit bytes: Int) throws -> String {
    let group = Self.hierarchy + "/smartstack-test-" + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: false)
    try "\(bytes)".write(
      toFile: group + "/memory.limit_in_bytes", atomically: false, encoding: .utf8)
    return group
  }

  /// Runs `arguments` (a replay or a batch of a log whose plan fits a quarter of any
  /// machine this runs on but not a quarter of 160 MiB) outside and inside a 160 MiB
  /// cgroup: outside it holds the plan in memory, inside it replays in blocks (the `spill`
  /// fault point kills a run that spills to disk, and only one that does), with no OOM
  /// kill, to the reports of the run outside.
  func expectBlocksInsideTheCgroupOnly(_ arguments: [String], in folder: URL) throws {
    let group = try cgroup(limit: 160 << 20)
    defer { rmdir(group) }
    let crash = ["SMARTSTACK_CRASH_AT": "spill:1"]
    let outside = try CLI.run(arguments + ["--out", "outside"], in: folder, environment: crash)
    #expect(outside.status == 0, "outside the cgroup: in memory, \(outside.stderr)")
    let inside = try runInCgroup(
      group, arguments + ["--out", "inside"], in: folder, environment: crash)
    #expect(inside.status == SIGKILL, "inside the cgroup: in blocks, \(inside.stderr)")
    let blocks = try runInCgroup(
      group, arguments + ["--out", "blocks"], in: folder, environment: [:])
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(
      try CLI.reports(folder.appendingPathComponent("blocks"))
        == CLI.reports(folder.appendingPathComponent("outside")))
    let oom = try String(contentsOfFile: group + "/memory.oom_control", encoding: .utf8)
    #expect(
      oom.contains("oom_kill 0") || !oom.contains("oom_kill "),
      "the kernel's OOM killer, not the fault point: \(oom)")
  }

  @Test(
    "a log that fits the machine's quarter but not the cgroup's replays in blocks, with no OOM kill"
  )
  func theDefaultFollowsTheCgroupLimit() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Half of the 100 MB is over a quarter of 160 MiB (41.9 MB), and under a quarter of any
    // machine this runs on.
    let (log, visits) = try bigVisitLog(in: folder)
    try expectBlocksInsideTheCgroupOnly(
      ["replay", "--log", log, "--visits", visits, "--strategy", "mfu", "--quiet"], in: folder)
  }

  @Test(
    "batch replays a log point that does not fit its cgroup's budget in blocks, to the same reports"
  )
  func batchReplaysInBlocksUnderTheCgroupLimit() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The point's plan, about 50 MB, is over half of a quarter of 160 MiB.
    let (log, visits) = try bigVisitLog(in: folder)
    try expectBlocksInsideTheCgroupOnly(
      ["batch", "--log", log, "--visits", visits, "--strategy", "mfu,oracle", "--quiet"], in: folder
    )
  }

  @Test(
    "a traced batch warns, before it loads them, that its log plans are more than its cgroup lets it use"
  )
  func tracedBatchWarnsOfPlansOverTheCgroupLimit() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try bigVisitLog(in: folder)
    // The plan, about 50 MB, is over 40 MiB (41.9 MB): the warning comes first, and the
    // batch may then be killed for memory (its status is not what is checked). With the
    // trace, the plans are held whole.
    let group = try cgroup(limit: 40 << 20)
    defer { rmdir(group) }
    let arguments = [
      "batch", "--log", log, "--visits", visits, "--strategy", "mfu", "--trace", "--out", "reports",
    ]
    let inside = try runInCgroup(group, arguments, in: folder, environment: [:])
    #expect(
      inside.stderr.hasPrefix(
        "warning: with trace.csv, batch holds a replay plan for every log source point in memory, about 50 MB here"
      ),
      "\(inside.stderr)")
    #expect(inside.stderr.contains("more than the 42 MB this process may use"), "\(inside.stderr)")
  }
}
