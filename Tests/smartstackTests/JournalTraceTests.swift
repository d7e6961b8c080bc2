import Foundation
import Testing

private let tiny = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets/experiments/tiny.json").path
private let reportFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv", "trace.csv"]

private func bytes(_ folder: URL, _ names: [String]) throws -> [String: Data] {
  var result: [String: Data] = [:]
  for name in names { result[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
  return result
}

/// Every regular file under `folder` (recursively) with its inode and size.
private func regularFiles(under folder: URL) throws -> [(path: String, inode: UInt64, size: Int)] {
  let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
  return try names.compactMap { name in
    let path = folder.appendingPathComponent(name).path
    let a = try FileManager.default.attributesOfItem(atPath: path)
    guard a[.type] as? FileAttributeType == .typeRegular else { return nil }
    return (name, (a[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0, (a[.size] as? NSNumber)?.intValue ?? 0)
  }
}

/// The journal's trace rows after a finished traced run (issue 29 item 15): the journal
/// shares the published `trace.csv`'s bytes instead of holding a second copy, and
/// `--resume` and `merge` still write the same bytes.
@Suite("the journal's trace rows after a finished run")
struct JournalTraceTests {
  @Test func aFinishedTracedRunKeepsNoSecondCopyOfTheTrace() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    let out = folder.appendingPathComponent("out")
    let published = try #require(try regularFiles(under: out).first { $0.path == "trace.csv" })
    let journal = try regularFiles(under: out.appendingPathComponent(".journal"))
    // No cell file is left, and the journal's one file of trace rows is the published
    // file itself (the same inode): the trace's bytes are on disk once.
    #expect(journal.filter { $0.path.contains("/cell-") }.isEmpty, "\(journal.map(\.path))")
    let traces = journal.filter { $0.path.hasPrefix("trace-") && $0.path.hasSuffix(".csv") && !$0.path.hasSuffix("/index.csv") }
    #expect(traces.map(\.inode) == [published.inode], "\(traces)")
  }

  @Test func resumingAFinishedTracedRunWritesTheSameBytes() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace"], in: folder).status == 0)
    let out = folder.appendingPathComponent("out")
    let before = try bytes(out, reportFiles)
    // The published trace.csv may even be gone: the journal's link keeps its bytes.
    try FileManager.default.removeItem(at: out.appendingPathComponent("trace.csv"))
    let r = try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace", "--resume"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try bytes(out, reportFiles) == before)
    // And a second time, from the journal the resumed run folded.
    let again = try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace", "--resume"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try bytes(out, reportFiles) == before)
  }

  @Test func mergingFinishedTracedShardsWritesTheFilesOfOneRun() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["batch", tiny, "--out", "whole", "--quiet", "--trace"], in: folder).status == 0)
    for k in 1...2 {
      let r = try CLI.run(["batch", tiny, "--shard", "\(k)/2", "--out", "s\(k)", "--quiet", "--trace"], in: folder)
      #expect(r.status == 0, "\(r.stderr)")
      let journal = try regularFiles(under: folder.appendingPathComponent("s\(k)/.journal"))
      #expect(journal.filter { $0.path.contains("/cell-") }.isEmpty)
    }
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(
      try bytes(folder.appendingPathComponent("merged"), reportFiles)
        == bytes(folder.appendingPathComponent("whole"), reportFiles))
  }

  @Test func aTraceChangedAfterTheRunIsNamedOnResume() throws {
    let folder = try CLI.temporaryFolder()
    #expect(try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace"], in: folder).status == 0)
    // Changed in place (the same inode as the journal's link): a byte of the last row.
    let trace = folder.appendingPathComponent("out/trace.csv")
    let handle = try FileHandle(forUpdating: trace)
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: size - 2)
    try handle.write(contentsOf: Data("X".utf8))
    try handle.close()
    let r = try CLI.run(["batch", tiny, "--out", "out", "--quiet", "--trace", "--resume"], in: folder)
    #expect(r.status != 0)
    #expect(r.stderr.contains("was changed after the run"), "\(r.stderr)")
  }
}
