import Foundation
import Testing

/// One row of `Tests/Fixtures/bad/expected.tsv`: a hostile input, the command that reads
/// it, and what the real binary must do with it.
struct BadInputCase: Sendable, CustomTestStringConvertible {
  /// Path of the input, relative to the corpus folder.
  var file: String
  /// The exit status: 0 (accepted), 64 (usage), 65 (data error), 66 (no input).
  var exit: Int32
  /// `LINE:COLUMN` after `FILE:`; `file` for a whole-file message (`FILE: message`); `-` for
  /// none (usage errors and accepted inputs).
  var location: String
  /// A fragment of the first message on standard error (empty: not checked).
  var fragment: String
  /// The arguments, with `{}` for the input, `{dir}` for the corpus folder and `{out}` for a
  /// fresh output folder.
  var arguments: [String]
  /// The manifest line, for failure messages.
  var line: Int

  var testDescription: String { "expected.tsv:\(line) \(file) (\(arguments.first ?? ""))" }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/bad")

  static let all: [BadInputCase] = {
    let manifest = folder.appendingPathComponent("expected.tsv")
    guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
    var cases: [BadInputCase] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") { continue }
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count == 5, let exit = Int32(columns[1]) else {
        // A malformed manifest row becomes a case that fails with its line number.
        cases.append(
          BadInputCase(
            file: "MALFORMED", exit: -1, location: "-", fragment: "", arguments: [], line: index + 1))
        continue
      }
      cases.append(
        BadInputCase(
          file: columns[0], exit: exit, location: columns[2], fragment: columns[3],
          arguments: columns[4].split(separator: " ").map(String.init), line: index + 1))
    }
    return cases
  }()
}

@Suite("Reliability: the bad-input corpus through the real binary")
struct BadInputCorpusTests {
  @Test func theManifestCoversEveryCorpusFileAndHasAtLeastFortyBadInputs() throws {
    let cases = BadInputCase.all
    #expect(!cases.contains { $0.file == "MALFORMED" }, "expected.tsv has a malformed row")
    let files = try FileManager.default.contentsOfDirectory(atPath: BadInputCase.folder.path)
      .filter { $0 != "expected.tsv" && $0 != "make-corpus.py" && $0 != "ok" }
    let listed = Set(cases.map(\.file))
    for file in files.sorted() {
      #expect(listed.contains(file), "\(file) is in Tests/Fixtures/bad but not in expected.tsv")
    }
    #expect(files.count >= 40, "only \(files.count) corpus files")
    #expect(cases.filter { $0.exit == 65 }.count >= 40)
  }

  @Test(arguments: BadInputCase.all)
  func theBinaryRefusesTheInputAtItsLocationAndWritesNothing(_ c: BadInputCase) throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let input = BadInputCase.folder.appendingPathComponent(c.file).path
    let out = work.appendingPathComponent("out").path
    let arguments = c.arguments.map {
      $0.replacingOccurrences(of: "{}", with: input)
        .replacingOccurrences(of: "{dir}", with: BadInputCase.folder.path)
        .replacingOccurrences(of: "{out}", with: out)
    }
    let r = try CLI.run(arguments, in: work)
    #expect(r.status == c.exit, "exit \(r.status), expected \(c.exit); stderr: \(r.stderr.prefix(400))")
    #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("crashed"))

    let firstLine = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    switch c.location {
    case "-": break
    case "file":
      #expect(firstLine.hasPrefix("\(input): "), "stderr: \(firstLine.prefix(300))")
    default:
      #expect(firstLine.hasPrefix("\(input):\(c.location): "), "stderr: \(firstLine.prefix(300))")
    }
    if !c.fragment.isEmpty {
      #expect(firstLine.contains(c.fragment), "stderr: \(firstLine.prefix(300))")
    }
    if c.exit != 0 {
      // Refused input: no output file at all, not even a partial one.
      let left = FileManager.default.enumerator(atPath: out)?.allObjects ?? []
      #expect(left.isEmpty, "files written for refused input: \(left)")
      #expect(r.stdout.isEmpty || c.exit == 64, "stdout: \(r.stdout.prefix(200))")
    }
  }
}
