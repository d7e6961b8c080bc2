import SmartStackBase

/// The header row of an importer's input: finds each expected column by name.
package enum ImportHeader {
  /// The index of each of `columns` among `names` (the header's fields), -1 when absent.
  ///
  /// Reports, into `problems`: a repeated non-empty name at its field
  /// (`duplicate column 'x' in the header`), and the `required` columns (indices into
  /// `columns`) that are missing, at 1:1, listing the names found (`CSVHeaderText.found`:
  /// only when the header names one of `columns`) and then
  /// `expectation`; when the header is one field containing `wrongSeparator`, it adds
  /// `separatorHint` (the file uses the other separator).
  ///
  /// - Parameter position: the line and column of field `i`, for the duplicate report.
  /// - Complexity: O(n²) in the number of header fields (headers are short).
  package static func indices(
    names: [String], columns: [String], required: [Int], expectation: String,
    wrongSeparator: String, separatorHint: String, position: (Int) -> TextPosition,
    problems: inout DiagnosticCollector
  ) -> [Int] {
    var seen: [String] = []
    var indices = [Int](repeating: -1, count: columns.count)
    for (i, name) in names.enumerated() {
      if !name.isEmpty && seen.contains(name) {
        let p = position(i)
        problems.report(line: p.line, column: p.column, "duplicate column '\(name)' in the header")
      }
      seen.append(name)
      if let k = columns.firstIndex(of: name), indices[k] < 0 { indices[k] = i }
    }
    let missing = required.filter { indices[$0] < 0 }.map { columns[$0] }
    if !missing.isEmpty {
      var message =
        "missing required column\(missing.count > 1 ? "s" : "") "
        + missing.map { "'\($0)'" }.joined(separator: ", ")
        + " \(CSVHeaderText.found(names, known: columns)); \(expectation)"
      if names.count == 1 && names[0].contains(wrongSeparator) { message += "; \(separatorHint)" }
      problems.report(line: 1, column: 1, message)
    }
    return indices
  }
}
