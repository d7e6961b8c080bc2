extension TimelineFile {
  /// The file in its JSON format (see `TimelineFile`), one entry per line:
  ///
  /// ```json
  /// {"instances": [
  ///   {"id": "card", "kind": "RecentPurchases", "user": "p0", "entries": [
  ///     {"date": "2026-01-05T09:00:00Z", "relevance": {"score": 10, "duration": 3600}},
  ///     {"date": "2026-01-05T10:00:00Z"}]}
  /// ]}
  /// ```
  ///
  /// Dates are UTC instants (with milliseconds when not whole seconds), scores and
  /// durations (seconds) in their shortest round-trip form, and `user` only when set, so
  /// `read(bytes:file:timeZone:)` gives this value back for every file it accepts
  /// (with `kind` always written; -0 scores come back as 0, which compares equal).
  ///
  /// - Complexity: O(instances + entries).
  public func jsonText() -> String {
    var text = "{\"instances\": ["
    for (n, instance) in instances.enumerated() {
      text += n == 0 ? "\n  {\"id\": " : ",\n  {\"id\": "
      JSONEscaping.appendQuoted(instance.id, to: &text)
      text += ", \"kind\": "
      JSONEscaping.appendQuoted(instance.kind, to: &text)
      if let user = instance.user {
        text += ", \"user\": "
        JSONEscaping.appendQuoted(user, to: &text)
      }
      text += ", \"entries\": ["
      for (k, entry) in instance.entries.enumerated() {
        text += k == 0 ? "\n    {\"date\": \"" : ",\n    {\"date\": \""
        text += ISO8601.format(entry.date)
        text += "\""
        if let relevance = entry.relevance {
          text += ", \"relevance\": {\"score\": "
          text += NumberFormat.format(relevance.score)
          text += ", \"duration\": "
          text += NumberFormat.format(Double(relevance.durationMilliseconds) / 1000)
          text += "}"
        }
        text += "}"
      }
      text += "]}"
    }
    text += instances.isEmpty ? "]}\n" : "\n]}\n"
    return text
  }
}
