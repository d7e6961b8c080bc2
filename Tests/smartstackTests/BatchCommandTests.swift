import Foundation
import Testing

/// The repository's `Datasets/` folder.
private let datasets = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")
private let tiny = datasets.appendingPathComponent("experiments/tiny.json").path
private let csvFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]

private func files(_ folder: URL, _ names: [String] = csvFiles) throws -> [String: Data] {
  var result: [String: Data] = [:]
  for name in names { result[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
  return result
}

@Suite("smartstack batch, merge and report")
struct BatchCommandTests {
  @Test func batchWritesEveryFileAndPrintsTheTables() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(["batch", tiny, "--out", "out"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    let out = folder.appendingPathComponent("out")
    for name in csvFiles + ["manifest.json"] {
      #expect(
        FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
    }
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("trace.csv").path))
    let runs = String(
      decoding: try Data(contentsOf: out.appendingPathComponent("runs.csv")), as: UTF8.self)
    let lines = runs.split(separator: "\n")
    #expect(
      lines[0]
        == "run_id,source,strategy,parameters,replicate,seed,people,visits,target_visits,hits,hit_rate,hit_rate_macro,hit_at_3,mrr,mrr_macro,coverage,rotations,rotations_per_day,relevance_visits,relevance_honoured,suppression_violations,windows,windows_surfaced,median_time_to_surface_s,exposure_gini,regret,taps,manual_opens,swipes,unacted_wants,reloads_requested,reloads_granted,reloads_refused,reloads_coalesced,suggestion_windows"
    )
    // 3 source points (a log with visits swept, a scenario) × 6 strategy points × 2 replicates.
    #expect(lines.count == 1 + 36)
    // Scenario rows fill the simulation columns; log rows leave them empty.
    #expect(lines[1].hasSuffix(",,,,,,,,,"))
    #expect(lines[36].hasPrefix("tiny-world|oracle|1,tiny-world,oracle,,1,7,2,"))
    #expect(!lines[36].hasSuffix(","))
    #expect(lines[1].hasPrefix("tiny[visits=donations]|mfu|0,tiny[visits=donations],mfu,,0,7,3,"))
    let summaryHeader = String(
      decoding: try Data(contentsOf: out.appendingPathComponent("summary.csv")), as: UTF8.self
    )
    .split(separator: "\n")[0]
    #expect(summaryHeader == "source,strategy,parameters,label,metric,mean,ci_low,ci_high,n")
    let pairedHeader = String(
      decoding: try Data(contentsOf: out.appendingPathComponent("paired.csv")), as: UTF8.self
    )
    .split(separator: "\n")[0]
    #expect(
      pairedHeader
        == "source,strategy,parameters,label,baseline,metric,mean_difference,ci_low,ci_high,p_value,n")
    #expect(r.stdout.hasPrefix("hit_rate (higher is better): per-unit means"))
    #expect(r.stdout.contains("| oracle "))
    #expect(r.stdout.contains("tiny[visits=sessions:30]"))
    #expect(r.stderr.contains("batch: 36/36 cells done"))
    #expect(r.stderr.contains("wrote tiny to out/"))
    let manifest = String(
      decoding: try Data(contentsOf: out.appendingPathComponent("manifest.json")), as: UTF8.self)
    #expect(manifest.contains("\"version\": \"0.1.0\""))
    #expect(manifest.contains("\"config_hash\": "))
    #expect(manifest.contains("\"fnv1a64\": "))
  }

  @Test func reportPrintsWhatBatchPrinted() throws {
    let folder = try CLI.temporaryFolder()
    let batch = try CLI.run(["batch", tiny, "--out", "out"], in: folder)
    let report = try CLI.run(["report", "out"], in: folder)
    #expect(report.status == 0)
    #expect(report.stdout == batch.stdout)
  }

  @Test func jobsOneAndTwoWriteTheSameBytes() throws {
    let folder = try CLI.temporaryFolder()
    #expect(
      try CLI.run(["batch", tiny, "--out", "one", "--jobs", "1", "--quiet", "--trace"], in: folder)
        .status == 0)
    #expect(
      try CLI.run(["batch", tiny, "--out", "two", "--jobs", "2", "--quiet", "--trace"], in: folder)
        .status == 0)
    let names = csvFiles + ["trace.csv"]
    #expect(
      try files(folder.appendingPathComponent("one"), names)
        == files(folder.appendingPathComponent("two"), names))
  }

  @Test func threeShardsMergeIntoTheFilesOfOneRun() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["batch", tiny, "--out", "whole", "--quiet"], in: folder).status == 0)
    for k in 1...3 {
      let r = try CLI.run(["batch", tiny, "--shard", "\(k)/3", "--out", "s\(k)"], in: folder)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("wrote shard \(k)/3 of tiny"))
    }
    let merge = try CLI.run(["merge", "s1", "s2", "s3", "--out", "merged"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(merge.stdout.hasPrefix("hit_rate (higher is better): per-unit means"))
    #expect(
      try files(folder.appendingPathComponent("merged"))
        == files(folder.appendingPathComponent("whole")))
    let partial = try CLI.run(["merge", "s1", "s2", "--out", "m2"], in: folder)
    #expect(partial.status == 65)
    #expect(partial.stderr.contains("cells are in no journal (shards not given: 3/3)"))
  }

  @Test func resumeAfterAnInterruptionWritesTheSameBytes() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["batch", tiny, "--out", "whole", "--quiet"], in: folder).status == 0)
    #expect(try CLI.run(["batch", tiny, "--out", "cut", "--quiet"], in: folder).status == 0)
    // As if killed after 10 cells, mid-way through writing the 11th line.
    let journal = folder.appendingPathComponent("cut/.journal/cells.jsonl")
    let bytes = [UInt8](try Data(contentsOf: journal))
    let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
    try Data(bytes[..<(ends[10] + 20)]).write(to: journal)
    for name in csvFiles {
      try FileManager.default.removeItem(at: folder.appendingPathComponent("cut/" + name))
    }
    let r = try CLI.run(["batch", tiny, "--out", "cut", "--resume"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("36 cells: 26 run, 10 from the journal"))
    #expect(r.stderr.contains("ignored an incomplete last line"))
    #expect(
      try files(folder.appendingPathComponent("cut"))
        == files(folder.appendingPathComponent("whole")))
    // A journal of another experiment (another seed) is refused.
    let other = try CLI.run(["batch", tiny, "--out", "cut", "--resume", "--seed", "8"], in: folder)
    #expect(other.status == 65)
    #expect(other.stderr.contains("was written by a different experiment"))
  }

  @Test func noArgumentsRunsTheBundledDefaultIntoReports() throws {
    let folder = try CLI.temporaryFolder()
    // A checkout-like folder whose default experiment is the tiny one.
    try CLI.write(
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: tiny)), as: UTF8.self),
      to: "Datasets/experiments/default.json", in: folder)
    try CLI.write(
      String(
        decoding: try Data(contentsOf: datasets.appendingPathComponent("logs/tiny.csv")),
        as: UTF8.self),
      to: "Datasets/logs/tiny.csv", in: folder)
    try CLI.write(
      String(
        decoding: try Data(contentsOf: datasets.appendingPathComponent("scenarios/tiny.json")),
        as: UTF8.self),
      to: "Datasets/scenarios/tiny.json", in: folder)
    let r = try CLI.run(["batch", "--quiet"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("reports/summary.csv").path))
    let empty = try CLI.temporaryFolder()
    let missing = try CLI.run(["batch"], in: empty)
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("run it from the repository's root folder"))
  }

  @Test func exitCodesSayWhatWentWrong() throws {
    let folder = try CLI.temporaryFolder()
    let bad = try CLI.write(
      #"{"sources": [{"log": "nope.csv"}], "replicates": 0}"#, to: "bad.json", in: folder)
    let r65 = try CLI.run(["batch", bad], in: folder)
    #expect(r65.status == 65)
    #expect(
      r65.stderr.contains("bad.json:1:50: replicates: expected an integer in 1...100000, found 0"))
    #expect(r65.stderr.contains("bad.json:1:22: sources[0].log: no such file \"nope.csv\""))
    #expect(try CLI.run(["batch", "missing.json"], in: folder).status == 66)
    #expect(try CLI.run(["batch", tiny, "--shard", "4/3"], in: folder).status == 64)
    #expect(try CLI.run(["batch", tiny, "--jobs", "0"], in: folder).status == 64)
    let unknown = try CLI.run(["batch", tiny, "--strategy", "mfu,nope"], in: folder)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown strategy 'nope'"))
    #expect(try CLI.run(["batch", tiny, "--strategy", "mru"], in: folder).status == 64)
    try CLI.write("x", to: "file", in: folder)
    #expect(try CLI.run(["batch", tiny, "--out", "file", "--quiet"], in: folder).status == 73)
    #expect(try CLI.run(["report", "nowhere"], in: folder).status == 66)
    #expect(try CLI.run(["merge", "nowhere"], in: folder).status == 66)
    let notBatch = try CLI.temporaryFolder()
    #expect(try CLI.run(["merge", notBatch.path], in: folder).status == 65)
  }

  @Test func overridesReachTheOutputs() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(
      [
        "batch", tiny, "--out", "o", "--quiet", "--seed", "99", "--replicates", "1", "--strategy",
        "mru,oracle",
        "--baseline", "oracle",
      ], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let runs = String(
      decoding: try Data(contentsOf: folder.appendingPathComponent("o/runs.csv")), as: UTF8.self
    )
    .split(separator: "\n")
    // 3 source points × 2 strategies × 1 replicate.
    #expect(runs.count == 7)
    #expect(runs[1].hasPrefix("tiny[visits=donations]|mru|0,tiny[visits=donations],mru,,0,99,"))
    let paired = String(
      decoding: try Data(contentsOf: folder.appendingPathComponent("o/paired.csv")), as: UTF8.self)
    #expect(
      paired.split(separator: "\n")[1].hasPrefix("tiny[visits=donations],mru,,mru,oracle,hit_rate,"))
  }
}
