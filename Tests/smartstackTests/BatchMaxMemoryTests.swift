import Foundation
import Testing

/// `batch --max-memory SIZE`: log source points whose plans would not fit are replayed in
/// blocks of people from a spill on disk, to the same reports.
@Suite("batch --max-memory: log points over the budget replay in blocks of people, to the same bytes")
struct BatchMaxMemoryTests {
  /// 700 people (three spill buckets of 256), each with donations of seven kinds on two
  /// days and a visit a minute before each; in `folder`. (The reports round what a sum's
  /// order changes in its last bits: `SpilledLogSourceTests` compares the metrics' bits.)
  static func manyPeople(in folder: URL) throws -> (log: String, visits: String) {
    var log = "timestamp,user,kind\n"
    var visits = "timestamp,user\n"
    let kinds = ["Weather", "Music", "Notes", "Maps", "News", "Photos", "Stocks"]
    for day in 2...3 {
      for hour in 7..<19 {
        for p in 0..<700 where (p + hour) % 5 == 0 {
          let minute = (p * 7 + hour) % 58 + 1
          visits += String(format: "2026-03-%02dT%02d:%02d:00Z,person-%03d\n", day, hour, minute - 1, p)
          log += String(format: "2026-03-%02dT%02d:%02d:00Z,person-%03d,", day, hour, minute, p) + kinds[(p * hour + day) % 7] + "\n"
        }
      }
    }
    return (try CLI.write(log, to: "log.csv", in: folder), try CLI.write(visits, to: "visits.csv", in: folder))
  }

  @Test func aBatchInBlocksWritesTheReportsOfTheBatchInMemory() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try Self.manyPeople(in: folder)
    let arguments = ["batch", "--log", log, "--visits", visits, "--strategy", "mfu,random,oracle", "--replicates", "2"]
    let memory = try CLI.run(arguments + ["--out", "memory"], in: folder)
    #expect(memory.status == 0, "\(memory.stderr)")
    #expect(!memory.stderr.contains("block"))
    let blocks = try CLI.run(arguments + ["--out", "blocks", "--max-memory", "1K"], in: folder)
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(
      blocks.stderr.contains(
        "note: log: replayed in 3 blocks of people from a spill on disk: its plan would take about "),
      "\(blocks.stderr)")
    #expect(
      blocks.stderr.contains(
        "and the log points' plans together more than half the memory budget, 1 kB (--max-memory); the reports are the same bytes"))
    #expect(try CLI.reports(folder.appendingPathComponent("blocks")) == CLI.reports(folder.appendingPathComponent("memory")))
    // With the trace the plans stay whole (trace.csv needs them), and there is no note.
    let traced = try CLI.run(arguments + ["--out", "traced", "--max-memory", "1K", "--trace"], in: folder)
    #expect(traced.status == 0, "\(traced.stderr)")
    #expect(!traced.stderr.contains("block"), "\(traced.stderr)")
  }

  /// A batch killed after 3 of its 6 cells in memory, resumed in blocks: the journaled
  /// cells are taken (the sources' statistics are the same either way), the rest run in
  /// blocks, and the reports are those of one uninterrupted run.
  @Test func aBatchKilledInMemoryResumesInBlocksToTheSameReports() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try Self.manyPeople(in: folder)
    let arguments = [
      "batch", "--log", log, "--visits", visits, "--strategy", "mfu,random,oracle", "--replicates", "2", "--jobs", "1",
    ]
    let killed = try CLI.run(arguments + ["--out", "run", "--quiet"], in: folder, environment: ["SMARTSTACK_CRASH_AT": "cell:3"])
    #expect(killed.status == SIGKILL, "\(killed.stderr)")
    let resumed = try CLI.run(arguments + ["--out", "run", "--resume", "--max-memory", "1K"], in: folder)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("(6 cells: 3 run, 3 from the journal"), "\(resumed.stderr)")
    #expect(resumed.stderr.contains("replayed in 3 blocks of people"), "\(resumed.stderr)")
    let whole = try CLI.run(arguments + ["--out", "whole", "--quiet"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(try CLI.reports(folder.appendingPathComponent("run")) == CLI.reports(folder.appendingPathComponent("whole")))
  }

  /// People shards of a log in blocks (blocks of 250 people across the spill's buckets of
  /// 256), merged: the bytes of one run in memory.
  @Test func peopleShardsOfALogInBlocksMergeIntoOneRunInMemory() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (log, visits) = try Self.manyPeople(in: folder)
    let arguments = ["batch", "--log", log, "--visits", visits, "--strategy", "mfu,random", "--replicates", "2", "--quiet"]
    for k in 1...2 {
      let shard = try CLI.run(
        arguments + ["--shard", "\(k)/2", "--people-block", "250", "--max-memory", "1K", "--out", "s\(k)"], in: folder)
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    let whole = try CLI.run(arguments + ["--out", "whole"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(try CLI.reports(folder.appendingPathComponent("merged")) == CLI.reports(folder.appendingPathComponent("whole")))
  }

  @Test func aSizeItCannotReadIsRefused() throws {
    for size in ["abc", "0", "-1G", "1X"] {
      let result = try CLI.run(["batch", "--max-memory=\(size)"])
      #expect(result.status == 64, "\(size): \(result.stderr)")
      #expect(result.stderr.contains("--max-memory must be a size such as 512M, 4G or 800000 (bytes), not '\(size)'"))
    }
  }
}
