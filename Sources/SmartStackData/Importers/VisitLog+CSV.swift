import SmartStackBase

extension VisitLog {
  /// The visit log in its CSV form, which `VisitLog.read` reads back as the same visits:
  /// header `timestamp,user`, then one row per visit in the log's order, timestamps in
  /// UTC (`ISO8601.format`: `2026-03-02T08:01:05Z`, milliseconds only when not 0), written
  /// by `CSVWriter` (LF line ends, minimal quoting).
  ///
  /// - Complexity: O(n) in the size of the output.
  public func csvText() -> String {
    var csv = CSVWriter(header: ["timestamp", "user"])
    for i in 0..<count {
      csv.append(ISO8601.format(Instant(milliseconds: times[i])))
      csv.append(user(i))
      csv.endRow()
    }
    return csv.text
  }
}
