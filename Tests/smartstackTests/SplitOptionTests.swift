import Foundation
import Testing

/// `replay --split TEXT` and `batch CONFIG --split TEXT`: the time split of `batch --log
/// FILE --split TEXT` (docs/batch.md, "Time splits"), spelled and resolved the same.
@Suite("--split on replay and on a batch config: the same windows as batch --log --split")
struct SplitOptionTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  private let log = "Datasets/logs/commuter/donations.csv"
  private let global = "train=2026-03-02..2026-03-04,validation=2026-03-05..2026-03-05,test=2026-03-06..2026-03-08"
  private var source: [String] { ["--log", log, "--visits", "sessions:5", "--timezone", "Europe/Berlin"] }

  /// The rows of a CSV file without quoted fields, as dictionaries by header name.
  private func rows(_ path: String) throws -> [[String: String]] {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
  }

  @Test("replay --split scores each window as batch --log --split does, every metric equal, keyed by split")
  func replayMatchesBatch() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let replay = try CLI.run(
      ["replay"] + source + ["--split", global, "--strategy", "mfu,hour-of-week", "--out", work.path + "/replay"], in: root)
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(replay.stderr.contains("visits (validation 483, test 1368)"), "\(replay.stderr)")
    let batch = try CLI.run(
      ["batch"] + source + ["--split", global, "--strategy", "mfu,hour-of-week", "--replicates", "1",
        "--out", work.path + "/batch", "--quiet"], in: root)
    #expect(batch.status == 0, "\(batch.stderr)")
    let replayed = try rows(work.path + "/replay/runs.csv")
    let batched = try rows(work.path + "/batch/runs.csv")
    #expect(replayed.map { $0["source"] ?? "" } == [
      "donations.csv[split=validation]", "donations.csv[split=validation]",
      "donations.csv[split=test]", "donations.csv[split=test]",
    ])
    #expect(replayed.count == batched.count)
    for (r, b) in zip(replayed, batched) {
      for key in r.keys where !["source", "seed"].contains(key) {
        #expect(r[key] == b[key], "\(r["split"] ?? "") \(r["strategy"] ?? "") \(key)")
      }
    }
    let daily = try String(contentsOfFile: work.path + "/replay/daily.csv", encoding: .utf8)
    #expect(daily.hasPrefix("source,split,strategy,parameters,replicate,day,date,"))
    #expect(daily.contains("\ndonations.csv[split=test],test,mfu,,0,0,2026-03-06,"), "\(daily)")
  }

  @Test("a rolling back-test replays one source per fold; without --split the tables have no split column")
  func rollingAndNone() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let folds = try CLI.run(
      ["replay"] + source + ["--split", "rolling:folds=2:test-days=1", "--strategy", "mfu", "--out", work.path + "/folds", "--quiet"],
      in: root)
    #expect(folds.status == 0, "\(folds.stderr)")
    #expect(try rows(work.path + "/folds/runs.csv").map { $0["split"] ?? "" } == ["fold1", "fold2"])
    let plain = try CLI.run(["replay"] + source + ["--strategy", "mfu", "--out", work.path + "/plain", "--quiet"], in: root)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(try String(contentsOfFile: work.path + "/plain/runs.csv", encoding: .utf8).hasPrefix("source,strategy,"))
  }

  @Test("a malformed --split, or windows outside the log's dates, are usage errors; nothing is written")
  func replayErrors() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    for (split, message) in [
      ("rolling:folds=4", "--split: expected rolling:folds=K:test-days=T, found 'rolling:folds=4'"),
      ("train=2026-03-01..2026-03-02,test=2026-03-06..2026-03-08", "--split: train (2026-03-01..2026-03-02) lies outside the log's dates"),
    ] {
      let r = try CLI.run(["replay"] + source + ["--split", split, "--out", work.path + "/r"], in: root)
      #expect(r.status == 64, "\(r.stderr)")
      #expect(r.stderr.contains(message), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: work.path + "/r/runs.csv"))
    }
  }

  @Test("batch CONFIG --split gives the runs of the config with that split written in it")
  func configSplit() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let logPath = root.appendingPathComponent(log).path
    func config(_ split: String?) -> String {
      let member = split.map { ", \"split\": \"\($0)\"" } ?? ""
      return """
        {"name": "c", "replicates": 1, "strategies": ["mfu", "hour-of-week"],
         "sources": [{"name": "commuter", "log": "\(logPath)", "visits": "sessions:5", "timezone": "Europe/Berlin"\(member)}]}

        """
    }
    let plain = try CLI.write(config(nil), to: "plain.json", in: work)
    let written = try CLI.write(config(global), to: "written.json", in: work)
    let viaOption = try CLI.run(["batch", plain, "--split", global, "--out", "a", "--quiet"], in: work)
    #expect(viaOption.status == 0, "\(viaOption.stderr)")
    let inFile = try CLI.run(["batch", written, "--out", "b", "--quiet"], in: work)
    #expect(inFile.status == 0, "\(inFile.stderr)")
    for table in ["runs.csv", "summary.csv", "paired.csv"] {
      let a = try Data(contentsOf: work.appendingPathComponent("a/" + table))
      #expect(a == (try Data(contentsOf: work.appendingPathComponent("b/" + table))), "\(table)")
    }
    let same = try CLI.run(["batch", written, "--split", global, "--out", "c", "--quiet"], in: work)
    #expect(same.status == 0, "the same split in both places agrees: \(same.stderr)")
    let conflict = try CLI.run(["batch", written, "--split", "rolling:folds=2:test-days=1", "--out", "d"], in: work)
    #expect(conflict.status == 65, "\(conflict.stderr)")
    #expect(
      conflict.stderr.contains("written.json:2:")
        && conflict.stderr.contains(
          "sources[0].split: the source's split \(global) conflicts with --split rolling:folds=2:test-days=1: give the split in one place"),
      "\(conflict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.path + "/d"))
  }

  @Test("--split with a scenario, on the quick path or in a config of scenarios only, is a usage error")
  func scenarios() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let quick = try CLI.run(
      ["batch", "--scenario", InterruptedBatchTests.scenarioPath, "--split", "rolling:folds=2:test-days=1", "--strategy", "mfu"],
      in: work)
    #expect(quick.status == 64, "\(quick.stderr)")
    #expect(quick.stderr.contains("--split splits a log source in time; --scenario has no log"), "\(quick.stderr)")
    let file = try CLI.write(
      "{\"sources\": [{\"scenario\": \"\(InterruptedBatchTests.scenarioPath)\", \"days\": 2}], \"strategies\": [\"mfu\"]}\n",
      to: "s.json", in: work)
    let config = try CLI.run(["batch", file, "--split", "rolling:folds=2:test-days=1", "--out", "s"], in: work)
    #expect(config.status == 64, "\(config.stderr)")
    #expect(config.stderr.contains("--split splits log sources in time, and the config has none"), "\(config.stderr)")
  }
}
