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

  @Test func eachDigestIsTheFNV1aOfTheFilesBytes() throws {
    let loaded = try ReplayInputOptions.parse(Self.replayArguments).load()
    #expect(loaded.digests.count == 4)
    for (digest, input) in zip(loaded.digests, loaded.inputs) {
      let bytes = try FileIO.readBytes(digest.path)
      #expect(digest.bytes == bytes.count)
      #expect(digest.hexHash == FNV1a.hexHash(bytes))
      #expect(input.hash == FNV1a.hexHash(bytes))
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
      #expect(manifest.contains("\"fnv1a64\": \"\(FNV1a.hexHash(bytes))\""), "\(path)")
      #expect(manifest.contains("\"bytes\": \(bytes.count)"), "\(path)")
    }
  }
}
