import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("App-events importer")
struct AppEventsImporterTests {
  private static let berlin = ZoneRules(identifier: "Europe/Berlin")!

  static let text = ImporterFixtures.appEventsText

  private func read(_ text: String, _ importer: AppEventsImporter) throws -> ImportResult {
    try Array(text.utf8).withUnsafeBufferPointer { try importer.read($0, file: "e.csv") }
  }

  private func donations(_ result: ImportResult) -> [String] {
    result.donations.donations.map(\.description)
  }

  private func visits(_ log: VisitLog) -> [String] {
    (0..<log.count).map {
      "\(ISO8601.format(Instant(milliseconds: log.times[$0]))) \(log.users[$0])"
    }
  }

  @Test func launcherEventsAreVisitsAndSystemEventsAreDropped() throws {
    let importer = AppEventsImporter(
      timeZone: Self.berlin, launcherApps: ["com.android.launcher3"],
      systemApps: ["com.android.systemui"])
    let result = try read(Self.text, importer)
    // 08:30 naive in Berlin (CET, +01:00) is 07:30Z; event names match in any case.
    #expect(
      donations(result) == [
        "2026-03-02T07:00:10Z alice com.whatsapp", "2026-03-02T07:30:00Z bob com.spotify",
        "2026-03-02T09:00:00Z default com.whatsapp",
      ])
    // A visit event is a visit even when its app is a system app.
    #expect(
      visits(result.visits) == [
        "2026-03-02T07:00:00Z alice", "2026-03-02T07:00:01Z alice", "2026-03-02T07:31:00Z bob",
      ])
    let c = result.counts
    #expect(c.rows == 9)
    #expect(
      c.events == [
        NamedCount("open", 3), NamedCount("resume", 2), NamedCount("unlock", 1),
        NamedCount("home", 1),
        NamedCount("close", 0), NamedCount("pause", 2),
      ])
    #expect((c.donations, c.visits, c.launcherVisits, c.counted) == (3, 3, 1, 2))
    #expect(c.dropped == [NamedCount("system_apps", 1), NamedCount("bad_rows", 0)])
    #expect((c.users, c.apps) == (3, 2))
  }

  @Test func withoutLauncherOrSystemAppsEveryForegroundEventIsADonation() throws {
    let result = try read(Self.text, AppEventsImporter(timeZone: Self.berlin))
    #expect(
      donations(result) == [
        "2026-03-02T07:00:01Z alice com.android.launcher3",
        "2026-03-02T07:00:05Z alice com.android.systemui",
        "2026-03-02T07:00:10Z alice com.whatsapp",
        "2026-03-02T07:30:00Z bob com.spotify", "2026-03-02T09:00:00Z default com.whatsapp",
      ])
    #expect(visits(result.visits) == ["2026-03-02T07:00:00Z alice", "2026-03-02T07:31:00Z bob"])
    let c = result.counts
    #expect((c.donations, c.visits, c.launcherVisits, c.counted, c.apps) == (5, 2, 0, 2, 4))
    #expect(c.dropped == [NamedCount("system_apps", 0), NamedCount("bad_rows", 0)])
  }

  @Test func theEventMappingCanBeReplaced() throws {
    let text = """
      timestamp,event,app,user,extra
      2026-03-02T07:00:00Z,KEYGUARD_HIDDEN,android,p1,x
      2026-03-02T07:00:02Z,MOVE_TO_FOREGROUND,com.maps,p1,x
      2026-03-02T07:05:00Z,MOVE_TO_BACKGROUND,com.maps,p1,x

      """
    let importer = AppEventsImporter(
      donationEvents: ["MOVE_TO_FOREGROUND"], visitEvents: ["KEYGUARD_HIDDEN"],
      countedEvents: ["MOVE_TO_BACKGROUND"])
    #expect(importer.configurationProblems.isEmpty)
    let result = try read(text, importer)
    #expect(donations(result) == ["2026-03-02T07:00:02Z p1 com.maps"])
    #expect(visits(result.visits) == ["2026-03-02T07:00:00Z p1"])
    #expect(
      result.counts.events == [
        NamedCount("move_to_foreground", 1), NamedCount("keyguard_hidden", 1),
        NamedCount("move_to_background", 1),
      ])
    // The default names are now unknown.
    let list = diagnostics {
      _ = try read("timestamp,app,event\n2026-03-02T07:00:00Z,a,open\n", importer)
    }
    #expect(
      list?.lines == [
        "e.csv:2:24: unknown event 'open' (expected one of: move_to_foreground, keyguard_hidden, move_to_background; change the mapping with --donation-events, --visit-events or --counted-events)"
      ])
  }

  @Test func logsReadBackWithTheLogReaders() throws {
    let result = try read(Self.text, AppEventsImporter(timeZone: Self.berlin))
    #expect(
      try DonationLog.read(bytes: Array(result.donations.csvText().utf8), file: "o.csv")
        == result.donations)
    #expect(
      try DonationLog.read(bytes: Array(result.donations.jsonlText().utf8), file: "o.jsonl")
        == result.donations)
    let visitLog = try VisitLog.read(bytes: Array(result.visits.csvText().utf8), file: "v.csv")
    #expect(visitLog.times == result.visits.times)
    #expect(visitLog.users == result.visits.users)
  }

  private static let badText = """
    timestamp,user,app,event
    2026-03-02T07:00:00Z,alice,com.a,launch
    2026-03-02T07:00:00Z,alice,,open
    ,alice,com.a,open
    2026-02-30T07:00:00Z,alice,com.a,
    "2026-03-02T07:00:00Z",alice,"com.a",close
    2026-03-02T07:00:00Z,alice,com.a
    2026-03-02T07:00:00Z,"ali"ce,com.a,open

    """

  private static let badDiagnostics = [
    "e.csv:2:34: unknown event 'launch' (expected one of: open, resume, unlock, home, close, pause; change the mapping with --donation-events, --visit-events or --counted-events)",
    "e.csv:3:28: app is empty (a 'open' event needs the app that came to the foreground)",
    "e.csv:4:1: timestamp is empty",
    "e.csv:5:9: timestamp: day 30 does not exist in February 2026",
    "e.csv:5:34: event is empty (expected one of: open, resume, unlock, home, close, pause)",
    "e.csv:7:33: expected 4 fields as in the header, found 3",
    "e.csv:8:27: text after a closing quote",
  ]

  @Test func everyBadRowIsReportedAtItsLineAndColumn() {
    let list = diagnostics { _ = try read(Self.badText, AppEventsImporter()) }
    #expect(list?.lines == Self.badDiagnostics)
  }

  @Test func skippingBadRowsCountsThemAndKeepsTheRest() throws {
    let result = try read(Self.badText, AppEventsImporter(skipBadRows: true))
    #expect(result.skippedRows.lines == Self.badDiagnostics)
    #expect(result.counts.rows == 7)
    #expect(result.counts.dropped("bad_rows") == 6)
    #expect(result.counts.counted == 1)
    #expect(result.counts.events("close") == 1)
    #expect(result.donations.isEmpty)
  }

  @Test func headerProblemsAreExplained() {
    let tabs = diagnostics { _ = try read("timestamp\tapp\tevent\n", AppEventsImporter()) }
    #expect(
      tabs?.lines == [
        "e.csv:1:1: missing required columns 'timestamp', 'app', 'event' (columns found: 'timestamp\tapp\tevent'); expected a header row timestamp,user,app,event; the columns must be separated by commas, not tabs"
      ])
    let duplicate = diagnostics { _ = try read("timestamp,app,event,app\n", AppEventsImporter()) }
    #expect(duplicate?.lines == ["e.csv:1:21: duplicate column 'app' in the header"])
    let empty = diagnostics { _ = try read("", AppEventsImporter()) }
    #expect(
      empty?.lines == [
        "e.csv:1:1: empty file: expected a header row naming the columns timestamp, user, app, event"
      ])
  }

  @Test func contradictoryConfigurationsAreDescribed() {
    #expect(
      AppEventsImporter(donationEvents: ["open"], visitEvents: ["Open", "home"])
        .configurationProblems == [
          "event 'open' is both a donation and a visit event"
        ])
    #expect(
      AppEventsImporter(launcherApps: ["x"], systemApps: ["x"]).configurationProblems == [
        "app 'x' is both a launcher and a system app"
      ])
    #expect(
      AppEventsImporter(donationEvents: [], visitEvents: []).configurationProblems == [
        "there are no donation events and no visit events: nothing would be imported"
      ])
    #expect(
      AppEventsImporter(countedEvents: ["close", ""]).configurationProblems == [
        "the counted events contain an empty name"
      ])
    #expect(AppEventsImporter().configurationProblems.isEmpty)
  }
}
