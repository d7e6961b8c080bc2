/// The read loop of a CSV file whose first record names the columns (the visit log, the
/// score file, the context file): the header, then every record, each syntax problem
/// reported where it is.
package enum CSVWithHeader {
  /// Reads `buffer`: reports `emptyFile` at 1:1 when there is no record at all; gives the
  /// first record to `header` (which returns false when the file cannot be read on, e.g.
  /// a required column is missing); then gives every well-formed record to `record`.
  /// A syntax problem is reported at its place; in the header it ends the read. Stops
  /// once `problems` is full.
  ///
  /// - Complexity: O(n) in the input's length, plus what `header` and `record` cost.
  package static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, problems: inout DiagnosticCollector, emptyFile: String,
    header: (CSVHeader, inout DiagnosticCollector) -> Bool,
    record: (CSVReader, inout DiagnosticCollector) -> Void
  ) {
    var csv = CSVReader(buffer)
    var atHeader = true
    while !problems.isFull {
      switch csv.next() {
      case .end:
        if atHeader { problems.report(line: 1, column: 1, emptyFile) }
        return
      case .problem(let p):
        problems.report(line: p.line, column: p.column, p.message)
        if atHeader { return }
      case .record:
        if atHeader {
          atHeader = false
          let names = CSVHeader(csv, problems: &problems)
          if !header(names, &problems) { return }
        } else {
          record(csv, &problems)
        }
      }
    }
  }
}
