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
    guard namesAny(names, of: known) else {
      return "(the first line names none of the columns of this format, so it is not shown)"
    }
    let found = names.filter { !$0.isEmpty }.map { "'\($0)'" }.joined(separator: ", ")
    return "(columns found: \(found.isEmpty ? "none" : found))"
  }

  /// True when the header's text contains one of `known`, in any case: the test `found`
  /// uses to decide whether the first line is this format's header at all.
  package static func namesAny(_ names: [String], of known: [String]) -> Bool {
    let text = names.joined(separator: ",").lowercased()
    return known.contains { text.contains($0.lowercased()) }
  }
}
