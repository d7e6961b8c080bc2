import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack relevance TIMELINE.json --from T --to T --step SECONDS`: evaluates every
/// instance's relevance state and normalised score on a regular time grid and writes CSV.
///
/// `smartstack relevance --clues APP.json --context CONTEXT.csv`: the watch's relevance
/// instead, a watch app's clues explained against a person's context on the same kind of
/// grid (`RelevanceCommand+Clues.swift`). One command with two inputs rather than a
/// subcommand: both explain relevance on a time grid and share the grid, zone, person and
/// output options, and a parent command cannot keep its own required timeline argument
/// beside subcommands; the options of one mode are refused in the other.
struct RelevanceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relevance",
    abstract: "Evaluate relevance timelines, or a watch app's clues, on a time grid.",
    discussion: """
      Writes CSV with the header `time,instance,state,score,percentile,local_time`: one row \
      per grid time (from, from+step, … <= to) and instance, by time and then file order. \
      `time` is UTC; `state` is none, active, suppressed or expired; `score` is the \
      window's score (0 when expired, empty for none); `percentile` is the mid-rank \
      percentile of the score among the scores provided up to that time (empty for none \
      and expired); `local_time` is `time` in --timezone with its offset \
      (2026-03-02T10:00:00+01:00).

      Timeline file: {"instances": [{"id": "card", "kind": "RecentPurchases", "entries": \
      [{"date": "2026-01-05T09:00:00Z", "relevance": {"score": 10, "duration": 3600}}]}]}. \
      `kind` defaults to the id, a missing or null `relevance` changes nothing, and \
      `duration` is in seconds (default 0: until the next entry with relevance). An \
      instance with a `user` is one person's timeline (as `simulate --emit-log` writes \
      them): choose whose with --user.

      With --clues APP.json --context CONTEXT.csv: explains a watch app's relevance clues \
      (docs/watchos.md) against one person's context instead. Writes CSV with the header \
      `time,utc_offset,widget,source,clue,configuration,context,verdict,reason,card,replaced_by,local_time`: \
      one row per grid time and clue; `verdict` is matches or dropped, `reason` says why \
      (notOnVersion, priorityTruncated, noPermission, noContext, outsideDate, \
      contextDoesNotMatch, group), `card` is the card a matching clue makes eligible. \
      --from and --to default to the person's first and last context change, --step to 15m.

      Examples:
        smartstack relevance --clues Datasets/watch/commuter-app.json --context Datasets/context/tiny.csv --user ana --from 2026-03-02T07:00:00+01:00 --to 2026-03-02T09:00:00+01:00 --step 30m
      """)

  /// How scores are pooled for the percentile.
  enum ScopeOption: String, ExpressibleByArgument, CaseIterable {
    case instance, kind
  }

  @Argument(help: "The timeline JSON file (not with --clues).")
  var timeline: String?

  @Option(help: "The first grid time, ISO 8601 (e.g. 2026-01-05T00:00:00Z); with --clues, default: the person's first context change.")
  var from: String?

  @Option(help: "The last grid time allowed, ISO 8601; with --clues, default: the person's last context change.")
  var to: String?

  @Option(
    parsing: .unconditional,
    help: "The grid step: seconds (> 0; fractions are rounded to the millisecond), or with a unit s, m, h or d (15m); with --clues, default: 15m.")
  var step: String?

  @Option(help: "Compare a score with the instance's own scores or with all of its kind's (default: instance; not with --clues).")
  var scope: ScopeOption?

  @Option(
    name: .customLong("window-days"), parsing: .unconditional,
    help: "Count only scores dated in the last N days (N >= 1); default: all history.")
  var windowDays: Int?

  @Option(
    help: "IANA time zone for timestamps without Z or an offset, in the file and in --from/--to.")
  var timezone: String = "UTC"

  @Option(help: "Whose timelines to evaluate in a file with per-person instances (\"user\"): every person's and this user's own; with --clues, whose context (required when the file has several people).")
  var user: String?

  @Option(help: "Write the CSV atomically to this file instead of standard output.")
  var out: String?

  @Option(help: "A watch app file (docs/watchos.md): explain its relevance clues instead of a timeline.")
  var clues: String?

  @Option(help: "With --clues: the context file (CSV or JSON Lines, docs/context.md) the clues are evaluated against.")
  var context: String?

  @Option(parsing: .unconditional, help: "With --clues: the watchOS version, 10, 11 or 26 (default: the app file's).")
  var watchos: Int?

  @Option(
    name: .customLong("clue-prefix"), parsing: .unconditional,
    help: "With --clues: the system uses only the first N relevance() clues of each widget (N >= 1; default: all).")
  var cluePrefix: Int?

  func validate() throws {
    if clues != nil {
      try validateClueMode()
      return
    }
    for (given, option) in [(context != nil, "--context"), (watchos != nil, "--watchos"), (cluePrefix != nil, "--clue-prefix")]
    where given {
      throw ValidationError("\(option) goes with --clues APP.json")
    }
    guard timeline != nil else { throw ValidationError("missing the timeline file (or --clues APP.json)") }
    _ = try timelineGrid(zone: zoneRules())
    if let windowDays, windowDays < 1 {
      throw ValidationError("--window-days must be at least 1, got \(windowDays)")
    }
  }

  func run() throws {
    try refuseOverwritingInputs()
    if let clues { return try runClues(clues) }
    let zone = try zoneRules()
    let grid = try timelineGrid(zone: zone)
    let timeline = timeline ?? ""
    try reportingErrors {
      if let out {  // before reading anything
        try OutputPath.checkFile(out)
        try ReportSetPath.check(out)
      }
      var file = try TimelineFile.read(path: timeline, timeZone: zone)
      if let user {
        file = file.timelines(ofUser: user)
      } else if let personal = file.instances.first(where: { $0.user != nil }) {
        throw ValidationError(
          "\(timeline) has per-person timelines (e.g. instance '\(personal.id)' of user '\(personal.user ?? "")'): "
            + "choose whose with --user")
      }
      guard let rows = grid.rowCount(instances: file.instances.count),
        rows <= RelevanceGrid.maximumRows
      else {
        throw ValidationError(
          "the grid has \(grid.count) times × \(file.instances.count) instances, more than \(RelevanceGrid.maximumRows) rows: use a larger --step or a shorter --from/--to range"
        )
      }
      let normaliser = PercentileNormaliser(
        scope: scope == .kind ? .kind : .instance,
        window: windowDays.map { .days($0) } ?? .all)
      try AtomicOutputFile.writing(to: out) { write in
        try file.writeRelevanceCSV(on: grid, normaliser: normaliser, zone: zone, write)
      }
    }
  }

  func zoneRules() throws -> ZoneRules {
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError(
        "--timezone: unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin)")
    }
    return zone
  }

  /// The grid of a timeline: --from, --to and --step are required.
  private func timelineGrid(zone: ZoneRules) throws -> RelevanceGrid {
    guard let from, let to, step != nil else {
      throw ValidationError("--from, --to and --step are required with a timeline file")
    }
    return try grid(from: instant(from, option: "--from", zone: zone), to: instant(to, option: "--to", zone: zone))
  }

  /// The grid from `start` to `end` by --step (default 15 minutes); usage errors name
  /// the option.
  func grid(from start: Instant, to end: Instant) throws -> RelevanceGrid {
    let ms = try stepMilliseconds() ?? 900_000
    let grid: RelevanceGrid
    do throws(RelevanceGrid.Problem) {
      grid = try RelevanceGrid(from: start, to: end, stepMilliseconds: ms)
    } catch {
      switch error {
      case .fromAfterTo:
        throw ValidationError("--from \(from ?? ISO8601.format(start)) is after --to \(to ?? ISO8601.format(end))")
      case .stepNotPositive:
        throw ValidationError("--step must be a positive number of seconds, got \(step ?? "")")
      }
    }
    if grid.count > RelevanceGrid.maximumRows {
      throw ValidationError(
        "the grid has \(grid.count) times, more than \(RelevanceGrid.maximumRows) rows: use a larger --step or a shorter --from/--to range"
      )
    }
    return grid
  }

  /// --step in milliseconds, or nil when not given: a number of seconds, or a number
  /// with a unit `s`, `m`, `h` or `d` (`15m` is 900 000 ms).
  func stepMilliseconds() throws -> Int64? {
    guard let step else { return nil }
    let units: [(suffix: String, seconds: Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
    let unit = units.first { step.hasSuffix($0.suffix) }
    guard let number = Double(unit == nil ? step : String(step.dropLast())), number.isFinite else {
      throw ValidationError(
        "--step: cannot read '\(step)' as a duration: seconds, or a number with a unit s, m, h or d (900, 15m)")
    }
    let seconds = number * (unit?.seconds ?? 1)
    guard seconds > 0 else { throw ValidationError("--step must be a positive number of seconds, got \(step)") }
    let ms = (seconds * 1000).rounded()
    guard ms >= 1, ms < 9.2e18 else {
      throw ValidationError("--step \(step) must be between 0.001 seconds and 9.2e15 seconds")
    }
    return Int64(ms)
  }

  func instant(_ text: String, option: String, zone: ZoneRules) throws -> Instant {
    switch ISO8601.parse(text).flatMap(zone.checkedInstant) {
    case .success(let instant):
      return instant
    case .failure(let error):
      throw ValidationError(
        "\(option): cannot read '\(text)' as an ISO 8601 time: \(error.message) (at character \(error.offset + 1))"
      )
    }
  }

  /// Refuses an `--out` that would replace an input, the timeline, the clues or the
  /// context file (also through a link or a hard link; `InputOutputOverlap`), before
  /// anything is read: the explainer never overwrites its evidence.
  func refuseOverwritingInputs() throws {
    guard let out else { return }
    let inputs = [timeline, clues, context].compactMap { $0 }
    if let problem = InputOutputOverlap.problem(inputs: inputs, outputs: [("--out", out)]) {
      throw ValidationError(TerminalText.escapingControls(problem))
    }
  }
}
