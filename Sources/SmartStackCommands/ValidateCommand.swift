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
      if timing {
        StandardError.write(
          Self.timingLine(rows: statistics.events, bytes: read.bytes, parse: clock.now - start))
      }
      StandardOutput.write(
        json
          ? Self.jsonSummary(
            file: log, format: read.format, statistics: statistics, ignored: read.ignoredColumns,
            zone: zone)
          : Self.summary(
            file: log, format: read.format, statistics: statistics, ignored: read.ignoredColumns,
            zone: zone))
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
  /// also in `zone`'s local time.
  static func summary(
    file: String, format: DonationLogFormat, statistics s: DonationStatistics,
    ignored: [String] = [], zone: ZoneRules = .utc
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
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { name, value in
      "\(name):" + String(repeating: " ", count: width - name.count + 1) + value + "\n"
    }.joined()
  }

  /// One JSON object; keys in the order file, format, timezone, events, users, kinds,
  /// intents, parameter_keys, first, last, first_local, last_local (in the time zone),
  /// span_days, busiest_hours, ignored_columns (the columns or keys the reader did not
  /// read, `[]` when none).
  static func jsonSummary(
    file: String, format: DonationLogFormat, statistics s: DonationStatistics,
    ignored: [String] = [], zone: ZoneRules = .utc
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
    return summary.serialized() + "\n"
  }

  private static func fixed(_ value: Double, _ decimals: Int) -> String {
    NumberFormat.format(value, decimals: decimals)
  }
}
