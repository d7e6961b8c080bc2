import Foundation
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let tiny = root.appendingPathComponent("Datasets/experiments/tiny.json").path
private let names = ["runs.csv", "daily.csv", "summary.csv", "paired.csv", "people.csv"]

private func files(_ folder: URL) throws -> [String: Data] {
  var result: [String: Data] = [:]
  for name in names { result[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
  return result
}

private func lines(_ path: String) throws -> [Substring] {
  try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
}

@Suite("batch --people: people.csv")
struct PeopleCSVTests {
  @Test func peopleCSVIsTheSameForJobsResumeAndMergedShards() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let one = try CLI.run(["batch", tiny, "--out", "one", "--jobs", "1", "--quiet", "--people"], in: folder)
    #expect(one.status == 0, "\(one.stderr)")
    #expect(try CLI.run(["batch", tiny, "--out", "two", "--jobs", "2", "--quiet", "--people"], in: folder).status == 0)
    let whole = try files(folder.appendingPathComponent("one"))
    #expect(try files(folder.appendingPathComponent("two")) == whole)
    // Resuming the finished run rebuilds people.csv from the journal alone.
    #expect(try CLI.run(["batch", tiny, "--out", "one", "--resume", "--quiet", "--people"], in: folder).status == 0)
    #expect(try files(folder.appendingPathComponent("one")) == whole)
    for k in 1...2 {
      let r = try CLI.run(["batch", tiny, "--shard", "\(k)/2", "--out", "s\(k)", "--quiet", "--people"], in: folder)
      #expect(r.status == 0, "\(r.stderr)")
    }
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try files(folder.appendingPathComponent("merged")) == whole)
    // Without --people, no people.csv and the other files are the same.
    #expect(try CLI.run(["batch", tiny, "--out", "plain", "--quiet"], in: folder).status == 0)
    let plain = folder.appendingPathComponent("plain")
    #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("people.csv").path))
    for name in names.dropLast() {
      #expect(try Data(contentsOf: plain.appendingPathComponent(name)) == whole[name], "\(name)")
    }
    // One row per cell and person: tiny.csv has 2 people (2 log source points), the
    // tiny scenario 3 (see its rows); 6 strategy points, 2 replicates.
    let people = try lines(folder.appendingPathComponent("one/people.csv").path)
    #expect(people[0].hasPrefix("run_id,source,strategy,parameters,replicate,person,visits,target_visits,hits,hit_rate,"))
    #expect(people[1].hasPrefix("tiny[visits=donations]|mfu|0,tiny[visits=donations],mfu,,0,0,"))
    let runs = try lines(folder.appendingPathComponent("one/runs.csv").path)
    let peopleColumn = runs[0].split(separator: ",", omittingEmptySubsequences: false).firstIndex(of: "people")!
    let total = runs.dropFirst().reduce(0) {
      $0 + Int($1.split(separator: ",", omittingEmptySubsequences: false)[peopleColumn])!
    }
    #expect(people.count == 1 + total)
  }

  @Test func aSplitSourceGetsASplitColumnAndTheConfigCanAskForIt() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("split").path
    let result = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu,mru", "--replicates", "1",
       "--split", "per-person:0.5,0.5", "--out", out, "--quiet", "--people"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let people = try lines(out + "/people.csv")
    #expect(people[0].hasPrefix("run_id,source,split,strategy,parameters,replicate,person,"))
    #expect(people.contains { $0.hasPrefix("tiny[split=test]|mfu|0,tiny[split=test],test,mfu,,0,0,") })
    // outputs.people in a config; --no-people overrides it.
    let config = try CLI.write(
      #"{"name": "p", "sources": [{"name": "t", "log": "\#(root.path)/Datasets/logs/tiny.csv"}], "strategies": ["mfu"], "replicates": 1, "outputs": {"people": true}}"#,
      to: "p.json", in: work)
    #expect(try CLI.run(["batch", config, "--out", "a", "--quiet"], in: work).status == 0)
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("a/people.csv").path))
    #expect(try CLI.run(["batch", config, "--out", "b", "--quiet", "--no-people"], in: work).status == 0)
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("b/people.csv").path))
  }
}
