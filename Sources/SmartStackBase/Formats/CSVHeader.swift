/// The header row of a CSV file whose columns go by name (the visit log, the score
/// file): each field's name and where it stands.
///
/// Reading it reports every repeated name at its field as `duplicate column 'x'` (empty
/// names too); which column a name selects, and which are required, is the format's own
/// business (`firstIndex(of:)`, `missingColumns(_:known:)`).
package struct CSVHeader {
  /// The header's fields, in file order.
  package private(set) var names: [String] = []
  /// Where each field starts in the file.
  package private(set) var positions: [TextPosition] = []

  /// Reads `csv`'s current record as the header. For each field `i`, in order: a name
  /// seen before is reported at the field (`duplicate column 'x'`), the name is recorded,
  /// then `each(i, header, &problems)` runs with the header read so far (for a format's
  /// own per-field checks, so that all reports stay in field order).
  ///
  /// - Complexity: O(n²) in the number of header fields (headers are short).
  package init(
    _ csv: CSVReader, problems: inout DiagnosticCollector,
    each: (Int, CSVHeader, inout DiagnosticCollector) -> Void = { _, _, _ in }
  ) {
    for i in 0..<csv.fieldCount {
      let name = String(decoding: csv.field(i), as: UTF8.self)
      let position = csv.position(ofByte: csv.fieldInfo(i).sourceStart)
      if names.contains(name) {
        problems.report(line: position.line, column: position.column, "duplicate column '\(name)'")
      }
      names.append(name)
      positions.append(position)
      each(i, self, &problems)
    }
  }

  /// The first field named `name`, or nil. O(n).
  package func firstIndex(of name: String) -> Int? { names.firstIndex(of: name) }

  /// `missing required column 'a', 'b' (columns found: …)`: the message for the
  /// `missing` columns (already quoted as the format words them), followed by
  /// `CSVHeaderText.found` over this header and the format's `known` names.
  package func missingColumns(_ missing: [String], known: [String]) -> String {
    "missing required column " + missing.joined(separator: ", ") + " " + CSVHeaderText.found(names, known: known)
  }
}
