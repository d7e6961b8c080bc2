import Foundation
import Testing

/// `simulate --emit-log FOLDER` claims its folder before any work and publishes its logs
/// with a manifest (`"run": "logs"`), as a report folder is (issue 30, item 12): a second
/// run with another seed is refused, `--overwrite` replaces exactly the first run's files,
/// and a log no manifest lists is never replaced. The folder stays an input of `replay`.
@Suite("An --emit-log folder is claimed and published like a report folder")
struct EmitLogClaimTests {
  static func simulate(_ extra: [String], in work: URL) throws -> CLI.Result {
    try CLI.run(["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--days", "2", "--quiet"] + extra, in: work)
  }

  @Test("two runs with different seeds into one --emit-log folder: the second is refused, or replaces the first with --overwrite")
  func anotherRunsFolder() throws {
    let work = try ExposureFolderClaimTests.work()
    let w = work.appendingPathComponent("w")
    let first = try Self.simulate(["--out", "a", "--emit-log", "w"], in: work)
    #expect(first.status == 0, "\(first.stderr)")
    let written = try CLI.files(in: w)
    #expect(written.keys.sorted() == ["donations.csv", "manifest.json", "stack.json", "timelines.json", "visits.csv"])
    let manifest = try String(contentsOf: w.appendingPathComponent("manifest.json"), encoding: .utf8)
    #expect(manifest.contains(#""run": "logs""#))
    #expect(manifest.contains(#""name": "donations.csv""#))

    let second = try Self.simulate(["--seed", "2", "--out", "b", "--emit-log", "w"], in: work)
    #expect(second.status == 73)
    #expect(second.stderr.contains("w: cannot write: it holds the simulated logs of another run (smartstack simulate --emit-log"), "\(second.stderr)")
    #expect(second.stderr.contains("--overwrite"))
    #expect(try CLI.files(in: w) == written)
    // Refused at the start: nothing ran, --out was not made.
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("b").path))

    // The same run again replaces its own logs.
    let again = try Self.simulate(["--out", "a", "--emit-log", "w"], in: work)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try CLI.files(in: w).keys.sorted() == written.keys.sorted())

    // --overwrite: exactly the first run's listed files are replaced; a note stays.
    try CLI.write("notes\n", to: "w/notes.txt", in: work)
    let replaced = try Self.simulate(["--seed", "2", "--out", "b", "--emit-log", "w", "--emit-format", "jsonl", "--overwrite"], in: work)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let now = try CLI.files(in: w)
    #expect(now.keys.sorted() == ["donations.jsonl", "manifest.json", "notes.txt", "stack.json", "timelines.json", "visits.csv"])
    #expect(now["notes.txt"] == Data("notes\n".utf8))
    #expect(now["visits.csv"] != written["visits.csv"])
    let second2 = try String(contentsOf: w.appendingPathComponent("manifest.json"), encoding: .utf8)
    #expect(second2.contains(#""--seed","#) && second2.contains(#""name": "donations.jsonl""#))
  }

  @Test("a log no manifest lists is never replaced; --emit-log is not --out")
  func strangersLog() throws {
    let work = try ExposureFolderClaimTests.work()
    try CLI.write("mine\n", to: "w/visits.csv", in: work)
    for extra in [[], ["--overwrite"]] {
      let r = try Self.simulate(["--out", "a", "--emit-log", "w"] + extra, in: work)
      #expect(r.status == 73, "\(extra)")
      #expect(r.stderr.contains("w/visits.csv: cannot write: no manifest.json in w lists it"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("a").path))
    }
    #expect(try CLI.files(in: work.appendingPathComponent("w")) == ["visits.csv": Data("mine\n".utf8)])
    let same = try Self.simulate(["--out", "s", "--emit-log", "./s"], in: work)
    #expect(same.status == 64)
    #expect(same.stderr.contains("is the run's own --out folder"), "\(same.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("s").path))
  }

  @Test("a log set's files are read by replay, never written by other commands; report says what the folder is")
  func readNotWritten() throws {
    let work = try ExposureFolderClaimTests.work()
    #expect(try Self.simulate(["--out", "a", "--emit-log", "w"], in: work).status == 0)
    let before = try CLI.files(in: work.appendingPathComponent("w"))
    let replay = try CLI.run(
      ["replay", "--log", "w/donations.csv", "--visits", "w/visits.csv", "--stack", "w/stack.json",
       "--timelines", "w/timelines.json", "--timezone", "Europe/Berlin", "--horizon", "0", "--strategy", "mfu",
       "--out", "rep", "--quiet"], in: work)
    #expect(replay.status == 0, "\(replay.stderr)")
    let lsapp = ExposureFolderClaimTests.repository.appendingPathComponent("Tests/Fixtures/importers/lsapp.tsv").path
    for output in ["w/donations.csv", "w/manifest.json"] {
      let r = try CLI.run(["import", "lsapp", lsapp, "--out", output], in: work)
      #expect(r.status == 73, "\(output)")
      #expect(r.stderr.contains("holds a log set"), "\(output): \(r.stderr)")
    }
    let reports = try CLI.run(["simulate", "--scenario", "sc.json", "--strategy", "mfu", "--out", "w", "--overwrite", "--quiet"], in: work)
    #expect(reports.status == 73)
    #expect(reports.stderr.contains("it holds the simulated logs of another run"), "\(reports.stderr)")
    let exposures = try CLI.run(["batch", "exp.json", "--out", "e", "--emit-exposures", "w", "--overwrite", "--quiet"], in: work)
    #expect(exposures.status == 73)
    #expect(exposures.stderr.contains("it holds the simulated logs of another run"), "\(exposures.stderr)")
    #expect(try CLI.files(in: work.appendingPathComponent("w")) == before)
    let report = try CLI.run(["report", "w"], in: work)
    #expect(report.status == 65)
    #expect(report.stderr.contains("w holds simulated logs"), "\(report.stderr)")
    #expect(report.stderr.contains("smartstack replay --log w/donations.csv"), "\(report.stderr)")
  }
}
