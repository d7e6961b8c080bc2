/// How a reader quotes a header row back in a `missing required column` message.
package enum CSVHeaderText {
  /// `(columns found: 'a', 'b')`, listing `names` (empty ones left out; `none` when all
  /// are), when the header names at least one of `known` (the format's own columns): a
  /// known name occurs, in any case, inside the header's text. Otherwise the first line
  /// is not this format's header (a file given by mistake, `/etc/passwd`, a key), and
  /// its content is not echoed: `(the first line names none of the columns of this
  /// format, so it is not shown)`.
  ///
  /// - Complexity: O(h × k) in the header's length and the known names.
  package static func found(_ names: [String], known: [String]) -> String {
    let text = names.joined(separator: ",").lowercased()
    guard known.contains(where: { text.contains($0.lowercased()) }) else {
      return "(the first line names none of the columns of this format, so it is not shown)"
    }
    let found = names.filter { !$0.isEmpty }.map { "'\($0)'" }.joined(separator: ", ")
    return "(columns found: \(found.isEmpty ? "none" : found))"
  }
}
