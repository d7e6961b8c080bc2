import Foundation
import Testing

/// `batch --shard K/N --people-block SIZE` (docs/batch.md, "People shards"): shards that
/// share a log's people, merged into the bytes of one run.
@Suite("People shards: a log's people split over shards merge into one run's bytes")
struct PeopleShardsTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The commuter log (20 people) and tiny.csv (2 people), three strategies, two
  /// replicates, people.csv on; with `scenario`, also 2 days of the commuter scenario
  /// (20 people).
  private func config(in folder: URL, scenario: Bool = false, trace: Bool = false) throws -> String {
    let logs = root.appendingPathComponent("Datasets/logs").path
    let sim =
      scenario
      ? #", {"name": "sim", "scenario": "\#(root.appendingPathComponent("Datasets/scenarios/commuter.json").path)", "days": 2}"#
      : ""
    return try CLI.write(
      """
      {"name": "people-shards", "seed": 5, "replicates": 2, "baseline": "mfu",
       "outputs": {"people": true, "trace": \(trace)},
       "sources": [{"name": "commuter", "log": "\(logs)/commuter/donations.csv", "visits": "sessions:5",
         "timezone": "Europe/Berlin"},
         {"name": "tiny", "log": "\(logs)/tiny.csv", "visits": "sessions:5"}\(sim)],
       "strategies": ["mfu", "hour-of-week", "oracle"]}

      """, to: "people.json", in: folder)
  }

  /// Runs shards 1/n … n/n of `file` with blocks of `block` people into `prefix`1 …,
  /// then merges them into `merged`; returns the merge's result.
  private func shardAndMerge(
    _ file: String, n: Int, block: Int, jobs: Int, prefix: String, merged: String, in folder: URL
  ) throws -> CLI.Result {
    for k in 1...n {
      let shard = try CLI.run(
        ["batch", file, "--shard", "\(k)/\(n)", "--people-block", "\(block)", "--jobs", "\(jobs)",
         "--out", "\(prefix)\(k)", "--quiet"], in: folder)
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    return try CLI.run(["merge"] + (1...n).map { "\(prefix)\($0)" } + ["--out", merged, "--quiet"], in: folder)
  }

  @Test(
    "people shards of logs, for 2 and 3 shards and 1 and 2 jobs, merge into every report of one run byte for byte",
    arguments: [(2, 1), (2, 2), (3, 1), (3, 2)])
  func mergedPeopleShardsEqualOneRun(shards: Int, jobs: Int) throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    let whole = try CLI.run(["batch", file, "--out", "whole", "--quiet"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    let merge = try shardAndMerge(file, n: shards, block: 3, jobs: jobs, prefix: "s", merged: "merged", in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    let one = try CLI.reports(folder.appendingPathComponent("whole"))
    #expect(Set(one.keys) == ["runs.csv", "daily.csv", "summary.csv", "paired.csv", "people.csv"])
    #expect(try CLI.reports(folder.appendingPathComponent("merged")) == one)
    // The shards really share the commuter log's people: the first two blocks of cell 0
    // are in shards 1 and 2.
    for (k, block) in [(1, "[0,3]"), (2, "[3,6]")] {
      let journal = try String(
        contentsOf: folder.appendingPathComponent("s\(k)/.journal/shard-\(k)-of-\(shards).jsonl"), encoding: .utf8)
      #expect(journal.contains("\"people_block\":3"), "\(journal.prefix(300))")
      #expect(journal.contains("\"cell\":0,\"run_id\":\"commuter|mfu|0\",\"block\":\(block)"))
    }
  }

  @Test(
    "a scenario's people are cut into blocks too, for 2 shards and 1 and 2 jobs, and the merge is one run's bytes, simulation counts included",
    arguments: [1, 2])
  func scenarioPeopleShards(jobs: Int) throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder, scenario: true)
    let whole = try CLI.run(["batch", file, "--out", "whole", "--quiet"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    let merge = try shardAndMerge(file, n: 2, block: 6, jobs: jobs, prefix: "s", merged: "merged", in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try CLI.reports(folder.appendingPathComponent("merged")) == CLI.reports(folder.appendingPathComponent("whole")))
    // The scenario's first cell: blocks of 6 of its 20 people, in both shards, with
    // their simulation counts.
    let sims = try (1...2).map { k in
      try String(contentsOf: folder.appendingPathComponent("s\(k)/.journal/shard-\(k)-of-2.jsonl"), encoding: .utf8)
        .split(separator: "\n").filter { $0.contains("\"run_id\":\"sim|mfu|0\",\"block\":") }
    }
    #expect(sims.map(\.count) == [2, 2], "\(sims.map(\.count))")
    #expect(sims.joined().allSatisfy { $0.contains("\"sim\":[") })
  }

  @Test("a people block as large as every source's people is a note: the shards take whole cells")
  func blocksLargerThanEverySource() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    let r = try CLI.run(["batch", file, "--shard", "1/2", "--people-block", "20", "--out", "s1"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains("note: no source has more than 20 people (--people-block): the shards take whole cells"),
      "\(r.stderr)")
  }

  @Test("an interrupted people shard resumed with --resume runs only its missing units and merges into one run's bytes")
  func resumedPeopleShard() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    #expect(try CLI.run(["batch", file, "--out", "whole", "--quiet"], in: folder).status == 0)
    #expect(try shardAndMerge(file, n: 2, block: 3, jobs: 2, prefix: "s", merged: "merged", in: folder).status == 0)
    // Keep the header and three units of shard 1's journal, plus half of the next line.
    let journalURL = folder.appendingPathComponent("s1/.journal/shard-1-of-2.jsonl")
    let lines = try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count > 6)
    let kept = lines.prefix(4).joined(separator: "\n") + "\n" + String(lines[4].prefix(40))
    try Data(kept.utf8).write(to: journalURL)
    let resumed = try CLI.run(
      ["batch", file, "--shard", "1/2", "--people-block", "3", "--out", "s1", "--resume"], in: folder)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("\(lines.count - 2) units of cells and people blocks: \(lines.count - 5) run, 3 from the journal"), "\(resumed.stderr)")
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--overwrite", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try CLI.reports(folder.appendingPathComponent("merged")) == CLI.reports(folder.appendingPathComponent("whole")))
  }

  @Test("--people-block below 1, without --shard, or with a trace is a usage error that writes nothing")
  func usageRefusals() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    let zero = try CLI.run(["batch", file, "--shard", "1/2", "--people-block", "0", "--out", "o"], in: folder)
    #expect(zero.status == 64)
    #expect(zero.stderr.contains("--people-block must be at least 1"), "\(zero.stderr)")
    let alone = try CLI.run(["batch", file, "--people-block", "5", "--out", "o"], in: folder)
    #expect(alone.status == 64)
    #expect(alone.stderr.contains("give it with --shard"), "\(alone.stderr)")
    let traced = try CLI.run(["batch", file, "--shard", "1/2", "--people-block", "5", "--trace", "--out", "o"], in: folder)
    #expect(traced.status == 64)
    #expect(traced.stderr.contains("error: --trace asks for trace.csv, which is kept per cell"), "\(traced.stderr)")
    // Asked for by the config: the error points at outputs.trace.
    let tracedFile = try config(in: folder, trace: true)
    let configured = try CLI.run(["batch", tracedFile, "--shard", "1/2", "--people-block", "5", "--out", "o"], in: folder)
    #expect(configured.status == 64)
    #expect(
      configured.stderr.contains("\(tracedFile):2:39: outputs.trace: true asks for trace.csv, which is kept per cell"),
      "\(configured.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o").path))
  }

  @Test("resuming with another block size, and merging without a shard, are refused naming the journal or the missing people")
  func dataRefusals() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    #expect(try CLI.run(["batch", file, "--shard", "1/2", "--people-block", "3", "--out", "s1", "--quiet"], in: folder).status == 0)
    let other = try CLI.run(
      ["batch", file, "--shard", "1/2", "--people-block", "4", "--out", "s1", "--resume"], in: folder)
    #expect(other.status == 65)
    #expect(
      other.stderr.contains("s1/.journal/shard-1-of-2.jsonl was written with people blocks of 3, not people blocks of 4"),
      "\(other.stderr)")
    let merge = try CLI.run(["merge", "s1", "--out", "merged"], in: folder)
    #expect(merge.status == 65)
    #expect(merge.stderr.contains("(shards not given: 2/2)"), "\(merge.stderr)")
    #expect(merge.stderr.contains("commuter|mfu|0 people 3..<6"), "\(merge.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path))
  }
}
