import Foundation
import Testing

/// The Python package's typed functions (`python/src/smartstack/_commands.py`, written by
/// `python/generate_api.py`) take one parameter per option of the command they run. Its
/// `OPTIONS` table lists each command's options as `[name, kind, required]`; this suite
/// compares it with the binary's own description of its options
/// (`--experimental-dump-help`), by the generator's rules, so that a new or renamed option
/// fails `swift test` and not only CI's Python stage, fourteen minutes in.
@Suite("Python package: its functions' options are the commands' options")
struct PythonPackageOptionsTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// What `generate_api.py` skips, as it does.
  static let skipped: Set<String> = ["help", "version", "experimental-dump-help"]

  /// `[name, kind, required]` for each argument `generate_api.arguments` keeps, in order.
  static func options(dump: Data) throws -> [[String]] {
    let top = try #require(try JSONSerialization.jsonObject(with: dump) as? [String: Any])
    let command = try #require(top["command"] as? [String: Any])
    var result: [[String]] = []
    for argument in command["arguments"] as? [[String: Any]] ?? [] {
      if argument["shouldDisplay"] as? Bool == false { continue }
      let kind = try #require(argument["kind"] as? String)
      let name: String
      if kind == "positional" {
        name = argument["valueName"] as? String ?? "argument"
      } else {
        let names = argument["names"] as? [[String: Any]] ?? []
        guard
          let long = names.first(where: { ["long", "longWithSingleDash"].contains($0["kind"] as? String ?? "") })?[
            "name"] as? String
        else { continue }
        name = long
      }
      if skipped.contains(name) { continue }
      let required = !(argument["isOptional"] as? Bool ?? true)
      result.append([name, kind, required ? "True" : "False"])
    }
    return result
  }

  /// The `OPTIONS` table of `_commands.py`: command name to its `[name, kind, required]`.
  static func packageTable(_ source: String) throws -> [String: [[String]]] {
    let start = try #require(source.range(of: "\nOPTIONS = {"))
    let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
    let literal = String(source[source.index(after: start.lowerBound)..<end.upperBound])
      .dropFirst("OPTIONS = ".count)
      .replacingOccurrences(of: "True", with: "true").replacingOccurrences(of: "False", with: "false")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(literal.utf8)) as? [String: [[Any]]])
    return object.mapValues { rows in
      rows.map { row in row.map { ($0 as? Bool).map { $0 ? "True" : "False" } ?? "\($0)" } }
    }
  }

  @Test("every command the package wraps has exactly the package's options: run python python/generate_api.py when not")
  func thePackageListsEveryOption() throws {
    let source = try String(
      contentsOf: root.appendingPathComponent("python/src/smartstack/_commands.py"), encoding: .utf8)
    let table = try Self.packageTable(source)
    #expect(table.keys.sorted() == ["batch", "evaluate", "replay", "simulate", "validate"])
    for command in table.keys.sorted() {
      let result = try CLI.run([command, "--experimental-dump-help"])
      #expect(result.status == 0, "\(result.stderr)")
      let binary = try Self.options(dump: Data(result.stdout.utf8))
      #expect(binary.count > 3, "\(command)")
      #expect(
        binary == table[command],
        """
        smartstack \(command)'s options differ from the Python package's: run \
        `python python/generate_api.py` (binary only: \
        \(binary.filter { !(table[command] ?? []).contains($0) }.map { $0[0] }); \
        package only: \((table[command] ?? []).filter { !binary.contains($0) }.map { $0[0] }))
        """)
    }
  }
}
