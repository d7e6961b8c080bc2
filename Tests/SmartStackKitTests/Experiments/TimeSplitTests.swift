import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackExperiments

/// Issue 32 item 1: chronological splits (docs/batch.md, "Time splits").
enum SplitFixture {
  /// Two people over four days, 2026-03-02 … 2026-03-05 (UTC).
  static let log = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,u,A
    2026-03-02T08:10:00Z,u,B
    2026-03-02T09:00:00Z,u,A
    2026-03-02T10:00:00Z,v,B
    2026-03-02T10:30:00Z,v,A
    2026-03-03T08:30:00Z,u,A
    2026-03-03T08:40:00Z,u,B
    2026-03-03T10:05:00Z,v,A
    2026-03-03T10:20:00Z,v,B
    2026-03-04T08:00:00Z,u,B
    2026-03-04T08:02:00Z,u,A
    2026-03-04T09:00:00Z,u,B
    2026-03-04T10:00:00Z,v,A
    2026-03-04T23:58:00Z,v,B
    2026-03-05T00:01:00Z,v,A
    2026-03-05T08:00:00Z,u,A
    2026-03-05T09:00:00Z,u,B
    2026-03-05T10:00:00Z,v,B

    """

  /// A folder holding `log.csv` (`text`) and `exp.json` (`config`).
  static func folder(config: String, log text: String = log) throws -> String {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(text, "log.csv", in: folder)
    try ExperimentFixture.write(config, "exp.json", in: folder)
    return folder
  }

  /// The loaded sources of `config` over `log`.
  static func sources(config: String, log text: String = log, visits: String? = nil) throws -> (
    ExperimentDesign, [any ExperimentSource]
  ) {
    let folder = try folder(config: config, log: text)
    if let visits { try ExperimentFixture.write(visits, "visits.csv", in: folder) }
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    return (design, try SourceLoader.load(design))
  }

  /// `LINE:COLUMN: message` of every problem reading or loading `config`.
  static func problems(_ config: String) -> [String] {
    do {
      _ = try sources(config: config)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }
    } catch {
      return ["\(type(of: error)): \(error)"]
    }
  }

  /// Epoch milliseconds of an ISO 8601 UTC timestamp.
  static func instant(_ text: String) -> Int64 {
    if case .success(.absolute(let instant)) = ISO8601.parse(text) { return instant.milliseconds }
    return .min
  }

  static func config(split: String, visits: String = "donations", strategies: String = #"["mfu"]"#) -> String {
    #"{"name": "s", "replicates": 1, "sources": [{"name": "s", "log": "log.csv", "visits": "\#(visits)", "split": \#(split)}], "strategies": \#(strategies)}"#
  }
}

@Suite("Split windows parse and are validated with located errors")
struct SplitWindowValidationTests {
  @Test func theThreeSpellingsReadBackToThemselves() throws {
    for text in [
      "train=2026-03-01..2026-03-20,validation=2026-03-21..2026-03-24,test=2026-03-25..2026-03-31",
      "train=2026-03-01..2026-03-20,test=2026-03-21..2026-03-31",
      "rolling:folds=4:test-days=7", "per-person:0.7,0.1,0.2",
    ] {
      #expect(try TimeSplit.parse(text).spelling == text)
    }
    #expect(try TimeSplit.parse("rolling:folds=4:test-days=7").points == ["fold1", "fold2", "fold3", "fold4"])
    #expect(try TimeSplit.parse("per-person:0.8,0.2").points == ["test"])
  }

  @Test func badSpellingsSayWhatIsWrong() {
    func message(_ text: String) -> String {
      do throws(TimeSplitError) {
        _ = try TimeSplit.parse(text)
        return "accepted"
      } catch { return error.message }
    }
    #expect(
      message("train=2026-03-01..2026-03-10,test=2026-03-10..2026-03-12")
        == "test (2026-03-10..2026-03-12) must start after train ends (2026-03-01..2026-03-10): the windows are in the order train, validation, test and do not overlap")
    #expect(message("train=2026-03-01..2026-02-28,test=2026-03-10..2026-03-12") == "train: the window 2026-03-01..2026-02-28 ends before it starts")
    #expect(message("train=2026-02-30..2026-03-01,test=2026-03-10..2026-03-12").hasPrefix("train: expected YYYY-MM-DD..YYYY-MM-DD"))
    #expect(message("train=2026-03-01..2026-03-02") == "missing test=A..B (the dates scored as the test window)")
    #expect(message("rolling:folds=1:test-days=7") == "folds: expected a whole number in 2...100, found 1")
    #expect(message("per-person:0.7,0.2,0.2") == "per-person: the fractions must sum to 1, found 1.1")
  }

  @Test func configProblemsAreLocatedAtTheirValue() {
    #expect(
      SplitFixture.problems(SplitFixture.config(split: #"{"train": "2026-03-02..2026-03-03", "test": "2026-03-03..2026-03-05"}"#))
        == ["1:108: sources[0].split: test (2026-03-03..2026-03-05) must start after train ends (2026-03-02..2026-03-03): the windows are in the order train, validation, test and do not overlap"])
    #expect(
      SplitFixture.problems(SplitFixture.config(split: #"{"rolling": {"folds": 0, "testDays": 1}}"#))
        == ["1:130: sources[0].split.rolling.folds: expected an integer in 2...100, found 0"])
    #expect(
      SplitFixture.problems(SplitFixture.config(split: #"{"train": "2026-03-02", "test": "2026-03-04..2026-03-05"}"#))
        == ["1:118: sources[0].split.train: train: expected YYYY-MM-DD..YYYY-MM-DD (first and last local date, inclusive), found '2026-03-02'"])
  }

  @Test func windowsMustLieInTheLogAndFoldsMustLeaveATrainingDay() {
    #expect(
      SplitFixture.problems(SplitFixture.config(split: #""train=2026-03-02..2026-03-03,test=2026-03-04..2026-03-06""#))
        == ["1:108: sources[0].split: test (2026-03-04..2026-03-06) lies outside the log's dates (2026-03-02..2026-03-05, in its time zone UTC)"])
    #expect(
      SplitFixture.problems(SplitFixture.config(split: #"{"rolling": {"folds": 2, "testDays": 2}}"#))
        == ["1:108: sources[0].split: 2 folds of 2 test day(s) need more than 4 days, and the log spans 4 (2026-03-02..2026-03-05, in its time zone UTC): the first fold would have no day to train on"])
  }

  @Test func aWindowIsLocalMidnightToLocalMidnightAcrossDaylightSaving() throws {
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let split = try TimeSplit.parse("train=2026-03-20..2026-03-28,test=2026-03-29..2026-03-29")
    let day = { (y: Int, m: Int, d: Int) in ISO8601.daysFromCivil(year: y, month: m, day: d) }
    let window = try split.window(point: 0, zone: berlin, firstDay: day(2026, 3, 20), lastDay: day(2026, 3, 30))
    // 2026-03-29 in Berlin: 00:00 +01:00 to 00:00 +02:00 the next day, 23 hours.
    #expect(
      window
        == .instants(
          start: SplitFixture.instant("2026-03-28T23:00:00Z"), end: SplitFixture.instant("2026-03-29T22:00:00Z")))
  }
}

@Suite("Only visits inside the scored window count")
struct ScoredWindowTests {
  @Test func aGlobalSplitScoresEachWindowsVisitsOnly() throws {
    let (design, sources) = try SplitFixture.sources(
      config: SplitFixture.config(
        split: #"{"train": "2026-03-02..2026-03-02", "validation": "2026-03-03..2026-03-03", "test": "2026-03-04..2026-03-05"}"#))
    #expect(sources.map(\.name) == ["s[split=validation]", "s[split=test]"])
    let choice = design.strategies[0]
    let validation = try sources[0].run(choice, replicate: 0, seed: 1)
    let test = try sources[1].run(choice, replicate: 0, seed: 1)
    // Visits at donation instants: 4 on 2026-03-03, 9 on 2026-03-04 and -05 (v's visit at
    // 23:58 on the 4th and 00:01 on the 5th both count: the window is [03-04 00:00, 03-06 00:00)).
    #expect(validation.total.visits == 4)
    #expect(test.total.visits == 9)
    #expect(validation.daily.map(\.day) == [ISO8601.daysFromCivil(year: 2026, month: 3, day: 3)])
    // Every visit is at a donation, so every visit has a target.
    #expect(validation.total.targetVisits == 4)
  }

  @Test func aVisitsTargetComesOnlyFromDonationsBeforeTheWindowsEnd() throws {
    // v's visit at 23:58 on 2026-03-04 has its donation at 23:58 (a target); with the
    // validation window ending at 2026-03-05 00:00, a visit at 23:57 whose only donation
    // within the horizon comes at 00:01 the next day has none.
    let visits = "timestamp,user\n2026-03-04T23:57:00Z,v\n2026-03-05T00:00:30Z,v\n"
    let (design, sources) = try SplitFixture.sources(
      config: SplitFixture.config(
        split: #"{"train": "2026-03-02..2026-03-03", "validation": "2026-03-04..2026-03-04", "test": "2026-03-05..2026-03-05"}"#,
        visits: "visits.csv"),
      log: SplitFixture.log.replacingOccurrences(of: "2026-03-04T23:58:00Z,v,B\n", with: ""), visits: visits)
    let validation = try sources[0].run(design.strategies[0], replicate: 0, seed: 1)
    let test = try sources[1].run(design.strategies[0], replicate: 0, seed: 1)
    #expect(validation.total.visits == 1)
    #expect(validation.total.targetVisits == 0)
    #expect(test.total.visits == 1)
    #expect(test.total.targetVisits == 1)
  }
}

@Suite("Donations inside the scored window still train the strategy")
struct OnlineLearningInSplitTests {
  @Test func mfuLearnsFromTheTestWindowsDonations() throws {
    // Before the window u donates A three times; inside it, B six times. Frozen at the
    // window's start mfu would show A at every visit (0 hits); learning online it shows
    // B once B's count passes A's: at 08:40 (B 4 > A 3) and 08:50 (5 > 3), and at 08:30
    // (3 = 3) the tie goes to B, the more recent (so 3 hits).
    var log = "timestamp,user,kind\n2026-03-02T08:00:00Z,u,A\n2026-03-02T09:00:00Z,u,A\n2026-03-02T10:00:00Z,u,A\n"
    for minute in stride(from: 0, through: 50, by: 10) { log += "2026-03-03T08:\(minute == 0 ? "00" : String(minute)):00Z,u,B\n" }
    let (design, sources) = try SplitFixture.sources(
      config: SplitFixture.config(split: #""train=2026-03-02..2026-03-02,test=2026-03-03..2026-03-03""#), log: log)
    let test = try sources[0].run(design.strategies[0], replicate: 0, seed: 1)
    #expect(test.total.visits == 6)
    #expect(test.total.targetVisits == 6)
    #expect(test.total.hits == 3)
  }
}

@Suite("Nothing after the validation window changes its metrics")
struct ValidationWindowInvarianceTests {
  /// Validation metrics (every run value and the daily rows) as text, for comparison.
  static func validationMetrics(log: String, visits: String, strategies: String) throws -> [String] {
    let (design, sources) = try SplitFixture.sources(
      config: SplitFixture.config(
        split: #""train=2026-03-02..2026-03-02,validation=2026-03-03..2026-03-03,test=2026-03-04..2026-03-05""#,
        visits: "visits.csv", strategies: strategies),
      log: log, visits: visits)
    return try design.strategies.map { choice in
      let m = try sources[0].run(choice, replicate: 0, seed: 7)
      return m.values.map(RunTables.cell).joined(separator: ",") + "|"
        + m.daily.map { "\($0.day):\($0.counts.visits):\($0.counts.hits)" }.joined(separator: ";")
    }
  }

  @Test func changingDonationsOrVisitsAfterTheValidationEndChangesNoValidationMetric() throws {
    let strategies = #"["mfu", "mru", "hour-of-week", "markov", "random", "oracle"]"#
    let baseVisits = "timestamp,user\n"
      + ["2026-03-02T08:05:00Z,u", "2026-03-03T08:29:00Z,u", "2026-03-03T08:39:00Z,u", "2026-03-03T10:04:00Z,v",
        "2026-03-03T23:59:00Z,v", "2026-03-04T08:00:00Z,u", "2026-03-05T09:00:00Z,v"].joined(separator: "\n") + "\n"
    let expected = try Self.validationMetrics(log: SplitFixture.log, visits: baseVisits, strategies: strategies)
    var generator = Xoshiro256StarStar(seed: 2026)
    let kinds = ["A", "B", "C"]
    for _ in 0..<12 {
      // Everything from 2026-03-04 00:00 on is redrawn: donations and visits.
      let before = SplitFixture.log.split(separator: "\n").filter { !$0.hasPrefix("2026-03-04") && !$0.hasPrefix("2026-03-05") }.map(String.init)
      var after: [String] = []
      var afterVisits: [String] = []
      for _ in 0..<Int(generator.nextInt(below: 8)) {
        let minute = Int(generator.nextInt(below: 2 * 24 * 60))
        let stamp = String(format: "2026-03-%02dT%02d:%02d:00Z", 4 + minute / 1440, minute % 1440 / 60, minute % 60)
        let user = generator.nextInt(below: 2) == 0 ? "u" : "v"
        after.append("\(stamp),\(user),\(kinds[Int(generator.nextInt(below: 3))])")
        if generator.nextInt(below: 2) == 0 { afterVisits.append("\(stamp),\(user)") }
      }
      after.sort()
      afterVisits.sort()
      // An anchor on the last day keeps the log's dates (the test window lies in them).
      let log = (before + after + ["2026-03-05T23:59:00Z,u,A"]).joined(separator: "\n") + "\n"
      let visits = baseVisits.split(separator: "\n").filter { !$0.hasPrefix("2026-03-04") && !$0.hasPrefix("2026-03-05") }
        .joined(separator: "\n") + "\n" + afterVisits.map { $0 + "\n" }.joined()
      #expect(try Self.validationMetrics(log: log, visits: visits, strategies: strategies) == expected, "\(log)")
    }
  }
}

@Suite("A rolling back-test reports each fold and their mean")
struct RollingBackTestTests {
  static let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Datasets/logs/commuter").path

  @Test func fourFoldsOnTheCommuterLogGiveFourFoldRowsAndAMeanWithATInterval() async throws {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write(
      #"{"name": "c", "replicates": 1, "sources": [{"name": "commuter", "log": "\#(Self.datasets)/donations.csv", "visits": "sessions:5", "stack": "\#(Self.datasets)/stack.json", "timezone": "Europe/Berlin", "split": "rolling:folds=4:test-days=1"}], "strategies": ["mfu", "hour-of-week"]}"#,
      "exp.json", in: folder)
    _ = try await run(folder, into: "out")
    let summary = try String(contentsOfFile: folder + "/out/summary.csv", encoding: .utf8)
    let lines = summary.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    #expect(lines[0] == ["source", "split", "strategy", "parameters", "label", "metric", "mean", "ci_low", "ci_high", "n"])
    let rows = lines.filter { $0[2] == "mfu" && $0[5] == "hit_rate" }
    let labels: [String] = ["commuter[split=fold1]", "commuter[split=fold2]", "commuter[split=fold3]", "commuter[split=fold4]", "commuter[split=mean]"]
    #expect(rows.map { $0[0] } == labels)
    #expect(rows.map { $0[1] } == ["fold1", "fold2", "fold3", "fold4", "mean"])
    // The mean row: the mean of the four fold means, n = 4 folds, a t interval around it.
    let folds = rows.prefix(4).map { Double($0[6])! }
    let mean = try #require(rows.last)
    let centre = folds.reduce(0, +) / 4
    #expect(abs(Double(mean[6])! - centre) < 1e-12)
    #expect(mean[9] == "4")
    let sd = (folds.map { ($0 - centre) * ($0 - centre) }.reduce(0, +) / 3).squareRoot()
    let half = 3.182446305284263 * sd / 2  // t(0.975, 3) · s / √4
    #expect(abs(Double(mean[7])! - (centre - half)) < 1e-9)
    #expect(abs(Double(mean[8])! - (centre + half)) < 1e-9)
    // Fold k scores local day L − 4 + k of the log (L = 2026-03-08 in Berlin): daily.csv.
    let daily = try String(contentsOfFile: folder + "/out/daily.csv", encoding: .utf8)
    for (k, date) in ["2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"].enumerated() {
      let lines = daily.split(separator: "\n").filter { $0.contains(",fold\(k + 1),mfu,") }
      let dates: Set<String> = Set(lines.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[7]) })
      #expect(dates == [date], "fold \(k + 1)")
    }
    // paired.csv: a mean row of the fold differences, without a p-value.
    let paired = try String(contentsOfFile: folder + "/out/paired.csv", encoding: .utf8)
    #expect(paired.split(separator: "\n").contains { $0.hasPrefix("commuter[split=mean],mean,hour-of-week,") && $0.contains(",hit_rate,") })
  }
}

@Suite("Split experiments shard, merge and resume like any other")
struct SplitShardMergeTests {
  @Test func shardsMergedEqualOneRunAndTheJournalKeepsTheSplit() async throws {
    let folder = try SplitFixture.folder(
      config: #"{"name": "s", "replicates": 2, "sources": [{"name": "s", "log": "log.csv", "split": "rolling:folds=3:test-days=1"}, {"name": "p", "log": "log.csv", "split": {"perPerson": [0.5, 0.25, 0.25]}}], "strategies": ["mfu", "random"]}"#)
    _ = try await run(folder, into: "one")
    for k in 1...2 { _ = try await run(folder, into: "shard-\(k)", shard: Shard(index: k, count: 2)!) }
    _ = try await BatchMerge.merge((1...2).map { folder + "/shard-\($0)" }, into: folder + "/merged", jobs: 2)
    let names = ExperimentOutputs.completeFiles
    let one = try ExperimentFixture.outputs(folder + "/one", names)
    #expect(try ExperimentFixture.outputs(folder + "/merged", names) == one)
    let runs = String(decoding: one["runs.csv"]!, as: UTF8.self).split(separator: "\n")
    let expectedRows: Int = 1 + 5 * 2 * 2  // header + (3 folds + 2 per-person points) × 2 strategies × 2 replicates
    #expect(runs.count == expectedRows)
    #expect(runs[1].hasPrefix("s[split=fold1]|mfu|0,s[split=fold1],fold1,mfu,"))
    #expect(runs.last?.hasPrefix("p[split=test]|random|1,p[split=test],test,random,") == true)
    let journal = try Journal.read(path: Journal.path(directory: folder + "/one", shard: nil))
    #expect(journal.outline.sources.map { $0.split ?? "-" } == ["fold1", "fold2", "fold3", "validation", "test"])
    // --resume from the journal rebuilds the same bytes.
    _ = try await run(folder, into: "one", resume: true)
    #expect(try ExperimentFixture.outputs(folder + "/one", names) == one)
  }
}
