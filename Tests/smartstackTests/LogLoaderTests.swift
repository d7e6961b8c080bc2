import Foundation
import SmartStackKit
import Testing

@testable import SmartStackCommands

private let logs = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")
private let commuter = logs.appendingPathComponent("logs/commuter").path
private let timelines = logs.appendingPathComponent("timelines/commuter.json").path

/// Issue 31, item 1: one loader of a log source's inputs (`LogLoader`) for `replay` and
/// `batch`, reading each file by path, hashing it mapped, and reading a file shared by
/// several source points once.
@Suite("LogLoader: one reader of a log source's files for replay and batch")
struct LogLoaderTests {
  /// The commuter log with its visit log, stack file and timelines, a horizon of 120 s,
  /// one warm-up day and a zone.
  static let replayArguments = [
    "--log", "\(commuter)/donations.csv", "--visits", "\(commuter)/visits.csv",
    "--stack", "\(commuter)/stack.json", "--timelines", timelines, "--horizon", "120",
    "--warmup-days", "1", "--timezone", "Europe/Berlin",
  ]

  @Test func replayOptionsAndAnEquivalentConfigLoadTheSameInputs() throws {
    let fromReplay = try ReplayInputOptions.parse(Self.replayArguments).load()

    let folder = try CLI.temporaryFolder()
    let config = try CLI.write(
      """
      {"sources": [{"log": "\(commuter)/donations.csv", "visits": "\(commuter)/visits.csv",
        "stack": "\(commuter)/stack.json", "timelines": "\(timelines)", "horizon": 120,
        "warmupDays": 1, "timezone": "Europe/Berlin"}]}
      """, to: "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: config)
    guard case .log(let input) = design.sources[0].input else {
      Issue.record("not a log source")
      return
    }
    var loader = LogLoader()
    let fromConfig = try loader.load(input, engine: design.sources[0].engine)

    #expect(fromReplay.log == fromConfig.log)
    #expect(fromReplay.localTimes == fromConfig.localTimes)
    #expect(fromReplay.inputs == fromConfig.inputs)
    #expect(fromReplay.inputs.map(\.role) == ["log", "visits", "stack", "timelines"])
    #expect(fromReplay.digests == fromConfig.digests)
    let (a, b) = (fromReplay.options, fromConfig.options)
    #expect(a.visits == b.visits)
    guard case .log(let visits) = a.visits else {
      Issue.record("the visits are not the visit log")
      return
    }
    #expect(visits.count > 0)
    #expect(a.stack.description == b.stack.description)
    if case .fixed(let x) = a.stack, case .fixed(let y) = b.stack {
      #expect(x == y)
    } else {
      Issue.record("no stack file")
    }
    #expect(a.horizonSeconds == 120 && b.horizonSeconds == 120)
    #expect(a.warmupDays == 1 && b.warmupDays == 1)
    #expect(a.zone.identifier == "Europe/Berlin" && b.zone.identifier == "Europe/Berlin")
    #expect(a.timelines != nil && a.timelines == b.timelines)
    #expect(a.engine == b.engine)
  }

  @Test func aFileSharedByTwoSourcePointsIsReadAndHashedOnce() throws {
    let log = "\(commuter)/donations.csv"
    let visits = "\(commuter)/visits.csv"
    var first = LogInput(log: ConfigPath(asGiven: log))
    first.visits = .file(ConfigPath(asGiven: visits))
    var second = first
    second.horizonSeconds = 60
    var loader = LogLoader()
    let a = try loader.load(first)
    let b = try loader.load(second)
    #expect(loader.parsed == [log, visits])
    #expect(loader.hashed == [log, visits])
    #expect(a.log == b.log)
    #expect(a.digests == b.digests)
    #expect(b.options.horizonSeconds == 60)

    // Another zone changes what the log's and the visit log's naive times mean: both are
    // read again, and hashed no more.
    var third = first
    third.timezone = "Europe/Berlin"
    _ = try loader.load(third)
    #expect(loader.parsed == [log, visits, log, visits])
    #expect(loader.hashed == [log, visits])
  }

  /// The commuter log with its visit log, as a config names them.
  static func commuterInput() -> (input: LogInput, log: String, visits: String) {
    let log = "\(commuter)/donations.csv"
    let visits = "\(commuter)/visits.csv"
    var input = LogInput(log: ConfigPath(asGiven: log))
    input.visits = .file(ConfigPath(asGiven: visits))
    return (input, log, visits)
  }

  @Test func forgettingAFileReadsItAgainNextTimeAndKeepsItsDigest() throws {
    let (first, log, visits) = Self.commuterInput()
    var berlin = first
    berlin.timezone = "Europe/Berlin"
    var loader = LogLoader()
    _ = try loader.load(first)
    _ = try loader.load(berlin)
    loader.forget(log)  // under both zones
    _ = try loader.load(first)
    _ = try loader.load(berlin)
    #expect(loader.parsed == [log, visits, log, visits, log, log])
    #expect(loader.hashed == [log, visits])
  }

  @Test func aDeferredVisitLogIsNamedButNotRead() throws {
    let (input, log, visits) = Self.commuterInput()
    var loader = LogLoader()
    let loaded = try loader.load(input, deferringVisits: true)
    #expect(loader.parsed == [log])
    #expect(loader.hashed == [log, visits])
    #expect(loaded.deferredVisits == visits)
    guard case .log(let named) = loaded.options.visits else {
      Issue.record("the visits do not name the visit log")
      return
    }
    #expect(named.file == visits && named.count == 0)
    // Read later and added, it gives the plan the loader's undeferred options give.
    var plan = try ReplayPlan(donationsOf: loaded.log, options: loaded.options)
    plan.addVisits(.log(try VisitLog.read(path: visits, zone: loaded.options.zone)))
    var fresh = LogLoader()
    let whole = try ReplayPlan(log: loaded.log, options: try fresh.load(input).options)
    #expect(plan.visitCount == whole.visitCount && plan.visitCount > 0)
    #expect(plan.people.map(\.visitTarget) == whole.people.map(\.visitTarget))
    #expect(plan.notes == whole.notes)
  }

  /// A batch lets go of a file after the last source point that reads it; the points
  /// before it share one read, and every point's plan is the one a lone point would get.
  @Test func aBatchReadsASharedLogOnceAndGivesEveryPointItsVisits() throws {
    let folder = try CLI.temporaryFolder()
    let config = try CLI.write(
      """
      {"name": "s", "replicates": 1, "strategies": ["mfu"], "sources": [
        {"name": "a", "log": "\(commuter)/donations.csv", "visits": "\(commuter)/visits.csv", "horizon": 60},
        {"name": "b", "log": "\(commuter)/donations.csv", "visits": "\(commuter)/visits.csv"},
        {"name": "c", "log": "\(commuter)/donations.csv", "visits": "sessions:5"}]}
      """, to: "exp.json", in: folder)
    let sources = try SourceLoader.load(try ExperimentConfig.read(path: config))
    let plans = sources.compactMap { ($0 as? LogSource)?.plan }
    #expect(plans.count == 3)
    for (plan, arguments) in zip(plans, [
      ["--visits", "\(commuter)/visits.csv", "--horizon", "60"], ["--visits", "\(commuter)/visits.csv"],
      ["--visits", "sessions:5"],
    ]) {
      let alone = try ReplayInputOptions.parse(["--log", "\(commuter)/donations.csv"] + arguments).load()
      let expected = try ReplayPlan(log: alone.log, options: alone.options)
      #expect(plan.visitCount == expected.visitCount && plan.visitCount > 0)
      #expect(plan.people.map(\.visitTarget) == expected.people.map(\.visitTarget))
    }
  }

  @Test func eachDigestIsTheCRC32OfTheFilesBytes() throws {
    let loaded = try ReplayInputOptions.parse(Self.replayArguments).load()
    #expect(loaded.digests.count == 4)
    for (digest, input) in zip(loaded.digests, loaded.inputs) {
      let bytes = try FileIO.readBytes(digest.path)
      #expect(digest.bytes == bytes.count)
      #expect(digest.hexHash == NumberFormat.hex(CRC32.checksum(bytes)))
      #expect(input.hash == digest.hexHash)
    }
  }

  @Test func replaysManifestListsTheLoadersDigests() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(
      ["replay"] + Self.replayArguments + ["--strategy", "mfu", "--out", "out", "--quiet"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    let manifest = try String(
      contentsOf: folder.appendingPathComponent("out/manifest.json"), encoding: .utf8)
    for path in [
      "\(commuter)/donations.csv", "\(commuter)/visits.csv", "\(commuter)/stack.json", timelines,
    ] {
      let bytes = try FileIO.readBytes(path)
      #expect(manifest.contains("\"crc32\": \"\(NumberFormat.hex(CRC32.checksum(bytes)))\""), "\(path)")
      #expect(manifest.contains("\"bytes\": \(bytes.count)"), "\(path)")
    }
  }
}
