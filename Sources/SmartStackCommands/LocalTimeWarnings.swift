import SmartStackKit

/// What a command does with the naive local times of a log it read (`LocalTimeReport`):
/// prints `FILE:LINE:COLUMN: warning: …` on standard error for the times in a daylight-
/// saving gap, for those in a fold, and for naive times read in UTC; with `strict`
/// (`--strict-local-times`) throws them instead, as errors (exit 65, nothing written).
/// Nothing is printed for a log without naive times. The rule: README, "Local time".
enum LocalTimeWarnings {
  static func report(_ report: LocalTimeReport, file: String, zone: ZoneRules, strict: Bool) throws {
    // UTC is the default zone: naive times read in it are told about, in case they are
    // another zone's local times.
    let messages = report.messages(zone: zone.identifier, zoneGiven: zone.identifier != "UTC")
    let diagnostics = messages.map {
      Diagnostic(
        file: file, line: $0.place.line, column: $0.place.column,
        message: (strict ? "" : "warning: ") + $0.text
          + (strict ? " (--strict-local-times)" : "; --strict-local-times makes this an error"))
    }
    if strict && !diagnostics.isEmpty { throw DiagnosticList(diagnostics) }
    for d in diagnostics { StandardError.write(d.description) }
  }
}
