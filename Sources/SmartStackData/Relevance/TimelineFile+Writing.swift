import SmartStackBase

extension TimelineFile {
  /// The file in its JSON format (see `TimelineFile`), one instance header and one entry
  /// per line, each written by `JSONWriter`:
  ///
  /// ```json
  /// {"instances": [
  ///   {"id":"card","kind":"RecentPurchases","user":"p0","entries": [
  ///     {"date":"2026-01-05T09:00:00Z","relevance":{"score":10,"duration":3600}},
  ///     {"date":"2026-01-05T10:00:00Z"}]}
  /// ]}
  /// ```
  ///
  /// Dates are UTC instants (with milliseconds when not whole seconds), scores and
  /// durations (seconds) in their shortest round-trip form, and `user` only when set, so
  /// `read(bytes:file:timeZone:)` gives this value back for every file it accepts
  /// (with `kind` always written; -0 scores come back as 0, which compares equal). One
  /// line per entry keeps the large files of `simulate --emit-log` compact and
  /// line-diffable.
  ///
  /// - Complexity: O(instances + entries).
  public func jsonText() -> String {
    var text = "{\"instances\": ["
    for (n, instance) in instances.enumerated() {
      var header = [JSONMember("id", .string(instance.id)), JSONMember("kind", .string(instance.kind))]
      if let user = instance.user { header.append(JSONMember("user", .string(user))) }
      // The header object without its closing brace, then the entries array.
      text += n == 0 ? "\n  " : ",\n  "
      text += JSONValue.object(header).serialized().dropLast()
      text += ",\"entries\": ["
      for (k, entry) in instance.entries.enumerated() {
        var members = [JSONMember("date", .string(ISO8601.format(entry.date)))]
        if let relevance = entry.relevance {
          members.append(
            JSONMember(
              "relevance",
              .object([
                JSONMember("score", .number(relevance.score)),
                JSONMember("duration", .number(Double(relevance.durationMilliseconds) / 1000)),
              ])))
        }
        text += k == 0 ? "\n    " : ",\n    "
        text += JSONValue.object(members).serialized()
      }
      text += "]}"
    }
    text += instances.isEmpty ? "]}\n" : "\n]}\n"
    return text
  }
}
