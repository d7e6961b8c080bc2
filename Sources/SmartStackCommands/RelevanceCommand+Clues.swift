import ArgumentParser
import SmartStackKit

// `smartstack relevance --clues APP.json --context CONTEXT.csv`: the clue explainer.
extension RelevanceCommand {
  /// The options of the timeline mode are refused; the clue mode's are checked.
  func validateClueMode() throws {
    if timeline != nil { throw ValidationError("give a timeline file or --clues APP.json, not both") }
    for (given, option) in [(scope != nil, "--scope"), (windowDays != nil, "--window-days")] where given {
      throw ValidationError("\(option) goes with a timeline file, not with --clues")
    }
    guard context != nil else { throw ValidationError("--clues needs --context CONTEXT.csv: the clues are evaluated against it") }
    if let watchos, WatchVersion(major: watchos) == nil {
      throw ValidationError("--watchos must be one of \(WatchVersion.list), got \(watchos)")
    }
    if let cluePrefix, cluePrefix < 1 { throw ValidationError("--clue-prefix must be at least 1, got \(cluePrefix)") }
    let zone = try zoneRules()
    let start = try from.map { try instant($0, option: "--from", zone: zone) }
    let end = try to.map { try instant($0, option: "--to", zone: zone) }
    _ = try stepMilliseconds()
    if let start, let end { _ = try grid(from: start, to: end) }
  }

  /// Reads the app and the context, chooses the person and the grid, and writes the CSV.
  func runClues(_ appPath: String) throws {
    let zone = try zoneRules()
    try reportingErrors {
      if let out {  // before reading anything
        try OutputPath.checkFile(out)
        try ReportSetPath.check(out)
      }
      let app = try WatchApp.read(path: appPath, zone: zone)
      let contextPath = context ?? ""
      let log = try ContextLog.read(path: contextPath, zone: zone)
      let people = log.people
      let person: String
      if let user {
        guard people.contains(user) else {
          throw ValidationError(
            "--user \(user): \(contextPath) has no context for '\(user)' (it has \(people.isEmpty ? "nobody" : people.joined(separator: ", ")))")
        }
        person = user
      } else {
        guard people.count == 1 else {
          throw ValidationError(
            people.isEmpty
              ? "\(contextPath) has no rows: there is nobody to evaluate the clues for"
              : "\(contextPath) has context for \(people.joined(separator: ", ")): choose whose with --user")
        }
        person = people[0]
      }
      let cursor = ContextCursor(log: log, user: person)
      let span = cursor.span!  // the person has rows
      let grid = try grid(
        from: try from.map { try instant($0, option: "--from", zone: zone) } ?? span.first,
        to: try to.map { try instant($0, option: "--to", zone: zone) } ?? span.last)
      let clueCount = app.widgets.reduce(0) { $0 + $1.clues.count }
        + (app.intentUpdates.map(\.intents.count).max() ?? 0)
      guard let rows = grid.rowCount(instances: clueCount), rows <= RelevanceGrid.maximumRows else {
        throw ValidationError(
          "the grid has \(grid.count) times × up to \(clueCount) clues, more than \(RelevanceGrid.maximumRows) rows: use a larger --step or a shorter --from/--to range"
        )
      }
      let rules = ClueRules(version: watchos.flatMap(WatchVersion.init(major:)) ?? app.version, prefixLength: cluePrefix)
      try AtomicOutputFile.writing(to: out) { write in
        try app.writeClueCSV(on: grid, context: cursor, rules: rules, zone: zone, write)
      }
    }
  }
}
