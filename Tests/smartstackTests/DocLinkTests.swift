import Foundation
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Issue 19 items 1, 6 and 9: what a clone's docs and `--help` promise is in the clone.
@Suite("Docs link only inside the repository and say what a new user needs")
struct DocLinkTests {
  /// The Markdown files a user reads: README.md, docs/*.md, python/README.md,
  /// Datasets/README.md, Examples/CustomStrategy/README.md (those present).
  static func documents() throws -> [URL] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.sorted().map { root.appendingPathComponent("docs/" + $0) }
    let others = ["README.md", "python/README.md", "Datasets/README.md", "Examples/CustomStrategy/README.md"]
      .map { root.appendingPathComponent($0) }
      .filter { FileManager.default.fileExists(atPath: $0.path) }
    return others + docs
  }

  /// The targets of `[text](target)` links in `text`, without `#anchor`; web links and
  /// pure anchors left out.
  static func localLinks(_ text: String) -> [String] {
    var links: [String] = []
    var rest = text[...]
    while let open = rest.range(of: "](") {
      let after = rest[open.upperBound...]
      guard let close = after.firstIndex(of: ")") else { break }
      let target = String(after[..<close])
      rest = after[close...]
      if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("#")
        || target.hasPrefix("mailto:")
      {
        continue
      }
      links.append(String(target.split(separator: "#", maxSplits: 1).first ?? ""))
    }
    return links
  }

  /// No link leaves the clone (the README once linked `../shared/reference`) and every
  /// relative link names a file or folder that exists; the design notes outside the
  /// repository are not cited.
  @Test func everyRelativeLinkResolvesInsideTheClone() throws {
    let documents = try Self.documents()
    #expect(documents.count >= 5)
    let rootPath = root.standardizedFileURL.path
    for document in documents {
      let text = try String(contentsOf: document, encoding: .utf8)
      #expect(!text.contains("shared/reference"), "\(document.lastPathComponent)")
      #expect(!text.contains("DESIGN.md"), "\(document.lastPathComponent)")
      for link in Self.localLinks(text) where !link.isEmpty {
        let target = document.deletingLastPathComponent().appendingPathComponent(link).standardizedFileURL
        #expect(target.path.hasPrefix(rootPath + "/"), "\(document.lastPathComponent): \(link) leaves the repository")
        #expect(
          FileManager.default.fileExists(atPath: target.path), "\(document.lastPathComponent): \(link) does not exist")
      }
    }
  }

  /// The links checker itself: a link out of the clone is seen.
  @Test func theLinkScannerFindsRelativeLinks() {
    #expect(
      Self.localLinks("see [a](../shared/x.md), [b](docs/batch.md#top), [c](https://e.org) and [d](#here)")
        == ["../shared/x.md", "docs/batch.md"])
  }

  /// The Python version the notebooks and the package need, and how `run.sh` installs.
  @Test func theReadmeSaysWhichPythonAndHowTheNotebooksInstall() throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("Python 3.11 or later"))
    #expect(readme.contains("Notebooks/.venv"))
    #expect(readme.contains("Notebooks/run.sh DIR") || readme.contains("Notebooks/run.sh reports/sweep"))
  }

  /// `--stack all` in `--help`: which kinds are candidates, in which order, from when, and
  /// the 10-widget bound.
  @Test func replayHelpStatesTheAllStacksCandidatesAndBound() throws {
    let help = try CLI.run(["replay", "--help"]).stdout
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(help.contains("'all' (one instance per kind the person donates, in the order of first donation"))
    #expect(help.contains("each a candidate once donated"))
    #expect(help.contains("a person with more than 10 kinds is refused, as a stack holds 10 widgets"))
  }
}
