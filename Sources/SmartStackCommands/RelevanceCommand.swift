import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack relevance TIMELINE.json --from T --to T --step SECONDS`: evaluates every
/// instance's relevance state and normalised score on a regular time grid and writes CSV.
struct RelevanceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relevance",
    abstract: "Evaluate relevance timelines on a time grid.",
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
      """)

  /// How scores are pooled for the percentile.
  enum ScopeOption: String, ExpressibleByArgument, CaseIterable {
    case instance, kind
  }

  @Argument(help: "The timeline JSON file.")
  var timeline: String

  @Option(help: "The first grid time, ISO 8601 (e.g. 2026-01-05T00:00:00Z).")
  var from: String

  @Option(help: "The last grid time allowed, ISO 8601.")
  var to: String

  @Option(parsing: .unconditional, help: "The grid step in seconds (> 0; fractions are rounded to the millisecond).")
  var step: Double

  @Option(help: "Compare a score with the instance's own scores or with all of its kind's.")
  var scope: ScopeOption = .instance

  @Option(
    name: .customLong("window-days"), parsing: .unconditional,
    help: "Count only scores dated in the last N days (N >= 1); default: all history.")
  var windowDays: Int?

  @Option(
    help: "IANA time zone for timestamps without Z or an offset, in the file and in --from/--to.")
  var timezone: String = "UTC"

  @Option(help: "Whose timelines to evaluate in a file with per-person instances (\"user\"): every person's and this user's own.")
  var user: String?

  @Option(help: "Write the CSV atomically to this file instead of standard output.")
  var out: String?

  func validate() throws {
    _ = try grid(zone: zoneRules())
    if let windowDays, windowDays < 1 {
      throw ValidationError("--window-days must be at least 1, got \(windowDays)")
    }
  }

  func run() throws {
    let zone = try zoneRules()
    let grid = try grid(zone: zone)
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
      if let out {
        var output = try AtomicOutputFile(path: out)
        do {
          try file.writeRelevanceCSV(on: grid, normaliser: normaliser, zone: zone) { try output.write($0) }
          try output.commit()
        } catch {
          output.discard()
          throw error
        }
      } else {
        file.writeRelevanceCSV(on: grid, normaliser: normaliser, zone: zone) {
          FileHandle.standardOutput.write(Data($0))
        }
      }
    }
  }

  private func zoneRules() throws -> ZoneRules {
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError(
        "--timezone: unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin)")
    }
    return zone
  }

  /// The grid from the options; usage errors name the option.
  private func grid(zone: ZoneRules) throws -> RelevanceGrid {
    let start = try instant(from, option: "--from", zone: zone)
    let end = try instant(to, option: "--to", zone: zone)
    guard step.isFinite, step > 0 else {
      throw ValidationError(
        "--step must be a positive number of seconds, got \(NumberFormat.format(step))")
    }
    let ms = (step * 1000).rounded()
    guard ms >= 1, ms < 9.2e18 else {
      throw ValidationError(
        "--step \(NumberFormat.format(step)) must be between 0.001 seconds and 9.2e15 seconds")
    }
    let grid: RelevanceGrid
    do throws(RelevanceGrid.Problem) {
      grid = try RelevanceGrid(from: start, to: end, stepMilliseconds: Int64(ms))
    } catch {
      switch error {
      case .fromAfterTo:
        throw ValidationError("--from \(from) is after --to \(to)")
      case .stepNotPositive:
        throw ValidationError(
          "--step must be a positive number of seconds, got \(NumberFormat.format(step))")
      }
    }
    if grid.count > RelevanceGrid.maximumRows {
      throw ValidationError(
        "the grid has \(grid.count) times, more than \(RelevanceGrid.maximumRows) rows: use a larger --step or a shorter --from/--to range"
      )
    }
    return grid
  }

  private func instant(_ text: String, option: String, zone: ZoneRules) throws -> Instant {
    switch ISO8601.parse(text).flatMap(zone.checkedInstant) {
    case .success(let instant):
      return instant
    case .failure(let error):
      throw ValidationError(
        "\(option): cannot read '\(text)' as an ISO 8601 time: \(error.message) (at character \(error.offset + 1))"
      )
    }
  }
}

/// A file written in pieces into a temporary file beside `path` and renamed over `path`
/// by `commit()`, so a reader never sees a half-written output.
private struct AtomicOutputFile {
  let path: String
  let temporaryPath: String
  let handle: FileHandle

  init(path: String) throws {
    try OutputPath.checkFile(path)
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else {
      throw OutputFileError(path: path, reason: "the folder \(folder) does not exist")
    }
    var isExistingFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isExistingFolder),
      isExistingFolder.boolValue
    {
      throw OutputFileError(path: path, reason: "is a folder, not a file")
    }
    self.path = path
    self.temporaryPath =
      url.deletingLastPathComponent()
      .appendingPathComponent(
        ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
      ).path
    guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporaryPath)
    else {
      throw OutputFileError(path: path, reason: "permission denied in \(folder)")
    }
    self.handle = handle
  }

  mutating func write(_ bytes: [UInt8]) throws {
    do {
      try handle.write(contentsOf: bytes)
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  func commit() throws {
    do {
      try handle.close()
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
    if rename(temporaryPath, path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporaryPath)
      throw OutputFileError(path: path, reason: reason)
    }
  }

  func discard() {
    try? handle.close()
    try? FileManager.default.removeItem(atPath: temporaryPath)
  }
}
