// Reading instants from JSON strings.

extension JSONDecoding {
  /// An ISO 8601 timestamp (`ISO8601.parse`); one without a zone designator is a local
  /// time in `zone`. Reports `expected a string, found …`, or the parser's message at
  /// the byte it names when the JSON string has no escapes (else at the string).
  public mutating func instant(_ item: JSONItem, zone: ZoneRules) -> Instant? {
    guard let text = requireString(item) else { return nil }
    switch ISO8601.parse(text).flatMap(zone.checkedInstant) {
    case .success(let instant):
      return instant
    case .failure(let error):
      // Point at the offending byte when the JSON string has no escapes.
      let start = item.offset + 1
      var offset = item.offset
      if start + text.utf8.count <= bytes.count,
        bytes[start..<(start + text.utf8.count)].elementsEqual(text.utf8)
      {
        offset = start + min(max(error.offset, 0), text.utf8.count)
      }
      report(error.message, at: offset, path: item.path)
      return nil
    }
  }
}
