import Foundation
import Testing

/// `replay --max-memory`: a replay whose logs are bigger than twice the budget reads them
/// to disk once and replays their people block by block (docs/performance.md, "Streaming
/// replay"), writing the same bytes and messages as the replay in memory.
@Suite("Replay in blocks: --max-memory gives the replay in memory's reports and messages")
struct ReplayInBlocksTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// 700 people (three buckets of people on disk) donating six kinds over four days, a
  /// third of them with rows' own offsets, written out of time order; and their visits,
  /// with a name that has no donation.
  static func bigLog(in folder: URL) throws -> (log: String, visits: String) {
    var state: UInt64 = 3
    func next(_ n: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % n
    }
    let kinds = ["Coffee", "News", "Weather", "Transit", "Music", "Notes"]
    var rows: [String] = []
    var visits = ["timestamp,user,utc_offset"]
    for person in 0..<700 {
      for day in 2...5 {
        for _ in 0..<(2 + Int(next(4))) {
          let time = "2026-03-0\(day)T\(10 + next(12)):\(10 + next(50)):00"
          let zone = person % 3 == 0 ? "+09:00" : "Z"
          rows.append("\(time)\(zone),person\(person),\(kinds[Int(next(6))])")
          visits.append("\(time)Z,person\(person),\(person % 3 == 0 ? "32400" : "")")
        }
      }
    }
    visits.append("2026-03-03T12:00:00Z,ghost,")
    // Every other row moved to the end, reversed: the log is not in time order.
    let moved = rows.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).reversed()
    let kept = rows.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let log = try CLI.write((["timestamp,user,kind"] + kept + moved).joined(separator: "\n") + "\n", to: "big.csv", in: folder)
    let visitLog = try CLI.write(visits.joined(separator: "\n") + "\n", to: "visits.csv", in: folder)
    return (log, visitLog)
  }

  /// Runs `replay ARGS` in memory and with `--max-memory 1` (blocks of one bucket of
  /// people) and expects the same reports, standard output and standard error.
  func expectSameReplay(_ arguments: [String], in folder: URL, jobs: [Int] = [1, 2]) throws {
    let name = UUID().uuidString.prefix(8)
    let memory = try CLI.run(["replay"] + arguments + ["--out", "memory-\(name)"], in: folder)
    #expect(memory.status == 0, "\(memory.stderr)")
    let expected = try CLI.reports(folder.appendingPathComponent("memory-\(name)"))
    #expect(Set(expected.keys) == ["runs.csv", "daily.csv"])
    for j in jobs {
      let out = "blocks\(j)-\(name)"
      let blocks = try CLI.run(["replay"] + arguments + ["--out", out, "--max-memory", "1", "--jobs", "\(j)"], in: folder)
      #expect(blocks.status == 0, "\(blocks.stderr)")
      #expect(try CLI.reports(folder.appendingPathComponent(out)) == expected, "\(arguments) --jobs \(j)")
      #expect(blocks.stdout == memory.stdout)
      #expect(
        blocks.stderr.replacingOccurrences(of: out, with: "memory-\(name)") == memory.stderr,
        "\(blocks.stderr)\n---\n\(memory.stderr)")
    }
  }

  @Test("the bundled logs replay in blocks to the same bytes: a visit log and a stack file, sessions and top:N, a time split, the tiny log")
  func bundledLogs() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let logs = root.appendingPathComponent("Datasets/logs").path
    try expectSameReplay(
      ["--log", "\(logs)/commuter/donations.csv", "--visits", "\(logs)/commuter/visits.csv",
       "--stack", "\(logs)/commuter/stack.json", "--strategy", "mfu,mru,random,oracle"], in: folder)
    try expectSameReplay(
      ["--log", "\(logs)/credit-card/donations.jsonl", "--visits", "sessions:5", "--stack", "top:6",
       "--warmup-days", "2", "--strategy", "mfu,bandit"], in: folder, jobs: [2])
    try expectSameReplay(
      ["--log", "\(logs)/shift-worker/donations.csv", "--visits", "\(logs)/shift-worker/visits.csv",
       "--split", "rolling:folds=2:test-days=3", "--timezone", "Europe/Berlin"], in: folder, jobs: [1])
    try expectSameReplay(["--log", "\(logs)/tiny.csv"], in: folder, jobs: [2])
    let data = root.appendingPathComponent("Datasets").path
    try expectSameReplay(
      ["--log", "\(logs)/tiny.csv", "--scores", "\(data)/scores/tiny.csv", "--context", "\(data)/context/tiny.csv",
       "--strategy", "scores,mru,context-mfu", "--smart-rotate", "off"], in: folder, jobs: [1])
    try expectSameReplay(
      ["--log", "\(logs)/commuter/donations.csv", "--visits", "\(logs)/commuter/visits.csv",
       "--stack", "\(logs)/commuter/stack.json", "--timelines", "\(data)/timelines/commuter.json",
       "--strategy", "relevance,mfu"], in: folder, jobs: [2])
  }

  @Test("a log of 700 people out of time order, with offsets and a visit name with no donation, replays in blocks to the same bytes")
  func manyPeopleInSeveralBlocks() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try Self.bigLog(in: folder)
    try expectSameReplay(
      ["--log", log, "--visits", visits, "--strategy", "mfu,random,hour-of-day", "--timezone", "America/New_York"],
      in: folder)
  }

  @Test("a replay in blocks leaves nothing in TMPDIR, when it ends and when it is killed while its spills hold rows")
  func nothingIsLeftInTMPDIR() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try Self.bigLog(in: folder)
    let scratch = folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
    let arguments = ["replay", "--log", log, "--visits", visits, "--strategy", "mfu", "--max-memory", "1"]
    let finished = try CLI.run(arguments + ["--out", "finished"], in: folder, environment: ["TMPDIR": scratch.path])
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
    // Killed (SIGKILL, as a scheduler's time limit or the OOM killer does) after the visit
    // spill's first segment, then after its third: the donation spill holds every row.
    for point in ["spill:1", "spill:3"] {
      let killed = try CLI.run(
        arguments + ["--out", "killed"], in: folder,
        environment: ["TMPDIR": scratch.path, "SMARTSTACK_CRASH_AT": point])
      #expect(killed.status == SIGKILL, "\(point): \(killed.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [], "\(point)")
    }
  }

  @Test("a time split counts in the memory a replay needs: a log that fits one window replays its windows in blocks")
  func aSplitReplaysInBlocksWhenItsPlansWouldNotFit() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = root.appendingPathComponent("Datasets/logs/commuter")
    let log = data.appendingPathComponent("donations.csv").path
    let visits = data.appendingPathComponent("visits.csv").path
    let bytes = try [log, visits].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }.reduce(0, +)
    // Half the inputs fit (one plan), half plus a quarter (two windows' plans) do not.
    let budget = bytes / 2 + bytes / 8
    let arguments = ["replay", "--log", log, "--visits", visits, "--strategy", "mfu", "--max-memory", "\(budget)", "--quiet"]
    let split = ["--split", "rolling:folds=2:test-days=1"]
    // The `spill` fault point kills a replay that spills to disk, and only one that does.
    let crash = ["SMARTSTACK_CRASH_AT": "spill:1"]
    let whole = try CLI.run(arguments + ["--out", "whole"], in: folder, environment: crash)
    #expect(whole.status == 0, "\(whole.stderr)")
    let windows = try CLI.run(arguments + split + ["--out", "windows"], in: folder, environment: crash)
    #expect(windows.status == SIGKILL, "\(windows.stderr)")
    // And in blocks, the split's reports are the replay in memory's.
    let memory = try CLI.run(arguments.dropLast(3) + split + ["--out", "memory", "--quiet"], in: folder)
    let blocks = try CLI.run(arguments + split + ["--out", "blocks"], in: folder)
    #expect(memory.status == 0 && blocks.status == 0, "\(memory.stderr)\(blocks.stderr)")
    #expect(try CLI.reports(folder.appendingPathComponent("blocks")) == CLI.reports(folder.appendingPathComponent("memory")))
  }

  @Test("a person the options refuse, in a later block, is reported as in memory and leaves no reports")
  func aRefusalInALaterBlock() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // 300 people with one kind each, then one with 11 kinds: more than a stack holds.
    var rows = ["timestamp,user,kind"]
    for person in 0..<300 { rows.append("2026-03-02T08:00:00Z,p\(person),Weather") }
    for k in 0..<11 { rows.append("2026-03-03T0\(k / 10):1\(k % 10):00Z,collector,Kind\(k)") }
    let log = try CLI.write(rows.joined(separator: "\n") + "\n", to: "many.csv", in: folder)
    let memory = try CLI.run(["replay", "--log", log, "--strategy", "mfu", "--out", "memory"], in: folder)
    let blocks = try CLI.run(["replay", "--log", log, "--strategy", "mfu", "--out", "blocks", "--max-memory", "1"], in: folder)
    #expect(memory.status != 0 && blocks.status == memory.status)
    #expect(blocks.stderr == memory.stderr, "\(blocks.stderr)")
    #expect(memory.stderr.contains("'collector' donates 11 kinds"), "\(memory.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("blocks").path))
  }

  @Test("a bad log is reported as in memory, FILE:LINE:COLUMN and exit 65, with no reports")
  func aBadLog() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = try CLI.write(
      "timestamp,user,kind\n2026-03-02T08:00:00Z,ana,Weather\nnot a time,ana,Weather\n2026-03-02T09:00:00Z,ben,\n",
      to: "bad.csv", in: folder)
    let memory = try CLI.run(["replay", "--log", log, "--out", "memory"], in: folder)
    let blocks = try CLI.run(["replay", "--log", log, "--out", "blocks", "--max-memory", "1"], in: folder)
    #expect(memory.status == 65 && blocks.status == 65)
    #expect(blocks.stderr == memory.stderr && memory.stderr.contains("bad.csv:3:1:"), "\(blocks.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("blocks").path))
  }

  @Test("--max-memory takes sizes such as 512M and refuses what is not one")
  func sizes() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = root.appendingPathComponent("Datasets/logs/tiny.csv").path
    for good in ["512M", "1.5G", "800000", "64KiB"] {
      let r = try CLI.run(["replay", "--log", log, "--max-memory", good, "--out", "ok", "--quiet", "--overwrite"], in: folder)
      #expect(r.status == 0, "\(good): \(r.stderr)")
    }
    for bad in ["lots", "0", "0.5", "1.2.3G", "12X", "4 G"] {
      let r = try CLI.run(["replay", "--log", log, "--max-memory", bad, "--out", "bad"], in: folder)
      #expect(r.status == 64, "\(bad): \(r.stderr)")
      #expect(r.stderr.contains("--max-memory must be a size such as 512M"), "\(bad): \(r.stderr)")
    }
  }
}
