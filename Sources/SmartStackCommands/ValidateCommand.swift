import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack validate LOG`: reads a donation log, reports every problem, or summarises it.
///
/// Exit codes: 0 the log is valid (summary on stdout); 64 bad usage (e.g. an unknown time
/// zone); 65 the log has problems (all of them on stderr as FILE:LINE:COLUMN, nothing on
/// stdout); 66 the file cannot be read.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check a donation log (CSV or JSON Lines) and summarise it.",
    discussion: """
      Every problem in the log is reported as FILE:LINE:COLUMN: message (up to 50), and \
      nothing is written to standard output unless the whole log is valid. The format is \
      chosen by --format, else by extension (.csv; .jsonl, .ndjson, .json), else by content.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl
    var logFormat: DonationLogFormat { self == .csv ? .csv : .jsonl }
  }

  @Argument(help: "The donation log.") var log: String

  @Option(help: "The log's format (default: by extension, then by content).")
  var format: Format?

  @Option(
    help: ArgumentHelp(
      "The IANA time zone naive timestamps are read in and hours are counted in.",
      valueName: "TZ"))
  var timezone = "UTC"

  @Option(
    help: ArgumentHelp(
      "A context file (CSV or JSON Lines: timestamp, user, signal, value) to check and summarise beside the log.",
      valueName: "FILE"))
  var context: String?

  @Flag(help: "Print the summary as one JSON object.") var json = false

  @Flag(
    help: "Make naive local times that do not exist or exist twice in the time zone (a daylight-saving gap or fold), or that are read in UTC by default, errors instead of warnings."
  )
  var strictLocalTimes = false

  @Flag(help: "Print read and parse times and speeds to standard error.") var timing = false

  func validate() throws {
    if ZoneRules(identifier: timezone) == nil {
      throw ValidationError(
        "unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin, or UTC)")
    }
  }

  func run() throws {
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError("unknown time zone '\(timezone)'")
    }
    try reportingErrors {
      // One pass over the mapped file, keeping no rows and each distinct name once
      // (`DonationStatistics.read`): memory stays near the distinct names' size.
      let clock = ContinuousClock()
      let start = clock.now
      let read = try DonationStatistics.read(path: log, format: format?.logFormat, timeZone: zone)
      let statistics = read.statistics
      try LocalTimeWarnings.report(read.localTimes, file: log, zone: zone, strict: strictLocalTimes)
      // Read before anything is written, so a bad context file leaves stdout empty.
      let contextSummary = try context.map { ContextSummary(try ContextLog.read(path: $0, zone: zone)) }
      if timing {
        StandardError.write(
          Self.timingLine(rows: statistics.events, bytes: read.bytes, parse: clock.now - start))
      }
      StandardOutput.write(
        json
          ? Self.jsonSummary(
            file: log, format: read.format, statistics: statistics, ignored: read.ignoredColumns,
            zone: zone, context: context.map { ($0, contextSummary!) })
          : Self.summary(
            file: log, format: read.format, statistics: statistics, ignored: read.ignoredColumns,
            zone: zone, context: context.map { ($0, contextSummary!) }))
    }
  }

  /// `timing: read and parse 0.250 s (1000000 rows, 64.69 MB): 4000000 rows/s, 258.76 MB/s`
  /// (the file is mapped and read as it is parsed, so the two are one time).
  static func timingLine(rows: Int, bytes: Int, parse: Duration) -> String {
    let parseSeconds = max(
      Double(parse.components.seconds) + Double(parse.components.attoseconds) * 1e-18, 1e-9)
    let megabytes = Double(bytes) / 1_000_000
    return "timing: read and parse \(fixed(parseSeconds, 3)) s"
      + " (\(rows) rows, \(fixed(megabytes, 2)) MB): \(Int((Double(rows) / parseSeconds).rounded())) rows/s,"
      + " \(fixed(megabytes / parseSeconds, 2)) MB/s"
  }

  /// The human summary, one `name: value` per line; `ignored columns` (the columns or
  /// keys the reader did not read) only when there are some; outside UTC, first and last
  /// also in `zone`'s local time. With a context file, its lines follow
  /// (`contextLines`).
  static func summary(
    file: String, format: DonationLogFormat, statistics s: DonationStatistics,
    ignored: [String] = [], zone: ZoneRules = .utc, context: (file: String, summary: ContextSummary)? = nil
  ) -> String {
    let local = { (instant: Instant) -> String in
      zone.identifier == "UTC"
        ? ISO8601.format(instant)
        : ISO8601.format(instant) + " (" + ISO8601.formatLocal(instant, zone: zone) + " local)"
    }
    let busiest = s.busiestHours(3).map {
      "\(NumberFormat.format($0.hour, minimumDigits: 2)):00 (\($0.donations))"
    }
    var lines: [(String, String)] = [
      ("file", file),
      ("format", format.rawValue),
      ("time zone", s.timeZone),
      ("events", "\(s.events)"),
      ("users", "\(s.users)"),
      ("kinds", "\(s.kinds)"),
      ("intents", "\(s.intents)"),
      ("parameter keys", "\(s.parameterKeys)"),
      ("first", s.first.map(local) ?? "none"),
      ("last", s.last.map(local) ?? "none"),
      ("span", "\(fixed(s.spanDays, 2)) days"),
      ("busiest hours", busiest.isEmpty ? "none" : busiest.joined(separator: ", ")),
    ]
    if !ignored.isEmpty {
      lines.append(("ignored columns", ignored.map { "'\($0)'" }.joined(separator: ", ")))
    }
    if let context { lines += contextLines(file: context.file, context.summary) }
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { name, value in
      "\(name):" + String(repeating: " ", count: width - name.count + 1) + value + "\n"
    }.joined()
  }

  /// The context file's lines of the human summary: the file, its changes and people,
  /// then per signal its values by share of the known time (`ContextSummary`), e.g.
  /// `context place: home 52.1%, work 30.0%, commute 17.9% (412 changes, 3 users)`.
  static func contextLines(file: String, _ c: ContextSummary) -> [(String, String)] {
    var lines: [(String, String)] = [
      ("context", file),
      ("context changes", "\(c.changes)"),
      ("context users", "\(c.people)"),
    ]
    for signal in c.signals {
      let shares = signal.values.map { "\($0.value) \(fixed(100 * signal.share(of: $0), 1))%" }
      lines.append((
        "context \(signal.signal.name)",
        shares.joined(separator: ", ") + " (\(signal.changes) \(signal.changes == 1 ? "change" : "changes"), \(signal.people) \(signal.people == 1 ? "user" : "users"))"
      ))
    }
    return lines
  }

  /// One JSON object; keys in the order file, format, timezone, events, users, kinds,
  /// intents, parameter_keys, first, last, first_local, last_local (in the time zone),
  /// span_days, busiest_hours, ignored_columns (the columns or keys the reader did not
  /// read, `[]` when none), and with a context file `context`: `{file, changes, users,
  /// signals: [{signal, changes, users, values: [{value, changes, share}]}]}` (share of
  /// the known time, 6 decimals).
  static func jsonSummary(
    file: String, format: DonationLogFormat, statistics s: DonationStatistics,
    ignored: [String] = [], zone: ZoneRules = .utc, context: (file: String, summary: ContextSummary)? = nil
  ) -> String {
    let hours = s.busiestHours(3).map { hour -> JSONValue in
      ["hour": .number(Double(hour.hour)), "donations": .number(Double(hour.donations))]
    }
    let summary: JSONValue = [
      "file": .string(file),
      "format": .string(format.rawValue),
      "timezone": .string(s.timeZone),
      "events": .number(Double(s.events)),
      "users": .number(Double(s.users)),
      "kinds": .number(Double(s.kinds)),
      "intents": .number(Double(s.intents)),
      "parameter_keys": .number(Double(s.parameterKeys)),
      "first": s.first.map { .string(ISO8601.format($0)) } ?? .null,
      "last": s.last.map { .string(ISO8601.format($0)) } ?? .null,
      "first_local": s.first.map { .string(ISO8601.formatLocal($0, zone: zone)) } ?? .null,
      "last_local": s.last.map { .string(ISO8601.formatLocal($0, zone: zone)) } ?? .null,
      "span_days": .number((s.spanDays * 1_000_000).rounded() / 1_000_000),
      "busiest_hours": .array(hours.map { JSONNode($0) }),
      "ignored_columns": .array(ignored.map { JSONNode(.string($0)) }),
    ]
    guard let context else { return summary.serialized() + "\n" }
    let signals = context.summary.signals.map { signal -> JSONValue in
      let values = signal.values.map { v -> JSONValue in
        [
          "value": .string(v.value), "changes": .number(Double(v.changes)),
          "share": .number((signal.share(of: v) * 1_000_000).rounded() / 1_000_000),
        ]
      }
      return [
        "signal": .string(signal.signal.name), "changes": .number(Double(signal.changes)),
        "users": .number(Double(signal.people)), "values": .array(values.map { JSONNode($0) }),
      ]
    }
    let contextValue: JSONValue = [
      "file": .string(context.file), "changes": .number(Double(context.summary.changes)),
      "users": .number(Double(context.summary.people)), "signals": .array(signals.map { JSONNode($0) }),
    ]
    return JSONValue.object((summary.objectValue ?? []) + [JSONMember("context", contextValue)]).serialized() + "\n"
  }

  private static func fixed(_ value: Double, _ decimals: Int) -> String {
    NumberFormat.format(value, decimals: decimals)
  }
}
