import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// 1 source × 2 strategies × 3 replicates = 6 cells over the fixture log: small, so that
/// 400 resumes (each computing the statistics again) take seconds.
private let config = #"""
  {"name": "corruption", "seed": 42, "replicates": 3,
   "sources": [{"name": "f", "log": "log.csv"}], "strategies": ["mfu", "random"]}
  """#

/// Damaged journals on `--resume`: each must be refused (an error) or give the reports of
/// an uninterrupted run, byte for byte; never other reports.
@Suite("Reliability: corrupted journals")
struct JournalCorruptionTests {
  static let reports = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]

  /// What a resume on a damaged journal did.
  enum Outcome: Equatable { case refused, identical, wrong(String) }

  /// The ways a journal is damaged, one per case index modulo 5.
  static func damage(
    _ journal: [UInt8], other: [UInt8], case k: Int, rng: inout SplitMix64
  ) -> [UInt8] {
    var lines = journal.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map(Array.init)
    lines.removeLast()  // after the final newline
    let others = other.split(separator: UInt8(ascii: "\n")).map(Array.init)
    func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [10])) + [10] }
    switch k % 5 {
    case 0:  // one digit anywhere (header included) changed to another digit
      var bytes = journal
      let digits = bytes.indices.filter { (48...57).contains(bytes[$0]) }
      let at = digits[rng.nextInt(below: digits.count)]
      let digit: Int = Int(bytes[at]) - 48
      let step: Int = 1 + rng.nextInt(below: 9)
      bytes[at] = UInt8(48 + (digit + step) % 10)
      return bytes
    case 1:  // 1...5 cell lines replaced by another seed's lines for the same cells
      for _ in 0..<(1 + rng.nextInt(below: 5)) {
        let l = 1 + rng.nextInt(below: lines.count - 1)
        let prefix = Array(#"{"experiment":""#.utf8)
        let index = lines[l].dropFirst(prefix.count + 16).prefix(while: { $0 != UInt8(ascii: ",") })
        if let same = others.first(where: { $0.dropFirst(prefix.count + 16).starts(with: index) }) {
          lines[l] = same
        }
      }
      return joined(lines)
    case 2:  // a line cut short (the last one loses its newline too)
      let l = rng.nextInt(below: lines.count)
      lines[l] = Array(lines[l].prefix(rng.nextInt(below: lines[l].count)))
      if l == lines.count - 1 { return Array(joined(lines).dropLast()) }
      return joined(lines)
    case 3:  // the header of another seed's journal over these cells
      lines[0] = others[0]
      return joined(lines)
    default:  // a number of a cell line replaced by 999999999 (`"daily":[[999999999`)
      let l = 1 + rng.nextInt(below: lines.count - 1)
      let line = lines[l]
      let starts = line.indices.dropFirst().filter {
        (48...57).contains(line[$0]) && [UInt8(ascii: "["), UInt8(ascii: ",")].contains(line[$0 - 1])
      }
      let at = starts[rng.nextInt(below: starts.count)]
      let end = line[at...].firstIndex { !(48...57).contains($0) && $0 != UInt8(ascii: ".") } ?? line.endIndex
      lines[l] = Array(line[..<at]) + Array("999999999".utf8) + Array(line[end...])
      return joined(lines)
    }
  }

  /// How many damaged journals `damagedJournalsAreRefusedOrRecomputedNeverWrong` tries:
  /// 40 (8 of each kind) in `swift test`; `Scripts/journal-corruption.sh` (run by
  /// `.ci/run`) sets `SMARTSTACK_JOURNAL_CASES=400` for the full loop (about 2 minutes).
  static var cases: Int {
    ProcessInfo.processInfo.environment["SMARTSTACK_JOURNAL_CASES"].flatMap { Int($0) } ?? 40
  }

  @Test func damagedJournalsAreRefusedOrRecomputedNeverWrong() async throws {
    setenv("SMARTSTACK_NO_FSYNC", "1", 1)  // many report sets; durability is not under test
    let cases = Self.cases
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(config, "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let sources = try SourceLoader.load(design)
    let other = try ExperimentConfig.read(
      path: folder + "/exp.json", overrides: ExperimentOverrides(seed: 43))
    func run(_ design: ExperimentDesign, _ name: String, resume: Bool) async throws {
      _ = try await BatchSession.run(
        design, sources: sources,
        options: BatchOptions(directory: folder + "/" + name, jobs: 2, resume: resume))
    }
    try await run(design, "clean", resume: false)
    try await run(other, "other", resume: false)
    let journal = try FileIO.readBytes(folder + "/clean/.journal/cells.jsonl")
    let otherJournal = try FileIO.readBytes(folder + "/other/.journal/cells.jsonl")
    let expected = try Self.reports.map { try FileIO.readBytes(folder + "/clean/" + $0) }

    var rng = SplitMix64(seed: 20)
    var outcomes: [Outcome] = []
    for k in 0..<cases {
      let name = "case-\(k)"
      try FileManager.default.createDirectory(
        atPath: folder + "/" + name + "/.journal", withIntermediateDirectories: true)
      let damaged = Self.damage(journal, other: otherJournal, case: k, rng: &rng)
      try AtomicFile.write(damaged, to: folder + "/" + name + "/.journal/cells.jsonl")
      do {
        try await run(design, name, resume: true)
        let got = try Self.reports.map { try FileIO.readBytes(folder + "/" + name + "/" + $0) }
        outcomes.append(got == expected ? .identical : .wrong("case \(k) (kind \(k % 5))"))
      } catch {
        outcomes.append(.refused)
      }
      try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
    let wrong = outcomes.filter { if case .wrong = $0 { true } else { false } }
    #expect(wrong.isEmpty, "\(wrong)")
    #expect(outcomes.count == cases)
    // Both policies are exercised: damaged cells run again, a damaged header is refused.
    #expect(outcomes.filter { $0 == .identical }.count >= cases / 2)
    #expect(outcomes.filter { $0 == .refused }.count >= cases / 5)
    print(
      "corrupted journals: \(outcomes.count), refused \(outcomes.filter { $0 == .refused }.count), recomputed identical \(outcomes.filter { $0 == .identical }.count), wrong \(wrong.count)"
    )
  }

  @Test func aResumeNamesTheRejectedLineAndRunsItsCellAgain() async throws {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(config, "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let sources = try SourceLoader.load(design)
    let options = BatchOptions(directory: folder + "/out", jobs: 1)
    _ = try await BatchSession.run(design, sources: sources, options: options)
    let path = folder + "/out/.journal/cells.jsonl"
    // The issue's reproduction: the first day of every cell with days becomes 999999999.
    var damaged = 0
    let text = String(decoding: try FileIO.readBytes(path), as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        guard let key = line.range(of: #""daily":[["#) else { return String(line) }
        let digits = line[key.upperBound...].prefix(while: \.isNumber)
        damaged += 1
        return line[..<key.upperBound] + "999999999" + line[digits.endIndex...]
      }.joined(separator: "\n")
    #expect(damaged > 0)
    try AtomicFile.write(Array(text.utf8), to: path)
    var resumed = options
    resumed.resume = true
    let report = try await BatchSession.run(design, sources: sources, options: resumed)
    #expect(report.cellsRun == damaged)
    #expect(report.notes.count == damaged)
    #expect(report.notes.first?.hasPrefix(path + ":2: the line does not match its checksum") == true)
    // The journal was rewritten without the rejected lines: a second resume runs nothing.
    let again = try await BatchSession.run(design, sources: sources, options: resumed)
    #expect(again.cellsRun == 0 && again.notes.isEmpty)
  }

  @Test func aMergeStopsAtAShardLineThatDoesNotVerifyNamingIt() async throws {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(config, "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let sources = try SourceLoader.load(design)
    for k in 1...2 {
      _ = try await BatchSession.run(
        design, sources: sources,
        options: BatchOptions(directory: folder + "/s\(k)", jobs: 1, shard: Shard(index: k, count: 2)))
    }
    let path = folder + "/s1/.journal/shard-1-of-2.jsonl"
    var bytes = try FileIO.readBytes(path)
    let secondLine = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
    let digit = bytes[secondLine...].firstIndex { (48...57).contains($0) }!
    bytes[digit] = bytes[digit] == 57 ? 48 : bytes[digit] + 1
    try AtomicFile.write(bytes, to: path)
    do {
      _ = try await BatchMerge.merge([folder + "/s1", folder + "/s2"], into: folder + "/all", jobs: 1)
      Issue.record("a merge used a damaged shard journal")
    } catch let error as BatchError {
      #expect(error.description.contains(path + ":2: the line does not match its checksum"))
    }
    #expect(PathKind(folder + "/all") == .missing, "a refused merge writes nothing")
  }
}
