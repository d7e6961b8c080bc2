import Foundation
import SmartStackKit
import Testing

/// `kill -9` at seeded points of a batch that replaces an earlier report set: during the
/// cells, while the reports are written, committed and moved, and during `--resume`.
/// After every kill the folder must hold the previous complete set or the new complete
/// set (as `smartstack report` reads it); the next command of another kind (`report`, or a
/// `replay` or `simulate` that is then refused) must leave that set as the folder's own
/// files, with no staging or committed folder; and after `--resume` exactly the new set
/// of an uninterrupted run, with no lock, staging folder or temporary file left. (Runs skip
/// `fsync`, `SMARTSTACK_NO_FSYNC=1`: a kill does not lose written pages, only a power cut
/// would, and fsyncs made this test twice as slow on a busy disk.)
@Suite("Reliability: crash consistency")
struct CrashConsistencyTests {
  static let csvs = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]

  /// 1 scenario source (tiny, 14 days) × 3 strategies × 2 replicates = 6 cells.
  static var config: String {
    """
    {"name": "crash", "seed": 1, "replicates": 2,
     "sources": [{"name": "world", "scenario": "\(InterruptedBatchTests.scenarioPath)", "days": 14}],
     "strategies": ["mfu", "random", "hour-of-week"]}
    """
  }

  /// The report set as a reader sees it: each CSV where `OutputSet.currentPath` finds it.
  static func currentSet(_ folder: URL) -> [Data?] {
    csvs.map { FileManager.default.contents(atPath: OutputSet.currentPath($0, in: folder.path)) }
  }

  /// The report set as it is on disk, each CSV read from the folder itself.
  static func diskSet(_ folder: URL) -> [Data?] {
    csvs.map { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
  }

  /// The next command a person may run on the folder after a kill, other than `--resume`:
  /// each must finish (or discard) the interrupted publish, even when it then refuses to
  /// run (a replay or simulate over a batch's set, without `--overwrite`).
  static func nextCommand(_ choice: Int, out: String) -> (arguments: [String], status: Int32) {
    let scenario = InterruptedBatchTests.scenarioPath
    switch choice {
    case 0: return (["report", out], 0)
    case 1: return (["replay", "--log", tinyLog, "--strategy", "mfu", "--out", out, "--quiet"], 73)
    default: return (["simulate", "--scenario", scenario, "--strategy", "mfu", "--out", out, "--quiet"], 73)
    }
  }

  static var tinyLog: String {
    URL(fileURLWithPath: InterruptedBatchTests.scenarioPath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("logs/tiny.csv").path
  }

  /// The points a run can be killed at after its cells: 4 staged files and the manifest,
  /// the commit, and the 5 moves.
  static let reportPoints =
    (1...5).map { "report:\($0)" } + ["commit:1"] + (1...5).map { "move:\($0)" }

  /// How many seeded cases `seededKillsLeaveAWholeSetAndResumeToTheSameBytes` runs: 12
  /// (4 of each plan) in `swift test`; `Scripts/crash-consistency.sh` (run by `.ci/run`)
  /// sets `SMARTSTACK_CRASH_CASES=50` for the full loop. Case k is the same in both.
  static var cases: Int {
    ProcessInfo.processInfo.environment["SMARTSTACK_CRASH_CASES"].flatMap { Int($0) } ?? 12
  }

  @Test func seededKillsLeaveAWholeSetAndResumeToTheSameBytes() throws {
    let cases = Self.cases
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try CLI.write(Self.config, to: "exp.json", in: work)
    let fm = FileManager.default
    #expect(try CLI.run(["batch", "exp.json", "--out", "previous", "--quiet"], in: work).status == 0)
    #expect(
      try CLI.run(["batch", "exp.json", "--out", "new", "--seed", "2", "--quiet"], in: work).status
        == 0)
    let previous = Self.currentSet(work.appendingPathComponent("previous"))
    let new = Self.currentSet(work.appendingPathComponent("new"))
    #expect(previous != new)

    var rng = SplitMix64(seed: 2026)
    var killed = 0
    var seenPrevious = 0
    var seenNew = 0
    var nextCommands: [String: Int] = [:]
    for k in 0..<cases {
      let name = "run-\(k)"
      let out = work.appendingPathComponent(name)
      try fm.copyItem(at: work.appendingPathComponent("previous"), to: out)
      let batch = ["batch", "exp.json", "--out", name, "--seed", "2", "--quiet"]
      var plan: [(resume: Bool, point: String)]
      switch k % 3 {
      case 0: plan = [(false, "cell:\(1 + rng.nextInt(below: 6))")]
      case 1: plan = [(false, Self.reportPoints[rng.nextInt(below: Self.reportPoints.count)])]
      default:
        let first = 1 + rng.nextInt(below: 5)
        let later =
          (1...(6 - first)).map { "cell:\($0)" } + Self.reportPoints
        plan = [(false, "cell:\(first)"), (true, later[rng.nextInt(below: later.count)])]
      }
      for step in plan {
        let result = try CLI.run(
          batch + (step.resume ? ["--resume"] : ["--overwrite"]), in: work,
          environment: ["SMARTSTACK_CRASH_AT": step.point, "SMARTSTACK_NO_FSYNC": "1"])
        #expect(result.status == SIGKILL, "case \(k) \(step): \(result.stderr)")
        killed += 1
        let seen = Self.currentSet(out)
        #expect(seen == previous || seen == new, "case \(k) after \(step.point): a mixed set")
        if seen == previous { seenPrevious += 1 } else if seen == new { seenNew += 1 }
        // The next command of another kind finishes the publish: the folder's own files
        // are then the set seen, and nothing of the killed run's publish is left.
        let next = Self.nextCommand(rng.nextInt(below: 3), out: name)
        let ran = try CLI.run(next.arguments, in: work, environment: ["SMARTSTACK_NO_FSYNC": "1"])
        #expect(ran.status == next.status, "case \(k) \(step.point) \(next.arguments[0]): \(ran.stderr)")
        nextCommands[next.arguments[0], default: 0] += 1
        #expect(Self.diskSet(out) == seen, "case \(k) after \(step.point) and \(next.arguments[0]): the files on disk are not the set seen")
        let leftovers = try fm.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".reports-") }
        #expect(leftovers.isEmpty, "case \(k) after \(step.point) and \(next.arguments[0]): \(leftovers)")
        #expect(try CLI.run(["report", name], in: work).status == 0, "case \(k) \(step.point)")
      }
      let resumed = try CLI.run(batch + ["--resume"], in: work, environment: ["SMARTSTACK_NO_FSYNC": "1"])
      #expect(resumed.status == 0, "case \(k): \(resumed.stderr)")
      #expect(Self.currentSet(out) == new, "case \(k): not the uninterrupted run's bytes")
      let left = try fm.contentsOfDirectory(atPath: out.path).sorted()
      #expect(left == ([".journal", "manifest.json"] + Self.csvs).sorted(), "case \(k): \(left)")
      try? fm.removeItem(at: out)
    }
    #expect(killed >= cases)
    #expect(seenPrevious > 0 && seenNew > 0)
    let next = nextCommands.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print("crash consistency: \(killed) kills in \(cases) cases; previous set seen \(seenPrevious) times, new set \(seenNew) times; next commands (\(next)) each left the set seen on disk; \(cases) resumes identical")
  }
}
